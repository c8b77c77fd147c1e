// What hovering a score cell says: the plugin's numbers, how the weighted
// score follows from them, and the plugin's formula (upstream v1.32's
// arithmetic). Where the decision holds the inputs (the raw scores NormalizeScore
// scaled), the formula is shown with those numbers substituted; a substituted
// line is shown only when it reproduces the recorded value.
import type { ProfileScoring, ResourceWeight } from './configInfo';
import type { DecisionJson } from '../../engine/host/protocol';
import type { NodeResourcesJson } from '../../engine/scheduler/records/types';
import { formatScore, type PluginScore } from './table';

export const MAX_NODE_SCORE = 100;

export interface Explanation {
  title: string;
  /** label, value */
  facts: [string, string][];
  /** Formula lines, plain text. */
  formula: string[];
  /** The same formula with this node's numbers, when they are known. */
  worked: string[];
  note?: string;
}

/** The raw scores of one Score plugin over every scored node of the cycle. */
export interface ColumnStats {
  max: number;
  min: number;
  count: number;
}

export function columnStats(raws: readonly number[]): ColumnStats {
  let max = -Infinity;
  let min = Infinity;
  for (const r of raws) {
    if (r > max) max = r;
    if (r < min) min = r;
  }
  return { max: raws.length ? max : 0, min: raws.length ? min : 0, count: raws.length };
}

const fmt = formatScore;

function weightsText(rs: readonly ResourceWeight[]): string {
  return rs.map((r) => `${r.name} ×${r.weight}`).join(', ');
}

/** helper.DefaultNormalizeScore, as the worked line recomputes it. */
function defaultNormalize(raw: number, max: number, reverse: boolean): number {
  if (max === 0) return reverse ? MAX_NODE_SCORE : 0;
  const s = Math.trunc((MAX_NODE_SCORE * raw) / max);
  return reverse ? MAX_NODE_SCORE - s : s;
}

/** The resource plugins' inputs for one node (from the decision record). */
export interface ResourceInputs {
  node: NodeResourcesJson;
  pod: NonNullable<DecisionJson['podRequests']>;
}

const cpuText = (m: number) => `${fmtInt(m)}m`;
const memText = (b: number) => (b % (1024 * 1024) === 0 ? `${fmtInt(b / (1024 * 1024))}Mi` : `${fmtInt(b)}`);
function fmtInt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** Go's int64 division. */
const idiv = (a: number, b: number) => Math.trunc(a / b);

/** LeastAllocated / MostAllocated with this node's numbers, when the profile scores cpu and memory. */
function workedFit(strategy: string, res: readonly ResourceWeight[], inp: ResourceInputs): { lines: string[]; score: number } | null {
  if (strategy !== 'LeastAllocated' && strategy !== 'MostAllocated') return null;
  const lines: string[] = [];
  let sum = 0;
  let weights = 0;
  for (const r of res) {
    if (r.name !== 'cpu' && r.name !== 'memory') return null;
    const side = r.name === 'cpu' ? inp.node.cpu : inp.node.memory;
    const pod = r.name === 'cpu' ? inp.pod.cpu.nonZero : inp.pod.memory.nonZero;
    const show = r.name === 'cpu' ? cpuText : memText;
    const requested = side.nonZeroRequested + pod;
    const cap = side.allocatable;
    let score: number;
    if (cap === 0) score = 0;
    else if (strategy === 'LeastAllocated') score = requested > cap ? 0 : idiv((cap - requested) * 100, cap);
    else score = requested > cap ? 100 : idiv(requested * 100, cap);
    lines.push(
      strategy === 'LeastAllocated'
        ? `${r.name}: requested ${show(side.nonZeroRequested)} + this pod ${show(pod)} = ${show(requested)} of ${show(cap)} → (${show(cap)} − ${show(requested)}) × 100 / ${show(cap)} = ${score}`
        : `${r.name}: requested ${show(side.nonZeroRequested)} + this pod ${show(pod)} = ${show(requested)} of ${show(cap)} → ${show(requested)} × 100 / ${show(cap)} = ${score}`,
    );
    sum += score * r.weight;
    weights += r.weight;
  }
  if (weights === 0) return null;
  const total = idiv(sum, weights);
  lines.push(`(${res.map((r) => `${r.name} × ${r.weight}`).join(' + ')}) / ${weights} = ${total}`);
  return { lines, score: total };
}

