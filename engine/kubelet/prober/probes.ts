// Container probes as the kubelet's prober workers run them
// (pkg/kubelet/prober/worker.go): a worker per probe ticks every periodSeconds
// from the container's start; ticks before initialDelaySeconds keep the
// initial result (readiness/startup: failure, liveness: success); a result
// flips after successThreshold / failureThreshold consecutive outcomes.
// Liveness and readiness wait for the startup probe to succeed.
// The fake runtime answers: a probe succeeds when the process is up and
// serving (past its start delay) and, for httpGet/tcpSocket, the port is one
// the image listens on.
import type { ContainerRt } from '../status/generate';

export type ProbeKind = 'startup' | 'readiness' | 'liveness';

export interface ProbeSpec {
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  httpGet?: { path?: string; port: number | string; scheme?: string };
  tcpSocket?: { port: number | string };
  exec?: { command?: string[] };
  grpc?: { port: number };
}

export interface ProbeState {
  /** Virtual time of the next tick. */
  nextAt: number;
  /** Consecutive successes (> 0) or failures (< 0). */
  streak: number;
  /** The probe's current result. */
  ok: boolean;
}

/** What a tick concluded, for the kubelet to act on (events, kills). */
export type ProbeOutcome = { type: 'failed'; kind: ProbeKind; message: string } | { type: 'kill'; kind: 'liveness' | 'startup' };

export function newProbeState(kind: ProbeKind, startedAt: number): ProbeState {
  return { nextAt: startedAt, streak: 0, ok: kind === 'liveness' };
}

/** The ports the fake process listens on, named ports resolved through the container spec. */
function portOf(port: number | string, ports: readonly { name?: string; containerPort: number }[]): number {
  if (typeof port === 'number') return port;
  const named = ports.find((p) => p.name === port);
  return named ? named.containerPort : Number(port);
}

function attempt(spec: ProbeSpec, c: ContainerRt, now: number, podIP: string, listens: readonly number[], ports: readonly { name?: string; containerPort: number }[]): string | null {
  const serving = c.state === 'running' && now >= c.listeningAt;
  if (spec.httpGet) {
    const port = portOf(spec.httpGet.port, ports);
    const scheme = (spec.httpGet.scheme ?? 'HTTP').toLowerCase();
    const url = `${scheme}://${podIP}:${port}${spec.httpGet.path ?? '/'}`;
    if (!serving || !listens.includes(port)) return `Get "${url}": dial tcp ${podIP}:${port}: connect: connection refused`;
    return null;
  }
  if (spec.tcpSocket) {
    const port = portOf(spec.tcpSocket.port, ports);
    if (!serving || !listens.includes(port)) return `dial tcp ${podIP}:${port}: connect: connection refused`;
    return null;
  }
  if (spec.grpc) {
    if (!serving || !listens.includes(spec.grpc.port)) return `timeout: failed to connect service "${podIP}:${spec.grpc.port}" within 1s`;
    return null;
  }
  // exec: the command runs inside the process's namespaces; it succeeds while the process is up.
  return serving ? null : 'command failed';
}

/**
 * Runs every tick of one probe due by `now`; returns the outcomes and leaves
 * the state at the next tick.
 */
export function runProbe(
  kind: ProbeKind,
  spec: ProbeSpec,
  st: ProbeState,
  c: ContainerRt,
  now: number,
  podIP: string,
  listens: readonly number[],
  ports: readonly { name?: string; containerPort: number }[],
): ProbeOutcome[] {
  const period = (spec.periodSeconds ?? 10) * 1000;
  const initialDelay = (spec.initialDelaySeconds ?? 0) * 1000;
  const successThreshold = spec.successThreshold ?? 1;
  const failureThreshold = spec.failureThreshold ?? 3;
  const out: ProbeOutcome[] = [];
  while (st.nextAt <= now) {
    const at = st.nextAt;
    st.nextAt += period;
    if (at - c.startedAt < initialDelay) continue;
    const err = attempt(spec, c, at, podIP, listens, ports);
    if (err === null) {
      st.streak = st.streak > 0 ? st.streak + 1 : 1;
      if (st.streak >= successThreshold) st.ok = true;
      continue;
    }
    st.streak = st.streak < 0 ? st.streak - 1 : -1;
    out.push({ type: 'failed', kind, message: err });
    if (-st.streak >= failureThreshold) {
      st.ok = false;
      if (kind !== 'readiness') {
        out.push({ type: 'kill', kind });
        break;
      }
    }
  }
  return out;
}

/** Upstream's event text: "Readiness probe failed: …". */
export function probeName(kind: ProbeKind): string {
  return kind === 'startup' ? 'Startup' : kind === 'readiness' ? 'Readiness' : 'Liveness';
}
