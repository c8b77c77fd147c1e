// One probe attempt against the fake runtime (pkg/kubelet/prober/prober.go
// and pkg/probe/{exec,http,tcp,grpc}): exec runs the command in the container
// (its output is the message); httpGet succeeds on 200–399 from whatever in the
// pod listens on the port; tcpSocket and grpc need a listener. The failure
// texts are the ones the real probers produce.
import type { FakeRuntime, RtContainer, Sandbox } from '../runtime/runtime';

export type ProbeKind = 'startup' | 'readiness' | 'liveness';

export interface ProbeSpec {
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
  httpGet?: { path?: string; port: number | string; scheme?: string; host?: string };
  tcpSocket?: { port: number | string; host?: string };
  exec?: { command?: string[] };
  grpc?: { port: number; service?: string };
}

/** `error`: the probe could not run (prober.go: "probe errored"; the worker throws the result away). */
export type ProbeResult = { ok: true } | { ok: false; output: string } | { ok: false; error: string };

/** Named ports resolve through the container's ports. */
export function portOf(port: number | string, ports: readonly { name?: string; containerPort: number }[]): number {
  if (typeof port === 'number') return port;
  const named = ports.find((p) => p.name === port);
  return named ? named.containerPort : Number(port);
}

export function runProbeOnce(rt: FakeRuntime, spec: ProbeSpec, c: RtContainer, sb: Sandbox, ports: readonly { name?: string; containerPort: number }[], now: number): ProbeResult {
  const timeoutMs = (spec.timeoutSeconds ?? 1) * 1000;
  if (spec.exec) {
    const cmd = spec.exec.command ?? [];
    const r = rt.exec(c.id, cmd, now, timeoutMs);
    // ExecSync itself failed (the command cannot start): the CRI call's gRPC error, not a failed probe (pkg/probe/exec: Unknown).
    if ('error' in r) return { ok: false, error: `rpc error: code = Unknown desc = ${r.error}` };
    if (r.timedOut) return { ok: false, output: `command ${JSON.stringify(cmd.join(' '))} timed out` };
    return r.exitCode === 0 ? { ok: true } : { ok: false, output: r.stdout + r.stderr };
  }
  if (spec.httpGet) {
    const port = portOf(spec.httpGet.port, ports);
    const host = spec.httpGet.host ?? sb.ip;
    const scheme = (spec.httpGet.scheme ?? 'HTTP').toLowerCase();
    const path = spec.httpGet.path ?? '/';
    const status = host === sb.ip ? rt.httpGet(sb.id, port, path, now) : null;
    if (status === null) return { ok: false, output: `Get "${scheme}://${host}:${port}${path}": dial tcp ${host}:${port}: connect: connection refused` };
    if (status >= 200 && status < 400) return { ok: true };
    return { ok: false, output: `HTTP probe failed with statuscode: ${status}` };
  }
  if (spec.tcpSocket) {
    const port = portOf(spec.tcpSocket.port, ports);
    const host = spec.tcpSocket.host ?? sb.ip;
    if (host === sb.ip && rt.tcpOpen(sb.id, port, now)) return { ok: true };
    return { ok: false, output: `dial tcp ${host}:${port}: connect: connection refused` };
  }
  if (spec.grpc) {
    if (rt.tcpOpen(sb.id, spec.grpc.port, now)) return { ok: true };
    return { ok: false, output: `timeout: failed to connect service "${sb.ip}:${spec.grpc.port}" within ${spec.timeoutSeconds ?? 1}s: context deadline exceeded` };
  }
  return { ok: true };
}

/** Upstream's event text: "Readiness probe failed: …". */
export function probeName(kind: ProbeKind): string {
  return kind === 'startup' ? 'Startup' : kind === 'readiness' ? 'Readiness' : 'Liveness';
}
