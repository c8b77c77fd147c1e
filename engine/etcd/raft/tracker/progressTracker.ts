// Tracks the active configuration, the Progress of every member and the votes
// of the current election (upstream tracker/tracker.go, v3.5). Only simple
// (non-joint) configurations exist here: one majority of voters plus learners.
import { registerClass } from '../../../sim/serial';
import { committedIndex, voteResult, type VoteResult } from '../quorum/majority';
import type { ConfState, RaftId } from '../types';
import { Progress } from './progress';

export class ProgressTracker {
  /** Voter ids, sorted ascending. */
  voters: RaftId[] = [];
  /** Learner ids, sorted ascending. */
  learners: RaftId[] = [];
  progress: Map<RaftId, Progress> = new Map();
  /** Ids of progress, sorted ascending: the stable visiting order (upstream Visit sorts). */
  ids: RaftId[] = [];
  votes: Map<RaftId, boolean> = new Map();
  maxInflight: number;
  /** Scratch space for committed() (avoids an allocation per MsgAppResp). */
  scratch: number[] = [];

  constructor(maxInflight: number) {
    this.maxInflight = maxInflight;
  }

  confState(): ConfState {
    return { voters: [...this.voters], learners: [...this.learners] };
  }

  /** Whether there is exactly one voter (upstream IsSingleton). */
  isSingleton(): boolean {
    return this.voters.length === 1;
  }

  isVoter(id: RaftId): boolean {
    return this.voters.includes(id);
  }

  /** Recomputes the sorted id cache after the progress map changed. */
  refreshIds(): void {
    this.ids = [...this.progress.keys()].sort((a, b) => a - b);
  }

  /** The largest log index known to be replicated on a quorum of voters. */
  committed(): number {
    return committedIndex(this.voters, this.progress, this.scratch);
  }

  /**
   * Whether a quorum of voters was recently active. The leader marks itself
   * active before calling this.
   */
  quorumActive(): boolean {
    const votes = new Map<RaftId, boolean>();
    for (const id of this.ids) {
      const pr = this.progress.get(id)!;
      if (pr.isLearner) continue;
      votes.set(id, pr.recentActive);
    }
    return voteResult(this.voters, votes) === 'VoteWon';
  }

  /** Sorted voter ids (for campaign). */
  voterNodes(): RaftId[] {
    return this.voters;
  }

  learnerNodes(): RaftId[] {
    return this.learners;
  }

  resetVotes(): void {
    this.votes = new Map();
  }

  /** Records a vote from id unless it already voted. */
  recordVote(id: RaftId, v: boolean): void {
    if (!this.votes.has(id)) this.votes.set(id, v);
  }

  tallyVotes(): { granted: number; rejected: number; result: VoteResult } {
    let granted = 0;
    let rejected = 0;
    for (const id of this.ids) {
      const pr = this.progress.get(id)!;
      if (pr.isLearner) continue;
      const v = this.votes.get(id);
      if (v === undefined) continue;
      if (v) granted++;
      else rejected++;
    }
    return { granted, rejected, result: voteResult(this.voters, this.votes) };
  }
}

registerClass('RaftProgressTracker', ProgressTracker);
