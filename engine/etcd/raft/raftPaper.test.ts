// Ports of etcd-io/raft raft_paper_test.go: one test per statement of the Raft
// paper (§5), each checking raft's reaction at the level of raft.step/tick and
// the messages it queues.
import { describe, expect, it } from 'vitest';
import { Raft } from './raft';
import { MemoryStorage } from './storage';
import { Network, msg, newTestRaft, nextEnts, readMessages, storageOf, storageWith, testConfig } from './testkit';
import type { Config, Entry, Message, RaftId, StateType } from './types';


function sorted(ms: Message[]): Message[] {
  return [...ms].sort((a, b) => a.to - b.to || a.type.localeCompare(b.type));
}

function e(term: number, index: number, data = ''): Entry {
  return { term, index, type: 'EntryNormal', data };
}

function prop(data = ''): Message {
  return msg('MsgProp', 1, 1, { entries: [e(0, 0, data)] });
}

function acceptAndReply(m: Message): Message {
  expect(m.type).toBe('MsgApp');
  return msg('MsgAppResp', m.to, m.from, { term: m.term, index: m.index + m.entries.length });
}

/** Commits the new leader's empty entry by simulating its acceptance, and makes everything stable/applied. */
function commitNoopEntry(r: Raft, s: MemoryStorage): void {
  expect(r.state).toBe('StateLeader');
  r.bcastAppend();
  for (const m of readMessages(r)) {
    expect(m.type === 'MsgApp' && m.entries.length === 1 && m.entries[0]!.data === '').toBe(true);
    r.step(acceptAndReply(m));
  }
  readMessages(r); // ignore further messages to refresh followers' commit index
  s.append(r.raftLog.unstableEntries());
  r.raftLog.appliedTo(r.raftLog.committed);
  r.raftLog.stableTo(r.raftLog.lastIndex(), r.raftLog.lastTerm());
}


