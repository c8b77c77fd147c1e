// Ready/Advance semantics (upstream rawnode_test.go, v3.5), restart from
// storage, errors, status, trace events, and snapshot-ability (cloneState).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../sim/rng';
import { cloneState } from '../../sim/serial';
import { decodeConfChange, encodeConfChange } from './confChange';
import { RawNode } from './rawNode';
import { MemoryStorage } from './storage';
import { Network, msg, storageWith, testConfig } from './testkit';
import type { Entry, Message, Ready } from './types';
import { ErrProposalDropped, ErrStepLocalMsg, ErrStepPeerNotFound } from './types';

function e(term: number, index: number, data = ''): Entry {
  return { term, index, type: 'EntryNormal', data };
}

/** Persist + apply + advance, as the caller must. */
function handle(rn: RawNode, s: MemoryStorage, rd: Ready): void {
  if (rd.snapshot !== undefined) s.applySnapshot(rd.snapshot);
  if (rd.hardState !== undefined) s.setHardState(rd.hardState);
  s.append(rd.entries);
  for (const ent of rd.committedEntries) if (ent.type === 'EntryConfChange') rn.applyConfChange(decodeConfChange(ent.data));
  rn.advance(rd);
}

describe('RawNode Ready/Advance', () => {
  it('bootstrap, campaign and propose on a single node (TestRawNodeStart)', () => {
    const s = new MemoryStorage();
    const rn = new RawNode(testConfig(1), s);
    rn.bootstrap([1]);
    const cc = { term: 1, index: 1, type: 'EntryConfChange' as const, data: encodeConfChange({ type: 'ConfChangeAddNode', nodeId: 1 }) };
    let rd = rn.ready();
    expect(rd).toEqual({
      softState: undefined,
      hardState: { term: 1, vote: 0, commit: 1 },
      readStates: [],
      entries: [cc],
      snapshot: undefined,
      committedEntries: [cc],
      messages: [],
      mustSync: true,
    });
    handle(rn, s, rd);
    expect(rn.hasReady()).toBe(false);

    rn.campaign();
    rd = rn.ready();
    expect(rd.softState).toEqual({ lead: 1, raftState: 'StateLeader' });
    expect(rd.hardState).toEqual({ term: 2, vote: 1, commit: 2 });
    // v3.5 hands out committed entries that are persisted by the same Ready
    expect(rd.entries).toEqual([e(2, 2)]);
    expect(rd.committedEntries).toEqual([e(2, 2)]);
    expect(rd.mustSync).toBe(true);
    handle(rn, s, rd);

    expect(rn.propose('foo')).toBeUndefined();
    rd = rn.ready();
    expect(rd).toEqual({
      softState: undefined,
      hardState: { term: 2, vote: 1, commit: 3 },
      readStates: [],
      entries: [e(2, 3, 'foo')],
      snapshot: undefined,
      committedEntries: [e(2, 3, 'foo')],
      messages: [],
      mustSync: true,
    });
    handle(rn, s, rd);
    expect(rn.hasReady()).toBe(false);
    expect(s.lastIndex()).toBe(3);
    expect(s.hardState).toEqual({ term: 2, vote: 1, commit: 3 });
  });

  it('restarts from a persisted log and hard state (TestRawNodeRestart)', () => {
    const entries = [e(1, 1), e(1, 2, 'foo')];
    const s = storageWith([1], [], { term: 1, commit: 1 });
    s.append(entries);
    const rn = new RawNode(testConfig(1), s);
    const rd = rn.ready();
    expect(rd.hardState).toBeUndefined();
    expect(rd.committedEntries).toEqual(entries.slice(0, 1));
    expect(rd.entries).toEqual([]);
    expect(rd.mustSync).toBe(false);
    rn.advance(rd);
    expect(rn.hasReady()).toBe(false);
    const st = rn.status();
    expect([st.term, st.commit, st.applied, st.lastIndex, st.raftState]).toEqual([1, 1, 1, 2, 'StateFollower']);
  });

  it('restarts from a snapshot plus log (TestRawNodeRestartFromSnapshot)', () => {
    const s = new MemoryStorage();
    s.setHardState({ term: 1, vote: 0, commit: 3 });
    s.applySnapshot({ metadata: { index: 2, term: 1, confState: { voters: [1, 2], learners: [] } }, data: 'kv' });
    s.append([e(1, 3, 'foo')]);
    const rn = new RawNode(testConfig(1), s);
    const rd = rn.ready();
    expect(rd.hardState).toBeUndefined();
    expect(rd.committedEntries).toEqual([e(1, 3, 'foo')]);
    expect(rd.mustSync).toBe(false);
    rn.advance(rd);
    expect(rn.hasReady()).toBe(false);
    expect(rn.raft.prs.voters).toEqual([1, 2]);
  });

  it('config.applied skips already-applied entries on restart', () => {
    const s = storageWith([1], [1, 1, 1], { term: 1, commit: 3 });
    const rn = new RawNode(testConfig(1, { applied: 2 }), s);
    expect(rn.ready().committedEntries.map((x) => x.index)).toEqual([3]);
  });

  it('paginates committed entries by maxCommittedSizePerReady and applies each once', () => {
    const s = new MemoryStorage({ voters: [1], learners: [] });
    const ents = Array.from({ length: 10 }, (_, i) => e(1, i + 1, 'aaaa'));
    s.append(ents);
    s.setHardState({ term: 1, vote: 0, commit: 10 });
    const rn = new RawNode(testConfig(1, { maxSizePerMsg: 9 }), s);
    const seen: number[] = [];
    let readies = 0;
    while (rn.hasReady()) {
      const rd = rn.ready();
      readies++;
      const size = rd.committedEntries.reduce((acc, x) => acc + x.data.length, 0);
      expect(size <= 9 || rd.committedEntries.length === 1).toBe(true);
      seen.push(...rd.committedEntries.map((x) => x.index));
      rn.advance(rd);
    }
    expect(seen).toEqual(ents.map((x) => x.index));
    expect(readies).toBe(5);
  });

  it('messages and read states leave exactly once; a follower commit bump is not mustSync', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    const rn = n.node(1);
    rn.propose('x');
    const rd1 = rn.ready();
    expect(rd1.messages.length).toBe(2);
    expect(rn.ready().messages).toEqual([]);
    handle(rn, n.peer(1).storage, rd1);

    const f = n.node(2);
    const commit = f.raft.raftLog.committed;
    f.raft.raftLog.append([e(1, commit + 1)]);
    const pre = f.ready();
    handle(f, n.peer(2).storage, pre);
    f.step(msg('MsgHeartbeat', 1, 2, { term: 1, commit: commit + 1 }));
    const rd = f.ready();
    expect(rd.hardState).toEqual({ term: 1, vote: 1, commit: commit + 1 });
    expect(rd.mustSync).toBe(false);
    expect(rd.messages.map((m) => m.type)).toEqual(['MsgHeartbeatResp']);
  });

  it('a single-node ReadIndex is answered in the next Ready', () => {
    const s = new MemoryStorage({ voters: [1], learners: [] });
    const rn = new RawNode(testConfig(1), s);
    rn.campaign();
    handle(rn, s, rn.ready());
    rn.readIndex('ctx');
    const rd = rn.ready();
    expect(rd.readStates).toEqual([{ index: 1, requestCtx: 'ctx' }]);
    handle(rn, s, rd);
    expect(rn.hasReady()).toBe(false);
  });

  it('returns errors as values: dropped proposals, local messages, unknown peers', () => {
    const rn = new RawNode(testConfig(1), new MemoryStorage({ voters: [1, 2, 3], learners: [] }));
    expect(rn.propose('x')).toEqual(ErrProposalDropped);
    expect(rn.proposeConfChange({ type: 'ConfChangeAddNode', nodeId: 4 })).toEqual(ErrProposalDropped);
    expect(rn.step(msg('MsgHup', 1, 1))).toEqual(ErrStepLocalMsg);
    expect(rn.step(msg('MsgAppResp', 9, 1, { term: 1 }))).toEqual(ErrStepPeerNotFound);
    expect(ErrProposalDropped.message).toBe('raft proposal dropped');
    // a non-response message from an unknown peer is stepped (e.g. a new leader)
    expect(rn.step(msg('MsgHeartbeat', 9, 1, { term: 1 }))).toBeUndefined();
    expect(rn.raft.lead).toBe(9);
    const drops = rn.takeTraceEvents().filter((ev) => ev.type === 'drop');
    expect(drops).toEqual([
      { type: 'drop', reason: 'noLeader', msgType: 'MsgProp' },
      { type: 'drop', reason: 'noLeader', msgType: 'MsgProp' },
      { type: 'drop', reason: 'localMsg', msgType: 'MsgHup' },
      { type: 'drop', reason: 'peerNotFound', msgType: 'MsgAppResp' },
    ]);
  });

  it('status reports progress only on the leader', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.propose(1, 'x');
    const st = n.node(1).status();
    expect(st.raftState).toBe('StateLeader');
    expect(st.progress).toEqual({
      1: { match: 2, next: 3, state: 'StateReplicate', recentActive: false, pendingSnapshot: 0 },
      2: { match: 2, next: 3, state: 'StateReplicate', recentActive: true, pendingSnapshot: 0 },
      3: { match: 2, next: 3, state: 'StateReplicate', recentActive: true, pendingSnapshot: 0 },
    });
    expect(st.randomizedElectionTimeout).toBeGreaterThanOrEqual(10);
    expect(st.randomizedElectionTimeout).toBeLessThan(20);
    expect(n.node(2).status().progress).toBeUndefined();
  });

  it('records become and commit trace events', () => {
    const n = new Network([null, null, null], { preVote: true });
    for (const id of [1, 2, 3]) n.node(id).takeTraceEvents();
    n.campaign(1);
    n.propose(1, 'x');
    const ev1 = n.node(1).takeTraceEvents();
    expect(ev1.filter((x) => x.type === 'become')).toEqual([
      { type: 'become', state: 'StatePreCandidate', term: 0, lead: 0 },
      { type: 'become', state: 'StateCandidate', term: 1, lead: 0 },
      { type: 'become', state: 'StateLeader', term: 1, lead: 1 },
    ]);
    expect(ev1.filter((x) => x.type === 'commit')).toEqual([
      { type: 'commit', index: 1, term: 1 },
      { type: 'commit', index: 2, term: 1 },
    ]);
    const ev2 = n.node(2).takeTraceEvents();
    expect(ev2.filter((x) => x.type === 'become')).toEqual([{ type: 'become', state: 'StateFollower', term: 1, lead: 0 }]);
    expect(ev2.filter((x) => x.type === 'commit').map((x) => x.type === 'commit' && x.index)).toEqual([1, 2]);
    expect(n.node(1).takeTraceEvents()).toEqual([]);
  });
});

