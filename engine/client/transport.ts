// A component's HTTP/2 connection to kube-apiserver, as client-go's transport
// keeps it (k8s.io/apimachinery/pkg/util/net/http.go, golang.org/x/net/http2),
// with the client-side rate limiters in front of it (client-go's
// flowcontrol.NewTokenBucketRateLimiter over golang.org/x/time/rate).
//
// Why it exists: a partition drops packets silently; no TCP error ever comes
// back, so a request or a watch on a connection whose peer went quiet would
// wait forever. client-go's HTTP/2 health check bounds that: when nothing has
// been read from the connection for ReadIdleTimeout (30 s) it sends a PING, and
// closes the connection when no ACK comes within PingTimeout (15 s): every
// request in flight on it fails, watches end and their reflectors relist.
// A new connection is dialed for the next request (net.Dialer Timeout 30 s):
// the PING/ACK exchange stands in for the TCP and TLS handshakes (resent as
// SYNs are, 1 s then doubling), and requests wait for it; a dial that times
// out fails them.
//
// The owner (an actor with its own map of requests in flight) sends through
// send(), passes every message from the server to receive() and the `conn:`
// timers to timer(); when a call says the connection closed, it fails its
// requests in flight except those still waiting for a token (isThrottled).
import type { ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import { httpMsg, type HttpPongMsg, type HttpRequestMsg } from '../apiserver/http/messages';

/** http2.Transport ReadIdleTimeout and PingTimeout as client-go sets them (util/net/http.go). */
export const READ_IDLE_TIMEOUT_MS = 30_000;
export const PING_TIMEOUT_MS = 15_000;
/** client-go's dialer: net.Dialer{Timeout: 30 * time.Second}. */
export const DIAL_TIMEOUT_MS = 30_000;

/** Timer tags a Transport owns (the owner passes them on). */
export const TRANSPORT_TIMERS: ReadonlySet<string> = new Set(['conn:health', 'conn:dial', 'conn:syn', 'conn:send']);

/** Linux's first SYN retransmission timeout (TCP_TIMEOUT_INIT, 1 s), doubling after each retry. */
export const SYN_RTO_MS = 1000;

export interface RateLimit {
  qps: number;
  burst: number;
}

/**
 * x/time/rate's Limiter as client-go's token bucket uses it: full at first,
 * refilled at `qps` tokens per second up to `burst`; each request reserves one
 * token and waits until it would exist.
 */
export class TokenBucketRateLimiter {
  private tokens: number;
  private last = -Infinity;

  constructor(
    readonly qps: number,
    readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Reserves a token at `now` (virtual ms): how long the request must wait. */
  reserve(now: number): number {
    if (this.last !== -Infinity && now > this.last) this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    if (now > this.last) this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }
}

type ConnState = 'open' | 'dialing' | 'closed';

export class Transport {
  /** At boot the connection is taken as established (the process dialed before its first request). */
  state: ConnState = 'open';
  /** Last time anything was read from the connection. */
  lastReadAt: number;
  /** PING in flight: its sequence number and when it left (-1 = none). */
  private pingSeq = 0;
  private pingAt = -1;
  private healthArmed = false;
  private dialTimer = -1;
  /** Requests written while the connection is being dialed. */
  private readonly dialQueue: HttpRequestMsg[] = [];
  /** Requests waiting for a token, by reqId. */
  private readonly throttled = new Map<number, HttpRequestMsg>();
  private readonly buckets = new Map<string, TokenBucketRateLimiter>();
  private readonly perClient: RateLimit | null;
  /** Connections closed (for views and tests). */
  closes = 0;

  constructor(
    readonly server: ActorId,
    limits: Record<string, RateLimit> = {},
    now = 0,
    /** The limit of any other named client (each gets its own bucket, as each clientset has its own limiter). */
    perClient?: RateLimit,
  ) {
    // QPS < 0 disables client-side throttling (client-go); such a client simply has no bucket.
    for (const [name, l] of Object.entries(limits)) if (l.qps > 0) this.buckets.set(name, new TokenBucketRateLimiter(l.qps, l.burst));
    this.perClient = perClient && perClient.qps > 0 ? perClient : null;
    this.lastReadAt = now;
  }

  /**
   * Sends a request through the named client's rate limiter, then on the
   * connection. No name (a watch, a heartbeat) or a client without a limit
   * (QPS < 0) goes at once.
   */
  send(ctx: ActorContext, msg: HttpRequestMsg, bucket?: string): void {
    const b = bucket === undefined ? undefined : this.bucket(bucket);
    const wait = b ? b.reserve(ctx.now) : 0;
    if (wait > 0) {
      this.throttled.set(msg.reqId, msg);
      ctx.setTimer(wait, 'conn:send', msg.reqId);
      return;
    }
    this.write(ctx, msg);
  }

  private bucket(name: string): TokenBucketRateLimiter | undefined {
    let b = this.buckets.get(name);
    if (!b && this.perClient) this.buckets.set(name, (b = new TokenBucketRateLimiter(this.perClient.qps, this.perClient.burst)));
    return b;
  }

  /** The request still waits for its rate limiter: it is not on any connection yet. */
  isThrottled(reqId: number): boolean {
    return this.throttled.has(reqId);
  }

  /** The caller gave up on a request (timeout, watch stopped): RST_STREAM, or it is simply never sent. */
  cancel(ctx: ActorContext, reqId: number): void {
    if (this.throttled.delete(reqId)) return;
    const q = this.dialQueue.findIndex((m) => m.reqId === reqId);
    if (q >= 0) {
      this.dialQueue.splice(q, 1);
      return;
    }
    if (this.state === 'open') ctx.send(this.server, httpMsg.cancel(reqId));
  }

  private write(ctx: ActorContext, msg: HttpRequestMsg): void {
    if (this.state === 'open') {
      ctx.send(this.server, msg);
      this.armHealth(ctx);
      return;
    }
    this.dialQueue.push(msg);
    if (this.state === 'closed') this.dial(ctx);
  }

  private dial(ctx: ActorContext): void {
    this.state = 'dialing';
    this.pingSeq++;
    this.pingAt = ctx.now;
    ctx.send(this.server, httpMsg.ping(this.pingSeq, true));
    this.dialTimer = ctx.setTimer(DIAL_TIMEOUT_MS, 'conn:dial', this.pingSeq);
    ctx.setTimer(SYN_RTO_MS, 'conn:syn', { seq: this.pingSeq, rto: SYN_RTO_MS });
  }

  /**
   * Every message from the server comes here first. True when it was the
   * transport's own (a PING's ACK) and the owner has nothing to do with it.
   */
  receive(ctx: ActorContext, from: ActorId, p: Payload): boolean {
    if (from !== this.server) return false;
    this.lastReadAt = ctx.now;
    if (p.type !== 'HttpPong') return false;
    if ((p as HttpPongMsg).seq !== this.pingSeq) return true;
    this.pingAt = -1;
    if (this.state === 'dialing') {
      this.state = 'open';
      if (this.dialTimer >= 0) ctx.cancelTimer(this.dialTimer);
      this.dialTimer = -1;
      for (const m of this.dialQueue.splice(0)) ctx.send(this.server, m);
      this.armHealth(ctx);
    }
    return true;
  }

  /**
   * A `conn:` timer. `busy`: the owner has requests in flight (an idle
   * connection is left alone). Returns 'closed' when the connection was closed
   * and the owner must fail its requests in flight.
   */
  timer(ctx: ActorContext, tag: string, data: unknown, busy: boolean): 'closed' | null {
    switch (tag) {
      case 'conn:send': {
        const msg = this.throttled.get(data as number);
        if (!msg) return null;
        this.throttled.delete(msg.reqId);
        this.write(ctx, msg);
        return null;
      }
      case 'conn:syn': {
        // The SYN went unanswered: the kernel sends it again, backing off (1, 3, 7, 15 s …).
        const { seq, rto } = data as { seq: number; rto: number };
        if (this.state !== 'dialing' || seq !== this.pingSeq) return null;
        ctx.send(this.server, httpMsg.ping(seq, true));
        ctx.setTimer(rto * 2, 'conn:syn', { seq, rto: rto * 2 });
        return null;
      }
      case 'conn:dial':
        if (this.state !== 'dialing' || data !== this.pingSeq) return null;
        this.dialTimer = -1;
        return this.close(ctx);
      case 'conn:health':
        this.healthArmed = false;
        return this.checkHealth(ctx, busy);
      default:
        return null;
    }
  }

  private checkHealth(ctx: ActorContext, busy: boolean): 'closed' | null {
    if (this.state !== 'open') return null;
    if (this.pingAt >= 0) {
      if (ctx.now - this.pingAt >= PING_TIMEOUT_MS) return this.close(ctx);
      this.arm(ctx, this.pingAt + PING_TIMEOUT_MS);
      return null;
    }
    const idleUntil = this.lastReadAt + READ_IDLE_TIMEOUT_MS;
    if (ctx.now < idleUntil) {
      this.arm(ctx, idleUntil);
      return null;
    }
    if (!busy) return null; // re-armed by the next request
    this.pingSeq++;
    this.pingAt = ctx.now;
    ctx.send(this.server, httpMsg.ping(this.pingSeq));
    this.arm(ctx, ctx.now + PING_TIMEOUT_MS);
    return null;
  }

  private armHealth(ctx: ActorContext): void {
    if (this.healthArmed) return;
    // A connection that sat idle starts its read-idle period with this request.
    if (ctx.now - this.lastReadAt >= READ_IDLE_TIMEOUT_MS && this.pingAt < 0) this.lastReadAt = ctx.now;
    this.arm(ctx, Math.max(this.lastReadAt + READ_IDLE_TIMEOUT_MS, ctx.now));
  }

  private arm(ctx: ActorContext, at: number): void {
    this.healthArmed = true;
    ctx.setTimer(Math.max(0, at - ctx.now), 'conn:health');
  }

  /**
   * Closes the connection (health check, dial timeout, the kubelet's
   * closeAllConns): what was written on it is lost; the next request dials.
   */
  close(ctx: ActorContext): 'closed' {
    ctx.closeConnection(this.server);
    this.state = 'closed';
    this.pingAt = -1;
    this.pingSeq++;
    this.dialQueue.length = 0;
    if (this.dialTimer >= 0) ctx.cancelTimer(this.dialTimer);
    this.dialTimer = -1;
    this.closes++;
    return 'closed';
  }

  /**
   * The server's host refused a message (its process is down) or reset the
   * connection: 'closed' when that ends the connection (a refused dial or a
   * reset), so the owner fails its requests in flight.
   */
  refused(ctx: ActorContext, p: Payload): 'closed' | null {
    if (p.type === 'HttpPing') return this.close(ctx);
    return null;
  }
}

registerClass('Transport', Transport);
registerClass('TokenBucketRateLimiter', TokenBucketRateLimiter);
