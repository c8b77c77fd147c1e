// Test builders for the node-resources plugin tests, shaped like upstream's
// st.MakePod / st.MakeNode and noderesources test helpers so the ported
// tables read the same. Test support only.
import type { Container, Node, Pod, ResourceList } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { nodeInfoOf } from '../../testing/fixtures';

/** st.MakePod(): no containers until Req/Container adds them. */
export class PodWrapper {
  readonly pod: Pod;
  constructor(name = 'pod') {
    this.pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { containers: [] } };
  }
  name(n: string): this {
    this.pod.metadata.name = n;
    return this;
  }
  uid(u: string): this {
    this.pod.metadata.uid = u;
    return this;
  }
  node(n: string): this {
    this.pod.spec.nodeName = n;
    return this;
  }
  /** A container requesting `requests`. */
  req(requests: ResourceList): this {
    this.pod.spec.containers.push({ name: `con${this.pod.spec.containers.length}`, resources: { requests: { ...requests } } });
    return this;
  }
  /** A restartable init container (sidecar) requesting `requests`. */
  sidecarReq(requests: ResourceList): this {
    (this.pod.spec.initContainers ??= []).push({ name: `sidecar${this.pod.spec.initContainers!.length}`, restartPolicy: 'Always', resources: { requests: { ...requests } } });
    return this;
  }
  /** A container without requests. */
  container(name: string): this {
    this.pod.spec.containers.push({ name });
    return this;
  }
  obj(): Pod {
    return this.pod;
  }
}

export const makePodW = (name?: string): PodWrapper => new PodWrapper(name);

/** st.MakeNode().Name(n).Capacity(c): capacity = allocatable = {pods: 32, ...c}. */
export function stNode(name: string, capacity: ResourceList = {}): Node {
  const alloc: ResourceList = { pods: '32', ...capacity };
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}` }, spec: {}, status: { capacity: alloc, allocatable: alloc } };
}

/** noderesources test_util.go makeNode: cpu in milli, memory in bytes, extended resources as counts. */
export function makeNode(name: string, milliCPU: number, memory: number, extended: Record<string, number> | null = null): Node {
  const alloc: ResourceList = { ...(extended ?? {}), cpu: `${milliCPU}m`, memory: `${memory}` };
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}` }, spec: {}, status: { capacity: alloc, allocatable: alloc } };
}

/** framework.Resource-shaped usage for newResourcePod. */
export interface Usage {
  milliCPU?: number;
  memory?: number;
  ephemeralStorage?: number;
  allowedPodNumber?: number;
  scalar?: Record<string, number>;
}

/** fit_test.go newResourcePod: one container per usage, listing cpu, memory, pods and ephemeral-storage (even 0). */
export function newResourcePod(...usage: Usage[]): Pod {
  const containers: Container[] = usage.map((u, i) => ({
    name: `c${i}`,
    resources: {
      requests: {
        cpu: `${u.milliCPU ?? 0}m`,
        memory: `${u.memory ?? 0}`,
        pods: `${u.allowedPodNumber ?? 0}`,
        'ephemeral-storage': `${u.ephemeralStorage ?? 0}`,
        ...Object.fromEntries(Object.entries(u.scalar ?? {}).map(([k, v]) => [k, `${v}`])),
      },
    },
  }));
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'resource-pod', namespace: 'default', uid: 'uid-resource-pod' }, spec: { containers } };
}

/** newResourceInitPod: the usages as init containers. */
export function newResourceInitPod(pod: Pod, ...usage: Usage[]): Pod {
  pod.spec.initContainers = newResourcePod(...usage).spec.containers;
  return pod;
}

export function newResourceOverheadPod(pod: Pod, overhead: ResourceList): Pod {
  pod.spec.overhead = overhead;
  return pod;
}

/** fit_test.go makeAllocatableResources */
export function makeAllocatableResources(milliCPU: number, memory: number, pods: number, extendedA: number, storage: number, hugePageA: number): ResourceList {
  return { cpu: `${milliCPU}m`, memory: `${memory}`, pods: `${pods}`, 'example.com/aaa': `${extendedA}`, 'ephemeral-storage': `${storage}`, 'hugepages-2Mi': `${hugePageA}` };
}

/** framework.NewNodeInfo(pods...) then SetNode(node with `allocatable`). */
export function nodeInfoWith(allocatable: ResourceList, ...pods: Pod[]): NodeInfo {
  const ni = new NodeInfo('node');
  for (const p of pods) ni.addPod(p);
  ni.setNode({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node' }, status: { capacity: allocatable, allocatable } });
  return ni;
}

/** cache.NewSnapshot(pods, nodes): each node's NodeInfo with the pods bound to it. */
export function snapshot(pods: Pod[], nodes: Node[]): NodeInfo[] {
  return nodes.map((n) =>
    nodeInfoOf(
      n,
      pods.filter((p) => p.spec.nodeName === n.metadata.name),
    ),
  );
}

export function newCycleState(): CycleState {
  return new CycleState();
}
