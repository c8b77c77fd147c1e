// EnsureChain and EnsureRule as k8s.io/kubernetes/pkg/util/iptables runs them:
// `iptables -N` unless the chain exists, and `iptables -C` (is this rule,
// as iptables-save would print it, already in the chain?) before `-I` / `-A`.
import { restore, type RestoreResult } from './restore';
import { formatRule, parseRule } from './rule';
import { chainOf } from './state';
import type { Netfilter, TableName } from './types';
import { quoteWord } from './words';

export function ensureChain(nf: Netfilter, table: TableName, chain: string): RestoreResult {
  if (chainOf(nf.tables[table], chain)) return { ok: true };
  return restore(nf, `*${table}\n:${chain} - [0:0]\nCOMMIT\n`);
}

export function ensureRule(nf: Netfilter, position: 'prepend' | 'append', table: TableName, chain: string, args: readonly string[]): RestoreResult {
  const t = nf.tables[table];
  const parsed = parseRule(args, { table, chainKind: (n) => { const c = chainOf(t, n); return c ? (c.builtin ? 'builtin' : 'user') : null; } });
  if ('error' in parsed) return { ok: false, message: `iptables: ${parsed.error}` };
  const line = formatRule(chain, parsed.rule);
  if ((chainOf(t, chain)?.rules ?? []).some((r) => formatRule(chain, r) === line)) return { ok: true };
  return restore(nf, `*${table}\n${position === 'prepend' ? '-I' : '-A'} ${chain} ${args.map(quoteWord).join(' ')}\nCOMMIT\n`);
}
