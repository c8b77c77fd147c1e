// Small actors used by kernel tests and the kernel benchmark.
import type { Actor, ActorId, Payload } from './actor';
import type { ActorContext } from './kernel';
import { registerActorKind, registerStreamTypes } from './kernel';
import { registerClass } from './serial';

export interface PingConfig {
  peers: ActorId[];
  /** Mean think time between sends, ms. */
  intervalMs: number;
}
export interface PingDurable {
  /** Incremented only through a persisted write. */
  counter: number;
}
interface Ping extends Payload {
  type: 'Ping' | 'Pong';
  n: number;
}

/** Sends pings to random peers, answers pongs, persists a counter on each pong. */
export class PingActor implements Actor {
  received = 0;
  constructor(
    readonly id: ActorId,
    readonly config: PingConfig,
    readonly durable: PingDurable,
  ) {}
  start(ctx: ActorContext): void {
    ctx.setTimer(ctx.rng.float() * this.config.intervalMs, 'send');
  }
  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    const m = p as Ping;
    this.received++;
    if (m.type === 'Ping') ctx.send(from, { type: 'Pong', n: m.n } as Ping);
    else ctx.persist('count', m.n);
  }
  timer(ctx: ActorContext, tag: string): void {
    if (tag !== 'send' || this.config.peers.length === 0) return;
    ctx.send(ctx.rng.pick(this.config.peers), { type: 'Ping', n: this.received } as Ping);
    ctx.setTimer(ctx.rng.float() * 2 * this.config.intervalMs, 'send');
  }
  persisted(_ctx: ActorContext, _tag: string, data: unknown): void {
    this.durable.counter += 1 + ((data as number) % 2);
  }
}

registerClass('PingActor', PingActor);
registerActorKind<PingConfig, PingDurable>({
  kind: 'ping',
  initDurable: () => ({ counter: 0 }),
  create: (id, config, durable) => new PingActor(id, config, durable),
});

export interface StreamConfig {
  /** Where to send (empty: only receives). */
  to: ActorId | null;
  count: number;
  intervalMs: number;
}
interface StreamMsg extends Payload {
  type: 'HttpRequest' | 'Ping';
  seq: number;
}

/**
 * Writes `count` numbered messages on a TCP stream (an Http* payload type) and,
 * interleaved, as many datagram-like ones (Ping); records what it receives.
 */
export class StreamActor implements Actor {
  readonly got: { type: string; seq: number; at: number }[] = [];
  /** Connection resets heard, with how many messages had arrived by then. */
  readonly resets: { from: ActorId; afterGot: number }[] = [];
  private sent = 0;
  constructor(
    readonly id: ActorId,
    readonly config: StreamConfig,
  ) {}
  start(ctx: ActorContext): void {
    if (this.config.to) ctx.setTimer(this.config.intervalMs, 'send');
  }
  receive(ctx: ActorContext, _from: ActorId, p: Payload): void {
    const m = p as StreamMsg;
    this.got.push({ type: m.type, seq: m.seq, at: ctx.now });
  }
  timer(ctx: ActorContext, tag: string): void {
    if (tag !== 'send' || !this.config.to || this.sent >= this.config.count) return;
    const seq = this.sent++;
    ctx.send(this.config.to, { type: 'HttpRequest', seq } as StreamMsg);
    ctx.send(this.config.to, { type: 'Ping', seq } as StreamMsg);
    ctx.setTimer(this.config.intervalMs, 'send');
  }
  peerReset(_ctx: ActorContext, peer: ActorId): void {
    this.resets.push({ from: peer, afterGot: this.got.length });
  }
  persisted(): void {}
}

registerStreamTypes(['HttpRequest']);
registerClass('StreamActor', StreamActor);
registerActorKind<StreamConfig, null>({
  kind: 'stream',
  initDurable: () => null,
  create: (id, config) => new StreamActor(id, config),
});
