import { describe, expect, it } from 'vitest';
import type { Command, EngineState, EtcdClusterView, EtcdMemberView, EtcdOpResult, TraceRecordView, WatchView } from '../facade/types';
import type { ViewUpdate } from './protocol';
import { HostSession, type HostTimers, type PacedEngine } from './session';
import { traceCount } from './viewDiff';

/** A scripted engine: every advance(ms) processes one event per 10 virtual ms. */
class ScriptedEngine implements PacedEngine {
  t = 0;
  events = 0;
  records: TraceRecordView[] = [];
  advanced: number[] = [];
  commands: Command[] = [];
  ops: EtcdOpResult[] = [];
  watchList: WatchView[] = [];
  member: EtcdMemberView = {
    name: 'etcd-0', raftId: 1, memberId: '1', up: true, role: 'follower', term: 1, vote: null, leader: null,
    commitIndex: 0, appliedIndex: 0, lastLogIndex: 0, firstLogIndex: 1, snapshotIndex: 0, electionElapsed: 0,
    electionTimeout: 10, fsyncMs: 1, log: [], revision: 1,
  };
  costPerAdvance = 0;
  constructor(private readonly timers?: FakeTimers) {}
  exec(cmd: Command) {
    this.commands.push(cmd);
    return { ok: true as const };
  }
  advance(ms: number): void {
    this.advanced.push(ms);
    if (this.timers) this.timers.wall += this.costPerAdvance;
    const end = this.t + ms;
    while (Math.floor(this.t / 10) < Math.floor(end / 10)) {
      this.t = (Math.floor(this.t / 10) + 1) * 10;
      this.event();
    }
    this.t = end;
  }
  stepEvent(): TraceRecordView | null {
    this.t += 1;
    return this.event();
  }
  stepMessage(): TraceRecordView | null {
    this.t += 1;
    return this.event();
  }
  private event(): TraceRecordView {
    this.events++;
    const r: TraceRecordView = { n: this.records.length, t: this.t, kind: 'timer', to: 'etcd-0', type: 'tick' };
    this.records.push(r);
    return r;
  }
  state(): EngineState {
    return { virtualTime: this.t, seed: 1, epochMs: Date.UTC(2025, 0, 1), speed: 1, components: [], traceDigest: `${this.records.length}:0`, events: this.events };
  }
  etcdView(): EtcdClusterView {
    return { members: [{ ...this.member }], inFlight: [], kv: { from: 'etcd-0', revision: 1, compactRevision: 0, keys: [], total: 0 }, partition: [], blocked: [] };
  }
  trace(sinceN: number, limit = Infinity): TraceRecordView[] {
    return this.records.filter((r) => r.n > sinceN).slice(0, limit);
  }
  opResults(sinceId = 0): EtcdOpResult[] {
    return this.ops.filter((o) => o.id > sinceId).map((o) => ({ ...o }));
  }
  watches(): WatchView[] {
    return this.watchList.map((w) => ({ ...w, events: [...w.events] }));
  }
}

class FakeTimers implements HostTimers {
  wall = 0;
  queue: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.wall;
  schedule = (fn: () => void, ms: number) => {
    const id = this.nextId++;
    this.queue.push({ at: this.wall + ms, fn, id });
    return id;
  };
  cancel = (h: unknown) => {
    this.queue = this.queue.filter((q) => q.id !== h);
  };
  /** Moves wall time forward, firing due callbacks in order. */
  run(ms: number): void {
    const end = this.wall + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const q = this.queue[0];
      if (!q || q.at > end) break;
      this.queue.shift();
      this.wall = Math.max(this.wall, q.at);
      q.fn();
    }
    this.wall = end;
  }
}

function setup(opts = {}) {
  const timers = new FakeTimers();
  const engine = new ScriptedEngine(timers);
  const session = new HostSession(engine, timers, opts);
  const updates: ViewUpdate[] = [];
  session.subscribe((u) => updates.push(u));
  return { timers, engine, session, updates };
}

