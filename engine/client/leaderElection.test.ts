import { describe, it, expect } from 'vitest';
import { LeaderElector, LEADER_ELECTION_DEFAULTS, validateLeaderElectionConfig, fromLeaseSpec, type LeaderElectionEvent, type LeaderElectionPlan, type LeaseRequest } from './leaderElection';
import type { KObject } from '../apimachinery/types';
import { cloneState, registerClass } from '../sim/serial';
import { Rng } from '../sim/rng';
import { parseRfc3339 } from '../apiserver/http/time';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';

/** One Lease collection with optimistic concurrency, like the apiserver's. */
class FakeLeaseApi {
  leases = new Map<string, KObject>();
  rv = 100;
  /** Every request served: who, what, and the answer's status. */
  log: { at: number; from: string; method: string; status: number }[] = [];

  serve(at: number, from: string, req: LeaseRequest): { status: number; body: string } {
    const res = this.handle(req);
    this.log.push({ at, from, method: req.method, status: res.status });
    return res;
  }

  private handle(req: LeaseRequest): { status: number; body: string } {
    const fail = (code: number, reason: string) => ({ status: code, body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code }) });
    if (req.method === 'POST') {
      const obj = JSON.parse(req.body!) as KObject;
      if (this.leases.has(obj.metadata.name!)) return fail(409, 'AlreadyExists');
      return { status: 201, body: this.store({ ...obj, metadata: { ...obj.metadata, uid: `uid-${obj.metadata.name}`, resourceVersion: '' } }) };
    }
    const name = req.path.slice(LEASES.length + 1);
    const cur = this.leases.get(name);
    if (!cur) return fail(404, 'NotFound');
    if (req.method === 'GET') return { status: 200, body: JSON.stringify(cur) };
    const obj = JSON.parse(req.body!) as KObject;
    if (obj.metadata.resourceVersion !== cur.metadata.resourceVersion) return fail(409, 'Conflict');
    return { status: 200, body: this.store(obj) };
  }

  store(obj: KObject): string {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    this.leases.set(stored.metadata.name!, stored);
    return JSON.stringify(stored);
  }

  get(name = 'kube-controller-manager'): KObject | undefined {
    return this.leases.get(name);
  }
}

type Msg = { at: number; order: number; to: 'server' | 'client'; from: string; seq: number; req?: LeaseRequest; status?: number; body?: string };

/** A virtual clock, a network with 1 ms each way, and electors that may crash or be cut off. */
class LeaderSim {
  now = 0;
  api = new FakeLeaseApi();
  electors = new Map<string, LeaderElector>();
  msgs: Msg[] = [];
  order = 0;
  events: { at: number; id: string; event: LeaderElectionEvent }[] = [];
  /** Crashed: no ticks, no deliveries. */
  crashed = new Set<string>();
  /** Cut off: requests vanish (the elector waits for answers that never come). */
  cutOff = new Set<string>();
  /** Failing: the server answers 503 at once. */
  failing = new Set<string>();
  failed: { at: number; from: string; method: string }[] = [];
  /** When each elector started / stopped leading. */
  leading = new Map<string, { from: number; to: number | null }[]>();

  add(id: string, rng: Rng | null = null): LeaderElector {
    const e = new LeaderElector({ name: 'kube-controller-manager', namespace: 'kube-system', identity: id, ...LEADER_ELECTION_DEFAULTS }, rng);
    this.electors.set(id, e);
    return e;
  }

  start(id: string): void {
    this.apply(id, this.electors.get(id)!.run(this.now));
  }

