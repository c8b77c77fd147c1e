// Swarm testing (TigerBeetle's VOPR `options_swarm`): each seed first draws
// the knobs of its run — how lossy the network is, how often members crash,
// what the workload looks like — and only then a schedule. Seeds thus cover
// very different regimes instead of the same average one.
import type { Rng } from '../../sim/rng';

export type OpKind = 'put' | 'get' | 'getSerializable' | 'delete' | 'cas' | 'leaseGrant' | 'putWithLease' | 'leaseRevoke';

export const OP_KINDS: readonly OpKind[] = ['put', 'get', 'getSerializable', 'delete', 'cas', 'leaseGrant', 'putWithLease', 'leaseRevoke'];

export interface WorkloadKnobs {
  /** Closed-loop clients (etcd-client-1..clients). */
  clients: number;
  /** Keys /k/0 .. /k/{keys-1}: few keys, much contention. */
  keys: number;
  /** Think time between a reply and the client's next request, uniform in [0, thinkMaxMs]. */
  thinkMaxMs: number;
  /** Relative weights of the operation kinds. */
  weights: Record<OpKind, number>;
  /** Share of linearizable requests sent to a random member rather than the client's pick. */
  randomEndpoint: number;
  /** Share of puts and deletes asking for prev_kv. */
  prevKv: number;
  /**
   * Share of written values that are large (bigValueBytes, under etcd's
   * 1.5 MiB request limit): big entries exercise raft's MaxSizePerMsg
   * pagination and, in 'figure8' mode, open Figure 8's window (figure8.ts).
   */
  bigValues: number;
  /** Size of a big value. */
  bigValueBytes: number;
}

export interface FaultKnobs {
  /**
   * 'swarm': random partitions, crashes and slow disks at the rates below.
   * 'figure8': the targeted Figure 8 nemesis (figure8.ts) instead.
   */
  mode: 'swarm' | 'figure8';
  /** Loss and duplication on member↔member links (Raft must cope; TCP would hide it). */
  peerLoss: number;
  peerDuplicate: number;
  /** Whether peer messages may overtake each other. */
  peerReorder: boolean;
  /** One-way latency on faulted links, uniform in [minMs, maxMs]. */
  latencyMinMs: number;
  latencyMaxMs: number;
  /** Loss on workload client↔member links (a lost request or reply; never duplicated). */
  clientLoss: number;
  /** Partitions per second of fault phase, and how long each lasts. */
  partitionRate: number;
  partitionMinMs: number;
  partitionMaxMs: number;
  /** Relative weights of partition shapes. */
  shapes: Record<PartitionShape, number>;
  /** Crashes per second; a crashed member restarts after [restartMinMs, restartMaxMs]. */
  crashRate: number;
  restartMinMs: number;
  restartMaxMs: number;
  /** At most this many members down at once. */
  maxDown: number;
  /** Slow-disk episodes per second and their fsync latency bound. */
  slowDiskRate: number;
  slowDiskMaxMs: number;
  /** Probability that a crash or an isolation targets the current leader. */
  leaderBias: number;
}

export type PartitionShape = 'isolate' | 'split' | 'asymmetric' | 'bridge' | 'clientCut';

export const PARTITION_SHAPES: readonly PartitionShape[] = ['isolate', 'split', 'asymmetric', 'bridge', 'clientCut'];

export interface ClusterKnobs {
  /** Raft snapshot every this many entries, and entries kept behind it (small ⇒ snapshots get sent). */
  snapshotCount: number;
  snapshotCatchUpEntries: number;
}

export interface Knobs {
  workload: WorkloadKnobs;
  faults: FaultKnobs;
  cluster: ClusterKnobs;
}

/** A value that is 0 with probability `pZero`, else uniform in [lo, hi). */
function maybe(rng: Rng, pZero: number, lo: number, hi: number): number {
  return rng.chance(pZero) ? 0 : lo + rng.float() * (hi - lo);
}

