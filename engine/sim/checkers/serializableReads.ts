// Serializable reads are answered from one member's local store without a
// quorum round, so they may be stale but never invented: each must show the
// key as it was at some committed revision, and one client's reads from one
// member must not go back in time. Reads at an explicit past revision are
// checked exactly. Compare etcd's tests/robustness/validate/operations.go
// (validateSerializableOperations), which replays the history to the read's
// revision.
import type { KeyValue, RevisionEvents } from './etcdTypes';
import { describeKv, KeyTimeline, kvEquals } from './etcdTypes';

export interface SerializableRead {
  clientId: number;
  /** The member that served the read. */
  member: string | number;
  key: string;
  call: number;
  return: number;
  /** Header of the reply: the member's store revision when it answered. */
  header?: { revision: number };
  /** Absent when the key did not exist. */
  kv?: KeyValue;
  /** Cluster commit revision at `return`, if the harness recorded it (else derived from history.committedAt). */
  committedRevision?: number;
}

export type SerializableViolationType = 'neverCommitted' | 'aheadOfCommit' | 'headerMismatch' | 'wentBackwards';

export interface SerializableViolation {
  type: SerializableViolationType;
  /** Index into the `reads` argument. */
  read: number;
  message: string;
}

export interface ReadCheckResult<V> {
  ok: boolean;
  violations: V[];
}

export interface ReadCheckOptions {
  /** Keys present before the first revision of `history`. */
  initial?: KeyValue[];
}

/** Revisions at which the key looked like `kv` (or was absent when kv is undefined), as inclusive ranges. */
function matchingRanges(timeline: KeyTimeline, key: string, kv: KeyValue | undefined): [number, number][] {
  const segs = timeline.segments(key);
  const ranges: [number, number][] = [];
  const first = segs[0];
  if (!kv && (!first || first.from > 0)) ranges.push([0, first ? first.from - 1 : Infinity]);
  segs.forEach((seg, i) => {
    const end = i + 1 < segs.length ? (segs[i + 1] as { from: number }).from - 1 : Infinity;
    const match = kv ? seg.kv !== null && kvEquals(seg.kv, kv) : seg.kv === null;
    if (match) ranges.push([seg.from, end]);
  });
  return ranges;
}

export function checkSerializableReads(
  history: readonly RevisionEvents[],
  reads: readonly SerializableRead[],
  opts: ReadCheckOptions = {},
): ReadCheckResult<SerializableViolation> {
  const timeline = new KeyTimeline(history, opts.initial);
  const violations: SerializableViolation[] = [];

  // Commit revision as a function of time: a running maximum over committedAt.
  const commits = history
    .filter((r) => r.committedAt !== undefined)
    .map((r) => [r.committedAt as number, r.revision] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const commitTimes: number[] = [];
  const commitRevs: number[] = [];
  for (const [t, rev] of commits) {
    commitTimes.push(t);
    commitRevs.push(Math.max(rev, commitRevs[commitRevs.length - 1] ?? 0));
  }
  const committedAt = (read: SerializableRead): number => {
    if (read.committedRevision !== undefined) return read.committedRevision;
    if (commits.length === 0) return timeline.lastRevision;
    let lo = 0;
    let hi = commitTimes.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((commitTimes[mid] as number) <= read.return) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? 0 : (commitRevs[found] as number);
  };

  // Per read: the revisions it could have observed, within the commit bound.
  const windows: ([number, number][] | null)[] = reads.map((read, i) => {
    const bound = committedAt(read);
    if (read.header) {
      const h = read.header.revision;
      if (h > bound) {
        violations.push({
          type: 'aheadOfCommit',
          read: i,
          message: `read ${i} of ${read.key} from member ${read.member} reports revision ${h}, but only ${bound} was committed when it returned`,
        });
        return null;
      }
      const truth = timeline.at(read.key, h) ?? undefined;
      const ok = truth && read.kv ? kvEquals(truth, read.kv) : truth === read.kv;
      if (!ok) {
        violations.push({
          type: 'headerMismatch',
          read: i,
          message: `read ${i} of ${read.key} from member ${read.member} at revision ${h} returned ${describeKv(read.kv)}, but the key was ${describeKv(truth)} at that revision`,
        });
        return null;
      }
      return [[h, h]];
    }
    const ranges = matchingRanges(timeline, read.key, read.kv)
      .filter(([lo]) => lo <= bound)
      .map(([lo, hi]): [number, number] => [lo, Math.min(hi, bound)]);
    if (ranges.length === 0) {
      violations.push({
        type: 'neverCommitted',
        read: i,
        message: `read ${i} of ${read.key} from member ${read.member} returned ${describeKv(read.kv)}, which the key never was at any revision <= ${bound} (committed when it returned)`,
      });
      return null;
    }
    return ranges;
  });

  // Monotonic per (client, member): greedily take the earliest revision each read allows.
  const streams = new Map<string, number[]>();
  reads.forEach((read, i) => {
    const id = `${read.clientId}\u0000${String(read.member)}`;
    const list = streams.get(id) ?? [];
    if (list.length === 0) streams.set(id, list);
    list.push(i);
  });
  for (const list of streams.values()) {
    list.sort((a, b) => (reads[a] as SerializableRead).call - (reads[b] as SerializableRead).call || a - b);
    let cur = 0;
    let curRead = -1;
    for (const i of list) {
      const ranges = windows[i];
      if (!ranges) continue;
      const fit = ranges.find(([, hi]) => hi >= cur);
      if (!fit) {
        const read = reads[i] as SerializableRead;
        const latest = Math.max(...ranges.map(([, hi]) => hi));
        violations.push({
          type: 'wentBackwards',
          read: i,
          message: `read ${i} of ${read.key} by client ${read.clientId} from member ${read.member} shows revision <= ${latest}, after read ${curRead} showed revision >= ${cur}`,
        });
        continue;
      }
      cur = Math.max(cur, fit[0]);
      curRead = i;
    }
  }

  violations.sort((a, b) => a.read - b.read);
  return { ok: violations.length === 0, violations };
}

export interface ReadAtRevision {
  key: string;
  revision: number;
  /** Absent when the key did not exist at that revision. */
  kv?: KeyValue;
}

export interface ReadAtRevisionViolation {
  read: number;
  message: string;
}

/** Reads at an explicit revision must return exactly the key's state at that revision. */
export function checkReadsAtRevision(
  history: readonly RevisionEvents[],
  reads: readonly ReadAtRevision[],
  opts: ReadCheckOptions = {},
): ReadCheckResult<ReadAtRevisionViolation> {
  const timeline = new KeyTimeline(history, opts.initial);
  const violations: ReadAtRevisionViolation[] = [];
  reads.forEach((read, i) => {
    if (read.revision > timeline.lastRevision) {
      violations.push({ read: i, message: `read ${i} of ${read.key} at revision ${read.revision}, beyond the history (last ${timeline.lastRevision})` });
      return;
    }
    const truth = timeline.at(read.key, read.revision) ?? undefined;
    const ok = truth && read.kv ? kvEquals(truth, read.kv) : truth === read.kv;
    if (!ok) {
      violations.push({
        read: i,
        message: `read ${i} of ${read.key} at revision ${read.revision} returned ${describeKv(read.kv)}, expected ${describeKv(truth)}`,
      });
    }
  });
  return { ok: violations.length === 0, violations };
}
