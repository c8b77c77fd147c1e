// The simulation kernel: one virtual clock, one event queue, one seeded PRNG.
// Actors are addressed by stable names and reached only through messages on the
// simulated network, timers and (durable) disk writes. Nothing here reads the
// wall clock: hosts decide how fast virtual time runs.
import type { Actor, ActorId, ActorKind, Payload } from './actor';
import { EventQueue } from './eventQueue';
import { DROP_PARTITIONED, Network, type HeldMessage, type LinkState } from './network';
import { Rng } from './rng';
import { DEFAULT_EPOCH_MS, enterEpoch } from './epoch';
import { registerClass } from './serial';
import { TraceBuffer, TraceCode } from './trace';

export type SimEvent =
  | {
      type: 'deliver';
      msgId: number;
      from: ActorId;
      to: ActorId;
      payload: Payload;
      sentAt: number;
      /** `from` and `payload.type` as trace string ids (interned at send, so delivery looks nothing up). */
      traceFrom: number;
      traceType: number;
      /** `from` and `to` as network endpoints, which also index the kernel's slots (no map lookup per delivery). */
      fromN: number;
      toN: number;
    }
  | { type: 'timer'; actor: ActorId; slot: number; incarnation: number; timerId: number; tag: string; data: unknown }
  | { type: 'fsync'; actor: ActorId; slot: number; incarnation: number; tag: string; data: unknown }
  | { type: 'refused'; from: ActorId; to: ActorId; msgId: number; payload: Payload }
  | { type: 'reset'; from: ActorId; to: ActorId }
  /** A TCP retransmission timeout on a link holding stream data (gen: the hold it belongs to). */
  | { type: 'retransmit'; fromN: number; toN: number; gen: number };

type DeliverEvent = Extract<SimEvent, { type: 'deliver' }>;

/**
 * Messages of TCP streams: the protocols that register their payload types
 * here (the HTTP/2 connections to kube-apiserver, etcd's client gRPC). TCP
 * never loses, duplicates or reorders what it delivers: a segment lost on a cut
 * or lossy path stays in the sender's queue and is sent again when the
 * retransmission timer fires (Linux: TCP_RTO_MIN 200 ms, doubling up to
 * TCP_RTO_MAX 120 s, given up after tcp_retries2 = 15), and whatever follows it
 * waits behind it. So a short cut delays requests, answers and watch events
 * instead of losing them; longer ones are ended by the endpoints' own checks
 * (client-go's HTTP/2 PING closes the connection, which discards what it held:
 * closeConnection). Everything else (Raft's peer messages: rafthttp drops what
 * it cannot send and Raft resends) keeps datagram semantics.
 */
const STREAM_TYPES = new Set<string>();

/** Declares payload types that travel on TCP streams (module load time, from the protocol's messages). */
export function registerStreamTypes(types: Iterable<string>): void {
  for (const t of types) STREAM_TYPES.add(t);
}

function isStream(p: Payload): boolean {
  // A dial's handshake (a PING marked syn) is not stream data: the dialer resends it on TCP's SYN schedule.
  return STREAM_TYPES.has(p.type) && (p as { syn?: true }).syn !== true;
}

export const TCP_RTO_MIN_MS = 200;
export const TCP_RTO_MAX_MS = 120_000;
export const TCP_RETRIES2 = 15;

const kinds = new Map<string, ActorKind<unknown, unknown>>();

/** Makes an actor kind spawnable (module registry of immutable factories). */
export function registerActorKind<C, D>(kind: ActorKind<C, D>): void {
  kinds.set(kind.kind, kind as ActorKind<unknown, unknown>);
}

function kindOf(name: string): ActorKind<unknown, unknown> {
  const k = kinds.get(name);
  if (!k) throw new Error(`kernel: unknown actor kind ${name}`);
  return k;
}

export interface DiskConfig {
  /** Latency of one fsync (a WAL write), ms. */
  fsyncMs: number;
}

export const DEFAULT_FSYNC_MS = 1;