function ids(n: number): RaftId[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

describe('§5.1 terms: a server updates its term from a larger one and reverts to follower', () => {
  for (const state of ['StateFollower', 'StateCandidate', 'StateLeader'] as StateType[]) {
    it(`from ${state}`, () => {
      const r = newTestRaft(1, 10, 1, storageOf(1, 2, 3));
      if (state === 'StateFollower') r.becomeFollower(1, 2);
      else if (state === 'StateCandidate') r.becomeCandidate();
      else {
        r.becomeCandidate();
        r.becomeLeader();
      }
      r.step(msg('MsgApp', 2, 1, { term: 2 }));
      expect(r.term).toBe(2);
      expect(r.state).toBe('StateFollower');
      expect(r.lead).toBe(2);
    });
  }

  it('rejects (ignores) a request with a stale term', () => {
    const r = newTestRaft(1, 10, 1, storageWith([1, 2, 3], [], { term: 2 }));
    r.takeTrace();
    r.step(msg('MsgApp', 2, 1, { term: 1 }));
    expect(readMessages(r)).toEqual([]);
    expect(r.term).toBe(2);
    expect(r.takeTrace()).toContainEqual({ type: 'drop', reason: 'lowerTerm', msgType: 'MsgApp' });
  });
});

describe('§5.2 leader election', () => {
  it('starts as a follower', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1, 2, 3));
    expect(r.state).toBe('StateFollower');
  });

  it('a leader sends heartbeats every heartbeat timeout', () => {
    const hi = 1;
    const r = newTestRaft(1, 10, hi, storageOf(1, 2, 3));
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < 10; i++) r.appendEntry([e(0, i + 1)]);
    for (let i = 0; i < hi; i++) r.tick();
    const ms = sorted(readMessages(r));
    expect(ms.map((m) => [m.from, m.to, m.term, m.type, m.commit])).toEqual([
      [1, 2, 1, 'MsgHeartbeat', 0],
      [1, 3, 1, 'MsgHeartbeat', 0],
    ]);
  });

  for (const state of ['StateFollower', 'StateCandidate'] as StateType[]) {
    it(`a ${state} that hears nothing for an election timeout starts an election`, () => {
      const et = 10;
      const r = newTestRaft(1, et, 1, storageOf(1, 2, 3));
      if (state === 'StateFollower') r.becomeFollower(1, 2);
      else r.becomeCandidate();
      for (let i = 1; i < 2 * et; i++) r.tick();
      expect(r.term).toBe(2);
      expect(r.state).toBe('StateCandidate');
      expect(r.prs.votes.get(1)).toBe(true);
      const ms = sorted(readMessages(r));
      expect(ms.map((m) => [m.from, m.to, m.term, m.type, m.logTerm, m.index])).toEqual([
        [1, 2, 2, 'MsgVote', 0, 0],
        [1, 3, 2, 'MsgVote', 0, 0],
      ]);
    });
  }

  it('a candidate wins with a majority, loses on a majority of denials, else keeps waiting', () => {
    const cases: { size: number; votes: Record<number, boolean>; state: StateType }[] = [
      // win the election when receiving votes from a majority of the servers
      { size: 1, votes: {}, state: 'StateLeader' },
      { size: 3, votes: { 2: true, 3: true }, state: 'StateLeader' },
      { size: 3, votes: { 2: true }, state: 'StateLeader' },
      { size: 5, votes: { 2: true, 3: true, 4: true, 5: true }, state: 'StateLeader' },
      { size: 5, votes: { 2: true, 3: true, 4: true }, state: 'StateLeader' },
      { size: 5, votes: { 2: true, 3: true }, state: 'StateLeader' },
      // return to follower state if it receives vote denial from a majority
      { size: 3, votes: { 2: false, 3: false }, state: 'StateFollower' },
      { size: 5, votes: { 2: false, 3: false, 4: false, 5: false }, state: 'StateFollower' },
      { size: 5, votes: { 2: true, 3: false, 4: false, 5: false }, state: 'StateFollower' },
      // stay in candidate if it does not obtain the majority
      { size: 3, votes: {}, state: 'StateCandidate' },
      { size: 5, votes: { 2: true }, state: 'StateCandidate' },
      { size: 5, votes: { 2: false, 3: false }, state: 'StateCandidate' },
      { size: 5, votes: {}, state: 'StateCandidate' },
    ];
    for (const tt of cases) {
      const r = newTestRaft(1, 10, 1, storageOf(...ids(tt.size)));
      r.step(msg('MsgHup', 1, 1));
      for (const [id, vote] of Object.entries(tt.votes)) {
        r.step(msg('MsgVoteResp', Number(id), 1, { term: r.term, reject: !vote }));
      }
      expect(r.state, JSON.stringify(tt)).toBe(tt.state);
      expect(r.term).toBe(1);
    }
  });

  it('a follower votes for at most one candidate per term, first come first served', () => {
    const cases = [
      { vote: 0, nvote: 1, wreject: false },
      { vote: 0, nvote: 2, wreject: false },
      { vote: 1, nvote: 1, wreject: false },
      { vote: 2, nvote: 2, wreject: false },
      { vote: 1, nvote: 2, wreject: true },
      { vote: 2, nvote: 1, wreject: true },
    ];
    for (const tt of cases) {
      const r = newTestRaft(1, 10, 1, storageWith([1, 2, 3], [], { term: 1, vote: tt.vote }));
      r.step(msg('MsgVote', tt.nvote, 1, { term: 1 }));
      const ms = readMessages(r);
      expect(ms.map((m) => [m.from, m.to, m.term, m.type, m.reject])).toEqual([[1, tt.nvote, 1, 'MsgVoteResp', tt.wreject]]);
    }
  });

  it('a candidate that hears from a leader with term >= its own becomes its follower', () => {
    for (const term of [1, 2]) {
      const r = newTestRaft(1, 10, 1, storageOf(1, 2, 3));
      r.step(msg('MsgHup', 1, 1));
      expect(r.state).toBe('StateCandidate');
      r.step(msg('MsgApp', 2, 1, { term }));
      expect(r.state).toBe('StateFollower');
      expect(r.term).toBe(term);
    }
  });

  for (const state of ['StateFollower', 'StateCandidate'] as StateType[]) {
    it(`${state} election timeouts are randomized over [et, 2et)`, () => {
      const et = 10;
      const r = newTestRaft(1, et, 1, storageOf(1, 2, 3));
      const timeouts = new Set<number>();
      for (let round = 0; round < 50 * et; round++) {
        if (state === 'StateFollower') r.becomeFollower(r.term + 1, 2);
        else r.becomeCandidate();
        let time = 0;
        while (readMessages(r).length === 0) {
          r.tick();
          time++;
        }
        timeouts.add(time);
      }
      for (let d = et; d < 2 * et; d++) expect(timeouts.has(d), `timeout ${d}`).toBe(true);
      expect([...timeouts].every((t) => t >= et && t < 2 * et)).toBe(true);
    });

    it(`${state}s rarely time out at the same tick (randomization avoids split votes)`, () => {
      const et = 10;
      const size = 5;
      const rs = ids(size).map((id) => newTestRaft(id, et, 1, storageOf(...ids(size))));
      let conflicts = 0;
      for (let round = 0; round < 1000; round++) {
        for (const r of rs) {
          if (state === 'StateFollower') r.becomeFollower(r.term + 1, 0);
          else r.becomeCandidate();
        }
        let timeoutNum = 0;
        while (timeoutNum === 0) {
          for (const r of rs) {
            r.tick();
            if (readMessages(r).length > 0) timeoutNum++;
          }
        }
        if (timeoutNum > 1) conflicts++;
      }
      expect(conflicts / 1000).toBeLessThanOrEqual(0.3);
    });
  }
});

