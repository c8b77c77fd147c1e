// A node's iptables state as plain data (it is snapshotted with the node's
// actor): tables of chains of parsed rules, and the xt_recent lists. Rules are
// kept canonical (what iptables-save would print back), so two rules are the
// same rule exactly when they print the same.

export type TableName = 'filter' | 'nat';

export interface Netfilter {
  tables: { filter: Table; nat: Table };
  /** xt_recent lists: name -> masked address -> last seen (ms); key order is the kernel's LRU order, oldest first. */
  recent: Record<string, Record<string, number>>;
}

export interface Table {
  chains: Record<string, Chain>;
  /** Chain creation order (builtins first). */
  order: string[];
}

export interface Chain {
  builtin: boolean;
  policy: 'ACCEPT' | 'DROP' | null;
  /** Packets that met the policy (builtin chains only). */
  packets: number;
  bytes: number;
  rules: Rule[];
}

/** A value and whether `!` inverted its test. */
export interface Neg<T> {
  value: T;
  neg: boolean;
}

export interface Rule {
  packets: number;
  bytes: number;
  /** "a.b.c.d/len", the address already masked (as iptables stores it). */
  src: Neg<string> | null;
  dst: Neg<string> | null;
  in: Neg<string> | null;
  out: Neg<string> | null;
  /** Absent for `-p all` (which iptables does not store either). */
  proto: Neg<'tcp' | 'udp' | 'icmp'> | null;
  matches: Match[];
  /** null: a rule without -j, which only counts. */
  target: Target | null;
}

export interface PortRange {
  lo: number;
  hi: number;
  neg: boolean;
}

export type CtState = 'INVALID' | 'NEW' | 'RELATED' | 'ESTABLISHED' | 'UNTRACKED' | 'SNAT' | 'DNAT';

export type Match =
  | { kind: 'comment'; comment: string }
  | { kind: 'tcp' | 'udp'; sport: PortRange | null; dport: PortRange | null }
  /** probability: the u31 threshold the kernel keeps (round(p * 2^31)). */
  | { kind: 'statistic'; probability: number; neg: boolean }
  | { kind: 'mark'; mark: number; mask: number; neg: boolean }
  /** states in iptables' print order. */
  | { kind: 'conntrack'; states: CtState[]; neg: boolean }
  /** types in iptables' print order. */
  | { kind: 'addrtype'; src: Neg<string[]> | null; dst: Neg<string[]> | null }
  | {
      kind: 'recent';
      mode: 'set' | 'rcheck' | 'update' | 'remove';
      neg: boolean;
      /** 0: no --seconds. */
      seconds: number;
      reap: boolean;
      name: string;
      /** dotted netmask applied to the address before it is looked up. */
      mask: string;
      side: 'source' | 'dest';
    }
  | { kind: 'nfacct'; name: string };

export type Target =
  | { kind: 'jump'; chain: string }
  | { kind: 'ACCEPT' | 'DROP' | 'RETURN' }
  | { kind: 'REJECT'; with: string }
  | { kind: 'DNAT'; ip: string; port: number | null; random: boolean; persistent: boolean }
  | { kind: 'SNAT'; ip: string; port: number | null; random: boolean; randomFully: boolean; persistent: boolean }
  | { kind: 'MASQUERADE'; ports: { lo: number; hi: number } | null; random: boolean; randomFully: boolean }
  /** xt_MARK's one form: mark' = (mark & ~mask) ^ value; every option is stored as this. */
  | { kind: 'MARK'; value: number; mask: number };