/** BalancedAllocation with this node's numbers (plain requests, fractions capped at 1). */
function workedBalanced(res: readonly ResourceWeight[], inp: ResourceInputs): { lines: string[]; score: number } | null {
  if (res.length !== 2 || !res.every((r) => r.name === 'cpu' || r.name === 'memory')) return null;
  const lines: string[] = [];
  const fr: number[] = [];
  for (const r of res) {
    const side = r.name === 'cpu' ? inp.node.cpu : inp.node.memory;
    const pod = r.name === 'cpu' ? inp.pod.cpu.requested : inp.pod.memory.requested;
    const show = r.name === 'cpu' ? cpuText : memText;
    const f = side.allocatable === 0 ? 0 : Math.min(1, (side.requested + pod) / side.allocatable);
    fr.push(f);
    lines.push(`${r.name}: (${show(side.requested)} + ${show(pod)}) / ${show(side.allocatable)} = ${f.toFixed(4)}`);
  }
  const std = Math.abs(fr[0]! - fr[1]!) / 2;
  const score = Math.trunc((1 - std) * 100);
  lines.push(`std = |${fr[0]!.toFixed(4)} − ${fr[1]!.toFixed(4)}| / 2 = ${std.toFixed(4)} → (1 − std) × 100 = ${score}`);
  return { lines, score };
}

