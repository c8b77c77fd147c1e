// Ports of the key scenarios of etcd-io/raft raft_test.go (v3.5): elections
// (PreVote, CheckQuorum, partitions), replication and commit rules (incl. the
// Figure 8 case with the unsafe switch), conflict repair, snapshots, leader
// transfer, ReadIndex and membership changes.
import { describe, expect, it } from 'vitest';
import { encodeConfChange } from './confChange';
import { Raft } from './raft';
import { noLimit } from './raftLog';
import { MemoryStorage } from './storage';
import { Network, msg, newTestRaft, nextEnts, readMessages, storageOf, storageWith, testConfig, type PeerSpec } from './testkit';
import type { Config, Entry, Message, RaftId, StateType } from './types';
import { ErrProposalDropped } from './types';


function e(term: number, index: number, data = '', type: Entry['type'] = 'EntryNormal'): Entry {
  return { term, index, type, data };
}


/** A peer whose log has the given terms at indexes 1.. and whose term is the last of them (upstream entsWithConfig). */
function withLog(ids: RaftId[], ...terms: number[]): PeerSpec {
  return { storage: storageWith(ids, terms, { term: terms[terms.length - 1] ?? 0 }) };
}

/** A peer that voted for `vote` in `term` but has no log (upstream votedWithConfig). */
function voted(ids: RaftId[], vote: RaftId, term: number): PeerSpec {
  return { storage: storageWith(ids, [], { term, vote }) };
}

function logSummary(r: Raft): { committed: number; entries: [number, number, string][] } {
  return { committed: r.raftLog.committed, entries: r.raftLog.allEntries().map((x) => [x.index, x.term, x.data]) };
}

function checkLeaderTransferState(r: Raft, state: StateType, lead: RaftId): void {
  expect(r.state).toBe(state);
  expect(r.lead).toBe(lead);
  expect(r.leadTransferee).toBe(0);
}

const ids3 = [1, 2, 3];
const ids5 = [1, 2, 3, 4, 5];

