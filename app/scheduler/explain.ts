// What hovering a score cell says: the plugin's numbers, how the weighted
// score follows from them, and the plugin's formula (upstream v1.32's
// arithmetic) worked through with the inputs the decision recorded for that
// node (requests and allocatable, taints, matched terms, images, topology
// domains) and the cycle's raw scores that NormalizeScore scaled. Every
// worked line is recomputed here and shown only when it reproduces the
// recorded value, so the tooltip never shows arithmetic that did not happen.
import type { ProfileScoring, ResourceWeight } from './configInfo';
import type { ResourceInput, ScoreInputs } from '../../engine/scheduler/records/types';
import { formatScore, type PluginScore, type TableModel } from './table';

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

/** The raw scores of one Score plugin over the scored nodes that take part in its normalisation. */
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

/** Go's int64 division. */
const idiv = (a: number, b: number) => Math.trunc(a / b);

const MI = 1024 * 1024;
const GI = 1024 * MI;

/** A quantity as its resource is usually written: cpu in millicores, bytes in Gi/Mi when exact. */
export function quantityText(resource: string, v: number): string {
  if (resource === 'cpu') return `${v}m`;
  if (resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-')) {
    if (v !== 0 && v % GI === 0) return `${v / GI}Gi`;
    if (v % MI === 0) return `${v / MI}Mi`;
  }
  return String(v);
}

function bytesText(v: number): string {
  if (v % MI === 0) return `${v / MI} MiB`;
  return `${(v / MI).toFixed(2)} MiB`;
}

/** helper.DefaultNormalizeScore, as the worked line recomputes it. */
function defaultNormalize(raw: number, max: number, reverse: boolean): number {
  if (max === 0) return reverse ? MAX_NODE_SCORE : 0;
  const s = Math.trunc((MAX_NODE_SCORE * raw) / max);
  return reverse ? MAX_NODE_SCORE - s : s;
}

/** A worked derivation of a raw score: its lines and the score they arrive at. */
interface Worked {
  lines: string[];
  score: number;
}

/** LeastAllocated, MostAllocated and RequestedToCapacityRatio from the recorded per-resource numbers. */
function workedFit(scorer: string, res: readonly ResourceInput[]): Worked | null {
  const lines: string[] = [];
  let sum = 0;
  let weights = 0;
  for (const r of res) {
    const q = (v: number) => quantityText(r.name, v);
    const requested = r.nodeRequested + r.podRequest;
    const cap = r.allocatable;
    const head = `${r.name}: node ${q(r.nodeRequested)} + this pod ${q(r.podRequest)} = ${q(requested)} of ${q(cap)}`;
    let score: number;
    if (scorer === 'LeastAllocated') {
      score = requested > cap ? 0 : idiv((cap - requested) * MAX_NODE_SCORE, cap);
      lines.push(requested > cap ? `${head} → more than allocatable: 0` : `${head} → (${q(cap)} − ${q(requested)}) × 100 / ${q(cap)} = ${score}`);
    } else if (scorer === 'MostAllocated') {
      score = idiv(Math.min(requested, cap) * MAX_NODE_SCORE, cap);
      lines.push(`${head} → ${q(Math.min(requested, cap))} × 100 / ${q(cap)} = ${score}`);
    } else {
      // The shape's value at this utilization was recorded; the utilization is recomputed.
      if (r.score === undefined) return null;
      const utilization = requested > cap ? 100 : idiv(requested * 100, cap);
      score = r.score;
      lines.push(`${head} → utilization ${utilization}% → shape ${score}`);
      // Resources the shape scores 0 carry no weight in RequestedToCapacityRatio.
      if (score === 0) continue;
    }
    if (r.score !== undefined && r.score !== score) return null;
    sum += score * r.weight;
    weights += r.weight;
  }
  if (weights === 0) return { lines: [...lines, 'no resource counted → 0'], score: 0 };
  const terms = res.filter((r) => scorer !== 'RequestedToCapacityRatio' || (r.score ?? 0) > 0).map((r) => `${r.score ?? '?'} × ${r.weight}`);
  if (scorer === 'RequestedToCapacityRatio') {
    const total = Math.round(sum / weights);
    lines.push(`round((${terms.join(' + ')}) / ${weights}) = ${total}`);
    return { lines, score: total };
  }
  const total = idiv(sum, weights);
  lines.push(`(${terms.join(' + ')}) / ${weights} = ${total}`);
  return { lines, score: total };
}

