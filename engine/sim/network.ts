// The simulated network's fault model: per-link latency, loss, duplication,
// reordering, and partitions (directional blocks, so asymmetric partitions are
// expressible). Pure policy: the kernel asks it what happens to each message.
import { registerClass } from './serial';
import type { ActorId } from './actor';
import type { Rng } from './rng';

export interface LinkConfig {
  /** One-way latency, uniformly distributed in [minMs, maxMs]. */
  minMs: number;
  maxMs: number;
  /** Probability that a message is lost. */
  loss: number;
  /** Probability that a message is delivered twice. */
  duplicate: number;
  /**
   * Whether messages on this link may overtake each other. Off by default: etcd
   * peers talk over TCP streams, which are FIFO.
   */
  reorder: boolean;
}

export const DEFAULT_LINK: LinkConfig = { minMs: 0.5, maxMs: 1.5, loss: 0, duplicate: 0, reorder: false };

export interface Delivery {
  /** Absolute virtual times at which copies arrive; empty when the message is lost. */
  at: number[];
  dropped?: 'partitioned' | 'loss';
}

function linkKey(from: ActorId, to: ActorId): string {
  return `${from}>${to}`;
}

export class Network {
  defaults: LinkConfig = { ...DEFAULT_LINK };
  private links = new Map<string, Partial<LinkConfig>>();
  private blocked = new Set<string>();
  /** Last arrival time per link, to keep FIFO links FIFO. */
  private lastArrival = new Map<string, number>();
  /** The partition as the user described it, for views. */
  groups: ActorId[][] = [];

  /** Sets properties of one directed link, or of every link when from/to are '*'. */
  configure(from: ActorId | '*', to: ActorId | '*', patch: Partial<LinkConfig>): void {
    if (from === '*' && to === '*') {
      this.defaults = { ...this.defaults, ...patch };
      return;
    }
    const key = linkKey(from, to);
    this.links.set(key, { ...this.links.get(key), ...patch });
  }

  link(from: ActorId, to: ActorId): LinkConfig {
    const own = this.links.get(linkKey(from, to));
    return own ? { ...this.defaults, ...own } : this.defaults;
  }

  /** Actors in different groups can no longer reach each other (both ways). */
  partition(groups: ActorId[][]): void {
    this.groups = groups.map((g) => [...g]);
    for (let i = 0; i < groups.length; i++) {
      for (let j = 0; j < groups.length; j++) {
        if (i === j) continue;
        for (const a of groups[i]!) for (const b of groups[j]!) this.blocked.add(linkKey(a, b));
      }
    }
  }

  /** One-way cut: `from` can no longer reach `to`. */
  block(from: ActorId, to: ActorId): void {
    this.blocked.add(linkKey(from, to));
  }

  /** Removes every partition and block, and per-link faults; latency defaults stay. */
  heal(): void {
    this.blocked.clear();
    this.groups = [];
    for (const [key, cfg] of this.links) {
      const { loss: _l, duplicate: _d, ...rest } = cfg;
      this.links.set(key, rest);
    }
    this.defaults = { ...this.defaults, loss: 0, duplicate: 0 };
  }

  isBlocked(from: ActorId, to: ActorId): boolean {
    return this.blocked.size > 0 && this.blocked.has(linkKey(from, to));
  }

  blockedLinks(): [ActorId, ActorId][] {
    return [...this.blocked].map((k) => k.split('>') as [ActorId, ActorId]);
  }

  /** Decides the fate of one message sent now. */
  route(from: ActorId, to: ActorId, now: number, rng: Rng): Delivery {
    if (this.isBlocked(from, to)) return { at: [], dropped: 'partitioned' };
    const cfg = this.link(from, to);
    if (cfg.loss > 0 && rng.chance(cfg.loss)) return { at: [], dropped: 'loss' };
    const copies = cfg.duplicate > 0 && rng.chance(cfg.duplicate) ? 2 : 1;
    const at: number[] = [];
    const key = linkKey(from, to);
    for (let c = 0; c < copies; c++) {
      let t = now + cfg.minMs + (cfg.maxMs - cfg.minMs) * rng.float();
      if (!cfg.reorder) {
        const last = this.lastArrival.get(key) ?? 0;
        if (t < last) t = last;
        this.lastArrival.set(key, t);
      }
      at.push(t);
    }
    return { at };
  }
}

registerClass('Network', Network);
