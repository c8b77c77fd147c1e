// The client transport on the simulated network, between a client actor and a
// server that answers requests and PINGs: the token bucket spreads a burst as
// x/time/rate does, and the health check ends requests a partition swallowed.
import { describe, expect, it } from 'vitest';
import type { Actor, ActorId, Payload } from '../sim/actor';
import { registerActorKind, Simulation, type ActorContext } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import { httpMsg, type HttpPingMsg, type HttpRequestMsg } from '../apiserver/http/messages';
import { DIAL_TIMEOUT_MS, PING_TIMEOUT_MS, READ_IDLE_TIMEOUT_MS, TokenBucketRateLimiter, Transport, TRANSPORT_TIMERS } from './transport';

/** Answers every request at once, or holds it open (a watch) when its path says so. */
class EchoServer implements Actor {
  arrivals: { reqId: number; at: number }[] = [];
  start(): void {}
  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'HttpPing') return ctx.send(from, httpMsg.pong(p as HttpPingMsg));
    if (p.type !== 'HttpRequest') return;
    const m = p as HttpRequestMsg;
    this.arrivals.push({ reqId: m.reqId, at: ctx.now });
    if (m.request.path !== '/watch') ctx.send(from, httpMsg.response(m.reqId, { status: 200, headers: {}, body: '{}' }));
  }
  timer(): void {}
  persisted(): void {}
}

/** Sends through a Transport and records how each request ended. */
class Client implements Actor {
  transport = new Transport('server', { main: { qps: 50, burst: 100 } });
  pending = new Set<number>();
  answered: { reqId: number; at: number }[] = [];
  failed: { reqId: number; at: number }[] = [];
  private next = 1;
  start(): void {}
  send(ctx: ActorContext, path = '/x'): number {
    const reqId = this.next++;
    this.pending.add(reqId);
    this.transport.send(ctx, httpMsg.request(reqId, { method: 'GET', path, query: {}, headers: {} }), 'main');
    return reqId;
  }
  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (this.transport.receive(ctx, from, p)) return;
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    if (p.type === 'HttpResponse' && this.pending.delete(reqId)) this.answered.push({ reqId, at: ctx.now });
  }
  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (!TRANSPORT_TIMERS.has(tag)) return;
    if (!this.transport.timer(ctx, tag, data, this.pending.size > 0)) return;
    for (const reqId of [...this.pending]) {
      if (this.transport.isThrottled(reqId)) continue;
      this.pending.delete(reqId);
      this.failed.push({ reqId, at: ctx.now });
    }
  }
  persisted(): void {}
}
registerClass('test.EchoServer', EchoServer);
registerClass('test.TransportClient', Client);
registerActorKind<null, null>({ kind: 'test-echo-server', initDurable: () => null, create: () => new EchoServer() });
registerActorKind<null, null>({ kind: 'test-transport-client', initDurable: () => null, create: () => new Client() });

function setup() {
  const sim = new Simulation({ seed: 3, traceCapacity: 10 });
  sim.spawn('server', 'test-echo-server', null);
  sim.spawn('client', 'test-transport-client', null);
  sim.network.configure('*', '*', { minMs: 1, maxMs: 1 });
  return { sim, ctx: sim.context('client'), client: () => sim.actor<Client>('client')!, server: () => sim.actor<EchoServer>('server')! };
}

describe('TokenBucketRateLimiter (x/time/rate, as client-go uses it)', () => {
  it('lets the burst through at once, then one request every 1/qps', () => {
    const b = new TokenBucketRateLimiter(20, 30);
    const waits = Array.from({ length: 40 }, () => b.reserve(1000));
    expect(waits.slice(0, 30).every((w) => w === 0)).toBe(true);
    expect(waits.slice(30)).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1) * 50));
    // A second later 20 tokens came back, less the 10 borrowed.
    const later = Array.from({ length: 11 }, () => b.reserve(2000));
    expect(later.filter((w) => w === 0)).toHaveLength(10);
    expect(later[10]).toBe(50);
  });
});

describe('Transport', () => {
  it('spreads a burst of 250 requests as a 50 qps, 100 burst bucket says', () => {
    const { sim, ctx, client, server } = setup();
    const t0 = sim.now;
    for (let i = 0; i < 250; i++) client().send(ctx);
    sim.runFor(5000);
    const at = server().arrivals.map((a) => a.at - t0);
    expect(at).toHaveLength(250);
    // 100 at once (one network hop), then one every 20 ms: the 250th at 150 × 20 ms = 3 s.
    expect(at.slice(0, 100).every((t) => t === 1)).toBe(true);
    expect(at[100]).toBeCloseTo(21, 6);
    expect(at[249]).toBeCloseTo(3001, 6);
    // In order, and never faster than the bucket refills.
    for (let i = 101; i < 250; i++) expect(at[i]! - at[i - 1]!).toBeCloseTo(20, 6);
    expect(client().answered).toHaveLength(250);
  });

  it('a partition: PING after 30 s without a read, closed 15 s later; the next request dials once the network heals', () => {
    const { sim, ctx, client, server } = setup();
    const watch = client().send(ctx, '/watch');
    sim.runFor(10);
    expect(server().arrivals.map((a) => a.reqId)).toEqual([watch]);
    const cutAt = sim.now;
    sim.network.partition([['client'], ['server']]);
    sim.runFor(READ_IDLE_TIMEOUT_MS + PING_TIMEOUT_MS + 100);
    expect(client().failed).toEqual([{ reqId: watch, at: expect.any(Number) }]);
    const failedAt = client().failed[0]!.at;
    // The watch was last read from when it was opened (~1 ms after it left).
    expect(failedAt - cutAt).toBeGreaterThanOrEqual(READ_IDLE_TIMEOUT_MS + PING_TIMEOUT_MS - 20);
    expect(failedAt - cutAt).toBeLessThanOrEqual(READ_IDLE_TIMEOUT_MS + PING_TIMEOUT_MS);
    expect(client().transport.state).toBe('closed');

    // A request now dials: the SYN is lost, retried at 1, 3, 7 s; the network heals at 5 s.
    const retry = client().send(ctx);
    const dialAt = sim.now;
    expect(client().transport.state).toBe('dialing');
    sim.runFor(5000);
    sim.network.heal();
    sim.runFor(3000);
    expect(client().transport.state).toBe('open');
    const answer = client().answered.find((a) => a.reqId === retry)!;
    // The SYN of 7 s gets through: handshake (2 hops), then the request and its answer (2 hops).
    expect(answer.at - dialAt).toBe(7000 + 4);
  });

  it('a dial that never connects fails its requests after 30 s', () => {
    const { sim, ctx, client } = setup();
    sim.network.partition([['client'], ['server']]);
    client().transport.close(ctx);
    const r = client().send(ctx);
    const t0 = sim.now;
    sim.runFor(DIAL_TIMEOUT_MS + 100);
    expect(client().failed).toEqual([{ reqId: r, at: t0 + DIAL_TIMEOUT_MS }]);
  });

  it('an idle connection is not pinged; a quiet one with a request in flight is, and a PING answered keeps it', () => {
    const { sim, ctx, client, server } = setup();
    sim.runFor(120_000);
    expect(client().transport.closes).toBe(0);
    client().send(ctx, '/watch');
    sim.runFor(READ_IDLE_TIMEOUT_MS * 4);
    expect(client().failed).toEqual([]);
    expect(client().transport.state).toBe('open');
    expect(server().arrivals).toHaveLength(1);
  });
});
