// Test-only: a small stand-in for the framework, so preemption can be tested
// without the real filter plugins. Its filter is NodeResourcesFit's core
// (pod count, cpu, memory over NodeInfo.requested vs allocatable) with
// upstream's reason texts; tests can replace it and count calls.
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { Rng } from '../../sim/rng';
import type { Node, Pod, ResourceList } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { Handle, ListedResource } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { PodInfo } from '../framework/podInfo';
import { unschedulable, type MaybeStatus, type Status } from '../framework/status';
import { fakeHandle, makeNode, makePod, nodeInfoOf, type PodOpts } from '../testing/fixtures';

/** An Rng whose int() answers from a script first (upstream's tests fix getOffsetRand). */
export class ScriptedRng extends Rng {
  constructor(private readonly script: number[], seed = 1) {
    super(seed);
  }
  override int(lo: number, hi: number): number {
    const v = this.script.shift();
    return v !== undefined ? v : super.int(lo, hi);
  }
}

/** NodeResourcesFit's Filter, reduced: "Too many pods", "Insufficient cpu", "Insufficient memory". */
export function fitFilter(pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
  const reasons: string[] = [];
  if (nodeInfo.pods.length + 1 > nodeInfo.allocatable.allowedPodNumber) reasons.push('Too many pods');
  const req = new PodInfo(pod).requests;
  if (req.milliCPU > 0 && req.milliCPU > nodeInfo.allocatable.milliCPU - nodeInfo.requested.milliCPU) reasons.push('Insufficient cpu');
  if (req.memory > 0 && req.memory > nodeInfo.allocatable.memory - nodeInfo.requested.memory) reasons.push('Insufficient memory');
  return reasons.length > 0 ? unschedulable(...reasons) : null;
}

export interface TestHandleOpts {
  objects?: Partial<Record<ListedResource, KObject[]>>;
  now?: number;
  rng?: Rng;
  nominated?: Map<string, Pod[]>;
  filter?: (pod: Pod, nodeInfo: NodeInfo, state: CycleState) => MaybeStatus;
  /** PreFilterExtensions' RemovePod / AddPod outcome (null: fine). */
  removePod?: (pod: Pod, toRemove: PodInfo, nodeInfo: NodeInfo) => MaybeStatus;
  addPod?: (pod: Pod, toAdd: PodInfo, nodeInfo: NodeInfo) => MaybeStatus;
}

export interface TestHandle extends Handle {
  filterCalls: number;
}

export function testHandle(nodes: NodeInfo[], o: TestHandleOpts = {}): TestHandle {
  const base = fakeHandle(nodes, o.objects ?? {});
  const rng = o.rng ?? new Rng(1);
  const filter = o.filter ?? ((pod: Pod, ni: NodeInfo) => fitFilter(pod, ni));
  const h: TestHandle = {
    ...base,
    filterCalls: 0,
    now: () => o.now ?? 0,
    rng: () => rng,
    nominatedPodsForNode: (name) => (o.nominated?.get(name) ?? []).map((p) => new PodInfo(p)),
    runFilterPluginsWithNominatedPods(state, pod, nodeInfo) {
      h.filterCalls++;
      return filter(pod, nodeInfo, state);
    },
    runPreFilterExtensionRemovePod: (_s, pod, toRemove, nodeInfo) => o.removePod?.(pod, toRemove, nodeInfo) ?? null,
    runPreFilterExtensionAddPod: (_s, pod, toAdd, nodeInfo) => o.addPod?.(pod, toAdd, nodeInfo) ?? null,
    filterPluginNames: () => ['NodeResourcesFit'],
  };
  return h;
}

// Upstream's test sizes (default_preemption_test.go).
export const PRIORITY = { neg: -100, low: 0, mid: 100, high: 1000, veryHigh: 10000 } as const;
export const SMALL: ResourceList = { cpu: '100m', memory: '100' };
export const MEDIUM: ResourceList = { cpu: '200m', memory: '200' };
export const LARGE: ResourceList = { cpu: '300m', memory: '300' };
export const VERY_LARGE: ResourceList = { cpu: '500m', memory: '500' };

/** st.MakeNode().Capacity(res): 32 pods unless res says otherwise. */
export function capNode(name: string, res: ResourceList, labels?: Record<string, string>): Node {
  return makeNode(name, { allocatable: { pods: '32', ...res }, ...(labels ? { labels } : {}) });
}

/** A pod; `start` is seconds after the epoch, as status.startTime. */
export function tpod(name: string, o: PodOpts & { start?: number; nominated?: string; terminating?: boolean; conditions?: Pod['status'] } = {}): Pod {
  const { start, nominated, terminating, conditions, ...rest } = o;
  const p = makePod(name, rest);
  if (start !== undefined) p.status = { ...p.status, startTime: rfc3339(start * 1000) };
  if (nominated) p.status = { ...p.status, nominatedNodeName: nominated };
  if (terminating) p.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
  if (conditions) p.status = { ...p.status, ...conditions };
  return p;
}

/** NodeInfos for nodes holding the pods whose spec.nodeName names them. */
export function cluster(nodes: Node[], pods: Pod[]): NodeInfo[] {
  return nodes.map((n) => nodeInfoOf(n, pods.filter((p) => p.spec.nodeName === n.metadata.name)));
}

export const statusOf = (code: Status['code'], ...reasons: string[]): Status => ({ code, reasons });
