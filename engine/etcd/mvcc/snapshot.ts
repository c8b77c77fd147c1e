// The replicated state as JSON, for Raft snapshots: what etcd ships as its
// bolt db file — the key bucket (every record since the last compaction),
// the compaction revision, and the leases (ID and TTL; remaining TTLs are
// not persisted by default in v3.5). Keys and values are binary strings;
// JSON escapes the control bytes.
import type { Lessor } from '../lease/lessor';
import type { KvRecord, MvccStore } from './kvstore';
import { packRev, revMain, revSub } from './revision';

export const SnapshotFormat = 'kubeglass/etcd-snapshot@1';

/** [main, sub, tombstone 0|1, key, createRevision, modRevision, version, lease, value] */
type RecordRow = [number, number, 0 | 1, string, number, number, number, number, string];

interface SnapshotJson {
  format: typeof SnapshotFormat;
  currentRev: number;
  compactRev: number;
  kvs: RecordRow[];
  leases: Array<[number, number]>;
}

export interface DecodedSnapshot {
  currentRev: number;
  compactRev: number;
  records: KvRecord[];
  leases: Array<{ ID: number; TTL: number }>;
}

export function encodeSnapshot(kv: MvccStore, lessor: Lessor): string {
  const kvs: RecordRow[] = kv.records().map((r) => [
    revMain(r.rev),
    revSub(r.rev),
    r.tombstone ? 1 : 0,
    r.kv.key,
    r.kv.createRevision,
    r.kv.modRevision,
    r.kv.version,
    r.kv.lease,
    r.kv.value,
  ]);
  const leases: Array<[number, number]> = [...lessor.leaseMap.values()]
    .sort((a, b) => a.ID - b.ID)
    .map((l) => [l.ID, l.ttl]);
  const snap: SnapshotJson = { format: SnapshotFormat, currentRev: kv.rev(), compactRev: kv.firstRev(), kvs, leases };
  return JSON.stringify(snap);
}

export function decodeSnapshot(data: string): DecodedSnapshot {
  const snap = JSON.parse(data) as SnapshotJson;
  if (snap?.format !== SnapshotFormat) throw new Error('etcd: not an etcd snapshot');
  const records: KvRecord[] = snap.kvs.map(([main, sub, tomb, key, createRevision, modRevision, version, lease, value]) => ({
    rev: packRev(main, sub),
    kv: { key, createRevision, modRevision, version, value, lease },
    tombstone: tomb === 1,
  }));
  return {
    currentRev: snap.currentRev,
    compactRev: snap.compactRev,
    records,
    leases: snap.leases.map(([ID, TTL]) => ({ ID, TTL })),
  };
}
