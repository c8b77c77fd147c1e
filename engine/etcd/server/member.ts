// An etcd member: Raft (engine/etcd/raft) + the applied KV state machine
// (engine/etcd/mvcc, lease) + the request handling of etcdserver, as an actor on
// the simulated network. Modelled on etcd v3.5 server/etcdserver/{raft.go,
// server.go, v3_server.go, apply.go}.
//
// The Ready loop follows etcdserver/raft.go: a leader sends its messages before
// its WAL write completes (it may replicate in parallel with its own fsync); a
// follower persists first, then sends ("persist before respond"). Committed
// entries are applied once the Ready is durable, then Advance().
import type { Actor, ActorEnv, ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerActorKind } from '../../sim/kernel';
import { hashString } from '../../sim/rng';
import { registerClass } from '../../sim/serial';
import * as errors from '../api/errors';
import type { EtcdError } from '../api/errors';
import { isEtcdError } from '../api/errors';
import type { InternalRaftRequest, RangeRequest, TxnRequest, WatchCreateRequest } from '../api/rpc';
import { MemoryStorage, RawNode, type ConfChange, type Entry, type Message, type Ready, type RaftTraceEvent, type Snapshot } from '../raft';
import { decodeConfChange } from '../raft/confChange';
import { etcdDefaults } from '../raft/types';
import type { ClientRequest, ClientResponse, GrpcPing, GrpcPong, LeaseRenewForward, LeaseRenewForwardResponse, Member, StatusResponse, WatchPush } from './messages';
import { isClientRequest } from './messages';
import { decodeRequest, encodeRequest, rememberEncoded } from './requestCodec';
import { KvStateMachine } from './stateMachine';

export interface MemberConfig {
  raftId: number;
  clusterId: number;
  /** Raft ids of the initial members (bootstrap). */
  initialPeers: number[];
  /** Tick length in ms (etcd --heartbeat-interval 100). */
  tickMs: number;
  /** Election timeout in ticks (etcd --election-timeout 1000 / 100). */
  electionTicks: number;
  heartbeatTicks: number;
  /** Snapshot every this many applied entries (v3.5: 100,000). */
  snapshotCount: number;
  /** Entries kept behind a snapshot for slow followers (v3.5: 5,000). */
  snapshotCatchUpEntries: number;
  unsafeCommitPreviousTermEntries?: boolean;
}

/** What survives a crash: the WAL and snapshot, as raft's Storage sees them. */
export interface MemberDurable {
  storage: MemoryStorage;
  /** Set once this member applied its own removal from the cluster; it then exits for good. */
  removed?: boolean;
}

export const ETCD_KIND = 'etcd';

/** What the Cluster API says of a member (peer port 2380, client port 2379 as etcd's defaults). */
export function memberInfo(raftId: number): Member {
  const name = memberName(raftId);
  return { ID: memberIdOf(raftId), name, peerURLs: [`http://${name}:2380`], clientURLs: [`http://${name}:2379`] };
}

/** The actor name of a Raft id: raft id 1 is etcd-0. */
export function memberName(raftId: number): ActorId {
  // Called for every Raft message sent: hand out one string per id (a pure
  // memo), so the kernel's lookups by actor name hash it once, not per message.
  let name = memberNames[raftId];
  if (name === undefined) {
    name = `etcd-${raftId - 1}`;
    if (Number.isInteger(raftId) && raftId >= 0 && raftId < 1024) memberNames[raftId] = name;
  }
  return name;
}
const memberNames: string[] = [];
export function raftIdOf(name: ActorId): number {
  const m = /^etcd-(\d+)$/.exec(name);
  return m ? Number(m[1]) + 1 : 0;
}
/** etcd member ids are 64-bit; ours are derived from the raft id, stable and readable in hex. */
export function memberIdOf(raftId: number): number {
  // etcd hashes the peer URLs; we hash the member's name. Kept below 2^53.
  return hashString(`etcd-member-${raftId}`) * 2 ** 20 + raftId;
}

/** etcd's request timeout: 5 s + 2 × election timeout (embed.Config.ReqTimeout). */
function requestTimeoutMs(cfg: MemberConfig): number {
  return 5000 + 2 * cfg.electionTicks * cfg.tickMs;
}

