// One rule's words (after `-A CHAIN`) to a canonical Rule, and a Rule back to
// the line iptables-save prints. Reading follows iptables' command parser: `!`
// inverts the option after it, an option belongs to the newest loaded match
// that has it, `-p tcp` loads the tcp match by itself when one of its options
// comes up, and every extension checks itself once the rule is read.
import { type Extension, type Option, ownOption } from './extension';
import { MATCHES } from './matches';
import { ownGet } from './state';
import { TARGETS } from './targets';
import type { Match, Neg, Rule, TableName, Target } from './types';
import { parseAddress, parseUint } from './values';

export interface RuleScope {
  table: TableName;
  /** What a -j name that is no target extension names in this table. */
  chainKind(name: string): 'user' | 'builtin' | null;
}

type BaseKey = 'src' | 'dst' | 'in' | 'out' | 'proto';
const BASE: Record<string, BaseKey> = {
  '-s': 'src',
  '--source': 'src',
  '-d': 'dst',
  '--destination': 'dst',
  '-i': 'in',
  '--in-interface': 'in',
  '-o': 'out',
  '--out-interface': 'out',
  '-p': 'proto',
  '--protocol': 'proto',
};
const BASE_FLAG: Record<BaseKey, string> = { src: '-s', dst: '-d', in: '-i', out: '-o', proto: '-p' };

/** Protocols by name and number; 'all' (0) is no test, as iptables stores it. */
const PROTOCOLS: Record<string, 'tcp' | 'udp' | 'icmp' | 'all'> = { tcp: 'tcp', '6': 'tcp', udp: 'udp', '17': 'udp', icmp: 'icmp', '1': 'icmp', all: 'all', '0': 'all' };

/** Linux's dev_valid_name, less the quotes a saved rule could not give back. */
const validIface = (s: string): boolean => s.length > 0 && s.length < 16 && s !== '.' && s !== '..' && !/[\s/:"']/.test(s);

/** The table is the `*table` line's to say. */
export const NO_TABLE_OPTION = 'The -t option cannot be used in iptables-restore';

interface Loaded<S> {
  ext: Extension<S>;
  s: S;
  seen: Set<string>;
}

export function parseRule(words: readonly string[], scope: RuleScope): { rule: Rule } | { error: string } {
  const rule: Rule = { packets: 0, bytes: 0, src: null, dst: null, in: null, out: null, proto: null, matches: [], target: null };
  const seenBase = new Set<BaseKey>();
  const matches: Loaded<Match>[] = [];
  let target: Loaded<Target> | null = null;
  let neg = false;
  const fail = (error: string) => ({ error });

  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const arg = (): string | undefined => words[++i];
    if (w === '!') {
      if (neg) return fail("multiple `!' flags not allowed");
      neg = true;
      continue;
    }
    const base = ownGet(BASE, w);
    if (base) {
      const v = arg();
      if (v === undefined) return fail(`option "${w}" requires an argument`);
      if (seenBase.has(base)) return fail(`multiple ${BASE_FLAG[base]} flags not allowed`);
      const err = setBase(rule, base, v, neg);
      if (err) return fail(err);
      seenBase.add(base);
      neg = false;
      continue;
    }
    if (w === '-m' || w === '--match' || w === '-j' || w === '--jump') {
      const name = arg();
      if (name === undefined) return fail(`option "${w}" requires an argument`);
      if (neg) return fail(`unexpected ! flag before ${w}`);
      if (w === '-m' || w === '--match') {
        const ext = ownGet(MATCHES, name);
        if (!ext) return fail(`Couldn't load match \`${name}':No such file or directory`);
        matches.push({ ext, s: ext.create(), seen: new Set() });
        continue;
      }
      if (target || rule.target) return fail('multiple -j flags not allowed');
      const ext = ownGet(TARGETS, name);
      if (ext) target = { ext, s: ext.create(), seen: new Set() };
      else {
        const kind = scope.chainKind(name);
        if (kind === 'builtin') return fail(`Can't jump to built-in chain \`${name}'`);
        if (kind === null) return fail(`Couldn't load target \`${name}':No such file or directory`);
        rule.target = { kind: 'jump', chain: name };
      }
      continue;
    }
    if (w === '-t' || w === '--table') return fail(NO_TABLE_OPTION);
    if (w === '-g' || w === '--goto') return fail(`${w} is not modelled`);
    if (w.length < 2 || w[0] !== '-') return fail(`Bad argument \`${w}'`);

    let owner: Loaded<Match> | Loaded<Target> | null = null;
    let opt: Option<Match> | Option<Target> | undefined;
    for (let k = matches.length - 1; k >= 0 && !opt; k--) if ((opt = ownOption(matches[k]!.ext, w))) owner = matches[k]!;
    if (!opt && target && (opt = ownOption(target.ext, w))) owner = target;
    // `-p tcp --dport 80`: the protocol's match, loaded when first needed.
    const p = rule.proto?.value;
    if (!opt && (p === 'tcp' || p === 'udp') && !matches.some((m) => m.ext.name === p) && (opt = ownOption(MATCHES[p]!, w))) {
      owner = { ext: MATCHES[p]!, s: MATCHES[p]!.create(), seen: new Set() };
      matches.push(owner);
    }
    if (!opt || !owner) return fail(`unknown option "${w}"`);
    if (neg && !opt.invert) return fail(`${owner.ext.name}: "${w}" option cannot be inverted`);
    if (owner.seen.has(opt.name)) return fail(`${owner.ext.name}: "${opt.name}" option may only be specified once`);
    const v = opt.arg ? arg() : '';
    if (v === undefined) return fail(`option "${w}" requires an argument`);
    const err = (opt as Option<unknown>).apply(owner.s, v, neg, owner.seen);
    if (err) return fail(err);
    owner.seen.add(opt.name);
    neg = false;
  }
  if (neg) return fail("Bad argument `!'");

  rule.matches = matches.map((m) => m.s);
  if (target) rule.target = target.s;
  for (const l of [...matches, ...(target ? [target] : [])] as Loaded<unknown>[]) {
    const err = l.ext.check(l.s, rule, l.seen, scope.table);
    if (err) return fail(err);
  }
  return { rule };
}

