// One seed of the safety harness, VOPR-style: draw the seed's knobs, run a
// workload against a simulated etcd cluster while injecting faults (safety
// phase), then heal everything and demand progress and convergence within a
// bounded virtual time (liveness phase), then check the history.
//
// The run is driven ONLY through engine.exec and virtual time, so
// Engine.replay(options, commands) reproduces it exactly; the checkers are
// observers that never touch engine state.
import { Engine } from '../../facade/engine';
import type { EngineOptions, RecordedCommand } from '../../facade/types';
import { Rng } from '../../sim/rng';
import { checkOperations } from '../../sim/checkers/linearizability';
import { createEtcdModel, patchEtcdHistory, type EtcdOperation } from '../../sim/checkers/etcdModel';
import { checkSerializableReads } from '../../sim/checkers/serializableReads';
import { checkWatches } from '../../sim/checkers/watchChecker';
import type { KeyValue as RpcKeyValue, PutResponse } from '../api/rpc';
import { FaultScheduler } from './faults';
import { replayCommitted, type GroundTruth } from './groundTruth';
import { describeKnobs, drawKnobs, type Knobs } from './knobs';
import { RaftSafetyChecker, type Property, type Violation } from './raftSafety';
import { WatchSet } from './watches';
import { keyName, Workload } from './workload';
import { registerClass } from '../../sim/serial';

export interface SeedOptions {
  /** 3 or 5 members; default: 3 for even seeds, 5 for odd ones. */
  members?: number;
  /** Run with the Figure 8 commit bug switched on (the harness must catch it). */
  unsafe?: boolean;
  /** Virtual ms of fault phase (default 10,000). */
  faultMs?: number;
  /** Virtual ms the cluster gets after healing to elect, commit and converge (default 20000). */
  livenessMs?: number;
  /** Force the fault mode instead of drawing it from the seed. */
  nemesis?: 'swarm' | 'figure8';
  /** Search-step budget of the linearizability check (default 400,000). */
  linearizabilityBudget?: number;
}

export const DEFAULTS = {
  warmupMs: 1500,
  faultMs: 10_000,
  livenessMs: 20_000,
  resumeMs: 3000,
  linearizabilityBudget: 400_000,
} as const;

export interface SeedStats {
  virtualMs: number;
  events: number;
  ops: number;
  opsOk: number;
  opsError: number;
  opsUnknown: number;
  revisions: number;
  watchEvents: number;
  faults: number;
  /** Liveness: virtual ms from healing to a converged cluster (-1 if never). */
  recoveryMs: number;
  linearizability: 'ok' | 'violation' | 'inconclusive';
  linearizabilitySteps: number;
  /** Figure 8 nemesis: attempts started, and those that reached the overwrite step. */
  nemesisAttempts: number;
  nemesisCompleted: number;
}

export interface SeedReport {
  seed: number;
  members: number;
  unsafe: boolean;
  ok: boolean;
  violations: Violation[];
  /** The command that reruns this seed. */
  reproduce: string;
  knobs: string;
  stats: SeedStats;
  /** `count:hash` of the whole trace. */
  digest: string;
}

export function membersFor(seed: number, members?: number): number {
  return members ?? (seed % 2 === 0 ? 3 : 5);
}

export function reproduceLine(seed: number, opts: SeedOptions = {}): string {
  const parts = [`npm run soak -- --seed ${seed} --members ${membersFor(seed, opts.members)}`];
  if (opts.unsafe) parts.push('--unsafe-commit');
  if (opts.nemesis) parts.push(`--nemesis ${opts.nemesis}`);
  if (opts.faultMs !== undefined && opts.faultMs !== DEFAULTS.faultMs) parts.push(`--fault-ms ${opts.faultMs}`);
  return parts.join(' ');
}

/** Runs one seed and checks it. */
export function runSeed(seed: number, opts: SeedOptions = {}): SeedReport {
  return new SeedRun(seed, opts).run();
}

export class SeedRun {
  readonly members: number;
  readonly unsafe: boolean;
  readonly knobs: Knobs;
  readonly engineOptions: EngineOptions;
  readonly engine: Engine;
  readonly checker: RaftSafetyChecker;
  readonly workload: Workload;
  readonly faults: FaultScheduler;
  readonly watches: WatchSet;
  private readonly rng: Rng;
  private readonly memberNames: string[];
  private readonly violations: Violation[] = [];
  private readonly probes: { callId: number; key: string; value: string }[] = [];
  private readonly probeClient: string;
  private recoveryMs = -1;
  private threw = false;