describe('leader election', () => {
  for (const preVote of [false, true]) {
    it(`elects a leader only with a majority (preVote=${preVote})`, () => {
      const candState: StateType = preVote ? 'StatePreCandidate' : 'StateCandidate';
      const candTerm = preVote ? 0 : 1;
      const cases: { specs: PeerSpec[]; state: StateType; term: number }[] = [
        { specs: [null, null, null], state: 'StateLeader', term: 1 },
        { specs: [null, null, 'blackhole'], state: 'StateLeader', term: 1 },
        { specs: [null, 'blackhole', 'blackhole'], state: candState, term: candTerm },
        { specs: [null, 'blackhole', 'blackhole', null], state: candState, term: candTerm },
        { specs: [null, 'blackhole', 'blackhole', null, null], state: 'StateLeader', term: 1 },
        // three logs further along than 0, but in the same term so rejections
        // are returned instead of the votes being ignored.
        { specs: [null, withLog(ids5, 1), withLog(ids5, 1), withLog(ids5, 1, 1), null], state: 'StateFollower', term: 1 },
      ];
      for (const [i, tt] of cases.entries()) {
        const n = new Network(tt.specs, { preVote });
        n.campaign(1);
        const r = n.node(1).raft;
        expect(r.state, `#${i}`).toBe(tt.state);
        expect(r.term, `#${i}`).toBe(tt.term);
      }
    });

    it(`every node can take its turn as leader (preVote=${preVote})`, () => {
      const n = new Network([null, null, null], { preVote });
      for (const campaigner of ids3) {
        n.campaign(campaigner);
        for (const id of ids3) {
          const r = n.node(id).raft;
          expect(r.state).toBe(id === campaigner ? 'StateLeader' : 'StateFollower');
          expect(r.lead).toBe(campaigner);
        }
      }
    });

    it(`a newer but uncommitted log entry can be overwritten by the election winner (preVote=${preVote})`, () => {
      // Node 1 won term 1 and replicated an entry to node 2 only; node 3 won
      // term 2 and wrote an entry nobody got; nodes 4 and 5 voted for 3.
      const n = new Network([withLog(ids5, 1), withLog(ids5, 1), withLog(ids5, 2), voted(ids5, 3, 2), voted(ids5, 3, 2)], {
        preVote,
      });
      // Node 1 campaigns. The election fails because a quorum knows about
      // term 2; node 1's term is pushed ahead to 2.
      n.campaign(1);
      const sm1 = n.node(1).raft;
      expect(sm1.state).toBe('StateFollower');
      expect(sm1.term).toBe(2);
      // Node 1 campaigns again with a higher term. This time it succeeds.
      n.campaign(1);
      expect(sm1.state).toBe('StateLeader');
      expect(sm1.term).toBe(3);
      // Now all nodes agree on a log entry with term 1 at index 1 (and term 3 at index 2).
      for (const id of ids5) {
        expect(n.node(id).raft.raftLog.allEntries().map((x) => x.term)).toEqual([1, 3]);
      }
    });
  }

  it('dueling candidates: the one with the shorter log cannot win, and the term moves on', () => {
    const n = new Network([null, null, null]);
    n.cut(1, 3);
    n.campaign(1);
    n.campaign(3);
    // 1 becomes leader since it receives votes from 1 and 2
    expect(n.node(1).raft.state).toBe('StateLeader');
    // 3 stays as candidate since it receives a vote from 3 and a rejection from 2
    expect(n.node(3).raft.state).toBe('StateCandidate');
    n.recover();
    // 3 disrupts leader 1 with its higher term but cannot win with its shorter log.
    n.campaign(3);
    const want = { committed: 1, entries: [[1, 1, '']] };
    expect(n.node(1).raft.state).toBe('StateFollower');
    expect(n.node(1).raft.term).toBe(2);
    expect(logSummary(n.node(1).raft)).toEqual(want);
    expect(n.node(2).raft.state).toBe('StateFollower');
    expect(n.node(2).raft.term).toBe(2);
    expect(logSummary(n.node(2).raft)).toEqual(want);
    expect(n.node(3).raft.state).toBe('StateFollower');
    expect(n.node(3).raft.term).toBe(2);
    expect(logSummary(n.node(3).raft)).toEqual({ committed: 0, entries: [] });
  });

  it('dueling pre-candidates: with PreVote the stale node does not disrupt the leader', () => {
    const n = new Network([null, null, null], { preVote: true });
    n.cut(1, 3);
    n.campaign(1);
    n.campaign(3);
    expect(n.node(1).raft.state).toBe('StateLeader');
    // 3 campaigns then reverts to follower when its PreVote is rejected
    expect(n.node(3).raft.state).toBe('StateFollower');
    n.recover();
    n.campaign(3);
    const want = { committed: 1, entries: [[1, 1, '']] };
    expect([n.node(1).raft.state, n.node(1).raft.term]).toEqual(['StateLeader', 1]);
    expect(logSummary(n.node(1).raft)).toEqual(want);
    expect([n.node(2).raft.state, n.node(2).raft.term]).toEqual(['StateFollower', 1]);
    expect(logSummary(n.node(2).raft)).toEqual(want);
    expect([n.node(3).raft.state, n.node(3).raft.term]).toEqual(['StateFollower', 1]);
    expect(logSummary(n.node(3).raft)).toEqual({ committed: 0, entries: [] });
  });

  it('a candidate concedes to a leader of the same term', () => {
    const n = new Network([null, null, null]);
    n.isolate(1);
    n.campaign(1);
    n.campaign(3);
    n.recover();
    n.send(msg('MsgBeat', 3, 3));
    n.propose(3, 'force follower');
    n.send(msg('MsgBeat', 3, 3));
    const a = n.node(1).raft;
    expect(a.state).toBe('StateFollower');
    expect(a.term).toBe(1);
    for (const id of ids3) {
      expect(logSummary(n.node(id).raft)).toEqual({ committed: 2, entries: [[1, 1, ''], [2, 1, 'force follower']] });
    }
  });

  it('learners never start an election', () => {
    const s = storageWith([1], [], undefined, [2]);
    const r = newTestRaft(2, 10, 1, s);
    r.becomeFollower(1, 0);
    for (let i = 0; i < 3 * r.electionTimeout; i++) r.tick();
    expect(r.state).toBe('StateFollower');
    expect(readMessages(r)).toEqual([]);
  });

  it('a promoted learner can campaign and win', () => {
    const n = new Network([{ storage: storageWith([1], [], undefined, [2]) }, { storage: storageWith([1], [], undefined, [2]) }]);
    n.campaign(1);
    n.propose(1, 'x');
    expect(n.peer(2).applied).toEqual(['x']);
    n.node(1).proposeConfChange({ type: 'ConfChangeAddNode', nodeId: 2 });
    n.send(...n.drain(1));
    expect(n.node(1).raft.prs.voters).toEqual([1, 2]);
    expect(n.node(2).raft.isLearner).toBe(false);
    n.campaign(2);
    expect(n.node(2).raft.state).toBe('StateLeader');
  });

  it('all servers step down on a higher-term vote or append', () => {
    const cases: { state: StateType; wstate: StateType; wterm: number; windex: number }[] = [
      { state: 'StateFollower', wstate: 'StateFollower', wterm: 3, windex: 0 },
      { state: 'StatePreCandidate', wstate: 'StateFollower', wterm: 3, windex: 0 },
      { state: 'StateCandidate', wstate: 'StateFollower', wterm: 3, windex: 0 },
      { state: 'StateLeader', wstate: 'StateFollower', wterm: 3, windex: 1 },
    ];
    for (const tt of cases) {
      const r = newTestRaft(1, 10, 1, storageOf(1, 2, 3));
      if (tt.state === 'StateFollower') r.becomeFollower(1, 0);
      else if (tt.state === 'StatePreCandidate') r.becomePreCandidate();
      else if (tt.state === 'StateCandidate') r.becomeCandidate();
      else {
        r.becomeCandidate();
        r.becomeLeader();
      }
      for (const t of ['MsgVote', 'MsgApp'] as const) {
        r.step(msg(t, 2, 1, { term: 3, logTerm: 3 }));
        expect(r.state).toBe(tt.wstate);
        expect(r.term).toBe(tt.wterm);
        expect(r.raftLog.lastIndex()).toBe(tt.windex);
        expect(r.lead).toBe(t === 'MsgVote' ? 0 : 2);
      }
    }
  });

  it('state transitions: illegal ones throw, legal ones set term and leader', () => {
    const cases: { from: StateType; to: StateType; wallow: boolean; wterm: number; wlead: RaftId }[] = [
      { from: 'StateFollower', to: 'StateFollower', wallow: true, wterm: 1, wlead: 0 },
      { from: 'StateFollower', to: 'StatePreCandidate', wallow: true, wterm: 0, wlead: 0 },
      { from: 'StateFollower', to: 'StateCandidate', wallow: true, wterm: 1, wlead: 0 },
      { from: 'StateFollower', to: 'StateLeader', wallow: false, wterm: 0, wlead: 0 },
      { from: 'StatePreCandidate', to: 'StateFollower', wallow: true, wterm: 0, wlead: 0 },
      { from: 'StatePreCandidate', to: 'StatePreCandidate', wallow: true, wterm: 0, wlead: 0 },
      { from: 'StatePreCandidate', to: 'StateCandidate', wallow: true, wterm: 1, wlead: 0 },
      { from: 'StatePreCandidate', to: 'StateLeader', wallow: true, wterm: 0, wlead: 1 },
      { from: 'StateCandidate', to: 'StateFollower', wallow: true, wterm: 0, wlead: 0 },
      { from: 'StateCandidate', to: 'StatePreCandidate', wallow: true, wterm: 0, wlead: 0 },
      { from: 'StateCandidate', to: 'StateCandidate', wallow: true, wterm: 1, wlead: 0 },
      { from: 'StateCandidate', to: 'StateLeader', wallow: true, wterm: 0, wlead: 1 },
      { from: 'StateLeader', to: 'StateFollower', wallow: true, wterm: 1, wlead: 0 },
      { from: 'StateLeader', to: 'StatePreCandidate', wallow: false, wterm: 0, wlead: 0 },
      { from: 'StateLeader', to: 'StateCandidate', wallow: false, wterm: 1, wlead: 0 },
      { from: 'StateLeader', to: 'StateLeader', wallow: true, wterm: 0, wlead: 1 },
    ];
    for (const tt of cases) {
      const r = newTestRaft(1, 10, 1, storageOf(1));
      r.state = tt.from;
      const go = () => {
        if (tt.to === 'StateFollower') r.becomeFollower(tt.wterm, tt.wlead);
        else if (tt.to === 'StatePreCandidate') r.becomePreCandidate();
        else if (tt.to === 'StateCandidate') r.becomeCandidate();
        else r.becomeLeader();
      };
      if (!tt.wallow) {
        expect(go, JSON.stringify(tt)).toThrow(/invalid transition/);
        continue;
      }
      go();
      expect(r.term, JSON.stringify(tt)).toBe(tt.wterm);
      expect(r.lead, JSON.stringify(tt)).toBe(tt.wlead);
    }
  });

  for (const t of ['MsgVote', 'MsgPreVote'] as const) {
    it(`${t}: grants exactly per the vote and up-to-date rules`, () => {
      const cases: { state: StateType; index: number; logTerm: number; voteFor: RaftId; wreject: boolean }[] = [
        { state: 'StateFollower', index: 0, logTerm: 0, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 0, logTerm: 1, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 0, logTerm: 2, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 0, logTerm: 3, voteFor: 0, wreject: false },
        { state: 'StateFollower', index: 1, logTerm: 0, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 1, logTerm: 1, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 1, logTerm: 2, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 1, logTerm: 3, voteFor: 0, wreject: false },
        { state: 'StateFollower', index: 2, logTerm: 0, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 2, logTerm: 1, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 2, logTerm: 2, voteFor: 0, wreject: false },
        { state: 'StateFollower', index: 2, logTerm: 3, voteFor: 0, wreject: false },
        { state: 'StateFollower', index: 3, logTerm: 0, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 3, logTerm: 1, voteFor: 0, wreject: true },
        { state: 'StateFollower', index: 3, logTerm: 2, voteFor: 0, wreject: false },
        { state: 'StateFollower', index: 3, logTerm: 3, voteFor: 0, wreject: false },
        { state: 'StateFollower', index: 3, logTerm: 2, voteFor: 2, wreject: false },
        { state: 'StateFollower', index: 3, logTerm: 2, voteFor: 1, wreject: true },
        { state: 'StateLeader', index: 3, logTerm: 3, voteFor: 1, wreject: true },
        { state: 'StatePreCandidate', index: 3, logTerm: 3, voteFor: 1, wreject: true },
        { state: 'StateCandidate', index: 3, logTerm: 3, voteFor: 1, wreject: true },
      ];
      for (const tt of cases) {
        const s = storageWith([1], [2, 2]);
        const r = newTestRaft(1, 10, 1, s);
        r.state = tt.state;
        r.vote = tt.voteFor;
        // Same term on both sides: only the log comparison and the vote matter.
        const term = Math.max(r.raftLog.lastTerm(), tt.logTerm);
        r.term = term;
        r.step(msg(t, 2, 1, { term, index: tt.index, logTerm: tt.logTerm }));
        const ms = readMessages(r);
        expect(ms.length).toBe(1);
        expect(ms[0]!.type).toBe(t === 'MsgVote' ? 'MsgVoteResp' : 'MsgPreVoteResp');
        expect(ms[0]!.reject, JSON.stringify(tt)).toBe(tt.wreject);
      }
    });
  }

  it('a node with a smaller term can complete an election (PreVote)', () => {
    const n = new Network([null, null, null], { preVote: true });
    n.cut(1, 3);
    n.cut(2, 3);
    n.campaign(1);
    expect(n.node(1).raft.state).toBe('StateLeader');
    expect(n.node(2).raft.state).toBe('StateFollower');
    n.campaign(3);
    expect(n.node(3).raft.state).toBe('StatePreCandidate');
    n.campaign(2);
    expect([n.node(1).raft.term, n.node(2).raft.term, n.node(3).raft.term]).toEqual([2, 2, 0]);
    expect([n.node(1).raft.state, n.node(2).raft.state, n.node(3).raft.state]).toEqual([
      'StateFollower',
      'StateLeader',
      'StatePreCandidate',
    ]);
    // bring back 3 and crash 2 (the leader)
    n.recover();
    n.cut(2, 1);
    n.cut(2, 3);
    n.campaign(3);
    n.campaign(1);
    expect(n.node(1).raft.state === 'StateLeader' || n.node(3).raft.state === 'StateLeader').toBe(true);
  });

  it('a removed/non-member node cannot be elected by TimeoutNow or stray votes', () => {
    const r = newTestRaft(1, 5, 1, storageOf(2, 3, 4));
    r.step(msg('MsgTimeoutNow', 2, 1));
    r.step(msg('MsgVoteResp', 2, 1));
    r.step(msg('MsgVoteResp', 3, 1));
    expect(r.state).toBe('StateFollower');
  });
});

