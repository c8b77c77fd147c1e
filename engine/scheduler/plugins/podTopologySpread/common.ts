// What PreFilter/Filter and PreScore/Score share
// (pkg/scheduler/framework/plugins/podtopologyspread/common.go, v1.32): the
// parsed constraint, turning a pod's (or the default) constraints into it,
// node-inclusion policies, and counting the matching pods on a node.
import type { LabelSelector, Labels, Requirement, Selector } from '../../../apimachinery/selectors/labels';
import { addRequirements, labelSelectorAsSelector, requirementMatches, selectorFromSet } from '../../../apimachinery/selectors/labels';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/api';
import type { Handle } from '../../framework/interface';
import type { PodInfo } from '../../framework/podInfo';
import type { NodeInfo } from '../../framework/nodeInfo';
import type { RequiredNodeAffinity } from '../helper/nodeSelector';
import { doNotScheduleTaintsFilter, findMatchingUntoleratedTaint } from '../helper/taints';
import { defaultSelector } from './defaultSelector';

export const NAME = 'PodTopologySpread';

/** v1.LabelHostname / v1.LabelTopologyZone */
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

export type UnsatisfiableConstraintAction = TopologySpreadConstraint['whenUnsatisfiable'];
export type NodeInclusionPolicy = 'Honor' | 'Ignore';

/** topologySpreadConstraint: v1.TopologySpreadConstraint with its selector parsed and defaults applied. */
export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  minDomains: number;
  nodeAffinityPolicy: NodeInclusionPolicy;
  nodeTaintsPolicy: NodeInclusionPolicy;
}

/** What the plugin gives its PreFilter/PreScore halves (the plugin itself implements it). */
export interface SpreadPluginContext {
  readonly handle: Handle;
  /** The constraints for pods without their own (system or listed defaults). */
  readonly defaultConstraints: readonly TopologySpreadConstraint[];
  readonly systemDefaulted: boolean;
}

export type ConstraintsResult = { ok: true; constraints: SpreadConstraint[] } | { ok: false; error: string };

const EMPTY_LABELS: Labels = Object.freeze({});

export function labelsOf(o: { metadata: { labels?: Record<string, string> } } | null | undefined): Labels {
  return o?.metadata.labels ?? EMPTY_LABELS;
}

/** Go's `v, ok := labels[key]`: a label's value, undefined when absent (never an Object.prototype member). */
export function labelValue(labels: Labels, key: string): string | undefined {
  const v = labels[key];
  return typeof v === 'string' ? v : undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;

function includesValue(values: readonly string[], v: string): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] === v) return true;
  return false;
}

/**
 * labels.Requirement.Matches, fast: the hot paths call it per pod per node.
 * A non-string lookup (absent key, or an Object.prototype member: label sets
 * are plain JSON objects, whose prototype holds no strings) counts as absent;
 * Gt/Lt go to the shared implementation.
 */
export function requirementMatchesFast(r: Requirement, labels: Labels): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==': {
      const v = labels[r.key];
      return typeof v === 'string' && includesValue(r.values, v);
    }
    case 'notin':
    case '!=': {
      const v = labels[r.key];
      return typeof v !== 'string' || !includesValue(r.values, v);
    }
    case 'exists':
      return hasOwn.call(labels, r.key);
    case '!':
      return !hasOwn.call(labels, r.key);
    default:
      return requirementMatches(r, labels);
  }
}

/** labels.Selector.Matches without allocating; equal to `matches` (property-tested). */
export function selectorMatches(sel: Selector, labels: Labels): boolean {
  if (sel.type === 'Nothing') return false;
  const reqs: readonly Requirement[] = sel.requirements;
  for (let i = 0; i < reqs.length; i++) if (!requirementMatchesFast(reqs[i]!, labels)) return false;
  return true;
}

