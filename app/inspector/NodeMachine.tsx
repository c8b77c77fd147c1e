// A node's machine in the inspector: its kube-proxy (up, synced, its last
// syncs) and the rules it wrote, as `iptables-save -c` prints them on the
// node: one table at a time, filtered to the lines that mention a text (a
// Service's name, a cluster IP), with each rule's packet counters. Under
// them, "Trace a packet": a connection's first packet through those rules as
// `iptables -t raw -j TRACE` would log it, each step with its rule, the
// rules it hit marked in the text above. The engine traces a copy of the
// kernel's tables: tracing changes nothing in the simulation.
import { useState, type FormEvent } from 'react';
import type { InspectView, PacketTraceRequest, PacketTraceView, TraceStep } from '../../engine/host/protocol';
import { formatT } from '../lib/format';
import { setIptablesFilter, useUi } from '../store/uiStore';
import { tracePacket } from './inspectClient';

type Machine = NonNullable<InspectView['machine']>;
type Table = 'nat' | 'filter';

/** One table's lines of iptables-save output (from its *table line to COMMIT). */
export function tableLines(save: string, table: Table): string[] {
  const lines = save.split('\n');
  const start = lines.indexOf(`*${table}`);
  if (start < 0) return [];
  const end = lines.indexOf('COMMIT', start);
  return lines.slice(start, end < 0 ? undefined : end + 1);
}

/** A line of iptables-save -c without its `[packets:bytes] ` prefix. */
const withoutCounters = (l: string): string => l.replace(/^\[\d+:\d+\] /, '');

export interface ServicePortTarget {
  /** "namespace/name:port" as kube-proxy's comment names it. */
  name: string;
  ip: string;
  proto: 'tcp' | 'udp';
  port: number;
}

/** The Service ports kube-proxy wrote a KUBE-SERVICES rule for (cluster IP, or its REJECT/DROP), from iptables-save's text. */
export function serviceTargets(save: string): ServicePortTarget[] {
  const re = /-A KUBE-SERVICES -d (\d+\.\d+\.\d+\.\d+)\/32 -p (tcp|udp) -m comment --comment "([^"]+?) (?:cluster IP|has no endpoints|has no local endpoints)" -m (?:tcp|udp) --dport (\d+) /;
  const seen = new Map<string, ServicePortTarget>();
  for (const l of save.split('\n')) {
    const m = re.exec(l);
    if (!m) continue;
    const t: ServicePortTarget = { name: m[3]!, ip: m[1]!, proto: m[2] as 'tcp' | 'udp', port: Number(m[4]) };
    seen.set(`${t.ip}:${t.port}/${t.proto}`, t);
  }
  return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.port - b.port));
}

export function NodeMachine({ node, machine }: { node: string; machine: Machine }) {
  // A trace and its form belong to one node.
  return <MachineView key={node} node={node} machine={machine} />;
}

function MachineView({ node, machine }: { node: string; machine: Machine }) {
  const [table, setTable] = useState<Table>('nat');
  const [trace, setTrace] = useState<PacketTraceView | null>(null);
  const filter = useUi((s) => s.iptablesFilter);
  const kp = machine.kubeProxy;
  const last = kp.syncs[kp.syncs.length - 1];
  const all = tableLines(machine.iptables, table);
  const shown = filter ? all.filter((l) => l.startsWith('*') || l === 'COMMIT' || l.includes(filter)) : all;
  // The trace's steps by rule text, in this table: their lines are marked.
  const hits = new Map<string, number[]>();
  trace?.steps.forEach((s, i) => {
    if (s.table === table && s.type === 'rule') hits.set(s.rule, [...(hits.get(s.rule) ?? []), i + 1]);
  });
  const showChain = (s: TraceStep) => {
    setTable(s.table);
    setIptablesFilter(`-A ${s.chain} `);
  };
  return (
    <>
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
            <select value={table} onChange={(e) => setTable(e.target.value as Table)} aria-label="iptables table">
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
            {shown.map((l, i) => {
              // A line per block, wrapped under its own start; rules that counted packets stand out, the trace's are marked.
              const steps = hits.get(withoutCounters(l));
              const cls = `ipt-line${/^\[[1-9]/.test(l) ? ' ipt-hit' : ''}${steps ? ' ipt-traced' : ''}`;
              return (
                <div key={i} className={cls} title={steps ? `traced: step ${steps.join(', ')}` : undefined}>
                  {l}
                </div>
              );
            })}
          </pre>
        )}
      </section>
      <PacketTracer node={node} machine={machine} trace={trace} onTrace={setTrace} onChain={showChain} />
    </>
  );
}

const PROTOS = ['tcp', 'udp', 'icmp'] as const;
type Proto = (typeof PROTOS)[number];

