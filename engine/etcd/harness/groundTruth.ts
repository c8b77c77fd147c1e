// Ground truth for the checkers: the committed log, replayed in index order
// through a fresh etcd state machine, gives every revision's events without
// trusting any member's store (a member's bug then shows as a mismatch with
// this history instead of agreeing with itself).
import type { InternalRaftRequest, KeyValue as RpcKeyValue } from '../api/rpc';
import { isEtcdError } from '../api/errors';
import { EtcdStateMachine } from '../mvcc/applier';
import type { Entry } from '../raft';
import { decodeEntryData } from '../server/requestCodec';
import type { RevisionEvents } from '../../sim/checkers/etcdTypes';
import { toCheckerKv } from './workload';

/** Parsed requests by entry (entries are immutable and shared with the engine; the replay runs twice a seed). */
const parsed = new WeakMap<Entry, InternalRaftRequest>();

function decode(e: Entry): InternalRaftRequest {
  let req = parsed.get(e);
  if (!req) {
    req = decodeEntryData(e.data);
    parsed.set(e, req);
  }
  return req;
}

export interface GroundTruth {
  /** Every revision that changed something, in order, with its events. */
  history: RevisionEvents[];
  /** The store's revision after the last entry. */
  revision: number;
  /** Every live key after the last entry (sorted by key). */
  kvs: RpcKeyValue[];
  /** The state machine itself (for comparisons with members). */
  sm: EtcdStateMachine;
  /** Normal entries replayed. */
  entries: number;
}

/**
 * Replays `log` (index → entry; indexes must be contiguous from 1 for a
 * complete history). `appliedAt` gives each index's commit time, used as the
 * revision's `committedAt`.
 */
export function replayCommitted(log: ReadonlyMap<number, Entry>, appliedAt: ReadonlyMap<number, number>): GroundTruth {
  const sm = new EtcdStateMachine({ clusterId: 1, memberId: 1 });
  const history: RevisionEvents[] = [];
  const indexes = [...log.keys()].sort((a, b) => a - b);
  let entries = 0;
  for (const i of indexes) {
    const e = log.get(i)!;
    if (e.type !== 'EntryNormal' || e.data === '') continue;
    const req = decode(e);
    const at = appliedAt.get(i) ?? 0;
    const r = sm.apply(req, e.term, at);
    entries++;
    if (r.events.length === 0) continue;
    const rec: RevisionEvents = {
      revision: r.events[0]!.kv.modRevision,
      events: r.events.map((ev) => (ev.type === 'PUT' ? { type: 'PUT', kv: toCheckerKv(ev.kv) } : { type: 'DELETE', kv: toCheckerKv(ev.kv) })),
      committedAt: at,
    };
    history.push(rec);
  }
  const all = sm.read({ key: '\0', rangeEnd: '\0', serializable: true });
  const kvs = isEtcdError(all) ? [] : all.kvs;
  return { history, revision: sm.currentRevision(), kvs, sm, entries };
}
