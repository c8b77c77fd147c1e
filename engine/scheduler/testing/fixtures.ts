// Test builders for scheduler units: pods, nodes, and a Handle over a fixed
// set of NodeInfos and listed objects (no actor, no API server).
import type { KObject } from '../../apimachinery/types';
import { Rng } from '../../sim/rng';
import type { Container, Node, Pod, PodSpec, ResourceList, Taint } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { Handle, ListedResource, NodeInfoLister, ObjectLister } from '../framework/interface';
import { NodeInfo } from '../framework/nodeInfo';
import type { PodInfo } from '../framework/podInfo';
import type { MaybeStatus } from '../framework/status';

export interface PodOpts {
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  requests?: ResourceList;
  containers?: Container[];
  nodeName?: string;
  priority?: number;
  creationTimestamp?: string;
  spec?: Partial<PodSpec>;
}

export function makePod(name: string, o: PodOpts = {}): Pod {
  const containers = o.containers ?? [{ name: 'c', image: 'nginx', ...(o.requests ? { resources: { requests: o.requests } } : {}) }];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default', uid: o.uid ?? `uid-${name}`, labels: o.labels, creationTimestamp: o.creationTimestamp ?? '2025-01-01T00:00:00Z' },
    spec: { containers, ...(o.nodeName ? { nodeName: o.nodeName } : {}), ...(o.priority !== undefined ? { priority: o.priority } : {}), ...o.spec },
    status: { phase: 'Pending' },
  };
}

export interface NodeOpts {
  labels?: Record<string, string>;
  allocatable?: ResourceList;
  taints?: Taint[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
}

export function makeNode(name: string, o: NodeOpts = {}): Node {
  const allocatable = o.allocatable ?? { cpu: '4', memory: '32Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { capacity: allocatable, allocatable, images: o.images ?? [], conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** A NodeInfo for `node` holding `pods`. */
export function nodeInfoOf(node: Node, pods: Pod[] = []): NodeInfo {
  const ni = new NodeInfo(node.metadata.name!);
  ni.setNode(node);
  for (const p of pods) ni.addPod(p);
  return ni;
}

function keyOf(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
}

/** A Handle over fixed NodeInfos and objects; image states' numNodes are computed like the cache does. */
export function fakeHandle(nodes: NodeInfo[], objects: Partial<Record<ListedResource, KObject[]>> = {}, seed = 1): Handle {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  // ImageStateSummary.numNodes counts the nodes with the image.
  const counts = new Map<string, number>();
  for (const n of nodes) for (const img of n.node?.status?.images ?? []) for (const name of img.names ?? []) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const n of nodes) {
    n.imageStates.clear();
    for (const img of n.node?.status?.images ?? []) for (const name of img.names ?? []) n.imageStates.set(name, { size: img.sizeBytes ?? 0, numNodes: counts.get(name) ?? 0 });
  }
  const lister: NodeInfoLister = {
    list: () => nodes,
    get: (name) => byName.get(name),
    havePodsWithAffinityList: () => nodes.filter((n) => n.podsWithAffinity.length > 0),
    havePodsWithRequiredAntiAffinityList: () => nodes.filter((n) => n.podsWithRequiredAntiAffinity.length > 0),
    isPVCUsedByPods: (key) => nodes.some((n) => n.pvcRefCounts.has(key)),
  };
  const listers = new Map<ListedResource, ObjectLister>();
  const rng = new Rng(seed);
  return {
    nodes: lister,
    lister(r) {
      let l = listers.get(r);
      if (!l) {
        const m = new Map((objects[r] ?? []).map((o) => [keyOf(o), o]));
        l = { get: (k) => m.get(k), list: () => m.values() };
        listers.set(r, l);
      }
      return l;
    },
    now: () => 0,
    rng: () => rng,
    nominatedPodsForNode: (): readonly PodInfo[] => [],
    runFilterPluginsWithNominatedPods: (): MaybeStatus => {
      throw new Error('fakeHandle: runFilterPluginsWithNominatedPods needs a framework');
    },
    runPreFilterExtensionAddPod: (_s: CycleState): MaybeStatus => null,
    runPreFilterExtensionRemovePod: (_s: CycleState): MaybeStatus => null,
    filterPluginNames: () => [],
  };
}