export function drawKnobs(rng: Rng, members: number, unsafe: boolean, forceMode?: FaultKnobs['mode']): Knobs {
  const weights = {} as Record<OpKind, number>;
  for (const k of OP_KINDS) weights[k] = rng.float();
  weights.put += 1.0;
  weights.get += 0.5;
  weights.cas += 0.5;
  weights.getSerializable += 0.3;
  weights.delete += 0.2;
  weights.leaseGrant *= 0.3;
  weights.leaseRevoke *= 0.2;
  weights.putWithLease *= 0.4;

  const workload: WorkloadKnobs = {
    clients: rng.int(3, 8),
    keys: rng.int(2, 7),
    thinkMaxMs: rng.pick([5, 20, 50, 120]),
    weights,
    randomEndpoint: rng.float(),
    prevKv: rng.float(),
    bigValues: rng.chance(0.1) ? 0.03 : 0,
    bigValueBytes: 600_000,
  };

  const shapes = {} as Record<PartitionShape, number>;
  for (const s of PARTITION_SHAPES) shapes[s] = rng.chance(0.3) ? 0 : rng.float();
  shapes.isolate += 0.2;

  const latencyMaxMs = rng.pick([1.5, 5, 20, 60]);
  const drawn = rng.chance(unsafe ? 0.75 : 0.15) ? 'figure8' : 'swarm';
  const mode = forceMode ?? drawn;
  if (mode === 'figure8') {
    // Entries over raft's 1 MB MaxSizePerMsg travel alone in a MsgApp (etcd
    // accepts requests up to 1.5 MiB), so a catching-up follower acknowledges
    // an old-term entry on its own: Figure 8's window.
    // (Only while the nemesis waits for one: see Workload.bigValueGate.)
    workload.bigValues = 0.5;
    workload.bigValueBytes = 1_100_000;
  }
  const faults: FaultKnobs = {
    mode,
    peerLoss: maybe(rng, 0.5, 0, 0.08),
    peerDuplicate: 0,
    peerReorder: rng.chance(0.3),
    latencyMinMs: 0.5,
    latencyMaxMs,
    clientLoss: maybe(rng, 0.85, 0, 0.02),
    partitionRate: maybe(rng, 0.2, 0.05, 0.6),
    partitionMinMs: 200,
    partitionMaxMs: rng.pick([800, 2000, 4000]),
    shapes,
    crashRate: maybe(rng, 0.3, 0.05, 0.6),
    restartMinMs: 50,
    restartMaxMs: rng.pick([500, 1500, 3000]),
    maxDown: rng.chance(0.8) ? Math.floor((members - 1) / 2) || 1 : members,
    slowDiskRate: maybe(rng, 0.5, 0.05, 0.4),
    slowDiskMaxMs: rng.pick([20, 100, 400]),
    leaderBias: rng.float(),
  };

  // Frequent snapshots of a store full of megabyte values would cost more
  // than they test: no small snapshot interval with big values.
  const snap = rng.chance(0.25) && workload.bigValues === 0;
  const cluster: ClusterKnobs = snap
    ? { snapshotCount: rng.int(10, 120), snapshotCatchUpEntries: rng.int(5, 60) }
    : { snapshotCount: 100_000, snapshotCatchUpEntries: 5_000 };

  return { workload, faults, cluster };
}

/** A one-line summary of the knobs (for reports). */
export function describeKnobs(k: Knobs): string {
  const f = k.faults;
  const w = k.workload;
  const parts = [
    f.mode === 'figure8' ? 'Figure 8 nemesis' : '',
    `${w.clients} clients`,
    `${w.keys} keys`,
    `think≤${w.thinkMaxMs}ms`,
    w.bigValues > 0 ? `big values ${(w.bigValues * 100).toFixed(0)}% × ${w.bigValueBytes / 1000} kB` : '',
    f.peerLoss > 0 ? `loss ${(f.peerLoss * 100).toFixed(0)}%` : '',
    f.peerDuplicate > 0 ? `dup ${(f.peerDuplicate * 100).toFixed(0)}%` : '',
    f.peerReorder ? 'reorder' : '',
    `latency ${f.latencyMinMs}-${f.latencyMaxMs}ms`,
    f.mode === 'swarm' && f.partitionRate > 0 ? `partitions ${f.partitionRate.toFixed(2)}/s` : '',
    f.mode === 'swarm' && f.crashRate > 0 ? `crashes ${f.crashRate.toFixed(2)}/s (≤${f.maxDown} down)` : '',
    f.mode === 'swarm' && f.slowDiskRate > 0 ? `slow disks ≤${f.slowDiskMaxMs}ms` : '',
    k.cluster.snapshotCount < 100_000 ? `snapshot every ${k.cluster.snapshotCount} keep ${k.cluster.snapshotCatchUpEntries}` : '',
  ];
  return parts.filter((p) => p !== '').join(', ');
}
