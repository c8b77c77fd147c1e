// The Raft state machine (upstream raft.go, etcd-io/etcd raft/v3 at v3.5).
// Inputs: step(m) and tick(). Outputs pile up in `msgs` and `readStates` and
// leave through RawNode.ready(). Nothing here sends, writes or reads a clock.
//
// Upstream swaps function pointers (r.step = stepLeader, r.tick =
// tickHeartbeat) on every become*; we keep state in plain fields (snapshot-able)
// and dispatch on `state` instead.
import { registerClass } from '../../sim/serial';
import type { Rng } from '../../sim/rng';
import { applySimpleChange, restoreConfState } from './confChange';
import { voteResult, type VoteResult } from './quorum/majority';
import { RaftLog, noLimit } from './raftLog';
import { ReadOnly } from './readOnly';
import type { MemoryStorage } from './storage';
import { ProgressTracker } from './tracker/progressTracker';
import {
  ErrProposalDropped,
  None,
  type ConfChange,
  type ConfState,
  type Config,
  type DropReason,
  type Entry,
  type HardState,
  type Message,
  type MessageType,
  type RaftError,
  type RaftId,
  type RaftTraceEvent,
  type ReadState,
  type Snapshot,
  type SoftState,
  type StateType,
} from './types';
import {
  assertNever,
  isEmptyHardState,
  isEmptySnap,
  min,
  newMessage,
  panic,
  payloadSize,
  pushTrace,
  voteRespMsgType,
} from './util';

export type CampaignType = 'CampaignPreElection' | 'CampaignElection' | 'CampaignTransfer';

function validateConfig(c: Config): void {
  if (c.id === None) panic('cannot use none as id');
  if (c.heartbeatTick <= 0) panic('heartbeat tick must be greater than 0');
  if (c.electionTick <= c.heartbeatTick) panic('election tick must be greater than heartbeat tick');
  if (c.maxInflightMsgs <= 0) panic('max inflight messages must be greater than 0');
  if ((c.readOnlyOption ?? 'ReadOnlySafe') === 'ReadOnlyLeaseBased' && !c.checkQuorum) {
    panic('CheckQuorum must be enabled when ReadOnlyOption is ReadOnlyLeaseBased');
  }
}

export class Raft {
  id: RaftId;
  term = 0;
  vote: RaftId = None;
  readStates: ReadState[] = [];
  raftLog: RaftLog;
  maxMsgSize: number;
  maxUncommittedSize: number;
  prs: ProgressTracker;
  state: StateType = 'StateFollower';
  /** Whether this node is a learner in its current configuration. */
  isLearner = false;
  /** Messages to send (after persisting the Ready they leave in). */
  msgs: Message[] = [];
  lead: RaftId = None;
  /** Target of an ongoing leader transfer (raft thesis 3.10), or None. */
  leadTransferee: RaftId = None;
  /**
   * Only one conf change may be pending (in the log, not yet applied): a new one
   * is accepted only if the leader's applied index is above this.
   */
  pendingConfIndex = 0;
  /** Estimate of the leader's uncommitted tail size (bytes of data). */
  uncommittedSize = 0;
  readOnly: ReadOnly;
  /**
   * Leader/candidate: ticks since the last election timeout.
   * Follower: ticks since the last timeout or the last valid message from the leader.
   */
  electionElapsed = 0;
  /** Leader only: ticks since the last heartbeat. */
  heartbeatElapsed = 0;
  checkQuorum: boolean;
  preVote: boolean;
  heartbeatTimeout: number;
  electionTimeout: number;
  /** Uniform in [electionTimeout, 2*electionTimeout); redrawn on every become*. */
  randomizedElectionTimeout = 0;
  disableProposalForwarding: boolean;
  /** MsgReadIndex that arrived before this leader committed an entry of its term (answered once it has). */
  pendingReadIndexMessages: Message[] = [];
  rng: Rng;
  unsafeCommitPreviousTermEntries: boolean;
  trace: RaftTraceEvent[] = [];
  /** During bcastAppend: the next index whose entries were sliced last (0: none yet), and that slice; -1 otherwise. */
  private bcastFrom = -1;
  private bcastEnts: Entry[] | undefined = undefined;

  constructor(c: Config, storage: MemoryStorage) {
    validateConfig(c);
    this.id = c.id;
    this.maxMsgSize = c.maxSizePerMsg;
    const maxCommitted = c.maxCommittedSizePerReady ?? 0;
    this.raftLog = new RaftLog(storage, maxCommitted === 0 ? c.maxSizePerMsg : maxCommitted, this.trace, c.traceCommits ?? true);
    const { hardState: hs, confState: cs } = storage.initialState();
    const maxUncommitted = c.maxUncommittedEntriesSize ?? 0;
    this.maxUncommittedSize = maxUncommitted === 0 ? noLimit : maxUncommitted;
    this.prs = new ProgressTracker(c.maxInflightMsgs);
    this.electionTimeout = c.electionTick;
    this.heartbeatTimeout = c.heartbeatTick;
    this.checkQuorum = c.checkQuorum;
    this.preVote = c.preVote;
    this.readOnly = new ReadOnly(c.readOnlyOption ?? 'ReadOnlySafe');
    this.disableProposalForwarding = c.disableProposalForwarding ?? false;
    this.rng = c.rng;
    this.unsafeCommitPreviousTermEntries = c.unsafeCommitPreviousTermEntries ?? false;

    restoreConfState(this.prs, cs, this.raftLog.lastIndex());
    this.switchToConfig();

    if (!isEmptyHardState(hs)) this.loadState(hs);
    if (c.applied > 0) this.raftLog.appliedTo(c.applied);
    this.becomeFollower(this.term, None);
  }

