// A node's machine in the inspector: its kube-proxy (up, synced, its last
// syncs) and the rules it wrote, as `iptables-save -c` prints them on the
// node: one table at a time, filtered to the lines that mention a text (a
// Service's name, a cluster IP), with each rule's packet counters.
import { useState } from 'react';
import type { InspectView } from '../../engine/host/protocol';
import { formatT } from '../lib/format';
import { setIptablesFilter, useUi } from '../store/uiStore';

type Machine = NonNullable<InspectView['machine']>;

/** One table's lines of iptables-save output (from its *table line to COMMIT). */
export function tableLines(save: string, table: 'nat' | 'filter'): string[] {
  const lines = save.split('\n');
  const start = lines.indexOf(`*${table}`);
  if (start < 0) return [];
  const end = lines.indexOf('COMMIT', start);
  return lines.slice(start, end < 0 ? undefined : end + 1);
}

export function NodeMachine({ node, machine }: { node: string; machine: Machine }) {
  const [table, setTable] = useState<'nat' | 'filter'>('nat');
  const filter = useUi((s) => s.iptablesFilter);
  const kp = machine.kubeProxy;
  const last = kp.syncs[kp.syncs.length - 1];
  const all = tableLines(machine.iptables, table);
  const shown = filter ? all.filter((l) => l.startsWith('*') || l === 'COMMIT' || l.includes(filter)) : all;
  return (
    <section aria-label="kube-proxy and iptables">
      <h3>
        kube-proxy <span className="muted mono">{kp.name}</span>
      </h3>
      <p data-testid="kube-proxy-state">
        {!kp.up ? 'down: the rules stay as it last wrote them' : !kp.synced ? 'up, waiting for its Service and EndpointSlice lists' : 'up, synced'}
        {last && (
          <span className="muted">
            {' '}
            · last sync {formatT(last.at)}: {last.ok ? `${last.services} service ports, ${last.endpoints} endpoints, ${last.rules.nat} nat and ${last.rules.filter} filter rules` : `failed: ${last.message}`}
          </span>
        )}
      </p>
      <div className="iptables-bar">
        <label>
          table{' '}
          <select value={table} onChange={(e) => setTable(e.target.value as 'nat' | 'filter')} aria-label="iptables table">
            <option value="nat">nat</option>
            <option value="filter">filter</option>
          </select>
        </label>
        <input type="search" placeholder="only lines with… (a Service, an IP)" value={filter} onChange={(e) => setIptablesFilter(e.target.value)} aria-label="Filter iptables rules" />
      </div>
      {all.length === 0 ? (
        <p className="muted empty-note">The kernel has no {table} rules yet (the machine booted and nothing has written them).</p>
      ) : (
        <pre className="obj-yaml iptables" tabIndex={0} aria-label={`iptables-save -c -t ${table} on ${node}`}>
          {shown.map((l, i) => (
            // A line per block, wrapped under its own start; rules that counted packets stand out.
            <div key={i} className={/^\[[1-9]/.test(l) ? 'ipt-line ipt-hit' : 'ipt-line'}>
              {l}
            </div>
          ))}
        </pre>
      )}
    </section>
  );
}