describe('CheckQuorum and the leader lease', () => {
  it('a leader with an active quorum stays leader', () => {
    const r = newTestRaft(1, 5, 1, storageOf(1, 2, 3), { checkQuorum: true });
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < r.electionTimeout + 1; i++) {
      r.step(msg('MsgHeartbeatResp', 2, 1, { term: r.term }));
      r.tick();
    }
    expect(r.state).toBe('StateLeader');
  });

  it('a leader that lost its quorum steps down after an election timeout', () => {
    const r = newTestRaft(1, 5, 1, storageOf(1, 2, 3), { checkQuorum: true });
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < r.electionTimeout + 1; i++) r.tick();
    expect(r.state).toBe('StateFollower');
  });

  it('a partitioned leader steps down; the majority elects a new one; the old one rejoins as follower', () => {
    const n = new Network([null, null, null, null, null], { checkQuorum: true, preVote: true });
    n.campaign(1);
    expect(n.node(1).raft.state).toBe('StateLeader');
    n.isolate(1);
    for (let i = 0; i < 30; i++) for (const id of ids5) n.tick(id);
    expect(n.node(1).raft.state).toBe('StateFollower');
    const leaders = ids5.filter((id) => n.node(id).raft.state === 'StateLeader');
    expect(leaders.length).toBe(1);
    const newLeader = leaders[0]!;
    expect(newLeader).not.toBe(1);
    n.propose(newLeader, 'after partition');
    n.recover();
    for (let i = 0; i < 5; i++) n.tick(newLeader);
    for (const id of ids5) {
      expect(n.node(id).raft.lead).toBe(newLeader);
      expect(n.peer(id).applied).toEqual(['after partition']);
    }
    // PreVote kept the isolated node's term from running away.
    expect(n.node(1).raft.term).toBe(n.node(newLeader).raft.term);
  });

  it('a vote request within the lease of a known leader is ignored (leader superseding)', () => {
    const n = new Network([null, null, null], { checkQuorum: true });
    const b = n.node(2).raft;
    b.randomizedElectionTimeout = b.electionTimeout + 1;
    for (let i = 0; i < b.electionTimeout; i++) n.node(2).tick();
    n.campaign(1);
    expect(n.node(1).raft.state).toBe('StateLeader');
    expect(n.node(3).raft.state).toBe('StateFollower');
    n.campaign(3);
    // b rejected c's vote since its electionElapsed had not reached electionTimeout
    expect(n.node(3).raft.state).toBe('StateCandidate');
    expect(n.node(2).takeTraceEvents()).toContainEqual({ type: 'drop', reason: 'leaseNotExpired', msgType: 'MsgVote' });
    for (let i = 0; i < b.electionTimeout; i++) n.node(2).tick();
    n.campaign(3);
    expect(n.node(3).raft.state).toBe('StateLeader');
  });

  it('votes are granted once the lease expired (leader election with CheckQuorum)', () => {
    const n = new Network([null, null, null], { checkQuorum: true });
    const a = n.node(1).raft;
    const b = n.node(2).raft;
    a.randomizedElectionTimeout = a.electionTimeout + 1;
    b.randomizedElectionTimeout = b.electionTimeout + 2;
    // Immediately after creation, votes are cast regardless of the election timeout.
    n.campaign(1);
    expect(a.state).toBe('StateLeader');
    expect(n.node(3).raft.state).toBe('StateFollower');
    a.randomizedElectionTimeout = a.electionTimeout + 1;
    b.randomizedElectionTimeout = b.electionTimeout + 2;
    for (let i = 0; i < a.electionTimeout; i++) n.node(1).tick();
    for (let i = 0; i < b.electionTimeout; i++) n.node(2).tick();
    n.campaign(3);
    expect(a.state).toBe('StateFollower');
    expect(n.node(3).raft.state).toBe('StateLeader');
  });

  it('a stuck candidate with a higher term is freed by the lower-term heartbeat response', () => {
    const n = new Network([null, null, null], { checkQuorum: true });
    const a = n.node(1).raft;
    const b = n.node(2).raft;
    const c = n.node(3).raft;
    b.randomizedElectionTimeout = b.electionTimeout + 1;
    for (let i = 0; i < b.electionTimeout; i++) n.node(2).tick();
    n.campaign(1);
    n.isolate(1);
    n.campaign(3);
    expect(b.state).toBe('StateFollower');
    expect(c.state).toBe('StateCandidate');
    expect(c.term).toBe(b.term + 1);
    n.campaign(3);
    expect(c.state).toBe('StateCandidate');
    expect(c.term).toBe(b.term + 2);
    n.recover();
    n.send(msg('MsgHeartbeat', 1, 3, { term: a.term }));
    // Disrupt the leader so that the stuck peer is freed
    expect(a.state).toBe('StateFollower');
    expect(c.term).toBe(a.term);
    n.campaign(3);
    expect(c.state).toBe('StateLeader');
  });

  it('a disruptive follower (no PreVote) forces the leader down via a lower-term heartbeat reply', () => {
    const n = new Network([null, null, null], { checkQuorum: true });
    for (const id of ids3) n.node(id).raft.becomeFollower(1, 0);
    n.campaign(1);
    const [n1, n2, n3] = ids3.map((id) => n.node(id).raft) as [Raft, Raft, Raft];
    expect([n1.state, n2.state, n3.state]).toEqual(['StateLeader', 'StateFollower', 'StateFollower']);
    n3.randomizedElectionTimeout = n3.electionTimeout + 2;
    for (let i = 0; i < n3.randomizedElectionTimeout - 1; i++) n.node(3).tick();
    // the last tick elapses before any message from the leader arrives
    n.node(3).tick();
    expect([n1.state, n2.state, n3.state]).toEqual(['StateLeader', 'StateFollower', 'StateCandidate']);
    expect([n1.term, n2.term, n3.term]).toEqual([2, 2, 3]);
    // the delayed leader heartbeat arrives with a lower term; 3 answers with its higher term
    n.send(msg('MsgHeartbeat', 1, 3, { term: n1.term }));
    expect([n1.state, n2.state, n3.state]).toEqual(['StateFollower', 'StateFollower', 'StateCandidate']);
    expect([n1.term, n2.term, n3.term]).toEqual([3, 2, 3]);
  });

  it('with PreVote, a rejoining lagging follower does not disrupt the leader', () => {
    const n = new Network([null, null, null], { checkQuorum: true, preVote: true });
    for (const id of ids3) n.node(id).raft.becomeFollower(1, 0);
    n.campaign(1);
    n.isolate(3);
    for (let i = 0; i < 3; i++) n.propose(1, 'somedata');
    n.recover();
    n.campaign(3);
    const [n1, n2, n3] = ids3.map((id) => n.node(id).raft) as [Raft, Raft, Raft];
    expect([n1.state, n2.state, n3.state]).toEqual(['StateLeader', 'StateFollower', 'StatePreCandidate']);
    expect([n1.term, n2.term, n3.term]).toEqual([2, 2, 2]);
    // delayed leader heartbeat does not force current leader to step down
    n.send(msg('MsgHeartbeat', 1, 3, { term: n1.term }));
    expect(n1.state).toBe('StateLeader');
  });
});