  // ---- small accessors -------------------------------------------------

  hasLeader(): boolean {
    return this.lead !== None;
  }

  softState(): SoftState {
    return { lead: this.lead, raftState: this.state };
  }

  hardState(): HardState {
    return { term: this.term, vote: this.vote, commit: this.raftLog.committed };
  }

  record(ev: RaftTraceEvent): void {
    pushTrace(this.trace, ev);
  }

  drop(reason: DropReason, msgType: MessageType): void {
    this.record({ type: 'drop', reason, msgType });
  }

  /** Drains the trace; raftLog records into the same (new) array. */
  takeTrace(): RaftTraceEvent[] {
    const out = this.trace;
    if (out.length === 0) return noTraceEvents; // drained after every Ready: mostly empty
    this.trace = [];
    this.raftLog.trace = this.trace;
    return out;
  }

  // ---- sending -----------------------------------------------------------

  /** Queues m for sending, stamping From and (for non-vote messages) Term. */
  send(m: Message): void {
    if (m.from === None) m.from = this.id;
    if (m.type === 'MsgVote' || m.type === 'MsgVoteResp' || m.type === 'MsgPreVote' || m.type === 'MsgPreVoteResp') {
      if (m.term === 0) {
        // All {pre-,}campaign messages need to have the term set when sending.
        panic(`term should be set when sending ${m.type}`);
      }
    } else {
      if (m.term !== 0) panic(`term should not be set when sending ${m.type} (was ${m.term})`);
      // Proposals are forwarded as local messages; a MsgReadIndex is also
      // forwarded to the leader: neither carries a term.
      if (m.type !== 'MsgProp' && m.type !== 'MsgReadIndex') m.term = this.term;
    }
    this.msgs.push(m);
  }

  /** Sends an append with new entries (or a snapshot) to `to`. */
  sendAppend(to: RaftId): void {
    this.maybeSendAppend(to, true);
  }

  /**
   * Sends an append RPC with new entries to `to`, if any; returns whether a
   * message was sent. sendIfEmpty controls whether an append without entries
   * is sent (useful to convey a new commit index, not when batching).
   */
  maybeSendAppend(to: RaftId, sendIfEmpty: boolean): boolean {
    const pr = this.prs.progress.get(to);
    if (pr === undefined || pr.isPaused()) return false;
    // Nothing to send (the leader asks after every MsgAppResp): decide before building a message.
    if (!sendIfEmpty && pr.next > this.raftLog.lastIndex()) return false;
    const term = this.raftLog.term(pr.next - 1);
    let ents: Entry[] | RaftError;
    if (this.bcastFrom === pr.next) ents = this.bcastEnts!;
    else {
      ents = this.raftLog.entries(pr.next, this.maxMsgSize);
      if (this.bcastFrom >= 0 && Array.isArray(ents)) {
        this.bcastFrom = pr.next;
        this.bcastEnts = ents;
      }
    }
    if (Array.isArray(ents) && ents.length === 0 && !sendIfEmpty) return false;
    const m = newMessage('MsgApp', to);

    if (typeof term !== 'number' || !Array.isArray(ents)) {
      // send a snapshot if we failed to get the term or entries
      if (!pr.recentActive) {
        this.drop('recipientInactive', 'MsgSnap');
        return false;
      }
      m.type = 'MsgSnap';
      const snapshot = this.raftLog.snapshot();
      if (!('metadata' in snapshot)) {
        if (snapshot.type === 'ErrSnapshotTemporarilyUnavailable') {
          this.drop('snapshotUnavailable', 'MsgSnap');
          return false;
        }
        return panic(snapshot.message);
      }
      if (isEmptySnap(snapshot)) panic('need non-empty snapshot');
      m.snapshot = snapshot;
      pr.becomeSnapshot(snapshot.metadata.index);
    } else {
      m.index = pr.next - 1;
      m.logTerm = term;
      m.entries = ents;
      m.commit = this.raftLog.committed;
      const n = ents.length;
      if (n !== 0) {
        switch (pr.state) {
          case 'StateReplicate': {
            // optimistically increase the next when in StateReplicate
            const last = ents[n - 1]!.index;
            pr.optimisticUpdate(last);
            pr.inflights.add(last);
            break;
          }
          case 'StateProbe':
            pr.probeSent = true;
            break;
          case 'StateSnapshot':
            panic(`${this.id} is sending append in unhandled state ${pr.state}`);
            break;
          default:
            assertNever(pr.state);
        }
      }
    }
    this.send(m);
    return true;
  }

  /** Heartbeat to `to`, carrying min(match, committed) so an unmatched follower never commits past its log. */
  sendHeartbeat(to: RaftId, ctx: string): void {
    const pr = this.prs.progress.get(to)!;
    const m = newMessage('MsgHeartbeat', to);
    m.commit = min(pr.match, this.raftLog.committed);
    m.context = ctx;
    this.send(m);
  }

  bcastAppend(): void {
    // Followers at the same next index get the same (read-only) entries
    // array: one slice of the log per broadcast instead of one per follower.
    // The log does not change while the appends are built.
    this.bcastFrom = 0;
    for (const id of this.prs.ids) {
      if (id === this.id) continue;
      this.sendAppend(id);
    }
    this.bcastFrom = -1;
    this.bcastEnts = undefined;
  }

  bcastHeartbeat(): void {
    this.bcastHeartbeatWithCtx(this.readOnly.lastPendingRequestCtx());
  }

  bcastHeartbeatWithCtx(ctx: string): void {
    for (const id of this.prs.ids) {
      if (id === this.id) continue;
      this.sendHeartbeat(id, ctx);
    }
  }

  // ---- Ready/Advance bookkeeping ------------------------------------------