function PacketTracer({ node, machine, trace, onTrace, onChain }: { node: string; machine: Machine; trace: PacketTraceView | null; onTrace: (t: PacketTraceView | null) => void; onChain: (s: TraceStep) => void }) {
  const pods = machine.pods;
  const services = serviceTargets(machine.iptables);
  const [from, setFrom] = useState<string>(() => (pods[0] ? `pod:${pods[0].ip}` : 'host'));
  const [outsideSrc, setOutsideSrc] = useState('192.168.1.10');
  const [dst, setDst] = useState(() => services.find((s) => !s.name.startsWith('default/kubernetes'))?.ip ?? services[0]?.ip ?? '');
  const [proto, setProto] = useState<Proto>(() => services.find((s) => s.ip === dst)?.proto ?? 'tcp');
  const [port, setPort] = useState(() => String(services.find((s) => s.ip === dst)?.port ?? 80));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [draw, setDraw] = useState(0);
  const fromPodIp = from.startsWith('pod:') ? from.slice(4) : null;
  const goneIp = fromPodIp !== null && !pods.some((p) => p.ip === fromPodIp) ? fromPodIp : null;
  const pickedService = services.find((s) => s.ip === dst && s.port === Number(port) && s.proto === proto);

  const run = async (seed: number) => {
    const p = port.trim();
    if (proto !== 'icmp' && p !== '' && !/^\d+$/.test(p)) {
      setError(`port "${p}" is not a number (1 to 65535)`);
      return;
    }
    const req: PacketTraceRequest = {
      from: fromPodIp !== null ? 'pod' : (from as 'host' | 'outside'),
      ...(fromPodIp !== null ? { src: fromPodIp } : from === 'outside' ? { src: outsideSrc.trim() } : {}),
      dst: dst.trim(),
      proto,
      ...(proto !== 'icmp' && p !== '' ? { dport: Number(p) } : {}),
      seed,
    };
    setBusy(true);
    try {
      const r = await tracePacket(node, req);
      if (!r) setError(`${node} has no machine here to trace through`);
      else if ('error' in r) setError(r.error);
      else {
        setError(null);
        setDraw(seed);
        onTrace(r);
        return;
      }
      onTrace(null);
    } catch (err) {
      setError(String(err));
      onTrace(null);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(0);
  };

  return (
    <section aria-label="Trace a packet">
      <h3>
        Trace a packet <span className="muted">iptables -t raw -j TRACE</span>
      </h3>
      <form className="trace-form" onSubmit={submit} aria-label={`Trace a packet through ${node}'s iptables`}>
        <label htmlFor={`trace-from-${node}`}>from</label>
        <select id={`trace-from-${node}`} value={from} onChange={(e) => setFrom(e.target.value)} aria-label="Trace from">
          <optgroup label={`pods on ${node}`}>
            {pods.length === 0 && (
              <option value="" disabled>
                no pod with its own network runs here
              </option>
            )}
            {pods.map((p) => (
              <option key={p.ip} value={`pod:${p.ip}`}>
                {p.namespace}/{p.name} ({p.ip})
              </option>
            ))}
            {goneIp && <option value={`pod:${goneIp}`}>a pod that was at {goneIp}</option>}
          </optgroup>
          <option value="host">this node{machine.internalIP ? ` (${machine.internalIP})` : ''}: a host process</option>
          <option value="outside">outside: another address, arriving from the network</option>
        </select>
        {from === 'outside' && (
          <>
            <label htmlFor={`trace-src-${node}`}>source</label>
            <input id={`trace-src-${node}`} className="mono" value={outsideSrc} onChange={(e) => setOutsideSrc(e.target.value)} aria-label="Source IP" spellCheck={false} />
          </>
        )}
        {services.length > 0 && (
          <>
            <label htmlFor={`trace-svc-${node}`}>Service</label>
            <select
              id={`trace-svc-${node}`}
              value={pickedService ? `${pickedService.ip}:${pickedService.port}/${pickedService.proto}` : ''}
              onChange={(e) => {
                const s = services.find((x) => `${x.ip}:${x.port}/${x.proto}` === e.target.value);
                if (!s) return;
                setDst(s.ip);
                setPort(String(s.port));
                setProto(s.proto);
              }}
              aria-label="Service port"
            >
              <option value="">(any destination)</option>
              {services.map((s) => (
                <option key={`${s.ip}:${s.port}/${s.proto}`} value={`${s.ip}:${s.port}/${s.proto}`}>
                  {s.name} · {s.port}/{s.proto}
                </option>
              ))}
            </select>
          </>
        )}
        <label htmlFor={`trace-dst-${node}`}>to</label>
        <input id={`trace-dst-${node}`} className="mono" value={dst} onChange={(e) => setDst(e.target.value)} placeholder="a cluster IP, pod IP, node IP" aria-label="Destination IP" spellCheck={false} />
        <label htmlFor={`trace-proto-${node}`}>protocol</label>
        <div className="trace-row">
          <select id={`trace-proto-${node}`} value={proto} onChange={(e) => setProto(e.target.value as Proto)} aria-label="Protocol">
            {PROTOS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <label className="muted" htmlFor={`trace-port-${node}`}>
            port
          </label>
          <input id={`trace-port-${node}`} className="mono trace-port" value={proto === 'icmp' ? '' : port} disabled={proto === 'icmp'} onChange={(e) => setPort(e.target.value)} inputMode="numeric" placeholder={proto === 'icmp' ? 'none' : '1-65535'} aria-label="Destination port" />
          <button type="submit" className="primary small" disabled={busy}>
            Trace
          </button>
        </div>
      </form>
      {error && (
        <p className="danger trace-error" role="alert">
          {error}
        </p>
      )}
      {trace && !error && <TraceResult trace={trace} onAgain={() => void run(draw + 1)} busy={busy} onChain={onChain} />}
    </section>
  );
}

const arrow = (ip: string, port: number, proto: string) => (proto === 'icmp' ? ip : `${ip}:${port}`);

function TraceResult({ trace: t, onAgain, busy, onChain }: { trace: PacketTraceView; onAgain: () => void; busy: boolean; onChain: (s: TraceStep) => void }) {
  const p = t.packet;
  const statistic = t.steps.some((s) => s.rule.includes('-m statistic'));
  return (
    <div className="trace-result">
      <p className="trace-verdict" data-testid="trace-verdict" data-verdict={t.verdict}>
        <span className={`trace-v trace-v-${t.verdict.toLowerCase()}`}>{t.verdict}</span>
        {t.rejectWith && <span className="mono"> {t.rejectWith}</span>}
        {t.dnat ? (
          <span data-testid="trace-dnat">
            {' '}
            · DNAT <span className="mono">{arrow(p.dst, p.dport, p.proto)}</span> → <span className="mono">{arrow(t.dst, t.dport, p.proto)}</span>
          </span>
        ) : (
          <span data-testid="trace-dnat"> · no DNAT</span>
        )}
        {t.masquerade && <span> · masqueraded</span>}
      </p>
      <p className="muted trace-packet">
        <span className="mono">
          {p.proto} {arrow(p.src, p.sport, p.proto)} → {arrow(p.dst, p.dport, p.proto)}
        </span>{' '}
        · {t.path === 'output' ? 'OUTPUT path (a local process)' : 'PREROUTING path (arriving)'} · traced at {formatT(t.at)}
        {statistic && (
          <>
            {' '}
            ·{' '}
            <button type="button" className="link" onClick={onAgain} disabled={busy}>
              another draw
            </button>
          </>
        )}
      </p>
      <table className="data trace-steps" aria-label={`TRACE of ${p.proto} ${p.src} to ${arrow(p.dst, p.dport, p.proto)}`}>
        <thead>
          <tr>
            <th scope="col" className="num trace-narrow">
              #
            </th>
            <th scope="col">table:chain</th>
            <th scope="col" className="trace-narrow">
              type
            </th>
          </tr>
          <tr>
            <th scope="col" colSpan={3} className="trace-rule-head">
              rule
            </th>
          </tr>
        </thead>
        {t.steps.map((s, i) => (
          <tbody key={i} className={`trace-step trace-${s.type}`} data-step={`${s.table}:${s.chain}:${s.type}:${s.rulenum}`}>
            <tr>
              <td className="num">{i + 1}</td>
              <td className="mono trace-chain">
                <button type="button" className="link mono" onClick={() => onChain(s)} title={`Show ${s.chain}'s rules above`}>
                  {s.table}:{s.chain}
                </button>
              </td>
              <td className="mono nowrap">
                {s.type}:{s.rulenum}
              </td>
            </tr>
            <tr>
              <td colSpan={3} className="trace-rule">
                <div className="ipt-line mono">{s.rule || <span className="muted">end of chain: back to the caller</span>}</div>
                {(s.dnat || s.mark !== undefined || s.masquerade) && (
                  <div className="trace-change">
                    {s.dnat && <span>→ DNAT to {arrow(s.dnat.dst, s.dnat.dport, p.proto)}</span>}
                    {s.mark !== undefined && <span>→ MARK 0x{s.mark.toString(16)}</span>}
                    {s.masquerade && <span>→ MASQUERADE (source NAT to the node&apos;s address)</span>}
                  </div>
                )}
              </td>
            </tr>
          </tbody>
        ))}
      </table>
      <details className="trace-log">
        <summary>As the kernel logs it</summary>
        <pre className="obj-yaml iptables" tabIndex={0} aria-label="TRACE log lines">
          {t.steps.map((s, i) => (
            <div key={i} className="ipt-line">
              {s.log}
            </div>
          ))}
        </pre>
      </details>
    </div>
  );
}