/** BalancedAllocation: fractions of plain requests over allocatable (capped at 1), then their standard deviation. */
function workedBalanced(res: readonly ResourceInput[]): Worked {
  const lines: string[] = [];
  const fr: number[] = [];
  for (const r of res) {
    const q = (v: number) => quantityText(r.name, v);
    const raw = (r.nodeRequested + r.podRequest) / r.allocatable;
    const f = raw > 1 ? 1 : raw;
    fr.push(f);
    lines.push(`${r.name}: (${q(r.nodeRequested)} + ${q(r.podRequest)}) / ${q(r.allocatable)} = ${f.toFixed(4)}${raw > 1 ? ' (capped)' : ''}`);
  }
  let std = 0;
  let how = '';
  if (fr.length === 2) {
    std = Math.abs((fr[0]! - fr[1]!) / 2);
    how = `std = |${fr[0]!.toFixed(4)} − ${fr[1]!.toFixed(4)}| / 2 = ${std.toFixed(4)}`;
  } else if (fr.length > 2) {
    const mean = fr.reduce((a, b) => a + b, 0) / fr.length;
    let sq = 0;
    for (const f of fr) sq = sq + (f - mean) * (f - mean);
    std = Math.sqrt(sq / fr.length);
    how = `std of ${fr.length} fractions (mean ${mean.toFixed(4)}) = ${std.toFixed(4)}`;
  } else {
    how = fr.length === 1 ? 'one resource: std = 0' : 'no resource counted: std = 0';
  }
  const score = Math.trunc((1 - std) * MAX_NODE_SCORE);
  lines.push(`${how} → (1 − std) × 100 = ${score}`);
  return { lines, score };
}

/** ImageLocality: each present image's size × spread, summed, clamped and scaled. */
function workedImages(x: Extract<ScoreInputs, { kind: 'imageLocality' }>): Worked {
  const lines: string[] = [];
  let sum = 0;
  for (const img of x.images) {
    const scaled = Math.trunc(img.size * (img.nodes / x.totalNodes));
    sum += scaled;
    lines.push(`${img.name}: ${bytesText(img.size)} × ${img.nodes}/${x.totalNodes} nodes = ${bytesText(scaled)}`);
  }
  const min = 23 * MI;
  const max = 1000 * MI * x.containers;
  const clamped = sum < min ? min : sum > max ? max : sum;
  const score = clamped === min ? 0 : Math.trunc((MAX_NODE_SCORE * (clamped - min)) / (max - min));
  lines.push(`sum ${bytesText(sum)}${clamped !== sum ? ` → clamped to ${bytesText(clamped)}` : ''} → 100 × (${bytesText(clamped)} − 23 MiB) / (${x.containers} × 1000 MiB − 23 MiB) = ${score}`);
  return { lines, score };
}

/** PodTopologySpread: Σ per constraint of matching × log(domains + 2) + (maxSkew − 1), rounded. */
function workedSpread(x: Extract<ScoreInputs, { kind: 'topologySpread' }>): Worked {
  const lines: string[] = [];
  let total = 0;
  for (const c of x.constraints) {
    const v = c.matching * c.weight + (c.maxSkew - 1);
    total += v;
    lines.push(`${c.topologyKey}=${c.value}: ${c.matching} matching × ${c.weight.toFixed(3)} + (maxSkew ${c.maxSkew} − 1) = ${v.toFixed(3)}`);
  }
  const score = Math.round(total);
  lines.push(`round(${total.toFixed(3)}) = ${score}`);
  return { lines, score };
}

