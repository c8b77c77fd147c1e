// The node kernel's iptables, as its processes change them: kube-proxy's
// IptablesSync (the chains and jumps it ensures, then one iptables-restore
// --noflush), and the kubelet's own KUBE-FIREWALL (kubelet_network_linux.go).
// The machine applies them even while its kubelet process is down
// (hostReceive): they are syscalls of another process into the kernel, not
// the kubelet's work.
import { chainNames, ensureChain, ensureRule, restore, type Netfilter } from '../../netfilter';
import type { IptablesSyncedMsg, IptablesSyncMsg } from '../../kubeproxy/messages';
import { KUBE_FIREWALL, KUBE_KUBELET_CANARY } from '../../kubeproxy/chains';
import { LOCALNET_RULE } from '../../kubeproxy/syncRules';

/** kube-proxy's sync on this machine: what it answers. Without a kernel (never booted) iptables cannot run. */
export function applyIptablesSync(nf: Netfilter | null, m: IptablesSyncMsg): IptablesSyncedMsg {
  if (!nf) return { type: 'IptablesSynced', seq: m.seq, ok: false, message: 'iptables-restore: unable to initialize table', natChains: [] };
  const answer = (message: string): IptablesSyncedMsg => ({ type: 'IptablesSynced', seq: m.seq, ok: !message, message, natChains: chainNames(nf, 'nat') });
  for (const c of m.ensureChains) {
    const r = ensureChain(nf, c.table, c.chain);
    if (!r.ok) return answer(r.message);
  }
  for (const e of m.ensure) {
    const r = ensureRule(nf, e.position, e.table, e.chain, e.args);
    if (!r.ok) return answer(r.message);
  }
  const res = restore(nf, m.restore);
  return answer(res.ok ? '' : res.message);
}

/** The kubelet's syncIPTablesRules at start: its canaries, and KUBE-FIREWALL guarding 127.0.0.0/8, jumped to from OUTPUT and INPUT. */
export function kubeletIptables(nf: Netfilter): void {
  // The canaries in each table it watches that this kernel has (no mangle here).
  for (const table of ['nat', 'filter'] as const) ensureChain(nf, table, KUBE_KUBELET_CANARY);
  ensureChain(nf, 'filter', KUBE_FIREWALL);
  ensureRule(nf, 'append', 'filter', KUBE_FIREWALL, LOCALNET_RULE);
  for (const chain of ['OUTPUT', 'INPUT']) ensureRule(nf, 'prepend', 'filter', chain, ['-j', KUBE_FIREWALL]);
}