/** How often the leader looks for expired leases (lessor.go: revokeExpiredLeases every 500 ms). */
const LEASE_REVOKE_CHECK_MS = 500;
/** How often unsynced watchers catch up (watchable_store.go: syncWatchersLoop, 100 ms). */
const WATCH_SYNC_MS = 100;
/** rafthttp snapshot_sender.go: snapResponseReadTimeout, how long the sender waits for the POST's answer. */
const SNAP_RESPONSE_TIMEOUT_MS = 5000;

/** The answer to rafthttp's snapshot POST (204 once the receiver handed it to raft). */
export interface RaftSnapshotResponse {
  type: 'RaftSnapshotResponse';
  seq: number;
}

/** raft.ErrProposalDropped as etcd v3.5 returns it (gRPC Unknown): the request was not applied. */
export const ErrProposalDropped: EtcdError = { type: 'EtcdError', code: 'Unknown', codeNumber: 2, message: 'raft proposal dropped' };

interface PendingRead extends Waiter {
  req: { range?: RangeRequest; txn?: TxnRequest };
  /** When the ReadIndex was last asked for; re-asked every READ_INDEX_RETRY_MS. */
  askedAt: number;
}

/** etcdserver's linearizableReadLoop re-sends an unanswered ReadIndex every 500 ms (readIndexRetryTime). */
const READ_INDEX_RETRY_MS = 500;

interface Waiter {
  from: ActorId;
  reqId: number;
  deadline: number;
  leaseId?: number;
}

export class EtcdMember implements Actor {
  readonly node: RawNode;
  readonly sm: KvStateMachine;
  /** The Ready being persisted, if any: the loop takes no new Ready until it is durable. */
  private inflightReady: Ready | null = null;
  /** Whether the in-flight Ready's messages already left (a leader sends before its fsync). */
  private inflightSentEarly = false;
  /** Proposals waiting to be applied, by proposal id. */
  private proposals = new Map<number, Waiter>();
  /** Linearizable reads waiting for their ReadIndex, by request context. */
  private readsAwaitingIndex = new Map<string, PendingRead>();
  /** Reads whose ReadIndex is known, waiting until applied ≥ index. */
  private readsAwaitingApply: (PendingRead & { index: number })[] = [];
  /** Keepalives forwarded to the leader. */
  private forwarded = new Map<number, Waiter>();
  /** Snapshots sent and not yet answered, by peer raft id: the POST's sequence number. */
  private snapsInFlight = new Map<number, number>();
  private nextSnapSeq = 1;
  private nextProposal = 1;
  private proposalPrefix = 0;
  /** Trace events of Raft kept for views (bounded). */
  readonly raftEvents: (RaftTraceEvent & { t: number })[] = [];

  constructor(
    readonly id: ActorId,
    readonly config: MemberConfig,
    readonly durable: MemberDurable,
    env: ActorEnv,
  ) {
    const storage = durable.storage;
    const snap = storage.snapshot();
    this.node = new RawNode(
      {
        id: config.raftId,
        electionTick: config.electionTicks,
        heartbeatTick: config.heartbeatTicks,
        applied: snap.metadata.index,
        maxSizePerMsg: etcdDefaults.maxSizePerMsg,
        maxInflightMsgs: etcdDefaults.maxInflightMsgs,
        checkQuorum: true,
        preVote: true,
        rng: env.rng,
        unsafeCommitPreviousTermEntries: config.unsafeCommitPreviousTermEntries,
        // Only role changes are kept (observeRaft): skip an event per commit.
        traceCommits: false,
      },
      storage,
    );
    const memberId = memberIdOf(config.raftId);
    this.sm = snap.data
      ? KvStateMachine.restore(snap.data, config, memberId, snap.metadata.index, snap.metadata.term)
      : new KvStateMachine(config, memberId);
    // Proposal ids must not collide with those of an earlier incarnation that
    // are still in the log: prefix them with the boot time, as etcd's idutil
    // prefixes with the member id and a timestamp.
    this.proposalPrefix = Math.floor(env.now) % 2 ** 20;
  }

  // ---- Actor ---------------------------------------------------------------