describe('log replication and commit', () => {
  it('replicates proposals and commits them everywhere', () => {
    const cases: { msgs: Message[]; wcommitted: number; props: string[] }[] = [
      { msgs: [msg('MsgProp', 1, 1, { entries: [e(0, 0, 'somedata')] })], wcommitted: 2, props: ['somedata'] },
      {
        msgs: [
          msg('MsgProp', 1, 1, { entries: [e(0, 0, 'somedata')] }),
          msg('MsgHup', 2, 2),
          msg('MsgProp', 1, 2, { entries: [e(0, 0, 'somedata2')] }),
        ],
        wcommitted: 4,
        props: ['somedata', 'somedata2'],
      },
    ];
    for (const tt of cases) {
      const n = new Network([null, null, null]);
      n.campaign(1);
      for (const m of tt.msgs) n.send(m);
      for (const id of ids3) {
        expect(n.node(id).raft.raftLog.committed).toBe(tt.wcommitted);
        expect(n.peer(id).applied).toEqual(tt.props);
      }
    }
  });

  it('a single node commits its own proposals', () => {
    const n = new Network([null]);
    n.campaign(1);
    n.propose(1, 'some data');
    n.propose(1, 'some data');
    expect(n.node(1).raft.raftLog.committed).toBe(3);
  });

  it('entries of an old term are not committed until an entry of the new term is', () => {
    const n = new Network([null, null, null, null, null]);
    n.campaign(1);
    // 1 cannot reach 3,4,5
    n.cut(1, 3);
    n.cut(1, 4);
    n.cut(1, 5);
    n.propose(1, 'some data');
    n.propose(1, 'some data');
    expect(n.node(1).raft.raftLog.committed).toBe(1);
    n.recover();
    // avoid committing the new leader's empty entry
    n.ignore('MsgApp');
    n.campaign(2);
    // no log entries from previous term should be committed
    expect(n.node(2).raft.raftLog.committed).toBe(1);
    n.recover();
    n.send(msg('MsgBeat', 2, 2));
    n.propose(2, 'some data');
    expect(n.node(2).raft.raftLog.committed).toBe(5);
  });

  it('a new leader commits old entries together with its empty entry', () => {
    const n = new Network([null, null, null, null, null]);
    n.campaign(1);
    n.cut(1, 3);
    n.cut(1, 4);
    n.cut(1, 5);
    n.propose(1, 'some data');
    n.propose(1, 'some data');
    expect(n.node(1).raft.raftLog.committed).toBe(1);
    n.recover();
    n.campaign(2);
    expect(n.node(2).raft.raftLog.committed).toBe(4);
  });

  it('maybeCommit uses the quorum match index and the current-term rule', () => {
    const cases: { matches: number[]; logs: Entry[]; smTerm: number; w: number }[] = [
      // single
      { matches: [1], logs: [e(1, 1)], smTerm: 1, w: 1 },
      { matches: [1], logs: [e(1, 1)], smTerm: 2, w: 0 },
      { matches: [2], logs: [e(1, 1), e(2, 2)], smTerm: 2, w: 2 },
      { matches: [1], logs: [e(2, 1)], smTerm: 2, w: 1 },
      // odd
      { matches: [2, 1, 1], logs: [e(1, 1), e(2, 2)], smTerm: 1, w: 1 },
      { matches: [2, 1, 1], logs: [e(1, 1), e(1, 2)], smTerm: 2, w: 0 },
      { matches: [2, 1, 2], logs: [e(1, 1), e(2, 2)], smTerm: 2, w: 2 },
      { matches: [2, 1, 2], logs: [e(1, 1), e(1, 2)], smTerm: 2, w: 0 },
      // even
      { matches: [2, 1, 1, 1], logs: [e(1, 1), e(2, 2)], smTerm: 1, w: 1 },
      { matches: [2, 1, 1, 1], logs: [e(1, 1), e(1, 2)], smTerm: 2, w: 0 },
      { matches: [2, 1, 1, 2], logs: [e(1, 1), e(2, 2)], smTerm: 1, w: 1 },
      { matches: [2, 1, 1, 2], logs: [e(1, 1), e(1, 2)], smTerm: 2, w: 0 },
      { matches: [2, 1, 2, 2], logs: [e(1, 1), e(2, 2)], smTerm: 2, w: 2 },
      { matches: [2, 1, 2, 2], logs: [e(1, 1), e(1, 2)], smTerm: 2, w: 0 },
    ];
    const quorumIndex = (ms: number[]) => [...ms].sort((a, b) => a - b)[ms.length - (Math.floor(ms.length / 2) + 1)]!;
    for (const unsafe of [false, true]) {
      for (const tt of cases) {
        const s = storageOf(1);
        s.append(tt.logs);
        s.setHardState({ term: tt.smTerm, vote: 0, commit: 0 });
        const r = newTestRaft(1, 10, 2, s, { unsafeCommitPreviousTermEntries: unsafe });
        tt.matches.forEach((m, j) => {
          const id = j + 1;
          if (id > 1) r.applyConfChange({ type: 'ConfChangeAddNode', nodeId: id });
          const pr = r.prs.progress.get(id)!;
          pr.match = m;
          pr.next = m + 1;
        });
        r.maybeCommit();
        // The unsafe switch commits the quorum index whatever its term.
        expect(r.raftLog.committed, JSON.stringify({ unsafe, tt })).toBe(unsafe ? quorumIndex(tt.matches) : tt.w);
      }
    }
  });

  it('ignores appends from an old leader', () => {
    const n = new Network([null, null, null]);
    // make 1 leader @ term 3
    n.campaign(1);
    n.campaign(2);
    n.campaign(1);
    // pretend we're an old leader trying to make progress; this entry is expected to be ignored.
    n.send(msg('MsgApp', 2, 1, { term: 2, entries: [e(2, 3)] }));
    n.propose(1, 'somedata');
    for (const id of ids3) {
      expect(logSummary(n.node(id).raft)).toEqual({
        committed: 4,
        entries: [
          [1, 1, ''],
          [2, 2, ''],
          [3, 3, ''],
          [4, 3, 'somedata'],
        ],
      });
    }
  });

  it('proposals succeed only with a leader; followers forward them', () => {
    const cases: { specs: PeerSpec[]; success: boolean }[] = [
      { specs: [null, null, null], success: true },
      { specs: [null, null, 'blackhole'], success: true },
      { specs: [null, 'blackhole', 'blackhole'], success: false },
      { specs: [null, 'blackhole', 'blackhole', null], success: false },
      { specs: [null, 'blackhole', 'blackhole', null, null], success: true },
    ];
    for (const tt of cases) {
      const n = new Network(tt.specs);
      n.campaign(1);
      const err = n.node(1).propose('somedata');
      n.send(...n.drain(1));
      expect(err).toEqual(tt.success ? undefined : ErrProposalDropped);
      for (const p of n.peers.values()) {
        expect(logSummary(p.node.raft)).toEqual(
          tt.success ? { committed: 2, entries: [[1, 1, ''], [2, 1, 'somedata']] } : { committed: 0, entries: [] },
        );
      }
      expect(n.node(1).raft.term).toBe(1);
    }
    // by proxy
    for (const specs of [[null, null, null], [null, null, 'blackhole']] as PeerSpec[][]) {
      const n = new Network(specs);
      n.campaign(1);
      n.propose(2, 'somedata');
      for (const p of n.peers.values()) {
        expect(logSummary(p.node.raft)).toEqual({ committed: 2, entries: [[1, 1, ''], [2, 1, 'somedata']] });
      }
    }
  });

  it('handleAppendEntries: consistency check, truncation and commit', () => {
    const cases: { m: Partial<Message>; wIndex: number; wCommit: number; wReject: boolean }[] = [
      // Ensure 1
      { m: { term: 2, logTerm: 3, index: 2, commit: 3 }, wIndex: 2, wCommit: 0, wReject: true }, // previous log mismatch
      { m: { term: 2, logTerm: 3, index: 3, commit: 3 }, wIndex: 2, wCommit: 0, wReject: true }, // previous log non-exist
      // Ensure 2
      { m: { term: 2, logTerm: 1, index: 1, commit: 1 }, wIndex: 2, wCommit: 1, wReject: false },
      { m: { term: 2, logTerm: 0, index: 0, commit: 1, entries: [e(2, 1)] }, wIndex: 1, wCommit: 1, wReject: false },
      { m: { term: 2, logTerm: 2, index: 2, commit: 3, entries: [e(2, 3), e(2, 4)] }, wIndex: 4, wCommit: 3, wReject: false },
      { m: { term: 2, logTerm: 2, index: 2, commit: 4, entries: [e(2, 3)] }, wIndex: 3, wCommit: 3, wReject: false },
      { m: { term: 1, logTerm: 1, index: 1, commit: 4, entries: [e(2, 2)] }, wIndex: 2, wCommit: 2, wReject: false },
      // Ensure 3
      { m: { term: 1, logTerm: 1, index: 1, commit: 3 }, wIndex: 2, wCommit: 1, wReject: false },
      { m: { term: 1, logTerm: 1, index: 1, commit: 3, entries: [e(2, 2)] }, wIndex: 2, wCommit: 2, wReject: false },
      { m: { term: 2, logTerm: 2, index: 2, commit: 3 }, wIndex: 2, wCommit: 2, wReject: false },
      { m: { term: 2, logTerm: 2, index: 2, commit: 4 }, wIndex: 2, wCommit: 2, wReject: false },
    ];
    for (const tt of cases) {
      const s = storageOf(1);
      s.append([e(1, 1), e(2, 2)]);
      const r = newTestRaft(1, 10, 1, s);
      r.becomeFollower(2, 0);
      r.handleAppendEntries(msg('MsgApp', 2, 1, tt.m));
      expect(r.raftLog.lastIndex(), JSON.stringify(tt.m)).toBe(tt.wIndex);
      expect(r.raftLog.committed, JSON.stringify(tt.m)).toBe(tt.wCommit);
      const ms = readMessages(r);
      expect(ms.length).toBe(1);
      expect(ms[0]!.reject).toBe(tt.wReject);
    }
  });

  it('heartbeats advance (never decrease) the follower commit index', () => {
    const commit = 2;
    for (const tt of [
      { c: commit + 1, w: commit + 1 },
      { c: commit - 1, w: commit },
    ]) {
      const s = storageOf(1, 2);
      s.append([e(1, 1), e(2, 2), e(3, 3)]);
      const r = newTestRaft(1, 5, 1, s);
      r.becomeFollower(2, 2);
      r.raftLog.commitTo(commit);
      r.handleHeartbeat(msg('MsgHeartbeat', 2, 1, { term: 2, commit: tt.c }));
      expect(r.raftLog.committed).toBe(tt.w);
      const ms = readMessages(r);
      expect(ms.map((m) => m.type)).toEqual(['MsgHeartbeatResp']);
    }
  });

  it('a heartbeat response from a lagging follower triggers an append, until it catches up', () => {
    const s = storageOf(1, 2);
    s.append([e(1, 1), e(2, 2), e(3, 3)]);
    const r = newTestRaft(1, 5, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    r.raftLog.commitTo(r.raftLog.lastIndex());
    r.step(msg('MsgHeartbeatResp', 2, 1));
    let ms = readMessages(r);
    expect(ms.map((m) => m.type)).toEqual(['MsgApp']);
    r.step(msg('MsgHeartbeatResp', 2, 1));
    ms = readMessages(r);
    expect(ms.map((m) => m.type)).toEqual(['MsgApp']);
    r.step(msg('MsgAppResp', 2, 1, { index: ms[0]!.index + ms[0]!.entries.length }));
    readMessages(r);
    r.step(msg('MsgHeartbeatResp', 2, 1));
    expect(readMessages(r)).toEqual([]);
  });

  it('a follower waiting for a probe response gets nothing until it acks (MsgAppResp wait reset)', () => {
    const r = newTestRaft(1, 5, 1, storageOf(1, 2, 3));
    r.becomeCandidate();
    r.becomeLeader();
    r.bcastAppend();
    readMessages(r);
    r.step(msg('MsgAppResp', 2, 1, { index: 1 }));
    expect(r.raftLog.committed).toBe(1);
    readMessages(r);
    r.step(msg('MsgProp', 1, 1, { entries: [e(0, 0)] }));
    let ms = readMessages(r);
    expect(ms.map((m) => [m.type, m.to, m.entries.map((x) => x.index)])).toEqual([['MsgApp', 2, [2]]]);
    r.step(msg('MsgAppResp', 3, 1, { index: 1 }));
    ms = readMessages(r);
    expect(ms.map((m) => [m.type, m.to, m.entries.map((x) => x.index)])).toEqual([['MsgApp', 3, [2]]]);
  });

  it('progress: replicate state pipelines, probe state sends one message per heartbeat, snapshot state sends none', () => {
    // increase next optimistically only when replicating
    for (const tt of [
      { state: 'StateReplicate' as const, next: 2, wnext: 3 + 1 + 1 + 1 },
      { state: 'StateProbe' as const, next: 2, wnext: 2 },
    ]) {
      const r = newTestRaft(1, 10, 1, storageOf(1, 2));
      r.raftLog.append([e(1, 1), e(1, 2), e(1, 3)]);
      r.becomeCandidate();
      r.becomeLeader();
      const pr = r.prs.progress.get(2)!;
      pr.state = tt.state;
      pr.next = tt.next;
      r.step(msg('MsgProp', 1, 1, { entries: [e(0, 0, 'somedata')] }));
      expect(pr.next).toBe(tt.wnext);
    }

    const r = newTestRaft(1, 10, 1, storageOf(1, 2));
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    const pr = r.prs.progress.get(2)!;
    pr.becomeProbe();
    for (let i = 0; i < 3; i++) {
      if (i === 0) {
        r.appendEntry([e(0, 0, 'somedata')]);
        r.sendAppend(2);
        const ms = readMessages(r);
        expect(ms.length).toBe(1);
        expect(ms[0]!.index).toBe(0);
      }
      expect(pr.probeSent).toBe(true);
      for (let j = 0; j < 10; j++) {
        r.appendEntry([e(0, 0, 'somedata')]);
        r.sendAppend(2);
        expect(readMessages(r)).toEqual([]);
      }
      for (let j = 0; j < r.heartbeatTimeout; j++) r.step(msg('MsgBeat', 1, 1));
      expect(pr.probeSent).toBe(true);
      expect(readMessages(r).map((m) => m.type)).toEqual(['MsgHeartbeat']);
    }
    // a heartbeat response allows another message to be sent
    r.step(msg('MsgHeartbeatResp', 2, 1));
    const ms = readMessages(r);
    expect(ms.length).toBe(1);
    expect(ms[0]!.index).toBe(0);
    expect(pr.probeSent).toBe(true);

    const r2 = newTestRaft(1, 10, 1, storageOf(1, 2));
    r2.becomeCandidate();
    r2.becomeLeader();
    readMessages(r2);
    r2.prs.progress.get(2)!.becomeReplicate();
    for (let i = 0; i < 10; i++) {
      r2.appendEntry([e(0, 0, 'somedata')]);
      r2.sendAppend(2);
      expect(readMessages(r2).length).toBe(1);
    }
    r2.prs.progress.get(2)!.becomeSnapshot(10);
    r2.appendEntry([e(0, 0, 'somedata')]);
    r2.sendAppend(2);
    expect(readMessages(r2)).toEqual([]);
  });

  it('MsgUnreachable moves a replicating follower back to probing', () => {
    const s = storageOf(1, 2);
    s.append([e(1, 1), e(1, 2), e(1, 3)]);
    const r = newTestRaft(1, 10, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    const pr = r.prs.progress.get(2)!;
    pr.match = 3;
    pr.becomeReplicate();
    pr.optimisticUpdate(5);
    r.step(msg('MsgUnreachable', 2, 1));
    expect(pr.state).toBe('StateProbe');
    expect(pr.next).toBe(pr.match + 1);
  });

  it('inflights bound the pipeline; a heartbeat response frees one slot', () => {
    const r = newTestRaft(1, 5, 1, storageOf(1, 2), { maxInflightMsgs: 3 });
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    r.prs.progress.get(2)!.becomeReplicate();
    for (let i = 0; i < 5; i++) r.step(msg('MsgProp', 1, 1, { entries: [e(0, 0, 'x')] }));
    expect(readMessages(r).filter((m) => m.type === 'MsgApp').length).toBe(3);
    expect(r.prs.progress.get(2)!.isPaused()).toBe(true);
    r.step(msg('MsgHeartbeatResp', 2, 1));
    expect(readMessages(r).filter((m) => m.type === 'MsgApp').length).toBe(1);
    // an ack commits index 5 and frees the window: only the new commit index is left to send
    r.step(msg('MsgAppResp', 2, 1, { index: 5 }));
    expect(r.raftLog.committed).toBe(5);
    expect(r.prs.progress.get(2)!.inflights.count).toBe(1);
    expect(readMessages(r).map((m) => [m.type, m.entries.length, m.commit])).toEqual([['MsgApp', 0, 5]]);
  });

  it('MaxSizePerMsg limits entries per MsgApp (sum of data lengths, at least one entry)', () => {
    const r = newTestRaft(1, 5, 1, storageOf(1, 2), { maxSizePerMsg: 10 });
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < 5; i++) r.appendEntry([e(0, 0, '1234')]);
    readMessages(r);
    const pr = r.prs.progress.get(2)!;
    pr.becomeReplicate();
    r.sendAppend(2);
    const ms = readMessages(r);
    // entry 1 is empty; entries 2.. have 4 bytes: 0+4+4 <= 10 < 0+4+4+4
    expect(ms[0]!.entries.map((x) => x.index)).toEqual([1, 2, 3]);
    const r0 = newTestRaft(1, 5, 1, storageOf(1, 2), { maxSizePerMsg: 0 });
    r0.becomeCandidate();
    r0.becomeLeader();
    for (let i = 0; i < 3; i++) r0.appendEntry([e(0, 0, 'x')]);
    readMessages(r0);
    r0.prs.progress.get(2)!.becomeReplicate();
    r0.sendAppend(2);
    expect(readMessages(r0)[0]!.entries.length).toBe(1);
  });
});

describe('commit rule: Figure 8 of the Raft paper', () => {
  // Start from Figure 8 (c): S1 (term 2 entry at index 2, shared with S2) restarts
  // and becomes leader in term 4; S5 holds a term-3 entry at index 2 and is down.
  function figure8(unsafe: boolean): Network {
    const n = new Network(
      [
        { storage: storageWith(ids5, [1, 2], { term: 3, commit: 1 }) },
        { storage: storageWith(ids5, [1, 2], { term: 2, commit: 1 }) },
        { storage: storageWith(ids5, [1], { term: 3, vote: 5, commit: 1 }) },
        { storage: storageWith(ids5, [1], { term: 3, vote: 5, commit: 1 }) },
        { storage: storageWith(ids5, [1, 3], { term: 3, vote: 5, commit: 1 }) },
      ],
      { unsafeCommitPreviousTermEntries: unsafe },
    );
    n.isolate(5);
    // S1's term-4 entry never leaves S1 (it crashes before replicating it):
    // MsgApps lose their term-4 entries in transit.
    n.msgHook = (m) => {
      if (m.type === 'MsgApp') m.entries = m.entries.filter((x) => x.term !== 4);
      return true;
    };
    n.campaign(1);
    expect(n.node(1).raft.state).toBe('StateLeader');
    expect(n.node(1).raft.term).toBe(4);
    n.send(msg('MsgBeat', 1, 1));
    n.send(msg('MsgBeat', 1, 1));
    return n;
  }

  it('safe: the term-2 entry replicated on a majority is NOT committed by the term-4 leader, so S5 may overwrite it', () => {
    const n = figure8(false);
    // index 2 is on S1, S2, S3, S4 ...
    for (const id of [1, 2, 3, 4]) expect(n.node(id).raft.raftLog.lastIndex()).toBeGreaterThanOrEqual(2);
    // ... but not committed: its term is not the leader's.
    for (const id of ids5) expect(n.node(id).raft.raftLog.committed).toBe(1);
    // (d) S1 crashes, S5 comes back and wins with its term-3 entry.
    n.recover();
    n.msgHook = undefined;
    n.isolate(1);
    n.campaign(5); // loses at term 4 (everyone voted for S1) ...
    expect(n.node(5).raft.state).toBe('StateFollower');
    n.campaign(5); // ... wins at term 5 with its term-3 entry
    expect(n.node(5).raft.state).toBe('StateLeader');
    expect(n.node(5).raft.term).toBe(5);
    n.propose(5, 'after');
    expect(appliedConflicts(n)).toEqual([]);
    for (const id of [2, 3, 4, 5]) {
      expect(n.node(id).raft.raftLog.allEntries().map((x) => x.term)).toEqual([1, 3, 5, 5]);
      expect(n.peer(id).appliedEntries.map((x) => [x.index, x.term])).toEqual([
        [1, 1],
        [2, 3],
        [3, 5],
        [4, 5],
      ]);
    }
  });

  it('unsafe switch: the leader commits the old-term entry, and S5 later commits a different entry at that index', () => {
    const n = figure8(true);
    const leaderCommits = n.node(1).takeTraceEvents().filter((ev) => ev.type === 'commit');
    expect(leaderCommits).toContainEqual({ type: 'commit', index: 2, term: 2 });
    for (const id of [1, 2, 3, 4]) expect(n.node(id).raft.raftLog.committed).toBe(2);
    expect(n.peer(3).appliedEntries).toContainEqual({ index: 2, term: 2 });
    expect(appliedConflicts(n)).toEqual([]);
    n.recover();
    n.msgHook = undefined;
    n.isolate(1);
    n.campaign(5); // loses at term 4
    // S5 still wins (its last term 3 beats the voters' 2). Followers answer its
    // probe below their commit index with their commit index, so the buggy
    // leader counts a quorum at index 2 and commits its own term-3 entry there.
    n.campaign(5);
    expect(n.node(5).raft.state).toBe('StateLeader');
    expect(n.peer(5).appliedEntries).toContainEqual({ index: 2, term: 3 });
    expect(appliedConflicts(n)).toEqual([{ index: 2, terms: [2, 3] }]);
  });
});

/** State Machine Safety: indexes at which two peers applied entries of different terms. */
function appliedConflicts(n: Network): { index: number; terms: number[] }[] {
  const byIndex = new Map<number, Set<number>>();
  for (const p of n.peers.values()) {
    for (const a of p.appliedEntries) {
      let set = byIndex.get(a.index);
      if (!set) byIndex.set(a.index, (set = new Set()));
      set.add(a.term);
    }
  }
  return [...byIndex]
    .filter(([, terms]) => terms.size > 1)
    .map(([index, terms]) => ({ index, terms: [...terms].sort((a, b) => a - b) }));
}

describe('conflict repair', () => {
  const cases: { leaderLog: number[]; followerLog: number[]; hintTerm: number; hintIndex: number; nextTerm: number; nextIndex: number }[] =
    [
      // The leader finds the conflict index quickly.
      { leaderLog: [1, 2, 2, 4, 4, 4, 4], followerLog: [1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3], hintTerm: 3, hintIndex: 7, nextTerm: 2, nextIndex: 3 },
      { leaderLog: [1, 2, 2, 3, 4, 4, 4, 5], followerLog: [1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3], hintTerm: 3, hintIndex: 8, nextTerm: 3, nextIndex: 4 },
      // The follower finds the conflict index quickly.
      { leaderLog: [1, 1, 1, 1], followerLog: [1, 2, 2, 4], hintTerm: 1, hintIndex: 1, nextTerm: 1, nextIndex: 1 },
      // ... with a longer leader tail
      { leaderLog: [1, 1, 1, 1, 1, 1], followerLog: [1, 2, 2, 4], hintTerm: 1, hintIndex: 1, nextTerm: 1, nextIndex: 1 },
      // ... with a longer follower tail
      { leaderLog: [1, 1, 1, 1], followerLog: [1, 2, 2, 4, 4, 4], hintTerm: 1, hintIndex: 1, nextTerm: 1, nextIndex: 1 },
      // no conflict
      { leaderLog: [1, 1, 1, 4, 5], followerLog: [1, 1, 1, 4], hintTerm: 4, hintIndex: 4, nextTerm: 4, nextIndex: 4 },
      // example from stepLeader's comment
      { leaderLog: [1, 3, 3, 3, 5, 5, 5, 5, 5], followerLog: [1, 1, 1, 1, 2, 2], hintTerm: 2, hintIndex: 6, nextTerm: 1, nextIndex: 1 },
      // the cases of upstream's table built on the two comments
      { leaderLog: [2, 5, 5, 5, 5, 5, 5, 5, 5], followerLog: [2, 4, 4, 4, 4, 4], hintTerm: 4, hintIndex: 6, nextTerm: 2, nextIndex: 1 },
      { leaderLog: [2, 2, 2, 2, 2], followerLog: [2, 4, 4, 4, 4, 4, 4, 4], hintTerm: 2, hintIndex: 1, nextTerm: 2, nextIndex: 1 },
      // follower-side skip on the second probe: 9 (term 6 <= 7) is rejected as is, then the
      // probe at 8 (logTerm 3) is answered with the largest index of term <= 3, index 3.
      { leaderLog: [1, 3, 3, 3, 3, 3, 3, 3, 7], followerLog: [1, 3, 3, 4, 4, 5, 5, 5, 6], hintTerm: 6, hintIndex: 9, nextTerm: 3, nextIndex: 8 },
    ];
  for (const [i, tt] of cases.entries()) {
    it(`fast log rejection #${i}: one probe per term instead of one per index`, () => {
      const n1 = newTestRaft(1, 10, 1, storageWith(ids3, tt.leaderLog));
      const n2 = newTestRaft(2, 10, 1, storageWith(ids3, tt.followerLog));
      n1.becomeCandidate();
      n1.becomeLeader();
      n2.step(msg('MsgHeartbeat', 1, 1));
      let ms = readMessages(n2);
      expect(ms.map((m) => m.type)).toEqual(['MsgHeartbeatResp']);
      n1.step(ms[0]!);
      ms = readMessages(n1);
      expect(ms.map((m) => m.type)).toEqual(['MsgApp']);
      n2.step(ms[0]!);
      ms = readMessages(n2);
      expect(ms.length).toBe(1);
      expect([ms[0]!.type, ms[0]!.reject, ms[0]!.logTerm, ms[0]!.rejectHint]).toEqual(['MsgAppResp', true, tt.hintTerm, tt.hintIndex]);
      n1.step(ms[0]!);
      ms = readMessages(n1);
      expect([ms[0]!.logTerm, ms[0]!.index]).toEqual([tt.nextTerm, tt.nextIndex]);
    });
  }

  it('divergent logs converge on the leader log through the network (Figure 7, five followers at once)', () => {
    const specs: PeerSpec[] = [
      { storage: storageWith(ids5, [1, 1, 1, 4, 4, 5, 5, 6, 6, 6], { term: 8, commit: 3 }) },
      { storage: storageWith(ids5, [1, 1, 1, 4, 4, 5, 5, 6, 6], { term: 7 }) },
      { storage: storageWith(ids5, [1, 1, 1, 4], { term: 7 }) },
      { storage: storageWith(ids5, [1, 1, 1, 4, 4, 4, 4], { term: 7 }) },
      { storage: storageWith(ids5, [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3], { term: 7 }) },
    ];
    const n = new Network(specs);
    n.campaign(1);
    expect(n.node(1).raft.state).toBe('StateLeader');
    n.propose(1, 'x');
    const want = n.node(1).raft.raftLog.allEntries();
    for (const id of ids5) {
      expect(n.node(id).raft.raftLog.allEntries()).toEqual(want);
      expect(n.node(id).raft.raftLog.committed).toBe(want.length);
    }
  });
});

describe('snapshots', () => {
  const snap = (index: number, term: number, voters: RaftId[]) => ({
    metadata: { index, term, confState: { voters, learners: [] } },
    data: '',
  });

  it('restore installs the snapshot and its configuration; not twice; no campaign before it is applied', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1, 2));
    expect(r.restore(snap(11, 11, [1, 2, 3]))).toBe(true);
    expect(r.raftLog.lastIndex()).toBe(11);
    expect(r.raftLog.term(11)).toBe(11);
    expect(r.prs.voters).toEqual([1, 2, 3]);
    expect(r.restore(snap(11, 11, [1, 2, 3]))).toBe(false);
    for (let i = 0; i < r.randomizedElectionTimeout; i++) r.tick();
    expect(r.state).toBe('StateFollower');
  });

  it('restore ignores an old snapshot but fast-forwards commit when the log matches', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1, 2));
    r.raftLog.append([e(1, 1), e(1, 2), e(1, 3)]);
    r.raftLog.commitTo(1);
    expect(r.restore(snap(1, 1, [1, 2]))).toBe(false);
    expect(r.raftLog.committed).toBe(1);
    expect(r.restore(snap(2, 1, [1, 2]))).toBe(false);
    expect(r.raftLog.committed).toBe(2);
  });

  it('restore ignores a snapshot whose configuration does not contain us', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1, 2));
    expect(r.restore(snap(11, 11, [2, 3]))).toBe(false);
    expect(r.raftLog.lastIndex()).toBe(0);
  });

  it('the leader sends a snapshot to a follower behind its first index, only if recently active', () => {
    for (const active of [true, false]) {
      const r = newTestRaft(1, 10, 1, storageOf(1));
      r.restore(snap(11, 11, [1, 2]));
      r.becomeCandidate();
      r.becomeLeader();
      const pr = r.prs.progress.get(2)!;
      pr.next = r.raftLog.firstIndex();
      if (active) {
        r.step(msg('MsgAppResp', 2, 1, { index: pr.next - 1, reject: true }));
        const ms = readMessages(r);
        expect(ms.map((m) => m.type)).toEqual(['MsgSnap']);
        expect(pr.state).toBe('StateSnapshot');
        expect(pr.pendingSnapshot).toBe(11);
      } else {
        pr.next = r.raftLog.firstIndex() - 1;
        pr.recentActive = false;
        readMessages(r);
        r.step(msg('MsgProp', 1, 1, { entries: [e(0, 0, 'somedata')] }));
        expect(readMessages(r).filter((m) => m.to === 2)).toEqual([]);
      }
    }
  });

  it('a MsgSnap makes the sender the leader of the recipient', () => {
    const r = newTestRaft(2, 10, 1, storageOf(1, 2));
    r.step(msg('MsgSnap', 1, 2, { term: 2, snapshot: snap(11, 11, [1, 2]) }));
    expect(r.lead).toBe(1);
  });

  it('reportSnapshot moves the progress out of StateSnapshot (success: from the snapshot; failure: from match)', () => {
    for (const failed of [false, true]) {
      const r = newTestRaft(1, 10, 1, storageOf(1, 2));
      r.becomeCandidate();
      r.becomeLeader();
      const pr = r.prs.progress.get(2)!;
      pr.becomeSnapshot(20);
      r.step(msg('MsgSnapStatus', 2, 1, { reject: failed }));
      expect(pr.state).toBe('StateProbe');
      expect(pr.next).toBe(failed ? 1 : 21);
      expect(pr.probeSent).toBe(true);
    }
  });

  it('a slow node catches up through a snapshot after compaction (and applies the same data)', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.isolate(3);
    for (let j = 0; j <= 100; j++) n.propose(1, `v${j}`);
    const lead = n.node(1).raft;
    const p1 = n.peer(1);
    p1.storage.createSnapshot(lead.raftLog.applied, { voters: lead.prs.voters, learners: [] }, JSON.stringify(p1.applied));
    p1.storage.compact(lead.raftLog.applied);
    n.recover();
    // heartbeats until the leader learns node 3 is active
    for (let i = 0; i < 10 && !lead.prs.progress.get(3)!.recentActive; i++) n.send(msg('MsgBeat', 1, 1));
    expect(lead.prs.progress.get(3)!.recentActive).toBe(true);
    n.recordDelivered = true;
    n.propose(1, 'trigger snapshot');
    expect(n.delivered.some((m) => m.type === 'MsgSnap' && m.to === 3)).toBe(true);
    n.propose(1, 'trigger commit');
    const follower = n.node(3).raft;
    expect(follower.raftLog.committed).toBe(lead.raftLog.committed);
    expect(n.peer(3).applied).toEqual(p1.applied);
    expect(lead.prs.progress.get(3)!.state).toBe('StateReplicate');
  });
});

