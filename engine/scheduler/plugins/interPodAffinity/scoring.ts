// PreScore, Score and NormalizeScore of InterPodAffinity
// (pkg/scheduler/framework/plugins/interpodaffinity/scoring.go, v1.32).
// PreScore sums, per topology pair, the weights of the preferred terms that
// match (both ways: the incoming pod's terms against existing pods, and
// existing pods' terms against the incoming pod, required affinity counting
// hardPodAffinityWeight); Score adds the pairs of the node's labels, and
// NormalizeScore maps [min, max] onto [0, 100].
import type { Labels } from '../../../apimachinery/selectors/labels';
import { registerClass } from '../../../sim/serial';
import type { Node, Pod } from '../../framework/api';
import { stateKey, type CycleState } from '../../framework/cycleState';
import { MAX_NODE_SCORE, type Handle, type NodeScore } from '../../framework/interface';
import type { NodeInfo } from '../../framework/nodeInfo';
import type { AffinityTerm, PodInfo, WeightedAffinityTerm } from '../../framework/podInfo';
import { errorStatus, SKIP, type MaybeStatus, type Status } from '../../framework/status';
import { StringTable, type ScoreInputs, type ScoreInputsRecorder } from '../../framework/scoreInputs';
import { EMPTY_LABELS, getNamespaceLabelsSnapshot, labelsOf, labelValue, mergeAffinityTermNamespaces, NAME, parsePodTerms, termMatches } from './terms';

export interface InterPodAffinityScoringArgs {
  hardPodAffinityWeight: number;
  ignorePreferredTermsOfExistingPods: boolean;
}

/**
 * scoreMap: topology key → value → summed weight, as parallel arrays (Score
 * walks the keys by index, allocating nothing). Entries stay even at zero.
 */
export class ScoreMap {
  keys: string[] = [];
  values: Map<string, number>[] = [];

  add(key: string, value: string, w: number): void {
    let i = this.keys.indexOf(key);
    if (i < 0) {
      i = this.keys.length;
      this.keys.push(key);
      this.values.push(new Map());
    }
    const m = this.values[i]!;
    m.set(value, (m.get(value) ?? 0) + w);
  }

  /** "key=value" → weight, for tests and records. */
  toObject(): Record<string, number> {
    const out: Record<string, number> = {};
    this.keys.forEach((k, i) => {
      for (const [v, n] of this.values[i]!) out[`${k}=${v}`] = n;
    });
    return out;
  }
}

/** preScoreState. Score only reads it, so clone() shares it. */
export class PreScoreState {
  constructor(readonly topologyScore: ScoreMap) {}

  clone(): PreScoreState {
    return this;
  }
}

export const PRE_SCORE_STATE_KEY = stateKey<PreScoreState>('PreScore' + NAME);

/** processTerm: the term's weight × multiplier on the existing pod's node's pair, when `pod` matches it. */
function processTerm(m: ScoreMap, term: AffinityTerm, weight: number, pod: Pod, nsLabels: Labels, nodeLabels: Labels, multiplier: number): boolean {
  if (!termMatches(term, pod, nsLabels)) return false;
  const value = labelValue(nodeLabels, term.topologyKey);
  if (value === undefined) return false;
  m.add(term.topologyKey, value, weight * multiplier);
  return true;
}

function processTerms(m: ScoreMap, terms: readonly WeightedAffinityTerm[], pod: Pod, nsLabels: Labels, nodeLabels: Labels, multiplier: number): boolean {
  let hit = false;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (processTerm(m, t, t.weight, pod, nsLabels, nodeLabels, multiplier)) hit = true;
  }
  return hit;
}

function hasAnyKey(o: Labels): boolean {
  for (const _ in o) return true;
  return false;
}

interface IncomingScoring {
  pod: Pod;
  preferredAffinityTerms: WeightedAffinityTerm[];
  preferredAntiAffinityTerms: WeightedAffinityTerm[];
  namespaceLabels: Labels;
}

