// Leader election over a coordination.k8s.io/v1 Lease, as client-go's
// tools/leaderelection/leaderelection.go with resourcelock/leaselock.go, made a
// pure state machine on virtual time. It never sends or waits: `run`, `tick`
// and `onResponse` return a plan (at most one REST call to make, and events
// for the owner), and `nextWakeAt()` says when to call `tick` next.
//
// Upstream in brief:
// - tryAcquireOrRenew: a leader whose observed lease is still valid first PUTs
//   optimistically with the Lease it last wrote (fast path); otherwise, or
//   when that fails, GET the Lease (404 -> POST it). A record that differs from
//   the last one read resets observedTime; a lease held by someone else is
//   respected until observedTime + leaseDurationSeconds on the LOCAL clock
//   (never the renewTime written in it), then taken over with a PUT carrying
//   the read resourceVersion (409 when someone was faster) and
//   leaseTransitions + 1.
// - acquire: try every retryPeriod (jittered by up to 1.2x when an Rng is
//   given, wait.JitterUntil sliding) until it succeeds: "<id> became leader".
// - renew: immediately, then retryPeriod after each success; each renewal
//   polls every retryPeriod and gives up renewDeadline after it began: the
//   elector stops leading ("<id> stopped leading", OnStoppedLeading). Upstream
//   Run then returns; here the owner may call `run` again (a new elector).
import { registerClass } from '../sim/serial';
import { assertNever } from '../sim/assert';
import type { KObject } from '../apimachinery/types';
import type { Rng } from '../sim/rng';
import { rfc3339Micro } from '../apiserver/http/time';

export interface LeaderElectionConfig {
  /** The Lease's name (kube-controller-manager, kube-scheduler). */
  name: string;
  namespace: string;
  /** This candidate's identity (upstream: hostname + "_" + uuid). */
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** component-base defaults (LeaderElectionConfiguration). */
export const LEADER_ELECTION_DEFAULTS = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 } as const;

/** wait.Jitter factor of the acquire loop (leaderelection.go JitterFactor). */
export const JITTER_FACTOR = 1.2;

/** resourcelock.LeaderElectionRecord; times are MicroTime strings ('' when unset). */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
}

/** A REST call the owner must make; answer it with onResponse(now, seq, …). */
export interface LeaseRequest {
  seq: number;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

export type LeaderElectionEvent =
  /** LeaderCallbacks.OnNewLeader: the observed holder changed (also the first one seen). */
  | { type: 'OnNewLeader'; identity: string }
  | { type: 'OnStartedLeading' }
  | { type: 'OnStoppedLeading' }
  /** LeaseLock.RecordEvent: a Normal event with reason LeaderElection on the Lease. */
  | { type: 'RecordEvent'; eventType: 'Normal'; reason: 'LeaderElection'; message: string; involvedObject: LeaseRef };

export interface LeaseRef {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  name: string;
  namespace: string;
  uid?: string;
  resourceVersion?: string;
}

export interface LeaderElectionPlan {
  request: LeaseRequest | null;
  events: LeaderElectionEvent[];
}

/** idle: not started; acquiring / leading: upstream's acquire and renew loops; stopped: Run returned. */
export type LeaderElectionPhase = 'idle' | 'acquiring' | 'leading' | 'stopped';

/** The request of the try in progress: which step of tryAcquireOrRenew it is. */
type Step = 'fastUpdate' | 'get' | 'create' | 'update';

interface Attempt {
  seq: number;
  step: Step;
  /** When the try began (`now` in tryAcquireOrRenew). */
  startedAt: number;
  /** The record this try writes. */
  record: LeaderElectionRecord;
}

/** Upstream's NewLeaderElector checks; null when the config is usable. */
export function validateLeaderElectionConfig(c: LeaderElectionConfig): string | null {
  if (c.leaseDurationMs <= c.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (c.leaseDurationMs < 1) return 'leaseDuration must be greater than zero';
  if (c.renewDeadlineMs < 1) return 'renewDeadline must be greater than zero';
  if (c.retryPeriodMs < 1) return 'retryPeriod must be greater than zero';
  if (!c.identity) return 'Lock identity is empty';
  return null;
}

const EMPTY_RECORD: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: '', renewTime: '', leaderTransitions: 0 };

export class LeaderElector {
  phase: LeaderElectionPhase = 'idle';
  observedRecord: LeaderElectionRecord = { ...EMPTY_RECORD };
  /** The last record read from the server, as compared between reads. */
  observedRawRecord = '';
  /** Local time observedRecord was last set: the lease's expiry counts from here. */
  observedTime = 0;
  /** Last holder reported through OnNewLeader. */
  reportedLeader = '';
  /** The Lease last read or written (LeaseLock.lease): updates carry its resourceVersion. */
  lease: KObject | null = null;
  /** Local time leadership began (UI). */
  leadingSince: number | null = null;
  private attempt: Attempt | null = null;
  /** When the next try starts, null while one is in flight or none is due. */
  private nextTryAt: number | null = null;
  /** The current renew poll: its start (the retryPeriod grid) and deadline. */
  private pollStart = 0;
  /** Local time the current renewal gives up (UI), null outside a renewal. */
  renewDeadlineAt: number | null = null;
  private seq = 0;

