// DefaultPreemption (pkg/scheduler/framework/plugins/defaultpreemption/
// default_preemption.go, v1.32): the PostFilter plugin that, when no node
// fits, looks for a node where deleting lower-priority pods would make room.
// The shared steps are the evaluator's (engine/scheduler/preemption/); this
// file supplies the policy: who may preempt, how many candidates to look for,
// and which pods on a node become victims.
import { fieldErr, type FieldError, type FieldPath } from '../../apimachinery/fieldErrors';
import { registerClass } from '../../sim/serial';
import { podPriority, type Pod } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type {
  ClusterEvent,
  EnqueueExtensions,
  Handle,
  NodeToStatus,
  PluginDefinition,
  PostFilterPlugin,
  PostFilterResult,
  PreEnqueuePlugin,
} from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import type { PodInfo } from '../framework/podInfo';
import { errorStatus, unresolvable, type MaybeStatus, type Status } from '../framework/status';
import { Evaluator } from '../preemption/evaluator';
import { filterPodsWithPDBViolation } from '../preemption/pdb';
import { DISRUPTION_TARGET, REASON_PREEMPTION_BY_SCHEDULER } from '../preemption/prepare';
import type { Candidate, NodeScoreFunc, PodDisruptionBudget, PreemptionInterface, VictimSelection, Victims } from '../preemption/types';
import { moreImportantPod, sortByImportance } from '../preemption/util';

export const DEFAULT_PREEMPTION_NAME = 'DefaultPreemption';


/** DefaultPreemptionArgs (k8s.io/kube-scheduler/config/v1). */
export interface DefaultPreemptionArgs {
  /** Candidates to find, as a percentage of the nodes preemption might help (0..100). */
  minCandidateNodesPercentage: number;
  /** ... and at least this many (capped at the number of such nodes). */
  minCandidateNodesAbsolute: number;
}

/** SetDefaults_DefaultPreemptionArgs (pkg/scheduler/apis/config/v1/defaults.go). */
export function defaultDefaultPreemptionArgs(args: Partial<DefaultPreemptionArgs> | undefined): DefaultPreemptionArgs {
  return {
    minCandidateNodesPercentage: args?.minCandidateNodesPercentage ?? 10,
    minCandidateNodesAbsolute: args?.minCandidateNodesAbsolute ?? 100,
  };
}

/** ValidateDefaultPreemptionArgs (pkg/scheduler/apis/config/validation/validation_pluginargs.go). */
export function validateDefaultPreemptionArgs(args: DefaultPreemptionArgs, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const pct = path.child('minCandidateNodesPercentage');
  const abs = path.child('minCandidateNodesAbsolute');
  if (args.minCandidateNodesPercentage < 0 || args.minCandidateNodesPercentage > 100) {
    errs.push(fieldErr.invalid(pct, args.minCandidateNodesPercentage, 'not in valid range [0, 100]'));
  }
  if (args.minCandidateNodesAbsolute < 0) {
    errs.push(fieldErr.invalid(abs, args.minCandidateNodesAbsolute, 'not in valid range [0, inf)'));
  }
  if (args.minCandidateNodesPercentage === 0 && args.minCandidateNodesAbsolute === 0) {
    errs.push(
      fieldErr.invalid(pct, args.minCandidateNodesPercentage, 'cannot be zero at the same time as minCandidateNodesAbsolute'),
      fieldErr.invalid(abs, args.minCandidateNodesAbsolute, 'cannot be zero at the same time as minCandidateNodesPercentage'),
    );
  }
  return errs;
}

/**
 * podTerminatingByPreemption: being deleted, and its DisruptionTarget
 * condition says the scheduler preempted it.
 */
export function podTerminatingByPreemption(p: Pod): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  for (const c of p.status?.conditions ?? []) {
    if (c.type === DISRUPTION_TARGET) return c.status === 'True' && c.reason === REASON_PREEMPTION_BY_SCHEDULER;
  }
  return false;
}

