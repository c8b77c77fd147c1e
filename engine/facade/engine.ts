// The engine facade: one simulated cluster, driven by recorded commands.
// Hosts (browser worker, headless server, tests) create an Engine, feed it
// commands and time, and read views. A session is fully described by its
// options + command log; snapshot() captures the whole state as plain data.
import type { ActorId } from '../sim/actor';
import { Simulation } from '../sim/kernel';
import { jsonRoundTrip } from '../sim/jsonClone';
import { cloneState, fromPlain, toPlain, type Plain } from '../sim/serial';
import { binaryToUtf8, utf8ToBinary } from '../etcd/api/bytes';
import { prefixEnd, type KeyValue } from '../etcd/api/rpc';
import '../etcd/client/benchmark'; // registers the etcd-benchmark actor kind
import type { BenchmarkStats, EtcdBenchmark } from '../etcd/client/benchmark';
import { DEFAULT_CLIENT, EtcdClient, type CallRecord } from '../etcd/client/client';
import type { RequestBodies, RequestType } from '../etcd/server/messages';
import { ETCD_KIND, EtcdMember, memberIdOf, memberName, raftIdOf, type MemberConfig, type MemberDurable } from '../etcd/server/member';
import { describeEntry } from '../etcd/server/describe';
import type {
  ActiveFault,
  Command,
  EngineOptions,
  EngineState,
  EtcdClusterView,
  EtcdMemberView,
  EtcdOp,
  EtcdOpResult,
  MessageInFlightView,
  RecordedCommand,
  TraceRecordView,
  WatchView,
} from './types';
import { formatOpResult } from './etcdctl';
import { FaultBook } from './faults';
import { refForKey } from './inspect/objects';
import { APISERVER_KIND, DEFAULT_APISERVER, type ApiServer, type ApiServerConfig } from '../apiserver/server/apiserver';
import { API_CLIENT_KIND, type ApiCall, type ApiClient, type ApiClientConfig } from '../apiserver/client/apiClient';
import type { RequestRecord } from '../apiserver/records/types';
import { authnConfigFor } from '../apiserver/server/scenario';
import { CONTROLLER_MANAGER_KIND, CONTROLLER_MANAGER_RATE_LIMIT, type ControllerManagerConfig } from '../controllers/manager';
import { assertNever } from '../sim/assert';
import { SCHEDULER_KIND, type KubeScheduler, type SchedulerActorConfig } from '../scheduler/scheduler';
import { decisionJson } from '../scheduler/records/decisionLog';
import type { DecisionJson } from '../scheduler/records/types';
import type { ClusterView, ControllersView, SchedulerView } from './types';
import { quantityNumber } from '../scheduler/framework/resources';
import type { ControllerManager } from '../controllers/manager';
import { KUBELET_KIND, type KubeletConfig, type KubeletDurable } from '../kubelet/kubelet';
import { save as iptablesSave, traceTraverse, type PacketTrace } from '../netfilter';
import { Rng, hashString } from '../sim/rng';
import { inCidr, ipv4ToInt } from '../sim/ipv4';
import { KUBE_PROXY_KIND, kubeProxyOf, type KubeProxy, type KubeProxyConfig, type SyncRecord } from '../kubeproxy/proxier';
import { KWOK_KIND, type KwokConfig } from '../kwok/kwok';
import { CSI_HOSTPATH_KIND, type CsiHostpathConfig } from '../csi/hostpath/driver';
import { METRICS_SERVER_KIND, type MetricsServerConfig } from '../metricsserver/server';
import { METRICS_SERVICE } from '../metricsserver/manifests';
import { KUBEADM_ADDONS_KIND, type KubeadmAddonsConfig } from '../coredns/addon';
import type { CorednsState } from '../coredns/serve';
import type { CorednsConfig } from '../coredns/corefile';
import { registerClass } from '../sim/serial';
import { DEFAULT_EPOCH_MS, enterEpoch } from '../sim/epoch';

/** The playground's own etcd client (the client box, the JSON gateway). */
export const PLAYGROUND_CLIENT = 'etcd-client-0';
/** etcd's cluster id (a hash of the initial cluster upstream); fixed here. */
const CLUSTER_ID = 0x1c4d6f8a2b3e5d7 % 2 ** 48;
/** Keys a view carries (the first, in key order): views stay small at any store size. */
export const KV_VIEW_LIMIT = 500;
/** etcd recommends at most 7 members; more only slows consensus. */
const MAX_MEMBERS = 7;

/** The control plane's actors. */
export const APISERVER = 'kube-apiserver-0';
export const KUBECTL_CLIENT = 'kubectl-0';
export const CONTROLLER_MANAGER = 'kube-controller-manager-0';
export const KWOK_CONTROLLER = 'kwok-controller-0';
export const CSI_DRIVER = 'csi-hostpathplugin-0';
export const METRICS_SERVER = 'metrics-server-0';
export const KUBEADM_ADDONS = 'kubeadm-addons-0';

/** The load generator started by the `load` command. */
export const BENCHMARK_CLIENT = 'etcd-benchmark-0';

/**
 * Node i's pod /24: 10.244.0.0/24 upward as kubeadm's default pod subnet hands
 * them out, continuing at 10.128.0.0 once the second octet would pass 255
 * (nodes 3,072 and up), clear of the service range 10.96.0.0/12.
 */
export function podCidrOf(i: number): string {
  const k = Math.floor(i / 256);
  return `10.${k <= 11 ? 244 + k : 116 + k}.${i % 256}.0/24`;
}

/** A node's machine: its kernel's iptables and its kube-proxy (Engine.nodeMachine). */
export interface NodeMachineView {
  /** iptables-save -c */
  iptables: string;
  kubeProxy: { name: string; up: boolean; synced: boolean; syncs: SyncRecord[] };
  /** The machine's addresses (its InternalIP, its pod range); '' before it booted. */
  internalIP: string;
  podCIDR: string;
  /** The pods whose network is up here, with an address of their own (not hostNetwork), by namespace and name. */
  pods: { namespace: string; name: string; ip: string }[];
}

/**
 * A connection's first packet to trace through a node's iptables
 * (Engine.tracePacket): from a pod on the node (forwarded from its bridge),
 * from the node itself (a host process: OUTPUT), or from another address
 * (forwarded in from the network).
 */
export interface PacketTraceRequest {
  from: 'pod' | 'host' | 'outside';
  /** A pod's address on this node, or one off it; for 'host', the node's InternalIP when absent. */
  src?: string;
  dst: string;
  proto: 'tcp' | 'udp' | 'icmp';
  /** tcp and udp only (1 to 65535). */
  dport?: number;
  /** Another -m statistic draw: the same request and seed always take the same path. */
  seed?: number;
}