  private apply(id: string, plan: LeaderElectionPlan): void {
    for (const event of plan.events) {
      this.events.push({ at: this.now, id, event });
      const spans = this.leading.get(id) ?? [];
      if (event.type === 'OnStartedLeading') spans.push({ from: this.now, to: null });
      if (event.type === 'OnStoppedLeading' && spans.length) spans[spans.length - 1]!.to = this.now;
      this.leading.set(id, spans);
    }
    const req = plan.request;
    if (!req || this.cutOff.has(id)) return;
    if (this.failing.has(id)) {
      this.failed.push({ at: this.now, from: id, method: req.method });
      this.msgs.push({ at: this.now + 1, order: this.order++, to: 'client', from: id, seq: req.seq, status: 503, body: '{}' });
      return;
    }
    this.msgs.push({ at: this.now + 1, order: this.order++, to: 'server', from: id, seq: req.seq, req });
  }

  runUntil(t: number): void {
    for (let steps = 0; ; steps++) {
      if (steps > 100_000) throw new Error('no progress');
      const next = this.nextTime();
      if (next === null || next > t) break;
      this.now = next;
      this.step();
    }
    this.now = t;
  }

  /** Runs until `pred` holds (checked after each step), failing past `limit`. */
  runUntilTrue(pred: () => boolean, limit: number): number {
    for (let steps = 0; !pred(); steps++) {
      const next = this.nextTime();
      if (next === null || next > limit || steps > 100_000) throw new Error(`condition not reached by ${limit}`);
      this.now = next;
      this.step();
    }
    return this.now;
  }

  private nextTime(): number | null {
    const times = this.msgs.filter((m) => !this.crashed.has(m.from) || m.to === 'server').map((m) => m.at);
    for (const [id, e] of this.electors) {
      const w = e.nextWakeAt();
      if (w !== null && !this.crashed.has(id)) times.push(Math.max(w, this.now));
    }
    return times.length ? Math.min(...times) : null;
  }

  private step(): void {
    const due = this.msgs.filter((m) => m.at <= this.now).sort((a, b) => a.at - b.at || a.order - b.order);
    this.msgs = this.msgs.filter((m) => m.at > this.now);
    for (const m of due) {
      if (m.to === 'server') {
        const res = this.api.serve(this.now, m.from, m.req!);
        if (this.cutOff.has(m.from)) continue;
        this.msgs.push({ at: this.now + 1, order: this.order++, to: 'client', from: m.from, seq: m.seq, status: res.status, body: res.body });
      } else if (!this.crashed.has(m.from)) {
        this.apply(m.from, this.electors.get(m.from)!.onResponse(this.now, m.seq, m.status!, m.body!));
      }
    }
    for (const [id, e] of this.electors) {
      if (this.crashed.has(id)) continue;
      const w = e.nextWakeAt();
      if (w !== null && w <= this.now) this.apply(id, e.tick(this.now));
    }
  }

  eventsOf(id: string, type: LeaderElectionEvent['type']): { at: number; event: LeaderElectionEvent }[] {
    return this.events.filter((e) => e.id === id && e.event.type === type);
  }

  messages(id: string): string[] {
    return this.events.filter((e) => e.id === id && e.event.type === 'RecordEvent').map((e) => (e.event as { message: string }).message);
  }
}
registerClass('test.FakeLeaseApi', FakeLeaseApi);
registerClass('test.LeaderSim', LeaderSim);

function twoCandidates(): LeaderSim {
  const sim = new LeaderSim();
  sim.add('a');
  sim.add('b');
  sim.start('a');
  sim.start('b');
  return sim;
}