interface Slot {
  id: ActorId;
  kind: string;
  config: unknown;
  /** Survives crashes: only what the actor persisted through ctx.persist(). */
  durable: unknown;
  actor: Actor | null;
  incarnation: number;
  ctx: ActorContext;
  disk: DiskConfig;
  /** When the disk finishes the writes already queued. */
  diskBusyUntil: number;
  rng: Rng;
  /** The id's number in the trace's string table and in the network (looked up once, at spawn). */
  traceId: number;
  netId: number;
  /**
   * The last destination and message type this actor sent, with their network
   * endpoint and trace string id (both stable once assigned): a follower
   * answers the same leader with the same message type, a leader sends one
   * type to every follower in turn, so most sends skip two map lookups.
   */
  sendTo: ActorId;
  sendToN: number;
  sendType: string;
  sendTypeId: number;
  /** The same for the tag of its last timer or disk write. */
  tag: string;
  tagId: number;
}

export interface KernelOptions {
  seed: number;
  /** Wall ms virtual time 0 stands for (engine/sim/epoch.ts); the fixed default when absent. */
  epochMs?: number;
  traceCapacity?: number;
}

export class Simulation {
  now = 0;
  /** Number of events processed: with `now`, the position of a command in the run. */
  processed = 0;
  readonly seed: number;
  /** Wall ms virtual time 0 stands for: what timestamps in API objects are written from. */
  readonly epochMs: number;
  readonly queue = new EventQueue<SimEvent>();
  readonly network = new Network();
  readonly trace: TraceBuffer;
  private readonly rng: Rng;
  private readonly netRng: Rng;
  private readonly slots = new Map<ActorId, Slot>();
  /**
   * The same slots by network endpoint number (stable per actor id, so an id
   * removed and spawned again gets its old number back): events carry the
   * number and are dispatched by array index.
   */
  private readonly slotsByNet: (Slot | undefined)[] = [];
  /**
   * Timer bookkeeping by 32-id word (word w covers timer ids 32(timerWordBase + w)
   * .. +31): how many of its timers are still queued, and which were cancelled.
   * Cancelling and the check when a timer comes due are bit operations; a Set
   * of cancelled ids churned through thousands of entries (a client cancels an
   * 8 s attempt timer per request). Words whose timers have all come due are
   * dropped from the front.
   */
  private timerPending: number[] = [];
  private timerCancelled: number[] = [];
  private timerWordBase = 0;
  /** Cancels of timer ids not issued yet (never happens in practice; kept for exactness). */
  private readonly cancelledTimers = new Set<number>();
  private nextMsgId = 1;
  private nextTimerId = 1;
  /** Links holding stream data, and links whose receiver closed the connection (fast checks on the hot paths). */
  private holding = 0;
  private closedLinks = 0;

  constructor(opts: KernelOptions) {
    this.seed = opts.seed;
    this.epochMs = opts.epochMs ?? DEFAULT_EPOCH_MS;
    enterEpoch(this.epochMs);
    this.rng = new Rng(opts.seed);
    this.netRng = this.rng.fork('network');
    this.trace = new TraceBuffer(opts.traceCapacity ?? 10_000);
  }

  // ---- actors ----------------------------------------------------------

  spawn<C>(id: ActorId, kind: string, config: C): void {
    if (this.slots.has(id)) throw new Error(`kernel: actor ${id} already exists`);
    enterEpoch(this.epochMs);
    const k = kindOf(kind);
    const slot: Slot = {
      id,
      kind,
      config,
      durable: k.initDurable(config),
      actor: null,
      incarnation: 0,
      ctx: undefined as unknown as ActorContext,
      disk: { fsyncMs: DEFAULT_FSYNC_MS },
      diskBusyUntil: 0,
      rng: this.rng.fork(`actor:${id}`),
      traceId: this.trace.intern(id),
      netId: this.network.endpoint(id),
      sendTo: '',
      sendToN: -1,
      sendType: '',
      sendTypeId: 0,
      tag: '',
      tagId: 0,
    };
    slot.ctx = new ActorContext(this, slot);
    this.slots.set(id, slot);
    while (this.slotsByNet.length <= slot.netId) this.slotsByNet.push(undefined);
    this.slotsByNet[slot.netId] = slot;
    this.boot(slot);
  }

  /** Removes an actor for good (e.g. a member removed from the cluster). */
  remove(id: ActorId): void {
    const slot = this.slot(id);
    slot.actor = null;
    slot.incarnation++;
    this.slots.delete(id);
    this.slotsByNet[slot.netId] = undefined;
  }

  private boot(slot: Slot): void {
    slot.actor = kindOf(slot.kind).create(slot.id, slot.config, slot.durable, { rng: slot.rng, now: this.now });
    slot.actor.start(slot.ctx);
  }

