// iptables-restore --noflush, as kube-proxy runs it: `*table` ... `COMMIT`
// blocks of chain declarations and commands. A declared user chain is created,
// or flushed when it exists; chains the input does not name keep their rules.
// The whole input applies or none of it does (the commands work on a
// copy-on-write draft of the tables). Loops among chains are refused as the
// kernel refuses them (ELOOP), so a committed ruleset always terminates.
import { NO_TABLE_OPTION, parseRule, parseRuleNumber, formatRule, type RuleScope } from './rule';
import { chainOf, ownSet } from './state';
import { TARGETS } from './targets';
import type { Chain, Netfilter, Rule, Table, TableName } from './types';
import { splitWords } from './words';

export type RestoreResult = { ok: true } | { ok: false; message: string };

interface Draft {
  name: TableName;
  chains: Record<string, Chain>;
  order: string[];
  /** Chains already copied into this draft (safe to change in place). */
  own: Set<string>;
}

const draftOf = (name: TableName, t: Table): Draft => ({ name, chains: { ...t.chains }, order: [...t.order], own: new Set() });

function writable(d: Draft, name: string): Chain {
  const c = chainOf(d, name)!;
  if (d.own.has(name)) return c;
  const copy = { ...c, rules: [...c.rules] };
  ownSet(d.chains, name, copy);
  d.own.add(name);
  return copy;
}

const NO_CHAIN = 'No chain/target/match by that name.';

