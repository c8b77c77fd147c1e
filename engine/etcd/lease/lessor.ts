// Leases (server/lease/lessor.go, lease.go). The replicated part — which
// leases exist, their granted TTL, which keys they hold — changes only by
// applying committed entries (grant, revoke, checkpoint, puts and deletes), so
// every member holds the same set. Expiry is tracked separately, and only on
// the leader (LeaseExpiry): followers keep every lease "forever" and the
// leader proposes revokes for expired ones.
import {
  ErrLeaseExist,
  ErrLeaseNotFound,
  ErrLeaseTTLTooLarge,
  type EtcdError,
} from '../api/errors';
import { ExpiredLeaseRetryIntervalMs, LeaseRevokeRate, MaxLeaseTTL, minLeaseTTLSeconds } from '../api/limits';
import { registerClass } from '../../sim/serial';
import { LeaseExpiry } from './expiry';

export const NoLease = 0;

export class Lease {
  constructor(
    readonly ID: number,
    /** Granted TTL in seconds (raised to the minimum TTL). */
    public ttl: number,
    /** Remaining TTL from the last checkpoint, 0 if none (Lease.remainingTTL). */
    public remainingTTL = 0,
    /** Keys attached to the lease (itemSet). */
    readonly items = new Set<string>(),
  ) {}

  /** getRemainingTTL: what refresh() counts from. */
  remainingTTLSeconds(): number {
    return this.remainingTTL > 0 ? this.remainingTTL : this.ttl;
  }

  /** Keys in byte order (upstream revokes them in this order). */
  keys(): string[] {
    return [...this.items].sort();
  }
}

/** Deletes keys as one write txn: what the KV store hands the lessor (lease.TxnDelete). */
export interface TxnDelete {
  deleteRange(key: string, end: string | null): [deleted: number, rev: number];
  end(): void;
}

export interface RangeDeleter {
  write(): TxnDelete;
}

export type RenewResult =
  | { type: 'Renewed'; TTL: number }
  | { type: 'NotFound' }
  /** Not the leader's lessor: upstream forwards the keepalive to the leader. */
  | { type: 'NotPrimary' }
  /**
   * Expired but not yet revoked: upstream blocks until the revoke commits
   * (then answers not found) or this member is demoted (then NotPrimary).
   */
  | { type: 'Expired' };

export interface LessorConfig {
  /** Minimum TTL in seconds; default from the default election timeout (2 s). */
  minLeaseTTL?: number;
}

export class Lessor {
  readonly leaseMap = new Map<number, Lease>();
  /** Which lease holds each key (itemMap). */
  readonly itemMap = new Map<string, number>();
  readonly minLeaseTTL: number;
  /** Leader-only timing; never snapshotted with the KV state. */
  readonly expiry = new LeaseExpiry();

  constructor(cfg: LessorConfig = {}) {
    this.minLeaseTTL = cfg.minLeaseTTL ?? minLeaseTTLSeconds();
  }

  isPrimary(): boolean {
    return this.expiry.primary;
  }

  /** Grant (applied): a TTL below the minimum is raised to it. */
  grant(id: number, ttl: number, nowMs: number): Lease | EtcdError {
    if (id === NoLease) return ErrLeaseNotFound;
    if (ttl > MaxLeaseTTL) return ErrLeaseTTLTooLarge;
    if (this.leaseMap.has(id)) return ErrLeaseExist;
    const l = new Lease(id, Math.max(ttl, this.minLeaseTTL));
    this.leaseMap.set(id, l);
    if (this.isPrimary()) this.expiry.refresh(id, nowMs, 0, l.remainingTTLSeconds());
    return l;
  }

  /**
   * Revoke (applied): removes the lease, then deletes its keys in byte order
   * in ONE write txn, so they all go at one revision.
   */
  revoke(id: number, rd: RangeDeleter): EtcdError | null {
    const l = this.leaseMap.get(id);
    if (!l) return ErrLeaseNotFound;
    this.leaseMap.delete(id);
    this.expiry.remove(id);
    const keys = l.keys();
    const txn = rd.write();
    for (const key of keys) txn.deleteRange(key, null);
    txn.end();
    // Upstream leaves these itemMap entries behind (Detach fails once the lease
    // is gone); dropping them changes nothing a client can observe.
    for (const key of keys) if (this.itemMap.get(key) === id) this.itemMap.delete(key);
    return null;
  }

  /** Checkpoint (applied): records the remaining TTL that promote() will start from. */
  checkpoint(id: number, remainingTTL: number): void {
    const l = this.leaseMap.get(id);
    if (l) l.remainingTTL = remainingTTL;
  }