/** The trace: each step as TRACE logs it, the verdict, where DNAT sent it and whether it left masqueraded. */
export interface PacketTraceView extends PacketTrace {
  node: string;
  /** Virtual time of the kernel state traced. */
  at: number;
  /** The hooks' path: 'forward' (PREROUTING first) or 'output' (a local process's). */
  path: 'forward' | 'output';
  packet: { src: string; dst: string; proto: 'tcp' | 'udp' | 'icmp'; sport: number; dport: number };
}

const TRACE_FROM = ['pod', 'host', 'outside'] as const;
const TRACE_PROTOS = ['tcp', 'udp', 'icmp'] as const;
/** net.ipv4.ip_local_port_range's default: the trace's client port is drawn from it. */
const EPHEMERAL_PORTS = { lo: 32768, hi: 60999 };

/** A CoreDNS container's caches, as its process last handed them over. */
export interface CorednsCacheView {
  namespace: string;
  pod: string;
  node: string;
  /** The process's actor. */
  process: string;
  state: CorednsState;
  /** What its Corefile turned on (null once the program has stopped). */
  config: CorednsConfig | null;
}

export type ExecResult = { ok: true; result?: unknown } | { ok: false; error: string };

interface EngineSnapshot {
  engine: Engine;
}

export class Engine {
  readonly sim: Simulation;
  readonly options: Required<EngineOptions>;
  speed = 1;
  private readonly log: RecordedCommand[] = [];
  /** etcdOp command results by call id of the playground client. */
  private readonly ops = new Map<number, EtcdOp>();
  private readonly uiWatches = new Map<number, { key: string; rangeEnd?: string; callId: number; member: ActorId }>();
  /** The faults in effect (crashes, partitions, lost nodes…), healed one by one or all at once. */
  private readonly faults = new FaultBook();

  private constructor(options: EngineOptions) {
    const n = options.etcdMembers;
    if (![1, 3, 5].includes(n)) throw new RangeError(`etcdMembers must be 1, 3 or 5 (got ${n})`);
    const a = options.apiServers ?? 1;
    if (!(Number.isInteger(a) && a >= 1 && a <= 5)) throw new RangeError(`apiServers must be 1 to 5 (got ${a})`);
    const sc = options.schedulers ?? 1;
    if (!(Number.isInteger(sc) && sc >= 0 && sc <= 3)) throw new RangeError(`schedulers must be 0 to 3 (got ${sc})`);
    const cm = options.controllerManagers ?? 1;
    if (!(Number.isInteger(cm) && cm >= 1 && cm <= 3)) throw new RangeError(`controllerManagers must be 1 to 3 (got ${cm})`);
    const kubeApi = options.controllerManagerKubeApi;
    if (kubeApi && !(kubeApi.qps > 0 && Number.isFinite(kubeApi.qps) && Number.isInteger(kubeApi.burst) && kubeApi.burst >= 1)) {
      throw new RangeError(`controllerManagerKubeApi needs qps > 0 and a whole burst ≥ 1 (got qps ${kubeApi.qps}, burst ${kubeApi.burst})`);
    }
    const nn = options.nodes ?? 0;
    if (!(Number.isInteger(nn) && nn >= 0 && nn <= 5000)) throw new RangeError(`nodes must be 0 to 5000 (got ${nn})`);
    this.options = {
      snapshotCount: 100_000,
      snapshotCatchUpEntries: 5_000,
      unsafeCommitPreviousTermEntries: false,
      extraClients: 0,
      controlPlane: false,
      apiServers: 1,
      users: [],
      maxRequestsInflight: DEFAULT_APISERVER.maxRequestsInflight,
      maxMutatingRequestsInflight: DEFAULT_APISERVER.maxMutatingRequestsInflight,
      schedulers: 1,
      controllerManagers: 1,
      controllerManagerKubeApi: CONTROLLER_MANAGER_RATE_LIMIT,
      schedulerConfig: '',
      nodes: 0,
      storageDriver: true,
      metricsServer: true,
      clusterDns: true,
      epochMs: DEFAULT_EPOCH_MS,
      ...options,
    };
    if (!Number.isSafeInteger(this.options.epochMs)) throw new RangeError(`epochMs must be whole Unix milliseconds (got ${this.options.epochMs})`);
    this.sim = new Simulation({ seed: options.seed, epochMs: this.options.epochMs });
    const peers = Array.from({ length: n }, (_, i) => i + 1);
    for (const raftId of peers) this.sim.spawn(memberName(raftId), ETCD_KIND, this.memberConfig(raftId, peers));
    this.sim.spawn(PLAYGROUND_CLIENT, 'etcd-client', { ...DEFAULT_CLIENT, endpoints: this.memberNames() });
    if (this.options.controlPlane) {
      for (let i = 0; i < this.options.apiServers; i++) {
        this.sim.spawn(`kube-apiserver-${i}`, APISERVER_KIND, {
          ...DEFAULT_APISERVER,
          serverAddress: `10.0.0.${10 + i}:6443`,
          etcdEndpoints: this.memberNames(),
          authn: authnConfigFor(this.options.users),
          maxRequestsInflight: this.options.maxRequestsInflight,
          maxMutatingRequestsInflight: this.options.maxMutatingRequestsInflight,
          // The aggregation layer reaches metrics-server's Service at its actor.
          ...(this.options.metricsServer ? { aggregatedServices: { [`${METRICS_SERVICE.namespace}/${METRICS_SERVICE.name}`]: METRICS_SERVER } } : {}),
        } satisfies ApiServerConfig);
      }
      this.sim.spawn(KUBECTL_CLIENT, API_CLIENT_KIND, { server: APISERVER, timeoutMs: 60_000 } satisfies ApiClientConfig);
      for (let i = 0; i < this.options.controllerManagers; i++) {
        this.sim.spawn(`kube-controller-manager-${i}`, CONTROLLER_MANAGER_KIND, { server: `kube-apiserver-${i % this.options.apiServers}`, kubeApi: this.options.controllerManagerKubeApi } satisfies ControllerManagerConfig);
      }
      // KWOK runs the fake nodes created through the API with kwok.x-k8s.io/node=fake (heartbeats, pods Running).
      this.sim.spawn(KWOK_CONTROLLER, KWOK_KIND, { server: APISERVER } satisfies KwokConfig);
      // The cluster's storage add-on: a CSI driver and its external-provisioner, with the default StorageClass.
      if (this.options.storageDriver) this.sim.spawn(CSI_DRIVER, CSI_HOSTPATH_KIND, { server: APISERVER } satisfies CsiHostpathConfig);
      // metrics-server, which kubectl top and the HPA controller read through the aggregation layer.
      if (this.options.metricsServer) this.sim.spawn(METRICS_SERVER, METRICS_SERVER_KIND, { server: APISERVER } satisfies MetricsServerConfig);
      // kubeadm's addon phase: CoreDNS, whose pods the Deployment controller and the scheduler place on the nodes.
      if (this.options.clusterDns) this.sim.spawn(KUBEADM_ADDONS, KUBEADM_ADDONS_KIND, { server: APISERVER } satisfies KubeadmAddonsConfig);
      for (let i = 1; i <= this.options.nodes; i++) {
        // Each node's kubelet talks to one API server (spread over them), registers itself and runs its pods.
        const server = `kube-apiserver-${(i - 1) % this.options.apiServers}`;
        const internalIP = `10.0.${1 + Math.floor(i / 250)}.${(i % 250) + 1}`;
        this.sim.spawn(`node-${i}`, KUBELET_KIND, {
          server,
          nodeName: `node-${i}`,
          capacity: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
          podCIDR: podCidrOf(i),
          internalIP,
          imageBandwidthBytesPerSec: 50 * 1024 * 1024,
        } satisfies KubeletConfig);
        // And its kube-proxy, which programs the machine's iptables for Services.
        this.sim.spawn(kubeProxyOf(`node-${i}`), KUBE_PROXY_KIND, { server, nodeName: `node-${i}`, node: `node-${i}`, nodeIP: internalIP } satisfies KubeProxyConfig);
      }
      for (let i = 0; i < this.options.schedulers; i++) {
        // Replicas spread over the API servers, as each control-plane node's scheduler talks to its local one.
        this.sim.spawn(`kube-scheduler-${i}`, SCHEDULER_KIND, {
          server: `kube-apiserver-${i % this.options.apiServers}`,
          ...(this.options.schedulerConfig ? { configText: this.options.schedulerConfig } : {}),
        } satisfies SchedulerActorConfig);
      }
    }
    for (let i = 1; i <= this.options.extraClients; i++) {
      // Each client starts on a different member, as clients spread over endpoints.
      const names = this.memberNames();
      const rotated = names.map((_, j) => names[(i + j) % names.length]!);
      this.sim.spawn(`etcd-client-${i}`, 'etcd-client', { ...DEFAULT_CLIENT, endpoints: rotated });
    }
  }