  crash(id: ActorId): void {
    const slot = this.slot(id);
    if (!slot.actor) return;
    slot.actor = null;
    slot.incarnation++; // pending timers and unfinished disk writes die with it
    slot.diskBusyUntil = this.now;
    this.trace.record({ t: this.now, kind: 'crash', to: id });
    // Its sockets die with it: what its TCP still held is never sent.
    for (const ls of this.network.heldLinksOf(slot.netId)) this.discardHeld(ls, 'sender-down', slot.netId);
    // The process died but its host lives: the host's kernel resets every open
    // connection, and peers learn it one network hop later (unless cut off).
    for (const other of this.slots.values()) {
      if (other === slot || !other.actor?.peerReset) continue;
      const at = this.network.route(id, other.id, this.now, this.netRng);
      if (at >= 0) this.queue.push(at, { type: 'reset', from: id, to: other.id });
    }
  }

  restart(id: ActorId): void {
    const slot = this.slot(id);
    if (slot.actor) return;
    slot.incarnation++;
    this.trace.record({ t: this.now, kind: 'restart', to: id });
    this.boot(slot);
  }

  isUp(id: ActorId): boolean {
    return this.slots.get(id)?.actor != null;
  }

  has(id: ActorId): boolean {
    return this.slots.has(id);
  }

  actorIds(): ActorId[] {
    return [...this.slots.keys()];
  }

  kindOf(id: ActorId): string | undefined {
    return this.slots.get(id)?.kind;
  }

  /** The live actor, for observers (views, checkers). Components never call this. */
  actor<A extends Actor = Actor>(id: ActorId): A | null {
    return (this.slots.get(id)?.actor as A | null) ?? null;
  }

  /** The actor's durable state, for observers. */
  durable<D>(id: ActorId): D {
    return this.slot(id).durable as D;
  }

  /** Context of an actor, for hosts that inject work into it (commands). */
  context(id: ActorId): ActorContext {
    return this.slot(id).ctx;
  }

  disk(id: ActorId): DiskConfig {
    return this.slot(id).disk;
  }

  setFsyncLatency(id: ActorId, fsyncMs: number): void {
    this.slot(id).disk.fsyncMs = fsyncMs;
    this.trace.record({ t: this.now, kind: 'fault', to: id, type: 'slow-disk', detail: String(fsyncMs) });
  }

  private slot(id: ActorId): Slot {
    const s = this.slots.get(id);
    if (!s) throw new Error(`kernel: no actor ${id}`);
    return s;
  }

  // ---- time --------------------------------------------------------------

  /** Processes the next event. Returns false when the queue is empty. */
  step(): boolean {
    enterEpoch(this.epochMs);
    const q = this.queue;
    const time = q.peekTime();
    if (time === undefined) return false;
    const ev = q.popEvent()!;
    if (time > this.now) this.now = time;
    this.processed++;
    this.dispatch(ev);
    return true;
  }

  /** Processes every event due at or before `t`, then sets the clock to `t`. */
  runUntil(t: number): void {
    enterEpoch(this.epochMs);
    const q = this.queue;
    for (;;) {
      // step(), inlined, with the queue's peek and pop in one call.
      const ev = q.popDue(t);
      if (ev === undefined) break;
      const next = q.poppedTime;
      if (next > this.now) this.now = next;
      this.processed++;
      this.dispatch(ev);
    }
    if (t > this.now) this.now = t;
  }

  runFor(ms: number): void {
    this.runUntil(this.now + ms);
  }

  /** Time of the next pending event, if any. */
  nextEventTime(): number | undefined {
    return this.queue.peekTime();
  }

