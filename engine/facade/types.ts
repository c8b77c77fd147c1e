// The facade's public types: everything hosts (the browser worker, the headless
// server, tests) and the UI may see of the engine. Plain data only.
import type { ActorId } from '../sim/actor';
import type { ApiRequest } from '../apiserver/types';

/** Time in virtual milliseconds since the simulation started. */
export type VirtualMs = number;

export interface EngineOptions {
  seed: number;
  /**
   * Wall ms (Unix) that virtual time 0 stands for: object timestamps read as
   * that instant plus the virtual time. Hosts choose it when they create a
   * simulation (the server: its start; the page: its creation) and it is part
   * of the scenario a replay needs; 2025-01-01T00:00:00Z when absent.
   */
  epochMs?: number;
  /** 1, 3 or 5 etcd members. */
  etcdMembers: number;
  /** Raft snapshot every this many applied entries (etcd v3.5 default 100,000; small for demos). */
  snapshotCount?: number;
  /** Entries kept behind a snapshot for slow followers (etcd v3.5: 5,000). */
  snapshotCatchUpEntries?: number;
  /** Extra etcd clients `etcd-client-1..N` (the safety harness's workload); default 0. */
  extraClients?: number;
  /** Test-only: inject the classic "commit an older-term entry by counting replicas" bug. */
  unsafeCommitPreviousTermEntries?: boolean;
  /** Run the Kubernetes control plane on top of etcd (kube-apiserver-0 and an API client `kubectl-0`). */
  controlPlane?: boolean;
  /** kube-apiserver replicas (kube-apiserver-0..N-1), all on the same etcd; default 1. */
  apiServers?: number;
  /** The scenario's users: bearer tokens or client-certificate CNs, and their groups. */
  users?: ScenarioUser[];
  /** --max-requests-inflight / --max-mutating-requests-inflight (400 / 200; small for demos). */
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  /** Worker nodes, each a kubelet with a fake container runtime (node-1..node-N: 4 CPU, 16Gi, 110 pods); default 0. */
  nodes?: number;
  /** kube-controller-manager replicas (kube-controller-manager-0..N-1, leader-elected); default 1. */
  controllerManagers?: number;
  /**
   * kube-controller-manager's --kube-api-qps / --kube-api-burst, the token bucket of
   * each of its clients (20 / 30 upstream). Large-cluster runs raise them as
   * upstream's scale tests do (100 / 100 at 5,000 nodes).
   */
  controllerManagerKubeApi?: { qps: number; burst: number };
  /** kube-scheduler replicas (kube-scheduler-0..N-1, leader-elected); default 1, 0 for none. */
  schedulers?: number;
  /** The KubeSchedulerConfiguration (YAML or JSON) the schedulers start with; upstream's defaults when absent. */
  schedulerConfig?: string;
  /** The CSI hostpath driver with its external-provisioner (`csi-hostpathplugin-0`) and the default StorageClass `standard`; default true. */
  storageDriver?: boolean;
  /** metrics-server (`metrics-server-0`) behind the APIService v1beta1.metrics.k8s.io, for `kubectl top` and the HPA; default true. */
  metricsServer?: boolean;
  /** kubeadm's CoreDNS add-on (the coredns Deployment behind the kube-dns Service, 10.96.0.10); default true. */
  clusterDns?: boolean;
}

/** A person (or robot) of the scenario, as the authenticator knows them. */
export interface ScenarioUser {
  name: string;
  groups?: string[];
  /** Bearer token (a static token file entry). */
  token?: string;
  /** Client certificate: CN = name, O = groups (presented by the simulated client). */
  certificate?: boolean;
}

/** Faults, as the control API and the UI express them (server/README.md lists them). */
export type Fault =
  /** The component's process stops; its durable state stays on disk. */
  | { action: 'crash'; target: ActorId }
  | { action: 'restart'; target: ActorId }
  | { action: 'partition'; groups: ActorId[][] }
  | { action: 'block'; from: ActorId; to: ActorId }
  /** Without `id`: the whole network heals (partitions, blocks, cuts, node partitions, link loss). With `id`: that active fault ends. */
  | { action: 'heal'; id?: number }
  /** Every active fault ends: the network heals, crashed components restart, disks and lost nodes come back. */
  | { action: 'heal-all' }
  | { action: 'slow-disk'; target: ActorId; fsyncMs: number }
  | { action: 'link'; from?: ActorId; to?: ActorId; loss?: number; duplicate?: number; reorder?: boolean; minMs?: number; maxMs?: number }
  /** The node's machine is gone: its kubelet and containers stop and nothing reaches it, until healed (it boots again). */
  | { action: 'node-loss'; target: ActorId }
  /** The node can no longer reach any kube-apiserver (nor they it); its kubelet keeps running its pods. */
  | { action: 'partition-node'; target: ActorId }
  /** The kubelet process restarts (a crash, then a start); what survives is what the kubelet keeps durable (its containers). */
  | { action: 'kubelet-restart'; target: ActorId }
  /** No traffic either way between two ends, each a component name or a kind naming all of that kind (`etcd`, `kube-apiserver`, …). */
  | { action: 'cut'; from: string; to: string };

