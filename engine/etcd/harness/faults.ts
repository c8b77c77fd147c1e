// The fault schedule of one seed: Poisson processes (rates from the seed's
// knobs) of partitions, crashes and slow disks over the fault phase, each
// undone after a drawn duration. Every fault is an engine.exec command, so
// the command log replays it. Crashes keep durable state (the WAL), so no
// fault can destroy a persisted quorum; at most `maxDown` members are down.
//
// Link faults (loss, duplication, reordering, latency) are set per directed
// link between members, and loss only on workload clients' links: client
// streams are TCP (never duplicated or reordered), and the watch client's
// links are never touched, since a simulated stream cannot report a break.
import type { Engine } from '../../facade/engine';
import type { Fault } from '../../facade/types';
import type { Rng } from '../../sim/rng';
import { DEFAULT_LINK } from '../../sim/network';
import { assertNever } from '../../sim/assert';
import { Figure8Nemesis, type NemesisHost } from './figure8';
import { PARTITION_SHAPES, type FaultKnobs, type PartitionShape } from './knobs';
import { registerClass } from '../../sim/serial';

type Pending = { at: number; undo: 'heal' | 'restart' | 'disk'; target?: string };

export class FaultScheduler implements NemesisHost {
  private nextPartition = Infinity;
  private nextCrash = Infinity;
  private nextSlowDisk = Infinity;
  private pending: Pending[] = [];
  private partitioned = false;
  private active = false;
  private readonly down = new Set<string>();
  /** Crash times per member (watches on a member die with it). */
  readonly crashes = new Map<string, number[]>();
  private readonly slowDisks = new Set<string>();
  faultsInjected = 0;
  readonly log: string[] = [];
  /** The targeted nemesis, in 'figure8' mode. */
  nemesis: Figure8Nemesis | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly rng: Rng,
    readonly knobs: FaultKnobs,
    private readonly members: readonly string[],
    private readonly workloadClients: readonly string[],
  ) {}

  private exec(fault: Fault, now: number): void {
    const r = this.engine.exec({ type: 'fault', fault });
    if (!r.ok) throw new Error(`harness: fault rejected: ${r.error}`);
    this.faultsInjected++;
    if (this.log.length < 200) this.log.push(`${now.toFixed(1)} ${JSON.stringify(fault)}`);
  }

  private exp(rate: number): number {
    return rate > 0 ? (-Math.log(1 - this.rng.float()) / rate) * 1000 : Infinity;
  }

  /** Starts the fault phase at `now`: link faults on, first arrivals drawn. */
  start(now: number): void {
    this.active = true;
    this.applyLinks(now);
    if (this.knobs.mode === 'figure8') {
      this.nemesis = new Figure8Nemesis(this.engine, this.rng.fork('figure8'), this, this.members, now);
      return;
    }
    this.nextPartition = now + this.exp(this.knobs.partitionRate);
    this.nextCrash = now + this.exp(this.knobs.crashRate);
    this.nextSlowDisk = now + this.exp(this.knobs.slowDiskRate);
  }

  private applyLinks(now: number): void {
    const k = this.knobs;
    const peer = { loss: k.peerLoss, duplicate: k.peerDuplicate, reorder: k.peerReorder, minMs: k.latencyMinMs, maxMs: k.latencyMaxMs };
    const needPeer = k.peerLoss > 0 || k.peerDuplicate > 0 || k.peerReorder || k.latencyMaxMs !== DEFAULT_LINK.maxMs;
    if (needPeer) {
      for (const a of this.members) for (const b of this.members) if (a !== b) this.exec({ action: 'link', from: a, to: b, ...peer }, now);
    }
    if (k.clientLoss > 0) {
      for (const c of this.workloadClients) {
        for (const m of this.members) {
          this.exec({ action: 'link', from: c, to: m, loss: k.clientLoss }, now);
          this.exec({ action: 'link', from: m, to: c, loss: k.clientLoss }, now);
        }
      }
    }
  }

  nextTime(): number {
    let t = Math.min(this.nextPartition, this.nextCrash, this.nextSlowDisk);
    for (const p of this.pending) if (p.at < t) t = p.at;
    if (this.active && this.nemesis) t = Math.min(t, this.nemesis.nextTime());
    return t;
  }

  /** The Figure 8 nemesis waits for the isolated leader to append a big entry. */
  wantsBigValue(): boolean {
    return this.nemesis?.wantsBigValue() ?? false;
  }

  /** Call after every kernel step: the nemesis reacts to what the cluster just did. */
  afterStep(now: number): void {
    if (this.active && this.nemesis) this.nemesis.act(now);
  }

  // ---- NemesisHost ---------------------------------------------------------

  crash(member: string, now: number): void {
    this.exec({ action: 'crash', target: member }, now);
    this.down.add(member);
    const list = this.crashes.get(member) ?? [];
    list.push(now);
    this.crashes.set(member, list);
  }

  restart(member: string, now: number): void {
    if (this.down.delete(member)) this.exec({ action: 'restart', target: member }, now);
  }

  block(from: string, to: string, now: number): void {
    this.exec({ action: 'block', from, to }, now);
  }

  heal(now: number): void {
    this.exec({ action: 'heal' }, now);
    this.partitioned = false;
    // heal() also clears per-link loss and duplication: put them back.
    if (this.active) this.applyLinks(now);
  }

  isDown(member: string): boolean {
    return this.down.has(member);
  }

  slowDisk(member: string, fsyncMs: number, now: number): void {
    this.exec({ action: 'slow-disk', target: member, fsyncMs }, now);
    if (fsyncMs > 1) this.slowDisks.add(member);
    else this.slowDisks.delete(member);
  }

  /** Runs whatever is due at `now`. */
  act(now: number): void {
    // Undo first (a restart due now frees a slot for a crash due now).
    const due = this.pending.filter((p) => p.at <= now);
    this.pending = this.pending.filter((p) => p.at > now);
    for (const p of due) this.undo(p, now);
    if (!this.active) return;
    if (this.nemesis) {
      this.nemesis.act(now);
      return;
    }
    if (this.nextPartition <= now) {
      if (!this.partitioned) this.partition(now);
      this.nextPartition = now + this.exp(this.knobs.partitionRate);
    }
    if (this.nextCrash <= now) {
      this.randomCrash(now);
      this.nextCrash = now + this.exp(this.knobs.crashRate);
    }
    if (this.nextSlowDisk <= now) {
      this.randomSlowDisk(now);
      this.nextSlowDisk = now + this.exp(this.knobs.slowDiskRate);
    }
  }

  private undo(p: Pending, now: number): void {
    switch (p.undo) {
      case 'heal':
        this.heal(now);
        return;
      case 'restart':
        this.restart(p.target!, now);
        return;
      case 'disk':
        if (this.slowDisks.delete(p.target!)) this.exec({ action: 'slow-disk', target: p.target!, fsyncMs: 1 }, now);
        return;
      default:
        assertNever(p.undo, 'undo');
    }
  }

  private victim(): string {
    const leader = this.engine.leader();
    if (leader && this.rng.chance(this.knobs.leaderBias)) return leader;
    return this.rng.pick(this.members);
  }

  private pickShape(): PartitionShape {
    const w = this.knobs.shapes;
    let total = 0;
    for (const s of PARTITION_SHAPES) total += w[s];
    let x = this.rng.float() * total;
    for (const s of PARTITION_SHAPES) {
      x -= w[s];
      if (x < 0) return s;
    }
    return 'isolate';
  }

  private partition(now: number): void {
    const shape = this.pickShape();
    const ms = this.members;
    const rng = this.rng;
    switch (shape) {
      case 'isolate': {
        const v = this.victim();
        this.exec({ action: 'partition', groups: [[v], ms.filter((m) => m !== v)] }, now);
        break;
      }
      case 'split': {
        const shuffled = rng.shuffle([...ms]);
        const cut = rng.int(1, ms.length);
        this.exec({ action: 'partition', groups: [shuffled.slice(0, cut), shuffled.slice(cut)] }, now);
        break;
      }
      case 'asymmetric': {
        // One member can hear others but not be heard (or the reverse): the
        // classic trigger for disruptive elections and stuck leaders.
        const v = this.victim();
        const outbound = rng.chance(0.5);
        for (const m of ms) {
          if (m === v || !rng.chance(0.75)) continue;
          if (outbound) this.exec({ action: 'block', from: v, to: m }, now);
          else this.exec({ action: 'block', from: m, to: v }, now);
        }
        break;
      }
      case 'bridge': {
        // Two sides that cannot talk, and one member that talks to both.
        if (ms.length < 3) return;
        const shuffled = rng.shuffle([...ms]);
        const bridge = shuffled[0]!;
        const rest = shuffled.slice(1);
        const cut = rng.int(1, rest.length);
        const a = rest.slice(0, cut);
        const b = rest.slice(cut);
        for (const x of a) {
          for (const y of b) {
            this.exec({ action: 'block', from: x, to: y }, now);
            this.exec({ action: 'block', from: y, to: x }, now);
          }
        }
        void bridge;
        break;
      }
      case 'clientCut': {
        // A workload client loses some members (both ways or one way).
        const c = rng.pick(this.workloadClients);
        for (const m of ms) {
          if (!rng.chance(0.6)) continue;
          const dir = rng.int(0, 3);
          if (dir !== 1) this.exec({ action: 'block', from: c, to: m }, now);
          if (dir !== 0) this.exec({ action: 'block', from: m, to: c }, now);
        }
        break;
      }
      default:
        assertNever(shape, 'partition shape');
    }
    this.partitioned = true;
    const k = this.knobs;
    this.pending.push({ at: now + k.partitionMinMs + rng.float() * (k.partitionMaxMs - k.partitionMinMs), undo: 'heal' });
  }

  private randomCrash(now: number): void {
    if (this.down.size >= this.knobs.maxDown) return;
    const v = this.victim();
    if (this.down.has(v)) return;
    this.crash(v, now);
    const k = this.knobs;
    this.pending.push({ at: now + k.restartMinMs + this.rng.float() * (k.restartMaxMs - k.restartMinMs), undo: 'restart', target: v });
  }

  private randomSlowDisk(now: number): void {
    const v = this.rng.pick(this.members);
    if (this.slowDisks.has(v)) return;
    this.slowDisks.add(v);
    this.exec({ action: 'slow-disk', target: v, fsyncMs: 2 + this.rng.float() * (this.knobs.slowDiskMaxMs - 2) }, now);
    this.pending.push({ at: now + 200 + this.rng.float() * 3000, undo: 'disk' });
  }

  /**
   * Ends the fault phase: heal every partition, put every link back to its
   * default, restart every member that is down, and speed every disk up.
   */
  healAll(now: number): void {
    this.active = false;
    this.pending = [];
    this.nextPartition = this.nextCrash = this.nextSlowDisk = Infinity;
    this.exec({ action: 'heal' }, now);
    this.partitioned = false;
    const reset = { loss: 0, duplicate: 0, reorder: false, minMs: DEFAULT_LINK.minMs, maxMs: DEFAULT_LINK.maxMs };
    const k = this.knobs;
    if (k.peerReorder || k.latencyMaxMs !== DEFAULT_LINK.maxMs) {
      for (const a of this.members) for (const b of this.members) if (a !== b) this.exec({ action: 'link', from: a, to: b, ...reset }, now);
    }
    for (const m of [...this.down].sort()) this.exec({ action: 'restart', target: m }, now);
    this.down.clear();
    for (const m of [...this.slowDisks].sort()) this.exec({ action: 'slow-disk', target: m, fsyncMs: 1 }, now);
    this.slowDisks.clear();
  }

  /** Whether `member` crashed at or after `t`. */
  crashedSince(member: string, t: number): boolean {
    return (this.crashes.get(member) ?? []).some((c) => c >= t);
  }
}

registerClass('harness.FaultScheduler', FaultScheduler);
