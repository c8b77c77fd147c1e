// NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go, v1.32):
// Filter: spec.nodeSelector AND the required node affinity (and the
// profile's args.addedAffinity, which is checked first); PreFilter narrows the
// candidate nodes when every term names nodes by metadata.name; Score sums the
// weights of the matching preferred terms (the pod's and the added ones),
// normalized by DefaultNormalizeScore.
import { aggregateMessage, errorString, type FieldError, type FieldPath } from '../../apimachinery/fieldErrors';
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import type { Affinity, Node, Pod } from '../framework/api';
import { stateKey, type CycleState } from '../framework/cycleState';
import {
  MAX_NODE_SCORE,
  type ClusterEvent,
  type EnqueueExtensions,
  type FilterPlugin,
  type Handle,
  type NodeScore,
  type PluginDefinition,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type QueueingHint,
  type ScoreExtensions,
  type ScorePlugin,
} from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import type { MatchedTerm, ScoreInputs } from '../framework/scoreInputs';
import { errorStatus, SKIP, unresolvable, type MaybeStatus, type Status } from '../framework/status';
import {
  newNodeSelector,
  newPreferredSchedulingTerms,
  OBJECT_NAME_FIELD,
  requiredNodeAffinity,
  type NodeSelectorMatcher,
  type PreferredSchedulingTerms,
  type RequiredNodeAffinity,
  weightedTermText,
} from './helper/nodeSelector';
import { defaultNormalizeScore, defaultNormalizeScoreValues } from './helper/normalizeScore';

export type NodeAffinitySpec = NonNullable<Affinity['nodeAffinity']>;

/** config.NodeAffinityArgs (v1 JSON names). */
export interface NodeAffinityArgs {
  /** Applied to every pod of the profile, in addition to the pod's own node affinity. */
  addedAffinity?: NodeAffinitySpec | null;
}

export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

export const PRE_FILTER_STATE_KEY = stateKey<RequiredNodeAffinity>('PreFilterNodeAffinity');

export interface NodeAffinityPreScoreState {
  preferredNodeAffinity: PreferredSchedulingTerms | null;
}
export const PRE_SCORE_STATE_KEY = stateKey<NodeAffinityPreScoreState>('PreScoreNodeAffinity');

function errorsMessage(errors: FieldError[]): string {
  return aggregateMessage(errors.map(errorString));
}

/** getPodPreferredNodeAffinity: null when the pod lists no preferred terms; errors when a term does not parse. */
function podPreferredNodeAffinity(pod: Pod): { terms: PreferredSchedulingTerms | null } | { error: string } {
  const list = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
  if (list === undefined || list === null) return { terms: null };
  const r = newPreferredSchedulingTerms(list);
  return r.ok ? { terms: r.terms } : { error: errorsMessage(r.errors) };
}

/**
 * PreFilter's narrowing: the union over terms of the metadata.name `In`
 * values (intersected within a term). null when some term names no node (any
 * node may match it); an empty set when every term is self-contradictory.
 */
export function nodeNamesFromRequiredTerms(pod: Pod): Set<string> | null {
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return null;
  let nodeNames: Set<string> | null = null;
  for (const t of terms) {
    let termNames: Set<string> | null = null;
    for (const r of t.matchFields ?? []) {
      if (r.key !== OBJECT_NAME_FIELD || r.operator !== 'In') continue;
      const s = new Set(r.values ?? []);
      if (termNames === null) termNames = s;
      else {
        const prev: Set<string> = termNames;
        termNames = new Set([...prev].filter((n) => s.has(n)));
      }
    }
    // A term with no node-name requirement leaves every node eligible (terms are ORed).
    if (termNames === null) return null;
    nodeNames ??= new Set();
    for (const n of termNames) nodeNames.add(n);
  }
  return nodeNames;
}

