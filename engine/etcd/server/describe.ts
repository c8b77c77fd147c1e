// One-line summaries of Raft log entries for the log strip ("PUT /foo").
import { binaryToUtf8 } from '../api/bytes';
import type { InternalRaftRequest } from '../api/rpc';
import { decodeEntryData } from './requestCodec';
import type { ConfChange, Entry } from '../raft';
import type { RaftLogEntryView } from '../../facade/types';

export function describeEntry(e: Entry): RaftLogEntryView {
  if (e.type === 'EntryConfChange') {
    const cc = safeParse<ConfChange>(e.data);
    const what = cc ? `${cc.type.replace('ConfChange', '')} ${cc.nodeId}` : 'conf change';
    return { index: e.index, term: e.term, kind: 'conf', summary: what };
  }
  if (e.data === '') return { index: e.index, term: e.term, kind: 'empty', summary: '(empty entry of a new leader)' };
  const req = safeDecode(e.data);
  return { index: e.index, term: e.term, kind: 'normal', summary: req ? summarize(req) : 'request' };
}

function summarize(r: InternalRaftRequest): string {
  const k = (s: string) => clip(binaryToUtf8(s));
  if (r.put) return `PUT ${k(r.put.key)}`;
  if (r.deleteRange) return `DELETE ${k(r.deleteRange.key)}${r.deleteRange.rangeEnd ? ' (range)' : ''}`;
  if (r.txn) return `TXN ${r.txn.compare?.length ?? 0} cmp`;
  if (r.compaction) return `COMPACT ${r.compaction.revision}`;
  if (r.leaseGrant) return `LEASE GRANT ${(r.leaseGrant.ID ?? 0).toString(16)}`;
  if (r.leaseRevoke) return `LEASE REVOKE ${r.leaseRevoke.ID.toString(16)}`;
  if (r.leaseCheckpoint) return 'LEASE CHECKPOINT';
  if (r.range) return `RANGE ${k(r.range.key)}`;
  return 'request';
}

function clip(s: string): string {
  return s.length > 32 ? `${s.slice(0, 31)}…` : s;
}

function safeDecode(data: string): InternalRaftRequest | null {
  try {
    return decodeEntryData(data);
  } catch {
    return null;
  }
}

function safeParse<T>(s: string): T | null {
  try {
    return JSON.parse(s) as T;
  } catch {
    return null;
  }
}