  constructor(
    readonly seed: number,
    readonly opts: SeedOptions = {},
  ) {
    this.members = membersFor(seed, opts.members);
    this.unsafe = opts.unsafe ?? false;
    const root = new Rng(seed).fork('harness');
    this.rng = root.fork('run');
    this.knobs = drawKnobs(root.fork('knobs'), this.members, this.unsafe, opts.nemesis);
    const clients = this.knobs.workload.clients;
    this.engineOptions = {
      seed,
      etcdMembers: this.members,
      extraClients: clients + 1,
      snapshotCount: this.knobs.cluster.snapshotCount,
      snapshotCatchUpEntries: this.knobs.cluster.snapshotCatchUpEntries,
      unsafeCommitPreviousTermEntries: this.unsafe,
    };
    this.engine = Engine.create(this.engineOptions);
    this.memberNames = this.engine.memberNames();
    this.checker = new RaftSafetyChecker(this.engine);
    this.workload = new Workload(this.engine, root.fork('workload'), this.knobs.workload, this.memberNames, 500);
    this.faults = new FaultScheduler(this.engine, root.fork('faults'), this.knobs.faults, this.memberNames, this.workload.clientNames);
    if (this.knobs.faults.mode === 'figure8') this.workload.bigValueGate = this.faults;
    // The last client is the watch client: its links are never faulted.
    this.probeClient = `etcd-client-${clients + 1}`;
    this.watches = new WatchSet(this.engine, this.probeClient);
  }

  commands(): RecordedCommand[] {
    return this.engine.commands();
  }

  private fail(property: Property, message: string): void {
    if (this.violations.length < 30) this.violations.push({ property, at: this.engine.sim.now, message });
  }

  // ---- driving -------------------------------------------------------------

  private step(): void {
    this.engine.sim.step();
    this.checker.observe();
    const now = this.engine.sim.now;
    this.workload.poll(now);
    this.watches.collect();
    this.faults.afterStep(now);
  }

  /**
   * Runs events and harness actions in time order up to `until` (inclusive),
   * then sets the clock there: runUntil with the checkers after every step.
   */
  private advance(until: number): void {
    const sim = this.engine.sim;
    for (;;) {
      const tAct = Math.min(this.workload.nextActionTime(), this.faults.nextTime());
      const tNext = sim.nextEventTime();
      if (tNext !== undefined && tNext <= until && tNext <= tAct) {
        this.step();
        continue;
      }
      if (tAct > until) break;
      if (sim.now < tAct) sim.now = tAct;
      this.faults.act(tAct);
      this.workload.act(tAct);
      this.checker.observe();
    }
    if (sim.now < until) sim.now = until;
  }

  // ---- phases --------------------------------------------------------------

  run(): SeedReport {
    this.execute();
    return this.check();
  }

  /** Runs the phases (no checking beyond the per-step Raft checks). */
  execute(): void {
    const faultMs = this.opts.faultMs ?? DEFAULTS.faultMs;
    const warmup = DEFAULTS.warmupMs;
    try {
      this.advance(warmup);
      this.createStartWatches();
      this.faults.start(this.engine.sim.now);
      this.advance(warmup + faultMs);
      this.workload.stop();
      this.faults.healAll(this.engine.sim.now);
      this.checker.observe();
      this.liveness(this.opts.livenessMs ?? DEFAULTS.livenessMs);
      this.resumeWatches();
      this.checker.sweep();
    } catch (e) {
      // A panic inside the engine (raft's invariants, an apply that throws)
      // is a finding too; the history checks would be meaningless after it.
      const err = e as Error;
      const top = (err.stack ?? '').split('\n')[1] ?? '';
      this.fail(top.includes('/harness/') ? 'Harness' : 'Engine exception', `${err.message}\n${(err.stack ?? '').split('\n').slice(1, 6).join('\n')}`);
      this.threw = true;
    }
  }

  private currentRevision(): number {
    const leader = this.engine.leader();
    const name = leader ?? this.memberNames.find((n) => this.engine.member(n));
    return name ? (this.engine.member(name)?.sm.currentRevision() ?? 1) : 1;
  }