  /** Called by RawNode.advance once the Ready was persisted and its entries applied. */
  advance(rdCommittedEntries: readonly Entry[], rdEntries: readonly Entry[], rdSnapshot: Snapshot | undefined): void {
    this.reduceUncommittedSize(rdCommittedEntries);
    // If entries were applied (or a snapshot), update our cursor for the next
    // Ready. A new Commit in the HardState does not mean all new entries were
    // applied: committed entries are paginated by size.
    let newApplied = 0;
    const nc = rdCommittedEntries.length;
    if (nc > 0) newApplied = rdCommittedEntries[nc - 1]!.index;
    else if (rdSnapshot !== undefined && rdSnapshot.metadata.index > 0) newApplied = rdSnapshot.metadata.index;
    if (newApplied > 0) this.raftLog.appliedTo(newApplied);

    const ne = rdEntries.length;
    if (ne > 0) {
      const e = rdEntries[ne - 1]!;
      this.raftLog.stableTo(e.index, e.term);
    }
    if (!isEmptySnap(rdSnapshot)) this.raftLog.stableSnapTo(rdSnapshot!.metadata.index);
  }

  // ---- commit --------------------------------------------------------------

  /**
   * Advances the commit index to the quorum-matched index, but only if that
   * entry is from the current term (Raft §5.4.2 / Figure 8). The test-only
   * switch drops the term check.
   */
  maybeCommit(): boolean {
    const mci = this.prs.committed();
    if (this.unsafeCommitPreviousTermEntries) return this.raftLog.maybeCommitAnyTerm(mci);
    return this.raftLog.maybeCommit(mci, this.term);
  }

  // ---- state transitions ---------------------------------------------------

  reset(term: number): void {
    if (this.term !== term) {
      this.term = term;
      this.vote = None;
    }
    this.lead = None;
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.resetRandomizedElectionTimeout();
    this.abortLeaderTransfer();
    this.prs.resetVotes();
    const lastIndex = this.raftLog.lastIndex();
    for (const id of this.prs.ids) {
      const pr = this.prs.progress.get(id)!;
      pr.match = id === this.id ? lastIndex : 0;
      pr.next = lastIndex + 1;
      pr.state = 'StateProbe';
      pr.pendingSnapshot = 0;
      pr.recentActive = false;
      pr.probeSent = false;
      pr.inflights.reset();
    }
    this.pendingConfIndex = 0;
    this.uncommittedSize = 0;
    this.readOnly = new ReadOnly(this.readOnly.option);
  }

  appendEntry(es: Entry[]): boolean {
    let li = this.raftLog.lastIndex();
    for (let i = 0; i < es.length; i++) {
      const e = es[i]!;
      e.term = this.term;
      e.index = li + 1 + i;
    }
    // Track the size of this uncommitted proposal.
    if (!this.increaseUncommittedSize(es)) {
      // Drop the proposal.
      this.drop('uncommittedSizeExceeded', 'MsgProp');
      return false;
    }
    // use latest "last" index after truncate/append
    li = this.raftLog.append(es);
    this.prs.progress.get(this.id)!.maybeUpdate(li);
    // Regardless of maybeCommit's return, our caller will call bcastAppend.
    this.maybeCommit();
    return true;
  }

  /** Ticks: followers and candidates count towards an election; leaders send heartbeats. */
  tick(): void {
    switch (this.state) {
      case 'StateFollower':
      case 'StateCandidate':
      case 'StatePreCandidate':
        this.tickElection();
        break;
      case 'StateLeader':
        this.tickHeartbeat();
        break;
      default:
        assertNever(this.state);
    }
  }

  /** Run by followers and candidates after electionTimeout. */
  tickElection(): void {
    this.electionElapsed++;
    if (this.promotable() && this.pastElectionTimeout()) {
      this.electionElapsed = 0;
      this.step(localMessage('MsgHup', this.id));
    }
  }

  /** Run by leaders: MsgBeat every heartbeatTimeout, CheckQuorum every electionTimeout. */
  tickHeartbeat(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;

    if (this.electionElapsed >= this.electionTimeout) {
      this.electionElapsed = 0;
      if (this.checkQuorum) this.step(localMessage('MsgCheckQuorum', this.id));
      // If the current leader cannot transfer leadership in electionTimeout, it becomes leader again.
      if (this.state === 'StateLeader' && this.leadTransferee !== None) this.abortLeaderTransfer();
    }

    if (this.state !== 'StateLeader') return;

    if (this.heartbeatElapsed >= this.heartbeatTimeout) {
      this.heartbeatElapsed = 0;
      this.step(localMessage('MsgBeat', this.id));
    }
  }

  becomeFollower(term: number, lead: RaftId): void {
    this.reset(term);
    this.lead = lead;
    this.state = 'StateFollower';
    this.record({ type: 'become', state: 'StateFollower', term: this.term, lead });
  }

  becomeCandidate(): void {
    if (this.state === 'StateLeader') panic('invalid transition [leader -> candidate]');
    this.reset(this.term + 1);
    this.vote = this.id;
    this.state = 'StateCandidate';
    this.record({ type: 'become', state: 'StateCandidate', term: this.term, lead: None });
  }

  becomePreCandidate(): void {
    if (this.state === 'StateLeader') panic('invalid transition [leader -> pre-candidate]');
    // Becoming a pre-candidate changes our step functions and state, but
    // doesn't change anything else. In particular it does not increase
    // r.Term or change r.Vote.
    this.prs.resetVotes();
    this.lead = None;
    this.state = 'StatePreCandidate';
    this.record({ type: 'become', state: 'StatePreCandidate', term: this.term, lead: None });
  }