describe('leader transfer', () => {
  it('transfers to an up-to-date node and back', () => {
    for (const viaFollower of [false, true]) {
      const n = new Network([null, null, null]);
      n.campaign(1);
      const lead = n.node(1).raft;
      expect(lead.lead).toBe(1);
      n.send(msg('MsgTransferLeader', 2, viaFollower ? 2 : 1));
      checkLeaderTransferState(lead, 'StateFollower', 2);
      n.propose(1, '');
      n.send(msg('MsgTransferLeader', 1, viaFollower ? 1 : 2));
      checkLeaderTransferState(lead, 'StateLeader', 1);
    }
  });

  it('transfers with CheckQuorum and PreVote on (TimeoutNow skips PreVote and the lease)', () => {
    const n = new Network([null, null, null], { checkQuorum: true, preVote: true });
    for (const id of ids3) {
      const r = n.node(id).raft;
      r.randomizedElectionTimeout = r.electionTimeout + id;
    }
    // let peer 2's electionElapsed reach the timeout so it can vote for peer 1
    for (let i = 0; i < n.node(2).raft.electionTimeout; i++) n.node(2).tick();
    n.campaign(1);
    const lead = n.node(1).raft;
    expect(lead.state).toBe('StateLeader');
    n.send(msg('MsgTransferLeader', 2, 1));
    checkLeaderTransferState(lead, 'StateFollower', 2);
    n.propose(1, '');
    n.send(msg('MsgTransferLeader', 1, 2));
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('catches a slow follower up before sending TimeoutNow', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.isolate(3);
    n.propose(1, '');
    n.recover();
    const lead = n.node(1).raft;
    expect(lead.prs.progress.get(3)!.match).toBe(1);
    n.send(msg('MsgTransferLeader', 3, 1));
    checkLeaderTransferState(lead, 'StateFollower', 3);
  });

  it('catches a follower up through a snapshot before transferring', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.isolate(3);
    n.propose(1, '');
    const lead = n.node(1).raft;
    const p1 = n.peer(1);
    p1.storage.createSnapshot(lead.raftLog.applied, { voters: lead.prs.voters, learners: [] }, '');
    p1.storage.compact(lead.raftLog.applied);
    n.recover();
    expect(lead.prs.progress.get(3)!.match).toBe(1);
    let filtered: Message | undefined;
    // hold back node 3's acknowledgement of the snapshot
    n.msgHook = (m) => {
      if (m.type !== 'MsgAppResp' || m.from !== 3 || m.reject) return true;
      filtered = m;
      return false;
    };
    n.send(msg('MsgTransferLeader', 3, 1));
    expect(lead.state).toBe('StateLeader');
    expect(filtered).toBeDefined();
    n.msgHook = undefined;
    n.send(filtered!);
    checkLeaderTransferState(lead, 'StateFollower', 3);
  });

  it('ignores a transfer to itself or to a non-member', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    const lead = n.node(1).raft;
    n.send(msg('MsgTransferLeader', 1, 1));
    checkLeaderTransferState(lead, 'StateLeader', 1);
    n.send(msg('MsgTransferLeader', 4, 1));
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('aborts after an election timeout, drops proposals meanwhile', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.isolate(3);
    const lead = n.node(1).raft;
    n.send(msg('MsgTransferLeader', 3, 1));
    expect(lead.leadTransferee).toBe(3);
    expect(n.node(1).propose('')).toEqual(ErrProposalDropped);
    expect(lead.prs.progress.get(1)!.match).toBe(1);
    for (let i = 0; i < lead.heartbeatTimeout; i++) n.node(1).tick();
    expect(lead.leadTransferee).toBe(3);
    // a second request to the same node does not extend the deadline
    n.send(msg('MsgTransferLeader', 3, 1));
    for (let i = 0; i < lead.electionTimeout - lead.heartbeatTimeout; i++) n.node(1).tick();
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('a higher-term vote during a transfer wins', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.isolate(3);
    const lead = n.node(1).raft;
    n.send(msg('MsgTransferLeader', 3, 1));
    expect(lead.leadTransferee).toBe(3);
    n.send(msg('MsgHup', 2, 2, { index: 1, term: 2 }));
    checkLeaderTransferState(lead, 'StateFollower', 2);
  });

  it('removing the transferee aborts the transfer; a second transfer to another node replaces the first', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.ignore('MsgTimeoutNow');
    const lead = n.node(1).raft;
    n.send(msg('MsgTransferLeader', 3, 1));
    expect(lead.leadTransferee).toBe(3);
    n.node(1).applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 3 });
    checkLeaderTransferState(lead, 'StateLeader', 1);

    const n2 = new Network([null, null, null]);
    n2.campaign(1);
    n2.isolate(3);
    n2.send(msg('MsgTransferLeader', 3, 1));
    expect(n2.node(1).raft.leadTransferee).toBe(3);
    n2.send(msg('MsgTransferLeader', 2, 1));
    checkLeaderTransferState(n2.node(1).raft, 'StateFollower', 2);
  });
});

