// kube-proxy's calls into its node's kernel: the built-in chain jumps it
// ensures (iptables -C, then -I) and one iptables-restore --noflush of its own
// chains; the answer carries the nat table's chains afterwards (what the next
// sync's `iptables-save -t nat` would read, to delete stale service chains).
import type { EnsureRule } from './syncRules';

export interface IptablesSyncMsg {
  type: 'IptablesSync';
  seq: number;
  /** Chains ensured to exist (EnsureChain): the canaries its monitor watches. */
  ensureChains: { table: 'filter' | 'nat'; chain: string }[];
  ensure: EnsureRule[];
  restore: string;
}

export interface IptablesSyncedMsg {
  type: 'IptablesSynced';
  seq: number;
  ok: boolean;
  /** iptables-restore's error, when not ok. */
  message: string;
  natChains: string[];
}
