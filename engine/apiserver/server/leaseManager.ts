// The etcd leases behind objects with a TTL (events): storage/etcd3's
// leaseManager. Leases are costly for etcd, so one is shared by the writes of
// a window: a lease granted for TTL + reuse seconds serves every write that
// comes while it still outlives `now + TTL` (so each object lives at least its
// TTL) and the window (`now + TTL + reuse` is past its expiry) holds, up to
// --lease-reuse-max-object-count (1000) objects on one lease. kube-apiserver's
// --event-ttl is 1 h: a lease of 3,660 s, reused for 60 s.
import { registerClass } from '../../sim/serial';

/** --event-ttl (kube-apiserver options, default 1h). */
export const EVENT_TTL_SECONDS = 3600;
/** newDefaultLeaseManager: reuse for min(60 s, 5% of the TTL). */
const REUSE_SECONDS = 60;
const REUSE_PERCENT = 0.05;
/** DefaultLeaseMaxObjectCount. */
const MAX_OBJECTS = 1000;

export class LeaseManager {
  prevLeaseId = 0;
  /** Virtual ms the previous lease expires at (as granted: the grant's start + its TTL). */
  prevExpiry = -Infinity;
  attached = 0;
  /** A grant in flight and the ops waiting on it (op ids). */
  granting = false;
  grantStartedAt = 0;
  waiters: number[] = [];
  /** Leases granted so far (the reuse shows in it). */
  granted = 0;

  static reuseSeconds(ttl: number): number {
    return Math.min(Math.trunc(REUSE_PERCENT * ttl), REUSE_SECONDS);
  }

  /** GetLease: the previous lease when it can serve a write now, else null (a grant is needed). */
  reuse(now: number, ttl: number): number | null {
    const reuse = LeaseManager.reuseSeconds(ttl);
    const valid = now + ttl * 1000 < this.prevExpiry;
    const sufficient = now + (ttl + reuse) * 1000 > this.prevExpiry;
    if (this.prevLeaseId !== 0 && valid && sufficient && this.attached < MAX_OBJECTS) {
      this.attached++;
      return this.prevLeaseId;
    }
    return null;
  }

  /** The TTL to ask etcd for. */
  static grantTtl(ttl: number): number {
    return ttl + LeaseManager.reuseSeconds(ttl);
  }

  /** A grant asked at `startedAt` answered: it becomes the lease to reuse; `waiting` writes take it too. */
  onGranted(id: number, grantedTtl: number, startedAt: number, waiting: number): void {
    this.prevLeaseId = id;
    this.prevExpiry = startedAt + grantedTtl * 1000;
    this.attached = waiting;
    this.granted++;
  }
}

registerClass('LeaseManager', LeaseManager);