export function explainScore(plugin: string, s: PluginScore, col: ColumnStats, scoring: ProfileScoring, inputs?: ScoreInputs, inputsDropped = false): Explanation {
  const facts: [string, string][] = [
    ['raw', fmt(s.raw)],
    ['normalized', fmt(s.normalized)],
    ['weight', fmt(s.weight)],
    ['weighted', `${fmt(s.normalized)} × ${fmt(s.weight)} = ${fmt(s.weighted)}`],
  ];
  const formula: string[] = [];
  const worked: string[] = [];
  let note: string | undefined;
  /** The raw score's derivation, shown when it reproduces the recorded raw score. */
  const rawLines = (w: Worked | null) => {
    if (w && w.score === s.raw) worked.push(...w.lines);
    else note = inputsDropped ? 'The inputs of older cycles are not kept.' : 'This node’s inputs are not in the decision.';
  };
  /** The normalisation step, shown when it reproduces the recorded normalized score. */
  const check = (expected: number, line: string) => {
    if (expected === s.normalized) worked.push(line);
  };
  switch (plugin) {
    case 'NodeResourcesFit': {
      const strategy = inputs?.kind === 'resources' ? inputs.scorer : scoring.fitStrategy;
      const rw = `per resource r (${weightsText(scoring.fitResources)})`;
      if (strategy === 'LeastAllocated') formula.push('LeastAllocated: score = Σ w_r × ((allocatable_r − requested_r) × 100 / allocatable_r) / Σ w_r', rw);
      else if (strategy === 'MostAllocated') formula.push('MostAllocated: score = Σ w_r × (requested_r × 100 / allocatable_r) / Σ w_r', rw);
      else {
        formula.push('RequestedToCapacityRatio: score = round(Σ w_r × shape(requested_r × 100 / allocatable_r) / Σ w_r), over resources the shape scores above 0', rw);
        if (scoring.shape.length) formula.push(`shape (utilization → score ×10): ${scoring.shape.map((p) => `${p.utilization}%→${p.score}`).join(', ')}`);
      }
      formula.push('requested_r = what the node’s pods request + this pod, counting 100m CPU / 200Mi memory for containers that request none');
      formula.push('No NormalizeScore: normalized = raw. Integer division truncates, as in Go.');
      rawLines(inputs?.kind === 'resources' ? workedFit(inputs.scorer, inputs.resources) : null);
      break;
    }
    case 'NodeResourcesBalancedAllocation':
      formula.push(`fraction_r = requested_r / allocatable_r (capped at 1) for ${weightsText(scoring.balancedResources)}`);
      formula.push('score = (1 − std(fractions)) × 100; with two resources std = |f₁ − f₂| / 2');
      formula.push('requested counts plain requests (no 100m / 200Mi defaults). No NormalizeScore: normalized = raw.');
      rawLines(inputs?.kind === 'resources' ? workedBalanced(inputs.resources) : null);
      break;
    case 'TaintToleration':
      formula.push('raw = PreferNoSchedule taints on the node the pod does not tolerate');
      formula.push('normalized = 100 − raw × 100 / max(raw)   (fewest intolerable taints → 100)');
      if (inputs?.kind === 'taints') rawLines({ lines: [`untolerated: ${inputs.intolerable.join(', ')} → raw ${inputs.intolerable.length}`], score: inputs.intolerable.length });
      else if (s.raw === 0) worked.push('no PreferNoSchedule taint left untolerated → raw 0');
      else rawLines(null);
      if (col.max === 0) check(MAX_NODE_SCORE, 'max(raw) = 0 → every node gets 100');
      else check(defaultNormalize(s.raw, col.max, true), `normalized = 100 − ${fmt(s.raw)} × 100 / ${fmt(col.max)} = ${fmt(s.normalized)}`);
      break;
    case 'NodeAffinity':
      formula.push('raw = Σ weights of the preferredDuringScheduling terms the node matches (the pod’s and the profile’s addedAffinity)');
      formula.push('normalized = raw × 100 / max(raw)');
      if (inputs?.kind === 'nodeAffinity') {
        const sum = inputs.matched.reduce((a, m) => a + m.weight, 0);
        rawLines({ lines: [...inputs.matched.map((m) => `matched${m.added ? ' (addedAffinity)' : ''}: weight ${m.weight} · ${m.term}`), inputs.matched.length > 1 ? `raw = ${inputs.matched.map((m) => m.weight).join(' + ')} = ${sum}` : `raw = ${sum}`], score: sum });
      } else if (s.raw === 0) worked.push('no preferred term matches the node → raw 0');
      else rawLines(null);
      if (col.max === 0) check(0, 'max(raw) = 0 → every node gets 0');
      else check(defaultNormalize(s.raw, col.max, false), `normalized = ${fmt(s.raw)} × 100 / ${fmt(col.max)} = ${fmt(s.normalized)}`);
      break;
    case 'InterPodAffinity': {
      formula.push('raw = Σ over the node’s topology domains of the weights of preferred (anti-)affinity terms satisfied there (anti-affinity negative), this pod’s and existing pods’; required affinity of existing pods counts hardPodAffinityWeight');
      formula.push('normalized = 100 × (raw − min) / (max − min); 0 when max = min');
      if (inputs?.kind === 'interPodAffinity') {
        const sum = inputs.domains.reduce((a, d) => a + d.score, 0);
        rawLines({ lines: [...inputs.domains.map((d) => `${d.topologyKey}=${d.value}: ${d.score >= 0 ? '+' : ''}${d.score}`), `raw = ${sum}`], score: sum });
      } else if (s.raw === 0) worked.push('no (anti-)affinity weight on the node’s domains → raw 0');
      else rawLines(null);
      const diff = col.max - col.min;
      if (diff > 0) check(Math.trunc(MAX_NODE_SCORE * ((s.raw - col.min) / diff)), `normalized = 100 × (${fmt(s.raw)} − ${fmt(col.min)}) / (${fmt(col.max)} − ${fmt(col.min)}) = ${fmt(s.normalized)}`);
      else check(0, 'max = min → every node gets 0');
      break;
    }
    case 'PodTopologySpread':
      formula.push('raw = round(Σ over the pod’s spread constraints of matching pods in the node’s domain × log(domains + 2) + (maxSkew − 1))');
      formula.push('normalized = 100 × (max + min − raw) / max   (fewer matching pods → higher); 100 when max = 0');
      if (inputs?.kind === 'topologySpread' && inputs.ignored) {
        worked.push('the node lacks a constraint’s topology key: raw 0, left out of min and max, normalized 0');
        break;
      }
      rawLines(inputs?.kind === 'topologySpread' ? workedSpread(inputs) : null);
      if (col.max === 0) check(MAX_NODE_SCORE, 'max(raw) = 0 → every node gets 100');
      else check(Math.trunc((MAX_NODE_SCORE * (col.max + col.min - s.raw)) / col.max), `normalized = 100 × (${fmt(col.max)} + ${fmt(col.min)} − ${fmt(s.raw)}) / ${fmt(col.max)} = ${fmt(s.normalized)}`);
      break;
    case 'ImageLocality':
      formula.push('sum = Σ over the pod’s images already on the node of size × (nodes with the image / all nodes)');
      formula.push('score = 100 × (clamp(sum, 23 MiB, 1000 MiB × containers) − 23 MiB) / (1000 MiB × containers − 23 MiB)');
      formula.push('No NormalizeScore: normalized = raw.');
      if (inputs?.kind === 'imageLocality') rawLines(workedImages(inputs));
      else if (s.raw === 0) worked.push('none of the pod’s images is on the node: sum 0 < 23 MiB → 0');
      else rawLines(null);
      break;
    case 'VolumeBinding':
      formula.push('With StorageCapacityScoring: the shape of the bound volumes’ utilization; otherwise 0.');
      break;
    default:
      formula.push(`${plugin}: weighted = normalized × weight`);
  }
  return { title: `${plugin}`, facts, formula, worked, ...(note ? { note } : {}) };
}

/** Whether a node's raw score takes part in the plugin's normalisation (PodTopologySpread leaves out ignored nodes). */
export function inNormalization(plugin: string, inputs: ScoreInputs | undefined): boolean {
  return !(plugin === 'PodTopologySpread' && inputs?.kind === 'topologySpread' && inputs.ignored);
}

/** Per Score plugin, the raw scores' min and max over the nodes its NormalizeScore saw. */
export function scoreColumnStats(model: TableModel): Map<string, ColumnStats> {
  const m = new Map<string, ColumnStats>();
  for (const p of model.scorePlugins) {
    const raws: number[] = [];
    for (const r of model.rows) {
      const s = r.scores?.[p];
      if (s && inNormalization(p, r.inputs[p])) raws.push(s.raw);
    }
    m.set(p, columnStats(raws));
  }
  return m;
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
