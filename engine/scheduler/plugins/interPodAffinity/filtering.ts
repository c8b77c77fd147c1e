// PreFilter, Filter and the PreFilterExtensions of InterPodAffinity
// (pkg/scheduler/framework/plugins/interpodaffinity/filtering.go, v1.32).
// PreFilter counts, per topology pair (key, value):
//  - existing pods whose required anti-affinity terms match the incoming pod
//    (only nodes listed as having such pods are visited);
//  - existing pods matching all of the incoming pod's required affinity terms;
//  - existing pods matching each of its required anti-affinity terms.
// Filter then answers with a few map lookups per node.
import { registerClass } from '../../../sim/serial';
import type { Node, Pod } from '../../framework/api';
import { stateKey, type CycleState } from '../../framework/cycleState';
import type { Handle } from '../../framework/interface';
import type { NodeInfo } from '../../framework/nodeInfo';
import type { AffinityTerm, PodInfo } from '../../framework/podInfo';
import { errorStatus, SKIP, unresolvable, unschedulable, type MaybeStatus } from '../../framework/status';
import type { Labels } from '../../../apimachinery/selectors/labels';
import {
  EMPTY_LABELS,
  getNamespaceLabelsSnapshot,
  labelsOf,
  labelValue,
  mergeAffinityTermNamespaces,
  NAME,
  parsePodTerms,
  podMatchesAllAffinityTerms,
  termMatches,
} from './terms';

/** ErrReason* (filtering.go). */
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";

/**
 * topologyToMatchedTermCount: (topology key, value) → count, kept as parallel
 * arrays of keys and per-key maps so lookups and walks allocate nothing.
 * Pairs that drop to zero are deleted, as upstream; `size` counts the pairs.
 */
export class TopologyCounts {
  keys: string[] = [];
  values: Map<string, number>[] = [];
  size = 0;

  get(key: string, value: string): number {
    const i = this.keys.indexOf(key);
    return i < 0 ? 0 : (this.values[i]!.get(value) ?? 0);
  }

  /** update: when the node has the topology key, add `delta` to its pair. */
  update(nodeLabels: Labels, key: string, delta: number): void {
    const value = labelValue(nodeLabels, key);
    if (value === undefined) return;
    let i = this.keys.indexOf(key);
    if (i < 0) {
      i = this.keys.length;
      this.keys.push(key);
      this.values.push(new Map());
    }
    const m = this.values[i]!;
    const before = m.get(value);
    const n = (before ?? 0) + delta;
    // delta may be negative (RemovePod): a pair down to zero goes away.
    if (n === 0) {
      if (before !== undefined) {
        m.delete(value);
        this.size--;
      }
    } else {
      if (before === undefined) this.size++;
      m.set(value, n);
    }
  }

  clone(): TopologyCounts {
    const c = new TopologyCounts();
    c.keys = [...this.keys];
    c.values = this.values.map((m) => new Map(m));
    c.size = this.size;
    return c;
  }

  /** "key=value" → count, for tests and records. */
  toObject(): Record<string, number> {
    const out: Record<string, number> = {};
    this.keys.forEach((k, i) => {
      for (const [v, n] of this.values[i]!) out[`${k}=${v}`] = n;
    });
    return out;
  }
}

/** updateWithAffinityTerms: every term's pair, when the pod matches all the terms. */
function updateWithAffinityTerms(m: TopologyCounts, terms: readonly AffinityTerm[], pod: Pod, nodeLabels: Labels, delta: number): void {
  if (!podMatchesAllAffinityTerms(terms, pod)) return;
  for (let i = 0; i < terms.length; i++) m.update(nodeLabels, terms[i]!.topologyKey, delta);
}

/** updateWithAntiAffinityTerms: each matching term's pair. */
function updateWithAntiAffinityTerms(m: TopologyCounts, terms: readonly AffinityTerm[], pod: Pod, nsLabels: Labels, nodeLabels: Labels, delta: number): void {
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (termMatches(t, pod, nsLabels)) m.update(nodeLabels, t.topologyKey, delta);
  }
}