  attach(id: number, keys: readonly string[]): boolean {
    const l = this.leaseMap.get(id);
    if (!l) return false;
    for (const k of keys) {
      l.items.add(k);
      this.itemMap.set(k, id);
    }
    return true;
  }

  detach(id: number, keys: readonly string[]): boolean {
    const l = this.leaseMap.get(id);
    if (!l) return false;
    for (const k of keys) {
      l.items.delete(k);
      this.itemMap.delete(k);
    }
    return true;
  }

  getLease(key: string): number {
    return this.itemMap.get(key) ?? NoLease;
  }

  lookup(id: number): Lease | undefined {
    return this.leaseMap.get(id);
  }

  /** Leases ordered by expiry (then id, for a stable order among "forever"). */
  leases(): Lease[] {
    return [...this.leaseMap.values()].sort(
      (a, b) => this.expiry.expiryOf(a.ID) - this.expiry.expiryOf(b.ID) || a.ID - b.ID,
    );
  }

  remainingMs(id: number, nowMs: number): number {
    return this.expiry.remainingMs(id, nowMs);
  }

  /**
   * Promote: this member became leader (upstream calls it once the leader has
   * applied its first entry of the term, with extend = election timeout).
   * Every lease gets expiry now + extend + TTL; with many leases, expiries
   * are spread so no more than 3/4 of leaseRevokeRate fall in one second.
   */
  promote(nowMs: number, extendMs: number): void {
    this.expiry.promote();
    for (const l of this.leaseMap.values()) this.expiry.refresh(l.ID, nowMs, extendMs, l.remainingTTLSeconds());
    if (this.leaseMap.size < LeaseRevokeRate) return;

    const leases = this.leases();
    let baseWindow = this.remainingMs(leases[0]!.ID, nowMs);
    let nextWindow = baseWindow + 1000;
    let expires = 0;
    const targetExpiresPerSecond = Math.floor((3 * LeaseRevokeRate) / 4);
    for (const l of leases) {
      const remaining = this.remainingMs(l.ID, nowMs);
      if (remaining > nextWindow) {
        baseWindow = remaining;
        nextWindow = baseWindow + 1000;
        expires = 1;
        continue;
      }
      expires++;
      if (expires <= targetExpiresPerSecond) continue;
      let rateDelay = 1000 * (expires / targetExpiresPerSecond);
      // Leases already n seconds past the base window need only 1 s more.
      rateDelay -= remaining - baseWindow;
      const delay = Math.trunc(rateDelay * 1e6) / 1e6; // time.Duration truncates to ns
      nextWindow = baseWindow + delay;
      this.expiry.refresh(l.ID, nowMs, delay + extendMs, l.remainingTTLSeconds());
    }
  }

  /** Demote: no longer leader; every lease lives forever here again. */
  demote(): void {
    this.expiry.demote();
  }

  /** Renew (keepalive, leader only): expiry = now + TTL; returns the TTL. */
  renew(id: number, nowMs: number): RenewResult {
    if (!this.isPrimary()) return { type: 'NotPrimary' };
    const l = this.leaseMap.get(id);
    if (!l) return { type: 'NotFound' };
    if (this.expiry.expired(id, nowMs)) return { type: 'Expired' };
    this.expiry.refresh(id, nowMs, 0, l.remainingTTLSeconds());
    return { type: 'Renewed', TTL: l.ttl };
  }

  /**
   * Leases past their expiry, for the leader to propose LeaseRevoke
   * (revokeExpiredLeases, run every 500 ms, at most leaseRevokeRate/2 a run).
   * A reported lease is reported again after 3 s if still not revoked.
   */
  expiredLeases(nowMs: number, limit = LeaseRevokeRate / 2): number[] {
    return this.expiry.findExpired(nowMs, limit, ExpiredLeaseRetryIntervalMs, (id) => this.leaseMap.has(id));
  }

  /** Recover from persisted leases (initAndRecover): TTLs raised to the minimum, all forever. */
  recover(leases: ReadonlyArray<{ ID: number; TTL: number }>): void {
    this.leaseMap.clear();
    this.itemMap.clear();
    this.expiry.clearTimes();
    for (const p of leases) this.leaseMap.set(p.ID, new Lease(p.ID, Math.max(p.TTL, this.minLeaseTTL)));
  }
}

registerClass('etcd.Lease', Lease);
registerClass('etcd.Lessor', Lessor);