  constructor(
    readonly config: LeaderElectionConfig,
    /** Jitters the acquire loop like upstream when given; without it retries are exactly retryPeriod apart. */
    private readonly rng: Rng | null = null,
  ) {
    const err = validateLeaderElectionConfig(config);
    if (err) throw new Error(`leaderelection: ${err}`);
  }

  /** IsLeader: the last observed holder is us. */
  get isLeader(): boolean {
    return this.observedRecord.holderIdentity === this.config.identity;
  }

  /** GetLeader: the last observed holder ('' when none yet). */
  get leader(): string {
    return this.observedRecord.holderIdentity;
  }

  get transitions(): number {
    return this.observedRecord.leaderTransitions;
  }

  /** Local time at which the observed lease runs out unless renewed. */
  get expiresAt(): number {
    return this.observedTime + this.observedRecord.leaseDurationSeconds * 1000;
  }

  get leasePath(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${this.config.namespace}/leases/${this.config.name}`;
  }

  /** Starts (or, once stopped, restarts as a fresh elector) the acquire loop: tries at once. */
  run(now: number): LeaderElectionPlan {
    if (this.phase === 'acquiring' || this.phase === 'leading') return { request: null, events: [] };
    if (this.phase === 'stopped') this.reset();
    this.phase = 'acquiring';
    return { request: this.startTry(now), events: [] };
  }

  /** Cancels the elector (Run's context done): OnStoppedLeading, as upstream's deferred call. */
  stop(_now: number): LeaderElectionPlan {
    const events: LeaderElectionEvent[] = [];
    if (this.phase === 'leading') events.push(this.recordEvent('stopped leading'));
    if (this.phase === 'acquiring' || this.phase === 'leading') events.push({ type: 'OnStoppedLeading' });
    this.halt();
    return { request: null, events };
  }

  /** When the owner should call tick next (null: nothing scheduled). */
  nextWakeAt(): number | null {
    const times = [this.attempt ? null : this.nextTryAt, this.phase === 'leading' ? this.renewDeadlineAt : null].filter((t): t is number => t !== null);
    return times.length ? Math.min(...times) : null;
  }

  /** Fires what is due at `now`: a renew deadline passing, or the next try. */
  tick(now: number): LeaderElectionPlan {
    const events: LeaderElectionEvent[] = [];
    if (this.phase === 'leading' && this.renewDeadlineAt !== null && now >= this.renewDeadlineAt) {
      // The poll's context times out: a request in flight is abandoned.
      this.maybeReportTransition(events);
      events.push(this.recordEvent('stopped leading'), { type: 'OnStoppedLeading' });
      this.halt();
      return { request: null, events };
    }
    if (this.attempt || this.nextTryAt === null || now < this.nextTryAt) return { request: null, events };
    if (this.phase === 'leading' && this.renewDeadlineAt === null) this.beginPoll(now);
    return { request: this.startTry(now), events };
  }

  /**
   * The answer to request `seq` (status 0 for a transport failure). Answers
   * to abandoned requests are ignored.
   */
  onResponse(now: number, seq: number, status: number, body: string): LeaderElectionPlan {
    const a = this.attempt;
    const events: LeaderElectionEvent[] = [];
    if (!a || a.seq !== seq) return { request: null, events };
    this.attempt = null;
    const ok = status >= 200 && status < 300;
    switch (a.step) {
      case 'fastUpdate':
        if (ok) {
          this.wrote(now, a, body);
          return this.tryDone(now, a, true);
        }
        // "Failed to update lock optimistically, falling back to slow path".
        return { request: this.send(a, 'get', 'GET', this.leasePath), events };
      case 'get': {
        if (status === 404) {
          const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.config.name, namespace: this.config.namespace }, spec: toLeaseSpec(a.record) };
          return { request: this.send(a, 'create', 'POST', `/apis/coordination.k8s.io/v1/namespaces/${this.config.namespace}/leases`, lease), events };
        }
        if (!ok) return this.tryDone(now, a, false);
        this.lease = JSON.parse(body) as KObject;
        const old = fromLeaseSpec(this.lease.spec);
        const raw = rawRecord(old);
        if (raw !== this.observedRawRecord) {
          this.setObservedRecord(old, now);
          this.observedRawRecord = raw;
        }
        if (old.holderIdentity && this.isLeaseValid(a.startedAt) && !this.isLeader) return this.tryDone(now, a, false);
        if (this.isLeader) {
          a.record.acquireTime = old.acquireTime;
          a.record.leaderTransitions = old.leaderTransitions;
        } else {
          a.record.leaderTransitions = old.leaderTransitions + 1;
        }
        return { request: this.send(a, 'update', 'PUT', this.leasePath, { ...this.lease, spec: toLeaseSpec(a.record) }), events };
      }
      case 'create':
      case 'update':
        if (!ok) return this.tryDone(now, a, false);
        this.wrote(now, a, body);
        return this.tryDone(now, a, true);
      default:
        return assertNever(a.step, 'step');
    }
  }

  // ---- internals ---------------------------------------------------------------

  /** A write succeeded: the server's Lease is ours now, and so is the observed record. */
  private wrote(now: number, a: Attempt, body: string): void {
    this.lease = JSON.parse(body) as KObject;
    this.setObservedRecord(a.record, now);
  }

  private startTry(now: number): LeaseRequest {
    this.nextTryAt = null;
    const at = rfc3339Micro(now);
    const record: LeaderElectionRecord = {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: Math.floor(this.config.leaseDurationMs / 1000),
      acquireTime: at,
      renewTime: at,
      leaderTransitions: 0,
    };
    const a: Attempt = { seq: 0, step: 'get', startedAt: now, record };
    if (this.isLeader && this.isLeaseValid(now) && this.lease) {
      record.acquireTime = this.observedRecord.acquireTime;
      record.leaderTransitions = this.observedRecord.leaderTransitions;
      return this.send(a, 'fastUpdate', 'PUT', this.leasePath, { ...this.lease, spec: toLeaseSpec(record) });
    }
    return this.send(a, 'get', 'GET', this.leasePath);
  }

  private send(a: Attempt, step: Step, method: LeaseRequest['method'], path: string, body?: unknown): LeaseRequest {
    a.seq = ++this.seq;
    a.step = step;
    this.attempt = a;
    return body === undefined ? { seq: a.seq, method, path } : { seq: a.seq, method, path, body: JSON.stringify(body) };
  }

  /** The end of one tryAcquireOrRenew: what the acquire or renew loop does next. */
  private tryDone(now: number, a: Attempt, succeeded: boolean): LeaderElectionPlan {
    const events: LeaderElectionEvent[] = [];
    switch (this.phase) {
      case 'acquiring':
        this.maybeReportTransition(events);
        if (!succeeded) {
          this.nextTryAt = now + this.jittered(this.config.retryPeriodMs);
          return { request: null, events };
        }
        events.push(this.recordEvent('became leader'), { type: 'OnStartedLeading' });
        this.phase = 'leading';
        this.leadingSince = now;
        // renew() starts its first poll at once (wait.Until runs f immediately).
        this.beginPoll(now);
        return { request: this.startTry(now), events };
      case 'leading': {
        if (succeeded) {
          this.maybeReportTransition(events);
          this.renewDeadlineAt = null;
          this.nextTryAt = now + this.config.retryPeriodMs;
          return { request: null, events };
        }
        // PollImmediateUntil: the next try on the retryPeriod ticker, at once if a tick passed meanwhile.
        this.nextTryAt = Math.max(now, this.tickAfter(a.startedAt));
        return { request: null, events };
      }
      case 'idle':
      case 'stopped':
        return { request: null, events };
      default:
        return assertNever(this.phase, 'phase');
    }
  }

  private beginPoll(now: number): void {
    this.pollStart = now;
    this.renewDeadlineAt = now + this.config.renewDeadlineMs;
  }

  /** The first tick of the current poll's retryPeriod ticker after t. */
  private tickAfter(t: number): number {
    const p = this.config.retryPeriodMs;
    return this.pollStart + (Math.floor((t - this.pollStart) / p) + 1) * p;
  }

  private jittered(period: number): number {
    return this.rng ? period + this.rng.float() * JITTER_FACTOR * period : period;
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + this.observedRecord.leaseDurationSeconds * 1000 > now;
  }

  private setObservedRecord(r: LeaderElectionRecord, now: number): void {
    this.observedRecord = { ...r };
    this.observedTime = now;
  }

  private maybeReportTransition(events: LeaderElectionEvent[]): void {
    if (this.observedRecord.holderIdentity === this.reportedLeader) return;
    this.reportedLeader = this.observedRecord.holderIdentity;
    events.push({ type: 'OnNewLeader', identity: this.reportedLeader });
  }

  private recordEvent(what: string): LeaderElectionEvent {
    const m = this.lease?.metadata;
    const involvedObject: LeaseRef = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: this.config.name, namespace: this.config.namespace };
    if (m?.uid) involvedObject.uid = m.uid;
    if (m?.resourceVersion) involvedObject.resourceVersion = m.resourceVersion;
    return { type: 'RecordEvent', eventType: 'Normal', reason: 'LeaderElection', message: `${this.config.identity} ${what}`, involvedObject };
  }

  private halt(): void {
    this.phase = 'stopped';
    this.attempt = null;
    this.nextTryAt = null;
    this.renewDeadlineAt = null;
    this.leadingSince = null;
  }

  private reset(): void {
    this.observedRecord = { ...EMPTY_RECORD };
    this.observedRawRecord = '';
    this.observedTime = 0;
    this.reportedLeader = '';
    this.lease = null;
  }
}

/** LeaderElectionRecordToLeaseSpec: every field set; an unset time is null (MicroTime's zero). */
export function toLeaseSpec(r: LeaderElectionRecord): Record<string, unknown> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: r.acquireTime || null,
    renewTime: r.renewTime || null,
    leaseTransitions: r.leaderTransitions,
  };
}

/** LeaseSpecToLeaderElectionRecord: missing fields read as zero values. */
export function fromLeaseSpec(spec: unknown): LeaderElectionRecord {
  const s = (spec ?? {}) as { holderIdentity?: string | null; leaseDurationSeconds?: number | null; acquireTime?: string | null; renewTime?: string | null; leaseTransitions?: number | null };
  return {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime ?? '',
    renewTime: s.renewTime ?? '',
    leaderTransitions: s.leaseTransitions ?? 0,
  };
}

/** The record as leaselock.Get marshals it: metav1.Time keeps whole seconds only. */
function rawRecord(r: LeaderElectionRecord): string {
  const sec = (t: string) => t.replace(/\.\d+Z$/, 'Z');
  return JSON.stringify([r.holderIdentity, r.leaseDurationSeconds, sec(r.acquireTime), sec(r.renewTime), r.leaderTransitions]);
}

registerClass('LeaderElector', LeaderElector);
