// The eviction manager (pkg/kubelet/eviction): every monitoring interval
// (10 s, while the node runs pods) it observes memory.available (machine
// memory − the node's working set) against the hard threshold (100Mi by
// default); while the threshold is met the node reports MemoryPressure (and
// keeps reporting it for evictionPressureTransitionPeriod, 5 min, after it
// clears), BestEffort pods are refused admission, and one pod per interval is
// evicted, ranked as rankMemoryPressure ranks them: pods using more than they
// request first, then lower priority, then the largest use above request. The
// evicted pod is killed with the immediate grace period (1 s, which
// killContainer raises to its 2 s minimum) and fails with reason Evicted,
// upstream's message and a DisruptionTarget condition.
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import { formatQuantity } from '../../apiserver/validation/quantity';
import type { Pod } from '../../scheduler/framework/api';
import { quantityNumber } from '../../scheduler/framework/resources';
import type { Kubelet } from '../kubelet';
import { recordPodEvent } from '../events';
import { dispatch } from '../pod/podWorkers';
import { qosClass } from '../status/generate';

/** evictionMonitoringPeriod. */
export const EVICTION_MONITORING_MS = 10_000;
/** evictionPressureTransitionPeriod. */
export const PRESSURE_TRANSITION_MS = 5 * 60_000;
/** The default hard threshold memory.available<100Mi. */
export const MEMORY_AVAILABLE_THRESHOLD = 100 * 1024 * 1024;
/** immediateEvictionGracePeriodSeconds. */
const IMMEDIATE_GRACE_MS = 1000;
/** podCleanupTimeout: the manager waits this long for an evicted pod to go before evicting another. */
const CLEANUP_TIMEOUT_MS = 30_000;

const bytesText = (n: number) => formatQuantity({ nanos: BigInt(Math.floor(n)) * 1_000_000_000n, format: 'BinarySI' });

export class EvictionManager {
  /** When memory.available was last seen under the threshold. */
  lastMemoryPressureAt = -Infinity;
  /** The pod evicted last, and when: the manager waits for it to be cleaned up. */
  evicting: { uid: string; at: number } | null = null;
  running = false;
  /** The last observation (for the UI and tests). */
  observed: { at: number; available: number } | null = null;

  /** The monitoring loop runs while the node has pods (an idle node costs nothing). */
  start(ctx: ActorContext): void {
    if (this.running) return;
    this.running = true;
    ctx.setTimer(EVICTION_MONITORING_MS, 'eviction');
  }

  pressure(now?: number): { memory: boolean; disk: boolean; pid: boolean } {
    const t = now ?? this.observed?.at ?? -Infinity;
    return { memory: t - this.lastMemoryPressureAt < PRESSURE_TRANSITION_MS, disk: false, pid: false };
  }

  /** Admit: under memory pressure, only pods that are not BestEffort. */
  admit(pod: Pod, now: number): { admit: true } | { admit: false; reason: string; message: string } {
    if (!this.pressure(now).memory || qosClass(pod) !== 'BestEffort') return { admit: true };
    return { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' };
  }

  /** synchronize: observe, report pressure, evict at most one pod. */
  synchronize(k: Kubelet, ctx: ActorContext): void {
    const now = ctx.now;
    if (k.workers.size === 0 && !this.pressure(now).memory) {
      this.running = false;
      return;
    }
    ctx.setTimer(EVICTION_MONITORING_MS, 'eviction');
    const rt = k.runtime;
    rt.advance(now);
    const capacity = quantityNumber(k.config.capacity.memory, false);
    const available = capacity - rt.meter.nodeWorkingSet(now);
    this.observed = { at: now, available };
    const met = available < MEMORY_AVAILABLE_THRESHOLD;
    if (met) this.lastMemoryPressureAt = now;
    if (!met) return;
    if (this.evicting) {
      const w = k.workers.get(this.evicting.uid);
      if (w && w.phase !== 'terminated' && now - this.evicting.at < CLEANUP_TIMEOUT_MS) return;
      this.evicting = null;
    }
    const active = [...k.workers.values()].filter((w) => w.phase === 'sync' && !w.rejected && !w.ended);
    if (active.length === 0) return;
    const usage = (uid: string) => {
      const p = rt.meter.pods.get(uid);
      return p ? rt.meter.podWorkingSet(p, now) : 0;
    };
    const request = (pod: Pod) => [...(pod.spec.initContainers ?? []), ...pod.spec.containers].reduce((s, c) => s + quantityNumber(c.resources?.requests?.memory, false), 0);
    const ranked = active
      .map((w) => ({ w, use: usage(w.uid), req: request(w.pod), prio: w.pod.spec.priority ?? 0 }))
      .sort((a, b) => Number(b.use > b.req) - Number(a.use > a.req) || a.prio - b.prio || b.use - b.req - (a.use - a.req) || (a.w.uid < b.w.uid ? -1 : 1));
    const victim = ranked[0]!.w;
    let message = `The node was low on resource: memory. Threshold quantity: ${bytesText(MEMORY_AVAILABLE_THRESHOLD)}, available: ${bytesText(Math.max(0, available))}. `;
    for (const c of victim.pod.spec.containers) {
      const rc = rt
        .podContainers(victim.uid)
        .filter((x) => x.name === c.name && x.state === 'running')
        .pop();
      const m = rc ? rt.meter.containers.get(rc.id) : undefined;
      if (!m) continue;
      const use = Math.floor(rt.meter.workingSet(m, now));
      const req = quantityNumber(c.resources?.requests?.memory, false);
      if (use > req)
        message += `Container ${c.name} was using ${bytesText(use)}, request is ${c.resources?.requests?.memory !== undefined ? String(c.resources.requests.memory) : '0'}, has larger consumption of memory. `;
    }
    recordPodEvent(k, victim.pod, '', 'Warning', 'Evicted', message, now);
    victim.ended = { reason: 'Evicted', message, disruption: true, graceMs: IMMEDIATE_GRACE_MS };
    this.evicting = { uid: victim.uid, at: now };
    dispatch(k, ctx, victim);
  }
}

registerClass('EvictionManager', EvictionManager);
