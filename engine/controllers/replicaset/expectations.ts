// Controller expectations, as pkg/controller/controller_utils.go has them
// (ControllerExpectations + UIDTrackingControllerExpectations): after issuing
// creates/deletes a controller waits until its informer has seen them all (or
// ExpectationsTimeout passed) before managing replicas again, so it never acts
// twice on a stale cache.
import { registerClass } from '../../sim/serial';

/** ExpectationsTimeout: 5 minutes. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  timestamp: number;
}

export class UIDTrackingControllerExpectations {
  readonly expectations = new Map<string, Expectation>();
  /** Per controller key, the pod keys ("ns/name") whose deletion is expected. */
  readonly uids = new Map<string, Set<string>>();

  get(key: string): { add: number; del: number } | undefined {
    const e = this.expectations.get(key);
    return e ? { add: e.add, del: e.del } : undefined;
  }

  /** SatisfiedExpectations: fulfilled, expired, or none recorded (a new controller). */
  satisfied(key: string, now: number): boolean {
    const e = this.expectations.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return now - e.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, adds: number, now: number): void {
    this.expectations.set(key, { add: adds, del: 0, timestamp: now });
  }

  /** ExpectDeletions of exactly these pod keys. */
  expectDeletions(key: string, podKeys: readonly string[], now: number): void {
    const set = this.uids.get(key) ?? new Set<string>();
    for (const k of podKeys) set.add(k);
    this.uids.set(key, set);
    this.expectations.set(key, { add: 0, del: podKeys.length, timestamp: now });
  }

  /** SetExpectations: creations to see, and deletions of exactly these pod keys. */
  setExpectations(key: string, adds: number, podKeys: readonly string[], now: number): void {
    const set = this.uids.get(key) ?? new Set<string>();
    for (const k of podKeys) set.add(k);
    this.uids.set(key, set);
    this.expectations.set(key, { add: adds, del: podKeys.length, timestamp: now });
  }

  creationObserved(key: string): void {
    const e = this.expectations.get(key);
    if (e) e.add--;
  }

  /** DeletionObserved: lowers the count only for a pod whose deletion was expected. */
  deletionObserved(key: string, podKey: string): void {
    const set = this.uids.get(key);
    if (!set || !set.delete(podKey)) return;
    const e = this.expectations.get(key);
    if (e) e.del--;
  }

  deleteExpectations(key: string): void {
    this.expectations.delete(key);
    this.uids.delete(key);
  }
}

registerClass('UIDTrackingControllerExpectations', UIDTrackingControllerExpectations);