/** processExistingPod: returns whether any term matched (upstream: the node's map is non-empty). */
function processExistingPod(args: InterPodAffinityScoringArgs, m: ScoreMap, incoming: IncomingScoring, existing: PodInfo, existingNode: Node): boolean {
  // Nothing to weigh (most pods of a large cluster): skip the label walk below; same result.
  if (
    incoming.preferredAffinityTerms.length === 0 &&
    incoming.preferredAntiAffinityTerms.length === 0 &&
    (args.hardPodAffinityWeight <= 0 || existing.requiredAffinityTerms.length === 0) &&
    existing.preferredAffinityTerms.length === 0 &&
    existing.preferredAntiAffinityTerms.length === 0
  ) {
    return false;
  }
  const nodeLabels = existingNode.metadata.labels;
  if (!nodeLabels || !hasAnyKey(nodeLabels)) return false;
  let hit = false;
  // The incoming pod's preferred (anti-)affinity against the existing pod
  // (merged terms: the existing pod's namespace labels are not needed).
  if (processTerms(m, incoming.preferredAffinityTerms, existing.pod, EMPTY_LABELS, nodeLabels, 1)) hit = true;
  if (processTerms(m, incoming.preferredAntiAffinityTerms, existing.pod, EMPTY_LABELS, nodeLabels, -1)) hit = true;
  // The existing pod's required affinity counts hardPodAffinityWeight for the incoming pod.
  if (args.hardPodAffinityWeight > 0) {
    const req = existing.requiredAffinityTerms;
    for (let i = 0; i < req.length; i++) {
      if (processTerm(m, req[i]!, args.hardPodAffinityWeight, incoming.pod, incoming.namespaceLabels, nodeLabels, 1)) hit = true;
    }
  }
  // The existing pod's preferred (anti-)affinity against the incoming pod.
  if (processTerms(m, existing.preferredAffinityTerms, incoming.pod, incoming.namespaceLabels, nodeLabels, 1)) hit = true;
  if (processTerms(m, existing.preferredAntiAffinityTerms, incoming.pod, incoming.namespaceLabels, nodeLabels, -1)) hit = true;
  return hit;
}

