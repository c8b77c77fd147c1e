// The framework.Handle plugins are given: the cache as the node lister, the
// informers' stores as object listers, the clock and the random stream of
// the scheduler actor, and the running profile's framework for preemption's
// what-if filtering.
import type { KObject } from '../apimachinery/types';
import { Rng } from '../sim/rng';
import { registerClass } from '../sim/serial';
import type { Pod } from './framework/api';
import type { CycleState } from './framework/cycleState';
import type { Handle, ListedResource, NodeInfoLister, ObjectLister } from './framework/interface';
import type { NodeInfo } from './framework/nodeInfo';
import type { PodInfo } from './framework/podInfo';
import type { Framework } from './framework/runtime';
import { errorStatus, type MaybeStatus } from './framework/status';

/** An informer store as an ObjectLister (a class, so plugins may keep one in a field and still snapshot). */
export class StoreLister implements ObjectLister {
  constructor(private readonly m: Map<string, KObject>) {}
  get(key: string): KObject | undefined {
    return this.m.get(key);
  }
  list(): Iterable<KObject> {
    return this.m.values();
  }
}
registerClass('SchedulerStoreLister', StoreLister);

export class SchedulerHandle implements Handle {
  /** The framework of the profile scheduling the current pod. */
  current: Framework | null = null;
  nowMs = 0;
  readonly random: Rng;

  constructor(
    readonly nodes: NodeInfoLister,
    /** Informer stores by resource ("namespace/name" or "name" → object). */
    private readonly stores: Map<string, Map<string, KObject>>,
    private readonly nominator: { nominatedPodsForNode(nodeName: string): readonly PodInfo[] },
    seed: number,
  ) {
    this.random = new Rng(seed);
  }

  lister(resource: ListedResource): ObjectLister {
    let m = this.stores.get(resource);
    if (!m) this.stores.set(resource, (m = new Map()));
    return new StoreLister(m);
  }

  now(): number {
    return this.nowMs;
  }

  rng(): Rng {
    return this.random;
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.nominator.nominatedPodsForNode(nodeName);
  }

  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    return this.current ? this.current.runFilterPluginsWithNominatedPods(state, pod, nodeInfo) : errorStatus('no profile is running');
  }

  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: Pod, toAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.current ? this.current.runPreFilterExtensionAddPod(state, podToSchedule, toAdd, nodeInfo) : null;
  }

  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: Pod, toRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.current ? this.current.runPreFilterExtensionRemovePod(state, podToSchedule, toRemove, nodeInfo) : null;
  }

  filterPluginNames(): readonly string[] {
    return this.current?.filterNames ?? [];
  }
}

registerClass('SchedulerHandle', SchedulerHandle);