  becomeLeader(): void {
    if (this.state === 'StateFollower') panic('invalid transition [follower -> leader]');
    this.reset(this.term);
    this.lead = this.id;
    this.state = 'StateLeader';
    // Followers enter replicate mode when they've been successfully probed
    // (perhaps after having received a snapshot as a result). The leader is
    // trivially in this state. reset() already set its progress to the last index.
    this.prs.progress.get(this.id)!.becomeReplicate();
    // Conservatively set the pendingConfIndex to the last index in the log.
    // There may or may not be a pending config change, but it's safe to delay
    // any future proposals until we commit all our pending log entries, and
    // scanning the entire tail of the log could be expensive.
    this.pendingConfIndex = this.raftLog.lastIndex();
    const emptyEnt: Entry = { term: 0, index: 0, type: 'EntryNormal', data: '' };
    if (!this.appendEntry([emptyEnt])) {
      // This won't happen because we just called reset() above.
      panic('empty entry was dropped');
    }
    // The initial empty entry does not count towards the uncommitted log
    // quota (it has size 0 anyway).
    this.reduceUncommittedSize([emptyEnt]);
    this.record({ type: 'become', state: 'StateLeader', term: this.term, lead: this.id });
  }

  hup(t: CampaignType): void {
    if (this.state === 'StateLeader') {
      this.drop('alreadyLeader', 'MsgHup');
      return;
    }
    if (!this.promotable()) {
      this.drop('unpromotable', 'MsgHup');
      return;
    }
    if (this.raftLog.committed > this.raftLog.applied && this.raftLog.hasPendingConfInUnapplied()) {
      // cannot campaign while there are unapplied conf changes
      this.drop('pendingConfChange', 'MsgHup');
      return;
    }
    this.campaign(t);
  }

  /**
   * Starts a (pre-)election. Callers must check promotable() (hup does).
   */
  campaign(t: CampaignType): void {
    let term: number;
    let voteMsg: MessageType;
    if (t === 'CampaignPreElection') {
      this.becomePreCandidate();
      voteMsg = 'MsgPreVote';
      // PreVote RPCs are sent for the next term before we've incremented r.Term.
      term = this.term + 1;
    } else {
      this.becomeCandidate();
      voteMsg = 'MsgVote';
      term = this.term;
    }
    if (this.poll(this.id, voteRespMsgType(voteMsg), true).result === 'VoteWon') {
      // We won the election after voting for ourselves (which must mean that
      // this is a single-node cluster). Advance to the next state.
      if (t === 'CampaignPreElection') this.campaign('CampaignElection');
      else this.becomeLeader();
      return;
    }
    const lastIndex = this.raftLog.lastIndex();
    const lastTerm = this.raftLog.lastTerm();
    for (const id of this.prs.voters) {
      if (id === this.id) continue;
      const m = newMessage(voteMsg, id);
      m.term = term;
      m.index = lastIndex;
      m.logTerm = lastTerm;
      if (t === 'CampaignTransfer') m.context = t;
      this.send(m);
    }
  }

  poll(id: RaftId, _t: MessageType, v: boolean): { granted: number; rejected: number; result: VoteResult } {
    this.prs.recordVote(id, v);
    return this.prs.tallyVotes();
  }

  // ---- step ------------------------------------------------------------------

  step(m: Message): RaftError | undefined {
    // Handle the message term, which may result in our stepping down to a follower.
    if (m.term === 0) {
      // local message
    } else if (m.term > this.term) {
      if (m.type === 'MsgVote' || m.type === 'MsgPreVote') {
        const force = m.context === 'CampaignTransfer';
        const inLease = this.checkQuorum && this.lead !== None && this.electionElapsed < this.electionTimeout;
        if (!force && inLease) {
          // If a server receives a RequestVote request within the minimum
          // election timeout of hearing from a current leader, it does not
          // update its term or grant its vote.
          this.drop('leaseNotExpired', m.type);
          return undefined;
        }
      }
      if (m.type === 'MsgPreVote') {
        // Never change our term in response to a PreVote
      } else if (m.type === 'MsgPreVoteResp' && !m.reject) {
        // We send pre-vote requests with a term in our future. If the
        // pre-vote is granted, we will increment our term when we get a
        // quorum. If it is not, the term comes from the node that
        // rejected our vote so we should become a follower at the new term.
      } else if (m.type === 'MsgApp' || m.type === 'MsgHeartbeat' || m.type === 'MsgSnap') {
        this.becomeFollower(m.term, m.from);
      } else {
        this.becomeFollower(m.term, None);
      }
    } else if (m.term < this.term) {
      if ((this.checkQuorum || this.preVote) && (m.type === 'MsgHeartbeat' || m.type === 'MsgApp')) {
        // We have received messages from a leader at a lower term. It is
        // possible that these messages were simply delayed in the network, but
        // this could also mean that this node has advanced its term number
        // during a network partition, and it is now unable to either win an
        // election or to rejoin the majority on the old term. If checkQuorum is
        // false, this will be handled by incrementing term numbers in response
        // to MsgVote with a higher term, but if checkQuorum is true we may not
        // advance the term on MsgVote and must generate other messages to
        // advance the term. The net result of these two features is to
        // minimize the disruption caused by nodes that have been removed from
        // the cluster's configuration: a removed node will send MsgVotes (or
        // MsgPreVotes) which will be ignored, but it will not receive MsgApp or
        // MsgHeartbeat, so it will not create disruptive term increases, by
        // notifying leader of this node's activeness. The same holds for PreVote.
        this.send(newMessage('MsgAppResp', m.from));
      } else if (m.type === 'MsgPreVote') {
        // Before Pre-Vote enable, there may have candidate with higher term,
        // but less log. After update to Pre-Vote, the cluster may deadlock if
        // we drop messages with a lower term.
        const resp = newMessage('MsgPreVoteResp', m.from);
        resp.term = this.term;
        resp.reject = true;
        this.send(resp);
      } else {
        // ignore other cases
        this.drop('lowerTerm', m.type);
      }
      return undefined;
    }

    switch (m.type) {
      case 'MsgHup':
        this.hup(this.preVote ? 'CampaignPreElection' : 'CampaignElection');
        break;

      case 'MsgVote':
      case 'MsgPreVote': {
        // We can vote if this is a repeat of a vote we've already cast...
        const canVote =
          this.vote === m.from ||
          // ...we haven't voted and we don't think there's a leader yet in this term...
          (this.vote === None && this.lead === None) ||
          // ...or this is a PreVote for a future term...
          (m.type === 'MsgPreVote' && m.term > this.term);
        // ...and we believe the candidate is up to date.
        if (canVote && this.raftLog.isUpToDate(m.index, m.logTerm)) {
          // Learners must be allowed to cast votes: a learner may have been
          // promoted without having learned about it yet (upstream comment).
          // When responding to Msg{Pre,}Vote messages we include the term from
          // the message, not the local term: a pre-candidate ignores responses
          // from the past, and for pre-votes we did not update our term.
          const resp = newMessage(voteRespMsgType(m.type), m.from);
          resp.term = m.term;
          this.send(resp);
          if (m.type === 'MsgVote') {
            // Only record real votes.
            this.electionElapsed = 0;
            this.vote = m.from;
          }
        } else {
          const resp = newMessage(voteRespMsgType(m.type), m.from);
          resp.term = this.term;
          resp.reject = true;
          this.send(resp);
        }
        break;
      }

      default:
        switch (this.state) {
          case 'StateLeader':
            return this.stepLeader(m);
          case 'StateCandidate':
          case 'StatePreCandidate':
            return this.stepCandidate(m);
          case 'StateFollower':
            return this.stepFollower(m);
          default:
            return assertNever(this.state);
        }
    }
    return undefined;
  }

