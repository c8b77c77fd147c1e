// The scheduler cache (pkg/scheduler/backend/cache/cache.go): NodeInfos kept
// up to date from the pod and node informers, plus assumed pods — pods the
// scheduler has placed but whose binding has not yet come back through the
// watch. It is also the NodeInfoLister plugins read (upstream snapshots it per
// cycle for concurrency; our cycle runs to completion in one event, so the
// cache itself is the snapshot).
import { registerClass } from '../../sim/serial';
import type { Node, Pod } from '../framework/api';
import type { NodeInfoLister } from '../framework/interface';
import { NodeInfo } from '../framework/nodeInfo';
import { NodeTree } from './nodeTree';

interface PodState {
  pod: Pod;
  nodeName: string;
  assumed: boolean;
  bindingFinished: boolean;
}

export class SchedulerCache implements NodeInfoLister {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly tree = new NodeTree();
  /** By pod uid. */
  private readonly podStates = new Map<string, PodState>();
  /** image name → nodes that have it. */
  private readonly imageNodes = new Map<string, Set<string>>();
  private listCache: NodeInfo[] | null = null;
  private affinityCache: NodeInfo[] | null = null;
  private antiAffinityCache: NodeInfo[] | null = null;
  private imagesDirty = false;

  // ---- NodeInfoLister -------------------------------------------------------------

  /** Nodes in nodeTree order (zones interleaved); NodeInfos of pods on unknown nodes are left out. */
  list(): readonly NodeInfo[] {
    if (!this.listCache) {
      this.listCache = [];
      for (const name of this.tree.list()) {
        const ni = this.nodes.get(name);
        if (ni && ni.node) this.listCache.push(ni);
      }
    }
    if (this.imagesDirty) this.refreshImageCounts();
    return this.listCache;
  }

  get(name: string): NodeInfo | undefined {
    const ni = this.nodes.get(name);
    if (ni && !ni.node) return undefined;
    if (this.imagesDirty) this.refreshImageCounts();
    return ni;
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    if (!this.affinityCache) this.affinityCache = this.list().filter((n) => n.podsWithAffinity.length > 0);
    return this.affinityCache;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    if (!this.antiAffinityCache) this.antiAffinityCache = this.list().filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
    return this.antiAffinityCache;
  }

  isPVCUsedByPods(key: string): boolean {
    for (const ni of this.nodes.values()) if (ni.pvcRefCounts.has(key)) return true;
    return false;
  }

  numNodes(): number {
    return this.list().length;
  }

  // ---- nodes ----------------------------------------------------------------------

  addNode(node: Node): void {
    const name = node.metadata.name!;
    let ni = this.nodes.get(name);
    if (!ni) {
      ni = new NodeInfo(name);
      this.nodes.set(name, ni);
    }
    this.tree.addNode(node);
    this.setImages(ni, node);
    ni.setNode(node);
    this.listCache = null;
    this.affinityCache = null;
    this.antiAffinityCache = null;
  }

  updateNode(old: Node, node: Node): void {
    const ni = this.nodes.get(node.metadata.name!);
    if (!ni) return this.addNode(node);
    const hadNode = ni.node !== null;
    const moved = this.tree.updateNode(old, node);
    this.setImages(ni, node);
    ni.setNode(node);
    // The list holds the NodeInfo objects: only a zone change or a returning node reorders it.
    if (moved || !hadNode) this.listCache = null;
  }

  removeNode(node: Node): void {
    const name = node.metadata.name!;
    const ni = this.nodes.get(name);
    if (!ni) return;
    this.tree.removeNode(name);
    for (const [img, set] of this.imageNodes) {
      if (set.delete(name)) {
        this.imagesDirty = true;
        if (set.size === 0) this.imageNodes.delete(img);
      }
    }
    // Pods still bound to a deleted node keep a NodeInfo without a node, as upstream.
    if (ni.pods.length === 0) this.nodes.delete(name);
    else ni.node = null;
    this.listCache = null;
    this.affinityCache = null;
    this.antiAffinityCache = null;
  }

  private setImages(ni: NodeInfo, node: Node): void {
    const names = new Set<string>();
    const sizes = new Map<string, number>();
    for (const img of node.status?.images ?? []) for (const n of img.names ?? []) {
      names.add(n);
      sizes.set(n, img.sizeBytes ?? 0);
    }
    const before = ni.imageStates;
    let changed = before.size !== names.size;
    if (!changed) for (const n of names) if (!before.has(n) || before.get(n)!.size !== sizes.get(n)) changed = true;
    if (!changed) return;
    for (const n of before.keys()) {
      if (names.has(n)) continue;
      const set = this.imageNodes.get(n);
      set?.delete(ni.name);
      if (set && set.size === 0) this.imageNodes.delete(n);
    }
    const next = new Map<string, { size: number; numNodes: number }>();
    for (const n of names) {
      let set = this.imageNodes.get(n);
      if (!set) this.imageNodes.set(n, (set = new Set()));
      set.add(ni.name);
      next.set(n, { size: sizes.get(n)!, numNodes: 0 });
    }
    ni.imageStates = next;
    this.imagesDirty = true;
  }