describe('LeaderElector (client-go leaderelection over a Lease)', () => {
  it('rejects configs upstream rejects', () => {
    const base = { name: 'x', namespace: 'kube-system', identity: 'a', ...LEADER_ELECTION_DEFAULTS };
    expect(validateLeaderElectionConfig(base)).toBeNull();
    expect(validateLeaderElectionConfig({ ...base, renewDeadlineMs: 15_000 })).toBe('leaseDuration must be greater than renewDeadline');
    expect(validateLeaderElectionConfig({ ...base, retryPeriodMs: 9_000 })).toBe('renewDeadline must be greater than retryPeriod*JitterFactor');
    expect(validateLeaderElectionConfig({ ...base, identity: '' })).toBe('Lock identity is empty');
    expect(() => new LeaderElector({ ...base, identity: '' })).toThrow();
  });

  it('one candidate creates the Lease and leads; the other waits and learns the leader', () => {
    const sim = twoCandidates();
    sim.runUntil(10_000);
    const a = sim.electors.get('a')!;
    const b = sim.electors.get('b')!;
    expect(a.phase).toBe('leading');
    expect(a.isLeader).toBe(true);
    expect(b.phase).toBe('acquiring');
    expect(b.isLeader).toBe(false);
    expect(b.leader).toBe('a');
    // Both raced to create it; b's POST met 409 AlreadyExists.
    expect(sim.api.log.filter((l) => l.method === 'POST').map((l) => [l.from, l.status])).toEqual([
      ['a', 201],
      ['b', 409],
    ]);
    expect(sim.messages('a')).toEqual(['a became leader']);
    expect(sim.eventsOf('a', 'OnStartedLeading')).toHaveLength(1);
    expect(sim.eventsOf('b', 'OnNewLeader').map((e) => e.event)).toEqual([{ type: 'OnNewLeader', identity: 'a' }]);
    const became = sim.eventsOf('a', 'RecordEvent')[0]!.event;
    expect(became).toMatchObject({ reason: 'LeaderElection', eventType: 'Normal', involvedObject: { kind: 'Lease', name: 'kube-controller-manager', namespace: 'kube-system', uid: 'uid-kube-controller-manager' } });
    const spec = sim.api.get()!.spec as Record<string, unknown>;
    expect(spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0, acquireTime: '2025-01-01T00:00:00.000000Z' });
    expect(spec.renewTime).toMatch(/^2025-01-01T00:00:\d\d\.\d{6}Z$/);
  });

  it('the leader renews every retryPeriod and nobody else acquires', () => {
    const sim = twoCandidates();
    sim.runUntil(60_000);
    const puts = sim.api.log.filter((l) => l.from === 'a' && l.method === 'PUT' && l.status === 200);
    expect(puts.length).toBeGreaterThanOrEqual(29);
    expect(puts.length).toBeLessThanOrEqual(31);
    for (let i = 2; i < puts.length; i++) expect(puts[i]!.at - puts[i - 1]!.at).toBe(2002); // retryPeriod after the answer
    // The fast path: renewals do not read first.
    expect(sim.api.log.filter((l) => l.from === 'a' && l.method === 'GET')).toHaveLength(1);
    expect(sim.electors.get('b')!.isLeader).toBe(false);
    expect(sim.eventsOf('b', 'OnStartedLeading')).toHaveLength(0);
    const spec = sim.api.get()!.spec as { renewTime: string; leaseTransitions: number; acquireTime: string };
    expect(parseRfc3339(spec.renewTime)).toBeGreaterThan(56_000);
    expect(spec.leaseTransitions).toBe(0);
    expect(spec.acquireTime).toBe('2025-01-01T00:00:00.000000Z');
  });

  it('when the leader stops renewing, the other takes over after leaseDuration from its last observation (+ up to retryPeriod)', () => {
    const sim = twoCandidates();
    sim.runUntil(30_000);
    sim.crashed.add('a');
    sim.runUntil(44_000);
    const b = sim.electors.get('b')!;
    const observed = b.observedTime;
    expect(b.leader).toBe('a');
    const lastRenew = parseRfc3339((sim.api.get()!.spec as { renewTime: string }).renewTime);
    expect(observed).toBeGreaterThanOrEqual(lastRenew);
    expect(b.expiresAt).toBe(observed + 15_000);
    const t = sim.runUntilTrue(() => b.phase === 'leading', 60_000);
    expect(t).toBeGreaterThanOrEqual(observed + 15_000);
    expect(t).toBeLessThanOrEqual(observed + 15_000 + 2_000 + 4);
    const spec = sim.api.get()!.spec as { holderIdentity: string; leaseTransitions: number; acquireTime: string };
    expect(spec.holderIdentity).toBe('b');
    expect(spec.leaseTransitions).toBe(1);
    expect(b.transitions).toBe(1);
    expect(parseRfc3339(spec.acquireTime)).toBeGreaterThanOrEqual(observed + 15_000);
    expect(sim.eventsOf('b', 'OnNewLeader').map((e) => (e.event as { identity: string }).identity)).toEqual(['a', 'b']);
    expect(sim.messages('b')).toEqual(['b became leader']);
  });

  it('acquire retries are jittered up to 1.2 x retryPeriod when given an Rng', () => {
    const sim = new LeaderSim();
    sim.add('a');
    sim.add('b', new Rng(7));
    sim.start('a');
    sim.start('b');
    sim.runUntil(30_000);
    const gets = sim.api.log.filter((l) => l.from === 'b' && l.method === 'GET').map((l) => l.at);
    const gaps = gets.slice(1).map((t, i) => t - gets[i]!);
    expect(gaps.length).toBeGreaterThan(5);
    for (const g of gaps) {
      expect(g).toBeGreaterThanOrEqual(2_002);
      expect(g).toBeLessThanOrEqual(2_002 + 2_400);
    }
    expect(new Set(gaps).size).toBeGreaterThan(1);
    sim.crashed.add('a');
    const b = sim.electors.get('b')!;
    sim.runUntil(31_000);
    const observed = b.observedTime;
    const t = sim.runUntilTrue(() => b.phase === 'leading', 80_000);
    expect(t).toBeGreaterThanOrEqual(observed + 15_000);
    expect(t).toBeLessThanOrEqual(observed + 15_000 + 4_400 + 4);
  });

  it('a leader cut off from the API server steps down renewDeadline after its renewal began, before anyone else may lead', () => {
    const sim = twoCandidates();
    sim.runUntil(30_000);
    const a = sim.electors.get('a')!;
    sim.cutOff.add('a');
    const lastRenew = parseRfc3339((sim.api.get()!.spec as { renewTime: string }).renewTime);
    const down = sim.runUntilTrue(() => a.phase === 'stopped', 50_000);
    // The renewal after the last success started retryPeriod later; its deadline is 10 s on.
    expect(down).toBeGreaterThan(lastRenew + 10_000);
    expect(down).toBeLessThanOrEqual(lastRenew + 2_002 + 10_000);
    expect(sim.messages('a')).toEqual(['a became leader', 'a stopped leading']);
    expect(sim.eventsOf('a', 'OnStoppedLeading')).toHaveLength(1);
    expect(a.nextWakeAt()).toBeNull();
    // b takes over only later: never two leaders at once.
    const b = sim.electors.get('b')!;
    const up = sim.runUntilTrue(() => b.phase === 'leading', 70_000);
    expect(up).toBeGreaterThan(down);
    expect(up).toBeGreaterThanOrEqual(lastRenew + 15_000);
  });

  it('a leader whose renewals fail retries every retryPeriod, then steps down at renewDeadline', () => {
    const sim = twoCandidates();
    sim.runUntil(30_000);
    const a = sim.electors.get('a')!;
    const before = sim.events.length;
    sim.failing.add('a');
    const down = sim.runUntilTrue(() => a.phase === 'stopped', 50_000);
    // Each try: the optimistic PUT fails, then the slow-path GET.
    const puts = sim.failed.filter((f) => f.method === 'PUT').map((f) => f.at);
    expect(sim.failed.filter((f) => f.method === 'GET')).toHaveLength(5);
    expect(puts).toHaveLength(5);
    const pollStart = puts[0]!;
    expect(puts).toEqual([0, 2_000, 4_000, 6_000, 8_000].map((d) => pollStart + d));
    expect(down).toBe(pollStart + 10_000);
    expect(sim.events.slice(before).map((e) => e.event.type)).toEqual(['RecordEvent', 'OnStoppedLeading']);
    // a stays the observed holder until it reads otherwise (upstream IsLeader).
    expect(a.leader).toBe('a');
    expect(a.isLeader).toBe(true);
  });

  it('counts the tries of a failing renewal: at 0, 2, 4, 6 and 8 s of the poll, none at the deadline', () => {
    const e = new LeaderElector({ name: 'l', namespace: 'kube-system', identity: 'a', ...LEADER_ELECTION_DEFAULTS });
    const api = new FakeLeaseApi();
    const answer = (now: number, p: LeaderElectionPlan) => {
      const req = p.request!;
      const res = api.serve(now, 'a', req);
      return e.onResponse(now, req.seq, res.status, res.body);
    };
    let p = e.run(0);
    p = answer(0, p); // GET 404 -> POST
    p = answer(0, p); // POST 201 -> leading, immediate renew
    expect(e.phase).toBe('leading');
    p = answer(0, p); // fast-path PUT 200
    expect(p.request).toBeNull();
    expect(e.nextWakeAt()).toBe(2_000);
    const tries: number[] = [];
    let now = 2_000;
    for (;;) {
      const w = e.nextWakeAt();
      if (w === null) break;
      now = w;
      p = e.tick(now);
      if (!p.request) break;
      tries.push(now);
      expect(p.request.method).toBe('PUT'); // fast path while the lease is still valid
      p = e.onResponse(now + 100, p.request.seq, 500, '{}');
      expect(p.request!.method).toBe('GET');
      p = e.onResponse(now + 200, p.request!.seq, 500, '{}');
    }
    expect(tries).toEqual([2_000, 4_000, 6_000, 8_000, 10_000]);
    expect(now).toBe(12_000);
    expect(e.phase).toBe('stopped');
    expect(p.events.map((x) => x.type)).toEqual(['RecordEvent', 'OnStoppedLeading']);
  });

  it('a request in flight at the renew deadline is abandoned and its late answer ignored', () => {
    const e = new LeaderElector({ name: 'l', namespace: 'kube-system', identity: 'a', ...LEADER_ELECTION_DEFAULTS });
    const api = new FakeLeaseApi();
    let p = e.run(0);
    for (let i = 0; i < 3; i++) {
      const res = api.serve(0, 'a', p.request!);
      p = e.onResponse(0, p.request!.seq, res.status, res.body);
    }
    p = e.tick(2_000);
    const hung = p.request!;
    expect(e.nextWakeAt()).toBe(12_000);
    p = e.tick(12_000);
    expect(e.phase).toBe('stopped');
    const res = api.serve(12_500, 'a', hung);
    expect(res.status).toBe(200);
    expect(e.onResponse(12_500, hung.seq, res.status, res.body)).toEqual({ request: null, events: [] });
    expect(e.phase).toBe('stopped');
  });

  it('two candidates taking over an expired lease at once: one wins, the other meets 409 Conflict', () => {
    const sim = new LeaderSim();
    sim.api.store({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'kube-controller-manager', namespace: 'kube-system', uid: 'u1' },
      spec: { holderIdentity: 'old', leaseDurationSeconds: 15, acquireTime: '2024-12-31T23:00:00.000000Z', renewTime: '2024-12-31T23:59:00.000000Z', leaseTransitions: 4 },
    });
    sim.add('a');
    sim.add('b');
    sim.start('a');
    sim.start('b');
    sim.runUntil(15_000);
    // The renewTime in the lease is long past, yet both wait a full leaseDuration from what they saw.
    expect(sim.electors.get('a')!.leader).toBe('old');
    expect(sim.electors.get('b')!.leader).toBe('old');
    sim.runUntil(20_000);
    const puts = sim.api.log.filter((l) => l.method === 'PUT');
    expect(puts.slice(0, 2).map((l) => [l.from, l.status])).toEqual([
      ['a', 200],
      ['b', 409],
    ]);
    expect(puts[0]!.at).toBe(puts[1]!.at);
    expect(puts[0]!.at).toBeGreaterThanOrEqual(2 + 15_000);
    expect(sim.electors.get('a')!.isLeader).toBe(true);
    expect(sim.electors.get('b')!.phase).toBe('acquiring');
    const spec = fromLeaseSpec(sim.api.get()!.spec);
    expect(spec.holderIdentity).toBe('a');
    expect(spec.leaderTransitions).toBe(5);
    expect(sim.eventsOf('a', 'OnNewLeader').map((e) => (e.event as { identity: string }).identity)).toEqual(['old', 'a']);
  });

  it('a renewal meeting 409 (someone else wrote the Lease) falls back to GET and renews', () => {
    const sim = twoCandidates();
    sim.runUntil(10_001);
    // A third party touches the Lease (say, a label): its resourceVersion moves on.
    const cur = sim.api.get()!;
    sim.api.store({ ...cur, metadata: { ...cur.metadata, labels: { touched: 'yes' } } });
    const from = sim.api.log.length;
    sim.runUntil(16_000);
    const a = sim.api.log.slice(from).filter((l) => l.from === 'a');
    expect(a.slice(0, 4).map((l) => `${l.method} ${l.status}`)).toEqual(['PUT 409', 'GET 200', 'PUT 200', 'PUT 200']);
    expect(sim.electors.get('a')!.phase).toBe('leading');
    expect(sim.eventsOf('a', 'OnStoppedLeading')).toHaveLength(0);
    expect(sim.api.get()!.metadata.labels).toEqual({ touched: 'yes' });
    expect(fromLeaseSpec(sim.api.get()!.spec).leaderTransitions).toBe(0);
  });

  it('a stopped elector can run again as a fresh one', () => {
    const sim = twoCandidates();
    sim.runUntil(30_000);
    sim.cutOff.add('a');
    sim.runUntil(70_000);
    const a = sim.electors.get('a')!;
    expect(a.phase).toBe('stopped');
    expect(sim.electors.get('b')!.phase).toBe('leading');
    sim.cutOff.delete('a');
    sim.start('a');
    sim.runUntil(80_000);
    expect(a.phase).toBe('acquiring');
    expect(a.leader).toBe('b');
    expect(sim.leading.get('a')).toHaveLength(1);
  });

  it('never has two leaders at once across crashes and cut-offs', () => {
    const sim = new LeaderSim();
    for (const id of ['a', 'b', 'c']) sim.add(id, new Rng(id));
    for (const id of ['a', 'b', 'c']) sim.start(id);
    const rng = new Rng(42);
    for (let t = 5_000; t <= 300_000; t += 5_000) {
      sim.runUntil(t);
      const id = rng.pick(['a', 'b', 'c']);
      const e = sim.electors.get(id)!;
      if (sim.cutOff.has(id)) sim.cutOff.delete(id);
      else if (rng.chance(0.3)) sim.cutOff.add(id);
      if (e.phase === 'stopped' && !sim.cutOff.has(id)) sim.start(id);
    }
    const spans = [...sim.leading.values()].flat().map((s) => ({ from: s.from, to: s.to ?? Infinity }));
    spans.sort((x, y) => x.from - y.from);
    expect(spans.length).toBeGreaterThan(1);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.from).toBeGreaterThan(spans[i - 1]!.to);
  });

  it('a clone taken mid-run continues identically', () => {
    const sim = twoCandidates();
    sim.runUntil(20_000);
    sim.crashed.add('a');
    sim.runUntil(25_000);
    const copy = cloneState(sim);
    expect(copy.electors.get('b')).toBeInstanceOf(LeaderElector);
    sim.runUntil(60_000);
    copy.runUntil(60_000);
    expect(copy.events).toEqual(sim.events);
    expect(copy.api.log).toEqual(sim.api.log);
    expect(copy.api.get()).toEqual(sim.api.get());
    expect(copy.electors.get('b')!.isLeader).toBe(true);
  });
});
