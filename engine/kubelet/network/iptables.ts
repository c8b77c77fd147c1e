// The node kernel's iptables, as its processes change them: kube-proxy's
// IptablesSync (the jumps it ensures, then one iptables-restore --noflush),
// and the kubelet's own KUBE-FIREWALL (kubelet_network_linux.go). The machine
// applies them even while its kubelet process is down (hostReceive): they are
// syscalls of another process into the kernel, not the kubelet's work.
import { chainNames, restore, ruleLines, save, newNetfilter, type Netfilter } from '../../netfilter';
import type { IptablesSyncedMsg, IptablesSyncMsg } from '../../kubeproxy/messages';
import { KUBE_FIREWALL, KUBE_KUBELET_CANARY } from '../../kubeproxy/chains';
import { LOCALNET_RULE, restoreWord as word, type EnsureRule } from '../../kubeproxy/syncRules';

/** Canonical forms already worked out (a pure function of the rule; the same few jumps every sync). */
const CANONICAL = new Map<string, string | null>();

/** The rule as iptables-save prints it: restored alone into an empty table. */
function canonical(r: EnsureRule): string | null {
  const key = `${r.table} ${r.chain} ${r.args.join('\0')}`;
  let line = CANONICAL.get(key);
  if (line === undefined) CANONICAL.set(key, (line = canonicalOf(r)));
  return line;
}

function canonicalOf(r: EnsureRule): string | null {
  const scratch = newNetfilter();
  const target = r.args[r.args.indexOf('-j') + 1];
  const decl = target && !isBuiltinTarget(target) ? `:${target} - [0:0]\n` : '';
  const res = restore(scratch, `*${r.table}\n${decl}-A ${r.chain} ${r.args.map(word).join(' ')}\nCOMMIT\n`);
  if (!res.ok) return null;
  return save(scratch, { table: r.table }).split('\n').find((l) => l.startsWith(`-A ${r.chain} `)) ?? null;
}

function isBuiltinTarget(t: string): boolean {
  return ['ACCEPT', 'DROP', 'REJECT', 'RETURN', 'DNAT', 'SNAT', 'MASQUERADE', 'MARK'].includes(t);
}

/** EnsureChain, then EnsureRule: `iptables -C`, and `-I` (or `-A`) when it is not there. */
function ensure(nf: Netfilter, r: EnsureRule): string | null {
  const target = r.args[r.args.indexOf('-j') + 1];
  if (target && !isBuiltinTarget(target) && !chainNames(nf, r.table).includes(target)) {
    const res = restore(nf, `*${r.table}\n:${target} - [0:0]\nCOMMIT\n`);
    if (!res.ok) return res.message;
  }
  const line = canonical(r);
  if (line === null) return `iptables: Bad rule (does a matching rule exist in that chain?).`;
  if (ruleLines(nf, r.table, r.chain).includes(line)) return null;
  const op = r.position === 'prepend' ? '-I' : '-A';
  const res = restore(nf, `*${r.table}\n${op} ${r.chain} ${r.args.map(word).join(' ')}\nCOMMIT\n`);
  return res.ok ? null : res.message;
}

/** EnsureChain: `iptables -N` unless it exists (declaring an existing chain in a restore would flush it). */
function ensureChain(nf: Netfilter, table: 'filter' | 'nat', chain: string): void {
  if (!chainNames(nf, table).includes(chain)) restore(nf, `*${table}\n:${chain} - [0:0]\nCOMMIT\n`);
}

/** kube-proxy's sync on this machine: what it answers. Without a kernel (never booted) iptables cannot run. */
export function applyIptablesSync(nf: Netfilter | null, m: IptablesSyncMsg): IptablesSyncedMsg {
  if (!nf) return { type: 'IptablesSynced', seq: m.seq, ok: false, message: 'iptables-restore: unable to initialize table', natChains: [] };
  for (const c of m.ensureChains) ensureChain(nf, c.table, c.chain);
  for (const r of m.ensure) {
    const err = ensure(nf, r);
    if (err) return { type: 'IptablesSynced', seq: m.seq, ok: false, message: err, natChains: chainNames(nf, 'nat') };
  }
  const res = restore(nf, m.restore);
  return { type: 'IptablesSynced', seq: m.seq, ok: res.ok, message: res.ok ? '' : res.message, natChains: chainNames(nf, 'nat') };
}

/** The kubelet's syncIPTablesRules at start: KUBE-FIREWALL guarding 127.0.0.0/8, jumped to from OUTPUT and INPUT. */
export function kubeletIptables(nf: Netfilter): void {
  // Its canaries first (syncIPTablesRules' Monitor), in each table it watches that this kernel has.
  for (const table of ['nat', 'filter'] as const) ensureChain(nf, table, KUBE_KUBELET_CANARY);
  if (!chainNames(nf, 'filter').includes(KUBE_FIREWALL)) restore(nf, `*filter\n:${KUBE_FIREWALL} - [0:0]\n-A ${KUBE_FIREWALL} ${LOCALNET_RULE.map(word).join(' ')}\nCOMMIT\n`);
  for (const chain of ['OUTPUT', 'INPUT']) ensure(nf, { table: 'filter', chain, position: 'prepend', args: ['-j', KUBE_FIREWALL] });
}