  private memberConfig(raftId: number, initialPeers: number[]): MemberConfig {
    return {
      raftId,
      clusterId: CLUSTER_ID,
      initialPeers,
      tickMs: 100,
      electionTicks: 10,
      heartbeatTicks: 1,
      snapshotCount: this.options.snapshotCount,
      snapshotCatchUpEntries: this.options.snapshotCatchUpEntries,
      unsafeCommitPreviousTermEntries: this.options.unsafeCommitPreviousTermEntries,
    };
  }

  static create(options: EngineOptions): Engine {
    return new Engine(options);
  }

  /** Rebuilds a session from its options and command log: same seed + same commands ⇒ same run. */
  static replay(options: EngineOptions, log: readonly RecordedCommand[], until?: number): Engine {
    const e = new Engine(options);
    for (const rc of log) {
      while (e.sim.processed < rc.step && e.sim.step()) {
        /* reach the exact event count */
      }
      if (e.sim.now < rc.t) e.sim.now = rc.t;
      e.exec(rc.command);
    }
    if (until !== undefined) e.sim.runUntil(until);
    return e;
  }

  snapshot(): Plain {
    const snap: EngineSnapshot = { engine: this };
    return toPlain(snap);
  }

  static restore(plain: Plain): Engine {
    return fromPlain<EngineSnapshot>(plain).engine;
  }

  /** A deep, independent copy (snapshot + restore in one). */
  clone(): Engine {
    return cloneState(this);
  }