  private dispatch(ev: SimEvent): void {
    switch (ev.type) {
      case 'deliver': {
        const slot = this.slotsByNet[ev.toN];
        let reason: 'unknown-target' | 'target-down' | 'partitioned' | undefined;
        if (!slot) reason = 'unknown-target';
        else if (this.network.isBlockedBetween(ev.fromN, ev.toN)) {
          // A stream's segment lost on the cut stays with its sender (down or not, the receiver's host answers once it gets through).
          if (isStream(ev.payload)) return this.hold(this.network.linkBetween(ev.fromN, ev.toN), ev, 'partitioned');
          reason = slot.actor ? 'partitioned' : 'target-down';
        } else if (this.closedLinks > 0 && isStream(ev.payload) && this.network.linkBetween(ev.fromN, ev.toN).closed) {
          // Data of a connection its receiver has closed since.
          return this.onClosedConnection(this.network.linkBetween(ev.fromN, ev.toN), ev);
        } else if (this.holding > 0 && isStream(ev.payload)) {
          // Earlier data of its stream is still held: it is handed over after it, not before.
          const ls = this.network.linkBetween(ev.fromN, ev.toN);
          if (ls.held) {
            ls.held.push({ ev, incarnation: this.slotsByNet[ev.fromN]?.incarnation ?? -1 });
            return this.flushHeld(ls);
          }
        }
        if (!reason && !slot!.actor) {
          const host = kindOf(slot!.kind).host;
          if (host?.types.has(ev.payload.type)) {
            // The process is down but its machine is up: the host handles it.
            this.trace.recordIds(TraceCode.deliver, this.now, ev.traceFrom, slot!.traceId, ev.traceType, ev.msgId, 0);
            const s = slot!;
            host.receive({ now: this.now, send: (to, p) => this.sendFrom(s, to, p), podRouteOf: (ip) => this.network.podRouteOf(ip) }, s.durable, ev.from, ev.payload);
            return;
          }
          reason = 'target-down';
        }
        if (reason) {
          this.trace.recordEvent('drop', this.now, ev.from, ev.to, ev.payload.type, ev.msgId, reason);
          if (reason === 'target-down') this.refuse(ev.to, ev.from, ev.msgId, ev.payload);
          return;
        }
        const trace = this.trace;
        trace.recordIds(TraceCode.deliver, this.now, ev.traceFrom, slot!.traceId, ev.traceType, ev.msgId, 0);
        slot!.actor!.receive(slot!.ctx, ev.from, ev.payload);
        return;
      }
      case 'timer': {
        if (this.timerDue(ev.timerId)) return;
        const slot = this.slotsByNet[ev.slot];
        if (!slot?.actor || slot.incarnation !== ev.incarnation) return;
        this.trace.recordIds(TraceCode.timer, this.now, 0, slot.traceId, this.tagId(slot, ev.tag), -1, 0);
        slot.actor.timer(slot.ctx, ev.tag, ev.data);
        return;
      }
      case 'reset': {
        const slot = this.slots.get(ev.to);
        if (!slot?.actor?.peerReset) return;
        this.trace.recordEvent('drop', this.now, ev.from, ev.to, 'RST', -1, 'connection-reset');
        slot.actor.peerReset(slot.ctx, ev.from);
        return;
      }
      case 'refused': {
        const slot = this.slots.get(ev.to);
        if (!slot?.actor?.refused) return;
        this.trace.recordEvent('drop', this.now, ev.from, ev.to, ev.payload.type, ev.msgId, 'connection-refused');
        slot.actor.refused(slot.ctx, ev.from, ev.payload);
        return;
      }
      case 'retransmit':
        return this.retransmit(ev.fromN, ev.toN, ev.gen);
      case 'fsync': {
        const slot = this.slotsByNet[ev.slot];
        if (!slot?.actor || slot.incarnation !== ev.incarnation) return; // lost in a crash
        this.trace.recordIds(TraceCode.persist, this.now, 0, slot.traceId, this.tagId(slot, ev.tag), -1, 0);
        slot.actor.persisted(slot.ctx, ev.tag, ev.data);
        return;
      }
    }
  }

  /** The trace id of a timer's or disk write's tag (Slot.tag caches the actor's last one). */
  private tagId(slot: Slot, tag: string): number {
    if (tag === slot.tag && slot.tagId !== 0) return slot.tagId;
    const id = this.trace.intern(tag);
    slot.tag = tag;
    slot.tagId = id;
    return id;
  }

  /** The dead actor's host answers with a reset, which travels back like any packet. */
  private refuse(deadActor: ActorId, sender: ActorId, msgId: number, payload: Payload): void {
    const back = this.network.route(deadActor, sender, this.now, this.netRng);
    if (back < 0) return;
    this.queue.push(back, { type: 'refused', from: deadActor, to: sender, msgId, payload });
  }

  // ---- called through ActorContext -------------------------------------

