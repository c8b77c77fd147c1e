// Decision records: what one scheduling cycle saw and decided, kept compact
// (flat typed arrays) so thousands of cycles fit in memory, and expanded to
// the JSON the API and the UI read on demand.
import type { Code, Status } from '../framework/status';
import type { RecordedInputs, ScoreInputs } from '../framework/scoreInputs';

export type { ScoreInputs, ResourceInput, MatchedTerm } from '../framework/scoreInputs';

export interface Verdict {
  plugin: string;
  code: Code;
  reason: string;
}

export interface PostFilterRecord {
  status: 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Error';
  message: string;
  nominatedNodeName?: string;
  candidates?: { node: string; victims: string[]; numPDBViolations: number }[];
  victims?: string[];
}

export interface DecisionRecord {
  cycle: number;
  /** Virtual time of the cycle, ms. */
  t: number;
  pod: string;
  uid: string;
  profile: string;
  /** Nodes in the cluster snapshot. */
  numAllNodes: number;
  /** numFeasibleNodesToFind (percentageOfNodesToScore applied). */
  numNodesToFind: number;
  percentageOfNodesToScore: number;
  /** Where the round-robin started. */
  startIndex: number;
  /** PreFilter's rejection, if any (then no node was evaluated). */
  preFilter?: Verdict;
  /** Plugins whose PreFilter narrowed the candidate nodes, and to how many. */
  preFilterNarrowedBy?: string[];
  preFilterNodes?: number;
  /** Filter plugins a PreFilter Skip switched off for this pod. */
  skippedFilters: string[];
  filterPlugins: string[];
  /** The nominated node tried first (from an earlier preemption). */
  nominatedNode?: string;
  /** Nodes evaluated, in evaluation order. */
  nodes: string[];
  /** Per evaluated node: the rejecting plugin's Status (its `plugin` set), or null if it passed every filter. */
  rejections: (Status | null)[];
  /** Indexes (into nodes) of the feasible nodes, in the order they were scored. */
  feasible: number[];
  /** Why scoring did not run, when it did not. */
  scoringSkipped?: string;
  scorePlugins: string[];
  skippedScores: string[];
  weights: number[];
  /** raw[f * P + p] for feasible node f and score plugin p. */
  raw?: Float64Array;
  normalized?: Float64Array;
  totals?: Float64Array;
  /**
   * inputs[p]: what score plugin p computed each feasible node's raw score
   * from (null: the plugin records none). Kept for recent cycles only.
   */
  inputs?: (RecordedInputs | null)[];
  /** The inputs were dropped to bound memory (an older cycle). */
  inputsDropped?: boolean;
  selected: string;
  /** The failure message (FitError text, or the error). */
  message: string;
  postFilter?: PostFilterRecord;
  /** What happened after the cycle: binding, or the failure. */
  outcome: 'Scheduled' | 'Binding' | 'Unschedulable' | 'Error' | 'BindingFailed';
  outcomeMessage?: string;
}

/** The JSON shape of GET /playground/v1/scheduler/decisions. */
export interface DecisionJson {
  cycle: number;
  time: string;
  profile: string;
  numAllNodes: number;
  numNodesToFind: number;
  evaluatedNodes: number;
  feasibleNodes: number;
  nominatedNode?: string;
  preFilter?: { plugin: string; code: Code; reason: string };
  nodes: Record<string, NodeDecisionJson>;
  selected: string;
  message: string;
  scoringSkipped?: string;
  postFilter?: PostFilterRecord;
  outcome: DecisionRecord['outcome'];
  outcomeMessage?: string;
  /** Set when this older cycle's score inputs are no longer kept. */
  inputsDropped?: boolean;
}

/** One evaluated node of a decision. */
export interface NodeDecisionJson {
  /** Filter plugin → "Success", "Skip" or the rejection's reason (plugins after the rejecting one did not run). */
  filters: Record<string, string>;
  /** Score plugin → its scores (feasible nodes only). */
  scores?: Record<string, { raw: number; normalized: number; weight: number; weighted: number }>;
  total?: number;
  /** Score plugin → what the raw score was computed from (plugins whose raw score is not self-explaining). */
  inputs?: Record<string, ScoreInputs>;
}
