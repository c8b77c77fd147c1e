// An etcd v3 client as an actor (after clientv3): it talks to any member,
// follows the leader once it learns where it is, retries with back-off what is
// safe to retry, and gives up at a deadline.
//
// Retry rules follow clientv3's retry interceptor (client/v3/retry.go): reads
// are retried on any transient failure; mutations only when the server says
// for certain that nothing was applied (the proposal was dropped). A mutation
// that timed out has an unknown outcome and is reported as such, never retried.
import type { Actor, ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerActorKind } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { EtcdError } from '../api/errors';
import type { WatchResponse } from '../api/rpc';
import type { ClientRequest, ClientResponse, RequestBodies, RequestType, WatchPush } from '../server/messages';
import { memberIdOf, memberName } from '../server/member';

export interface ClientConfig {
  endpoints: ActorId[];
  /** Per-attempt timeout (no answer by then: try elsewhere, or give up). */
  attemptTimeoutMs: number;
  /** Overall deadline of one call, like a context deadline. */
  deadlineMs: number;
  /** First retry back-off; doubles up to maxBackoffMs (clientv3: 25 ms linear-ish, jittered). */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_CLIENT: Omit<ClientConfig, 'endpoints'> = {
  attemptTimeoutMs: 8000,
  deadlineMs: 10_000,
  backoffMs: 50,
  maxBackoffMs: 1000,
};

export type CallOutcome =
  | { status: 'ok'; body: unknown }
  /** A definite failure: the request did not take effect (or was a read). */
  | { status: 'error'; error: EtcdError }
  /** No answer before the deadline: a mutation may or may not have been applied. */
  | { status: 'unknown'; error: EtcdError };

export interface CallRecord {
  id: number;
  type: RequestType;
  body: unknown;
  issuedAt: number;
  doneAt?: number;
  outcome?: CallOutcome;
  attempts: number;
  /** Member that answered. */
  servedBy?: ActorId;
  /** Talk only to this member, like a client given a single endpoint. */
  endpoint?: ActorId;
}

interface Attempt {
  callId: number;
  reqId: number;
  endpoint: ActorId;
  timer: number;
}

const READ_ONLY: ReadonlySet<RequestType> = new Set<RequestType>(['RangeRequest', 'LeaseTimeToLiveRequest', 'LeaseLeasesRequest', 'StatusRequest', 'LeaseKeepAliveRequest']);

export const ErrConnectionRefused: EtcdError = {
  type: 'EtcdError',
  code: 'Unavailable',
  codeNumber: 14,
  message: 'connection error: desc = "transport: Error while dialing: dial tcp: connect: connection refused"',
};

export const ErrTransportClosing: EtcdError = { type: 'EtcdError', code: 'Unavailable', codeNumber: 14, message: 'transport is closing' };

export const ErrDeadlineExceeded: EtcdError = { type: 'EtcdError', code: 'DeadlineExceeded', codeNumber: 4, message: 'context deadline exceeded' };

export class EtcdClient implements Actor {
  readonly calls = new Map<number, CallRecord>();
  /** Calls finished, in completion order (hosts drain this). */
  readonly completedIds: number[] = [];
  private attempts = new Map<number, Attempt>();
  /**
   * Watch creates given up on by timeout: if the member answers after all, it
   * made a watch nobody reads, which is cancelled (clientv3 cancels a watch id
   * it has no substream for, watch.go run).
   */
  private readonly abandonedWatchCreates = new Map<number, ActorId>();
  private nextCall = 1;
  private nextReq = 1;
  /** Index into endpoints of the member to try next. */
  private cursor = 0;
  /** When each member last reset our connection (its watch streams died then). */
  readonly resets = new Map<ActorId, number>();
  /** The leader as last reported by a member (raft id), 0 if unknown. */
  leader = 0;
  /**
   * Watch responses received, oldest first (bounded: the oldest are dropped).
   * `seq` increases by one per response, so hosts can poll for new ones.
   */
  readonly watchResponses: { seq: number; from: ActorId; at: number; body: WatchResponse }[] = [];
  private watchSeq = 0;

  constructor(
    readonly id: ActorId,
    readonly config: ClientConfig,
  ) {}