function asError(s: Status): Status {
  // status.AsError() then framework.AsStatus(err): any failure becomes an Error with its message.
  return s.code === 'Error' ? s : errorStatus(s.reasons.join(', '));
}

export class DefaultPreemption implements PostFilterPlugin, PreEnqueuePlugin, EnqueueExtensions, PreemptionInterface {
  readonly name = DEFAULT_PREEMPTION_NAME;
  readonly evaluator: Evaluator;

  constructor(
    readonly args: DefaultPreemptionArgs,
    readonly handle: Handle,
  ) {
    this.evaluator = new Evaluator(DEFAULT_PREEMPTION_NAME, handle, this);
  }

  /**
   * PostFilter: the evaluator's answer, its message prefixed "preemption: ".
   * `absentNodesStatus`: the status of nodes missing from `m` (default
   * UnschedulableAndUnresolvable; a PreFilter rejection sets it upstream).
   */
  postFilter(state: CycleState, pod: Pod, m: NodeToStatus, absentNodesStatus?: Status): { result?: PostFilterResult; status: MaybeStatus } {
    const out = this.evaluator.preempt(state, pod, m, absentNodesStatus);
    const s = out.status;
    if (s && s.reasons.length > 0) {
      const status: Status = { code: s.code, reasons: [`preemption: ${s.reasons.join(', ')}`] };
      return out.result ? { result: out.result, status } : { status };
    }
    return out;
  }

  /** PreEnqueue: only blocks pods while an asynchronous preemption runs (SchedulerAsyncPreemption, off in v1.32). */
  preEnqueue(_pod: Pod): MaybeStatus {
    return null;
  }

  /** With asynchronous preemption off, this plugin never rejects a pod, so it registers no events. */
  eventsToRegister(): ClusterEvent[] {
    return [];
  }

  /** calculateNumCandidates: percentage of the nodes (int32 arithmetic), at least the absolute, at most all. */
  calculateNumCandidates(numNodes: number): number {
    let n = Math.trunc((numNodes * this.args.minCandidateNodesPercentage) / 100);
    if (n < this.args.minCandidateNodesAbsolute) n = this.args.minCandidateNodesAbsolute;
    if (n > numNodes) n = numNodes;
    return n;
  }