  // ---- time ----------------------------------------------------------------

  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`advance: bad duration ${ms}`);
    this.sim.runFor(ms);
  }

  runUntil(t: number): void {
    this.sim.runUntil(t);
  }

  /** Processes exactly one kernel event; returns the trace record it produced, if any. */
  stepEvent(): TraceRecordView | null {
    const before = this.sim.trace.count;
    if (!this.sim.step()) return null;
    const recs = this.sim.trace.records(before - 1);
    return recs[recs.length - 1] ?? null;
  }

  /**
   * Processes events until one message arrives at (or is dropped on the way to)
   * an actor: the "next message" step. Timers and disk writes on the way are
   * processed too. Returns the delivery record, or null if none came within
   * `maxEvents` events.
   */
  stepMessage(maxEvents = 100_000): TraceRecordView | null {
    for (let i = 0; i < maxEvents; i++) {
      const before = this.sim.trace.count;
      if (!this.sim.step()) return null;
      const recs = this.sim.trace.records(before - 1);
      const hit = recs.find((r) => r.kind === 'deliver' || (r.kind === 'drop' && r.type !== 'RST'));
      if (hit) return { ...hit };
    }
    return null;
  }

  nextEventTime(): number | undefined {
    return this.sim.nextEventTime();
  }

  // ---- commands ------------------------------------------------------------

  exec(command: Command): ExecResult {
    enterEpoch(this.sim.epochMs);
    const problem = this.validate(command);
    if (problem) return { ok: false, error: problem };
    this.log.push({ t: this.sim.now, step: this.sim.processed, command: structuredCloneSafe(command) });
    this.sim.note('command', command.type, commandDetail(command));
    switch (command.type) {
      case 'fault':
        this.faults.apply(this.sim, command.fault);
        return { ok: true };
      case 'speed':
        this.speed = command.speed;
        return { ok: true };
      case 'etcdOp':
        return { ok: true, result: this.startOp(command.op) };
      case 'etcd': {
        const req = command.request as { type: RequestType; body: unknown; endpoint?: ActorId };
        const client = this.client(command.client ?? PLAYGROUND_CLIENT);
        const ctx = this.sim.context(command.client ?? PLAYGROUND_CLIENT);
        return { ok: true, result: client.call(ctx, req.type, req.body as never, { endpoint: req.endpoint }) };
      }
      case 'watch': {
        const key = utf8ToBinary(command.key);
        const rangeEnd = command.prefix ? prefixEnd(key) : command.rangeEnd !== undefined ? utf8ToBinary(command.rangeEnd) : undefined;
        const member = this.preferredMember();
        const callId = this.client(PLAYGROUND_CLIENT).call(
          this.sim.context(PLAYGROUND_CLIENT),
          'WatchCreateRequest',
          { key, rangeEnd, startRevision: command.startRevision, prevKv: command.prevKv ?? true },
          { endpoint: member },
        );
        this.uiWatches.set(callId, { key: command.key, rangeEnd: command.rangeEnd, callId, member });
        return { ok: true, result: callId };
      }
      case 'load': {
        const existing = this.sim.actor<EtcdBenchmark>(BENCHMARK_CLIENT);
        if (existing) existing.setRate(this.sim.context(BENCHMARK_CLIENT), command.rate);
        else if (!this.sim.has(BENCHMARK_CLIENT)) {
          this.sim.spawn(BENCHMARK_CLIENT, 'etcd-benchmark', {
            ...DEFAULT_CLIENT,
            endpoints: this.memberNames(),
            rate: command.rate,
            keySpace: command.keySpace ?? 1000,
            valueSize: command.valueSize ?? 8,
          });
        }
        return { ok: true };
      }
      case 'api': {
        const id = command.client ?? KUBECTL_CLIENT;
        const c = this.sim.actor<ApiClient>(id);
        if (!c) return { ok: false, error: `no API client named "${id}"` };
        return { ok: true, result: c.call(this.sim.context(id), command.request) };
      }
      case 'apiCancel': {
        const id = command.client ?? KUBECTL_CLIENT;
        this.sim.actor<ApiClient>(id)?.cancel(this.sim.context(id), command.call);
        return { ok: true };
      }
      case 'apiSend': {
        const id = command.client ?? KUBECTL_CLIENT;
        this.sim.actor<ApiClient>(id)?.send(this.sim.context(id), command.call, command.data);
        return { ok: true };
      }
      case 'cancelWatch': {
        const w = [...this.uiWatches.values()].find((x) => this.watchIdOf(x.callId) === command.watchId);
        if (!w) return { ok: true };
        this.client(PLAYGROUND_CLIENT).call(this.sim.context(PLAYGROUND_CLIENT), 'WatchCancelRequest', { watchId: command.watchId }, { endpoint: w.member });
        this.uiWatches.delete(w.callId);
        return { ok: true };
      }
      case 'schedulerConfig': {
        const ids = this.schedulerIds();
        if (ids.length === 0) return { ok: false, error: 'no kube-scheduler is running' };
        for (const id of ids) {
          const s = this.sim.actor<KubeScheduler>(id);
          if (!s) continue;
          const err = s.setConfig(this.sim.context(id), command.text);
          if (err) return { ok: false, error: err };
        }
        return { ok: true };
      }
      default:
        return assertNever(command, 'command');
    }
  }

  // ---- the cluster map ------------------------------------------------------------------

  /** Nodes, pods and components as the API server's caches hold them (observability: read, not requested). */
  clusterView(): ClusterView | null {
    const s = this.sim.actor<ApiServer>(APISERVER);
    if (!s || !s.ready) return null;
    const requested = new Map<string, { cpu: number; memory: number }>();
    const pods: ClusterView['pods'] = [];
    for (const p of s.cluster.list('', 'pods')) {
      const spec = (p.spec ?? {}) as { nodeName?: string; containers?: { resources?: { requests?: Record<string, string> } }[] };
      const status = (p.status ?? {}) as { phase?: string; conditions?: { type: string; status: string }[]; containerStatuses?: { state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } }[] };
      const node = spec.nodeName ?? '';
      const phase = status.phase ?? 'Pending';
      if (node && phase !== 'Succeeded' && phase !== 'Failed') {
        const r = requested.get(node) ?? { cpu: 0, memory: 0 };
        for (const c of spec.containers ?? []) {
          r.cpu += quantityNumber(c.resources?.requests?.cpu, true);
          r.memory += quantityNumber(c.resources?.requests?.memory, false);
        }
        requested.set(node, r);
      }
      const cs = status.containerStatuses?.find((c) => c.state?.waiting || c.state?.terminated);
      pods.push({
        namespace: p.metadata.namespace ?? '',
        name: p.metadata.name ?? '',
        node,
        phase,
        ready: !!status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        reason: cs?.state?.waiting?.reason ?? cs?.state?.terminated?.reason ?? '',
        terminating: !!p.metadata.deletionTimestamp,
        owner: p.metadata.ownerReferences?.find((o) => o.controller)?.name ?? '',
      });
    }
    const nodes: ClusterView['nodes'] = s.cluster.list('', 'nodes').map((n) => {
      const spec = (n.spec ?? {}) as { unschedulable?: boolean; taints?: { key: string; value?: string; effect: string }[] };
      const status = (n.status ?? {}) as { allocatable?: Record<string, string>; conditions?: { type: string; status: string }[] };
      const a = status.allocatable ?? {};
      return {
        name: n.metadata.name ?? '',
        ready: status.conditions?.find((c) => c.type === 'Ready')?.status ?? '',
        unschedulable: !!spec.unschedulable,
        taints: (spec.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
        labels: { ...(n.metadata.labels ?? {}) },
        allocatable: { cpu: quantityNumber(a.cpu, true), memory: quantityNumber(a.memory, false), pods: quantityNumber(a.pods, false) },
        requested: requested.get(n.metadata.name ?? '') ?? { cpu: 0, memory: 0 },
      };
    });
    return { nodes, pods, components: this.controlPlaneComponents() };
  }

  /** etcd members, API servers, controller managers, schedulers and kwok-controller: up, and which one leads. */
  controlPlaneComponents(): ClusterView['components'] {
    const components: ClusterView['components'] = [];
    const etcdLeader = this.leader();
    for (const name of this.memberNames()) components.push({ name, kind: ETCD_KIND, up: this.sim.isUp(name), leader: name === etcdLeader });
    if (!this.options.controlPlane) return components;
    for (let i = 0; i < this.options.apiServers; i++) components.push({ name: `kube-apiserver-${i}`, kind: APISERVER_KIND, up: !!this.sim.actor(`kube-apiserver-${i}`), leader: false });
    for (let i = 0; i < this.options.controllerManagers; i++) {
      const m = this.sim.actor<ControllerManager>(`kube-controller-manager-${i}`);
      components.push({ name: `kube-controller-manager-${i}`, kind: CONTROLLER_MANAGER_KIND, up: !!m, leader: !!m && m.isLeader });
    }
    for (const id of this.schedulerIds()) {
      const sc = this.sim.actor<KubeScheduler>(id);
      components.push({ name: id, kind: SCHEDULER_KIND, up: !!sc, leader: !!sc && sc.elector.isLeader });
    }
    if (this.sim.has(KWOK_CONTROLLER)) components.push({ name: KWOK_CONTROLLER, kind: KWOK_KIND, up: this.sim.isUp(KWOK_CONTROLLER), leader: false });
    return components;
  }

  // ---- kube-controller-manager ---------------------------------------------------------

  /** The modular controllers of kube-controller-manager-0: queue depth, latency and recent reconciles. */
  controllersView(): ControllersView | null {
    let m: ControllerManager | undefined;
    for (let i = 0; i < this.options.controllerManagers && !m?.isLeader; i++) m = this.sim.actor<ControllerManager>(`kube-controller-manager-${i}`) ?? m;
    if (!m) return null;
    return jsonRoundTrip({
      controllers: m.controllers.map((c) => {
        const mt = c.queue.metrics;
        return {
          name: c.name,
          informers: [...c.informers],
          depth: mt.depth,
          adds: mt.adds,
          retries: mt.retries,
          meanQueueMs: mt.latency.count ? (mt.latency.sum / mt.latency.count) * 1000 : 0,
          meanWorkMs: mt.workDuration.count ? (mt.workDuration.sum / mt.workDuration.count) * 1000 : 0,
          recent: (c.recent ?? []).slice(-20).map((r) => {
            const ref = refForKey(c.informers, r.key);
            return ref ? { ...r, ref } : { ...r };
          }),
        };
      }),
    });
  }

  // ---- kube-scheduler ------------------------------------------------------------

  private schedulerIds(): ActorId[] {
    const out: ActorId[] = [];
    for (let i = 0; i < (this.options.controlPlane ? this.options.schedulers : 0); i++) out.push(`kube-scheduler-${i}`);
    return out;
  }

  /** The replica holding the lease (else the first one up). */
  private activeScheduler(): KubeScheduler | undefined {
    let first: KubeScheduler | undefined;
    for (const id of this.schedulerIds()) {
      const s = this.sim.actor<KubeScheduler>(id);
      if (!s) continue;
      first ??= s;
      if (s.elector.isLeader) return s;
    }
    return first;
  }

  /** Every scheduling decision still held for a pod ("namespace/name"), oldest first, from every replica. */
  schedulerDecisions(pod: string): { pod: string; decisions: DecisionJson[] } {
    const recs = [];
    for (const id of this.schedulerIds()) {
      const s = this.sim.actor<KubeScheduler>(id);
      if (s) recs.push(...s.decisions.forPod(pod));
    }
    recs.sort((a, b) => a.t - b.t || a.cycle - b.cycle);
    return { pod, decisions: recs.map(decisionJson) };
  }

  /** Keep (or stop keeping) a pod's decisions beyond the ring of recent cycles: the UI's selection. */
  watchSchedulerDecisions(pod: string, on: boolean): void {
    for (const id of this.schedulerIds()) {
      const s = this.sim.actor<KubeScheduler>(id);
      if (on) s?.decisions.watch(pod);
      else s?.decisions.unwatch(pod);
    }
  }

  /** The active scheduler's queue. */
  schedulerQueue(): ReturnType<KubeScheduler['queue']['view']> | null {
    const s = this.activeScheduler();
    return s ? jsonRoundTrip(s.queue.view(this.sim.now)) : null;
  }

  /** The running KubeSchedulerConfiguration as YAML. */
  schedulerConfig(): string | null {
    return this.activeScheduler()?.configText ?? null;
  }

  /** What the scheduler panel shows: replicas and leader, counters, queue sizes, recent cycles. */
  schedulerView(recent = 50): SchedulerView | null {
    const ids = this.schedulerIds();
    if (ids.length === 0) return null;
    const active = this.activeScheduler();
    const replicas = ids.map((id) => {
      const s = this.sim.actor<KubeScheduler>(id);
      return { name: id, up: !!s, leader: !!s && s.elector.isLeader, synced: !!s && s.synced };
    });
    const q = active ? active.queue.view(this.sim.now) : null;
    return jsonRoundTrip({
      replicas,
      leader: active?.elector.leader ?? '',
      stats: active ? { ...active.stats } : null,
      queue: q ? { active: q.active.length, backoff: q.backoff.length, unschedulable: q.unschedulable.length, gated: q.gated.length } : null,
      nodes: active ? active.cache.numNodes() : 0,
      recent: (active?.decisions.recent(recent) ?? []).map((r) => ({ cycle: r.cycle, t: r.t, pod: r.pod, profile: r.profile, outcome: r.outcome, selected: r.selected, message: r.outcomeMessage ?? r.message, evaluated: r.nodes.length, feasible: r.feasible.length })),
    });
  }

  // ---- Kubernetes API ------------------------------------------------------------

  /** An API call of an API client (kubectl-0 by default): its answer once it came, and any watch lines. */
  apiCall(id: number, client: ActorId = KUBECTL_CLIENT): ApiCall | undefined {
    return this.sim.actor<ApiClient>(client)?.calls.get(id);
  }

  /** Takes the watch lines received so far for a streaming call. */
  apiDrain(id: number, client: ActorId = KUBECTL_CLIENT): { lines: string[]; ended: boolean } {
    const c = this.sim.actor<ApiClient>(client)?.calls.get(id);
    if (!c) return { lines: [], ended: true };
    const lines = c.chunks;
    c.chunks = [];
    return { lines, ended: c.ended };
  }

  apiForget(id: number, client: ActorId = KUBECTL_CLIENT): void {
    this.sim.actor<ApiClient>(client)?.forget(id);
  }

  /** The API server's request records with id > sinceId (newest last), at most `limit`. */
  requests(sinceId = 0, limit = 500): RequestRecord[] {
    const s = this.sim.actor<ApiServer>(APISERVER);
    if (!s) return [];
    const out: RequestRecord[] = [];
    for (let i = s.records.length - 1; i >= 0 && out.length < limit; i--) {
      const r = s.records[i]!;
      if (r.id <= sinceId) break;
      out.push(r);
    }
    return jsonRoundTrip(out.reverse());
  }

  /**
   * Has the cluster finished booting: the API server ready and the controller
   * manager's first work done (the default namespace has its ServiceAccount)?
   * Hosts hold the first kubectl commands until then.
   */
  clusterReady(): boolean {
    const s = this.sim.actor<ApiServer>(APISERVER);
    return !!s && s.ready && s.bootstrapped && !!s.cluster.get('', 'serviceaccounts', 'default', 'default');
  }

  /** The nodes that are machines here (kubelets with a kernel and a kube-proxy), by name. */
  machineNodes(): string[] {
    return this.sim.actorIds().filter((id) => this.sim.kindOf(id) === KUBELET_KIND);
  }

  /** What each CoreDNS container's process has handed it (its caches), machine by machine. */
  corednsCaches(): CorednsCacheView[] {
    const out: CorednsCacheView[] = [];
    for (const node of this.machineNodes()) {
      const runtime = this.sim.durable<KubeletDurable>(node).runtime;
      if (!runtime) continue;
      for (const [container, state] of runtime.dnsCaches) {
        const c = runtime.containers.get(container);
        if (c) out.push({ namespace: c.namespace, pod: c.podName, node, process: runtime.processes.get(container) ?? '', state, config: c.proc?.daemon?.coredns ?? null });
      }
    }
    return out;
  }

  /**
   * Node `name`'s machine as its kernel and kube-proxy have it (null for a
   * node without a machine here, a KWOK one): `iptables-save -c`, and
   * kube-proxy's state and last syncs.
   */
  nodeMachine(name: string): NodeMachineView | null {
    if (this.sim.kindOf(name) !== KUBELET_KIND) return null;
    const runtime = this.sim.durable<KubeletDurable>(name).runtime;
    const proxyId = kubeProxyOf(name);
    const proxy = this.sim.has(proxyId) ? this.sim.actor<KubeProxy>(proxyId) : undefined;
    const now = this.sim.now;
    const pods = runtime ? [...runtime.sandboxes.values()].filter((s) => s.state === 'ready' && s.readyAt <= now && !s.hostNetwork && s.ip) : [];
    return {
      iptables: runtime ? iptablesSave(runtime.netfilter, { counters: true }) : '',
      kubeProxy: { name: proxyId, up: !!proxy, synced: !!proxy?.synced, syncs: proxy ? proxy.syncs.map((x) => ({ ...x, rules: { ...x.rules } })) : [] },
      internalIP: runtime?.config.nodeIP ?? '',
      podCIDR: runtime?.config.podCIDR ?? '',
      pods: pods.map((s) => ({ namespace: s.namespace, name: s.name, ip: s.ip })).sort((a, b) => (a.namespace + '/' + a.name < b.namespace + '/' + b.name ? -1 : 1)),
    };
  }

  /**
   * A connection's first packet through node `name`'s iptables as `-j TRACE`
   * would log it, on a copy of its kernel's tables with a PRNG of the trace's
   * own: the simulation is left exactly as it was. Null for a node without a
   * machine here; an error text for a request that names no such packet.
   */
  tracePacket(name: string, req: PacketTraceRequest): PacketTraceView | { error: string } | null {
    if (this.sim.kindOf(name) !== KUBELET_KIND) return null;
    const runtime = this.sim.durable<KubeletDurable>(name).runtime;
    if (!runtime) return { error: `${name}'s machine has not booted: its kernel has no tables yet` };
    if (runtime.poweredOff) return { error: `${name} is powered off: no kernel runs there` };
    if (!TRACE_FROM.includes(req.from)) return { error: `from must be one of pod, host, outside (got "${req.from}")` };
    if (!TRACE_PROTOS.includes(req.proto)) return { error: `protocol must be one of tcp, udp, icmp (got "${req.proto}")` };
    // The machine's own addresses, as its kernel has them.
    const { nodeIP, podCIDR } = runtime.config;
    const isLocal = (ip: string): boolean => runtime.isLocalAddress(ip);
    const local = ['127.0.0.0/8', nodeIP, runtime.bridgeIP()].filter(Boolean).join(', ');
    const notIp = (what: string, ip: string | undefined) => (ip === undefined || ip === '' ? `${what} IP address is required` : Number.isNaN(ipv4ToInt(ip)) ? `${what} "${ip}" is not an IPv4 address` : null);
    const src = req.from === 'host' ? (req.src || nodeIP || '') : (req.src ?? '');
    const bad =
      notIp('source', src) ??
      notIp('destination', req.dst) ??
      (req.from === 'pod' && !(inCidr(src, podCIDR) && !isLocal(src)) ? `${src} is not a pod address on ${name} (its pods are in ${podCIDR})` : null) ??
      (req.from === 'host' && !isLocal(src) ? `${src} is not an address of ${name} (${local})` : null) ??
      (req.from === 'outside' && isLocal(src) ? `${src} is an address of ${name}: trace from the node instead` : null) ??
      (req.from === 'outside' && inCidr(src, podCIDR) ? `${src} is in ${name}'s pod range ${podCIDR}: trace from a pod instead` : null) ??
      (req.proto !== 'icmp' && !(Number.isInteger(req.dport) && req.dport! >= 1 && req.dport! <= 65535) ? `port must be between 1 and 65535 (got ${req.dport ?? 'none'})` : null);
    if (bad) return { error: bad };
    const dport = req.proto === 'icmp' ? 0 : req.dport!;
    const rng = new Rng(hashString(`${name} ${req.from} ${src} ${req.dst} ${req.proto} ${dport} ${req.seed ?? 0}`));
    const sport = req.proto === 'icmp' ? 0 : EPHEMERAL_PORTS.lo + (rng.nextU32() % (EPHEMERAL_PORTS.hi - EPHEMERAL_PORTS.lo + 1));
    const path = req.from === 'host' ? 'output' : 'forward';
    const packet = { src, dst: req.dst, proto: req.proto, sport, dport };
    // The first packet as the runtime sends it: a TCP SYN or a UDP datagram (60 bytes), an echo request of ping's 56 bytes.
    const bytes = req.proto === 'icmp' ? 84 : 60;
    const t = traceTraverse(runtime.netfilter, path, { ...packet, bytes, now: this.sim.now }, isLocal, () => rng.nextU32() >>> 1);
    return { node: name, at: this.sim.now, path, packet, ...t };
  }

  /** Is the API server up, its caches filled and its bootstrap objects written? */
  apiReady(): boolean {
    const s = this.sim.actor<ApiServer>(APISERVER);
    return !!s && s.ready && s.bootstrapped;
  }

  /** The faults still in effect, oldest first. */
  activeFaults(): ActiveFault[] {
    return this.faults.list();
  }

  commands(): RecordedCommand[] {
    return this.log.map((c) => structuredCloneSafe(c));
  }

  private validate(command: Command): string | null {
    if (command.type === 'fault') return this.faults.validate(this.sim, command.fault);
    if (command.type === 'speed' && !(command.speed >= 0 && command.speed <= 10_000)) return `speed must be between 0 and 10000 (got ${command.speed})`;
    if (command.type === 'load') {
      if (!(command.rate >= 0 && command.rate <= 100_000)) return `rate must be between 0 and 100000 puts per second (got ${command.rate})`;
      if (command.keySpace !== undefined && !(Number.isInteger(command.keySpace) && command.keySpace >= 1)) return 'keySpace must be a positive integer';
      if (command.valueSize !== undefined && !(Number.isInteger(command.valueSize) && command.valueSize >= 0 && command.valueSize <= 1_048_576)) return 'valueSize must be between 0 and 1048576 bytes';
    }
    if (command.type === 'api' && command.client === undefined && !this.sim.has(KUBECTL_CLIENT)) return 'the control plane is not running (start the engine with controlPlane: true)';
    if (command.type === 'etcdOp' && command.op.op === 'transferLeader' && this.kindOf(command.op.to) !== ETCD_KIND) return `no etcd member named "${command.op.to}"`;
    if (command.type === 'etcdOp' && command.op.op === 'memberRemove' && !this.memberNames().includes(command.op.name)) return `no etcd member named "${command.op.name}"`;
    if (command.type === 'etcdOp' && command.op.op === 'memberAdd' && this.memberNames().length >= MAX_MEMBERS) return `a cluster of more than ${MAX_MEMBERS} members is not supported (etcd recommends at most 7)`;
    return null;
  }

  private startOp(op: EtcdOp): number {
    const client = this.client(PLAYGROUND_CLIENT);
    const ctx = this.sim.context(PLAYGROUND_CLIENT);
    if (op.op === 'memberAdd') {
      // The operator's two steps: announce the member, start it with
      // --initial-cluster-state=existing (no bootstrap; it learns the
      // configuration from the leader).
      const raftId = Math.max(0, ...this.sim.actorIds().filter((id) => this.sim.kindOf(id) === ETCD_KIND).map(raftIdOf)) + 1;
      const name = memberName(raftId);
      this.sim.spawn(name, ETCD_KIND, this.memberConfig(raftId, []));
      const id = client.call(ctx, 'MemberAddRequest', { peerURLs: [`http://${name}:2380`] });
      this.ops.set(id, { op: 'memberAdd', name });
      return id;
    }
    if (op.op === 'memberRemove') {
      const id = client.call(ctx, 'MemberRemoveRequest', { ID: memberIdOf(raftIdOf(op.name)) });
      this.ops.set(id, op);
      return id;
    }
    const [type, body, endpoint] = opToRequest(op, this);
    const id = client.call(ctx, type, body as never, { endpoint });
    this.ops.set(id, op);
    return id;
  }

  // ---- views ---------------------------------------------------------------

  state(): EngineState {
    return {
      virtualTime: this.sim.now,
      seed: this.sim.seed,
      epochMs: this.sim.epochMs,
      speed: this.speed,
      components: this.sim.actorIds().map((name) => ({ name, kind: this.sim.kindOf(name) ?? '?', up: this.sim.isUp(name) })),
      traceDigest: this.sim.trace.digest(),
      events: this.sim.processed,
    };
  }

  /** The cluster's members: every etcd actor except those removed from the cluster. */
  memberNames(): ActorId[] {
    return this.sim.actorIds().filter((id) => this.sim.kindOf(id) === ETCD_KIND && !this.sim.durable<MemberDurable>(id).removed);
  }

  member(name: ActorId): EtcdMember | null {
    return this.sim.actor<EtcdMember>(name);
  }

  /** The leader member's name, if exactly one up member believes it leads in the highest term. */
  leader(): ActorId | null {
    let best: { name: ActorId; term: number } | null = null;
    for (const name of this.memberNames()) {
      const m = this.member(name);
      if (m && m.node.raft.state === 'StateLeader' && (!best || m.node.raft.term > best.term)) best = { name, term: m.node.raft.term };
    }
    return best?.name ?? null;
  }

  private preferredMember(): ActorId {
    return this.leader() ?? this.memberNames().find((n) => this.sim.isUp(n)) ?? this.memberNames()[0]!;
  }

  etcdView(): EtcdClusterView {
    const members = this.memberNames().map((name) => this.memberView(name));
    const leader = this.leader();
    const source = leader ?? this.memberNames().find((n) => this.sim.isUp(n)) ?? null;
    const sm = source ? this.member(source)?.sm : undefined;
    const listed = sm ? sm.keysForView(KV_VIEW_LIMIT) : { kvs: [], count: 0 };
    return {
      members,
      inFlight: this.inFlight(),
      kv: sm
        ? {
            from: source,
            revision: sm.currentRevision(),
            compactRevision: sm.compactRevision(),
            keys: listed.kvs.map((kv: KeyValue) => ({
              key: binaryToUtf8(kv.key),
              value: binaryToUtf8(kv.value),
              createRevision: kv.createRevision,
              modRevision: kv.modRevision,
              version: kv.version,
              lease: kv.lease,
            })),
            total: listed.count,
          }
        : { from: null, revision: 0, compactRevision: 0, keys: [], total: 0 },
      partition: this.sim.network.groups.map((g) => [...g]),
      blocked: this.sim.network.blockedLinks(),
    };
  }

  memberView(name: ActorId): EtcdMemberView {
    const durable = this.sim.durable<MemberDurable>(name);
    const storage = durable.storage;
    const raftId = Number(name.split('-')[1]) + 1;
    const m = this.member(name);
    const hs = storage.hardState;
    const fsyncMs = this.sim.disk(name).fsyncMs;
    const base = {
      name,
      raftId,
      memberId: memberIdOf(raftId).toString(16),
      fsyncMs,
      snapshotIndex: storage.snapshot().metadata.index,
      firstLogIndex: storage.firstIndex(),
    };
    if (!m) {
      return {
        ...base,
        up: false,
        role: 'down',
        term: hs.term,
        vote: hs.vote ? memberName(hs.vote) : null,
        leader: null,
        commitIndex: hs.commit,
        appliedIndex: 0,
        lastLogIndex: storage.lastIndex(),
        electionElapsed: 0,
        electionTimeout: 0,
        log: tailOfStorage(storage, 40),
        revision: 0,
      };
    }
    const st = m.node.status();
    const raftLog = m.node.raft.raftLog;
    const lo = Math.max(raftLog.firstIndex(), st.lastIndex - 39);
    const log = [];
    for (let i = lo; i <= st.lastIndex; i++) {
      const e = raftLog.entryAt(i);
      if (e) log.push(describeEntry(e));
    }
    const view: EtcdMemberView = {
      ...base,
      up: true,
      role: roleOf(st.raftState),
      term: st.term,
      vote: st.vote ? memberName(st.vote) : null,
      leader: st.lead ? memberName(st.lead) : null,
      commitIndex: st.commit,
      appliedIndex: m.sm.appliedIndex,
      lastLogIndex: st.lastIndex,
      electionElapsed: st.electionElapsed,
      electionTimeout: st.raftState === 'StateLeader' ? st.electionTimeout : st.randomizedElectionTimeout,
      log,
      revision: m.sm.currentRevision(),
    };
    if (st.progress) {
      view.progress = {};
      for (const [id, pr] of Object.entries(st.progress)) view.progress[memberName(Number(id))] = { match: pr.match, next: pr.next, state: pr.state };
    }
    return view;
  }

  private inFlight(): MessageInFlightView[] {
    const out: MessageInFlightView[] = [];
    for (const item of this.sim.queue.items()) {
      const ev = item.event;
      if (ev.type !== 'deliver') continue;
      const p = ev.payload as { type: string; term?: number; entries?: unknown[]; reject?: boolean };
      const v: MessageInFlightView = { msgId: ev.msgId, from: ev.from, to: ev.to, type: p.type, sentAt: ev.sentAt, arriveAt: item.time };
      if (typeof p.term === 'number') v.term = p.term;
      if (p.type === 'MsgApp' && p.entries) v.detail = `${p.entries.length} entr${p.entries.length === 1 ? 'y' : 'ies'}`;
      else if (p.reject) v.detail = 'reject';
      out.push(v);
    }
    out.sort((a, b) => a.msgId - b.msgId);
    return out;
  }

  trace(sinceN = -1, limit = 500): TraceRecordView[] {
    const recs = this.sim.trace.records(sinceN);
    return (recs.length > limit ? recs.slice(recs.length - limit) : recs).map((r) => ({ ...r }));
  }

  /** Results of etcdOp commands with call id > sinceId (pending ones included, without doneAt). */
  opResults(sinceId = 0): EtcdOpResult[] {
    const client = this.client(PLAYGROUND_CLIENT);
    const out: EtcdOpResult[] = [];
    for (const [id, op] of this.ops) {
      if (id <= sinceId) continue;
      const call = client.calls.get(id);
      if (!call) continue;
      out.push(toOpResult(id, op, call));
    }
    return out;
  }

  /** One op's result, or undefined if unknown. */
  opResult(id: number): EtcdOpResult | undefined {
    const call = this.client(PLAYGROUND_CLIENT).calls.get(id);
    const op = this.ops.get(id);
    return call && op ? toOpResult(id, op, call) : undefined;
  }

  /** Counters of the load generator, if one was started. */
  loadStats(): BenchmarkStats | null {
    const b = this.sim.actor<EtcdBenchmark>(BENCHMARK_CLIENT);
    return b ? { ...b.stats } : null;
  }

  /** A raw client call's record (for the JSON gateway). */
  call(id: number, client: ActorId = PLAYGROUND_CLIENT): CallRecord | undefined {
    return this.client(client).calls.get(id);
  }

  watches(): WatchView[] {
    const client = this.client(PLAYGROUND_CLIENT);
    const out: WatchView[] = [];
    for (const w of this.uiWatches.values()) {
      const watchId = this.watchIdOf(w.callId);
      const view: WatchView = { watchId: watchId ?? -1, key: w.key, rangeEnd: w.rangeEnd, events: [] };
      const call = client.calls.get(w.callId);
      if (call?.outcome?.status === 'error' || call?.outcome?.status === 'unknown') view.canceled = call.outcome.error.message;
      const reset = client.resets.get(w.member);
      if (call && reset !== undefined && reset >= call.issuedAt) view.canceled = 'transport is closing';
      if (watchId !== undefined) {
        for (const r of client.watchResponses) {
          if (r.from !== w.member || r.body.watchId !== watchId) continue;
          if (r.body.canceled) view.canceled = r.body.cancelReason || (r.body.compactRevision ? 'mvcc: required revision has been compacted' : 'canceled');
          for (const ev of r.body.events) {
            view.events.push({
              revision: ev.kv.modRevision,
              type: ev.type,
              key: binaryToUtf8(ev.kv.key),
              value: binaryToUtf8(ev.kv.value),
              prevValue: ev.prevKv ? binaryToUtf8(ev.prevKv.value) : undefined,
              at: r.at,
            });
          }
        }
      }
      out.push(view);
    }
    return out;
  }

  private watchIdOf(callId: number): number | undefined {
    const call = this.client(PLAYGROUND_CLIENT).calls.get(callId);
    if (call?.outcome?.status !== 'ok') return undefined;
    return (call.outcome.body as { watchId: number }).watchId;
  }

  client(name: ActorId): EtcdClient {
    const c = this.sim.actor<EtcdClient>(name);
    if (!c) throw new Error(`no client ${name}`);
    return c;
  }

  private kindOf(name: ActorId): string | undefined {
    return this.sim.kindOf(name);
  }
}

