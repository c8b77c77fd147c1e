// Data types of the Raft state machine, shaped like etcd's raftpb (v3.5) with
// camelCase names. Entry and snapshot payloads are opaque strings.
import type { Rng } from '../../sim/rng';

export type RaftId = number;
/** Placeholder id used when there is no leader / no vote (upstream `None`). */
export const None: RaftId = 0;

export type MessageType =
  | 'MsgHup'
  | 'MsgBeat'
  | 'MsgProp'
  | 'MsgApp'
  | 'MsgAppResp'
  | 'MsgVote'
  | 'MsgVoteResp'
  | 'MsgSnap'
  | 'MsgHeartbeat'
  | 'MsgHeartbeatResp'
  | 'MsgUnreachable'
  | 'MsgSnapStatus'
  | 'MsgCheckQuorum'
  | 'MsgTransferLeader'
  | 'MsgTimeoutNow'
  | 'MsgReadIndex'
  | 'MsgReadIndexResp'
  | 'MsgPreVote'
  | 'MsgPreVoteResp';

export type EntryType = 'EntryNormal' | 'EntryConfChange';

/** A log entry. `data` is opaque (JSON from the caller); '' means empty. Treat as immutable once appended. */
export interface Entry {
  term: number;
  index: number;
  type: EntryType;
  data: string;
}

export interface ConfState {
  voters: RaftId[];
  learners: RaftId[];
}

export interface SnapshotMetadata {
  index: number;
  term: number;
  confState: ConfState;
}

/**
 * The application's state at a snapshot's index, opaque to raft ('' when
 * none). etcd's is its key bucket (engine/etcd/mvcc/snapshot.ts).
 */
export type SnapshotData = string | object;

export interface Snapshot {
  metadata: SnapshotMetadata;
  data: SnapshotData;
}

export interface HardState {
  term: number;
  vote: RaftId;
  commit: number;
}

export type StateType = 'StateFollower' | 'StateCandidate' | 'StateLeader' | 'StatePreCandidate';

export interface SoftState {
  lead: RaftId;
  raftState: StateType;
}

export interface ReadState {
  index: number;
  requestCtx: string;
}

export interface Message {
  type: MessageType;
  to: RaftId;
  from: RaftId;
  term: number;
  logTerm: number;
  index: number;
  entries: Entry[];
  commit: number;
  snapshot?: Snapshot;
  reject: boolean;
  rejectHint: number;
  context: string;
}

export interface Ready {
  softState?: SoftState;
  hardState?: HardState;
  readStates: ReadState[];
  /** Entries to persist (append to storage) before the messages are sent. */
  entries: Entry[];
  /** Snapshot to persist (storage.applySnapshot) before the entries. */
  snapshot?: Snapshot;
  /** Entries to apply to the state machine, in order, bounded by maxCommittedSizePerReady. */
  committedEntries: Entry[];
  messages: Message[];
  mustSync: boolean;
}

export type ConfChangeType = 'ConfChangeAddNode' | 'ConfChangeRemoveNode' | 'ConfChangeAddLearnerNode';

export interface ConfChange {
  type: ConfChangeType;
  nodeId: RaftId;
  /** The proposer's id for matching the applied change to its waiter (upstream ConfChange.ID). */
  id?: number;
  /** Opaque to raft; etcd puts the member's JSON here (upstream ConfChange.Context). */
  context?: string;
}

export type ReadOnlyOption = 'ReadOnlySafe' | 'ReadOnlyLeaseBased';

export interface Config {
  id: RaftId;
  electionTick: number;
  heartbeatTick: number;
  /** Last applied index; set only when restarting (upstream Config.Applied). */
  applied: number;
  /** Max sum of entry data lengths per MsgApp; 0 = one entry per message; Infinity = no limit. */
  maxSizePerMsg: number;
  maxInflightMsgs: number;
  checkQuorum: boolean;
  preVote: boolean;
  /** Source of the election-timeout jitter (upstream uses a global rand). */
  rng: Rng;
  /** Bound on committedEntries per Ready; defaults to maxSizePerMsg as upstream. */
  maxCommittedSizePerReady?: number;
  /** Bound on the leader's uncommitted tail (sum of data lengths); 0/undefined = no limit (etcd's setting). */
  maxUncommittedEntriesSize?: number;
  readOnlyOption?: ReadOnlyOption;
  disableProposalForwarding?: boolean;
  /**
   * TEST-ONLY fault switch: the leader commits any index a quorum has matched,
   * regardless of the entry's term (the Raft paper's Figure 8 bug). Off by default.
   */
  unsafeCommitPreviousTermEntries?: boolean;
  /**
   * Whether each advance of the commit index is recorded as a 'commit' trace
   * event (default true). etcd members turn it off: they keep only role
   * changes, and views read commit and applied indexes from the node itself.
   */
  traceCommits?: boolean;
}