/** XT_EXTENSION_MAXNAMELEN less its NUL; names that read as options or targets are refused as iptables refuses them. */
function badChainName(name: string): string | null {
  if (name.length > 28) return `Invalid chain name \`${name}' (28 chars max)`;
  if (name === '' || name[0] === '-' || name[0] === '!' || /["']/.test(name)) return `Invalid chain name \`${name}'`;
  if (Object.hasOwn(TARGETS, name)) return `chain name \`${name}' may not clash with target name`;
  return null;
}

function createChain(d: Draft, name: string): void {
  ownSet(d.chains, name, { builtin: false, policy: null, packets: 0, bytes: 0, rules: [] });
  d.own.add(name);
  d.order.push(name);
}

function references(d: Draft, name: string, from: (c: Chain) => boolean = () => true): boolean {
  return Object.values(d.chains).some((c) => from(c) && c.rules.some((r) => r.target?.kind === 'jump' && r.target.chain === name));
}

/** Whether `to` is reachable from `from` through jumps (a new jump to `from` in `to` would close a loop). */
function reaches(d: Draft, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const c = stack.pop()!;
    if (c === to) return true;
    if (seen.has(c)) continue;
    seen.add(c);
    for (const r of chainOf(d, c)?.rules ?? []) if (r.target?.kind === 'jump') stack.push(r.target.chain);
  }
  return false;
}

/** `:NAME POLICY [packets:bytes]` (split on blanks, no quoting, as iptables-restore reads it). */
function declareChain(d: Draft, line: string, lineNo: number): string | null {
  const [name = '', policy, counters, ...extra] = line.slice(1).trim().split(/[ \t]+/);
  if (policy === undefined) return `policy invalid for chain \`${name}'`;
  if (counters !== undefined && !/^\[\d+:\d+\]$/.test(counters)) return `invalid policy counters for chain \`${name}'`;
  if (extra.length) return `Bad argument \`${extra[0]}'`;
  const c = chainOf(d, name);
  if (c?.builtin) {
    // "-" leaves a builtin's policy; counters apply only with --counters, which kube-proxy does not pass.
    if (policy === '-') return null;
    if (policy !== 'ACCEPT' && policy !== 'DROP') return `Can't set policy \`${policy}' on \`${name}' line ${lineNo}: Bad policy name`;
    writable(d, name).policy = policy;
    return null;
  }
  if (policy !== '-') return `Can't set policy \`${policy}' on \`${name}' line ${lineNo}: Bad built-in chain name`;
  if (c) writable(d, name).rules = [];
  else {
    const bad = badChainName(name);
    if (bad) return bad;
    createChain(d, name);
  }
  return null;
}

function scopeOf(d: Draft): RuleScope {
  return { table: d.name, chainKind: (n) => (chainOf(d, n) ? (chainOf(d, n)!.builtin ? 'builtin' : 'user') : null) };
}

/** A rule for `chain` from the words after it; it may not close a loop of jumps. */
function ruleFor(d: Draft, chain: string, words: string[]): Rule | string {
  const r = parseRule(words, scopeOf(d));
  if ('error' in r) return r.error;
  const t = r.rule.target;
  if (t?.kind === 'jump' && reaches(d, t.chain, chain)) return 'Too many levels of symbolic links';
  return r.rule;
}

/** One command line (after an optional `[packets:bytes]` prefix, ignored without --counters). */
function command(d: Draft, words: string[]): string | null {
  const [cmd = '', chain, ...rest] = words;
  const needChain = (): Chain | string => (chain === undefined ? `option "${cmd}" requires an argument` : (chainOf(d, chain) ?? NO_CHAIN));
  switch (cmd) {
    case '-A':
    case '--append': {
      const c = needChain();
      if (typeof c === 'string') return c;
      const r = ruleFor(d, chain!, rest);
      if (typeof r === 'string') return r;
      writable(d, chain!).rules.push(r);
      return null;
    }
    case '-I':
    case '--insert':
    case '-D':
    case '--delete': {
      const c = needChain();
      if (typeof c === 'string') return c;
      // A rule number follows the chain when the next word is no option (iptables' parse_rulenumber).
      const numbered = rest.length > 0 && rest[0]![0] !== '-' && rest[0] !== '!';
      const num = numbered ? parseRuleNumber(rest[0]!) : null;
      if (numbered && num === null) return `Invalid rule number \`${rest[0]}'`;
      const spec = numbered ? rest.slice(1) : rest;
      if (cmd === '-I' || cmd === '--insert') {
        const at = (num ?? 1) - 1;
        if (at > c.rules.length) return 'Index of insertion too big.';
        const r = ruleFor(d, chain!, spec);
        if (typeof r === 'string') return r;
        writable(d, chain!).rules.splice(at, 0, r);
        return null;
      }
      if (numbered && spec.length) return `Bad argument \`${spec[0]}'`;
      const at = num === null ? indexOfRule(d, chain!, c, spec) : num - 1;
      if (typeof at === 'string') return at;
      if (at >= c.rules.length) return 'Index of deletion too big.';
      writable(d, chain!).rules.splice(at, 1);
      return null;
    }
    case '-F':
    case '--flush':
    case '-X':
    case '--delete-chain': {
      if (rest.length) return `Bad argument \`${rest[0]}'`;
      const flush = cmd === '-F' || cmd === '--flush';
      if (chain === undefined && !flush) return deleteAllUserChains(d);
      if (chain === undefined) {
        for (const n of d.order) writable(d, n).rules = [];
        return null;
      }
      const c = chainOf(d, chain);
      if (!c) return NO_CHAIN;
      if (flush) writable(d, chain).rules = [];
      else {
        if (c.builtin) return `Can't delete built-in chain \`${chain}'`;
        if (references(d, chain)) return "Can't delete chain with references left";
        // nf_tables deletes a chain's rules with it (legacy iptables wanted it empty).
        deleteChain(d, chain);
      }
      return null;
    }
    case '-N':
    case '--new-chain': {
      if (chain === undefined) return `option "${cmd}" requires an argument`;
      if (rest.length) return `Bad argument \`${rest[0]}'`;
      if (chainOf(d, chain)) return 'Chain already exists.';
      const bad = badChainName(chain);
      if (bad) return bad;
      createChain(d, chain);
      return null;
    }
    case '-P':
    case '--policy': {
      const c = needChain();
      if (typeof c === 'string') return c;
      const [policy, ...extra] = rest;
      if (policy === undefined || extra.length) return `-P requires a chain and a policy`;
      if (!c.builtin) return `Can't set policy \`${policy}' on \`${chain}': Bad built-in chain name`;
      if (policy !== 'ACCEPT' && policy !== 'DROP') return `Bad policy name \`${policy}'`;
      writable(d, chain!).policy = policy;
      return null;
    }
    default:
      if (cmd === '-t' || cmd === '--table') return NO_TABLE_OPTION;
      return cmd === '' ? 'no command specified' : `Bad argument \`${cmd}'`;
  }
}

/** -D by rule: the first rule that prints the same (the kernel compares whole entries). */
function indexOfRule(d: Draft, chain: string, c: Chain, words: string[]): number | string {
  const r = parseRule(words, scopeOf(d));
  if ('error' in r) return r.error;
  const want = formatRule(chain, r.rule);
  const at = c.rules.findIndex((x) => formatRule(chain, x) === want);
  return at < 0 ? 'Bad rule (does a matching rule exist in that chain?).' : at;
}

function deleteChain(d: Draft, name: string): void {
  delete d.chains[name];
  d.own.delete(name);
  d.order = d.order.filter((n) => n !== name);
}

/** `-X` alone: every user chain at once; only a builtin's jump can still hold one. */
function deleteAllUserChains(d: Draft): string | null {
  const users = d.order.filter((n) => !chainOf(d, n)!.builtin);
  if (users.some((u) => references(d, u, (c) => c.builtin))) return "Can't delete chain with references left";
  users.forEach((u) => deleteChain(d, u));
  return null;
}

function failed(line: number, reason: string): RestoreResult {
  return { ok: false, message: `iptables-restore: line ${line} failed\niptables-restore: line ${line} failed: ${reason}` };
}

export function restore(nf: Netfilter, text: string): RestoreResult {
  const drafts = { filter: draftOf('filter', nf.tables.filter), nat: draftOf('nat', nf.tables.nat) };
  const lines = text.split('\n');
  let d: Draft | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed[0] === '#') continue;
    let err: string | null = null;
    if (!d) {
      const name = line.startsWith('*') ? line.slice(1).trim() : null;
      if (name === 'filter' || name === 'nat') d = drafts[name];
      else err = name === null ? 'no table specified' : `can't initialize iptables table \`${name}': Table does not exist (do you need to insmod?)`;
    } else if (trimmed === 'COMMIT') d = null;
    else if (line[0] === '*') err = 'COMMIT expected';
    else if (line[0] === ':') err = declareChain(d, line, i + 1);
    else {
      let rest = line;
      if (line[0] === '[') {
        const end = line.indexOf(']');
        if (end < 0 || !/^\[\d+:\d+\]$/.test(line.slice(0, end + 1))) err = 'Bad counters, need [packets:bytes]';
        rest = line.slice(end + 1);
      }
      const words = err ? [] : splitWords(rest);
      if (!err) err = words ? command(d, words) : 'Unterminated quote';
    }
    if (err !== null) return failed(i + 1, err);
  }
  // fgets reads a final newline as the end of the last line, not a line of its own.
  if (d) return failed(lines.length - (text.endsWith('\n') ? 1 : 0) + 1, 'COMMIT expected');
  for (const name of ['filter', 'nat'] as const) nf.tables[name] = { chains: drafts[name].chains, order: drafts[name].order };
  return { ok: true };
}

