// The shape shared by match (-m) and target (-j) extensions: their options,
// the check once the whole rule is read, and how iptables-save prints them.
import type { Rule, TableName } from './types';

export interface Option<S> {
  /** Canonical long name; aliases share it, so `--dport` then `--destination-port` is a repeat. */
  name: string;
  arg: boolean;
  /** Whether `!` may precede it. */
  invert?: boolean;
  /** Apply a value; an error message when it is not acceptable. */
  apply(s: S, value: string, neg: boolean, seen: ReadonlySet<string>): string | null;
}

export interface Extension<S> {
  name: string;
  create(): S;
  /** By every spelling, e.g. '--dport' and '--destination-port'. */
  options: Record<string, Option<S>>;
  /** The rule-level check (libxtables final_check, the kernel's checkentry); an error message or null. */
  check(s: S, rule: Rule, seen: ReadonlySet<string>, table: TableName): string | null;
  /** The options as iptables-save prints them, each with a leading space. */
  save(s: S): string;
}

/** An option under all its spellings, the canonical one first. */
export type OptionEntry<S> = [string[], Omit<Option<S>, 'name'>];

/** Options by every spelling. */
export function optionTable<S>(entries: OptionEntry<S>[]): Record<string, Option<S>> {
  const out: Record<string, Option<S>> = {};
  for (const [names, o] of entries) {
    const opt = { ...o, name: names[0]! };
    for (const n of names) out[n] = opt;
  }
  return out;
}

export const ownOption = <S>(e: Extension<S>, word: string): Option<S> | undefined => (Object.hasOwn(e.options, word) ? e.options[word] : undefined);

/** Whether the rule's protocol is exactly `p` (not inverted), as a port match or port-rewriting target needs. */
export const protoIs = (rule: Rule, ...p: string[]): boolean => !!rule.proto && !rule.proto.neg && p.includes(rule.proto.value);
