// The prober manager: runs each container's startup, readiness and liveness
// probes (probes.ts) and acts on their results.
import type { Kubelet } from '../kubelet';
import { record } from '../events';
import { kill } from '../pod/podWorkers';
import type { ContainerSpec } from '../pod/containers';
import type { ContainerRt, PodWorker } from '../status/generate';
import { newProbeState, probeName, runProbe, type ProbeKind, type ProbeSpec } from './probes';

/** The prober: startup first, then readiness and liveness; a failed liveness/startup probe kills the container. */
export function probe(k: Kubelet, now: number, w: PodWorker, c: ContainerRt, spec: ContainerSpec | undefined, next: number[]): void {
  if (now < c.startedAt) {
    next.push(c.startedAt);
    return;
  }
  const ports = (spec as { ports?: { name?: string; containerPort: number }[] } | undefined)?.ports ?? [];
  const specs: Record<ProbeKind, ProbeSpec | undefined> = { startup: spec?.startupProbe, readiness: spec?.readinessProbe, liveness: spec?.livenessProbe };
  const run = (kind: ProbeKind): boolean => {
    const st = (c.probes[kind] ??= newProbeState(kind, kind === 'startup' ? c.startedAt : now));
    for (const o of runProbe(kind, specs[kind]!, st, c, now, w.podIP, c.ports, ports)) {
      if (o.type === 'failed') {
        record(k, w, c.name, 'Warning', 'Unhealthy', `${probeName(kind)} probe failed: ${o.message}`, now);
        continue;
      }
      record(k, w, c.name, 'Normal', 'Killing', `Container ${c.name} failed ${kind} probe, will be restarted`, now);
      const grace = ((w.pod.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30) * 1000;
      kill(k, c, c.ignoresSigterm ? now + grace : now, now);
      return false;
    }
    next.push(st.nextAt);
    return true;
  };
  if (specs.startup && !c.started) {
    if (!run('startup')) return;
    c.started = c.probes.startup!.ok;
    if (!c.started) {
      c.ready = false;
      return;
    }
  }
  c.started = true;
  if (specs.liveness && !run('liveness')) return;
  if (specs.readiness) {
    if (!run('readiness')) return;
    c.ready = c.probes.readiness!.ok;
  } else c.ready = true;
}
