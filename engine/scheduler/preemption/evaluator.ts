// preemption.Evaluator (pkg/scheduler/framework/preemption/preemption.go,
// v1.32): the steps every preemption plugin shares. Preempt checks that the
// pod may preempt, dry-runs victim selection on the nodes where preemption
// might help (starting at a random offset, until enough candidates), picks
// the best candidate and returns the REST calls that preempt its victims.
//
// Differences from upstream, all deliberate: the dry run is sequential (so
// the candidates found are deterministic); extenders are not modelled; pods
// waiting at Permit are not rejected in memory (they are deleted like the rest);
// the preemptor is not re-read from a pod lister (the caller passes the
// latest copy).
import { registerClass } from '../../sim/serial';
import { podKey, podPriority, type Pod } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { Handle, NodeToStatus, PostFilterAction, PostFilterResult } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { errorStatus, unresolvable, unschedulable, type MaybeStatus, type Status } from '../framework/status';
import { fitErrorMessage } from './fitError';
import { snapshotNodeInfo } from './nodeInfoSnapshot';
import { listPodDisruptionBudgets } from './pdb';
import { pickOneNodeForPreemption } from './pickOneNode';
import { clearNominatedNodeNameActions, preemptPodActions } from './prepare';
import type { Candidate, PodDisruptionBudget, PreemptionInterface, Victims } from './types';
import { aggregateMessage } from './util';

/** framework.NewDefaultNodeToStatus: nodes missing from the map were not worth trying. */
export const DEFAULT_ABSENT_STATUS: Status = Object.freeze({ code: 'UnschedulableAndUnresolvable', reasons: [] }) as Status;

const NOT_HELPFUL = 'Preemption is not helpful for scheduling';

export interface PreemptOutcome {
  /** Absent: leave the pod's nominatedNodeName as it is. */
  result?: PostFilterResult;
  status: MaybeStatus;
}

export interface DryRunOutcome {
  /** Candidates without PDB violations first, then those with. */
  candidates: Candidate[];
  /** Why each rejected node was rejected. */
  statuses: NodeToStatus;
  /** Messages of Error statuses. */
  errors: string[];
  /** Nodes evaluated, in order (for records and tests). */
  evaluated: string[];
}

export class Evaluator {
  constructor(
    readonly pluginName: string,
    readonly handle: Handle,
    readonly iface: PreemptionInterface,
  ) {}

  /**
   * Evaluator.Preempt. `absentNodesStatus` is the status of nodes missing
   * from `m` (upstream's NodeToStatus.AbsentNodesStatus), by default
   * UnschedulableAndUnresolvable.
   */
  preempt(state: CycleState, pod: Pod, m: NodeToStatus, absentNodesStatus: Status = DEFAULT_ABSENT_STATUS): PreemptOutcome {
    // 1) Is the pod allowed to preempt?
    const nominated = pod.status?.nominatedNodeName ?? '';
    const nominatedStatus = m.get(nominated) ?? absentNodesStatus;
    const elig = this.iface.podEligibleToPreemptOthers(pod, nominatedStatus);
    if (!elig.eligible) return { status: unschedulable(elig.message) };

    // 2) Candidates.
    const allNodes = this.handle.nodes.list();
    const found = this.findCandidates(state, allNodes, pod, m, absentNodesStatus);
    if (found.error !== undefined && found.candidates.length === 0) return { status: errorStatus(found.error) };
    if (found.candidates.length === 0) {
      // A FitError over the dry run's statuses; every node it did not try was not worth trying.
      const msg = fitErrorMessage(allNodes.length, found.statuses, unresolvable(NOT_HELPFUL));
      return { result: { nominatedNodeName: '' }, status: unschedulable(msg) };
    }

    // 3) Extenders would filter candidates here; none are modelled.
    // 4) The best candidate.
    const best = this.selectCandidate(found.candidates);
    if (!best || best.name === '') return { status: unschedulable('no candidate node for preemption') };

    // 5) Preempt its victims.
    const actions = this.prepareCandidate(best, pod);
    return {
      result: {
        nominatedNodeName: best.name,
        candidates: found.candidates.map((c) => ({ node: c.name, victims: c.victims.pods.map(podKey), numPDBViolations: c.victims.numPDBViolations })),
        victims: best.victims.pods.map(podKey),
        actions,
      },
      status: null,
    };
  }

