// Test support (not used by the engine): builds configs, storages with given
// logs, and a tiny synchronous network of RawNodes modelled on upstream's
// raft_test.go `network` (send = breadth-first delivery; drop/cut/isolate/ignore).
// Every delivered message is followed by a full Ready cycle on the receiver:
// persist snapshot/hard state/entries, apply committed entries (conf changes
// via applyConfChange), collect messages, advance.
import { Rng } from '../../sim/rng';
import { decodeConfChange } from './confChange';
import { Raft } from './raft';
import { RawNode } from './rawNode';
import { MemoryStorage } from './storage';
import type { Config, Entry, HardState, Message, MessageType, RaftId, ReadState } from './types';
import { isLocalMsg, newMessage } from './util';

export function testConfig(id: RaftId, overrides: Partial<Config> = {}): Config {
  return {
    id,
    electionTick: 10,
    heartbeatTick: 1,
    applied: 0,
    maxSizePerMsg: Infinity,
    maxInflightMsgs: 256,
    checkQuorum: false,
    preVote: false,
    rng: new Rng(1000 + id),
    ...overrides,
  };
}

/** Entries with indexes 1.. and the given terms (upstream's ents helpers). */
export function entsWithTerms(...terms: number[]): Entry[] {
  return terms.map((term, i) => ({ term, index: i + 1, type: 'EntryNormal' as const, data: '' }));
}

/** A storage holding the given voters, log (terms at indexes 1..) and hard state. */
export function storageWith(voters: RaftId[], terms: number[] = [], hs?: Partial<HardState>, learners: RaftId[] = []): MemoryStorage {
  const s = new MemoryStorage({ voters, learners });
  s.append(entsWithTerms(...terms));
  if (hs) s.setHardState({ term: hs.term ?? 0, vote: hs.vote ?? 0, commit: hs.commit ?? 0 });
  return s;
}

export function msg(type: MessageType, from: RaftId, to: RaftId, fields: Partial<Message> = {}): Message {
  return { ...newMessage(type, to, from), ...fields };
}

export interface Peer {
  id: RaftId;
  node: RawNode;
  storage: MemoryStorage;
  /** Data of applied normal entries, in order (empty entries skipped). */
  applied: string[];
  /** (index, term) of every applied entry, including empty ones. */
  appliedEntries: { index: number; term: number }[];
  readStates: ReadState[];
}

/** bootstrap: start from an empty storage with RawNode.bootstrap(peers), as etcd's StartNode. */
export type PeerSpec = { storage?: MemoryStorage; config?: Partial<Config>; bootstrap?: RaftId[] } | 'blackhole' | null;

export class Network {
  peers = new Map<RaftId, Peer>();
  blackholes = new Set<RaftId>();
  /** "from-to" -> drop probability */
  dropm = new Map<string, number>();
  ignorem = new Set<MessageType>();
  rng = new Rng(7);
  /** Every message that was delivered (after filtering), in order. */
  delivered: Message[] = [];
  recordDelivered = false;
  /** Returns false to drop a message (upstream msgHook). */
  msgHook: ((m: Message) => boolean) | undefined = undefined;

  /** Peers get ids 1..n. A null spec makes a fresh node whose storage knows all ids as voters. */
  constructor(specs: PeerSpec[], common: Partial<Config> = {}) {
    const ids = specs.map((_, i) => i + 1);
    specs.forEach((spec, i) => {
      const id = i + 1;
      if (spec === 'blackhole') {
        this.blackholes.add(id);
        return;
      }
      const storage =
        spec?.storage ?? (spec?.bootstrap ? new MemoryStorage() : new MemoryStorage({ voters: ids, learners: [] }));
      const node = new RawNode(testConfig(id, { ...common, ...(spec?.config ?? {}) }), storage);
      if (spec?.bootstrap) node.bootstrap(spec.bootstrap);
      this.peers.set(id, { id, node, storage, applied: [], appliedEntries: [], readStates: [] });
      this.drain(id); // flush the initial Ready (nothing to send yet)
    });
  }

  peer(id: RaftId): Peer {
    const p = this.peers.get(id);
    if (!p) throw new Error(`no peer ${id}`);
    return p;
  }

  node(id: RaftId): RawNode {
    return this.peer(id).node;
  }

  /** Adds a node (e.g. before a conf change adds it) with an empty storage unless one is given. */
  addPeer(id: RaftId, storage = new MemoryStorage(), config: Partial<Config> = {}): Peer {
    const node = new RawNode(testConfig(id, config), storage);
    const p: Peer = { id, node, storage, applied: [], appliedEntries: [], readStates: [] };
    this.peers.set(id, p);
    return p;
  }

