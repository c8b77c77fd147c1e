// Per-key revision history (server/mvcc/key_index.go). A key has generations:
// each runs from a creation to a delete (the tombstone is its last revision);
// the last generation is the live one, empty when the key is deleted.
//
// Example: put(1) put(2) tombstone(3) put(4) tombstone(5) on "foo":
//   generations: {1, 2, 3(t)} {4, 5(t)} {empty}
// compact(n) drops revisions <= n except the largest one of the generation
// alive at n (a tombstone before n goes too, one at n stays); a key whose
// generations all go is removed from the index.
//
// Plain data plus functions, so snapshots are trivial.
import type { KvRecord } from './kvstore';
import { revMain, type Rev } from './revision';

export interface Generation {
  /** Version of the key at the last revision in revs. */
  ver: number;
  /** Revision of the put that created this generation. */
  created: Rev;
  /** Revisions in increasing order. */
  revs: Rev[];
}

export interface KeyIndex {
  key: string;
  /** Revision of the last change. */
  modified: Rev;
  generations: Generation[];
  /**
   * generations' last element (null while there is none), held directly: every
   * put reads it, and going through the array costs two more dependent loads,
   * which miss the cache when hundreds of other keys were written in between.
   */
  last: Generation | null;
  /**
   * The store's record of the last change when that change is a put, else
   * null (kvstore.ts keeps it: its writes and its restore). A shortcut for the
   * reads at the current revision (a txn's compare): the key-value without the
   * generations, the revisions and the search of the key bucket, each a
   * dependent load. Trusted only while its revision is `modified`.
   */
  rec: KvRecord | null;
}

export interface KeyAt {
  modified: Rev;
  created: Rev;
  ver: number;
}

export function newKeyIndex(key: string): KeyIndex {
  return { key, modified: 0, generations: [], last: null, rec: null };
}

function genIsEmpty(g: Generation | undefined): boolean {
  return g === undefined || g.revs.length === 0;
}

export function kiIsEmpty(ki: KeyIndex): boolean {
  return ki.generations.length === 1 && genIsEmpty(ki.generations[0]);
}

export function kiPut(ki: KeyIndex, rev: Rev): void {
  if (rev <= ki.modified) throw new Error(`mvcc: 'put' with an unexpected smaller revision ${rev} <= ${ki.modified}`);
  let g = ki.last;
  if (g === null) ki.generations.push((g = ki.last = { ver: 0, created: 0, revs: [] }));
  if (g.revs.length === 0) g.created = rev;
  g.revs.push(rev);
  g.ver++;
  ki.modified = rev;
}

/** Rebuilds a key from its oldest surviving record (kvstore.go restoreIntoIndex). */
export function kiRestore(ki: KeyIndex, created: Rev, modified: Rev, ver: number): void {
  if (ki.generations.length !== 0) throw new Error("mvcc: 'restore' got an unexpected non-empty generations");
  ki.modified = modified;
  ki.generations.push((ki.last = { created, ver, revs: [modified] }));
}

/** Ends the live generation; false (ErrRevisionNotFound) when the key is already deleted. */
export function kiTombstone(ki: KeyIndex, rev: Rev): boolean {
  if (kiIsEmpty(ki)) throw new Error(`mvcc: 'tombstone' got an unexpected empty keyIndex ${JSON.stringify(ki.key)}`);
  if (genIsEmpty(ki.last ?? undefined)) return false;
  kiPut(ki, rev);
  ki.generations.push((ki.last = { ver: 0, created: 0, revs: [] }));
  return true;
}

/** The generation holding atRev, or null if the key does not exist at atRev. */
function findGeneration(ki: KeyIndex, atRev: number): Generation | null {
  // main(r) <= atRev  <=>  r < bound (revision.ts: the sub is the fraction).
  const bound = atRev + 1;
  const last = ki.generations.length - 1;
  for (let cg = last; cg >= 0; cg--) {
    const g = ki.generations[cg]!;
    const n = g.revs.length;
    if (n === 0) continue;
    if (cg !== last && g.revs[n - 1]! < bound) return null; // tombstoned by then
    if (g.revs[0]! < bound) return g;
  }
  return null;
}

/**
 * The live (last, non-empty) generation, or null when the key is deleted:
 * kiGet at a revision above every one in the index (what a write asks),
 * without the search.
 */
export function kiLive(ki: KeyIndex): Generation | null {
  const g = ki.last;
  return g !== null && g.revs.length !== 0 ? g : null;
}