/** A fault still in effect (Engine.activeFaults): the faults list and the map show these. */
export interface ActiveFault {
  id: number;
  /** Virtual time it began. */
  since: VirtualMs;
  fault: Fault;
  /** One line for people, e.g. "node-1 lost: the machine is gone (kubelet and containers stopped, unreachable)". */
  summary: string;
  /** The components it affects. */
  targets: ActorId[];
}

/** A KV/lease request from the playground's own etcd client (`etcd-client-0`). */
export type EtcdOp =
  | { op: 'put'; key: string; value: string; lease?: number; prevKv?: boolean }
  | { op: 'get'; key: string; rangeEnd?: string; prefix?: boolean; serializable?: boolean; revision?: number; limit?: number; keysOnly?: boolean; countOnly?: boolean }
  | { op: 'delete'; key: string; rangeEnd?: string; prefix?: boolean; prevKv?: boolean }
  | { op: 'compact'; revision: number }
  | { op: 'leaseGrant'; ttl: number; id?: number }
  | { op: 'leaseRevoke'; id: number }
  | { op: 'leaseKeepAlive'; id: number }
  | { op: 'transferLeader'; to: ActorId }
  /** `etcdctl member add`, then start the new member (etcd-N) joining the existing cluster. */
  | { op: 'memberAdd'; /** Filled in by the engine: the new member's name. */ name?: ActorId }
  | { op: 'memberRemove'; name: ActorId };

/**
 * Every user action enters the engine as one of these and is recorded with the
 * virtual time and event count at which it ran: seed + command log = the session.
 */
export type Command =
  | { type: 'fault'; fault: Fault }
  | { type: 'speed'; speed: number }
  | { type: 'etcd'; client?: ActorId; request: unknown /* an etcd api request, see engine/etcd/api */ }
  | { type: 'etcdOp'; op: EtcdOp }
  | { type: 'watch'; key: string; rangeEnd?: string; prefix?: boolean; startRevision?: number; prevKv?: boolean }
  | { type: 'cancelWatch'; watchId: number }
  /** Client load from `etcd-benchmark-0` (like etcd's `benchmark put`): puts per second; 0 stops. */
  | { type: 'load'; rate: number; keySpace?: number; valueSize?: number }
  /** An HTTP request to kube-apiserver from an API client (kubectl-0 unless `client` says otherwise). */
  | { type: 'api'; request: ApiRequest; client?: ActorId }
  /** Closes a streaming API call (a watch). */
  | { type: 'apiCancel'; call: number; client?: ActorId }
  /** Data on an open stream of a call (the stdin of `kubectl exec -i`). */
  | { type: 'apiSend'; call: number; data: string; client?: ActorId }
  /** Replaces the running KubeSchedulerConfiguration of every kube-scheduler replica (YAML or JSON). */
  | { type: 'schedulerConfig'; text: string };

export interface RecordedCommand {
  /** Virtual time at which it ran. */
  t: VirtualMs;
  /** Events processed before it ran. */
  step: number;
  command: Command;
}

export interface ComponentView {
  name: ActorId;
  kind: string;
  up: boolean;
}

export interface EngineState {
  virtualTime: VirtualMs;
  seed: number;
  /** Wall ms of virtual time 0 (EngineOptions.epochMs). */
  epochMs: number;
  speed: number;
  components: ComponentView[];
  /** `count:hash` over the whole trace so far; equal runs have equal digests. */
  traceDigest: string;
  events: number;
}

export type RaftRole = 'leader' | 'follower' | 'candidate' | 'pre-candidate';

export interface RaftLogEntryView {
  index: number;
  term: number;
  /** 'empty' is the no-op a new leader appends; 'conf' a membership change. */
  kind: 'normal' | 'empty' | 'conf';
  /** e.g. "PUT /foo", "DELETE /foo", "LEASE GRANT 7587…", "TXN". */
  summary: string;
}