  /** ImageStateSummary.NumNodes for every node, after image sets changed. */
  private refreshImageCounts(): void {
    this.imagesDirty = false;
    for (const ni of this.nodes.values()) for (const [n, s] of ni.imageStates) s.numNodes = this.imageNodes.get(n)?.size ?? 0;
  }

  // ---- pods -----------------------------------------------------------------------

  private nodeInfoFor(nodeName: string): NodeInfo {
    let ni = this.nodes.get(nodeName);
    if (!ni) {
      ni = new NodeInfo(nodeName);
      this.nodes.set(nodeName, ni);
    }
    return ni;
  }

  private addPodToNode(pod: Pod, nodeName: string): void {
    const ni = this.nodeInfoFor(nodeName);
    const pi = ni.addPod(pod);
    if (pi.hasAffinity) this.affinityCache = null;
    if (pi.hasRequiredAntiAffinity) this.antiAffinityCache = null;
  }

  private removePodFromNode(pod: Pod, nodeName: string): void {
    const ni = this.nodes.get(nodeName);
    if (!ni) return;
    ni.removePod(pod);
    const a = pod.spec.affinity;
    if (a && (a.podAffinity || a.podAntiAffinity)) {
      this.affinityCache = null;
      this.antiAffinityCache = null;
    }
    if (!ni.node && ni.pods.length === 0) this.nodes.delete(nodeName);
  }

  /** AssumePod: the scheduler placed `pod` (its spec.nodeName set) before the binding is confirmed. */
  assumePod(pod: Pod): void {
    const uid = pod.metadata.uid!;
    if (this.podStates.has(uid)) return;
    const nodeName = pod.spec.nodeName!;
    this.addPodToNode(pod, nodeName);
    this.podStates.set(uid, { pod, nodeName, assumed: true, bindingFinished: false });
  }

  finishBinding(pod: Pod): void {
    const ps = this.podStates.get(pod.metadata.uid!);
    if (ps && ps.assumed) ps.bindingFinished = true;
  }

  /** ForgetPod: binding failed; the assumed pod is taken off its node. */
  forgetPod(pod: Pod): void {
    const ps = this.podStates.get(pod.metadata.uid!);
    if (!ps || !ps.assumed) return;
    this.removePodFromNode(ps.pod, ps.nodeName);
    this.podStates.delete(pod.metadata.uid!);
  }

  isAssumedPod(pod: Pod): boolean {
    return this.podStates.get(pod.metadata.uid!)?.assumed ?? false;
  }

  /** An assigned pod arrived from the informer (its binding confirmed, or another scheduler's pod). */
  addPod(pod: Pod): void {
    const uid = pod.metadata.uid!;
    const ps = this.podStates.get(uid);
    if (ps && ps.assumed) {
      if (ps.nodeName !== pod.spec.nodeName) {
        // Bound elsewhere than assumed: move it.
        this.removePodFromNode(ps.pod, ps.nodeName);
        this.addPodToNode(pod, pod.spec.nodeName!);
      } else {
        this.removePodFromNode(ps.pod, ps.nodeName);
        this.addPodToNode(pod, ps.nodeName);
      }
      this.podStates.set(uid, { pod, nodeName: pod.spec.nodeName!, assumed: false, bindingFinished: true });
      return;
    }
    if (ps) return this.updatePod(ps.pod, pod);
    this.addPodToNode(pod, pod.spec.nodeName!);
    this.podStates.set(uid, { pod, nodeName: pod.spec.nodeName!, assumed: false, bindingFinished: true });
  }

  updatePod(_old: Pod, pod: Pod): void {
    const uid = pod.metadata.uid!;
    const ps = this.podStates.get(uid);
    if (!ps) return this.addPod(pod);
    if (ps.assumed) return this.addPod(pod);
    this.removePodFromNode(ps.pod, ps.nodeName);
    this.addPodToNode(pod, pod.spec.nodeName!);
    this.podStates.set(uid, { pod, nodeName: pod.spec.nodeName!, assumed: false, bindingFinished: true });
  }

  removePod(pod: Pod): void {
    const uid = pod.metadata.uid!;
    const ps = this.podStates.get(uid);
    if (!ps) return;
    this.removePodFromNode(ps.pod, ps.nodeName);
    this.podStates.delete(uid);
  }

  /** Pods the cache holds (assigned and assumed), for the views. */
  podCount(): number {
    return this.podStates.size;
  }
}

registerClass('SchedulerCache', SchedulerCache);