describe('restart from storage', () => {
  it('a crashed follower restarts with its term, vote and log, and catches up', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    for (let i = 0; i < 5; i++) n.propose(1, `a${i}`);
    const p2 = n.peer(2);
    const before = { term: p2.node.raft.term, vote: p2.node.raft.vote, log: p2.node.raft.raftLog.allEntries() };
    // crash: only what was persisted survives
    n.isolate(2);
    for (let i = 0; i < 3; i++) n.propose(1, `b${i}`);
    const restarted = new RawNode(testConfig(2, { applied: p2.node.raft.raftLog.applied }), p2.storage);
    p2.node = restarted;
    expect(restarted.raft.term).toBe(before.term);
    expect(restarted.raft.vote).toBe(before.vote);
    expect(restarted.raft.raftLog.allEntries()).toEqual(before.log);
    expect(restarted.raft.raftLog.committed).toBe(before.log.length);
    expect(restarted.raft.state).toBe('StateFollower');
    expect(restarted.raft.lead).toBe(0);
    n.recover();
    n.send(msg('MsgBeat', 1, 1));
    expect(p2.applied).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1', 'b2']);
    expect(restarted.raft.raftLog.committed).toBe(n.node(1).raft.raftLog.committed);
  });

  it('a restarted node does not vote twice in a term', () => {
    const s = storageWith([1, 2, 3], [], { term: 5, vote: 3 });
    const rn = new RawNode(testConfig(1), s);
    rn.step(msg('MsgVote', 2, 1, { term: 5 }));
    const rd = rn.ready();
    expect(rd.messages.map((m) => [m.type, m.to, m.reject])).toEqual([['MsgVoteResp', 2, true]]);
    rn.step(msg('MsgVote', 3, 1, { term: 5 }));
    expect(rn.ready().messages.map((m) => [m.type, m.to, m.reject])).toEqual([['MsgVoteResp', 3, false]]);
  });

  it('a restarted leader comes back as a follower of its term and the cluster keeps its data', () => {
    const n = new Network([null, null, null]);
    n.campaign(1);
    n.propose(1, 'x');
    const p1 = n.peer(1);
    p1.node = new RawNode(testConfig(1, { applied: p1.node.raft.raftLog.applied }), p1.storage);
    expect(p1.node.raft.state).toBe('StateFollower');
    expect(p1.node.raft.term).toBe(1);
    n.campaign(2);
    n.propose(2, 'y');
    for (const id of [1, 2, 3]) expect(n.peer(id).applied).toEqual(['x', 'y']);
  });
});