  /** GetOffsetAndNumCandidates: offset uniformly in [0, numNodes) from the scheduler's seeded stream. */
  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number } {
    return { offset: this.handle.rng().int(0, numNodes), numCandidates: this.calculateNumCandidates(numNodes) };
  }

  candidatesToVictimsMap(candidates: readonly Candidate[]): Map<string, Victims> {
    const m = new Map<string, Victims>();
    for (const c of candidates) m.set(c.name, c.victims);
    return m;
  }

  /**
   * PodEligibleToPreemptOthers: not with preemptionPolicy Never; and not while
   * a lower-priority pod on its nominated node is still terminating because of
   * an earlier preemption (the room is coming) — unless that node now rejects
   * the pod outright, when it should look elsewhere.
   */
  podEligibleToPreemptOthers(pod: Pod, nominatedNodeStatus: MaybeStatus): { eligible: boolean; message: string } {
    if (pod.spec.preemptionPolicy === 'Never') return { eligible: false, message: 'not eligible due to preemptionPolicy=Never.' };
    const nom = pod.status?.nominatedNodeName;
    if (nom) {
      if (nominatedNodeStatus?.code === 'UnschedulableAndUnresolvable') return { eligible: true, message: '' };
      const ni = this.handle.nodes.get(nom);
      if (ni) {
        const prio = podPriority(pod);
        for (const pi of ni.pods) {
          if (podPriority(pi.pod) < prio && podTerminatingByPreemption(pi.pod)) {
            return { eligible: false, message: 'not eligible due to a terminating pod on the nominated node.' };
          }
        }
      }
    }
    return { eligible: true, message: '' };
  }

  /**
   * SelectVictimsOnNode: remove every lower-priority pod; if the pod then
   * fits, add them back most important first — PDB-violating ones before the
   * others — keeping each that still lets the pod fit. The rest are victims.
   */
  selectVictimsOnNode(state: CycleState, pod: Pod, nodeInfo: NodeInfo, pdbs: readonly PodDisruptionBudget[]): VictimSelection {
    const h = this.handle;
    const fail = (status: Status): VictimSelection => ({ victims: [], numPDBViolations: 0, status });
    const removePod = (pi: PodInfo): MaybeStatus => {
      if (!nodeInfo.removePod(pi.pod)) {
        return errorStatus(`no corresponding pod ${pi.pod.metadata.name ?? ''} in pods of node ${nodeInfo.name}`);
      }
      const s = h.runPreFilterExtensionRemovePod(state, pod, pi, nodeInfo);
      return s ? asError(s) : null;
    };
    const addPod = (pi: PodInfo): MaybeStatus => {
      nodeInfo.addPodInfo(pi);
      const s = h.runPreFilterExtensionAddPod(state, pod, pi, nodeInfo);
      return s ? asError(s) : null;
    };

    const prio = podPriority(pod);
    const potential: PodInfo[] = [];
    for (const pi of nodeInfo.pods) if (podPriority(pi.pod) < prio) potential.push(pi);
    for (const pi of potential) {
      const s = removePod(pi);
      if (s) return fail(s);
    }
    // Nothing to remove: the node's state did not change, so there is nothing to try.
    if (potential.length === 0) return fail(unresolvable('No preemption victims found for incoming pod'));

    // If the pod does not fit even without them, this node cannot help (affinity
    // to a victim is deliberately not considered, as upstream).
    const fits = h.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (fits) return fail(fits);

    const now = h.now();
    potential.sort((a, b) => (moreImportantPod(a.pod, b.pod, now) ? -1 : moreImportantPod(b.pod, a.pod, now) ? 1 : 0));
    const { violating, nonViolating } = filterPodsWithPDBViolation(potential, pdbs);
    const victims: Pod[] = [];
    let numViolating = 0;
    // Reprieve: does the pod still fit with pi back? If not, pi is a victim.
    const reprieve = (pi: PodInfo): { fits: boolean; error: MaybeStatus } => {
      const a = addPod(pi);
      if (a) return { fits: false, error: a };
      const ok = h.runFilterPluginsWithNominatedPods(state, pod, nodeInfo) === null;
      if (!ok) {
        const r = removePod(pi);
        if (r) return { fits: false, error: r };
        victims.push(pi.pod);
      }
      return { fits: ok, error: null };
    };
    for (const pi of violating) {
      const r = reprieve(pi);
      if (r.error) return fail(r.error);
      if (!r.fits) numViolating++;
    }
    for (const pi of nonViolating) {
      const r = reprieve(pi);
      if (r.error) return fail(r.error);
    }
    // Both groups were visited in importance order; merged, re-sort.
    if (violating.length > 0 && nonViolating.length > 0) sortByImportance(victims, now);
    return { victims, numPDBViolations: numViolating, status: null };
  }

  /** The default criteria apply. */
  orderedScoreFuncs(_nodesToVictims: Map<string, Victims>): NodeScoreFunc[] | null {
    return null;
  }
}

registerClass('PluginDefaultPreemption', DefaultPreemption);

export const defaultPreemptionDefinition: PluginDefinition<DefaultPreemptionArgs> = {
  name: DEFAULT_PREEMPTION_NAME,
  argsKind: 'DefaultPreemptionArgs',
  defaultArgs: defaultDefaultPreemptionArgs,
  validateArgs: validateDefaultPreemptionArgs,
  factory: (args, handle) => new DefaultPreemption(args, handle),
};