  start(_ctx?: ActorContext): void {}

  /** Starts a call; returns its id. Hosts read the outcome from `calls`. */
  call<K extends RequestType>(ctx: ActorContext, type: K, body: RequestBodies[K], opts: { endpoint?: ActorId } = {}): number {
    const id = this.nextCall++;
    this.calls.set(id, { id, type, body, issuedAt: ctx.now, attempts: 0, endpoint: opts.endpoint });
    this.attempt(ctx, id);
    return id;
  }

  private attempt(ctx: ActorContext, callId: number): void {
    const call = this.calls.get(callId)!;
    const target = call.endpoint ?? this.pickEndpoint();
    const reqId = this.nextReq++;
    call.attempts++;
    const timer = ctx.setTimer(this.config.attemptTimeoutMs, 'attemptTimeout', reqId);
    this.attempts.set(reqId, { callId, reqId, endpoint: target, timer });
    const msg = { type: call.type, reqId, body: call.body } as ClientRequest;
    ctx.send(target, msg);
  }

  private pickEndpoint(): ActorId {
    if (this.leader !== 0) {
      const name = memberName(this.leader);
      if (this.config.endpoints.includes(name)) return name;
    }
    return this.config.endpoints[this.cursor % this.config.endpoints.length]!;
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'WatchResponse') {
      this.watchResponses.push({ seq: ++this.watchSeq, from, at: ctx.now, body: (p as WatchPush).body });
      if (this.watchResponses.length > 10_000) this.watchResponses.splice(0, 1000);
      return;
    }
    if (p.type !== 'EtcdResponse' && p.type !== 'EtcdError') return;
    const r = p as ClientResponse;
    const att = this.attempts.get(r.reqId);
    if (!att) return this.lateAnswer(ctx, from, r); // to an attempt we gave up on
    this.attempts.delete(r.reqId);
    ctx.cancelTimer(att.timer);
    this.leader = r.leader;
    const call = this.calls.get(att.callId)!;
    if (r.ok) return this.finish(ctx, call, { status: 'ok', body: r.body }, from);
    if (this.retriable(call, r.error) && ctx.now - call.issuedAt < this.config.deadlineMs) {
      if (r.leader === 0) this.cursor++;
      return this.backoff(ctx, call);
    }
    const maybeApplied = !READ_ONLY.has(call.type) && !this.retriable(call, r.error) && (r.error.code === 'Unavailable' || r.error.code === 'DeadlineExceeded');
    this.finish(ctx, call, maybeApplied ? { status: 'unknown', error: r.error } : { status: 'error', error: r.error }, from);
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (tag === 'attemptTimeout') {
      const att = this.attempts.get(data as number);
      if (!att) return;
      this.attempts.delete(att.reqId);
      const call = this.calls.get(att.callId)!;
      if (call.type === 'WatchCreateRequest') this.abandonedWatchCreates.set(att.reqId, att.endpoint);
      this.cursor++;
      this.leader = 0;
      if (READ_ONLY.has(call.type) && ctx.now - call.issuedAt < this.config.deadlineMs) return this.backoff(ctx, call);
      this.finish(ctx, call, READ_ONLY.has(call.type) ? { status: 'error', error: ErrDeadlineExceeded } : { status: 'unknown', error: ErrDeadlineExceeded });
    } else if (tag === 'retry') {
      const call = this.calls.get(data as number);
      if (call && !call.outcome) this.attempt(ctx, call.id);
    }
  }

  persisted(): void {}

  private lateAnswer(ctx: ActorContext, from: ActorId, r: ClientResponse): void {
    if (!this.abandonedWatchCreates.delete(r.reqId) || !r.ok) return;
    const w = r.body as WatchResponse;
    if (w.created && !w.canceled && w.watchId >= 0) this.cancelStrayWatch(ctx, from, w.watchId);
  }

  /** Cancels a watch of ours on that member that no one reads. */
  cancelStrayWatch(ctx: ActorContext, member: ActorId, watchId: number): void {
    this.call(ctx, 'WatchCancelRequest', { watchId }, { endpoint: member });
  }