export interface EtcdMemberView {
  name: ActorId;
  raftId: number;
  /** etcd's member id as hex. */
  memberId: string;
  up: boolean;
  role: RaftRole | 'down';
  term: number;
  /** Actor name voted for in `term`, or null. */
  vote: ActorId | null;
  leader: ActorId | null;
  commitIndex: number;
  appliedIndex: number;
  lastLogIndex: number;
  /** First index still in the log; earlier entries are in the snapshot. */
  firstLogIndex: number;
  snapshotIndex: number;
  /** Ticks since the last election-timer reset, and the (randomized) timeout. */
  electionElapsed: number;
  electionTimeout: number;
  fsyncMs: number;
  /** The tail of the log (at most 40 entries). */
  log: RaftLogEntryView[];
  /** KV revision applied on this member. */
  revision: number;
  /** Leader only: each follower's match/next and progress state. */
  progress?: Record<ActorId, { match: number; next: number; state: 'StateProbe' | 'StateReplicate' | 'StateSnapshot' }>;
}

export interface MessageInFlightView {
  msgId: number;
  from: ActorId;
  to: ActorId;
  /** Raft message type (MsgApp, MsgVote...) or client request type. */
  type: string;
  sentAt: VirtualMs;
  arriveAt: VirtualMs;
  term?: number;
  /** Number of entries carried (MsgApp), or reject flag text. */
  detail?: string;
}

export interface KvEntryView {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  version: number;
  lease: number;
}

export interface EtcdClusterView {
  members: EtcdMemberView[];
  inFlight: MessageInFlightView[];
  /** The applied key/value state of the member `from` (the leader, else the first up member). */
  /** `keys` holds at most the first KV_VIEW_LIMIT keys in key order; `total` counts them all. */
  kv: { from: ActorId | null; revision: number; compactRevision: number; keys: KvEntryView[]; total: number };
  partition: ActorId[][];
  blocked: [ActorId, ActorId][];
}

export interface TraceRecordView {
  n: number;
  t: VirtualMs;
  kind: string;
  from?: ActorId;
  to?: ActorId;
  type?: string;
  msgId?: number;
  reason?: string;
  detail?: string;
}

/** Results of the playground's etcd client requests. */
export interface EtcdOpResult {
  id: number;
  op: EtcdOp;
  issuedAt: VirtualMs;
  doneAt?: VirtualMs;
  /** Pending until doneAt is set. */
  ok?: boolean;
  /** Human-readable result, like etcdctl prints it. */
  text?: string;
  response?: unknown;
  error?: string;
}

export interface WatchView {
  watchId: number;
  key: string;
  rangeEnd?: string;
  events: { revision: number; type: 'PUT' | 'DELETE'; key: string; value: string; prevValue?: string; at: VirtualMs }[];
  canceled?: string;
}

/** The scheduler panel's summary (Engine.schedulerView). */
export interface SchedulerView {
  replicas: { name: ActorId; up: boolean; leader: boolean; synced: boolean }[];
  /** The lease holder's identity ('' before the first election). */
  leader: string;
  stats: { cycles: number; scheduled: number; unschedulable: number; errors: number; bindings: number; bindFailures: number } | null;
  queue: { active: number; backoff: number; unschedulable: number; gated: number } | null;
  nodes: number;
  recent: { cycle: number; t: number; pod: string; profile: string; outcome: string; selected: string; message: string; evaluated: number; feasible: number }[];
}

/** kube-controller-manager's modular controllers: each one's work queue and recent reconciles (Engine.controllersView). */
export interface ControllersView {
  controllers: {
    name: string;
    informers: string[];
    /** workqueue_depth */
    depth: number;
    adds: number;
    retries: number;
    /** Mean time a key waited in the queue, and mean sync time, in virtual ms. */
    meanQueueMs: number;
    meanWorkMs: number;
    /** Newest last; `ref` is the key's object, for the inspector (the controller's informer of the key's scope). */
    recent: { t: number; key: string; what: string; ref?: { group: string; resource: string; namespace?: string; name: string } }[];
  }[];
}

/** Nodes and their pods as the API server holds them (Engine.clusterView): what the cluster map draws. */
export interface ClusterView {
  nodes: {
    name: string;
    /** Ready condition: True / False / Unknown ('' when the node has none). */
    ready: string;
    unschedulable: boolean;
    taints: string[];
    labels: Record<string, string>;
    /** millicores and bytes */
    allocatable: { cpu: number; memory: number; pods: number };
    requested: { cpu: number; memory: number };
  }[];
  pods: {
    namespace: string;
    name: string;
    node: string;
    phase: string;
    ready: boolean;
    /** The reason a container waits or ended, when not running (ContainerCreating, CrashLoopBackOff, ...). */
    reason: string;
    terminating: boolean;
    owner: string;
  }[];
  /** Control-plane components and whether each is up (leaders marked). */
  components: { name: string; kind: string; up: boolean; leader: boolean }[];
}