describe('HostSession pacing', () => {
  it('posts a full update on subscribe', () => {
    const { updates } = setup();
    expect(updates).toHaveLength(1);
    expect(updates[0]!.full).toBe(true);
    expect(updates[0]!.memberOrder).toEqual(['etcd-0']);
    expect(updates[0]!.clock.playing).toBe(false);
  });

  it('runs virtual time at speed x wall time while playing', () => {
    const { timers, engine, session } = setup();
    session.setSpeed(10);
    session.play();
    timers.run(1000);
    // 1 s of wall at x10: about 10 s virtual (the last partial frame may be pending).
    expect(engine.t).toBeGreaterThan(9_500);
    expect(engine.t).toBeLessThanOrEqual(10_000);
  });

  it('does not advance while paused, and resumes without making up the pause', () => {
    const { timers, engine, session } = setup();
    session.play();
    timers.run(500);
    session.pause();
    const t = engine.t;
    timers.run(5000);
    expect(engine.t).toBe(t);
    session.play();
    timers.run(100);
    expect(engine.t - t).toBeLessThanOrEqual(100);
  });

  it('step pauses and processes exactly one event', () => {
    const { timers, engine, session, updates } = setup();
    session.play();
    timers.run(100);
    const before = engine.events;
    const rec = session.step();
    expect(rec?.n).toBe(engine.records.length - 1);
    expect(engine.events).toBe(before + 1);
    expect(session.isPlaying).toBe(false);
    timers.run(100);
    expect(engine.events).toBe(before + 1);
    expect(updates[updates.length - 1]!.clock.events).toBe(before + 1);
  });

  it('caps the work per frame and reports lagging instead of queueing debt', () => {
    const { timers, engine, session, updates } = setup({ budgetMs: 8, sliceMs: 100 });
    engine.costPerAdvance = 5; // each engine.advance call costs 5 ms of wall time
    session.setSpeed(1000);
    session.play();
    timers.run(17);
    // 16 ms x1000 = 16 s asked; the budget allows two 100 ms slices.
    expect(engine.advanced.length).toBe(2);
    expect(updates[updates.length - 1]!.clock.lagging).toBe(true);
  });

  it('posts at most once per frame', () => {
    const { timers, session, updates } = setup();
    session.play();
    timers.run(1000);
    const posts = updates.length;
    expect(posts).toBeLessThanOrEqual(1000 / 16 + 3);
    // Commands in quick succession while paused coalesce into one deferred post.
    session.pause();
    timers.run(100);
    const n = updates.length;
    session.exec({ type: 'etcdOp', op: { op: 'put', key: 'a', value: '1' } });
    session.exec({ type: 'etcdOp', op: { op: 'put', key: 'b', value: '2' } });
    session.exec({ type: 'etcdOp', op: { op: 'put', key: 'c', value: '3' } });
    expect(updates.length - n).toBeLessThanOrEqual(1);
    timers.run(20);
    expect(updates.length - n).toBeLessThanOrEqual(2);
  });

  it('clamps speed and treats 0 as pause', () => {
    const { session, engine } = setup();
    session.play();
    session.setSpeed(1e9);
    expect(session.currentSpeed).toBe(10_000);
    session.setSpeed(0);
    expect(session.isPlaying).toBe(false);
    expect(engine.commands).toContainEqual({ type: 'speed', speed: 10_000 });
  });
});

describe('ViewDiffer via HostSession', () => {
  it('sends only changed members, new trace records and completed ops', () => {
    const { timers, engine, session, updates } = setup();
    session.play();
    timers.run(50);
    const last = updates[updates.length - 1]!;
    expect(last.full).toBe(false);
    expect(last.members).toBeUndefined(); // member did not change
    const seen = updates.flatMap((u) => u.trace ?? []).map((r) => r.n);
    expect(seen).toEqual([...new Set(seen)]); // never re-sent
    engine.member.role = 'leader';
    engine.ops.push({ id: 1, op: { op: 'put', key: 'k', value: 'v' }, issuedAt: engine.t });
    timers.run(20);
    const u1 = updates[updates.length - 1]!;
    expect(u1.members?.[0]?.role).toBe('leader');
    expect(u1.opResults?.map((o) => o.id)).toEqual([1]);
    timers.run(20);
    expect(updates[updates.length - 1]!.opResults).toBeUndefined();
    engine.ops[0]!.doneAt = engine.t;
    engine.ops[0]!.ok = true;
    timers.run(20);
    expect(updates[updates.length - 1]!.opResults?.[0]?.doneAt).toBeDefined();
  });

  it('sends only the newest records when a frame produced too many', () => {
    const { timers, engine, session, updates } = setup();
    session.setSpeed(1000);
    session.play();
    timers.run(17); // ~16 s virtual -> ~1,600 events
    const u = updates[updates.length - 1]!;
    expect(u.trace!.length).toBeLessThanOrEqual(400);
    expect(u.trace![u.trace!.length - 1]!.n).toBe(engine.records.length - 1);
    expect(u.traceSkipped).toBeGreaterThan(0);
  });

  it('appends watch events without re-sending old ones', () => {
    const { timers, engine, session, updates } = setup();
    engine.watchList.push({ watchId: 1, key: '/a', events: [{ revision: 2, type: 'PUT', key: '/a', value: '1', at: 0 }] });
    session.play();
    timers.run(20);
    engine.watchList[0]!.events.push({ revision: 3, type: 'DELETE', key: '/a', value: '', at: 5 });
    timers.run(20);
    const all = updates.flatMap((x) => x.watches ?? []).flatMap((w) => w.newEvents.map((e) => e.revision));
    expect(all).toEqual([2, 3]);
  });

  it('reads the trace count from the digest', () => {
    expect(traceCount('1234:00ff00ff')).toBe(1234);
    expect(traceCount('garbage')).toBe(0);
  });
});

describe('engine failures', () => {
  it('stop the session and are reported once, with the last clock', () => {
    const { timers, engine, session, updates } = setup();
    session.play();
    timers.run(100);
    const before = updates[updates.length - 1]!.clock.virtualTime;
    engine.advance = () => {
      throw new Error('boom');
    };
    timers.run(50);
    const errs = updates.filter((u) => u.engineError);
    expect(errs).toHaveLength(1);
    expect(errs[0]!.engineError).toBe('Error: boom');
    expect(errs[0]!.clock.virtualTime).toBeGreaterThanOrEqual(before);
    expect(session.isPlaying).toBe(false);
    session.play();
    expect(session.isPlaying).toBe(false);
    expect(session.exec({ type: 'fault', fault: { action: 'heal' } })).toEqual({ ok: false, error: 'the engine stopped: Error: boom' });
  });
});