export function explainScore(plugin: string, s: PluginScore, col: ColumnStats, scoring: ProfileScoring, inputs?: ResourceInputs): Explanation {
  const facts: [string, string][] = [
    ['raw', fmt(s.raw)],
    ['normalized', fmt(s.normalized)],
    ['weight', fmt(s.weight)],
    ['weighted', `${fmt(s.normalized)} × ${fmt(s.weight)} = ${fmt(s.weighted)}`],
  ];
  const formula: string[] = [];
  const worked: string[] = [];
  let note: string | undefined;
  const check = (expected: number, line: string) => {
    if (expected === s.normalized) worked.push(line);
  };
  switch (plugin) {
    case 'NodeResourcesFit': {
      const res = scoring.fitResources;
      const rw = `per resource r (${weightsText(res)})`;
      if (scoring.fitStrategy === 'LeastAllocated') {
        formula.push('LeastAllocated: score = Σ w_r × ((allocatable_r − requested_r) × 100 / allocatable_r) / Σ w_r', rw);
      } else if (scoring.fitStrategy === 'MostAllocated') {
        formula.push('MostAllocated: score = Σ w_r × (requested_r × 100 / allocatable_r) / Σ w_r', rw);
      } else {
        formula.push('RequestedToCapacityRatio: score = Σ w_r × shape(requested_r × 100 / allocatable_r) / Σ w_r', rw);
        if (scoring.shape.length) formula.push(`shape (utilization → score ×10): ${scoring.shape.map((p) => `${p.utilization}%→${p.score}`).join(', ')}`);
      }
      formula.push('requested_r = what the node’s pods request + this pod, counting 100m CPU / 200Mi memory for containers that request none');
      formula.push('No NormalizeScore: normalized = raw. Integer division truncates, as in Go.');
      const w = inputs ? workedFit(scoring.fitStrategy, res, inputs) : null;
      if (w && w.score === s.raw) worked.push(...w.lines);
      else note = 'This node’s requested and allocatable amounts are not in the decision.';
      break;
    }
    case 'NodeResourcesBalancedAllocation':
      formula.push(`fraction_r = requested_r / allocatable_r (capped at 1) for ${weightsText(scoring.balancedResources)}`);
      formula.push('score = (1 − std(fractions)) × 100; with two resources std = |f₁ − f₂| / 2');
      formula.push('requested counts plain requests (no 100m / 200Mi defaults). No NormalizeScore: normalized = raw.');
      {
        const w = inputs ? workedBalanced(scoring.balancedResources, inputs) : null;
        if (w && w.score === s.raw) worked.push(...w.lines);
        else note = 'This node’s fractions are not in the decision.';
      }
      break;
    case 'TaintToleration':
      formula.push('raw = PreferNoSchedule taints on the node the pod does not tolerate');
      formula.push('normalized = 100 − raw × 100 / max(raw)   (fewest intolerable taints → 100)');
      if (col.max === 0) check(MAX_NODE_SCORE, 'max(raw) = 0 → every node gets 100');
      else check(defaultNormalize(s.raw, col.max, true), `= 100 − ${fmt(s.raw)} × 100 / ${fmt(col.max)} = ${fmt(s.normalized)}`);
      break;
    case 'NodeAffinity':
      formula.push('raw = Σ weights of the pod’s preferredDuringScheduling terms the node matches');
      formula.push('normalized = raw × 100 / max(raw)');
      if (col.max === 0) check(0, 'max(raw) = 0 → every node gets 0');
      else check(defaultNormalize(s.raw, col.max, false), `= ${fmt(s.raw)} × 100 / ${fmt(col.max)} = ${fmt(s.normalized)}`);
      break;
    case 'InterPodAffinity': {
      formula.push('raw = Σ weights of preferred pod (anti-)affinity terms satisfied on the node (anti-affinity counts negative), this pod’s and existing pods’');
      formula.push('normalized = 100 × (raw − min) / (max − min); 0 when max = min');
      const diff = col.max - col.min;
      if (diff > 0) check(Math.trunc(MAX_NODE_SCORE * ((s.raw - col.min) / diff)), `= 100 × (${fmt(s.raw)} − ${fmt(col.min)}) / (${fmt(col.max)} − ${fmt(col.min)}) = ${fmt(s.normalized)}`);
      break;
    }
    case 'PodTopologySpread':
      formula.push('raw = Σ over the pod’s spread constraints of the matching pods in the node’s domain, weighted by log(domains + 2) and maxSkew');
      formula.push('normalized = 100 × (max + min − raw) / max   (fewer matching pods → higher); 100 when max = 0');
      if (col.max === 0) check(MAX_NODE_SCORE, 'max(raw) = 0 → every node gets 100');
      else check(Math.trunc((MAX_NODE_SCORE * (col.max + col.min - s.raw)) / col.max), `= 100 × (${fmt(col.max)} + ${fmt(col.min)} − ${fmt(s.raw)}) / ${fmt(col.max)} = ${fmt(s.normalized)}`);
      note = 'Nodes without the constraints’ topology keys score 0 and are left out of min and max.';
      break;
    case 'ImageLocality':
      formula.push('sum = Σ over the pod’s images already on the node of size × (nodes with the image / all nodes)');
      formula.push('score = 100 × (clamp(sum, 23 MB, 1000 MB × containers) − 23 MB) / (1000 MB × containers − 23 MB)');
      formula.push('No NormalizeScore: normalized = raw.');
      break;
    case 'VolumeBinding':
      formula.push('With StorageCapacityScoring: the shape of the bound volumes’ utilization; otherwise 0.');
      break;
    default:
      formula.push(`${plugin}: weighted = normalized × weight`);
  }
  return { title: `${plugin}`, facts, formula, worked, ...(note ? { note } : {}) };
}

/** The total's explanation: the sum of every plugin's weighted score. */
export function explainTotal(scores: Record<string, PluginScore>, total: number): Explanation {
  const parts = Object.entries(scores).map(([p, v]) => [p, `${fmt(v.normalized)} × ${fmt(v.weight)} = ${fmt(v.weighted)}`] as [string, string]);
  const sum = Object.values(scores).reduce((a, v) => a + v.weighted, 0);
  return {
    title: 'Total',
    facts: parts,
    formula: ['total = Σ plugins normalized × weight'],
    worked: sum === total ? [`= ${Object.values(scores).map((v) => fmt(v.weighted)).join(' + ')} = ${fmt(total)}`] : [],
  };
}
