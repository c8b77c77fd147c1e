// framework.NodeInfo: a node and what the scheduler accounts on it — its pods
// (assumed ones included), requested and non-zero requested resources, host
// ports in use, images, and PVC references. Kept incrementally by the cache.
import { registerClass } from '../../sim/serial';
import type { Node, Pod } from './api';
import { podKey } from './api';
import { PodInfo } from './podInfo';
import { emptyResource, resourceOf, type Resource } from './resources';

/** framework.ImageStateSummary: an image on this node, and on how many nodes of the cluster. */
export interface ImageStateSummary {
  size: number;
  numNodes: number;
}

/** framework.HostPortInfo: ip → "protocol/port" in use. 0.0.0.0 conflicts with every ip. */
export type HostPortInfo = Map<string, Set<string>>;

export const DEFAULT_BIND_ALL_HOST_IP = '0.0.0.0';

export function hostPortKey(protocol: string | undefined, port: number): string {
  return `${protocol || 'TCP'}/${port}`;
}

export class NodeInfo {
  node: Node | null = null;
  name: string;
  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  usedPorts: HostPortInfo = new Map();
  requested: Resource = emptyResource();
  /** Only milliCPU and memory are kept. */
  nonZeroRequested: Resource = emptyResource();
  allocatable: Resource = emptyResource();
  imageStates = new Map<string, ImageStateSummary>();
  /** "namespace/claimName" → pods on this node using it. */
  pvcRefCounts = new Map<string, number>();
  /** Bumped on every change (the cache's snapshot generation). */
  generation = 0;

  constructor(name: string) {
    this.name = name;
  }

  setNode(node: Node): void {
    this.node = node;
    this.name = node.metadata.name ?? this.name;
    this.allocatable = resourceOf(node.status?.allocatable);
    this.generation++;
  }

  addPod(pod: Pod): PodInfo {
    const pi = new PodInfo(pod);
    this.addPodInfo(pi);
    return pi;
  }

  addPodInfo(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity) this.podsWithAffinity.push(pi);
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.push(pi);
    this.update(pi, 1);
  }

  /** Removes a pod by namespace/name (uid when given must match); false when absent. */
  removePod(pod: Pod): boolean {
    // GetPodKey is the pod's UID; namespace/name only for pods without one (tests).
    const uid = pod.metadata.uid;
    const key = podKey(pod);
    const i = uid ? this.pods.findIndex((p) => p.pod.metadata.uid === uid) : this.pods.findIndex((p) => podKey(p.pod) === key);
    if (i < 0) return false;
    const pi = this.pods[i]!;
    // Swap-remove, as upstream does: pod order on a node is not meaningful.
    this.pods[i] = this.pods[this.pods.length - 1]!;
    this.pods.pop();
    this.podsWithAffinity = this.podsWithAffinity.filter((p) => p !== pi);
    this.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.filter((p) => p !== pi);
    this.update(pi, -1);
    return true;
  }

  private update(pi: PodInfo, sign: 1 | -1): void {
    const r = pi.requests;
    this.requested.milliCPU += sign * r.milliCPU;
    this.requested.memory += sign * r.memory;
    this.requested.ephemeralStorage += sign * r.ephemeralStorage;
    for (const k in r.scalar) this.requested.scalar[k] = (this.requested.scalar[k] ?? 0) + sign * r.scalar[k]!;
    this.nonZeroRequested.milliCPU += sign * pi.nonZero.milliCPU;
    this.nonZeroRequested.memory += sign * pi.nonZero.memory;
    for (const c of pi.pod.spec.containers ?? []) {
      for (const p of c.ports ?? []) {
        if (!p.hostPort) continue;
        const ip = p.hostIP || DEFAULT_BIND_ALL_HOST_IP;
        const key = hostPortKey(p.protocol, p.hostPort);
        if (sign > 0) {
          let set = this.usedPorts.get(ip);
          if (!set) this.usedPorts.set(ip, (set = new Set()));
          set.add(key);
        } else {
          const set = this.usedPorts.get(ip);
          set?.delete(key);
          if (set && set.size === 0) this.usedPorts.delete(ip);
        }
      }
    }
    const ns = pi.pod.metadata.namespace ?? '';
    for (const v of pi.pod.spec.volumes ?? []) {
      // Only persistentVolumeClaim volumes are counted (NodeInfo.updatePVCRefCounts, v1.32).
      const claim = v.persistentVolumeClaim?.claimName;
      if (!claim) continue;
      const k = `${ns}/${claim}`;
      const n = (this.pvcRefCounts.get(k) ?? 0) + sign;
      if (n <= 0) this.pvcRefCounts.delete(k);
      else this.pvcRefCounts.set(k, n);
    }
    this.generation++;
  }
}

registerClass('SchedulerNodeInfo', NodeInfo);