  /** @internal */
  sendFrom(slot: Slot, to: ActorId, payload: Payload): void {
    const msgId = this.nextMsgId++;
    const from = slot.id;
    const trace = this.trace;
    const net = this.network;
    let toN = slot.sendToN;
    if (to !== slot.sendTo || toN < 0) {
      toN = net.endpoint(to);
      slot.sendTo = to;
      slot.sendToN = toN;
    }
    const fromN = slot.netId;
    const toSlot = this.slotsByNet[toN];
    const toTrace = toSlot ? toSlot.traceId : trace.intern(to);
    const type = payload.type;
    let traceType = slot.sendTypeId;
    if (type !== slot.sendType || traceType === 0) {
      traceType = trace.intern(type);
      slot.sendType = type;
      slot.sendTypeId = traceType;
    }
    const traceFrom = slot.traceId;
    trace.recordIds(TraceCode.send, this.now, traceFrom, toTrace, traceType, msgId, 0);
    if (isStream(payload)) return this.sendStream(slot, { type: 'deliver', msgId, from, to, payload, sentAt: this.now, traceFrom, traceType, fromN, toN });
    const at = net.routeBetween(fromN, toN, this.now, this.netRng);
    if (at < 0) {
      this.trace.recordEvent('drop', this.now, from, to, payload.type, msgId, at === DROP_PARTITIONED ? 'partitioned' : 'loss');
      return;
    }
    this.queue.push(at, { type: 'deliver', msgId, from, to, payload, sentAt: this.now, traceFrom, traceType, fromN, toN });
    if (net.duplicateAt >= 0) {
      this.trace.recordEvent('duplicate', this.now, from, to, payload.type, msgId);
      this.queue.push(net.duplicateAt, { type: 'deliver', msgId, from, to, payload, sentAt: this.now, traceFrom, traceType, fromN, toN });
    }
  }

  // ---- TCP streams (isStream) --------------------------------------------

  private sendStream(slot: Slot, ev: DeliverEvent): void {
    const ls = this.network.linkBetween(ev.fromN, ev.toN);
    if (this.closedLinks > 0) {
      // Writing to a peer whose end we closed opens a new connection; writing on one the peer closed goes nowhere.
      const back = this.network.linkBetween(ev.toN, ev.fromN);
      if (back.closed) {
        // The peer's end of the old connection is reset before this new connection's first data reaches it
        // (on a real network its next write on the old socket would meet the reset; the kernel cannot tell
        // the two connections' data apart, so it settles the old one first).
        if (!back.resetSent) this.queue.push(this.now, { type: 'reset', from: ev.from, to: ev.to });
        back.closed = false;
        back.resetSent = false;
        this.closedLinks--;
      }
      if (ls.closed) return this.onClosedConnection(ls, ev);
    }
    if (ls.held) {
      // Behind data not yet through: it waits its turn; if the path is open again, the
      // receiver's duplicate ACKs make the sender resend at once (fast retransmit).
      ls.held.push({ ev, incarnation: slot.incarnation });
      if (!ls.blocked) this.flushHeld(ls);
      return;
    }
    if (ls.blocked) return this.hold(ls, ev, 'partitioned');
    const loss = ls.merged.loss;
    if (loss > 0 && this.netRng.chance(loss)) return this.hold(ls, ev, 'loss');
    this.queue.push(this.network.streamArrival(ls, this.now, this.netRng), ev);
  }

  /** A stream message did not get through: its sender's TCP keeps it and arms the retransmission timer. */
  private hold(ls: LinkState, ev: DeliverEvent, why: 'partitioned' | 'loss'): void {
    const sender = this.slotsByNet[ev.fromN];
    this.trace.recordEvent('held', this.now, ev.from, ev.to, ev.payload.type, ev.msgId, why);
    const entry: HeldMessage = { ev, incarnation: sender?.incarnation ?? -1 };
    if (ls.held) {
      ls.held.push(entry);
      return;
    }
    ls.held = [entry];
    this.holding++;
    ls.rtoMs = TCP_RTO_MIN_MS;
    ls.retries = 0;
    this.queue.push(this.now + ls.rtoMs, { type: 'retransmit', fromN: ev.fromN, toN: ev.toN, gen: ls.holdGen });
  }

