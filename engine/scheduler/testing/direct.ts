// The scheduling algorithm without the API server: a cache, the in-tree
// registry and a configuration, and `schedule(pod)` running one cycle (with
// Reserve and the assume) exactly as the actor does, minus REST. For
// benchmarks (upstream's scheduler_perf shapes) and placement tests.
import type { KObject } from '../../apimachinery/types';
import type { Node, Pod } from '../framework/api';
import { DEFAULT_SCHEDULER_NAME } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import type { PodInfo } from '../framework/podInfo';
import { SchedulerCache } from '../cache/cache';
import { SchedulerHandle } from '../handle';
import { buildProfiles, type SchedulerSetup } from '../profiles';
import { emptyRecord, schedulePod } from '../algorithm';
import type { DecisionRecord } from '../records/types';

export class DirectScheduler {
  readonly cache = new SchedulerCache();
  readonly handle: SchedulerHandle;
  readonly setup: SchedulerSetup;
  readonly stores = new Map<string, Map<string, KObject>>();
  private readonly alg = { nextStartNodeIndex: 0 };
  private cycle = 0;
  now = 0;

  constructor(seed = 1, configText?: string) {
    this.handle = new SchedulerHandle(this.cache, this.stores, this, seed);
    const built = buildProfiles(configText, this.handle);
    if (!built.ok) throw new Error(built.error);
    this.setup = built.setup;
  }

  nominatedPodsForNode(): readonly PodInfo[] {
    return [];
  }

  addNode(node: Node): void {
    this.cache.addNode(node);
  }

  /** A pod already bound (spec.nodeName set). */
  addPod(pod: Pod): void {
    this.cache.addPod(pod);
  }

  addObject(resource: string, key: string, o: KObject): void {
    let m = this.stores.get(resource);
    if (!m) this.stores.set(resource, (m = new Map()));
    m.set(key, o);
  }

  /** One scheduling cycle; a placed pod is assumed on its node (as if bound). */
  schedule(pod: Pod, record = false): DecisionRecord {
    const fwk = this.setup.frameworks.get(pod.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME)!;
    this.handle.current = fwk;
    this.handle.nowMs = this.now;
    const state = new CycleState();
    const rec = emptyRecord(++this.cycle, this.now, pod, fwk.profileName);
    const out = schedulePod(fwk, this.cache, state, pod, this.alg, this.handle.random, this.setup.config.percentageOfNodesToScore, rec);
    if (out.type === 'scheduled') {
      const assumed: Pod = { ...pod, spec: { ...pod.spec, nodeName: out.node } };
      this.cache.assumePod(assumed);
      const s = fwk.runReservePluginsReserve(state, assumed, out.node);
      if (s) throw new Error(`reserve failed: ${s.reasons.join(', ')}`);
      rec.outcome = 'Scheduled';
    }
    void record;
    return rec;
  }
}