/** PreScore */
export function preScore(args: InterPodAffinityScoringArgs, handle: Handle, cycleState: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
  if (nodes.length === 0) return SKIP;
  const affinity = pod.spec.affinity;
  const hasPreferredAffinity = (affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  const hasPreferredAntiAffinity = (affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  const hasConstraints = hasPreferredAffinity || hasPreferredAntiAffinity;
  // Optionally ignore existing pods' preferences when the incoming pod has none.
  if (args.ignorePreferredTermsOfExistingPods && !hasConstraints) return SKIP;

  // Without preferred terms of its own, only nodes hosting pods with affinity matter.
  const allNodes = hasConstraints ? handle.nodes.list() : handle.nodes.havePodsWithAffinityList();
  const parsed = parsePodTerms(pod);
  // Ideally unreachable: PreFilter rejects such pods.
  if ('error' in parsed) return errorStatus(`failed to parse pod: ${parsed.error}`);
  const incoming: IncomingScoring = {
    pod,
    preferredAffinityTerms: parsed.preferredAffinityTerms.map((t) => mergeAffinityTermNamespaces(t, handle)),
    preferredAntiAffinityTerms: parsed.preferredAntiAffinityTerms.map((t) => mergeAffinityTermNamespaces(t, handle)),
    namespaceLabels: getNamespaceLabelsSnapshot(pod.metadata.namespace ?? '', handle),
  };

  const topologyScore = new ScoreMap();
  let any = false;
  for (let n = 0; n < allNodes.length; n++) {
    const nodeInfo = allNodes[n]!;
    const podsToProcess = hasConstraints ? nodeInfo.pods : nodeInfo.podsWithAffinity;
    const node = nodeInfo.node;
    if (podsToProcess.length === 0 || !node) continue;
    for (let p = 0; p < podsToProcess.length; p++) {
      if (processExistingPod(args, topologyScore, incoming, podsToProcess[p]!, node)) any = true;
    }
  }
  if (!any) return SKIP;
  cycleState.write(PRE_SCORE_STATE_KEY, new PreScoreState(topologyScore));
  return null;
}

function readState(cycleState: CycleState): PreScoreState | Status {
  return cycleState.read(PRE_SCORE_STATE_KEY) ?? errorStatus(`failed to read "${PRE_SCORE_STATE_KEY.name}" from cycleState: not found`);
}

/** Score: the summed weights of the node's topology pairs (positive: affinity; negative: anti-affinity). */
export function score(cycleState: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
  const s = readState(cycleState);
  if (!(s instanceof PreScoreState)) return s;
  const nodeLabels = labelsOf(nodeInfo.node);
  const ts = s.topologyScore;
  let total = 0;
  for (let i = 0; i < ts.keys.length; i++) {
    const v = labelValue(nodeLabels, ts.keys[i]!);
    if (v !== undefined) total += ts.values[i]!.get(v) ?? 0;
  }
  return total;
}

/** The node's topology pairs that carry a summed weight (their sum is the raw score): per key, the domain (interned) and its weight. */
export class AffinityInputsRecorder implements ScoreInputsRecorder {
  readonly width: number;
  readonly values = new StringTable();

  constructor(readonly keys: string[]) {
    this.width = 2 * keys.length;
  }

  write(cycleState: CycleState, _pod: Pod, nodeInfo: NodeInfo, out: Float64Array, at: number): void {
    const s = cycleState.read(PRE_SCORE_STATE_KEY);
    if (!(s instanceof PreScoreState)) return;
    const nodeLabels = labelsOf(nodeInfo.node);
    const ts = s.topologyScore;
    for (let i = 0; i < this.keys.length; i++) {
      const value = labelValue(nodeLabels, ts.keys[i]!);
      const score = value === undefined ? undefined : ts.values[i]!.get(value);
      out[at + 2 * i] = score === undefined ? -1 : this.values.id(value!);
      out[at + 2 * i + 1] = score ?? 0;
    }
  }

  read(numbers: Float64Array, at: number): ScoreInputs | null {
    let domains: { topologyKey: string; value: string; score: number }[] | null = null;
    for (let i = 0; i < this.keys.length; i++) {
      const v = numbers[at + 2 * i]!;
      if (v >= 0) (domains ??= []).push({ topologyKey: this.keys[i]!, value: this.values.values[v]!, score: numbers[at + 2 * i + 1]! });
    }
    return domains ? { kind: 'interPodAffinity', domains } : null;
  }
}

export function scoreInputsRecorder(cycleState: CycleState): AffinityInputsRecorder | null {
  const s = cycleState.read(PRE_SCORE_STATE_KEY);
  return s instanceof PreScoreState ? new AffinityInputsRecorder([...s.topologyScore.keys]) : null;
}

/** NormalizeScore: int64(100 * (score - min) / (max - min)); all 0 when max == min. */
export function normalizeScore(cycleState: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
  const s = readState(cycleState);
  if (!(s instanceof PreScoreState)) return s;
  if (s.topologyScore.keys.length === 0) return null;
  let minCount = Infinity;
  let maxCount = -Infinity;
  for (const ns of scores) {
    if (ns.score > maxCount) maxCount = ns.score;
    if (ns.score < minCount) minCount = ns.score;
  }
  const diff = maxCount - minCount;
  for (const ns of scores) {
    const f = diff > 0 ? MAX_NODE_SCORE * ((ns.score - minCount) / diff) : 0;
    ns.score = Math.trunc(f);
  }
  return null;
}

registerClass('InterPodAffinityScoreMap', ScoreMap);
registerClass('InterPodAffinityPreScoreState', PreScoreState);
registerClass('InterPodAffinityInputsRecorder', AffinityInputsRecorder);