/** matchNodeInclusionPolicies: whether the node counts for this constraint (parse errors ignored, as upstream). */
export function matchNodeInclusionPolicies(c: SpreadConstraint, pod: Pod, node: Node, require: RequiredNodeAffinity): boolean {
  if (c.nodeAffinityPolicy === 'Honor' && !require.match(node)) return false;
  if (c.nodeTaintsPolicy === 'Honor' && findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, doNotScheduleTaintsFilter) !== undefined) {
    return false;
  }
  return true;
}

/** nodeLabelsMatchSpreadConstraints: every topology key is a label of the node. */
export function nodeLabelsMatchSpreadConstraints(nodeLabels: Labels, constraints: readonly SpreadConstraint[]): boolean {
  for (let i = 0; i < constraints.length; i++) if (labelValue(nodeLabels, constraints[i]!.topologyKey) === undefined) return false;
  return true;
}

/** mergeLabelSetWithSelector: the matchLabelKeys pairs ANDed with the selector (a Nothing selector adds nothing). */
export function mergeLabelSetWithSelector(matchLabels: Labels, s: Selector): Selector {
  const merged = selectorFromSet(matchLabels);
  return s.type === 'Requirements' ? addRequirements(merged, ...s.requirements) : merged;
}

/**
 * filterTopologySpreadConstraints: the constraints with this whenUnsatisfiable,
 * parsed; matchLabelKeys (MatchLabelKeysInPodTopologySpread, on in v1.32) adds
 * the pod's values for those keys to the selector. minDomains defaults to 1,
 * nodeAffinityPolicy to Honor, nodeTaintsPolicy to Ignore.
 */
export function filterTopologySpreadConstraints(
  constraints: readonly TopologySpreadConstraint[],
  podLabels: Labels,
  action: UnsatisfiableConstraintAction,
): ConstraintsResult {
  const out: SpreadConstraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    const parsed = labelSelectorAsSelector(c.labelSelector as LabelSelector | null | undefined);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    let selector = parsed.selector;
    if (c.matchLabelKeys && c.matchLabelKeys.length > 0) {
      const matchLabels: Record<string, string> = {};
      let any = false;
      for (const key of c.matchLabelKeys) {
        const v = labelValue(podLabels, key);
        if (v !== undefined) {
          matchLabels[key] = v;
          any = true;
        }
      }
      if (any) selector = mergeLabelSetWithSelector(matchLabels, selector);
    }
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: c.minDomains ?? 1,
      nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
      nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
    });
  }
  return { ok: true, constraints: out };
}

/**
 * buildDefaultConstraints: the default constraints with this action, all
 * sharing the selector deduced from the pod's Services and controller; none
 * when that selector is empty.
 */
export function buildDefaultConstraints(ctx: SpreadPluginContext, pod: Pod, action: UnsatisfiableConstraintAction): ConstraintsResult {
  const r = filterTopologySpreadConstraints(ctx.defaultConstraints, labelsOf(pod), action);
  if (!r.ok || r.constraints.length === 0) return r.ok ? { ok: true, constraints: [] } : r;
  const selector = defaultSelector(pod, ctx.handle);
  if (selector.type === 'Requirements' && selector.requirements.length === 0) return { ok: true, constraints: [] };
  for (const c of r.constraints) c.selector = selector;
  return r;
}

/** getConstraints (plugin.go): the pod's hard constraints, or the default hard ones. */
export function getConstraints(ctx: SpreadPluginContext, pod: Pod): ConstraintsResult {
  const own = pod.spec.topologySpreadConstraints;
  if (own && own.length > 0) {
    const r = filterTopologySpreadConstraints(own, labelsOf(pod), 'DoNotSchedule');
    return r.ok ? r : { ok: false, error: `obtaining pod's hard topology spread constraints: ${r.error}` };
  }
  const r = buildDefaultConstraints(ctx, pod, 'DoNotSchedule');
  return r.ok ? r : { ok: false, error: `setting default hard topology spread constraints: ${r.error}` };
}