  start(ctx: ActorContext): void {
    if (this.durable.removed) return ctx.exit(); // "the member has been permanently removed from the cluster"
    // A founding member bootstraps the initial configuration; a member added
    // later (initial-cluster-state=existing) starts empty and learns it from the leader.
    const empty = this.durable.storage.lastIndex() === 0 && this.durable.storage.snapshot().metadata.index === 0;
    if (empty && this.config.initialPeers.length > 0) this.node.bootstrap(this.config.initialPeers);
    ctx.setTimer(this.config.tickMs, 'tick');
    ctx.setTimer(WATCH_SYNC_MS, 'syncWatchers');
    ctx.setTimer(LEASE_REVOKE_CHECK_MS, 'revokeExpiredLeases');
    this.pump(ctx);
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type.startsWith('Msg')) {
      const m = p as unknown as Message & { snapSeq?: number };
      this.node.step(m);
      // snapshot_handler.go answers the POST once raft has the snapshot.
      if (m.type === 'MsgSnap' && m.snapSeq !== undefined) ctx.send(from, { type: 'RaftSnapshotResponse', seq: m.snapSeq } satisfies RaftSnapshotResponse as unknown as Payload);
    } else if (p.type === 'RaftSnapshotResponse') {
      // snapshot_sender.go: a sent snapshot reports SnapshotFinish; raft then probes the follower.
      const id = raftIdOf(from);
      if (this.snapsInFlight.get(id) === (p as unknown as RaftSnapshotResponse).seq) {
        this.snapsInFlight.delete(id);
        this.node.reportSnapshot(id, false);
      }
    } else if (isClientRequest(p)) {
      this.handleRequest(ctx, from, p);
    } else if (p.type === 'GrpcPing') {
      ctx.send(from, { type: 'GrpcPong', seq: (p as unknown as GrpcPing).seq } satisfies GrpcPong as unknown as Payload);
    } else if (p.type === 'LeaseRenewForward') {
      const f = p as LeaseRenewForward;
      const r = this.sm.renewLease(f.id, ctx.now);
      const resp: LeaseRenewForwardResponse =
        'ttl' in r
          ? { type: 'LeaseRenewForwardResponse', fwdId: f.fwdId, ttl: r.ttl }
          : { type: 'LeaseRenewForwardResponse', fwdId: f.fwdId, ttl: 0, error: 'error' in r ? r.error : errors.ErrNotLeader };
      ctx.send(from, resp);
    } else if (p.type === 'LeaseRenewForwardResponse') {
      const f = p as LeaseRenewForwardResponse;
      const w = this.forwarded.get(f.fwdId);
      if (w) {
        this.forwarded.delete(f.fwdId);
        if (f.error) this.fail(ctx, w, f.error);
        else this.reply(ctx, w, { header: this.sm.header(this.node.raft.term), ID: w.leaseId ?? 0, TTL: f.ttl });
      }
    }
    this.pump(ctx);
  }

  timer(ctx: ActorContext, tag: string): void {
    switch (tag) {
      case 'tick':
        this.node.tick();
        this.expireWaiters(ctx);
        ctx.setTimer(this.config.tickMs, 'tick');
        break;
      case 'syncWatchers':
        this.sm.syncWatchers();
        this.flushWatchEvents(ctx);
        ctx.setTimer(WATCH_SYNC_MS, 'syncWatchers');
        break;
      case 'revokeExpiredLeases':
        if (this.isLeader()) {
          for (const id of this.sm.expiredLeases(ctx.now)) this.propose(ctx, { header: { id: 0 }, leaseRevoke: { ID: id } }, null);
        }
        ctx.setTimer(LEASE_REVOKE_CHECK_MS, 'revokeExpiredLeases');
        break;
      default:
        if (tag.startsWith('snapTimeout:')) {
          // No answer to the snapshot POST: the peer is unreachable and the snapshot failed (raft retries it).
          const [, to, seq] = tag.split(':');
          const id = Number(to);
          if (this.snapsInFlight.get(id) === Number(seq)) {
            this.snapsInFlight.delete(id);
            this.node.reportUnreachable(id);
            this.node.reportSnapshot(id, true);
          }
        }
    }
    this.pump(ctx);
  }

  /**
   * A peer's process died: rafthttp's stream to it breaks, and raft hears it is
   * unreachable. A client's connection reset (its process died, or it closed
   * the connection): its gRPC watch stream ends, and its watchers with it.
   */
  peerReset(ctx: ActorContext, peer: ActorId): void {
    const id = raftIdOf(peer);
    if (id === 0) return this.sm.closeWatchStream(peer);
    this.node.reportUnreachable(id);
    this.pump(ctx);
  }

  /** rafthttp reports a peer whose connection fails as unreachable to raft. */
  refused(ctx: ActorContext, to: ActorId, p: Payload): void {
    const id = raftIdOf(to);
    if (id !== 0 && p.type.startsWith('Msg')) {
      this.node.reportUnreachable(id);
      if (p.type === 'MsgSnap') {
        this.snapsInFlight.delete(id);
        this.node.reportSnapshot(id, true);
      }
      this.pump(ctx);
    }
  }

  persisted(ctx: ActorContext, tag: string): void {
    if (tag !== 'ready' || !this.inflightReady) return;
    const rd = this.inflightReady;
    const storage = this.durable.storage;
    if (rd.snapshot && rd.snapshot.metadata.index > 0) storage.applySnapshot(rd.snapshot);
    if (rd.entries.length > 0) storage.append(rd.entries);
    if (rd.hardState) storage.setHardState(rd.hardState);
    this.finishReady(ctx, rd, this.inflightSentEarly);
    this.pump(ctx);
  }

  // ---- the Ready loop ------------------------------------------------------

  isLeader(): boolean {
    return this.node.raft.state === 'StateLeader';
  }

  private pump(ctx: ActorContext): void {
    while (this.inflightReady === null && this.node.hasReady()) {
      const rd = this.node.ready();
      this.observeRaft(ctx, rd);
      const sentEarly = this.isLeader();
      if (sentEarly) this.sendRaft(ctx, rd.messages);
      // raft.MustSync (server/storage/wal/wal.go Save): only new entries, a
      // snapshot or a new term or vote wait for an fsync; a Ready that only
      // moves the commit index writes its HardState record unsynced and goes
      // on at once, so a leader applies what it commits without a disk wait.
      const hs = rd.hardState;
      const prev = this.durable.storage.hardState;
      const mustSync = rd.entries.length > 0 || (rd.snapshot !== undefined && rd.snapshot.metadata.index > 0) || (hs !== undefined && (hs.term !== prev.term || hs.vote !== prev.vote));
      if (!mustSync && hs !== undefined) this.durable.storage.setHardState(hs);
      if (mustSync) {
        this.inflightReady = rd;
        this.inflightSentEarly = sentEarly;
        ctx.persist('ready');
        return;
      }
      this.finishReady(ctx, rd, sentEarly);
    }
  }

  private finishReady(ctx: ActorContext, rd: Ready, sentEarly: boolean): void {
    this.inflightReady = null;
    if (!sentEarly) this.sendRaft(ctx, rd.messages);
    if (rd.snapshot && rd.snapshot.metadata.index > 0) this.applySnapshot(ctx, rd.snapshot);
    // Indexed loops on the Ready path: its lists are often raft's shared frozen
    // empty arrays, and for-of over a mix of frozen and plain arrays is not
    // optimized (each step calls the generic iterator).
    const committed = rd.committedEntries;
    for (let i = 0; i < committed.length; i++) this.applyEntry(ctx, committed[i]!);
    this.node.advance(rd);
    this.serveReads(ctx);
    this.flushWatchEvents(ctx);
    this.maybeSnapshot();
  }

  /**
   * Sends a Ready's messages. Only the last MsgAppResp of the batch goes out,
   * as etcdserver's processMessages does (server/etcdserver/raft.go): it
   * acknowledges everything the earlier ones did, so they are redundant.
   */
  private sendRaft(ctx: ActorContext, msgs: Message[]): void {
    let lastAppResp = -1;
    for (let i = msgs.length - 1; i >= 0; i--) {
      if (msgs[i]!.type === 'MsgAppResp') {
        lastAppResp = i;
        break;
      }
    }
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i]!;
      if (i < lastAppResp && m.type === 'MsgAppResp') continue;
      if (m.type === 'MsgSnap') {
        // rafthttp sends a snapshot as its own POST and reports how it went (snapshot_sender.go).
        const seq = this.nextSnapSeq++;
        this.snapsInFlight.set(m.to, seq);
        ctx.setTimer(SNAP_RESPONSE_TIMEOUT_MS, `snapTimeout:${m.to}:${seq}`);
        ctx.send(memberName(m.to), { ...m, snapSeq: seq } as unknown as Payload);
        continue;
      }
      ctx.send(memberName(m.to), m as unknown as Payload);
    }
  }

  private observeRaft(ctx: ActorContext, rd: Ready): void {
    const events = this.node.takeTraceEvents();
    for (let i = 0; i < events.length; i++) {
      const ev = events[i]!;
      if (ev.type !== 'become') continue;
      // Role changes are kept for views (bounded); commits show in the indexes.
      this.raftEvents.push({ ...ev, t: ctx.now });
      if (this.raftEvents.length > 100) this.raftEvents.splice(0, 50);
      // A member that stops leading stops tracking lease expiry (lessor.Demote).
      if (ev.state !== 'StateLeader') this.sm.demote();
    }
    for (let i = 0; i < rd.readStates.length; i++) {
      const rs = rd.readStates[i]!;
      const w = this.readsAwaitingIndex.get(rs.requestCtx);
      if (w) {
        this.readsAwaitingIndex.delete(rs.requestCtx);
        this.readsAwaitingApply.push({ ...w, index: rs.index });
      }
    }
  }

  private applySnapshot(_ctx: ActorContext, snap: Snapshot): void {
    this.sm.restoreFrom(snap.data, snap.metadata.index, snap.metadata.term);
  }

  private applyEntry(ctx: ActorContext, e: Entry): void {
    if (e.type === 'EntryConfChange') {
      const cc = decodeConfChange(e.data);
      this.node.applyConfChange(cc);
      this.sm.noteApplied(e.index, e.term);
      const w = cc.id === undefined ? undefined : this.proposals.get(cc.id);
      if (w && cc.id !== undefined) {
        this.proposals.delete(cc.id);
        this.reply(ctx, w, { header: this.sm.header(this.node.raft.term), member: cc.context ? (JSON.parse(cc.context) as Member) : undefined, members: this.memberList() });
      }
      if (cc.type === 'ConfChangeRemoveNode' && cc.nodeId === this.config.raftId) {
        // etcdserver stops a member that applied its own removal.
        this.durable.removed = true;
        ctx.exit();
      }
      return;
    }
    if (e.data === '') {
      // A new leader's empty entry. Once the leader has applied everything up
      // to it, it starts tracking lease expiry (etcdserver applyEntryNormal:
      // lessor.Promote(electionTimeout)).
      this.sm.noteApplied(e.index, e.term);
      if (this.isLeader() && e.term === this.node.raft.term) this.sm.promote(ctx.now);
      return;
    }
    const req = decodeRequest(e);
    const result = this.sm.apply(req, e, ctx.now);
    // Only the proposing member waits on the entry: the others skip hashing its id.
    const w = this.proposals.size !== 0 ? this.proposals.get(req.header.id) : undefined;
    if (w) {
      this.proposals.delete(req.header.id);
      if (isEtcdError(result)) this.fail(ctx, w, result);
      else this.reply(ctx, w, result);
    }
  }

  private maybeSnapshot(): void {
    const storage = this.durable.storage;
    const applied = this.sm.appliedIndex;
    const snapIndex = storage.snapshot().metadata.index;
    if (applied - snapIndex <= this.config.snapshotCount) return;
    // etcdserver.snapshot(): save the KV state at `applied`, then compact the
    // log keeping snapshotCatchUpEntries for slow followers.
    const confState = this.node.raft.prs.confState();
    const snap = storage.createSnapshot(applied, confState, this.sm.snapshot());
    if ('type' in snap && (snap as { type: string }).type.startsWith('Err')) return;
    const compactIndex = applied > this.config.snapshotCatchUpEntries ? applied - this.config.snapshotCatchUpEntries : 1;
    if (compactIndex > storage.firstIndex()) storage.compact(compactIndex);
  }

  // ---- client requests -----------------------------------------------------

  private handleRequest(ctx: ActorContext, from: ActorId, p: ClientRequest): void {
    const waiter: Waiter = { from, reqId: p.reqId, deadline: ctx.now + requestTimeoutMs(this.config) };
    const invalid = this.sm.validate(p);
    if (invalid) return this.fail(ctx, waiter, invalid);
    switch (p.type) {
      case 'RangeRequest':
        if (p.body.serializable) return this.reply(ctx, waiter, this.sm.range(p.body, this.node.raft.term));
        return this.linearizableRead(waiter, { range: p.body }, ctx.now);
      case 'TxnRequest':
        // v3_server.go Txn: read-only txns are served locally, after a ReadIndex
        // unless every range in them is serializable.
        if (this.sm.isReadOnlyTxn(p.body)) {
          if (this.sm.isSerializableTxn(p.body)) return this.reply(ctx, waiter, this.sm.readTxn(p.body, this.node.raft.term));
          return this.linearizableRead(waiter, { txn: p.body }, ctx.now);
        }
        return this.propose(ctx, { header: { id: 0 }, txn: p.body }, waiter);
      case 'PutRequest':
        return this.propose(ctx, { header: { id: 0 }, put: p.body }, waiter);
      case 'DeleteRangeRequest':
        return this.propose(ctx, { header: { id: 0 }, deleteRange: p.body }, waiter);
      case 'CompactionRequest':
        return this.propose(ctx, { header: { id: 0 }, compaction: p.body }, waiter);
      case 'LeaseGrantRequest': {
        // v3_server.go LeaseGrant: ID 0 → the server picks one (reqIDGen).
        const ID = p.body.ID ? p.body.ID : this.generateLeaseId(ctx); // only 0 means "pick one"; negative ids are used as given
        return this.propose(ctx, { header: { id: 0 }, leaseGrant: { TTL: p.body.TTL, ID } }, waiter);
      }
      case 'LeaseRevokeRequest':
        return this.propose(ctx, { header: { id: 0 }, leaseRevoke: p.body }, waiter);
      case 'LeaseKeepAliveRequest':
        return this.keepAlive(ctx, waiter, p.body.ID);
      case 'LeaseTimeToLiveRequest':
        return this.reply(ctx, waiter, this.sm.leaseTimeToLive(p.body, ctx.now, this.isLeader()));
      case 'LeaseLeasesRequest':
        return this.reply(ctx, waiter, this.sm.leaseLeases());
      case 'WatchCreateRequest':
        return this.createWatch(ctx, waiter, p.body);
      case 'WatchCancelRequest': {
        this.sm.cancelWatch(from, p.body.watchId);
        this.reply(ctx, waiter, { header: this.sm.header(this.node.raft.term), watchId: p.body.watchId, canceled: true });
        return this.flushWatchEvents(ctx);
      }
      case 'WatchProgressRequest': {
        // v3rpc watch.go: a progress request is answered with the current
        // revision (watch id -1) once every watcher on the stream is synced.
        this.sm.inner.requestWatchProgress(from);
        this.reply(ctx, waiter, { header: this.sm.header(this.node.raft.term), watchId: -1 });
        return this.flushWatchEvents(ctx);
      }
      case 'MemberListRequest':
        return this.reply(ctx, waiter, { header: this.sm.header(this.node.raft.term), members: this.memberList() });
      case 'MemberAddRequest': {
        // v3_server.go AddMember: the new member's id comes from its peer URLs.
        const url = p.body.peerURLs?.[0] ?? '';
        const id = raftIdOf(/^https?:\/\/([^:/]+)/.exec(url)?.[1] ?? '');
        if (id === 0) return this.fail(ctx, waiter, errors.ErrMemberBadURLs);
        if (this.node.raft.prs.ids.includes(id)) return this.fail(ctx, waiter, errors.ErrPeerURLExist);
        const member = memberInfo(id);
        return this.proposeConfChange(ctx, { type: 'ConfChangeAddNode', nodeId: id, context: JSON.stringify(member) }, waiter);
      }
      case 'MemberRemoveRequest': {
        const id = [...this.node.raft.prs.ids].find((x) => memberIdOf(x) === p.body.ID);
        if (id === undefined) return this.fail(ctx, waiter, errors.ErrMemberNotFound);
        return this.proposeConfChange(ctx, { type: 'ConfChangeRemoveNode', nodeId: id, context: JSON.stringify(memberInfo(id)) }, waiter);
      }
      case 'StatusRequest': {
        const st = this.node.status();
        const body: StatusResponse = {
          header: this.sm.header(st.term),
          leader: st.lead === 0 ? 0 : memberIdOf(st.lead),
          raftIndex: st.commit,
          raftTerm: st.term,
          raftAppliedIndex: this.sm.appliedIndex,
          errors: [],
        };
        return this.reply(ctx, waiter, body);
      }
      case 'MoveLeaderRequest': {
        if (!this.isLeader()) return this.fail(ctx, waiter, errors.ErrNotLeader);
        const target = [...this.node.raft.prs.ids].find((id) => memberIdOf(id) === p.body.targetID || id === p.body.targetID);
        if (target === undefined) return this.fail(ctx, waiter, errors.ErrBadLeaderTransferee);
        this.node.transferLeader(target);
        return this.reply(ctx, waiter, { header: this.sm.header(this.node.raft.term) });
      }
    }
  }

  /** Membership changes go through raft one at a time, and are answered once applied. */
  private proposeConfChange(ctx: ActorContext, cc: ConfChange, waiter: Waiter): void {
    cc.id = this.nextRequestId();
    const err = this.node.proposeConfChange(cc);
    if (err) return this.fail(ctx, waiter, ErrProposalDropped);
    this.proposals.set(cc.id, waiter);
  }

  private memberList(): Member[] {
    return [...this.node.raft.prs.ids].sort((a, b) => a - b).map(memberInfo);
  }

  private propose(ctx: ActorContext, req: InternalRaftRequest, waiter: Waiter | null): void {
    const id = this.nextRequestId();
    req.header.id = id;
    const data = encodeRequest(req);
    const err = this.node.propose(data);
    if (err) {
      // raft dropped it (no leader, or a leadership transfer): definitely not applied.
      if (waiter) this.fail(ctx, waiter, ErrProposalDropped);
      return;
    }
    // A leader appended it to its log: every member will decode this entry, so
    // hand the codec the request instead of having it parse the data back.
    const raftLog = this.node.raft.raftLog;
    const appended = raftLog.entryAt(raftLog.lastIndex());
    if (appended !== undefined && appended.data === data) rememberEncoded(appended, req);
    if (waiter) this.proposals.set(id, waiter);
  }

  /**
   * A request id unique across members and incarnations, as etcd's
   * idutil.Generator builds it (member id | timestamp | counter): every member
   * applies every entry and matches its waiters by this id, and the leader
   * keys pending ReadIndex requests by it, so two members must never mint the
   * same one. Raft id (8 bits) | boot time ms mod 2^20 | counter (25 bits) < 2^53.
   */
  private nextRequestId(): number {
    return this.config.raftId * 2 ** 45 + this.proposalPrefix * 2 ** 25 + (this.nextProposal++ % 2 ** 25);
  }

  private linearizableRead(waiter: Waiter, req: PendingRead['req'], now: number): void {
    const reqCtx = String(this.nextRequestId());
    this.readsAwaitingIndex.set(reqCtx, { ...waiter, req, askedAt: now });
    this.node.readIndex(reqCtx);
  }

  private serveReads(ctx: ActorContext): void {
    if (this.readsAwaitingApply.length === 0) return;
    const applied = this.sm.appliedIndex;
    const still: typeof this.readsAwaitingApply = [];
    for (const r of this.readsAwaitingApply) {
      if (r.index > applied) still.push(r);
      else if (r.req.range) this.reply(ctx, r, this.sm.range(r.req.range, this.node.raft.term));
      else if (r.req.txn) this.reply(ctx, r, this.sm.readTxn(r.req.txn, this.node.raft.term));
    }
    this.readsAwaitingApply = still;
  }

  private keepAlive(ctx: ActorContext, waiter: Waiter, id: number): void {
    const r = this.sm.renewLease(id, ctx.now);
    if ('error' in r) return this.fail(ctx, waiter, r.error);
    if ('ttl' in r) return this.reply(ctx, waiter, { header: this.sm.header(this.node.raft.term), ID: id, TTL: r.ttl });
    // Not the lessor's primary: forward to the leader (v3_server.go LeaseRenew).
    const lead = this.node.raft.lead;
    if (lead === 0 || lead === this.config.raftId) return this.fail(ctx, waiter, errors.ErrNoLeader);
    const fwdId = this.nextProposal++;
    this.forwarded.set(fwdId, { ...waiter, leaseId: id });
    const msg: LeaseRenewForward = { type: 'LeaseRenewForward', fwdId, id };
    ctx.send(memberName(lead), msg);
  }

  private createWatch(ctx: ActorContext, waiter: Waiter, body: WatchCreateRequest): void {
    // The stream is the client's connection: one per client actor.
    const r = this.sm.createWatch(waiter.from, body);
    this.reply(ctx, waiter, { header: this.sm.header(this.node.raft.term), watchId: r.watchId, created: true, canceled: r.watchId < 0 });
    this.flushWatchEvents(ctx);
  }

  private flushWatchEvents(ctx: ActorContext): void {
    const deliveries = this.sm.takeWatchResponses();
    for (let i = 0; i < deliveries.length; i++) {
      const d = deliveries[i]!;
      const push: WatchPush = { type: 'WatchResponse', body: d.response };
      ctx.send(d.streamId, push);
    }
  }

  private generateLeaseId(ctx: ActorContext): number {
    // idutil.Generator: member-id prefix + counter; we keep it under 2^53.
    return (this.config.raftId * 2 ** 40 + (Math.floor(ctx.now) % 2 ** 24) * 2 ** 16 + (this.nextProposal++ % 2 ** 16)) % 2 ** 53;
  }

  private expireWaiters(ctx: ActorContext): void {
    const now = ctx.now;
    for (const [id, w] of this.proposals) {
      if (w.deadline <= now) {
        this.proposals.delete(id);
        this.fail(ctx, w, errors.ErrTimeout);
      }
    }
    for (const [key, w] of this.readsAwaitingIndex) {
      if (w.deadline <= now) {
        this.readsAwaitingIndex.delete(key);
        this.fail(ctx, w, errors.ErrTimeout);
      } else if (now - w.askedAt >= READ_INDEX_RETRY_MS) {
        w.askedAt = now;
        this.node.readIndex(key);
      }
    }
    if (this.readsAwaitingApply.some((r) => r.deadline <= now)) {
      for (const r of this.readsAwaitingApply) if (r.deadline <= now) this.fail(ctx, r, errors.ErrTimeout);
      this.readsAwaitingApply = this.readsAwaitingApply.filter((r) => r.deadline > now);
    }
    for (const [id, w] of this.forwarded) {
      if (w.deadline <= now) {
        this.forwarded.delete(id);
        this.fail(ctx, w, errors.ErrTimeout);
      }
    }
  }

  private reply(ctx: ActorContext, w: Waiter, body: unknown): void {
    if (body && typeof body === 'object' && 'type' in body && (body as EtcdError).type === 'EtcdError') return this.fail(ctx, w, body as EtcdError);
    const resp: ClientResponse = { type: 'EtcdResponse', reqId: w.reqId, ok: true, body, leader: this.node.raft.lead };
    ctx.send(w.from, resp);
  }

  private fail(ctx: ActorContext, w: Waiter, error: EtcdError): void {
    const resp: ClientResponse = { type: 'EtcdError', reqId: w.reqId, ok: false, error, leader: this.node.raft.lead };
    ctx.send(w.from, resp);
  }
}

registerClass('EtcdMember', EtcdMember);

registerActorKind<MemberConfig, MemberDurable>({
  kind: ETCD_KIND,
  initDurable: () => ({ storage: new MemoryStorage() }),
  create: (id, config, durable, env) => new EtcdMember(id, config, durable, env),
});