/** preFilterState. AddPod/RemovePod change the counts, so clone() copies them; the rest is shared. */
export class PreFilterState {
  constructor(
    /** Existing pods' anti-affinity terms matching the incoming pod. */
    readonly existingAntiAffinityCounts: TopologyCounts,
    /** Existing pods matching all the incoming pod's affinity terms. */
    readonly affinityCounts: TopologyCounts,
    /** Existing pods matching the incoming pod's anti-affinity terms. */
    readonly antiAffinityCounts: TopologyCounts,
    readonly pod: Pod,
    /** The incoming pod's required terms, namespaceSelector unrolled into namespaces. */
    readonly requiredAffinityTerms: AffinityTerm[],
    readonly requiredAntiAffinityTerms: AffinityTerm[],
    /** The incoming pod matches all its own affinity terms (the first-pod-of-a-group case). */
    readonly matchesOwnAffinity: boolean,
    /** A copy of the incoming pod's namespace labels. */
    readonly namespaceLabels: Labels,
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(
      this.existingAntiAffinityCounts.clone(),
      this.affinityCounts.clone(),
      this.antiAffinityCounts.clone(),
      this.pod,
      this.requiredAffinityTerms,
      this.requiredAntiAffinityTerms,
      this.matchesOwnAffinity,
      this.namespaceLabels,
    );
  }

  /** updateWithPod: a pod with these terms added (+1) to or removed (-1) from `node`. */
  updateWithPod(pi: PodInfo, node: Node | null, delta: number): void {
    if (!node) return;
    const nodeLabels = labelsOf(node);
    updateWithAntiAffinityTerms(this.existingAntiAffinityCounts, pi.requiredAntiAffinityTerms, this.pod, this.namespaceLabels, nodeLabels, delta);
    updateWithAffinityTerms(this.affinityCounts, this.requiredAffinityTerms, pi.pod, nodeLabels, delta);
    // The incoming pod's terms are merged, so the updated pod's namespace labels are not needed.
    updateWithAntiAffinityTerms(this.antiAffinityCounts, this.requiredAntiAffinityTerms, pi.pod, EMPTY_LABELS, nodeLabels, delta);
  }
}

export const PRE_FILTER_STATE_KEY = stateKey<PreFilterState>('PreFilter' + NAME);

/** getExistingAntiAffinityCounts: walks only the nodes with required-anti-affinity pods. */
export function getExistingAntiAffinityCounts(pod: Pod, nsLabels: Labels, nodes: readonly NodeInfo[]): TopologyCounts {
  const result = new TopologyCounts();
  for (let n = 0; n < nodes.length; n++) {
    const nodeInfo = nodes[n]!;
    if (!nodeInfo.node) continue;
    const nodeLabels = labelsOf(nodeInfo.node);
    const pods = nodeInfo.podsWithRequiredAntiAffinity;
    for (let p = 0; p < pods.length; p++) updateWithAntiAffinityTerms(result, pods[p]!.requiredAntiAffinityTerms, pod, nsLabels, nodeLabels, 1);
  }
  return result;
}

/** getIncomingAffinityAntiAffinityCounts: existing pods matching the incoming pod's required terms. */
export function getIncomingAffinityAntiAffinityCounts(
  affinityTerms: readonly AffinityTerm[],
  antiAffinityTerms: readonly AffinityTerm[],
  allNodes: readonly NodeInfo[],
): { affinity: TopologyCounts; antiAffinity: TopologyCounts } {
  const affinity = new TopologyCounts();
  const antiAffinity = new TopologyCounts();
  if (affinityTerms.length === 0 && antiAffinityTerms.length === 0) return { affinity, antiAffinity };
  for (let n = 0; n < allNodes.length; n++) {
    const nodeInfo = allNodes[n]!;
    // An empty node adds nothing: skip it before touching its Node (the walk is memory-bound).
    const pods = nodeInfo.pods;
    if (pods.length === 0 || !nodeInfo.node) continue;
    const nodeLabels = labelsOf(nodeInfo.node);
    for (let p = 0; p < pods.length; p++) {
      const existing = pods[p]!.pod;
      updateWithAffinityTerms(affinity, affinityTerms, existing, nodeLabels, 1);
      updateWithAntiAffinityTerms(antiAffinity, antiAffinityTerms, existing, EMPTY_LABELS, nodeLabels, 1);
    }
  }
  return { affinity, antiAffinity };
}

