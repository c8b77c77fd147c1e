// The replicated state for Raft snapshots: what etcd ships as its bolt db
// file — the key bucket (every record since the last compaction), the
// compaction revision, and the leases (ID and TTL; remaining TTLs are not
// persisted by default in v3.5).
//
// The key bucket is the store's own records, shared rather than serialised:
// a record is never changed once written (compaction drops records, it does
// not edit them), so a copy of the array is the db as of the snapshot, as
// bolt's pages on disk are. Serialising it would cost memory and CPU per
// snapshot and cannot hold a big cluster's store at all (a JS string stops at
// ~512 MiB, which 25,000 pods' history passes).
import type { SnapshotData } from '../raft/types';
import type { Lessor } from '../lease/lessor';
import type { KvRecord, MvccStore } from './kvstore';

export const SnapshotFormat = 'kubeglass/etcd-snapshot@2';

export interface EtcdSnapshot {
  format: typeof SnapshotFormat;
  currentRev: number;
  compactRev: number;
  /** The key bucket in revision order (read only: shared with the store it came from). */
  records: readonly KvRecord[];
  /** [ID, TTL] by ID. */
  leases: ReadonlyArray<readonly [number, number]>;
}

export interface DecodedSnapshot {
  currentRev: number;
  compactRev: number;
  /** A fresh array the restoring store may append to. */
  records: KvRecord[];
  leases: Array<{ ID: number; TTL: number }>;
}

export function encodeSnapshot(kv: MvccStore, lessor: Lessor): EtcdSnapshot {
  const leases = [...lessor.leaseMap.values()].sort((a, b) => a.ID - b.ID).map((l) => [l.ID, l.ttl] as const);
  return { format: SnapshotFormat, currentRev: kv.rev(), compactRev: kv.firstRev(), records: kv.records().slice(), leases };
}

export function isEtcdSnapshot(data: SnapshotData): data is EtcdSnapshot {
  return typeof data === 'object' && data !== null && (data as { format?: unknown }).format === SnapshotFormat;
}

export function decodeSnapshot(data: SnapshotData): DecodedSnapshot {
  if (!isEtcdSnapshot(data)) throw new Error('etcd: not an etcd snapshot');
  return {
    currentRev: data.currentRev,
    compactRev: data.compactRev,
    records: data.records.slice(),
    leases: data.leases.map(([ID, TTL]) => ({ ID, TTL })),
  };
}
