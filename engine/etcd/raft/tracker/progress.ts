// The leader's view of one follower (upstream tracker/progress.go, v3.5).
import { registerClass } from '../../../sim/serial';
import type { ProgressStateType } from '../types';
import { assertNever, max, min } from '../util';
import { Inflights } from './inflights';

export class Progress {
  match: number;
  next: number;
  /**
   * StateProbe: at most one MsgApp per heartbeat interval, to find the match.
   * StateReplicate: optimistic pipelining of MsgApps, bounded by inflights.
   * StateSnapshot: a snapshot is in flight; nothing else is sent.
   */
  state: ProgressStateType = 'StateProbe';
  /** Index of the snapshot being sent while in StateSnapshot. */
  pendingSnapshot = 0;
  /** Whether the follower was heard from since the last CheckQuorum. */
  recentActive: boolean;
  /** In StateProbe: a probe was sent and is unanswered, so sending is paused. */
  probeSent = false;
  inflights: Inflights;
  isLearner: boolean;

  constructor(next: number, match: number, maxInflight: number, isLearner: boolean, recentActive: boolean) {
    this.next = next;
    this.match = match;
    this.inflights = new Inflights(maxInflight);
    this.isLearner = isLearner;
    this.recentActive = recentActive;
  }

  resetState(state: ProgressStateType): void {
    this.probeSent = false;
    this.pendingSnapshot = 0;
    this.state = state;
    this.inflights.reset();
  }

  probeAcked(): void {
    this.probeSent = false;
  }

  becomeProbe(): void {
    // If the original state is StateSnapshot, progress knows that the pending
    // snapshot has been sent to this peer successfully, then probes from
    // pendingSnapshot + 1.
    if (this.state === 'StateSnapshot') {
      const pendingSnapshot = this.pendingSnapshot;
      this.resetState('StateProbe');
      this.next = max(this.match + 1, pendingSnapshot + 1);
    } else {
      this.resetState('StateProbe');
      this.next = this.match + 1;
    }
  }

  becomeReplicate(): void {
    this.resetState('StateReplicate');
    this.next = this.match + 1;
  }

  becomeSnapshot(snapshoti: number): void {
    this.resetState('StateSnapshot');
    this.pendingSnapshot = snapshoti;
  }

  /** Called on a successful MsgAppResp for index n; false if the response is stale. */
  maybeUpdate(n: number): boolean {
    let updated = false;
    if (this.match < n) {
      this.match = n;
      updated = true;
      this.probeAcked();
    }
    this.next = max(this.next, n + 1);
    return updated;
  }

  /** In StateReplicate: entries up to n were sent optimistically. */
  optimisticUpdate(n: number): void {
    this.next = n + 1;
  }

  /**
   * Adjusts after a rejected MsgApp for index `rejected`; matchHint is the
   * follower's best guess of the largest possibly matching index. Returns
   * false if the rejection is stale.
   */
  maybeDecrTo(rejected: number, matchHint: number): boolean {
    if (this.state === 'StateReplicate') {
      // The rejection must be stale if the progress has matched and "rejected"
      // is smaller than "match".
      if (rejected <= this.match) return false;
      // Directly decrease next to match + 1.
      this.next = this.match + 1;
      return true;
    }
    // The rejection must be stale if "rejected" does not match next - 1. This
    // is because non-replicating followers are probed one entry at a time.
    if (this.next - 1 !== rejected) return false;
    this.next = max(min(rejected, matchHint + 1), 1);
    this.probeSent = false;
    return true;
  }

  /** Whether sending to this follower is throttled (upstream IsPaused). */
  isPaused(): boolean {
    switch (this.state) {
      case 'StateProbe':
        return this.probeSent;
      case 'StateReplicate':
        return this.inflights.full();
      case 'StateSnapshot':
        return true;
      default:
        return assertNever(this.state);
    }
  }
}

registerClass('RaftProgress', Progress);
