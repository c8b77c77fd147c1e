// How an InternalRaftRequest travels in a Raft entry: as JSON (our stand-in for
// etcd's protobuf encoding of raft_internal.proto).
//
// Decoding is memoized. Inside one engine the leader's Entry objects reach every
// follower by reference (messages are not serialized), so without the memo each
// committed write would be parsed once per member, a few milliseconds apart;
// and the leader already holds the request it encoded. The memo is a small
// direct-mapped table keyed by the Entry object itself (slot = index mod size):
// bounded, nothing retained beyond the last few hundred entries. It is pure: a
// hit requires the same Entry object with the same data; what it returns is
// exactly JSON.parse(e.data) (a parse, or a JSON round trip of the encoded
// request); requests are only ever read (apply never mutates one: tested); and
// a miss (a restored snapshot, a cloned engine, an evicted slot) parses again.
// It is not engine state.
import { jsonRoundTrip } from '../../sim/jsonClone';
import type { InternalRaftRequest } from '../api/rpc';
import type { Entry } from '../raft';

const SLOTS = 256; // a power of two
const memoEntries: (Entry | undefined)[] = new Array<Entry | undefined>(SLOTS).fill(undefined);
const memoData: string[] = new Array<string>(SLOTS).fill('');
const memoReqs: (InternalRaftRequest | undefined)[] = new Array<InternalRaftRequest | undefined>(SLOTS).fill(undefined);

function remember(e: Entry, req: InternalRaftRequest): void {
  const slot = e.index & (SLOTS - 1);
  memoEntries[slot] = e;
  memoData[slot] = e.data;
  memoReqs[slot] = req;
}

export function encodeRequest(req: InternalRaftRequest): string {
  return JSON.stringify(req);
}

/**
 * The proposer's shortcut: `e` was just appended with data = encodeRequest(req),
 * so its decoded form is a JSON round trip of req (a copy: the caller keeps req).
 */
export function rememberEncoded(e: Entry, req: InternalRaftRequest): void {
  remember(e, jsonRoundTrip(req));
}

/** The request in a normal entry's data (shared between members: treat as read-only). */
export function decodeRequest(e: Entry): InternalRaftRequest {
  const slot = e.index & (SLOTS - 1);
  if (memoEntries[slot] === e && memoData[slot] === e.data) return memoReqs[slot]!;
  const req = JSON.parse(e.data) as InternalRaftRequest;
  remember(e, req);
  return req;
}