  private stepLeader(m: Message): RaftError | undefined {
    // These message types do not require any progress for m.From.
    switch (m.type) {
      case 'MsgBeat':
        this.bcastHeartbeat();
        return undefined;
      case 'MsgCheckQuorum': {
        // The leader should always see itself as active. As a precaution,
        // handle the case in which the leader isn't in the configuration any
        // more (for example if it just removed itself).
        const self = this.prs.progress.get(this.id);
        if (self !== undefined) self.recentActive = true;
        if (!this.prs.quorumActive()) {
          // stepped down to follower since quorum is not active
          this.becomeFollower(this.term, None);
        }
        // Mark everyone (but ourselves) as inactive in preparation for the next CheckQuorum.
        for (const id of this.prs.ids) {
          if (id !== this.id) this.prs.progress.get(id)!.recentActive = false;
        }
        return undefined;
      }
      case 'MsgProp': {
        if (m.entries.length === 0) panic(`${this.id} stepped empty MsgProp`);
        if (!this.prs.progress.has(this.id)) {
          // If we are not currently a member of the range (i.e. this node was
          // removed from the configuration while serving as leader), drop any
          // new proposals.
          this.drop('notInConfig', 'MsgProp');
          return ErrProposalDropped;
        }
        if (this.leadTransferee !== None) {
          this.drop('leaderTransferring', 'MsgProp');
          return ErrProposalDropped;
        }
        // Copy the entries: the message (and its entry objects) may be shared
        // with the sender; appendEntry stamps term and index.
        const es: Entry[] = new Array<Entry>(m.entries.length);
        for (let i = 0; i < m.entries.length; i++) {
          const src = m.entries[i]!;
          let e: Entry = { term: 0, index: 0, type: src.type, data: src.data };
          if (e.type === 'EntryConfChange') {
            const alreadyPending = this.pendingConfIndex > this.raftLog.applied;
            if (alreadyPending) {
              // possible unapplied conf change: refuse by turning it into an empty normal entry
              this.drop('pendingConfChange', 'MsgProp');
              e = { term: 0, index: 0, type: 'EntryNormal', data: '' };
            } else {
              this.pendingConfIndex = this.raftLog.lastIndex() + i + 1;
            }
          }
          es[i] = e;
        }
        if (!this.appendEntry(es)) return ErrProposalDropped;
        this.bcastAppend();
        return undefined;
      }
      case 'MsgReadIndex': {
        // only one voting member (the leader) in the cluster
        if (this.prs.isSingleton()) {
          const resp = this.responseToReadIndexReq(m, this.raftLog.committed);
          if (resp !== undefined) this.send(resp);
          return undefined;
        }
        // Postpone read only request when this leader has not committed any
        // log entry at its term.
        if (!this.committedEntryInCurrentTerm()) {
          this.pendingReadIndexMessages.push(m);
          return undefined;
        }
        this.sendMsgReadIndexResponse(m);
        return undefined;
      }
      default:
        break;
    }

    // All other message types require a progress for m.From (pr).
    const pr = this.prs.progress.get(m.from);
    if (pr === undefined) {
      this.drop('noProgress', m.type);
      return undefined;
    }
    switch (m.type) {
      case 'MsgAppResp': {
        pr.recentActive = true;
        if (m.reject) {
          // The follower rejected an append at m.index; m.rejectHint/m.logTerm
          // say where the logs could match. If the follower has an uncommitted
          // tail of higher terms, findConflictByTerm skips every index whose
          // term in our log is above the follower's hint term: a probe there
          // must fail too (at most one probe per term in our log).
          let nextProbeIdx = m.rejectHint;
          if (m.logTerm > 0) nextProbeIdx = this.raftLog.findConflictByTerm(m.rejectHint, m.logTerm);
          if (pr.maybeDecrTo(m.index, nextProbeIdx)) {
            if (pr.state === 'StateReplicate') pr.becomeProbe();
            this.sendAppend(m.from);
          }
        } else {
          const oldPaused = pr.isPaused();
          if (pr.maybeUpdate(m.index)) {
            if (pr.state === 'StateProbe') {
              pr.becomeReplicate();
            } else if (pr.state === 'StateSnapshot' && pr.match >= pr.pendingSnapshot) {
              // Transition back to replicating state via probing state (which
              // takes the snapshot into account).
              pr.becomeProbe();
              pr.becomeReplicate();
            } else if (pr.state === 'StateReplicate') {
              pr.inflights.freeLE(m.index);
            }

            if (this.maybeCommit()) {
              // committed index has progressed for the term, so it is safe to
              // respond to pending read index requests
              this.releasePendingReadIndexMessages();
              this.bcastAppend();
            } else if (oldPaused) {
              // If we were paused before, this node may be missing the latest
              // commit index, so send it.
              this.sendAppend(m.from);
            }
            // We've updated flow control information above, which may allow
            // us to send multiple (size-limited) in-flight messages at once
            // (such as when transitioning from probe to replicate, or when
            // freeTo() covers multiple messages). If we have more entries to
            // send, send as many messages as we can (without sending empty
            // messages for the commit index).
            while (this.maybeSendAppend(m.from, false)) {
              // keep sending
            }
            // Transfer leadership is in progress.
            if (m.from === this.leadTransferee && pr.match === this.raftLog.lastIndex()) {
              this.sendTimeoutNow(m.from);
            }
          }
        }
        break;
      }
      case 'MsgHeartbeatResp': {
        pr.recentActive = true;
        pr.probeSent = false;
        // free one slot for the full inflights window to allow progress.
        if (pr.state === 'StateReplicate' && pr.inflights.full()) pr.inflights.freeFirstOne();
        if (pr.match < this.raftLog.lastIndex()) this.sendAppend(m.from);

        if (this.readOnly.option !== 'ReadOnlySafe' || m.context.length === 0) return undefined;
        const acks = this.readOnly.recvAck(m.from, m.context);
        if (acks === undefined) return undefined;
        if (voteResult(this.prs.voters, acks) !== 'VoteWon') return undefined;
        const rss = this.readOnly.advance(m);
        for (const rs of rss) {
          const resp = this.responseToReadIndexReq(rs.req, rs.index);
          if (resp !== undefined) this.send(resp);
        }
        break;
      }
      case 'MsgSnapStatus': {
        if (pr.state !== 'StateSnapshot') return undefined;
        if (!m.reject) {
          pr.becomeProbe();
        } else {
          // NB: the order here matters or we'll be probing erroneously from
          // the snapshot index, but the snapshot never applied.
          pr.pendingSnapshot = 0;
          pr.becomeProbe();
        }
        // If snapshot finish, wait for the MsgAppResp from the remote node
        // before sending out the next MsgApp. If snapshot failure, wait for a
        // heartbeat interval before next try.
        pr.probeSent = true;
        break;
      }
      case 'MsgUnreachable': {
        // During optimistic replication, if the remote becomes unreachable,
        // there is huge probability that a MsgApp is lost.
        if (pr.state === 'StateReplicate') pr.becomeProbe();
        break;
      }
      case 'MsgTransferLeader': {
        if (pr.isLearner) {
          this.drop('transfereeIsLearner', m.type);
          return undefined;
        }
        const leadTransferee = m.from;
        const lastLeadTransferee = this.leadTransferee;
        if (lastLeadTransferee !== None) {
          if (lastLeadTransferee === leadTransferee) {
            // transfer to the same node is in progress
            this.drop('transferInProgress', m.type);
            return undefined;
          }
          this.abortLeaderTransfer();
        }
        if (leadTransferee === this.id) {
          this.drop('transferToSelf', m.type);
          return undefined;
        }
        // Transfer leadership should be finished in one electionTimeout, so reset r.electionElapsed.
        this.electionElapsed = 0;
        this.leadTransferee = leadTransferee;
        if (pr.match === this.raftLog.lastIndex()) {
          this.sendTimeoutNow(leadTransferee);
        } else {
          this.sendAppend(leadTransferee);
        }
        break;
      }
      default:
        break;
    }
    return undefined;
  }

