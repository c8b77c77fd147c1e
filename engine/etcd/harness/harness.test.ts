// The harness itself: it catches the Figure 8 commit bug, its runs replay
// exactly, its ground truth agrees with the members, and its checks fail on
// tampered observations. (The CI seed range runs in harness.seeds*.test.ts.)
import { describe, expect, it } from 'vitest';
import { Engine } from '../../facade/engine';
import type { RecordedCommand } from '../../facade/types';
import { replayCommitted } from './groundTruth';
import { runSeed, SeedRun, type SeedReport } from './run';
import { RaftSafetyChecker } from './raftSafety';
import { explain } from './seedTests';
import { cloneState } from '../../sim/serial';

/** The CI seeds (harness.seeds*.test.ts run them with the correct commit rule). */
const CI_SEEDS = 400;

describe('the harness catches a broken commit rule', () => {
  it('with unsafeCommitPreviousTermEntries, some CI seed violates Raft safety (Figure 8)', () => {
    let found: SeedReport | null = null;
    for (let seed = 1; seed <= CI_SEEDS && !found; seed++) {
      const r = runSeed(seed, { unsafe: true });
      if (!r.ok) found = r;
    }
    expect(found, 'no CI seed caught the Figure 8 bug').not.toBeNull();
    const props = new Set(found!.violations.map((v) => v.property));
    expect([...props].some((p) => p === 'State Machine Safety' || p === 'Leader Completeness'), explain(found!)).toBe(true);
    expect(found!.reproduce).toMatch(/^npm run soak -- --seed \d+ --members [35] --unsafe-commit$/);
  });

  it('the same seeds with the correct rule and the Figure 8 nemesis stay safe', () => {
    for (const seed of [1, 2, 3, 4]) {
      const r = runSeed(seed, { nemesis: 'figure8' });
      expect(r.ok, explain(r)).toBe(true);
      expect(r.stats.nemesisAttempts).toBeGreaterThan(0);
    }
  });
});

describe('runs are reproducible', () => {
  /** Replays a command log on an engine already at some point of the run, as Engine.replay does. */
  function continueWith(e: Engine, log: readonly RecordedCommand[], until: number): void {
    for (const rc of log) {
      while (e.sim.processed < rc.step && e.sim.step()) {
        /* reach the exact event count */
      }
      if (e.sim.now < rc.t) e.sim.now = rc.t;
      e.exec(rc.command);
    }
    e.sim.runUntil(until);
  }

  for (const [seed, nemesis] of [
    [7, 'swarm'],
    [12, 'figure8'],
  ] as const) {
    it(`seed ${seed} (${nemesis}): same seed ⇒ same trace; Engine.replay and a mid-run clone ⇒ same trace`, () => {
      const a = new SeedRun(seed, { nemesis });
      const ra = a.run();
      const rb = runSeed(seed, { nemesis });
      expect(rb.digest).toBe(ra.digest);
      expect(rb.stats).toEqual(ra.stats);

      const log = a.commands();
      expect(log.length).toBeGreaterThan(50);
      const end = a.engine.sim.now;
      const replayed = Engine.replay(a.engineOptions, log, end);
      expect(replayed.sim.trace.digest()).toBe(ra.digest);

      // Halfway: clone the replayed engine, and drive both copies to the end.
      const half = log.findIndex((c) => c.t > end / 2);
      const first = Engine.replay(a.engineOptions, log.slice(0, half));
      const copy = first.clone();
      continueWith(first, log.slice(half), end);
      continueWith(copy, log.slice(half), end);
      expect(first.sim.trace.digest()).toBe(ra.digest);
      expect(copy.sim.trace.digest()).toBe(ra.digest);
    });
  }
});

describe('ground truth and checks', () => {
  it('the replayed committed log gives every member revision and key space, and events with their commit times', () => {
    const run = new SeedRun(8);
    const report = run.run();
    expect(report.ok, explain(report)).toBe(true);
    const gt = replayCommitted(run.checker.appliedEntries, run.checker.appliedAt);
    expect(gt.history.length).toBeGreaterThan(20);
    for (const name of run.engine.memberNames()) {
      const m = run.engine.member(name)!;
      expect(m.sm.currentRevision()).toBe(gt.revision);
      expect(m.sm.allKeys()).toEqual(gt.kvs);
    }
    // Revisions are consecutive from 2 (a fresh etcd is at 1) and carry commit times in order.
    gt.history.forEach((rec, i) => expect(rec.revision).toBe(i + 2));
    for (let i = 1; i < gt.history.length; i++) expect(gt.history[i]!.committedAt!).toBeGreaterThanOrEqual(gt.history[i - 1]!.committedAt!);
    expect(run.checker.gaps(Math.max(...run.checker.appliedEntries.keys()))).toEqual([]);
  });

  it('a watch that loses an event, or delivers one twice, is reported', () => {
    const run = new SeedRun(8);
    run.execute();
    const w = run.watches.watches.find((x) => x.responses.filter((r) => r.events.length > 0).length >= 3)!;
    expect(w).toBeDefined();
    // Drop the second response with events (the first would count as not resumable).
    const withEvents = w.responses.map((r, k) => (r.events.length > 0 ? k : -1)).filter((k) => k >= 0);
    const i = withEvents[1]!;
    const dropped = w.responses.splice(i, 1)[0]!;
    w.times.splice(i, 1);
    const w2 = run.watches.watches.find((x) => x !== w && x.responses.some((r) => r.events.length > 0))!;
    const dup = w2.responses.find((r) => r.events.length > 0)!;
    w2.responses.push(dup);
    w2.times.push(run.engine.sim.now);
    const r = run.check();
    const msgs = r.violations.filter((v) => v.property === 'Watch').map((v) => v.message);
    expect(msgs.some((m) => m.startsWith('reliable') && m.includes(`revision ${dropped.events[0]!.kv.modRevision}`)), msgs.join('\n')).toBe(true);
    expect(msgs.some((m) => m.startsWith('unique'))).toBe(true);
  });

  it('Log Matching and State Machine Safety fire on a member whose log is corrupted', () => {
    const run = new SeedRun(8);
    run.execute();
    const [a] = run.engine.memberNames();
    const storage = run.engine.sim.durable<{ storage: { ents: { term: number; index: number; type: string; data: string }[] } }>(a!).storage;
    // Rewrite the data of one stored entry, keeping its term: logs still agree on terms after it.
    const k = Math.floor(storage.ents.length / 2);
    storage.ents[k] = { ...storage.ents[k]!, data: '{"header":{"id":1},"put":{"key":"/forged","value":"x"}}' };
    run.checker.sweep();
    expect(run.checker.violations.map((v) => v.property)).toContain('Log Matching');
  });

  it('a run is plain state: a clone of it (engine, history, checkers) checks to the same report', () => {
    const run = new SeedRun(10, { faultMs: 2000 });
    run.execute();
    const copy = cloneState(run);
    expect(copy === run || copy.engine === run.engine).toBe(false);
    const a = run.check();
    const b = copy.check();
    expect(b).toEqual(a);
    expect(a.ok, explain(a)).toBe(true);
  });

  it('the Raft checker sees nothing wrong in a quiet cluster', () => {
    const e = Engine.create({ seed: 5, etcdMembers: 3 });
    const c = new RaftSafetyChecker(e);
    while (e.sim.now < 3000 && e.sim.step()) c.observe();
    c.sweep();
    expect(e.leader()).not.toBeNull();
    expect(c.violations).toEqual([]);
    expect(c.applied.size).toBeGreaterThan(0);
  });
});