describe('ReadIndex', () => {
  it('ReadOnlySafe: leader and followers get read states at the commit index after a quorum ack', () => {
    const n = new Network([null, null, null]);
    const b = n.node(2).raft;
    b.randomizedElectionTimeout = b.electionTimeout + 1;
    for (let i = 0; i < b.electionTimeout; i++) n.node(2).tick();
    n.campaign(1);
    expect(n.node(1).raft.state).toBe('StateLeader');
    const cases: { id: RaftId; proposals: number; wri: number; wctx: string }[] = [
      { id: 1, proposals: 10, wri: 11, wctx: 'ctx1' },
      { id: 2, proposals: 10, wri: 21, wctx: 'ctx2' },
      { id: 3, proposals: 10, wri: 31, wctx: 'ctx3' },
      { id: 1, proposals: 10, wri: 41, wctx: 'ctx4' },
      { id: 2, proposals: 10, wri: 51, wctx: 'ctx5' },
      { id: 3, proposals: 10, wri: 61, wctx: 'ctx6' },
    ];
    for (const tt of cases) {
      for (let j = 0; j < tt.proposals; j++) n.propose(1, '');
      n.send(msg('MsgReadIndex', tt.id, tt.id, { entries: [e(0, 0, tt.wctx)] }));
      const p = n.peer(tt.id);
      expect(p.readStates).toEqual([{ index: tt.wri, requestCtx: tt.wctx }]);
      p.readStates = [];
    }
  });

  it('a single-member cluster answers at once', () => {
    const n = new Network([null]);
    n.campaign(1);
    n.node(1).readIndex('ctx');
    n.drain(1);
    expect(n.peer(1).readStates).toEqual([{ index: 1, requestCtx: 'ctx' }]);
  });

  it('a read is not answered without a quorum of heartbeat acks', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.isolate(1);
    n.send(msg('MsgReadIndex', 1, 1, { entries: [e(0, 0, 'ctx')] }));
    expect(n.peer(1).readStates).toEqual([]);
    n.recover();
    n.send(msg('MsgBeat', 1, 1)); // heartbeats carry the last pending context
    expect(n.peer(1).readStates).toEqual([{ index: 1, requestCtx: 'ctx' }]);
  });

  it('a follower without a leader drops the read', () => {
    const r = newTestRaft(2, 10, 1, storageOf(1, 2, 3));
    r.step(msg('MsgReadIndex', 2, 2, { entries: [e(0, 0, 'ctx')] }));
    expect(readMessages(r)).toEqual([]);
    expect(r.takeTrace()).toContainEqual({ type: 'drop', reason: 'noLeader', msgType: 'MsgReadIndex' });
  });

  it('a new leader postpones reads until it committed an entry of its term (v3.5 queues them)', () => {
    const specs: PeerSpec[] = [
      { committed: 1, applied: 1, compact: 0 },
      { committed: 2, applied: 2, compact: 2 },
      { committed: 2, applied: 2, compact: 2 },
    ].map((c) => {
      const s = storageWith(ids3, [1, 1], { term: 1, commit: c.committed });
      if (c.compact !== 0) s.compact(c.compact);
      return { storage: s, config: { applied: c.applied } };
    });
    const n = new Network(specs);
    // Drop MsgApp to forbid peer 1 to commit any log entry at its term after it becomes leader.
    n.ignore('MsgApp');
    n.campaign(1);
    const sm = n.node(1).raft;
    expect(sm.state).toBe('StateLeader');
    n.send(msg('MsgReadIndex', 1, 1, { entries: [e(0, 0, 'ctx')] }));
    expect(n.peer(1).readStates).toEqual([]);
    expect(sm.pendingReadIndexMessages.length).toBe(1);
    n.recover();
    for (let i = 0; i < sm.heartbeatTimeout; i++) n.node(1).tick();
    n.propose(1, '');
    expect(sm.raftLog.committed).toBe(4);
    expect(sm.raftLog.zeroTermOnErrCompacted(sm.raftLog.term(sm.raftLog.committed))).toBe(sm.term);
    // the postponed request was processed once an entry of its term committed
    expect(n.peer(1).readStates).toEqual([{ index: 4, requestCtx: 'ctx' }]);
    n.send(msg('MsgReadIndex', 1, 1, { entries: [e(0, 0, 'ctx')] }));
    expect(n.peer(1).readStates).toEqual([
      { index: 4, requestCtx: 'ctx' },
      { index: 4, requestCtx: 'ctx' },
    ]);
  });

  it('read requests batch: a quorum ack for a later request also answers earlier ones', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1, 2, 3));
    r.becomeCandidate();
    r.becomeLeader();
    r.step(msg('MsgAppResp', 2, 1, { term: r.term, index: 1 }));
    expect(r.committedEntryInCurrentTerm()).toBe(true);
    readMessages(r);
    r.step(msg('MsgReadIndex', 1, 1, { entries: [e(0, 0, 'a')] }));
    r.step(msg('MsgReadIndex', 1, 1, { entries: [e(0, 0, 'b')] }));
    expect(r.readStates).toEqual([]);
    r.step(msg('MsgHeartbeatResp', 2, 1, { term: r.term, context: 'b' }));
    expect(r.readStates).toEqual([
      { index: 1, requestCtx: 'a' },
      { index: 1, requestCtx: 'b' },
    ]);
    expect(r.readOnly.readIndexQueue).toEqual([]);
    expect(r.readOnly.pendingReadIndex.size).toBe(0);
  });
});

