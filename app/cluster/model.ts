// What the cluster map shows, derived from the engine's ClusterView: each pod's
// display state (colour AND a shape/text carry it), each node's readiness, pods
// grouped by node, and the counts the canvas's accessible label summarises.
import type { ClusterView } from '../../engine/host/protocol';

export type ClusterNode = ClusterView['nodes'][number];
export type ClusterPod = ClusterView['pods'][number];
export type ClusterComponent = ClusterView['components'][number];

/** How a pod is drawn. Order matters: the legend follows it. */
export type PodState = 'ready' | 'notReady' | 'pending' | 'failed' | 'terminating' | 'succeeded';

export const POD_STATES: readonly PodState[] = ['ready', 'notReady', 'pending', 'failed', 'terminating', 'succeeded'];

export const POD_STATE_LABEL: Record<PodState, string> = {
  ready: 'Running, Ready',
  notReady: 'Running, not Ready',
  pending: 'Pending / ContainerCreating',
  failed: 'Failed / CrashLoopBackOff',
  terminating: 'Terminating',
  succeeded: 'Succeeded',
};

/** Waiting or terminated reasons that mean the pod is in trouble even while its phase says Running or Pending. */
const FAILING_REASONS = new Set(['CrashLoopBackOff', 'Error', 'OOMKilled', 'ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'CreateContainerError', 'CreateContainerConfigError', 'RunContainerError', 'StartError', 'ContainerCannotRun']);

export function podState(p: ClusterPod): PodState {
  if (p.terminating) return 'terminating';
  if (p.phase === 'Failed' || FAILING_REASONS.has(p.reason)) return 'failed';
  if (p.phase === 'Succeeded') return 'succeeded';
  if (p.phase === 'Running') return p.ready ? 'ready' : 'notReady';
  return 'pending';
}

export type NodeState = 'ready' | 'notReady' | 'unknown';

export function nodeState(n: ClusterNode): NodeState {
  if (n.ready === 'True') return 'ready';
  if (n.ready === 'False') return 'notReady';
  return 'unknown';
}

export const NODE_STATE_LABEL: Record<NodeState, string> = { ready: 'Ready', notReady: 'NotReady', unknown: 'Unknown' };
/** The text marker drawn beside a node's name, so readiness is not told by colour alone. */
export const NODE_STATE_ICON: Record<NodeState, string> = { ready: '✓', notReady: '✗', unknown: '?' };

export interface ClusterModel {
  nodes: ClusterNode[];
  /** Pods per node name, in the view's order. */
  podsByNode: Map<string, ClusterPod[]>;
  /** Pods with no node (not yet scheduled), or on a node the view does not list. */
  unscheduled: ClusterPod[];
  components: ClusterComponent[];
  counts: { nodes: Record<NodeState, number>; pods: Record<PodState, number>; podsTotal: number; unscheduled: number };
  /** The most pods on any one node (sizes the tiles). */
  maxPodsPerNode: number;
}

const byName = new Intl.Collator('en', { numeric: true });

export function buildModel(view: ClusterView | null): ClusterModel {
  // node-2 before node-10, as people count.
  const nodes = [...(view?.nodes ?? [])].sort((a, b) => byName.compare(a.name, b.name));
  const podsByNode = new Map<string, ClusterPod[]>();
  const nodeCounts: Record<NodeState, number> = { ready: 0, notReady: 0, unknown: 0 };
  for (const n of nodes) {
    podsByNode.set(n.name, []);
    nodeCounts[nodeState(n)]++;
  }
  const unscheduled: ClusterPod[] = [];
  const podCounts: Record<PodState, number> = { ready: 0, notReady: 0, pending: 0, failed: 0, terminating: 0, succeeded: 0 };
  for (const p of view?.pods ?? []) {
    podCounts[podState(p)]++;
    const list = p.node ? podsByNode.get(p.node) : undefined;
    if (list) list.push(p);
    else unscheduled.push(p);
  }
  let maxPodsPerNode = 0;
  for (const l of podsByNode.values()) maxPodsPerNode = Math.max(maxPodsPerNode, l.length);
  return {
    nodes,
    podsByNode,
    unscheduled,
    components: view?.components ?? [],
    counts: { nodes: nodeCounts, pods: podCounts, podsTotal: view?.pods.length ?? 0, unscheduled: unscheduled.length },
    maxPodsPerNode,
  };
}

/** The canvas's accessible name: what a sighted user takes in at a glance. */
export function summary(m: ClusterModel): string {
  const n = m.counts.nodes;
  const p = m.counts.pods;
  const up = m.components.filter((c) => c.up).length;
  const parts = [
    `${m.nodes.length} node${m.nodes.length === 1 ? '' : 's'} (${n.ready} Ready, ${n.notReady} NotReady, ${n.unknown} Unknown)`,
    `${m.counts.podsTotal} pod${m.counts.podsTotal === 1 ? '' : 's'} (${p.ready} running and ready, ${p.notReady} running not ready, ${p.pending} pending, ${p.failed} failed, ${p.terminating} terminating, ${p.succeeded} succeeded; ${m.counts.unscheduled} unscheduled)`,
    `${up} of ${m.components.length} control-plane components up`,
  ];
  return `Cluster map: ${parts.join('; ')}`;
}

/** "1500m" style cpu and binary-suffixed memory, as kubectl describe prints requests. */
export function formatCpu(milli: number): string {
  if (milli === 0) return '0';
  return milli % 1000 === 0 ? String(milli / 1000) : `${Math.round(milli)}m`;
}

export function formatMemory(bytes: number): string {
  const units = ['', 'Ki', 'Mi', 'Gi', 'Ti'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1 && v % 1024 === 0) {
    v /= 1024;
    i++;
  }
  if (v >= 1024 && i < units.length - 1) {
    // Not an exact multiple: round to one decimal of the next unit up.
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return `${v.toFixed(1)}${units[i]}`;
  }
  return `${v}${units[i]}`;
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

export function podKey(p: ClusterPod): string {
  return `${p.namespace}/${p.name}`;
}

/** One line for a pod (hover text and the accessible list). */
export function describePod(p: ClusterPod): string {
  const s = podState(p);
  const bits = [p.phase + (p.phase === 'Running' ? (p.ready ? ', Ready' : ', not Ready') : '')];
  if (p.reason) bits.push(p.reason);
  if (p.terminating) bits.push('Terminating');
  if (s === 'failed' && !bits.includes(p.reason) && p.phase !== 'Failed') bits.push('failing');
  return bits.join(' · ');
}