/** PreFilter: Skip when no existing anti-affinity matches and the pod has no required terms. */
export function preFilter(handle: Handle, cycleState: CycleState, pod: Pod, allNodes: readonly NodeInfo[]): MaybeStatus {
  const parsed = parsePodTerms(pod);
  if ('error' in parsed) return unresolvable(`parsing pod: ${parsed.error}`);
  const requiredAffinityTerms = parsed.requiredAffinityTerms.map((t) => mergeAffinityTermNamespaces(t, handle));
  const requiredAntiAffinityTerms = parsed.requiredAntiAffinityTerms.map((t) => mergeAffinityTermNamespaces(t, handle));
  const nsLabels = getNamespaceLabelsSnapshot(pod.metadata.namespace ?? '', handle);

  const existing = getExistingAntiAffinityCounts(pod, nsLabels, handle.nodes.havePodsWithRequiredAntiAffinityList());
  const incoming = getIncomingAffinityAntiAffinityCounts(requiredAffinityTerms, requiredAntiAffinityTerms, allNodes);
  if (existing.size === 0 && requiredAffinityTerms.length === 0 && requiredAntiAffinityTerms.length === 0) return SKIP;

  const s = new PreFilterState(
    existing,
    incoming.affinity,
    incoming.antiAffinity,
    pod,
    requiredAffinityTerms,
    requiredAntiAffinityTerms,
    podMatchesAllAffinityTerms(requiredAffinityTerms, pod),
    nsLabels,
  );
  cycleState.write(PRE_FILTER_STATE_KEY, s);
  return null;
}

function readState(cycleState: CycleState): PreFilterState | string {
  return cycleState.read(PRE_FILTER_STATE_KEY) ?? `error reading "${PRE_FILTER_STATE_KEY.name}" from cycleState: not found`;
}

/** satisfyExistingPodsAntiAffinity: no existing pod's anti-affinity covers this node's domains. */
function satisfyExistingPodsAntiAffinity(s: PreFilterState, nodeLabels: Labels): boolean {
  const counts = s.existingAntiAffinityCounts;
  if (counts.size === 0) return true;
  // Walking the counted keys finds the same pairs as walking the node's labels.
  for (let i = 0; i < counts.keys.length; i++) {
    const value = labelValue(nodeLabels, counts.keys[i]!);
    if (value !== undefined && (counts.values[i]!.get(value) ?? 0) > 0) return false;
  }
  return true;
}

/** satisfyPodAntiAffinity: no matching pod in the node's domain of any anti-affinity term. */
function satisfyPodAntiAffinity(s: PreFilterState, nodeLabels: Labels): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  const terms = s.requiredAntiAffinityTerms;
  for (let i = 0; i < terms.length; i++) {
    const tk = terms[i]!.topologyKey;
    const value = labelValue(nodeLabels, tk);
    if (value !== undefined && s.antiAffinityCounts.get(tk, value) > 0) return false;
  }
  return true;
}

/** satisfyPodAffinity: every term's topology key on the node, with matching pods in each domain. */
function satisfyPodAffinity(s: PreFilterState, nodeLabels: Labels): boolean {
  let podsExist = true;
  const terms = s.requiredAffinityTerms;
  for (let i = 0; i < terms.length; i++) {
    const tk = terms[i]!.topologyKey;
    const value = labelValue(nodeLabels, tk);
    // All topology labels must exist on the node.
    if (value === undefined) return false;
    if (s.affinityCounts.get(tk, value) <= 0) podsExist = false;
  }
  if (!podsExist) {
    // The first pod of a group with affinity to itself: when no pod anywhere
    // matches and the pod matches its own terms, let it in (on nodes with all
    // the topology keys) rather than leave the group pending forever.
    return s.affinityCounts.size === 0 && s.matchesOwnAffinity;
  }
  return true;
}

/** Filter: allocation-free when the node fits. */
export function filter(cycleState: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
  const s = readState(cycleState);
  if (typeof s === 'string') return errorStatus(s);
  const node = nodeInfo.node;
  if (!node) return errorStatus('node not found');
  const nodeLabels = labelsOf(node);
  if (!satisfyPodAffinity(s, nodeLabels)) return unresolvable(ERR_REASON_AFFINITY_RULES_NOT_MATCH);
  if (!satisfyPodAntiAffinity(s, nodeLabels)) return unschedulable(ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
  if (!satisfyExistingPodsAntiAffinity(s, nodeLabels)) return unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
  return null;
}

/** AddPod (+1) / RemovePod (-1). */
export function addOrRemovePod(cycleState: CycleState, pi: PodInfo, nodeInfo: NodeInfo, delta: 1 | -1): MaybeStatus {
  const s = readState(cycleState);
  if (typeof s === 'string') return errorStatus(s);
  s.updateWithPod(pi, nodeInfo.node, delta);
  return null;
}

registerClass('InterPodAffinityTopologyCounts', TopologyCounts);
registerClass('InterPodAffinityPreFilterState', PreFilterState);
