// The simulated network's fault model: per-link latency, loss, duplication,
// reordering, and partitions (directional blocks, so asymmetric partitions are
// expressible). Pure policy: the kernel asks it what happens to each message.
import { registerClass } from './serial';
import type { ActorId } from './actor';
import type { Rng } from './rng';
import { inPrefix, ipv4ToInt, parseCidr } from './ipv4';

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

export const DROP_PARTITIONED = -1;
export const DROP_LOSS = -2;

/**
 * A TCP stream's unacknowledged data on a link (kernel.ts holds and resends
 * it): what the sender's TCP keeps in its send queue while the path is cut or
 * lossy, in order, with the incarnation of the process that wrote it.
 */
export interface HeldMessage<E = unknown> {
  ev: E;
  incarnation: number;
}

/** Per directed link: its own settings, whether it is cut, its FIFO horizon, a TCP stream's held data. */
export interface LinkState {
  own: Partial<LinkConfig> | null;
  /** defaults + own, rebuilt when either changes (version check). */
  merged: LinkConfig;
  version: number;
  blocked: boolean;
  lastArrival: number;
  /** Stream messages waiting for a retransmission to get through (null: none). */
  held: HeldMessage[] | null;
  /** Bumped whenever `held` is emptied, so a retransmission timer of an earlier hold is ignored. */
  holdGen: number;
  /** The retransmission timeout now (doubling on each retransmission) and how many were made. */
  rtoMs: number;
  retries: number;
  /**
   * The receiving end closed its connection: what the sender still writes on
   * it is the dead connection's, and goes nowhere. Cleared when the receiver
   * writes to the sender again (a new connection).
   */
  closed: boolean;
  /** The receiver's host has answered the dead connection's data with a reset (once per close). */
  resetSent: boolean;
}

export class Network {
  defaults: LinkConfig = { ...DEFAULT_LINK };
  /** from → to → state; created lazily on first use. Insertion order is the order views list links in. */
  private links = new Map<ActorId, Map<ActorId, LinkState>>();
  /**
   * The same LinkStates by endpoint number (grid[from][to]): the kernel numbers
   * each actor once (endpoint()) and routes by number, so the per-message path
   * does no string-keyed lookups.
   */
  private endpoints = new Map<ActorId, number>();
  private endpointNames: ActorId[] = [];
  private grid: (LinkState | undefined)[][] = [];
  private version = 0;
  private blockedCount = 0;
  /** The partition as the user described it, for views. */
  groups: ActorId[][] = [];
  /**
   * Routes to pod networks: which host each podCIDR lives on, as a cloud's
   * route table holds them (the route controller, or a CNI agent, adds one
   * per node). It is the network's own state, like the links.
   */
  private podRoutes: { cidr: string; base: number; bits: number; to: ActorId }[] = [];

  /** Routes `cidr` to host `to` (replacing any route of the same CIDR). */
  addPodRoute(cidr: string, to: ActorId): void {
    const c = parseCidr(cidr);
    if (!c) return;
    this.podRoutes = this.podRoutes.filter((r) => r.cidr !== cidr);
    this.podRoutes.push({ cidr, ...c, to });
  }

  /** The host a pod address is routed to (the longest matching prefix), if any. */
  podRouteOf(ip: string): ActorId | undefined {
    const n = ipv4ToInt(ip);
    if (Number.isNaN(n)) return undefined;
    let best: { bits: number; to: ActorId } | undefined;
    for (const r of this.podRoutes) {
      if (!inPrefix(n, r.base, r.bits)) continue;
      if (!best || r.bits > best.bits) best = r;
    }
    return best?.to;
  }

  /** A stable number for an actor id (assigned on first use). */
  endpoint(id: ActorId): number {
    let n = this.endpoints.get(id);
    if (n === undefined) {
      n = this.endpointNames.length;
      this.endpoints.set(id, n);
      this.endpointNames.push(id);
      this.grid.push([]);
    }
    return n;
  }

  private state(from: ActorId, to: ActorId): LinkState {
    return this.stateOf(this.endpoint(from), this.endpoint(to));
  }

  /** The state of a directed link by endpoint numbers (the kernel's stream path). */
  linkBetween(fromN: number, toN: number): LinkState {
    return this.stateOf(fromN, toN);
  }

  /** Links out of and into an endpoint that hold stream data. */
  heldLinksOf(n: number): LinkState[] {
    const out: LinkState[] = [];
    for (const ls of this.grid[n] ?? []) if (ls?.held) out.push(ls);
    for (const row of this.grid) {
      const ls = row[n];
      if (ls?.held) out.push(ls);
    }
    return out;
  }

  /**
   * Arrival of a stream message (TCP): after every earlier one on its link
   * whatever the link's reorder setting, and never duplicated (TCP delivers a
   * byte once, in order). Loss and cuts are the kernel's: it holds the message.
   */
  streamArrival(ls: LinkState, now: number, rng: Rng): number {
    const cfg = ls.merged;
    let t = now + cfg.minMs + (cfg.maxMs - cfg.minMs) * rng.float();
    if (t < ls.lastArrival) t = ls.lastArrival;
    ls.lastArrival = t;
    return t;
  }

