// Majority quorum arithmetic (upstream quorum/majority.go). Pure functions over
// a voter list; the tracker supplies acked indexes and votes.
import type { RaftId } from '../types';

export type VoteResult = 'VotePending' | 'VoteLost' | 'VoteWon';

/** Upstream returns MaxUint64 for an empty config; any index is "committed" by nobody. */
export const emptyConfigCommittedIndex = Number.MAX_SAFE_INTEGER;

/**
 * The largest index acked by a majority of voters. Voters without an acked
 * index count as 0. Sorts a small scratch array (n is 1..7 in practice).
 */
export function committedIndex(
  voters: readonly RaftId[],
  acked: ReadonlyMap<RaftId, { match: number }>,
  scratch: number[] = [],
): number {
  const n = voters.length;
  if (n === 0) return emptyConfigCommittedIndex;
  const srt = scratch;
  if (srt.length !== n) srt.length = n; // setting length is a slow runtime call: only when it changes
  for (let i = 0; i < n; i++) srt[i] = acked.get(voters[i]!)?.match ?? 0;
  // insertion sort, ascending
  for (let i = 1; i < n; i++) {
    const v = srt[i]!;
    let j = i - 1;
    while (j >= 0 && srt[j]! > v) {
      srt[j + 1] = srt[j]!;
      j--;
    }
    srt[j + 1] = v;
  }
  // The smallest index that n/2+1 voters have reached.
  return srt[n - (Math.floor(n / 2) + 1)]!;
}

/** Whether the votes (true = granted) win, lose or are still pending for this voter set. */
export function voteResult(voters: readonly RaftId[], votes: ReadonlyMap<RaftId, boolean> | undefined): VoteResult {
  if (voters.length === 0) {
    // By convention, the elections on an empty config win.
    return 'VoteWon';
  }
  let yes = 0;
  let no = 0;
  let missing = 0;
  for (const id of voters) {
    const v = votes?.get(id);
    if (v === undefined) missing++;
    else if (v) yes++;
    else no++;
  }
  void no;
  const q = Math.floor(voters.length / 2) + 1;
  if (yes >= q) return 'VoteWon';
  if (yes + missing >= q) return 'VotePending';
  return 'VoteLost';
}
