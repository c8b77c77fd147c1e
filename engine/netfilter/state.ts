// A fresh netfilter state and lookups by name. Chain and list names come from
// iptables-restore input, so they are read as own properties only ("toString"
// is a valid chain name, and "__proto__" must not reach a prototype).
import type { Chain, Netfilter, Table, TableName } from './types';

/** The builtin chains of each table, in iptables-save's order (hook order). */
export const BUILTIN_CHAINS: Record<TableName, readonly string[]> = {
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
};

export const TABLE_NAMES: readonly TableName[] = ['filter', 'nat'];

function newTable(name: TableName): Table {
  const t: Table = { chains: {}, order: [] };
  for (const c of BUILTIN_CHAINS[name]) {
    t.chains[c] = { builtin: true, policy: 'ACCEPT', packets: 0, bytes: 0, rules: [] };
    t.order.push(c);
  }
  return t;
}

/** Empty tables with every policy ACCEPT: also the state after power-off, as the kernel keeps none of it. */
export function newNetfilter(): Netfilter {
  return { tables: { filter: newTable('filter'), nat: newTable('nat') }, recent: {} };
}

/** A table's chains in creation order (builtins first). */
export function chainNames(nf: Netfilter, table: TableName): string[] {
  return [...nf.tables[table].order];
}

export function ownGet<T>(rec: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** Assignment that makes an own data property even for "__proto__". */
export function ownSet<T>(rec: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(rec, key, { value, writable: true, enumerable: true, configurable: true });
}

export function chainOf(t: Table, name: string): Chain | undefined {
  return ownGet(t.chains, name);
}