  /** Runs Ready cycles on a node until it has nothing left; returns the messages it produced. */
  drain(id: RaftId): Message[] {
    const p = this.peer(id);
    const out: Message[] = [];
    while (p.node.hasReady()) {
      const rd = p.node.ready();
      if (rd.snapshot !== undefined) {
        p.storage.applySnapshot(rd.snapshot);
        p.applied = rd.snapshot.data === '' ? [] : (JSON.parse(rd.snapshot.data as string) as string[]);
        p.appliedEntries = [];
      }
      if (rd.hardState !== undefined) p.storage.setHardState(rd.hardState);
      p.storage.append(rd.entries);
      for (const e of rd.committedEntries) {
        p.appliedEntries.push({ index: e.index, term: e.term });
        if (e.type === 'EntryConfChange') p.node.applyConfChange(decodeConfChange(e.data));
        else if (e.data !== '') p.applied.push(e.data);
      }
      for (const rs of rd.readStates) p.readStates.push(rs);
      for (const m of rd.messages) out.push(m);
      p.node.advance(rd);
    }
    return out;
  }

  /** Delivers messages breadth-first until the network is quiet. */
  send(...msgs: Message[]): void {
    let queue = msgs;
    while (queue.length > 0) {
      const next: Message[] = [];
      for (const m of queue) {
        if (this.blackholes.has(m.to)) continue;
        const p = this.peers.get(m.to);
        if (!p) continue;
        if (this.recordDelivered) this.delivered.push(m);
        if (isLocalMsg(m.type)) p.node.raft.step(m);
        else p.node.step(m);
        for (const out of this.filter(this.drain(m.to))) next.push(out);
      }
      queue = next;
    }
  }

  /** Shorthand: MsgHup to a node. */
  campaign(id: RaftId): void {
    this.send(msg('MsgHup', id, id));
  }

  propose(id: RaftId, data: string): void {
    this.send(msg('MsgProp', id, id, { entries: [{ term: 0, index: 0, type: 'EntryNormal', data }] }));
  }

  /** Ticks a node once and delivers what it sends. */
  tick(id: RaftId, n = 1): void {
    for (let i = 0; i < n; i++) {
      this.node(id).tick();
      this.send(...this.filter(this.drain(id)));
    }
  }

  filter(msgs: Message[]): Message[] {
    const out: Message[] = [];
    for (const m of msgs) {
      if (this.ignorem.has(m.type)) continue;
      if (m.type === 'MsgHup') throw new Error('unexpected msgHup');
      const perc = this.dropm.get(`${m.from}-${m.to}`) ?? 0;
      if (perc > 0 && (perc >= 1 || this.rng.chance(perc))) continue;
      if (this.msgHook !== undefined && !this.msgHook(m)) continue;
      out.push(m);
    }
    return out;
  }

  drop(from: RaftId, to: RaftId, perc: number): void {
    this.dropm.set(`${from}-${to}`, perc);
  }

  cut(a: RaftId, b: RaftId): void {
    this.drop(a, b, 1);
    this.drop(b, a, 1);
  }

  isolate(id: RaftId): void {
    for (const other of [...this.peers.keys(), ...this.blackholes]) {
      if (other !== id) this.cut(id, other);
    }
  }

  ignore(t: MessageType): void {
    this.ignorem.add(t);
  }

  recover(): void {
    this.dropm.clear();
    this.ignorem.clear();
  }
}

/** A raft over `storage` with the given ticks (upstream newTestRaft). */
export function newTestRaft(id: RaftId, electionTick: number, heartbeatTick: number, storage: MemoryStorage, o: Partial<Config> = {}): Raft {
  return new Raft(testConfig(id, { electionTick, heartbeatTick, ...o }), storage);
}

/** A fresh storage whose initial configuration has these voters. */
export function storageOf(...ids: RaftId[]): MemoryStorage {
  return new MemoryStorage({ voters: ids, learners: [] });
}

/** Takes the messages a raft queued (upstream readMessages). */
export function readMessages(r: Raft): Message[] {
  const m = r.msgs;
  r.msgs = [];
  return m;
}

/** Persists what raft has unstable, then takes and applies its committed entries (upstream nextEnts). */
export function nextEnts(r: Raft, s: MemoryStorage): Entry[] {
  s.append(r.raftLog.unstableEntries());
  r.raftLog.stableTo(r.raftLog.lastIndex(), r.raftLog.lastTerm());
  const ents = r.raftLog.nextEnts();
  r.raftLog.appliedTo(r.raftLog.committed);
  return ents;
}
