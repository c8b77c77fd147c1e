// RawNode: the thread-unsafe Node of etcd-io/raft (rawnode.go + node.go's
// Ready construction, v3.5, synchronous storage writes). The caller:
//   1. feeds step(m) / tick() / propose(...),
//   2. while hasReady(): rd = ready(); persists rd.snapshot, rd.hardState and
//      rd.entries to the MemoryStorage; sends rd.messages; applies
//      rd.committedEntries (calling applyConfChange for conf changes);
//   3. calls advance(rd).
import { registerClass } from '../../sim/serial';
import { encodeConfChange } from './confChange';
import { Raft } from './raft';
import type { MemoryStorage } from './storage';
import {
  ErrStepLocalMsg,
  ErrStepPeerNotFound,
  None,
  type ConfChange,
  type ConfState,
  type Config,
  type HardState,
  type Message,
  type ProgressStatus,
  type RaftError,
  type RaftId,
  type RaftTraceEvent,
  type ReadState,
  type Ready,
  type SoftState,
  type Status,
} from './types';
import {
  isEmptyHardState,
  isHardStateEqual,
  isLocalMsg,
  isResponseMsg,
  mustSync,
  newMessage,
  panic,
} from './util';

/** Shared empty list for Readys without read states (never mutated). */
const noReadStates: ReadState[] = Object.freeze([]) as unknown as ReadState[];

export class RawNode {
  /** The state machine; public for inspection by tests and the UI (treat as read-only). */
  raft: Raft;
  prevSoftSt: SoftState;
  prevHardSt: HardState;

  /** Starts (or restarts, when the storage holds a hard state / snapshot / log) a node. */
  constructor(config: Config, storage: MemoryStorage) {
    this.raft = new Raft(config, storage);
    this.prevSoftSt = this.raft.softState();
    this.prevHardSt = this.raft.hardState();
  }

  /**
   * Initializes an empty storage for a new cluster with the given voters, the
   * way etcd's StartNode does (upstream bootstrap.go): one committed
   * ConfChangeAddNode entry per peer at term 1, returned in the first Ready.
   */
  bootstrap(peers: readonly RaftId[]): void {
    if (peers.length === 0) panic('must provide at least one peer to Bootstrap');
    const r = this.raft;
    if (r.raftLog.storage.lastIndex() !== 0) panic("can't bootstrap a nonempty Storage");
    // We're bootstrapping the peers: the ConfChange entries must show up in
    // the next Ready even though the hard state is synthetic.
    this.prevHardSt = { term: 0, vote: 0, commit: 0 };
    r.becomeFollower(1, None);
    const ents = peers.map((id, i) => ({
      term: 1,
      index: i + 1,
      type: 'EntryConfChange' as const,
      data: encodeConfChange({ type: 'ConfChangeAddNode', nodeId: id }),
    }));
    r.raftLog.append(ents);
    // Commit these entries directly: the application applies them from the
    // first Ready (applying them twice is harmless).
    r.raftLog.committed = ents.length;
    for (const id of peers) r.applyConfChange({ type: 'ConfChangeAddNode', nodeId: id });
  }

  /** Advances the internal logical clock by one tick. */
  tick(): void {
    this.raft.tick();
  }

  /** Causes this node to transition to candidate (pre-candidate with PreVote) state. */
  campaign(): void {
    this.raft.step(newMessage('MsgHup', 0));
  }

  /** Proposes data to be appended to the raft log. */
  propose(data: string): RaftError | undefined {
    const m = newMessage('MsgProp', 0, this.raft.id);
    m.entries = [{ term: 0, index: 0, type: 'EntryNormal', data }];
    return this.raft.step(m);
  }

  /** Proposes a membership change (EntryConfChange whose data is JSON of the ConfChange). */
  proposeConfChange(cc: ConfChange): RaftError | undefined {
    const m = newMessage('MsgProp', 0);
    m.entries = [{ term: 0, index: 0, type: 'EntryConfChange', data: encodeConfChange(cc) }];
    return this.raft.step(m);
  }

  /** Applies a committed conf change to the local node; returns the new ConfState. */
  applyConfChange(cc: ConfChange): ConfState {
    return this.raft.applyConfChange(cc);
  }

  /** Advances the state machine using the given message from the network. */
  step(m: Message): RaftError | undefined {
    // ignore unexpected local messages receiving over network
    if (isLocalMsg(m.type)) {
      this.raft.drop('localMsg', m.type);
      return ErrStepLocalMsg;
    }
    if (this.raft.prs.progress.has(m.from) || !isResponseMsg(m.type)) return this.raft.step(m);
    this.raft.drop('peerNotFound', m.type);
    return ErrStepPeerNotFound;
  }

