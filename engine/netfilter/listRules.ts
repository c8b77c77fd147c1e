// `iptables -t TABLE -S CHAIN` without the chain's own line: its rules as
// iptables-save prints them (what `iptables -C` compares a rule with).
import { formatRule } from './rule';
import { chainOf } from './state';
import type { Netfilter, TableName } from './types';

export function ruleLines(nf: Netfilter, table: TableName, chain: string): string[] {
  return (chainOf(nf.tables[table], chain)?.rules ?? []).map((r) => formatRule(chain, r));
}
