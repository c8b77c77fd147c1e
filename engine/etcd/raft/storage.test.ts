// Ports of upstream storage_test.go (MemoryStorage) plus the unstable log.
import { describe, expect, it } from 'vitest';
import { Unstable } from './logUnstable';
import { MemoryStorage } from './storage';
import type { Entry, Snapshot } from './types';
import { ErrCompacted, ErrSnapOutOfDate, ErrUnavailable } from './types';

function e(term: number, index: number, data = ''): Entry {
  return { term, index, type: 'EntryNormal', data };
}

/** A storage whose dummy entry is (3,3) followed by (4,4), (5,5) — upstream's fixture. */
function fixture(): MemoryStorage {
  const s = new MemoryStorage();
  s.ents = [e(3, 3), e(4, 4), e(5, 5)];
  return s;
}

const cs = { voters: [1, 2, 3], learners: [] };

describe('MemoryStorage', () => {
  it('term', () => {
    const cases = [
      { i: 2, w: ErrCompacted },
      { i: 3, w: 3 },
      { i: 4, w: 4 },
      { i: 5, w: 5 },
      { i: 6, w: ErrUnavailable },
    ];
    for (const tt of cases) expect(fixture().term(tt.i)).toEqual(tt.w);
  });

  it('entries with size limits', () => {
    const s = new MemoryStorage();
    s.ents = [e(3, 3), e(4, 4, 'aa'), e(5, 5, 'bb'), e(6, 6, 'cc')];
    expect(s.entries(2, 6, Infinity)).toEqual(ErrCompacted);
    expect(s.entries(3, 4, Infinity)).toEqual(ErrCompacted);
    expect(s.entries(4, 5, Infinity)).toEqual([e(4, 4, 'aa')]);
    expect(s.entries(4, 6, Infinity)).toEqual([e(4, 4, 'aa'), e(5, 5, 'bb')]);
    expect(s.entries(4, 7, Infinity)).toEqual([e(4, 4, 'aa'), e(5, 5, 'bb'), e(6, 6, 'cc')]);
    // even if maxsize is zero, the first entry should be returned
    expect(s.entries(4, 7, 0)).toEqual([e(4, 4, 'aa')]);
    expect(s.entries(4, 7, 3)).toEqual([e(4, 4, 'aa')]);
    expect(s.entries(4, 7, 4)).toEqual([e(4, 4, 'aa'), e(5, 5, 'bb')]);
    expect(s.entries(4, 7, 6)).toEqual([e(4, 4, 'aa'), e(5, 5, 'bb'), e(6, 6, 'cc')]);
    expect(() => s.entries(4, 8, Infinity)).toThrow(/out of bound/);
    expect(new MemoryStorage().entries(1, 1, Infinity)).toEqual(ErrUnavailable);
  });

  it('first and last index, compaction', () => {
    const s = fixture();
    expect([s.firstIndex(), s.lastIndex()]).toEqual([4, 5]);
    s.append([e(5, 6)]);
    expect(s.lastIndex()).toBe(6);
    s.compact(4);
    expect([s.firstIndex(), s.lastIndex()]).toEqual([5, 6]);
    const cases = [
      { i: 2, err: ErrCompacted, windex: 3, wterm: 3, wlen: 3 },
      { i: 3, err: ErrCompacted, windex: 3, wterm: 3, wlen: 3 },
      { i: 4, err: undefined, windex: 4, wterm: 4, wlen: 2 },
      { i: 5, err: undefined, windex: 5, wterm: 5, wlen: 1 },
    ];
    for (const tt of cases) {
      const st = fixture();
      expect(st.compact(tt.i)).toEqual(tt.err);
      expect([st.ents[0]!.index, st.ents[0]!.term, st.ents.length]).toEqual([tt.windex, tt.wterm, tt.wlen]);
    }
    expect(() => fixture().compact(6)).toThrow(/out of bound/);
  });

  it('createSnapshot', () => {
    const cases = [
      { i: 4, werr: undefined, wsnap: { metadata: { index: 4, term: 4, confState: cs }, data: 'data' } },
      { i: 5, werr: undefined, wsnap: { metadata: { index: 5, term: 5, confState: cs }, data: 'data' } },
    ];
    for (const tt of cases) expect(fixture().createSnapshot(tt.i, cs, 'data')).toEqual(tt.wsnap);
    const s = fixture();
    s.createSnapshot(5, cs, 'x');
    expect(s.createSnapshot(4, cs, 'y')).toEqual(ErrSnapOutOfDate);
    expect(s.createSnapshot(5, cs, 'y')).toEqual(ErrSnapOutOfDate);
  });

  it('append truncates, skips compacted entries, and rejects gaps', () => {
    const cases: { entries: Entry[]; werr?: RegExp; went: Entry[] }[] = [
      { entries: [e(3, 3), e(4, 4), e(5, 5)], went: [e(3, 3), e(4, 4), e(5, 5)] },
      { entries: [e(3, 3), e(4, 4), e(6, 5)], went: [e(3, 3), e(4, 4), e(6, 5)] },
      { entries: [e(3, 3), e(4, 4), e(5, 5), e(5, 6)], went: [e(3, 3), e(4, 4), e(5, 5), e(5, 6)] },
      // truncate incoming entries, truncate the existing entries and append
      { entries: [e(3, 2), e(3, 3), e(5, 4)], went: [e(3, 3), e(5, 4)] },
      // truncate the existing entries and append
      { entries: [e(5, 4)], went: [e(3, 3), e(5, 4)] },
      // direct append
      { entries: [e(5, 6)], went: [e(3, 3), e(4, 4), e(5, 5), e(5, 6)] },
      // missing log entry
      { entries: [e(5, 7)], werr: /missing log entry/, went: [] },
    ];
    for (const tt of cases) {
      const s = fixture();
      if (tt.werr) {
        expect(() => s.append(tt.entries)).toThrow(tt.werr);
        continue;
      }
      s.append(tt.entries);
      expect(s.ents).toEqual(tt.went);
    }
  });

  it('applySnapshot replaces the log; an older snapshot is out of date', () => {
    const snap = (index: number, term: number): Snapshot => ({ metadata: { index, term, confState: cs }, data: 'data' });
    const s = new MemoryStorage();
    expect(s.applySnapshot(snap(4, 4))).toBeUndefined();
    expect([s.firstIndex(), s.lastIndex(), s.term(4)]).toEqual([5, 4, 4]);
    expect(s.applySnapshot(snap(3, 3))).toEqual(ErrSnapOutOfDate);
    expect(s.initialState().confState).toEqual(cs);
  });
});