  /** Requests a read state (ReadIndex); the ReadState shows up in a later Ready with this ctx. */
  readIndex(ctx: string): void {
    const m = newMessage('MsgReadIndex', 0);
    m.entries = [{ term: 0, index: 0, type: 'EntryNormal', data: ctx }];
    this.raft.step(m);
  }

  /** Tries to transfer leadership to the given transferee. */
  transferLeader(transferee: RaftId): void {
    this.raft.step(newMessage('MsgTransferLeader', 0, transferee));
  }

  /** Reports that the given node was not reachable for the last send. */
  reportUnreachable(id: RaftId): void {
    this.raft.step(newMessage('MsgUnreachable', 0, id));
  }

  /** Reports the status of a sent snapshot (failed = SnapshotFailure). */
  reportSnapshot(id: RaftId, failed: boolean): void {
    const m = newMessage('MsgSnapStatus', 0, id);
    m.reject = failed;
    this.raft.step(m);
  }

  /** Whether ready() would return something new (cheap: no allocation of entries). */
  hasReady(): boolean {
    const r = this.raft;
    if (r.lead !== this.prevSoftSt.lead || r.state !== this.prevSoftSt.raftState) return true;
    // hard state changed (compared field by field: this runs after every step)
    const prev = this.prevHardSt;
    const commit = r.raftLog.committed;
    if ((r.term !== 0 || r.vote !== 0 || commit !== 0) && (r.term !== prev.term || r.vote !== prev.vote || commit !== prev.commit)) {
      return true;
    }
    if (r.raftLog.hasPendingSnapshot()) return true;
    if (r.msgs.length > 0 || r.raftLog.hasUnstableEntries() || r.raftLog.hasNextEnts()) return true;
    if (r.readStates.length !== 0) return true;
    return false;
  }

  /**
   * The current point-in-time state. The caller must persist and apply it,
   * then call advance(rd). Messages and read states are handed over now.
   */
  ready(): Ready {
    const r = this.raft;
    const prevHs = this.prevHardSt;
    // A new HardState object only when it changed (most Readys of a follower
    // under load carry one, many of a leader's do not).
    const hsChanged = r.term !== prevHs.term || r.vote !== prevHs.vote || r.raftLog.committed !== prevHs.commit;
    const hs = hsChanged ? r.hardState() : prevHs;
    const rd: Ready = {
      softState: undefined,
      hardState: undefined,
      readStates: r.readStates.length !== 0 ? r.readStates : noReadStates,
      entries: r.raftLog.unstableEntries(),
      snapshot: r.raftLog.unstable.snapshot,
      committedEntries: r.raftLog.nextEnts(),
      messages: r.msgs,
      mustSync: false,
    };
    if (r.lead !== this.prevSoftSt.lead || r.state !== this.prevSoftSt.raftState) rd.softState = r.softState();
    if (hsChanged) rd.hardState = hs;
    rd.mustSync = mustSync(hs, prevHs, rd.entries.length);
    // acceptReady
    if (rd.softState !== undefined) this.prevSoftSt = rd.softState;
    if (rd.readStates.length !== 0) r.readStates = [];
    r.msgs = [];
    return rd;
  }

  /** Notifies the node that the Ready was persisted and its committed entries applied. */
  advance(rd: Ready): void {
    if (rd.hardState !== undefined && !isEmptyHardState(rd.hardState)) this.prevHardSt = rd.hardState;
    this.raft.advance(rd.committedEntries, rd.entries, rd.snapshot);
  }

  status(): Status {
    const r = this.raft;
    const s: Status = {
      id: r.id,
      term: r.term,
      vote: r.vote,
      commit: r.raftLog.committed,
      applied: r.raftLog.applied,
      lead: r.lead,
      raftState: r.state,
      lastIndex: r.raftLog.lastIndex(),
      electionElapsed: r.electionElapsed,
      randomizedElectionTimeout: r.randomizedElectionTimeout,
      electionTimeout: r.electionTimeout,
      leadTransferee: r.leadTransferee,
    };
    if (r.state === 'StateLeader') {
      const progress: Record<RaftId, ProgressStatus> = {};
      for (const id of r.prs.ids) {
        const pr = r.prs.progress.get(id)!;
        progress[id] = {
          match: pr.match,
          next: pr.next,
          state: pr.state,
          recentActive: pr.recentActive,
          pendingSnapshot: pr.pendingSnapshot,
        };
      }
      s.progress = progress;
    }
    return s;
  }

  /** Drains the structured trace events recorded since the last call. */
  takeTraceEvents(): RaftTraceEvent[] {
    return this.raft.takeTrace();
  }
}

registerClass('RaftRawNode', RawNode);