  /** Shared by StateCandidate and StatePreCandidate; they differ in which vote responses count. */
  private stepCandidate(m: Message): RaftError | undefined {
    // Only handle vote responses corresponding to our candidacy (while in
    // StateCandidate, we may get stale MsgPreVoteResp messages in this term
    // from our pre-candidate state).
    const myVoteRespType: MessageType = this.state === 'StatePreCandidate' ? 'MsgPreVoteResp' : 'MsgVoteResp';
    switch (m.type) {
      case 'MsgProp':
        this.drop('noLeader', m.type);
        return ErrProposalDropped;
      case 'MsgApp':
        this.becomeFollower(m.term, m.from); // always m.term == r.term
        this.handleAppendEntries(m);
        break;
      case 'MsgHeartbeat':
        this.becomeFollower(m.term, m.from); // always m.term == r.term
        this.handleHeartbeat(m);
        break;
      case 'MsgSnap':
        this.becomeFollower(m.term, m.from); // always m.term == r.term
        this.handleSnapshot(m);
        break;
      case 'MsgTimeoutNow':
        this.drop('ignoredTimeoutNow', m.type);
        break;
      default:
        if (m.type === myVoteRespType) {
          const { result } = this.poll(m.from, m.type, !m.reject);
          if (result === 'VoteWon') {
            if (this.state === 'StatePreCandidate') {
              this.campaign('CampaignElection');
            } else {
              this.becomeLeader();
              this.bcastAppend();
            }
          } else if (result === 'VoteLost') {
            // pb.MsgPreVoteResp contains future term of pre-candidate
            // m.Term > r.Term; reuse r.Term
            this.becomeFollower(this.term, None);
          }
        }
        break;
    }
    return undefined;
  }