function setBase(rule: Rule, key: BaseKey, v: string, neg: boolean): string | null {
  if (key === 'proto') {
    const p = ownGet(PROTOCOLS, v);
    if (!p) return `unknown protocol "${v}" specified`;
    rule.proto = p === 'all' ? null : { value: p, neg };
  } else if (key === 'src' || key === 'dst') {
    const cidr = parseAddress(v);
    if (!cidr) return `host/network \`${v}' not found`;
    // 0.0.0.0/0 is no test: iptables stores (and prints) nothing for it.
    rule[key] = cidr === '0.0.0.0/0' && !neg ? null : { value: cidr, neg };
  } else {
    if (!validIface(v)) return `interface name \`${v}' is not valid`;
    rule[key] = { value: v, neg };
  }
  return null;
}

const baseWords = (flag: string, v: Neg<string> | null): string => (v ? `${v.neg ? ' !' : ''} ${flag} ${v.value}` : '');

/** The rule as iptables-save prints it: `-A CHAIN`, -s -d -i -o -p, the matches in order, then -j. */
export function formatRule(chain: string, r: Rule): string {
  let s = `-A ${chain}${baseWords('-s', r.src)}${baseWords('-d', r.dst)}${baseWords('-i', r.in)}${baseWords('-o', r.out)}${baseWords('-p', r.proto)}`;
  for (const m of r.matches) s += ` -m ${m.kind}${MATCHES[m.kind]!.save(m)}`;
  if (r.target) s += r.target.kind === 'jump' ? ` -j ${r.target.chain}` : ` -j ${r.target.kind}${TARGETS[r.target.kind]!.save(r.target)}`;
  return s;
}

/** A rule number as -I and -D take it (1-based); null when it is not one. */
export function parseRuleNumber(s: string): number | null {
  const n = parseUint(s);
  return n === null || n === 0 ? null : n;
}
