// How an InternalRaftRequest travels in a Raft entry: as JSON (our stand-in for
// etcd's protobuf encoding of raft_internal.proto).
//
// Decoding is memoized. Inside one engine the leader's Entry objects reach every
// follower by reference (messages are not serialized), so without the memo each
// committed write would be parsed once per member, a few milliseconds apart.
// The memo is a small direct-mapped table keyed by the Entry object itself
// (slot = index mod size): bounded, nothing retained beyond the last few
// hundred entries. It is pure: a hit requires the same Entry object with the
// same data, the parsed request is only ever read (apply never mutates a
// request: tested), and a miss (a restored snapshot, a cloned engine, an
// evicted slot) simply parses again. It is not engine state.
import type { InternalRaftRequest } from '../api/rpc';
import type { Entry } from '../raft';

const SLOTS = 256; // a power of two
const memoEntries: (Entry | undefined)[] = new Array<Entry | undefined>(SLOTS).fill(undefined);
const memoData: string[] = new Array<string>(SLOTS).fill('');
const memoReqs: (InternalRaftRequest | undefined)[] = new Array<InternalRaftRequest | undefined>(SLOTS).fill(undefined);

export function encodeRequest(req: InternalRaftRequest): string {
  return JSON.stringify(req);
}

/** The request in a normal entry's data (shared between members: treat as read-only). */
export function decodeRequest(e: Entry): InternalRaftRequest {
  const slot = e.index & (SLOTS - 1);
  if (memoEntries[slot] === e && memoData[slot] === e.data) return memoReqs[slot]!;
  const req = JSON.parse(e.data) as InternalRaftRequest;
  memoEntries[slot] = e;
  memoData[slot] = e.data;
  memoReqs[slot] = req;
  return req;
}
