// Leader-only, volatile lease timing (the expiry half of server/lease/lessor.go:
// Lease.expiry, leaseExpiredNotifier, demotec). It is not replicated and not
// part of the KV snapshot: a member that restarts, or becomes leader, starts
// from "forever" and is given fresh expiries by promote(). Times are virtual ms.
import { registerClass } from '../../sim/serial';

/** An indexed min-heap of (time, lease id), one entry per id (LeaseExpiredNotifier). */
export class ExpiryHeap {
  private ids: number[] = [];
  private times: number[] = [];
  private pos = new Map<number, number>();

  get length(): number {
    return this.ids.length;
  }

  peek(): { id: number; time: number } | null {
    return this.ids.length === 0 ? null : { id: this.ids[0]!, time: this.times[0]! };
  }

  /** RegisterOrUpdate. */
  set(id: number, time: number): void {
    const i = this.pos.get(id);
    if (i === undefined) {
      this.ids.push(id);
      this.times.push(time);
      this.pos.set(id, this.ids.length - 1);
      this.up(this.ids.length - 1);
      return;
    }
    const old = this.times[i]!;
    this.times[i] = time;
    if (time < old) this.up(i);
    else this.down(i);
  }

  delete(id: number): void {
    const i = this.pos.get(id);
    if (i === undefined) return;
    const last = this.ids.length - 1;
    this.swap(i, last);
    this.ids.pop();
    this.times.pop();
    this.pos.delete(id);
    if (i < this.ids.length) {
      this.up(i);
      this.down(i);
    }
  }

  clear(): void {
    this.ids = [];
    this.times = [];
    this.pos = new Map();
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a]!;
    const tb = this.times[b]!;
    return ta < tb || (ta === tb && this.ids[a]! < this.ids[b]!);
  }

  private swap(a: number, b: number): void {
    const ia = this.ids[a]!;
    const ib = this.ids[b]!;
    const ta = this.times[a]!;
    this.ids[a] = ib;
    this.times[a] = this.times[b]!;
    this.ids[b] = ia;
    this.times[b] = ta;
    this.pos.set(ib, a);
    this.pos.set(ia, b);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) return;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.ids.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}

export class LeaseExpiry {
  /** isPrimary: this member's lessor manages expiry (it is the Raft leader). */
  primary = false;
  /** Expiry per lease in virtual ms; absent = forever (not primary, or not refreshed). */
  private expiries = new Map<number, number>();
  private notifier = new ExpiryHeap();

  /** Sets the expiry (Lease.refresh) and registers it for expiry checks when primary. */
  refresh(id: number, nowMs: number, extendMs: number, ttlSeconds: number): void {
    const t = nowMs + extendMs + ttlSeconds * 1000;
    this.expiries.set(id, t);
    if (this.primary) this.notifier.set(id, t);
  }

  /** Lease.forever. */
  forever(id: number): void {
    this.expiries.delete(id);
  }

  remove(id: number): void {
    this.expiries.delete(id);
    this.notifier.delete(id);
  }

  expiryOf(id: number): number {
    return this.expiries.get(id) ?? Infinity;
  }

  /** Lease.Remaining in ms; Infinity for forever. */
  remainingMs(id: number, nowMs: number): number {
    const t = this.expiries.get(id);
    return t === undefined ? Infinity : t - nowMs;
  }

  expired(id: number, nowMs: number): boolean {
    return this.remainingMs(id, nowMs) <= 0;
  }

  promote(): void {
    this.primary = true;
  }

  /** Every lease back to forever, nothing scheduled; primary unchanged (Recover). */
  clearTimes(): void {
    this.expiries.clear();
    this.notifier.clear();
  }

  /** Demote: every lease back to forever, nothing scheduled. */
  demote(): void {
    this.primary = false;
    this.expiries.clear();
    this.notifier.clear();
  }

  /**
   * findExpiredLeases: ids whose expiry passed, oldest first, at most `limit`.
   * Each reported lease is re-armed retryMs later, so a revoke that does not
   * commit is retried (expireExists). `exists` filters revoked leases.
   */
  findExpired(nowMs: number, limit: number, retryMs: number, exists: (id: number) => boolean): number[] {
    const out: number[] = [];
    if (!this.primary) return out;
    for (;;) {
      const top = this.notifier.peek();
      if (!top) break;
      if (!exists(top.id)) {
        this.notifier.delete(top.id);
        continue;
      }
      if (nowMs < top.time) break;
      this.notifier.set(top.id, nowMs + retryMs);
      if (this.expired(top.id, nowMs)) {
        out.push(top.id);
        if (out.length === limit) break;
      }
    }
    return out;
  }
}

registerClass('etcd.ExpiryHeap', ExpiryHeap);
registerClass('etcd.LeaseExpiry', LeaseExpiry);