  /** Watches on every member, over a key, the key prefix or everything, from now or a drawn revision. */
  private createStartWatches(): void {
    const rng = this.rng;
    const rev = this.currentRevision();
    for (const m of this.memberNames) {
      const n = rng.int(1, 3);
      for (let i = 0; i < n; i++) {
        const [key, rangeEnd] = this.drawRange();
        const start = rng.chance(0.4) ? 0 : rng.int(1, rev + 6);
        this.watches.create(m, key, rangeEnd, start, rng.chance(0.6), 'start');
      }
    }
  }

  private drawRange(): [string, string | undefined] {
    const r = this.rng.int(0, 3);
    if (r === 0) return [keyName(this.rng.int(0, this.knobs.workload.keys)), undefined];
    if (r === 1) return ['/k/', '/k0'];
    return ['/', '\0'];
  }

  private probe(): void {
    const key = '/liveness';
    const value = `probe.${this.probes.length + 1}`;
    const r = this.engine.exec({ type: 'etcd', client: this.probeClient, request: { type: 'PutRequest', body: { key, value } } });
    if (!r.ok) throw new Error(`harness: probe rejected: ${r.error}`);
    this.probes.push({ callId: r.result as number, key, value });
  }

  /** After healing: a leader, a fresh write committed, and every member's log and state equal. */
  private liveness(budgetMs: number): void {
    const t0 = this.engine.sim.now;
    const deadline = t0 + budgetMs;
    let committed = false;
    let nextProbe = t0;
    while (this.engine.sim.now < deadline) {
      // A fresh write every 500 ms until one commits: one stuck in a lost
      // forward would otherwise hide recovery until its request timeout.
      if (!committed && this.engine.sim.now >= nextProbe) {
        this.probe();
        nextProbe = this.engine.sim.now + 500;
      }
      this.advance(Math.min(deadline, this.engine.sim.now + 50));
      committed ||= this.probes.some((p) => this.engine.call(p.callId, this.probeClient)?.outcome?.status === 'ok');
      if (committed && this.converged() === null) {
        this.recoveryMs = this.engine.sim.now - t0;
        this.compareStates();
        return;
      }
    }
    const why = !this.engine.leader() ? 'no leader' : !committed ? 'no write committed' : (this.converged() ?? '');
    this.fail('Liveness', `not recovered ${budgetMs} ms after healing: ${why}`);
  }

  /** null when every member is up and has the same log, commit and applied index; else why not. */
  private converged(): string | null {
    let ref: { name: string; last: number; applied: number; rev: number; lead: number } | null = null;
    for (const name of this.memberNames) {
      const m = this.engine.member(name);
      if (!m) return `${name} is down`;
      const r = m.node.raft;
      const s = { name, last: r.raftLog.lastIndex(), applied: m.sm.appliedIndex, rev: m.sm.currentRevision(), lead: r.lead };
      if (r.raftLog.committed !== s.last) return `${name} has committed ${r.raftLog.committed} of ${s.last} entries`;
      if (s.applied !== s.last) return `${name} has applied ${s.applied} of ${s.last} entries`;
      if (s.lead === 0) return `${name} knows no leader`;
      if (!ref) ref = s;
      else if (s.last !== ref.last || s.rev !== ref.rev || s.lead !== ref.lead) {
        return `${name} (last ${s.last}, revision ${s.rev}, leader ${s.lead}) differs from ${ref.name} (last ${ref.last}, revision ${ref.rev}, leader ${ref.lead})`;
      }
    }
    return null;
  }

  /**
   * Converged members must hold identical key spaces. (Each member's history
   * is checked by the resume watches against the replayed log; etcd's HashKV
   * would also do, but costs a CRC over every value ever written.)
   */
  private compareStates(): void {
    let ref: { name: string; kvs: RpcKeyValue[] } | null = null;
    for (const name of this.memberNames) {
      const kvs = this.engine.member(name)!.sm.allKeys();
      if (!ref) ref = { name, kvs };
      else {
        const diff = diffKvs(ref.kvs, kvs);
        if (diff) this.fail('State Machine Safety', `${name} and ${ref.name} applied the same log but their stores differ: ${diff}`);
      }
    }
  }