function roleOf(s: string): EtcdMemberView['role'] {
  switch (s) {
    case 'StateLeader':
      return 'leader';
    case 'StateCandidate':
      return 'candidate';
    case 'StatePreCandidate':
      return 'pre-candidate';
    default:
      return 'follower';
  }
}

function tailOfStorage(storage: MemberDurable['storage'], n: number) {
  const last = storage.lastIndex();
  const lo = Math.max(storage.firstIndex(), last - n + 1);
  const out = [];
  for (let i = lo; i <= last; i++) {
    const ents = storage.entries(i, i + 1, Infinity);
    if (Array.isArray(ents) && ents[0]) out.push(describeEntry(ents[0]));
  }
  return out;
}

/** KV, lease and leader ops map to one request; membership ops are handled in startOp. */
function opToRequest(op: Exclude<EtcdOp, { op: 'memberAdd' | 'memberRemove' }>, engine: Engine): [RequestType, RequestBodies[RequestType], ActorId | undefined] {
  switch (op.op) {
    case 'put':
      return ['PutRequest', { key: utf8ToBinary(op.key), value: utf8ToBinary(op.value), lease: op.lease, prevKv: op.prevKv }, undefined];
    case 'get': {
      const key = utf8ToBinary(op.key);
      const rangeEnd = op.prefix ? prefixEnd(key) : op.rangeEnd !== undefined ? utf8ToBinary(op.rangeEnd) : undefined;
      return ['RangeRequest', { key, rangeEnd, serializable: op.serializable, revision: op.revision, limit: op.limit, keysOnly: op.keysOnly, countOnly: op.countOnly }, undefined];
    }
    case 'delete': {
      const key = utf8ToBinary(op.key);
      const rangeEnd = op.prefix ? prefixEnd(key) : op.rangeEnd !== undefined ? utf8ToBinary(op.rangeEnd) : undefined;
      return ['DeleteRangeRequest', { key, rangeEnd, prevKv: op.prevKv }, undefined];
    }
    case 'compact':
      return ['CompactionRequest', { revision: op.revision }, undefined];
    case 'leaseGrant':
      return ['LeaseGrantRequest', { TTL: op.ttl, ID: op.id ?? 0 }, undefined];
    case 'leaseRevoke':
      return ['LeaseRevokeRequest', { ID: op.id }, undefined];
    case 'leaseKeepAlive':
      return ['LeaseKeepAliveRequest', { ID: op.id }, undefined];
    case 'transferLeader': {
      const raftId = Number(op.to.split('-')[1]) + 1;
      return ['MoveLeaderRequest', { targetID: memberIdOf(raftId) }, engine.leader() ?? undefined];
    }
    default:
      return assertNever(op, 'etcd op');
  }
}

function toOpResult(id: number, op: EtcdOp, call: CallRecord): EtcdOpResult {
  const r: EtcdOpResult = { id, op, issuedAt: call.issuedAt };
  if (call.outcome) {
    r.doneAt = call.doneAt;
    r.ok = call.outcome.status === 'ok';
    if (call.outcome.status === 'ok') r.response = call.outcome.body;
    else r.error = call.outcome.error.message;
    r.text = formatOpResult(op, call.outcome);
  }
  return r;
}

function commandDetail(c: Command): string {
  switch (c.type) {
    case 'fault':
      return c.fault.action;
    case 'speed':
      return String(c.speed);
    case 'etcdOp':
      return c.op.op;
    case 'load':
      return String(c.rate);
    case 'api':
      return `${c.request.method} ${c.request.path}`;
    default:
      return '';
  }
}

/** Commands are plain JSON data; copy them (as a JSON round trip would) so callers cannot mutate the log. */
function structuredCloneSafe<T>(v: T): T {
  return jsonRoundTrip(v);
}

registerClass('Engine', Engine);