  private stepFollower(m: Message): RaftError | undefined {
    switch (m.type) {
      case 'MsgProp':
        if (this.lead === None) {
          this.drop('noLeader', m.type);
          return ErrProposalDropped;
        } else if (this.disableProposalForwarding) {
          this.drop('proposalForwardingDisabled', m.type);
          return ErrProposalDropped;
        }
        // Forward a copy: the incoming message object may be shared with its sender.
        this.send({ ...m, to: this.lead });
        break;
      case 'MsgApp':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleAppendEntries(m);
        break;
      case 'MsgHeartbeat':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleHeartbeat(m);
        break;
      case 'MsgSnap':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleSnapshot(m);
        break;
      case 'MsgTransferLeader':
        if (this.lead === None) {
          this.drop('noLeader', m.type);
          return undefined;
        }
        this.send({ ...m, to: this.lead });
        break;
      case 'MsgTimeoutNow':
        // Leadership transfers never use pre-vote even if r.preVote is true;
        // we know we are not recovering from a partition so there is no need
        // for the extra round trip.
        this.hup('CampaignTransfer');
        break;
      case 'MsgReadIndex':
        if (this.lead === None) {
          this.drop('noLeader', m.type);
          return undefined;
        }
        this.send({ ...m, to: this.lead });
        break;
      case 'MsgReadIndexResp':
        if (m.entries.length !== 1) {
          this.drop('invalidReadIndexResp', m.type);
          return undefined;
        }
        this.readStates.push({ index: m.index, requestCtx: m.entries[0]!.data });
        break;
      default:
        break;
    }
    return undefined;
  }

  handleAppendEntries(m: Message): void {
    if (m.index < this.raftLog.committed) {
      const resp = newMessage('MsgAppResp', m.from);
      resp.index = this.raftLog.committed;
      this.send(resp);
      return;
    }
    const mlastIndex = this.raftLog.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
    if (mlastIndex !== undefined) {
      const resp = newMessage('MsgAppResp', m.from);
      resp.index = mlastIndex;
      this.send(resp);
      return;
    }
    // Return a hint to the leader about the maximum index and term that the
    // two logs could be divergent at: the largest (index, term) in our log
    // with term <= the MsgApp's LogTerm and index <= its Index. This skips our
    // uncommitted tail with terms above the leader's.
    let hintIndex = min(m.index, this.raftLog.lastIndex());
    hintIndex = this.raftLog.findConflictByTerm(hintIndex, m.logTerm);
    const hintTerm = this.raftLog.term(hintIndex);
    if (typeof hintTerm !== 'number') panic(`term(${hintIndex}) must be valid, but got ${hintTerm.message}`);
    const resp = newMessage('MsgAppResp', m.from);
    resp.index = m.index;
    resp.reject = true;
    resp.rejectHint = hintIndex;
    resp.logTerm = hintTerm;
    this.send(resp);
  }

  handleHeartbeat(m: Message): void {
    this.raftLog.commitTo(m.commit);
    const resp = newMessage('MsgHeartbeatResp', m.from);
    resp.context = m.context;
    this.send(resp);
  }

  handleSnapshot(m: Message): void {
    const snap = m.snapshot;
    const resp = newMessage('MsgAppResp', m.from);
    if (snap !== undefined && this.restore(snap)) {
      resp.index = this.raftLog.lastIndex();
    } else {
      this.drop('staleSnapshot', m.type);
      resp.index = this.raftLog.committed;
    }
    this.send(resp);
  }

  /**
   * Recovers the state machine from a snapshot: the log and the configuration.
   * Returns false if the snapshot was ignored (obsolete, or we are not in it).
   */
  restore(s: Snapshot): boolean {
    if (s.metadata.index <= this.raftLog.committed) return false;
    if (this.state !== 'StateFollower') {
      // This is defense-in-depth: if the leader somehow ended up applying a
      // snapshot, it could move into a new term without moving into a
      // follower state. This should never fire.
      this.becomeFollower(this.term + 1, None);
      return false;
    }
    // More defense-in-depth: throw away snapshot if recipient is not in the config.
    const cs = s.metadata.confState;
    if (!cs.voters.includes(this.id) && !cs.learners.includes(this.id)) return false;

    // Now go ahead and actually restore.
    if (this.raftLog.matchTerm(s.metadata.index, s.metadata.term)) {
      // fast-forward commit to the snapshot
      this.raftLog.commitTo(s.metadata.index);
      return false;
    }

    this.raftLog.restore(s);

    // Reset the configuration and add the (potentially updated) peers in anew.
    this.prs = new ProgressTracker(this.prs.maxInflight);
    restoreConfState(this.prs, cs, this.raftLog.lastIndex());
    this.switchToConfig();

    const pr = this.prs.progress.get(this.id)!;
    pr.maybeUpdate(pr.next - 1); // TODO(tbg) upstream: untested and likely unneeded
    return true;
  }

  /** Whether this node can be promoted to leader: a voter with no pending snapshot. */
  promotable(): boolean {
    const pr = this.prs.progress.get(this.id);
    return pr !== undefined && !pr.isLearner && !this.raftLog.hasPendingSnapshot();
  }

  applyConfChange(cc: ConfChange): ConfState {
    applySimpleChange(this.prs, cc, this.raftLog.lastIndex());
    return this.switchToConfig();
  }