  private stateOf(fromN: number, toN: number): LinkState {
    const gridRow = this.grid[fromN]!;
    let ls = gridRow[toN];
    if (ls === undefined) {
      const from = this.endpointNames[fromN]!;
      const to = this.endpointNames[toN]!;
      let row = this.links.get(from);
      if (!row) this.links.set(from, (row = new Map()));
      ls = { own: null, merged: this.defaults, version: this.version, blocked: false, lastArrival: 0, held: null, holdGen: 0, rtoMs: 0, retries: 0, closed: false, resetSent: false };
      row.set(to, ls);
      while (gridRow.length < toN) gridRow.push(undefined);
      gridRow[toN] = ls;
    }
    if (ls.version !== this.version) {
      ls.merged = ls.own ? { ...this.defaults, ...ls.own } : this.defaults;
      ls.version = this.version;
    }
    return ls;
  }

  private eachLink(fn: (ls: LinkState) => void): void {
    for (const row of this.links.values()) for (const ls of row.values()) fn(ls);
  }

  /** Sets properties of one directed link, or of every link when from/to are '*'. */
  configure(from: ActorId | '*', to: ActorId | '*', patch: Partial<LinkConfig>): void {
    if (from === '*' && to === '*') {
      this.defaults = { ...this.defaults, ...patch };
    } else if (from === '*' || to === '*') {
      throw new RangeError('configure: give both ends of a link, or neither');
    } else {
      const ls = this.state(from, to);
      ls.own = { ...ls.own, ...patch };
    }
    this.version++;
  }

  link(from: ActorId, to: ActorId): LinkConfig {
    return this.state(from, to).merged;
  }

  /** Actors in different groups can no longer reach each other (both ways). */
  partition(groups: ActorId[][]): void {
    this.groups = groups.map((g) => [...g]);
    for (let i = 0; i < groups.length; i++) {
      for (let j = 0; j < groups.length; j++) {
        if (i === j) continue;
        for (const a of groups[i]!) for (const b of groups[j]!) this.block(a, b);
      }
    }
  }

  /** One-way cut: `from` can no longer reach `to`. */
  block(from: ActorId, to: ActorId): void {
    const ls = this.state(from, to);
    if (!ls.blocked) {
      ls.blocked = true;
      this.blockedCount++;
    }
  }

  /** Removes every partition and block, and per-link faults; latency settings stay. */
  heal(): void {
    this.groups = [];
    this.blockedCount = 0;
    this.eachLink((ls) => {
      ls.blocked = false;
      if (ls.own) {
        const { loss: _l, duplicate: _d, ...rest } = ls.own;
        ls.own = rest;
      }
    });
    this.defaults = { ...this.defaults, loss: 0, duplicate: 0 };
    this.version++;
  }

  isBlocked(from: ActorId, to: ActorId): boolean {
    return this.blockedCount > 0 && this.links.get(from)?.get(to)?.blocked === true;
  }

  /** isBlocked by endpoint numbers. */
  isBlockedBetween(fromN: number, toN: number): boolean {
    return this.blockedCount > 0 && this.grid[fromN]?.[toN]?.blocked === true;
  }

  blockedLinks(): [ActorId, ActorId][] {
    const out: [ActorId, ActorId][] = [];
    for (const [from, row] of this.links) for (const [to, ls] of row) if (ls.blocked) out.push([from, to]);
    return out;
  }

  /**
   * Decides the fate of one message sent now: its arrival time, or
   * DROP_PARTITIONED / DROP_LOSS. When the network duplicates it, the second
   * copy's arrival is left in `duplicateAt` (else -1). Allocation-free: this is
   * the kernel's hot path.
   */
  route(from: ActorId, to: ActorId, now: number, rng: Rng): number {
    return this.routeBetween(this.endpoint(from), this.endpoint(to), now, rng);
  }

  /** route() by endpoint numbers (the kernel's path). */
  routeBetween(fromN: number, toN: number, now: number, rng: Rng): number {
    this.duplicateAt = -1;
    const ls = this.stateOf(fromN, toN);
    if (ls.blocked) return DROP_PARTITIONED;
    const cfg = ls.merged;
    if (cfg.loss > 0 && rng.chance(cfg.loss)) return DROP_LOSS;
    const at = this.arrival(ls, cfg, now, rng);
    if (cfg.duplicate > 0 && rng.chance(cfg.duplicate)) this.duplicateAt = this.arrival(ls, cfg, now, rng);
    return at;
  }

  /** Arrival of the second copy of the last routed message, or -1. */
  duplicateAt = -1;

  private arrival(ls: LinkState, cfg: LinkConfig, now: number, rng: Rng): number {
    let t = now + cfg.minMs + (cfg.maxMs - cfg.minMs) * rng.float();
    if (!cfg.reorder) {
      if (t < ls.lastArrival) t = ls.lastArrival;
      ls.lastArrival = t;
    }
    return t;
  }
}

registerClass('Network', Network);