  private retransmit(fromN: number, toN: number, gen: number): void {
    const ls = this.network.linkBetween(fromN, toN);
    if (!ls.held || ls.holdGen !== gen) return;
    const loss = ls.merged.loss;
    if (!ls.blocked && !(loss > 0 && this.netRng.chance(loss))) return this.flushHeld(ls);
    // This retransmission got nowhere either; after the 15th, the wait for its answer ends the connection (924.6 s from 200 ms).
    if (++ls.retries > TCP_RETRIES2) return this.discardHeld(ls, 'partitioned');
    ls.rtoMs = Math.min(ls.rtoMs * 2, TCP_RTO_MAX_MS);
    this.queue.push(this.now + ls.rtoMs, { type: 'retransmit', fromN, toN, gen });
  }

  /** Everything held on the link goes, in order (a process that died since wrote the rest of it: gone). */
  private flushHeld(ls: LinkState): void {
    const held = ls.held as HeldMessage<DeliverEvent>[];
    ls.held = null;
    ls.holdGen++;
    this.holding--;
    for (const h of held) {
      const sender = this.slotsByNet[h.ev.fromN];
      if (!sender?.actor || sender.incarnation !== h.incarnation) {
        this.trace.recordEvent('drop', this.now, h.ev.from, h.ev.to, h.ev.payload.type, h.ev.msgId, 'sender-down');
        continue;
      }
      this.queue.push(this.network.streamArrival(ls, this.now, this.netRng), h.ev);
    }
  }

  /** The connection is gone (closed, or its process died, or TCP gave up): what it held is lost. `onlyFrom`: just that sender's. */
  private discardHeld(ls: LinkState, reason: string, onlyFrom?: number): void {
    const held = ls.held as HeldMessage<DeliverEvent>[] | null;
    if (!held || (onlyFrom !== undefined && held[0]!.ev.fromN !== onlyFrom)) return;
    ls.held = null;
    ls.holdGen++;
    this.holding--;
    for (const h of held) this.trace.recordEvent('drop', this.now, h.ev.from, h.ev.to, h.ev.payload.type, h.ev.msgId, reason);
  }

  /**
   * Data written on a connection its receiver closed: lost. Once a packet of it
   * can get there, the receiver's host answers with a reset, and the writer
   * learns its end of the connection is dead (peerReset), once per close.
   */
  private onClosedConnection(ls: LinkState, ev: DeliverEvent): void {
    this.trace.recordEvent('drop', this.now, ev.from, ev.to, ev.payload.type, ev.msgId, 'connection-closed');
    if (ls.blocked || ls.resetSent) return;
    ls.resetSent = true;
    const back = this.network.route(ev.to, ev.from, this.now, this.netRng);
    if (back >= 0) this.queue.push(back, { type: 'reset', from: ev.to, to: ev.from });
  }

  /** @internal The actor closed its connection to `peer`: data either side still held for it is dropped. */
  closeConnection(slot: Slot, peer: ActorId): void {
    const peerN = this.network.endpoint(peer);
    this.discardHeld(this.network.linkBetween(slot.netId, peerN), 'connection-closed');
    const back = this.network.linkBetween(peerN, slot.netId);
    this.discardHeld(back, 'connection-closed');
    // The peer does not know yet (nothing of the close gets through a cut): what it writes on the old connection is lost.
    if (!back.closed) {
      back.closed = true;
      back.resetSent = false;
      this.closedLinks++;
    }
  }

  /** @internal */
  timerFor(slot: Slot, delayMs: number, tag: string, data: unknown): number {
    const timerId = this.nextTimerId++;
    const w = Math.floor(timerId / 32) - this.timerWordBase;
    while (this.timerPending.length <= w) {
      this.timerPending.push(0);
      this.timerCancelled.push(0);
    }
    this.timerPending[w]!++;
    this.queue.push(this.now + Math.max(0, delayMs), {
      type: 'timer',
      actor: slot.id,
      slot: slot.netId,
      incarnation: slot.incarnation,
      timerId,
      tag,
      data,
    });
    return timerId;
  }

  /** @internal */
  cancelTimer(timerId: number): void {
    const w = Math.floor(timerId / 32) - this.timerWordBase;
    if (timerId >= this.nextTimerId) this.cancelledTimers.add(timerId);
    else if (w >= 0 && this.timerPending[w]! > 0) this.timerCancelled[w]! |= 1 << timerId % 32;
    // else: the timer already came due; cancelling it changes nothing.
  }

