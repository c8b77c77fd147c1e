// The prober manager's workers (pkg/kubelet/prober/worker.go): one per
// container probe, ticking every periodSeconds from when the pod was added
// (a kubelet that has just started waits a random part of the first period,
// so restarted kubelets do not probe everything at once). A tick skips
// containers that are not running, those within initialDelaySeconds of their
// start (whole seconds, as upstream truncates), liveness/readiness until the
// startup probe has passed, and the startup probe once it has. A result only
// changes after successThreshold / failureThreshold equal outcomes in a row;
// a failed liveness or startup probe puts the worker on hold until the
// container is replaced. Initial results: readiness Failure, liveness
// Success, startup Unknown (not started).
import type { Rng } from '../../sim/rng';
import type { FakeRuntime, RtContainer, Sandbox } from '../runtime/runtime';
import { runProbeOnce, type ProbeKind, type ProbeSpec } from './probes';

export type Result = 'success' | 'failure' | 'unknown';

export interface ProbeWorker {
  kind: ProbeKind;
  container: string;
  /** The container instance the result is about ('' before one exists). */
  containerId: string;
  nextAt: number;
  lastResult: Result;
  resultRun: number;
  result: Result;
  onHold: boolean;
}

const initialValue = (kind: ProbeKind): Result => (kind === 'readiness' ? 'failure' : kind === 'liveness' ? 'success' : 'unknown');

export function newProbeWorker(kind: ProbeKind, container: string, spec: ProbeSpec, now: number, kubeletStart: number, rng: Rng): ProbeWorker {
  const period = (spec.periodSeconds ?? 10) * 1000;
  // A kubelet that started less than a period ago spreads its first probes over the period.
  const delay = period > now - kubeletStart ? Math.floor(rng.float() * period) : 0;
  return { kind, container, containerId: '', nextAt: now + delay, lastResult: 'unknown', resultRun: 0, result: initialValue(kind), onHold: false };
}

/** What a tick did: a failed attempt's message (an Unhealthy event), a result change. */
export interface TickOutcome {
  /** `errored`: the probe could not run ("probe errored"); the attempt does not count. */
  failures: { at: number; output: string; errored?: boolean }[];
  changed: boolean;
}

/**
 * Runs the ticks of one worker due by `now` against the container's latest
 * instance `c` (undefined: none yet). `started` says whether the startup probe
 * (if any) has passed.
 */
export function tick(
  w: ProbeWorker,
  spec: ProbeSpec,
  rt: FakeRuntime,
  c: RtContainer | undefined,
  sb: Sandbox | null,
  ports: readonly { name?: string; containerPort: number }[],
  started: boolean,
  now: number,
  restartNever: boolean,
): TickOutcome {
  const out: TickOutcome = { failures: [], changed: false };
  const period = (spec.periodSeconds ?? 10) * 1000;
  while (w.nextAt <= now) {
    const at = w.nextAt;
    w.nextAt += period;
    if (!c) continue;
    if (w.containerId !== c.id) {
      // A new container: start from the initial value and resume probing.
      w.containerId = c.id;
      const before = w.result;
      w.result = initialValue(w.kind);
      w.lastResult = 'unknown';
      w.resultRun = 0;
      w.onHold = false;
      if (before !== w.result) out.changed = true;
    }
    if (w.onHold) continue;
    if (c.state !== 'running' || c.startedAt > at) {
      if (c.state !== 'running' && w.result !== 'failure') {
        w.result = 'failure';
        out.changed = true;
      }
      if (c.state !== 'running' && restartNever) break;
      continue;
    }
    if (Math.floor((at - c.startedAt) / 1000) < (spec.initialDelaySeconds ?? 0)) continue;
    if (w.kind === 'startup' ? started : !started) continue;
    if (!sb) continue;
    const r = runProbeOnce(rt, spec, c, sb, ports, at);
    if ('error' in r) {
      // worker.go doProbe: "Prober error, throw away the result" — neither threshold moves.
      out.failures.push({ at, output: r.error, errored: true });
      continue;
    }
    const result: Result = r.ok ? 'success' : 'failure';
    if (!r.ok) out.failures.push({ at, output: r.output });
    if (w.lastResult === result) w.resultRun++;
    else {
      w.lastResult = result;
      w.resultRun = 1;
    }
    if ((result === 'failure' && w.resultRun < (spec.failureThreshold ?? 3)) || (result === 'success' && w.resultRun < (spec.successThreshold ?? 1))) continue;
    if (w.result !== result) out.changed = true;
    w.result = result;
    if ((w.kind === 'liveness' || w.kind === 'startup') && result === 'failure') {
      w.onHold = true;
      w.resultRun = 0;
    }
  }
  return out;
}