  /**
   * Reacts to the tracker's new configuration (after a restore or a conf
   * change): updates isLearner and, on a leader, commits/probes as needed.
   */
  switchToConfig(): ConfState {
    const cs = this.prs.confState();
    const pr = this.prs.progress.get(this.id);
    // Update whether the node itself is a learner, resetting to false when the node is removed.
    this.isLearner = pr !== undefined && pr.isLearner;

    if ((pr === undefined || this.isLearner) && this.state === 'StateLeader') {
      // This node is leader and was removed or demoted. v3.5 keeps leading
      // (and drops new proposals) until it steps down on its own.
      return cs;
    }
    // The remaining steps only make sense if this node is the leader and there are other nodes.
    if (this.state !== 'StateLeader' || cs.voters.length === 0) return cs;

    if (this.maybeCommit()) {
      // If the configuration change means that more entries are committed
      // now, broadcast/append to everyone in the updated config.
      this.bcastAppend();
    } else {
      // Otherwise, still probe the newly added replicas; there's no reason to
      // let them wait out a heartbeat interval (or the next incoming proposal).
      for (const id of this.prs.ids) this.maybeSendAppend(id, false);
    }
    // If the leadTransferee was removed or demoted, abort the leadership transfer.
    if (this.leadTransferee !== None && !this.prs.isVoter(this.leadTransferee)) this.abortLeaderTransfer();
    return cs;
  }

  loadState(state: HardState): void {
    if (state.commit < this.raftLog.committed || state.commit > this.raftLog.lastIndex()) {
      panic(`${this.id} state.commit ${state.commit} is out of range [${this.raftLog.committed}, ${this.raftLog.lastIndex()}]`);
    }
    this.raftLog.committed = state.commit;
    this.term = state.term;
    this.vote = state.vote;
  }

  /** Whether electionElapsed reached the randomized timeout. */
  pastElectionTimeout(): boolean {
    return this.electionElapsed >= this.randomizedElectionTimeout;
  }

  resetRandomizedElectionTimeout(): void {
    this.randomizedElectionTimeout = this.electionTimeout + this.rng.int(0, this.electionTimeout);
  }

  sendTimeoutNow(to: RaftId): void {
    this.send(newMessage('MsgTimeoutNow', to));
  }

  abortLeaderTransfer(): void {
    this.leadTransferee = None;
  }

  /** Whether this peer has committed an entry in its own term. */
  committedEntryInCurrentTerm(): boolean {
    return this.raftLog.zeroTermOnErrCompacted(this.raftLog.term(this.raftLog.committed)) === this.term;
  }

  /**
   * The response to a read index request. A request from this node itself
   * becomes a ReadState directly and undefined is returned.
   */
  responseToReadIndexReq(req: Message, readIndex: number): Message | undefined {
    if (req.from === None || req.from === this.id) {
      this.readStates.push({ index: readIndex, requestCtx: req.entries[0]!.data });
      return undefined;
    }
    const resp = newMessage('MsgReadIndexResp', req.from);
    resp.index = readIndex;
    resp.entries = req.entries;
    return resp;
  }

  /**
   * Whether the entries fit the uncommitted-size quota; records them if so.
   * Empty payloads are never refused (the new leader's empty entry).
   */
  increaseUncommittedSize(ents: readonly Entry[]): boolean {
    let s = 0;
    for (let i = 0; i < ents.length; i++) s += payloadSize(ents[i]!); // indexed: see RaftLog.findConflict
    if (this.uncommittedSize > 0 && s > 0 && this.uncommittedSize + s > this.maxUncommittedSize) {
      // If the uncommitted tail of the Raft log is empty, allow any size
      // proposal. Otherwise, limit the size of the uncommitted tail of the log
      // and drop any proposal that would push the size over the limit.
      return false;
    }
    this.uncommittedSize += s;
    return true;
  }

  reduceUncommittedSize(ents: readonly Entry[]): void {
    if (this.uncommittedSize === 0) return; // Fast-path for followers, who do not track or enforce the limit.
    let s = 0;
    for (let i = 0; i < ents.length; i++) s += payloadSize(ents[i]!); // indexed: see RaftLog.findConflict
    // uncommittedSize may underestimate the size of the uncommitted Raft log
    // tail but will never overestimate it. Saturate at 0.
    this.uncommittedSize = s > this.uncommittedSize ? 0 : this.uncommittedSize - s;
  }

  releasePendingReadIndexMessages(): void {
    if (!this.committedEntryInCurrentTerm()) return; // should be released only after first commit in current term
    const msgs = this.pendingReadIndexMessages;
    if (msgs.length === 0) return;
    this.pendingReadIndexMessages = [];
    for (const m of msgs) this.sendMsgReadIndexResponse(m);
  }

  sendMsgReadIndexResponse(m: Message): void {
    switch (this.readOnly.option) {
      // If more than the local vote is needed, go through a full broadcast.
      case 'ReadOnlySafe': {
        const ctx = m.entries[0]!.data;
        this.readOnly.addRequest(this.raftLog.committed, m);
        // The local node automatically acks the request.
        this.readOnly.recvAck(this.id, ctx);
        this.bcastHeartbeatWithCtx(ctx);
        break;
      }
      case 'ReadOnlyLeaseBased': {
        const resp = this.responseToReadIndexReq(m, this.raftLog.committed);
        if (resp !== undefined) this.send(resp);
        break;
      }
      default:
        assertNever(this.readOnly.option);
    }
  }
}

/** Shared, frozen empty drain of the trace. */
const noTraceEvents: RaftTraceEvent[] = Object.freeze([]) as unknown as RaftTraceEvent[];

function localMessage(type: MessageType, from: RaftId): Message {
  return newMessage(type, 0, from);
}

registerClass('Raft', Raft);
