// The evaluator's vocabulary (pkg/scheduler/framework/preemption/preemption.go,
// k8s.io/kube-scheduler/extender/v1 Victims, v1.32): a candidate is a node the
// preemptor could run on once its victims are gone.
import type { KObject } from '../../apimachinery/types';
import type { LabelSelector } from '../../apimachinery/selectors/labels';
import type { Pod } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { NodeInfo } from '../framework/nodeInfo';
import type { MaybeStatus } from '../framework/status';

/** extenderv1.Victims: the pods to preempt (most important first) and how many of them break a PDB. */
export interface Victims {
  pods: Pod[];
  numPDBViolations: number;
}

/** preemption.Candidate */
export interface Candidate {
  name: string;
  victims: Victims;
}

/** The policy/v1 PodDisruptionBudget fields preemption reads. */
export interface PodDisruptionBudget extends KObject {
  spec?: { selector?: LabelSelector | null; minAvailable?: number | string; maxUnavailable?: number | string };
  status?: { disruptionsAllowed?: number; disruptedPods?: Record<string, string> | null };
}

/** SelectVictimsOnNode's answer; `status` null is success. */
export interface VictimSelection {
  victims: Pod[];
  numPDBViolations: number;
  status: MaybeStatus;
}

/** A score function over candidate node names (higher wins). */
export type NodeScoreFunc = (node: string) => number;

/**
 * preemption.Interface: what a preemption plugin supplies to the evaluator.
 * DefaultPreemption implements it; another plugin could change any step.
 */
export interface PreemptionInterface {
  /** A random offset into the potential nodes and how many candidates to shortlist. */
  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number };
  candidatesToVictimsMap(candidates: readonly Candidate[]): Map<string, Victims>;
  /** Whether the pod may preempt, and if not, why (upstream's message). */
  podEligibleToPreemptOthers(pod: Pod, nominatedNodeStatus: MaybeStatus): { eligible: boolean; message: string };
  /** `state` and `nodeInfo` are copies the method may change. */
  selectVictimsOnNode(state: CycleState, pod: Pod, nodeInfo: NodeInfo, pdbs: readonly PodDisruptionBudget[]): VictimSelection;
  /** Custom node ordering; null means the default criteria. */
  orderedScoreFuncs(nodesToVictims: Map<string, Victims>): NodeScoreFunc[] | null;
}