// A tiny deterministic driver over plain data, so a whole cluster (nodes,
// storages, in-flight messages, the driver's Rng) can be cloned mid-run.
interface Cluster {
  nodes: RawNode[];
  storages: MemoryStorage[];
  inflight: Message[];
  rng: Rng;
  log: string[];
}

function newCluster(): Cluster {
  const ids = [1, 2, 3];
  const storages = ids.map(() => new MemoryStorage({ voters: ids, learners: [] }));
  const nodes = ids.map((id, i) => new RawNode(testConfig(id, { preVote: true, checkQuorum: true, rng: new Rng(`n${id}`) }), storages[i]!));
  return { nodes, storages, inflight: [], rng: new Rng('driver'), log: [] };
}

function step(c: Cluster, round: number): void {
  // deliver (with some loss), tick, propose, process readies
  const msgs = c.inflight;
  c.inflight = [];
  for (const m of msgs) {
    if (c.rng.chance(0.05)) continue;
    c.nodes[m.to - 1]!.step(m);
  }
  for (const n of c.nodes) n.tick();
  if (round % 3 === 0) {
    const leader = c.nodes.find((n) => n.raft.state === 'StateLeader');
    if (leader) leader.propose(`p${round}`);
  }
  c.nodes.forEach((n, i) => {
    while (n.hasReady()) {
      const rd = n.ready();
      const s = c.storages[i]!;
      if (rd.snapshot !== undefined) s.applySnapshot(rd.snapshot);
      if (rd.hardState !== undefined) s.setHardState(rd.hardState);
      s.append(rd.entries);
      for (const ent of rd.committedEntries) c.log.push(`${n.raft.id}:${ent.index}:${ent.term}:${ent.data}`);
      for (const m of rd.messages) c.inflight.push(m);
      n.advance(rd);
    }
  });
  if (round % 50 === 49) {
    // compact the logs now and then so snapshots are exercised
    c.nodes.forEach((n, i) => {
      const applied = n.raft.raftLog.applied;
      const s = c.storages[i]!;
      if (applied > s.firstIndex() + 5) {
        s.createSnapshot(applied - 2, undefined, `snap@${applied - 2}`);
        s.compact(applied - 2);
      }
    });
  }
}

function fingerprint(c: Cluster): string {
  return JSON.stringify({
    status: c.nodes.map((n) => n.status()),
    logs: c.storages.map((s) => [s.firstIndex(), s.lastIndex(), s.hardState]),
    inflight: c.inflight.length,
    applied: c.log.length,
    tail: c.log.slice(-5),
  });
}

describe('snapshot-ability', () => {
  it('a clone of a running cluster (nodes + storages) continues identically', () => {
    const a = newCluster();
    for (let r = 0; r < 150; r++) step(a, r);
    expect(a.nodes.some((n) => n.raft.state === 'StateLeader')).toBe(true);
    const b = cloneState(a);
    expect(fingerprint(b)).toBe(fingerprint(a));
    // shared structure survives: each node still reads its own storage object
    expect(b.nodes[0]!.raft.raftLog.storage).toBe(b.storages[0]);
    for (let r = 150; r < 400; r++) {
      step(a, r);
      step(b, r);
    }
    expect(fingerprint(b)).toBe(fingerprint(a));
    expect(b.log).toEqual(a.log);
    expect(a.log.length).toBeGreaterThan(150);
    // the two runs are independent objects
    expect(b.nodes[0]).not.toBe(a.nodes[0]);
  });
});