  /** Watches re-created from an older revision on every member, then time to catch up. */
  private resumeWatches(): void {
    const rng = this.rng;
    const rev = this.currentRevision();
    for (const m of this.memberNames) {
      if (!this.engine.member(m)) continue;
      const [key, rangeEnd] = this.drawRange();
      this.watches.create(m, key, rangeEnd, rng.int(1, rev + 1), rng.chance(0.6), 'resume');
    }
    // What each watch should reach: the history as committed so far (a late
    // retry of a client request may still commit something meanwhile).
    let gt = replayCommitted(this.checker.appliedEntries, this.checker.appliedAt);
    let known = this.checker.appliedEntries.size;
    const end = this.engine.sim.now + DEFAULTS.resumeMs;
    while (this.engine.sim.now < end) {
      this.advance(Math.min(end, this.engine.sim.now + 100));
      if (this.checker.appliedEntries.size !== known) {
        gt = replayCommitted(this.checker.appliedEntries, this.checker.appliedAt);
        known = this.checker.appliedEntries.size;
      }
      if (this.watchesCaughtUp(gt)) break;
    }
  }

  /** Every live watch has delivered the last revision in its range that its member applied. */
  private watchesCaughtUp(gt: GroundTruth): boolean {
    for (const w of this.watches.watches) {
      const m = this.engine.member(w.member);
      if (!m || this.faults.crashedSince(w.member, w.createdAt) || !this.watches.created(w)) continue;
      const expected = WatchSet.lastExpected(w, gt.history, this.watches.effectiveStart(w), m.sm.currentRevision());
      if (WatchSet.lastDelivered(w) < expected) return false;
    }
    return true;
  }

  // ---- checking ------------------------------------------------------------

  /** Checks the recorded history against the ground truth (after execute()). */
  check(): SeedReport {
    if (this.threw) return this.report('inconclusive', 0, 0);
    const gaps = this.checker.gaps(Math.max(0, ...this.checker.appliedEntries.keys()));
    if (gaps.length > 0) this.fail('Harness', `the committed log has ${gaps.length} entries no member was seen applying (first: ${gaps.slice(0, 5).join(', ')})`);
    const gt = replayCommitted(this.checker.appliedEntries, this.checker.appliedAt);
    if (this.recoveryMs >= 0) this.compareWithTruth(gt);

    // Linearizability.
    const history = this.workload.linearizableHistory().concat(this.probeHistory());
    const patched = patchEtcdHistory(history, gt.history);
    const lin = checkOperations(createEtcdModel(), patched, { maxSteps: this.opts.linearizabilityBudget ?? DEFAULTS.linearizabilityBudget });
    let linResult: SeedStats['linearizability'] = 'ok';
    if (lin.ok === false) {
      linResult = 'violation';
      this.fail('Linearizability', clip(lin.explanation, 1500));
    } else if (lin.ok === 'unknown') linResult = 'inconclusive';

    // Serializable reads.
    const reads = this.workload.serializableReads();
    // A fresh etcd is at revision 1 before anything commits: bound reads by at least that.
    const commitTimes = gt.history.map((r) => [r.committedAt ?? 0, r.revision] as const);
    for (const read of reads) {
      let rev = 1;
      for (const [t, r] of commitTimes) if (t <= read.return && r > rev) rev = r;
      read.committedRevision = rev;
    }
    const sr = checkSerializableReads(gt.history, reads);
    for (const v of sr.violations.slice(0, 5)) this.fail('Serializable reads', v.message);

    // Watches: the guarantees, then completeness of every watch that outlived the run.
    const records = this.watches.records();
    const wr = checkWatches(gt.history, records);
    for (const v of wr.violations.slice(0, 5)) {
      const w = this.watches.watches[v.watch];
      const at = w && v.response !== undefined ? ` (response at ${w.times[v.response]?.toFixed(1)} ms)` : '';
      this.fail('Watch', `${v.type}: ${v.message}${w ? ` [watch ${w.id} on ${w.member}, ${w.phase}, from ${w.requestedStart}]${at}` : ''}`);
    }
    let watchEvents = 0;
    for (const w of this.watches.watches) {
      for (const r of w.responses) watchEvents += r.events.length;
      const m = this.engine.member(w.member);
      if (!m || this.faults.crashedSince(w.member, w.createdAt) || !this.watches.created(w)) continue;
      if (w.responses.some((r) => r.canceled)) continue;
      const from = this.watches.effectiveStart(w);
      const expected = WatchSet.lastExpected(w, gt.history, from, m.sm.currentRevision());
      const got = WatchSet.lastDelivered(w);
      if (got < expected) {
        this.fail('Watch', `reliable: watch ${w.id} on ${w.member} (${w.phase}, [${w.key}, ${w.rangeEnd ?? ''}) from ${from}) delivered up to revision ${got}, but revision ${expected} is in range and ${w.member} is at ${m.sm.currentRevision()}`);
      }
    }

    return this.report(linResult, lin.steps, watchEvents, gt.revision);
  }

