// Ports of upstream log_test.go (raftLog over MemoryStorage + unstable).
import { describe, expect, it } from 'vitest';
import { RaftLog, noLimit } from './raftLog';
import { MemoryStorage } from './storage';
import type { Entry, RaftTraceEvent } from './types';
import { ErrCompacted } from './types';
import { traceCap } from './util';

function e(term: number, index: number, data = ''): Entry {
  return { term, index, type: 'EntryNormal', data };
}

function newLog(s = new MemoryStorage(), max = noLimit): RaftLog {
  return new RaftLog(s, max, [] as RaftTraceEvent[]);
}

describe('raftLog', () => {
  it('findConflict', () => {
    const previous = [e(1, 1), e(2, 2), e(3, 3)];
    const cases = [
      // no conflict, empty ent
      { ents: [] as Entry[], w: 0 },
      // no conflict
      { ents: [e(1, 1), e(2, 2), e(3, 3)], w: 0 },
      { ents: [e(2, 2), e(3, 3)], w: 0 },
      { ents: [e(3, 3)], w: 0 },
      // no conflict, but has new entries
      { ents: [e(1, 1), e(2, 2), e(3, 3), e(4, 4), e(4, 5)], w: 4 },
      { ents: [e(2, 2), e(3, 3), e(4, 4), e(4, 5)], w: 4 },
      { ents: [e(3, 3), e(4, 4), e(4, 5)], w: 4 },
      { ents: [e(4, 4), e(4, 5)], w: 4 },
      // conflicts with existing entries
      { ents: [e(4, 1), e(4, 2)], w: 1 },
      { ents: [e(1, 2), e(4, 3), e(4, 4)], w: 2 },
      { ents: [e(1, 3), e(2, 4), e(4, 5), e(4, 6)], w: 3 },
    ];
    for (const tt of cases) {
      const l = newLog();
      l.append(previous);
      expect(l.findConflict(tt.ents)).toBe(tt.w);
    }
  });

  it('findConflictByTerm', () => {
    const l = newLog();
    l.append([e(1, 1), e(3, 2), e(3, 3), e(3, 4), e(5, 5), e(5, 6)]);
    expect(l.findConflictByTerm(6, 5)).toBe(6);
    expect(l.findConflictByTerm(6, 4)).toBe(4);
    expect(l.findConflictByTerm(6, 2)).toBe(1);
    expect(l.findConflictByTerm(6, 0)).toBe(0);
    expect(l.findConflictByTerm(9, 2)).toBe(9); // out of range: returned as is
    // stops at a compacted index
    const s = new MemoryStorage();
    s.applySnapshot({ metadata: { index: 3, term: 3, confState: { voters: [1], learners: [] } }, data: '' });
    s.append([e(4, 4), e(5, 5)]);
    const l2 = newLog(s);
    // the dummy index 3 still has a term (3 > 1); below it term() reads 0 (upstream quirk)
    expect(l2.findConflictByTerm(5, 1)).toBe(2);
    expect(l2.findConflictByTerm(5, 3)).toBe(3);
  });

  it('isUpToDate', () => {
    const l = newLog();
    l.append([e(1, 1), e(2, 2), e(3, 3)]);
    const li = l.lastIndex();
    const cases = [
      // greater term, ignore lastIndex
      { idx: li - 1, term: 4, w: true },
      { idx: li, term: 4, w: true },
      { idx: li + 1, term: 4, w: true },
      // smaller term, ignore lastIndex
      { idx: li - 1, term: 2, w: false },
      { idx: li, term: 2, w: false },
      { idx: li + 1, term: 2, w: false },
      // equal term, equal or lager lastIndex wins
      { idx: li - 1, term: 3, w: false },
      { idx: li, term: 3, w: true },
      { idx: li + 1, term: 3, w: true },
    ];
    for (const tt of cases) expect(l.isUpToDate(tt.idx, tt.term)).toBe(tt.w);
  });

  it('maybeAppend: match, truncate, commit; conflicting with committed throws', () => {
    const previous = [e(1, 1), e(2, 2), e(3, 3)];
    const lastindex = 3;
    const lastterm = 3;
    const commit = 1;
    const cases: { logTerm: number; index: number; committed: number; ents: Entry[]; wlasti?: number; wcommit: number; wpanic?: boolean }[] = [
      // not match: term is different
      { logTerm: lastterm - 1, index: lastindex, committed: lastindex, ents: [e(4, lastindex + 1)], wlasti: undefined, wcommit: commit },
      // not match: index out of bound
      { logTerm: lastterm, index: lastindex + 1, committed: lastindex, ents: [e(4, lastindex + 2)], wlasti: undefined, wcommit: commit },
      // match with the last existing entry
      { logTerm: lastterm, index: lastindex, committed: lastindex, ents: [], wlasti: lastindex, wcommit: lastindex },
      { logTerm: lastterm, index: lastindex, committed: lastindex + 1, ents: [], wlasti: lastindex, wcommit: lastindex }, // do not increase commit higher than lastnewi
      { logTerm: lastterm, index: lastindex, committed: lastindex - 1, ents: [], wlasti: lastindex, wcommit: lastindex - 1 }, // commit up to the commit in the message
      { logTerm: lastterm, index: lastindex, committed: 0, ents: [], wlasti: lastindex, wcommit: commit }, // commit do not decrease
      { logTerm: 0, index: 0, committed: lastindex, ents: [], wlasti: 0, wcommit: commit }, // commit do not decrease
      { logTerm: lastterm, index: lastindex, committed: lastindex, ents: [e(4, lastindex + 1)], wlasti: lastindex + 1, wcommit: lastindex },
      { logTerm: lastterm, index: lastindex, committed: lastindex + 1, ents: [e(4, lastindex + 1)], wlasti: lastindex + 1, wcommit: lastindex + 1 },
      { logTerm: lastterm, index: lastindex, committed: lastindex + 2, ents: [e(4, lastindex + 1)], wlasti: lastindex + 1, wcommit: lastindex + 1 }, // do not increase commit higher than lastnewi
      { logTerm: lastterm, index: lastindex, committed: lastindex + 2, ents: [e(4, lastindex + 1), e(4, lastindex + 2)], wlasti: lastindex + 2, wcommit: lastindex + 2 },
      // match with the the entry in the middle
      { logTerm: lastterm - 1, index: lastindex - 1, committed: lastindex, ents: [e(4, lastindex)], wlasti: lastindex, wcommit: lastindex },
      { logTerm: lastterm - 2, index: lastindex - 2, committed: lastindex, ents: [e(4, lastindex - 1)], wlasti: lastindex - 1, wcommit: lastindex - 1 },
      { logTerm: lastterm - 3, index: lastindex - 3, committed: lastindex, ents: [e(4, lastindex - 2)], wlasti: lastindex - 2, wcommit: lastindex - 2, wpanic: true }, // conflict with existing committed entry
      { logTerm: lastterm - 2, index: lastindex - 2, committed: lastindex, ents: [e(4, lastindex - 1), e(4, lastindex)], wlasti: lastindex, wcommit: lastindex },
    ];
    for (const tt of cases) {
      const l = newLog();
      l.append(previous);
      l.committed = commit;
      if (tt.wpanic) {
        expect(() => l.maybeAppend(tt.index, tt.logTerm, tt.committed, tt.ents)).toThrow(/conflict with committed entry/);
        continue;
      }
      const glasti = l.maybeAppend(tt.index, tt.logTerm, tt.committed, tt.ents);
      expect(glasti, JSON.stringify(tt)).toBe(tt.wlasti);
      expect(l.committed, JSON.stringify(tt)).toBe(tt.wcommit);
      if (glasti !== undefined && tt.ents.length !== 0) {
        const got = l.slice(l.lastIndex() - tt.ents.length + 1, l.lastIndex() + 1, noLimit);
        expect(got).toEqual(tt.ents);
      }
    }
  });

  it('append past committed throws; commitTo beyond the last index throws; commit never decreases', () => {
    const l = newLog();
    l.append([e(1, 1), e(2, 2), e(3, 3)]);
    l.commitTo(2);
    expect(() => l.append([e(4, 2)])).toThrow(/out of range/);
    expect(() => l.commitTo(4)).toThrow(/out of range/);
    l.commitTo(1);
    expect(l.committed).toBe(2);
    expect(l.trace).toEqual([{ type: 'commit', index: 2, term: 2 }]);
    expect(() => l.appliedTo(3)).toThrow(/out of range/);
  });

  it('nextEnts / hasNextEnts start after applied (and after a snapshot)', () => {
    const s = new MemoryStorage();
    s.applySnapshot({ metadata: { index: 3, term: 1, confState: { voters: [1], learners: [] } }, data: '' });
    const ents = [e(1, 4), e(1, 5), e(1, 6)];
    const cases = [
      { applied: 0, hasNext: true, wents: ents.slice(0, 2) },
      { applied: 3, hasNext: true, wents: ents.slice(0, 2) },
      { applied: 4, hasNext: true, wents: ents.slice(1, 2) },
      { applied: 5, hasNext: false, wents: [] },
    ];
    for (const tt of cases) {
      const l = newLog(s);
      l.append(ents);
      l.maybeCommit(5, 1);
      l.appliedTo(tt.applied);
      expect(l.hasNextEnts()).toBe(tt.hasNext);
      expect(l.nextEnts()).toEqual(tt.wents);
    }
  });

  it('term and slice across storage, unstable and compaction', () => {
    const offset = 100;
    const num = 100;
    const last = offset + num;
    const half = offset + num / 2;
    const s = new MemoryStorage();
    s.applySnapshot({ metadata: { index: offset, term: 0, confState: { voters: [1], learners: [] } }, data: '' });
    for (let i = 1; i < num / 2; i++) s.append([e(offset + i, offset + i, 'ab')]);
    const l = newLog(s);
    for (let i = num / 2; i < num; i++) l.append([e(offset + i, offset + i, 'ab')]);
    expect(l.term(offset - 1)).toBe(0);
    expect(l.term(offset)).toBe(0);
    expect(l.term(half)).toBe(half);
    expect(l.term(last - 1)).toBe(last - 1);
    expect(l.term(last)).toBe(0);
    expect(l.slice(offset - 1, offset + 1, noLimit)).toEqual(ErrCompacted);
    expect(l.slice(offset, offset + 1, noLimit)).toEqual(ErrCompacted);
    expect((l.slice(half - 1, half + 1, noLimit) as Entry[]).map((x) => x.index)).toEqual([half - 1, half]);
    expect((l.slice(half, half + 1, noLimit) as Entry[]).map((x) => x.index)).toEqual([half]);
    expect((l.slice(last - 1, last, noLimit) as Entry[]).map((x) => x.index)).toEqual([last - 1]);
    expect(() => l.slice(last, last + 1, noLimit)).toThrow(/out of bound/);
    // size limits: the first entry always, then as many as fit
    expect((l.slice(half - 1, half + 1, 0) as Entry[]).length).toBe(1);
    expect((l.slice(half - 1, half + 1, 3) as Entry[]).length).toBe(1);
    expect((l.slice(half - 2, half + 1, 4) as Entry[]).length).toBe(2); // all from storage
    expect((l.slice(half - 1, half + 2, 4) as Entry[]).length).toBe(2); // across the boundary
    expect((l.slice(half - 1, half + 2, 6) as Entry[]).length).toBe(3);
  });

  it('an undrained trace stays bounded', () => {
    const l = newLog();
    for (let i = 1; i <= 20000; i++) {
      l.append([e(1, i)]);
      l.commitTo(i);
    }
    expect(l.trace.length).toBeLessThanOrEqual(traceCap);
    expect(l.trace[l.trace.length - 1]).toEqual({ type: 'commit', index: 20000, term: 1 });
  });

  it('restore from a snapshot resets committed and the unstable offset', () => {
    const l = newLog();
    l.append([e(1, 1)]);
    l.restore({ metadata: { index: 10, term: 4, confState: { voters: [1], learners: [] } }, data: '' });
    expect([l.committed, l.firstIndex(), l.lastIndex(), l.term(10), l.hasPendingSnapshot()]).toEqual([10, 11, 10, 4, true]);
    expect(l.trace).toEqual([{ type: 'commit', index: 10, term: 4 }]);
  });
});
