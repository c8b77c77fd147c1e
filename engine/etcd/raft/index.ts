// Public surface of the Raft state machine (etcd-io/raft v3.5 semantics).
export * from './types';
export { MemoryStorage } from './storage';
export { RawNode } from './rawNode';
export { Raft, type CampaignType } from './raft';
export { RaftLog } from './raftLog';
export { Unstable } from './logUnstable';
export { ProgressTracker } from './tracker/progressTracker';
export { Progress } from './tracker/progress';
export { Inflights } from './tracker/inflights';
export { ReadOnly } from './readOnly';
export { committedIndex, voteResult, type VoteResult } from './quorum/majority';
export { encodeConfChange, decodeConfChange } from './confChange';
export { isLocalMsg, isResponseMsg, isEmptySnap, isEmptyHardState, newMessage, assertNever } from './util';
