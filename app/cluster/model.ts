// Words for what the cluster map shows: state labels and markers (so colour
// is never the only carrier), the summary the canvas's accessible name reads,
// node and pod facts for the tooltip, and kubectl-style quantities.
import { NODE_STATES, POD_STATES, type MapData, type NodeInfo, type NodeState, type PodInfo, type PodState } from './mapData';

export { POD_STATES, NODE_STATES, type PodState, type NodeState };

export const POD_STATE_LABEL: Record<PodState, string> = {
  ready: 'Running, Ready',
  notReady: 'Running, not Ready',
  pending: 'Pending / ContainerCreating',
  failed: 'Failed / CrashLoopBackOff',
  terminating: 'Terminating',
  succeeded: 'Succeeded',
};

export const NODE_STATE_LABEL: Record<NodeState, string> = { ready: 'Ready', notReady: 'NotReady', unknown: 'Unknown' };
/** The text marker drawn beside a node's name, so readiness is not told by colour alone. */
export const NODE_STATE_ICON: Record<NodeState, string> = { ready: '✓', notReady: '✗', unknown: '?' };

export interface MapCounts {
  nodes: Record<NodeState, number>;
  pods: Record<PodState, number>;
  podsTotal: number;
  unscheduled: number;
  nodesTotal: number;
}

export function counts(d: MapData): MapCounts {
  const nodes = Object.fromEntries(NODE_STATES.map((s, i) => [s, d.nodeCounts[i]!])) as Record<NodeState, number>;
  const pods = Object.fromEntries(POD_STATES.map((s, i) => [s, d.podCounts[i]!])) as Record<PodState, number>;
  return { nodes, pods, podsTotal: d.podTotal, unscheduled: d.unscheduled.length, nodesTotal: d.nodeTotal };
}

/** The canvas's accessible name: what a sighted user takes in at a glance. */
export function summary(d: MapData): string {
  const c = counts(d);
  const n = c.nodes;
  const p = c.pods;
  const up = d.components.filter((x) => x.up).length;
  const parts = [
    `${c.nodesTotal} node${c.nodesTotal === 1 ? '' : 's'} (${n.ready} Ready, ${n.notReady} NotReady, ${n.unknown} Unknown)`,
    `${c.podsTotal} pod${c.podsTotal === 1 ? '' : 's'} (${p.ready} running and ready, ${p.notReady} running not ready, ${p.pending} pending, ${p.failed} failed, ${p.terminating} terminating, ${p.succeeded} succeeded; ${c.unscheduled} unscheduled)`,
    `${up} of ${d.components.length} control-plane components up`,
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

/** One line for a pod (hover text and the accessible list). */
export function describePod(p: PodInfo): string {
  const bits = [p.phase + (p.phase === 'Running' ? (p.ready ? ', Ready' : ', not Ready') : '')];
  if (p.reason) bits.push(p.reason);
  if (p.terminating) bits.push('Terminating');
  if (p.state === 'failed' && !bits.includes(p.reason) && p.phase !== 'Failed') bits.push('failing');
  return bits.join(' · ');
}

/** Tooltip facts for a node. */
export function nodeFacts(n: NodeInfo): [string, string][] {
  const facts: [string, string][] = [
    ['Status', `${NODE_STATE_ICON[n.state]} ${NODE_STATE_LABEL[n.state]}${n.ready === '' ? ' (no Ready condition yet)' : ''}`],
    ['CPU requested', `${formatCpu(n.requested.cpu)} of ${formatCpu(n.allocatable.cpu)} (${percent(n.requested.cpu, n.allocatable.cpu)}%)`],
    ['Memory requested', `${formatMemory(n.requested.memory)} of ${formatMemory(n.allocatable.memory)} (${percent(n.requested.memory, n.allocatable.memory)}%)`],
    ['Pods', `${n.pods} of ${n.allocatable.pods}`],
  ];
  if (n.unschedulable) facts.push(['Scheduling', '⊘ unschedulable (cordoned)']);
  facts.push(['Taints', n.taints.length ? `⚑ ${n.taints.join(', ')}` : 'none']);
  const labels = Object.entries(n.labels);
  facts.push(['Labels', labels.length ? labels.map(([k, v]) => `${k}=${v}`).join('\n') : 'none']);
  return facts;
}

export function podFacts(p: PodInfo): [string, string][] {
  return [
    ['Node', p.node || 'none (unscheduled)'],
    ['Phase', p.phase + (p.phase === 'Running' ? (p.ready ? ', Ready' : ', not Ready') : '')],
    ['Reason', p.reason || '—'],
    ...(p.terminating ? ([['Deleting', 'Terminating']] as [string, string][]) : []),
    ['Owner', p.owner || '—'],
  ];
}