  private report(linearizability: SeedStats['linearizability'], linearizabilitySteps: number, watchEvents: number, revisions = 0): SeedReport {
    const violations = [...this.checker.violations, ...this.violations];
    const calls = this.workload.calls();
    const stats: SeedStats = {
      virtualMs: this.engine.sim.now,
      events: this.engine.sim.processed,
      ops: calls.length,
      opsOk: calls.filter((c) => c.status === 'ok').length,
      opsError: calls.filter((c) => c.status === 'error').length,
      opsUnknown: calls.filter((c) => c.status === 'unknown' || c.status === 'pending').length,
      revisions,
      watchEvents,
      faults: this.faults.faultsInjected,
      recoveryMs: this.recoveryMs,
      linearizability,
      linearizabilitySteps,
      nemesisAttempts: this.faults.nemesis?.attempts ?? 0,
      nemesisCompleted: this.faults.nemesis?.completed ?? 0,
    };
    return {
      seed: this.seed,
      members: this.members,
      unsafe: this.unsafe,
      ok: violations.length === 0,
      violations,
      reproduce: reproduceLine(this.seed, this.opts),
      knobs: describeKnobs(this.knobs),
      stats,
      digest: this.engine.sim.trace.digest(),
    };
  }

  private probeHistory(): EtcdOperation[] {
    return this.probes.map((p) => {
      const call = this.engine.call(p.callId, this.probeClient);
      const o = call?.outcome;
      const base = { clientId: 0, input: { type: 'put' as const, key: p.key, value: p.value }, call: call?.issuedAt ?? 0 };
      if (!o || o.status === 'unknown') return { ...base, output: undefined, return: Infinity };
      if (o.status === 'error') return { ...base, output: { type: 'error' as const, error: o.error.message }, return: call.doneAt ?? Infinity };
      return { ...base, output: { type: 'put' as const, header: { revision: (o.body as PutResponse).header.revision } }, return: call.doneAt ?? Infinity };
    });
  }

  /** Every member that applied the whole committed log must hold what replaying it gives. */
  private compareWithTruth(gt: GroundTruth): void {
    const lastIndex = Math.max(0, ...this.checker.appliedEntries.keys());
    for (const name of this.memberNames) {
      const m = this.engine.member(name);
      if (!m || m.sm.appliedIndex !== lastIndex) continue;
      if (m.sm.currentRevision() !== gt.revision) {
        this.fail('State Machine Safety', `${name} is at revision ${m.sm.currentRevision()} after applying index ${lastIndex}; replaying the committed log gives ${gt.revision}`);
        continue;
      }
      const diff = diffKvs(gt.kvs, m.sm.allKeys());
      if (diff) this.fail('State Machine Safety', `${name}'s store differs from the replay of the committed log: ${diff}`);
    }
  }
}

/** The first difference between two key spaces (sorted by key), or null. */
function diffKvs(a: readonly RpcKeyValue[], b: readonly RpcKeyValue[]): string | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) return `${x ? x.key : '-'} vs ${y ? y.key : '-'} (key counts ${a.length} vs ${b.length})`;
    // Values are usually the very same string objects (entries are shared), so === is cheap.
    if (x.key !== y.key || x.value !== y.value || x.createRevision !== y.createRevision || x.modRevision !== y.modRevision || x.version !== y.version || x.lease !== y.lease) {
      return `${x.key} (mod ${x.modRevision}, version ${x.version}) vs ${y.key} (mod ${y.modRevision}, version ${y.version})`;
    }
  }
  return null;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

registerClass('harness.SeedRun', SeedRun);