/** etcd v3.5 server defaults (etcdserver/raft.go + embed defaults). */
export const etcdDefaults = {
  electionTick: 10,
  heartbeatTick: 1,
  maxSizePerMsg: 1024 * 1024,
  maxInflightMsgs: 512,
  checkQuorum: true,
  preVote: true,
} as const;

export type RaftErrorType =
  | 'ErrProposalDropped'
  | 'ErrCompacted'
  | 'ErrUnavailable'
  | 'ErrSnapOutOfDate'
  | 'ErrStepLocalMsg'
  | 'ErrStepPeerNotFound'
  | 'ErrSnapshotTemporarilyUnavailable';

export type RaftError = { type: RaftErrorType; message: string };

function frozenError(type: RaftErrorType, message: string): RaftError {
  return Object.freeze({ type, message }) as RaftError;
}

// Upstream error texts (raft.go, storage.go, rawnode.go).
export const ErrProposalDropped = frozenError('ErrProposalDropped', 'raft proposal dropped');
export const ErrCompacted = frozenError('ErrCompacted', 'requested index is unavailable due to compaction');
export const ErrSnapOutOfDate = frozenError('ErrSnapOutOfDate', 'requested index is older than the existing snapshot');
export const ErrUnavailable = frozenError('ErrUnavailable', 'requested entry at index is unavailable');
export const ErrSnapshotTemporarilyUnavailable = frozenError(
  'ErrSnapshotTemporarilyUnavailable',
  'snapshot is temporarily unavailable',
);
export const ErrStepLocalMsg = frozenError('ErrStepLocalMsg', 'raft: cannot step raft local message');
export const ErrStepPeerNotFound = frozenError('ErrStepPeerNotFound', 'raft: cannot step as peer not found');

export function isRaftError(x: unknown): x is RaftError {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && typeof (x as RaftError).type === 'string' && 'message' in x;
}

/** Why a message or request was ignored; recorded where upstream logs and drops. */
export type DropReason =
  | 'lowerTerm'
  | 'leaseNotExpired'
  | 'alreadyLeader'
  | 'unpromotable'
  | 'pendingConfChange'
  | 'notInConfig'
  | 'leaderTransferring'
  | 'uncommittedSizeExceeded'
  | 'noProgress'
  | 'noLeader'
  | 'proposalForwardingDisabled'
  | 'ignoredTimeoutNow'
  | 'staleSnapshot'
  | 'transfereeIsLearner'
  | 'transferToSelf'
  | 'transferInProgress'
  | 'snapshotUnavailable'
  | 'recipientInactive'
  | 'localMsg'
  | 'peerNotFound'
  | 'invalidReadIndexResp';

/** Structured facts for the Raft panel, drained through RawNode.takeTraceEvents(). */
export type RaftTraceEvent =
  | { type: 'become'; state: StateType; term: number; lead: RaftId }
  /** `term` is the log term of the entry at `index` (the newly committed index). */
  | { type: 'commit'; index: number; term: number }
  | { type: 'drop'; reason: DropReason; msgType: MessageType };

export type ProgressStateType = 'StateProbe' | 'StateReplicate' | 'StateSnapshot';

export interface ProgressStatus {
  match: number;
  next: number;
  state: ProgressStateType;
  recentActive: boolean;
  pendingSnapshot: number;
}

export interface Status {
  id: RaftId;
  term: number;
  vote: RaftId;
  commit: number;
  applied: number;
  lead: RaftId;
  raftState: StateType;
  lastIndex: number;
  electionElapsed: number;
  randomizedElectionTimeout: number;
  electionTimeout: number;
  leadTransferee: RaftId;
  progress?: Record<RaftId, ProgressStatus>;
}