export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions {
  readonly name = 'NodeAffinity';
  readonly addedNodeSelector: NodeSelectorMatcher | null;
  readonly addedPrefSchedTerms: PreferredSchedulingTerms | null;

  constructor(
    readonly args: NodeAffinityArgs,
    readonly handle: Handle,
  ) {
    const added = args.addedAffinity;
    let sel: NodeSelectorMatcher | null = null;
    let pref: PreferredSchedulingTerms | null = null;
    const req = added?.requiredDuringSchedulingIgnoredDuringExecution;
    if (req) {
      const r = newNodeSelector(req);
      // validateArgs ran first: a parse error here is a bug.
      if (!r.ok) throw new Error(`parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: ${errorsMessage(r.errors)}`);
      sel = r.selector;
    }
    const terms = added?.preferredDuringSchedulingIgnoredDuringExecution;
    if (terms && terms.length !== 0) {
      const r = newPreferredSchedulingTerms(terms);
      if (!r.ok) throw new Error(`parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: ${errorsMessage(r.errors)}`);
      pref = r.terms;
    }
    this.addedNodeSelector = sel;
    this.addedPrefSchedTerms = pref;
  }

  // --- PreFilter / Filter ---

  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): { result?: PreFilterResult; status: MaybeStatus } {
    const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    const noNodeAffinity = required === undefined || required === null;
    // A nil nodeSelector, not an empty one, lets the plugin skip (as Go's nil map).
    if (noNodeAffinity && this.addedNodeSelector === null && (pod.spec.nodeSelector === undefined || pod.spec.nodeSelector === null)) {
      return { status: SKIP };
    }
    state.write(PRE_FILTER_STATE_KEY, requiredNodeAffinity(pod));
    if (noNodeAffinity || (required.nodeSelectorTerms ?? []).length === 0) return { status: null };
    const nodeNames = nodeNamesFromRequiredTerms(pod);
    if (nodeNames !== null && nodeNames.size === 0) return { status: unresolvable(ERR_REASON_CONFLICT) };
    if (nodeNames !== null) return { result: { nodeNames }, status: null };
    return { status: null };
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const node = nodeInfo.node;
    if (!node) return errorStatus('node not found');
    if (this.addedNodeSelector !== null && !this.addedNodeSelector.match(node)) return unresolvable(ERR_REASON_ENFORCED);
    // Without PreFilter (disabled), compute here, as upstream falls back.
    const s = state.read(PRE_FILTER_STATE_KEY) ?? requiredNodeAffinity(pod);
    // Parse errors are ignored (the bad term just does not match), for backwards compatibility.
    return s.match(node) ? null : unresolvable(ERR_REASON_POD);
  }

  // --- PreScore / Score ---

  preScore(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): MaybeStatus {
    const r = podPreferredNodeAffinity(pod);
    if ('error' in r) return errorStatus(r.error);
    if (r.terms === null && this.addedPrefSchedTerms === null) return SKIP;
    state.write(PRE_SCORE_STATE_KEY, { preferredNodeAffinity: r.terms });
    return null;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const node = nodeInfo.node;
    let count = 0;
    if (this.addedPrefSchedTerms !== null) count += this.addedPrefSchedTerms.score(node);
    let s = state.read(PRE_SCORE_STATE_KEY);
    if (s === undefined) {
      const r = podPreferredNodeAffinity(pod);
      if ('error' in r) return errorStatus(r.error);
      s = { preferredNodeAffinity: r.terms };
    }
    if (s.preferredNodeAffinity !== null) count += s.preferredNodeAffinity.score(node);
    return count;
  }

  /** The preferred terms the node matched (their weights sum to the raw score); null when none did. */
  scoreInputs(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): ScoreInputs | null {
    const node = nodeInfo.node;
    const matched: MatchedTerm[] = [];
    for (const t of this.addedPrefSchedTerms?.matching(node) ?? []) matched.push({ weight: t.weight, term: weightedTermText(t), added: true });
    for (const t of state.read(PRE_SCORE_STATE_KEY)?.preferredNodeAffinity?.matching(node) ?? []) matched.push({ weight: t.weight, term: weightedTermText(t) });
    return matched.length ? { kind: 'nodeAffinity', matched } : null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
    return defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  }

  normalizeScoreValues(_state: CycleState, _pod: Pod, scores: Float64Array): MaybeStatus {
    return defaultNormalizeScoreValues(MAX_NODE_SCORE, false, scores);
  }

  // --- EnqueueExtensions ---

  // Queueing hints on (v1.32 default): preCheck is gone, so Add | UpdateNodeLabel.
  eventsToRegister(): ClusterEvent[] {
    return [{ resource: 'Node', actions: ['Add', 'UpdateNodeLabel'] }];
  }

  /** isSchedulableAfterNodeChange: Queue when the node (newly) matches both the added and the pod's affinity. */
  isSchedulableAfter(_event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    const modified = newObj as Node | undefined;
    if (!modified) return 'Queue';
    if (this.addedNodeSelector !== null && !this.addedNodeSelector.match(modified)) return 'QueueSkip';
    const required = requiredNodeAffinity(pod);
    if (!required.match(modified)) return 'QueueSkip';
    const original = oldObj as Node | undefined;
    if (original === undefined) return 'Queue';
    // An update: only unmatched → matched helps.
    return required.match(original) ? 'QueueSkip' : 'Queue';
  }
}

registerClass('PluginNodeAffinity', NodeAffinity);

/** ValidateNodeAffinityArgs: the added affinity must parse (errors carry the args path). */
export function validateNodeAffinityArgs(args: NodeAffinityArgs, path: FieldPath): FieldError[] {
  const added = args.addedAffinity;
  if (!added) return [];
  const errs: FieldError[] = [];
  const req = added.requiredDuringSchedulingIgnoredDuringExecution;
  if (req) {
    const r = newNodeSelector(req, path.child('addedAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'));
    if (!r.ok) errs.push(...r.errors);
  }
  const terms = added.preferredDuringSchedulingIgnoredDuringExecution;
  if (terms && terms.length !== 0) {
    const r = newPreferredSchedulingTerms(terms, path.child('addedAffinity', 'preferredDuringSchedulingIgnoredDuringExecution'));
    if (!r.ok) errs.push(...r.errors);
  }
  return errs;
}

export const nodeAffinityDefinition: PluginDefinition<NodeAffinityArgs> = {
  name: 'NodeAffinity',
  argsKind: 'NodeAffinityArgs',
  // v1 sets no defaults for NodeAffinityArgs.
  defaultArgs: (args) => ({ ...(args ?? {}) }),
  validateArgs: validateNodeAffinityArgs,
  factory: (args, handle) => new NodeAffinity(args, handle),
};