  /**
   * findCandidates: the nodes whose filter status is Unschedulable (not
   * UnschedulableAndUnresolvable) may be helped by removing pods; dry-run
   * them from a random offset. `error` reports a failure (with candidates, it is ignored).
   */
  findCandidates(
    state: CycleState,
    allNodes: readonly NodeInfo[],
    pod: Pod,
    m: NodeToStatus,
    absentNodesStatus: Status = DEFAULT_ABSENT_STATUS,
  ): { candidates: Candidate[]; statuses: NodeToStatus; error?: string } {
    if (allNodes.length === 0) return { candidates: [], statuses: new Map(), error: 'no nodes available' };
    const potential = nodesWherePreemptionMightHelp(allNodes, m, absentNodesStatus);
    if (potential.length === 0) return { candidates: [], statuses: new Map() };
    const pdbs = listPodDisruptionBudgets(this.handle);
    const { offset, numCandidates } = this.iface.getOffsetAndNumCandidates(potential.length);
    const run = this.dryRunPreemption(state, pod, potential, pdbs, offset, numCandidates);
    return { candidates: run.candidates, statuses: run.statuses, ...(run.errors.length > 0 ? { error: aggregateMessage(run.errors) } : {}) };
  }

  /**
   * DryRunPreemption: selects victims on each potential node (a copy of its
   * NodeInfo and of the cycle state), from `offset` round the list, until
   * there is at least one candidate without PDB violations and
   * `numCandidates` in all. Each list keeps at most `numCandidates`.
   */
  dryRunPreemption(
    state: CycleState,
    pod: Pod,
    potentialNodes: readonly NodeInfo[],
    pdbs: readonly PodDisruptionBudget[],
    offset: number,
    numCandidates: number,
  ): DryRunOutcome {
    const nonViolating: Candidate[] = [];
    const violating: Candidate[] = [];
    const statuses: NodeToStatus = new Map();
    const errors: string[] = [];
    const evaluated: string[] = [];
    const n = potentialNodes.length;
    for (let i = 0; i < n; i++) {
      const nodeInfo = snapshotNodeInfo(potentialNodes[(offset + i) % n]!);
      const name = nodeInfo.node?.metadata.name ?? nodeInfo.name;
      evaluated.push(name);
      const sel = this.iface.selectVictimsOnNode(state.clone(), pod, nodeInfo, pdbs);
      if (sel.status === null && sel.victims.length > 0) {
        const c: Candidate = { name, victims: { pods: sel.victims, numPDBViolations: sel.numPDBViolations } };
        const list = sel.numPDBViolations === 0 ? nonViolating : violating;
        if (list.length < numCandidates) list.push(c);
        if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
        continue;
      }
      const status = sel.status ?? errorStatus(`expected at least one victim pod on node "${name}"`);
      if (status.code === 'Error') errors.push(status.reasons.join(', '));
      statuses.set(name, status);
    }
    return { candidates: [...nonViolating, ...violating], statuses, errors, evaluated };
  }

  /** SelectCandidate: one candidate is the answer; several go through pickOneNodeForPreemption. */
  selectCandidate(candidates: readonly Candidate[]): Candidate | undefined {
    if (candidates.length <= 1) return candidates[0];
    const victimsMap = this.iface.candidatesToVictimsMap(candidates);
    const node = pickOneNodeForPreemption(victimsMap, this.iface.orderedScoreFuncs(victimsMap), this.handle.now());
    const victims: Victims | undefined = victimsMap.get(node);
    // Should not happen: fall back to the first candidate, as upstream does.
    return victims ? { name: node, victims } : candidates[0];
  }

  /**
   * prepareCandidate: preempt every victim, then clear the nomination of
   * lower-priority pods nominated to the node (they may no longer fit there;
   * the update sends them back to the active queue).
   */
  prepareCandidate(c: Candidate, pod: Pod): PostFilterAction[] {
    const now = this.handle.now();
    const actions: PostFilterAction[] = [];
    for (const victim of c.victims.pods) actions.push(...preemptPodActions(pod, victim, c.name, now));
    actions.push(...clearNominatedNodeNameActions(lowerPriorityNominatedPods(this.handle, pod, c.name)));
    return actions;
  }
}

/** NodeToStatus.NodesForStatusCode(Unschedulable), in node list order. */
export function nodesWherePreemptionMightHelp(allNodes: readonly NodeInfo[], m: NodeToStatus, absent: Status): NodeInfo[] {
  const out: NodeInfo[] = [];
  for (const ni of allNodes) {
    const s = m.get(ni.node?.metadata.name ?? ni.name) ?? absent;
    if (s.code === 'Unschedulable') out.push(ni);
  }
  return out;
}

/** getLowerPriorityNominatedPods */
export function lowerPriorityNominatedPods(handle: Handle, pod: Pod, nodeName: string): Pod[] {
  const prio = podPriority(pod);
  const out: Pod[] = [];
  for (const pi of handle.nominatedPodsForNode(nodeName)) if (podPriority(pi.pod) < prio) out.push(pi.pod);
  return out;
}

registerClass('SchedulerPreemptionEvaluator', Evaluator);