  /**
   * The member this client was talking to crashed and its connection was
   * reset. Calls waiting on it fail over: reads are retried elsewhere; a
   * mutation already sent has an unknown outcome (clientv3 never retries a
   * mutation once it was sent: "transport is closing").
   */
  peerReset(ctx: ActorContext, peer: ActorId): void {
    this.resets.set(peer, ctx.now);
    // The member's watches on that connection are gone with it.
    for (const [reqId, member] of this.abandonedWatchCreates) if (member === peer) this.abandonedWatchCreates.delete(reqId);
    if (this.leader !== 0 && memberName(this.leader) === peer) this.leader = 0;
    for (const att of [...this.attempts.values()]) {
      if (att.endpoint !== peer) continue;
      this.attempts.delete(att.reqId);
      ctx.cancelTimer(att.timer);
      this.cursor++;
      const call = this.calls.get(att.callId)!;
      if (READ_ONLY.has(call.type) && ctx.now - call.issuedAt < this.config.deadlineMs) this.backoff(ctx, call);
      else this.finish(ctx, call, READ_ONLY.has(call.type) ? { status: 'error', error: ErrTransportClosing } : { status: 'unknown', error: ErrTransportClosing });
    }
  }

  /**
   * Our connection to the member was closed (its keepalive went unanswered):
   * what was on it fails as on a reset, and the next attempts go elsewhere.
   */
  connectionLost(ctx: ActorContext, peer: ActorId): void {
    ctx.closeConnection(peer);
    const n = this.config.endpoints.length;
    if (n > 1 && this.config.endpoints[this.cursor % n] === peer) this.cursor++;
    this.peerReset(ctx, peer);
  }

  /**
   * The member's process is gone: its host refused the connection. Nothing was
   * sent, so any request may be retried elsewhere (clientv3 treats a
   * transport failure before sending as safe to retry).
   */
  refused(ctx: ActorContext, to: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId;
    const att = reqId === undefined ? undefined : this.attempts.get(reqId);
    if (!att || att.endpoint !== to) return;
    this.attempts.delete(att.reqId);
    ctx.cancelTimer(att.timer);
    this.cursor++;
    if (this.leader !== 0 && memberName(this.leader) === to) this.leader = 0;
    const call = this.calls.get(att.callId)!;
    if (ctx.now - call.issuedAt < this.config.deadlineMs) return this.backoff(ctx, call);
    this.finish(ctx, call, { status: 'error', error: ErrConnectionRefused });
  }

  private retriable(call: CallRecord, e: EtcdError): boolean {
    // Definitely-not-applied answers may be retried for every request.
    if (e.message === 'raft proposal dropped' || e.message === 'etcdserver: no leader' || e.message === 'etcdserver: not leader') return true;
    // Reads may be retried on any transient server failure.
    return READ_ONLY.has(call.type) && (e.code === 'Unavailable' || e.code === 'DeadlineExceeded');
  }

  private backoff(ctx: ActorContext, call: CallRecord): void {
    const base = Math.min(this.config.maxBackoffMs, this.config.backoffMs * 2 ** Math.min(10, call.attempts - 1));
    const delay = base / 2 + ctx.rng.float() * (base / 2); // jittered, as clientv3
    ctx.setTimer(delay, 'retry', call.id);
  }

  private finish(ctx: ActorContext, call: CallRecord, outcome: CallOutcome, from?: ActorId): void {
    call.outcome = outcome;
    call.doneAt = ctx.now;
    call.servedBy = from;
    this.completed(ctx, call);
  }

  /** A call finished; hosts drain `completed`. Subclasses (the load generator) count instead. */
  protected completed(_ctx: ActorContext, call: CallRecord): void {
    this.completedIds.push(call.id);
  }

  /** Forgets finished calls (hosts call it after reading them) to keep memory bounded. */
  forget(ids: number[]): void {
    for (const id of ids) this.calls.delete(id);
  }
}

export { memberIdOf };

registerClass('EtcdClient', EtcdClient);
registerActorKind<ClientConfig, null>({
  kind: 'etcd-client',
  initDurable: () => null,
  create: (id, config) => new EtcdClient(id, config),
});