  /** A timer came due: updates the bookkeeping; true if it was cancelled. */
  private timerDue(timerId: number): boolean {
    const pending = this.timerPending;
    const cancelled = this.timerCancelled;
    const w = Math.floor(timerId / 32) - this.timerWordBase;
    const bit = 1 << timerId % 32;
    const word = cancelled[w]!;
    const wasCancelled = (word & bit) !== 0 || (this.cancelledTimers.size !== 0 && this.cancelledTimers.delete(timerId));
    // Computed and stored every time: behind \`if (wasCancelled)\` this code
    // first ran with the first cancelled timer due, after the kernel loop was
    // optimized without feedback for it (a deopt).
    const cleared = word & ~bit;
    cancelled[w] = wasCancelled ? cleared : word;
    pending[w]!--;
    if (pending[0] === 0) {
      // Drop leading words whose timers have all come due, in batches so the
      // arrays are spliced rarely; the last word (new ids land there) stays.
      const last = pending.length - 1;
      let k = 0;
      while (k < last && k < 32 && pending[k] === 0) k++;
      if (k === 32 || k === last) {
        pending.splice(0, k);
        cancelled.splice(0, k);
        this.timerWordBase += k;
      }
    }
    return wasCancelled;
  }

  /** @internal Writes are FIFO per disk: each waits for the ones before it. */
  persistFor(slot: Slot, tag: string, data: unknown): number {
    const start = Math.max(this.now, slot.diskBusyUntil);
    const done = start + slot.disk.fsyncMs;
    slot.diskBusyUntil = done;
    this.queue.push(done, { type: 'fsync', actor: slot.id, slot: slot.netId, incarnation: slot.incarnation, tag, data });
    return done;
  }

  /** @internal */
  rngFor(slot: Slot): Rng {
    return slot.rng;
  }

  /** Records a fault or command in the trace (hosts and the engine facade). */
  note(kind: 'fault' | 'command', type: string, detail?: string, to?: ActorId): void {
    this.trace.record({ t: this.now, kind, type, detail, to });
  }
}

/** What an actor may do: its only window on the world. */
export class ActorContext {
  constructor(
    private readonly sim: Simulation,
    private readonly slot: Slot,
  ) {}

  get id(): ActorId {
    return this.slot.id;
  }

  get now(): number {
    return this.sim.now;
  }

  /** This actor's own random stream; it survives restarts. */
  get rng(): Rng {
    return this.sim.rngFor(this.slot);
  }

  send(to: ActorId, payload: Payload): void {
    this.sim.sendFrom(this.slot, to, payload);
  }

  setTimer(delayMs: number, tag: string, data?: unknown): number {
    return this.sim.timerFor(this.slot, delayMs, tag, data);
  }

  /** This host carries the pod network `cidr`: packets for its addresses are routed here. */
  addPodRoute(cidr: string): void {
    this.sim.network.addPodRoute(cidr, this.slot.id);
  }

  /** The host the pod address `ip` is routed to, if any. */
  podRouteOf(ip: string): ActorId | undefined {
    return this.sim.network.podRouteOf(ip);
  }

  /** Closes this actor's TCP connection to `peer`: stream data either way that the network still holds is lost. */
  closeConnection(peer: ActorId): void {
    this.sim.closeConnection(this.slot, peer);
  }

  cancelTimer(timerId: number): void {
    this.sim.cancelTimer(timerId);
  }

  /** The process exits (e.g. an etcd member removed from its cluster): like a crash, durable state kept. */
  exit(): void {
    this.sim.crash(this.slot.id);
  }

  /**
   * Starts another process of this machine as an actor of its own (a
   * container's program with its own connections, e.g. CoreDNS's): false when
   * one with that id runs already.
   */
  spawnProcess<C>(id: ActorId, kind: string, config: C): boolean {
    if (this.sim.has(id)) return false;
    this.sim.spawn(id, kind, config);
    return true;
  }

  /** Such a process ends (its container stopped): its connections reset, and it is gone. */
  endProcess(id: ActorId): void {
    if (!this.sim.has(id)) return;
    this.sim.crash(id);
    this.sim.remove(id);
  }

  /**
   * Queues a durable write; `persisted(tag, data)` is called once it is on disk.
   * A crash before then loses it. Returns the virtual time it will complete.
   */
  persist(tag: string, data?: unknown): number {
    return this.sim.persistFor(this.slot, tag, data);
  }

  /** The durable state object (mutate it only in `persisted`). */
  durable<D>(): D {
    return this.slot.durable as D;
  }
}

registerClass('Simulation', Simulation);
registerClass('ActorContext', ActorContext);