describe('membership changes', () => {
  const cc = (type: 'ConfChangeAddNode' | 'ConfChangeRemoveNode' | 'ConfChangeAddLearnerNode', nodeId: RaftId): Entry =>
    e(0, 0, encodeConfChange({ type, nodeId }), 'EntryConfChange');

  it('a conf change proposal is appended and marks the pending index', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1, 2));
    r.becomeCandidate();
    r.becomeLeader();
    const index = r.raftLog.lastIndex();
    r.step(msg('MsgProp', 1, 1, { entries: [cc('ConfChangeAddNode', 3)] }));
    expect(r.raftLog.lastIndex()).toBe(index + 1);
    expect(r.pendingConfIndex).toBe(index + 1);
  });

  it('only one conf change may be pending: the second becomes an empty normal entry', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1, 2));
    r.becomeCandidate();
    r.becomeLeader();
    r.step(msg('MsgProp', 1, 1, { entries: [cc('ConfChangeAddNode', 3)] }));
    const index = r.raftLog.lastIndex();
    const pendingIndex = r.pendingConfIndex;
    r.step(msg('MsgProp', 1, 1, { entries: [cc('ConfChangeAddNode', 4)] }));
    expect(r.raftLog.entries(index + 1, noLimit)).toEqual([e(1, 3)]);
    expect(r.pendingConfIndex).toBe(pendingIndex);
  });

  it('a new leader conservatively treats its whole tail as a possibly pending conf change', () => {
    for (const tt of [
      { addEntry: false, wpending: 0 },
      { addEntry: true, wpending: 1 },
    ]) {
      const r = newTestRaft(1, 10, 1, storageOf(1, 2));
      if (tt.addEntry) r.appendEntry([e(0, 0)]);
      r.becomeCandidate();
      r.becomeLeader();
      expect(r.pendingConfIndex).toBe(tt.wpending);
    }
  });

  it('add/remove voters and learners; removing the last voter throws', () => {
    const r = newTestRaft(1, 10, 1, storageOf(1));
    expect(r.applyConfChange({ type: 'ConfChangeAddNode', nodeId: 2 })).toEqual({ voters: [1, 2], learners: [] });
    expect(r.applyConfChange({ type: 'ConfChangeAddLearnerNode', nodeId: 3 })).toEqual({ voters: [1, 2], learners: [3] });
    expect(r.prs.progress.get(3)!.isLearner).toBe(true);
    expect(r.applyConfChange({ type: 'ConfChangeAddNode', nodeId: 3 })).toEqual({ voters: [1, 2, 3], learners: [] });
    expect(r.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 2 })).toEqual({ voters: [1, 3], learners: [] });
    expect(r.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 3 })).toEqual({ voters: [1], learners: [] });
    expect(() => r.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 1 })).toThrow(/removed all voters/);
    expect(r.prs.voters).toEqual([1]);
  });

  it('removing a node lowers the quorum so a pending entry can commit', () => {
    const s = storageOf(1, 2);
    const r = newTestRaft(1, 5, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    r.step(msg('MsgProp', 0, 0, { entries: [cc('ConfChangeRemoveNode', 2)] }));
    expect(nextEnts(r, s)).toEqual([]);
    const ccIndex = r.raftLog.lastIndex();
    r.step(msg('MsgProp', 0, 0, { entries: [e(0, 0, 'hello')] }));
    // Node 2 acknowledges the config change, committing it.
    r.step(msg('MsgAppResp', 2, 1, { index: ccIndex }));
    let ents = nextEnts(r, s);
    expect(ents.map((x) => [x.type, x.data])).toEqual([
      ['EntryNormal', ''],
      ['EntryConfChange', encodeConfChange({ type: 'ConfChangeRemoveNode', nodeId: 2 })],
    ]);
    r.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 2 });
    ents = nextEnts(r, s);
    expect(ents.map((x) => [x.type, x.data])).toEqual([['EntryNormal', 'hello']]);
  });

  it('grows a bootstrapped cluster: the new node replays the log from index 1, catches up and votes', () => {
    const n = new Network([{ bootstrap: ids3 }, { bootstrap: ids3 }, { bootstrap: ids3 }]);
    n.campaign(1);
    for (let i = 0; i < 5; i++) n.propose(1, `v${i}`);
    n.addPeer(4);
    expect(n.node(1).proposeConfChange({ type: 'ConfChangeAddNode', nodeId: 4 })).toBeUndefined();
    n.send(...n.drain(1));
    n.send(msg('MsgBeat', 1, 1));
    n.send(msg('MsgBeat', 1, 1));
    expect(n.node(1).raft.prs.voters).toEqual([1, 2, 3, 4]);
    expect(n.node(4).raft.prs.voters).toEqual([1, 2, 3, 4]);
    expect(n.peer(4).applied).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
    expect(n.node(4).raft.raftLog.committed).toBe(n.node(1).raft.raftLog.committed);
    // the new quorum (3 of 4) includes node 4
    n.isolate(2);
    n.isolate(3);
    n.propose(1, 'needs 4');
    expect(n.peer(1).applied).not.toContain('needs 4');
    n.recover();
    n.send(msg('MsgBeat', 1, 1));
    expect(n.peer(1).applied).toContain('needs 4');
    // a second change is refused while the first is pending
    n.isolate(1);
    n.node(1).proposeConfChange({ type: 'ConfChangeRemoveNode', nodeId: 4 });
    n.node(1).proposeConfChange({ type: 'ConfChangeRemoveNode', nodeId: 3 });
    const tail = n.node(1).raft.raftLog.allEntries().slice(-2);
    expect(tail.map((x) => x.type)).toEqual(['EntryConfChange', 'EntryNormal']);
  });

  it('an unapplied committed conf change blocks campaigning', () => {
    const s = storageWith([1, 2], [1], { term: 1, commit: 1 });
    s.append([e(1, 2, encodeConfChange({ type: 'ConfChangeAddNode', nodeId: 3 }), 'EntryConfChange')]);
    s.setHardState({ term: 1, vote: 0, commit: 2 });
    const r = newTestRaft(1, 10, 1, s, { applied: 1 });
    r.step(msg('MsgHup', 1, 1));
    expect(r.state).toBe('StateFollower');
    expect(r.takeTrace()).toContainEqual({ type: 'drop', reason: 'pendingConfChange', msgType: 'MsgHup' });
  });
});