describe('§5.3 log replication', () => {
  it('the leader appends a proposal to its log and issues AppendEntries in parallel', () => {
    const s = storageOf(1, 2, 3);
    const r = newTestRaft(1, 10, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    commitNoopEntry(r, s);
    const li = r.raftLog.lastIndex();
    r.step(prop('some data'));
    expect(r.raftLog.lastIndex()).toBe(li + 1);
    expect(r.raftLog.committed).toBe(li);
    const wents = [e(1, li + 1, 'some data')];
    const ms = sorted(readMessages(r));
    expect(ms.map((m) => [m.from, m.to, m.term, m.type, m.index, m.logTerm, m.commit])).toEqual([
      [1, 2, 1, 'MsgApp', li, 1, li],
      [1, 3, 1, 'MsgApp', li, 1, li],
    ]);
    for (const m of ms) expect(m.entries).toEqual(wents);
    expect(r.raftLog.unstableEntries()).toEqual(wents);
  });

  it('the leader commits an entry once a majority replicated it, and tells followers', () => {
    const s = storageOf(1, 2, 3);
    const r = newTestRaft(1, 10, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    commitNoopEntry(r, s);
    const li = r.raftLog.lastIndex();
    r.step(prop('some data'));
    for (const m of readMessages(r)) r.step(acceptAndReply(m));
    expect(r.raftLog.committed).toBe(li + 1);
    expect(nextEnts(r, s)).toEqual([e(1, li + 1, 'some data')]);
    const ms = sorted(readMessages(r));
    expect(ms.map((m) => [m.to, m.type, m.commit])).toEqual([
      [2, 'MsgApp', li + 1],
      [3, 'MsgApp', li + 1],
    ]);
  });

  it('an entry is committed exactly when a majority acknowledged it', () => {
    const cases: { size: number; acceptors: number[]; wack: boolean }[] = [
      { size: 1, acceptors: [], wack: true },
      { size: 3, acceptors: [], wack: false },
      { size: 3, acceptors: [2], wack: true },
      { size: 3, acceptors: [2, 3], wack: true },
      { size: 5, acceptors: [], wack: false },
      { size: 5, acceptors: [2], wack: false },
      { size: 5, acceptors: [2, 3], wack: true },
      { size: 5, acceptors: [2, 3, 4], wack: true },
      { size: 5, acceptors: [2, 3, 4, 5], wack: true },
    ];
    for (const tt of cases) {
      const s = storageOf(...ids(tt.size));
      const r = newTestRaft(1, 10, 1, s);
      r.becomeCandidate();
      r.becomeLeader();
      commitNoopEntry(r, s);
      const li = r.raftLog.lastIndex();
      r.step(prop('some data'));
      for (const m of readMessages(r)) if (tt.acceptors.includes(m.to)) r.step(acceptAndReply(m));
      expect(r.raftLog.committed > li, JSON.stringify(tt)).toBe(tt.wack);
    }
  });

  it('committing an entry also commits all preceding entries, including earlier terms', () => {
    const cases: Entry[][] = [[], [e(2, 1)], [e(1, 1), e(2, 2)], [e(1, 1)]];
    for (const tt of cases) {
      const s = storageOf(1, 2, 3);
      s.append(tt);
      s.setHardState({ term: 2, vote: 0, commit: 0 });
      const r = newTestRaft(1, 10, 1, s);
      r.becomeCandidate();
      r.becomeLeader();
      r.step(prop('some data'));
      for (const m of readMessages(r)) r.step(acceptAndReply(m));
      const li = tt.length;
      expect(nextEnts(r, s)).toEqual([...tt, e(3, li + 1), e(3, li + 2, 'some data')]);
    }
  });

  it('a follower applies entries up to the leader commit it learns', () => {
    const cases = [
      { ents: [e(1, 1, 'some data')], commit: 1 },
      { ents: [e(1, 1, 'some data'), e(1, 2, 'some data2')], commit: 2 },
      { ents: [e(1, 1, 'some data2'), e(1, 2, 'some data')], commit: 2 },
      { ents: [e(1, 1, 'some data'), e(1, 2, 'some data2')], commit: 1 },
    ];
    for (const tt of cases) {
      const s = storageOf(1, 2, 3);
      const r = newTestRaft(1, 10, 1, s);
      r.becomeFollower(1, 2);
      r.step(msg('MsgApp', 2, 1, { term: 1, entries: tt.ents, commit: tt.commit }));
      expect(r.raftLog.committed).toBe(tt.commit);
      expect(nextEnts(r, s)).toEqual(tt.ents.slice(0, tt.commit));
    }
  });

  it('a follower refuses AppendEntries whose (index, term) it does not have, with a hint', () => {
    const ents = [e(1, 1), e(2, 2)];
    const cases = [
      // match with committed entries
      { term: 0, index: 0, windex: 1, wreject: false, wrejectHint: 0, wlogterm: 0 },
      { term: 1, index: 1, windex: 1, wreject: false, wrejectHint: 0, wlogterm: 0 },
      // match with uncommitted entries
      { term: 2, index: 2, windex: 2, wreject: false, wrejectHint: 0, wlogterm: 0 },
      // unmatch with existing entry
      { term: 1, index: 2, windex: 2, wreject: true, wrejectHint: 1, wlogterm: 1 },
      // unexisting entry
      { term: 3, index: 3, windex: 3, wreject: true, wrejectHint: 2, wlogterm: 2 },
    ];
    for (const tt of cases) {
      const s = storageOf(1, 2, 3);
      s.append(ents);
      s.setHardState({ term: 0, vote: 0, commit: 1 });
      const r = newTestRaft(1, 10, 1, s);
      r.becomeFollower(2, 2);
      r.step(msg('MsgApp', 2, 1, { term: 2, logTerm: tt.term, index: tt.index }));
      const ms = readMessages(r);
      expect(ms.map((m) => [m.from, m.to, m.type, m.term, m.index, m.reject, m.rejectHint, m.logTerm])).toEqual([
        [1, 2, 'MsgAppResp', 2, tt.windex, tt.wreject, tt.wrejectHint, tt.wlogterm],
      ]);
    }
  });

  it('a follower deletes conflicting entries and appends new ones', () => {
    const cases = [
      { index: 2, term: 2, ents: [e(3, 3)], wents: [e(1, 1), e(2, 2), e(3, 3)], wunstable: [e(3, 3)] },
      { index: 1, term: 1, ents: [e(3, 2), e(4, 3)], wents: [e(1, 1), e(3, 2), e(4, 3)], wunstable: [e(3, 2), e(4, 3)] },
      { index: 0, term: 0, ents: [e(1, 1)], wents: [e(1, 1), e(2, 2)], wunstable: [] },
      { index: 0, term: 0, ents: [e(3, 1)], wents: [e(3, 1)], wunstable: [e(3, 1)] },
    ];
    for (const tt of cases) {
      const s = storageOf(1, 2, 3);
      s.append([e(1, 1), e(2, 2)]);
      const r = newTestRaft(1, 10, 1, s);
      r.becomeFollower(2, 2);
      r.step(msg('MsgApp', 2, 1, { term: 2, logTerm: tt.term, index: tt.index, entries: tt.ents }));
      expect(r.raftLog.allEntries()).toEqual(tt.wents);
      expect(r.raftLog.unstableEntries()).toEqual(tt.wunstable);
    }
  });

  it('the leader brings every follower log of Figure 7 into consistency with its own', () => {
    const ents = [e(1, 1), e(1, 2), e(1, 3), e(4, 4), e(4, 5), e(5, 6), e(5, 7), e(6, 8), e(6, 9), e(6, 10)];
    const term = 8;
    const terms = (...ts: number[]) => ts;
    const cases = [
      terms(1, 1, 1, 4, 4, 5, 5, 6, 6),
      terms(1, 1, 1, 4),
      terms(1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 6),
      terms(1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 7, 7),
      terms(1, 1, 1, 4, 4, 4, 4),
      terms(1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3),
    ];
    for (const tt of cases) {
      const leadStorage = storageOf(1, 2, 3);
      leadStorage.append(ents);
      leadStorage.setHardState({ term, vote: 0, commit: ents.length });
      const followerStorage = storageWith([1, 2, 3], tt, { term: term - 1 });
      // A three-node cluster: the follower may have a more up-to-date log
      // than the leader, so the leader needs the vote of the third node.
      const n = new Network([{ storage: leadStorage }, { storage: followerStorage }, 'blackhole']);
      n.campaign(1);
      // The election occurs in the term after the one loaded above.
      n.send(msg('MsgVoteResp', 3, 1, { term: term + 1 }));
      expect(n.node(1).raft.state).toBe('StateLeader');
      n.propose(1, '');
      const lead = n.node(1).raft.raftLog;
      const follower = n.node(2).raft.raftLog;
      expect(follower.allEntries()).toEqual(lead.allEntries());
      expect(follower.committed).toBe(lead.committed);
      expect(lead.committed).toBe(ents.length + 2);
    }
  });
});

describe('§5.4 safety', () => {
  it('a candidate sends RequestVote with its last log index and term', () => {
    const cases = [
      { ents: [e(1, 1)], wterm: 2 },
      { ents: [e(1, 1), e(2, 2)], wterm: 3 },
    ];
    for (const tt of cases) {
      const r = newTestRaft(1, 10, 1, storageOf(1, 2, 3));
      r.step(msg('MsgApp', 2, 1, { term: tt.wterm - 1, logTerm: 0, index: 0, entries: tt.ents }));
      readMessages(r);
      for (let i = 1; i < r.electionTimeout * 2; i++) r.tickElection();
      const ms = sorted(readMessages(r));
      const last = tt.ents[tt.ents.length - 1]!;
      expect(ms.map((m) => [m.type, m.to, m.term, m.index, m.logTerm])).toEqual([
        ['MsgVote', 2, tt.wterm, last.index, last.term],
        ['MsgVote', 3, tt.wterm, last.index, last.term],
      ]);
    }
  });

  it('a voter denies its vote if its own log is more up-to-date than the candidate', () => {
    const cases = [
      // same logterm
      { ents: [e(1, 1)], logterm: 1, index: 1, wreject: false },
      { ents: [e(1, 1)], logterm: 1, index: 2, wreject: false },
      { ents: [e(1, 1), e(1, 2)], logterm: 1, index: 1, wreject: true },
      // candidate higher logterm
      { ents: [e(1, 1)], logterm: 2, index: 1, wreject: false },
      { ents: [e(1, 1)], logterm: 2, index: 2, wreject: false },
      { ents: [e(1, 1), e(1, 2)], logterm: 2, index: 1, wreject: false },
      // voter higher logterm
      { ents: [e(2, 1)], logterm: 1, index: 1, wreject: true },
      { ents: [e(2, 1)], logterm: 1, index: 2, wreject: true },
      { ents: [e(2, 1), e(1, 2)], logterm: 1, index: 1, wreject: true },
    ];
    for (const tt of cases) {
      const s = storageOf(1, 2);
      s.append(tt.ents);
      const r = newTestRaft(1, 10, 1, s);
      r.step(msg('MsgVote', 2, 1, { term: 3, logTerm: tt.logterm, index: tt.index }));
      const ms = readMessages(r);
      expect(ms.length).toBe(1);
      expect(ms[0]!.type).toBe('MsgVoteResp');
      expect(ms[0]!.reject, JSON.stringify(tt)).toBe(tt.wreject);
    }
  });

  it('the leader only commits entries of its current term by counting replicas (Figure 8)', () => {
    const cases = [
      // do not commit log entries in previous terms
      { index: 1, wcommit: 0, unsafeWcommit: 1 },
      { index: 2, wcommit: 0, unsafeWcommit: 2 },
      // commit log in current term
      { index: 3, wcommit: 3, unsafeWcommit: 3 },
    ];
    for (const unsafe of [false, true]) {
      for (const tt of cases) {
        const s = storageWith([1, 2], [1, 2], { term: 2 });
        const r = newTestRaft(1, 10, 1, s, { unsafeCommitPreviousTermEntries: unsafe });
        // become leader at term 3
        r.becomeCandidate();
        r.becomeLeader();
        readMessages(r);
        // propose a entry to current term
        r.step(prop());
        r.step(msg('MsgAppResp', 2, 1, { term: r.term, index: tt.index }));
        expect(r.raftLog.committed, `unsafe=${unsafe} ${JSON.stringify(tt)}`).toBe(unsafe ? tt.unsafeWcommit : tt.wcommit);
      }
    }
  });
});