/** The key's state at main revision atRev, or null if absent then. */
export function kiGet(ki: KeyIndex, atRev: number): KeyAt | null {
  const g = findGeneration(ki, atRev);
  if (!g) {
    if (kiIsEmpty(ki)) throw new Error(`mvcc: 'get' got an unexpected empty keyIndex ${JSON.stringify(ki.key)}`);
    return null;
  }
  // Last revision with main <= atRev (binary search; upstream walks back).
  const bound = atRev + 1;
  const revs = g.revs;
  let lo = 0;
  let hi = revs.length;
  if (revs[hi - 1]! < bound) lo = hi; // the common case: the latest revision
  else {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (revs[mid]! < bound) lo = mid + 1;
      else hi = mid;
    }
  }
  const n = lo - 1;
  if (n < 0) return null;
  return { modified: revs[n]!, created: g.created, ver: g.ver - (revs.length - n - 1) };
}

/** Finds the generation and revision a compaction at atRev keeps; marks it available. */
function doCompact(ki: KeyIndex, atRev: number, available: Set<Rev>): { genIdx: number; revIndex: number; rest: number; rebornAt: number } {
  let genIdx = 0;
  let g = ki.generations[0]!;
  // The first generation that includes atRev or was created after it. A generation
  // whose tombstone is atRev itself is kept (etcd-io/etcd#18274, in v3.5 from
  // v3.5.18 by #19249; Debian's 3.4.23 still drops it): a watch from the
  // compaction revision still gets that delete.
  while (genIdx < ki.generations.length - 1) {
    const tomb = revMain(g.revs[g.revs.length - 1]!);
    if (tomb >= atRev) break;
    genIdx++;
    g = ki.generations[genIdx]!;
  }
  const revIndex = lastAtOrBefore(g, atRev);
  if (revIndex !== -1) available.add(g.revs[revIndex]!);
  const rest = afterCompactedTxn(ki, genIdx, atRev);
  // rest's revision at atRev, when a put in the compacted txn began that generation (see afterCompactedTxn)
  const next = ki.generations[rest];
  const rebornAt = next !== undefined && next.revs.length !== 0 && revMain(next.revs[0]!) === atRev ? lastAtOrBefore(next, atRev) : -1;
  if (rebornAt !== -1) available.add(next!.revs[rebornAt]!);
  return { genIdx, revIndex, rest, rebornAt };
}

/**
 * A txn can delete a key through a range ending in "\0" and put it again
 * (checkIntervals sees no overlap with such a range), even delete it once more.
 * When that txn is the compaction revision, genIdx ends at atRev; after it come
 * generations wholly inside atRev (invisible at every revision: they go), then
 * maybe one the put started that lives on past atRev: reads at atRev see it, so
 * its revision stays too. Upstream's doCompact keeps only the tombstone and
 * loses that value (3.4, keeping no tombstone, keeps it). Returns the index of
 * the first generation to keep after genIdx.
 */
function afterCompactedTxn(ki: KeyIndex, genIdx: number, atRev: number): number {
  const g = ki.generations[genIdx]!;
  const lastGen = ki.generations.length - 1;
  let i = genIdx + 1;
  if (genIdx === lastGen || g.revs.length === 0 || revMain(g.revs[g.revs.length - 1]!) !== atRev) return i;
  while (i < lastGen) {
    const n = ki.generations[i]!;
    if (revMain(n.revs[0]!) !== atRev || revMain(n.revs[n.revs.length - 1]!) !== atRev) break;
    i++;
  }
  return i;
}

/** Index of the last revision with main <= atRev in g, or -1. */
function lastAtOrBefore(g: Generation, atRev: number): number {
  for (let i = g.revs.length - 1; i >= 0; i--) if (revMain(g.revs[i]!) <= atRev) return i;
  return -1;
}

export function kiCompact(ki: KeyIndex, atRev: number, available: Set<Rev>): void {
  if (kiIsEmpty(ki)) throw new Error(`mvcc: 'compact' got an unexpected empty keyIndex ${JSON.stringify(ki.key)}`);
  const { genIdx, revIndex, rest, rebornAt } = doCompact(ki, atRev, available);
  const g = ki.generations[genIdx]!;
  if (!genIsEmpty(g) && revIndex !== -1) g.revs = g.revs.slice(revIndex);
  if (rebornAt > 0) ki.generations[rest]!.revs = ki.generations[rest]!.revs.slice(rebornAt);
  if (rest > genIdx + 1) ki.generations = [g, ...ki.generations.slice(rest)];
  else if (genIdx > 0) ki.generations = ki.generations.slice(genIdx);
}

/**
 * What compact(atRev) would keep, without changing anything (for hashing). Unlike
 * compact, a tombstone at atRev is left out: HashKV stays what older versions give.
 */
export function kiKeep(ki: KeyIndex, atRev: number, available: Set<Rev>): void {
  if (kiIsEmpty(ki)) return;
  const { genIdx, revIndex } = doCompact(ki, atRev, available);
  const g = ki.generations[genIdx]!;
  if (!genIsEmpty(g) && revIndex === g.revs.length - 1 && genIdx !== ki.generations.length - 1) {
    available.delete(g.revs[revIndex]!);
  }
}
