// Small actors used by kernel tests and the kernel benchmark.
import type { Actor, ActorId, Payload } from './actor';
import type { ActorContext } from './kernel';
import { registerActorKind } from './kernel';
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