describe('unstable', () => {
  const snap4: Snapshot = { metadata: { index: 4, term: 1, confState: cs }, data: '' };

  it('maybeFirstIndex / maybeLastIndex / maybeTerm', () => {
    const u = new Unstable(5);
    u.entries = [e(1, 5)];
    expect(u.maybeFirstIndex()).toBeUndefined();
    expect(u.maybeLastIndex()).toBe(5);
    u.snapshot = snap4;
    expect(u.maybeFirstIndex()).toBe(5);
    expect(u.maybeTerm(4)).toBe(1);
    expect(u.maybeTerm(5)).toBe(1);
    expect(u.maybeTerm(6)).toBeUndefined();
    expect(u.maybeTerm(3)).toBeUndefined();
    const empty = new Unstable(0);
    expect(empty.maybeLastIndex()).toBeUndefined();
  });

  it('stableTo drops persisted entries only when the term still matches', () => {
    const cases = [
      { entries: [] as Entry[], offset: 0, index: 5, term: 1, woffset: 0, wlen: 0 },
      { entries: [e(1, 5)], offset: 5, index: 5, term: 1, woffset: 6, wlen: 0 }, // stable to the first entry
      { entries: [e(1, 5), e(1, 6)], offset: 5, index: 5, term: 1, woffset: 6, wlen: 1 },
      { entries: [e(2, 6)], offset: 6, index: 6, term: 1, woffset: 6, wlen: 1 }, // stable to the first entry and term mismatch
      { entries: [e(1, 5)], offset: 5, index: 4, term: 1, woffset: 5, wlen: 1 }, // stable to old entry
      { entries: [e(1, 5)], offset: 5, index: 4, term: 2, woffset: 5, wlen: 1 }, // stable to old entry
    ];
    for (const tt of cases) {
      const u = new Unstable(tt.offset);
      u.entries = tt.entries.slice();
      u.stableTo(tt.index, tt.term);
      expect([u.offset, u.entries.length]).toEqual([tt.woffset, tt.wlen]);
    }
  });

  it('truncateAndAppend', () => {
    const cases = [
      // append to the end
      { entries: [e(1, 5)], offset: 5, toappend: [e(1, 6), e(1, 7)], woffset: 5, wentries: [e(1, 5), e(1, 6), e(1, 7)] },
      // replace the unstable entries
      { entries: [e(1, 5)], offset: 5, toappend: [e(2, 5), e(2, 6)], woffset: 5, wentries: [e(2, 5), e(2, 6)] },
      { entries: [e(1, 5)], offset: 5, toappend: [e(2, 4), e(2, 5), e(2, 6)], woffset: 4, wentries: [e(2, 4), e(2, 5), e(2, 6)] },
      // truncate the existing entries and append
      { entries: [e(1, 5), e(1, 6), e(1, 7)], offset: 5, toappend: [e(2, 6)], woffset: 5, wentries: [e(1, 5), e(2, 6)] },
      { entries: [e(1, 5), e(1, 6), e(1, 7)], offset: 5, toappend: [e(2, 7), e(2, 8)], woffset: 5, wentries: [e(1, 5), e(1, 6), e(2, 7), e(2, 8)] },
    ];
    for (const tt of cases) {
      const u = new Unstable(tt.offset);
      u.entries = tt.entries.slice();
      u.truncateAndAppend(tt.toappend);
      expect(u.offset).toBe(tt.woffset);
      expect(u.entries).toEqual(tt.wentries);
    }
  });

  it('restore and stableSnapTo', () => {
    const u = new Unstable(5);
    u.entries = [e(1, 5)];
    u.restore({ metadata: { index: 6, term: 2, confState: cs }, data: '' });
    expect([u.offset, u.entries.length, u.snapshot?.metadata.index]).toEqual([7, 0, 6]);
    u.stableSnapTo(5);
    expect(u.snapshot).toBeDefined();
    u.stableSnapTo(6);
    expect(u.snapshot).toBeUndefined();
  });
});