/**
 * countPodsMatchSelector: pods of the namespace, not terminating, whose labels
 * match. PreScore runs it over every pod of the cluster, so the usual
 * one-pair selector (a ReplicaSet's) gets a loop of its own.
 */
export function countPodsMatchSelector(podInfos: readonly PodInfo[], selector: Selector, ns: string): number {
  if (selector.type === 'Nothing' || podInfos.length === 0) return 0;
  const reqs = selector.requirements;
  let count = 0;
  if (reqs.length === 1 && (reqs[0]!.operator === '=' || reqs[0]!.operator === '==' || (reqs[0]!.operator === 'in' && reqs[0]!.values.length === 1))) {
    const key = reqs[0]!.key;
    const want = reqs[0]!.values[0];
    for (let i = 0; i < podInfos.length; i++) {
      const meta = podInfos[i]!.pod.metadata;
      // Bypass terminating pods (upstream #87621).
      if (meta.deletionTimestamp || (meta.namespace ?? '') !== ns) continue;
      if (meta.labels !== undefined && meta.labels[key] === want) count++;
    }
    return count;
  }
  for (let i = 0; i < podInfos.length; i++) {
    const meta = podInfos[i]!.pod.metadata;
    if (meta.deletionTimestamp || (meta.namespace ?? '') !== ns) continue;
    if (selectorMatches(selector, meta.labels ?? EMPTY_LABELS)) count++;
  }
  return count;
}

// What countPodsMatchSelector gives for one node, remembered until the node
// changes. Every scheduling cycle counts, on every node, the pods matching the
// incoming pod's spread selector (upstream does the same, in 16 goroutines):
// with 150,000 pods that is 150,000 label checks a cycle, where consecutive
// cycles (a ReplicaSet's pods come one after another) change one node and ask
// about the same selector. A node's generation moves with every pod added to
// it or removed from it (an updated pod is removed and added), and pods are
// never changed in place, so an entry of the same generation, namespace and
// selector is exactly the count. A few entries a node; not scheduler state.
interface NodeCount {
  generation: number;
  ns: string;
  selector: string;
  count: number;
}
const COUNTS_PER_NODE = 4;
const nodeCounts = new WeakMap<NodeInfo, { next: number; entries: NodeCount[] }>();
const selectorKeys = new WeakMap<Selector, string>();

/** A selector's requirements as one string (requirements are never changed once built). */
function selectorKey(sel: Selector): string {
  let k = selectorKeys.get(sel);
  if (k === undefined) {
    k = sel.type === 'Nothing' ? '' : sel.requirements.map((r) => `${r.key}\u0001${r.operator}\u0001${r.values.join('\u0002')}`).join('\u0003');
    selectorKeys.set(sel, k);
  }
  return k;
}

/** countPodsMatchSelector over a node's pods, remembered while the node is unchanged. */
export function countMatchingOnNode(nodeInfo: NodeInfo, selector: Selector, ns: string): number {
  if (selector.type === 'Nothing' || nodeInfo.pods.length === 0) return 0;
  const key = selectorKey(selector);
  const gen = nodeInfo.generation;
  let memo = nodeCounts.get(nodeInfo);
  if (memo) {
    const es = memo.entries;
    for (let i = 0; i < es.length; i++) {
      const e = es[i]!;
      if (e.generation === gen && e.selector === key && e.ns === ns) return e.count;
    }
  }
  const count = countPodsMatchSelector(nodeInfo.pods, selector, ns);
  if (!memo) nodeCounts.set(nodeInfo, (memo = { next: 0, entries: [] }));
  const entry: NodeCount = { generation: gen, ns, selector: key, count };
  if (memo.entries.length < COUNTS_PER_NODE) memo.entries.push(entry);
  else memo.entries[memo.next] = entry;
  memo.next = (memo.next + 1) % COUNTS_PER_NODE;
  return count;
}
