// The browser worker's API: what the UI (app/) may call through Comlink and the
// compact updates it receives. Types only, built from the facade's view types,
// so app/ never sees engine internals.
import type { RequestRecord } from '../apiserver/records/types';
import type { DecisionJson } from '../scheduler/records/types';
import type { QueueEntry, QueueView } from '../scheduler/queue/schedulingQueue';
import type { MapDelta } from '../facade/map/protocol';
import type { EventsQuery, EventsView } from '../facade/inspect/events';
import type { InspectView, ObjectRef } from '../facade/inspect/objects';
import type { PacketTraceRequest, PacketTraceView } from '../facade/engine';
import type {
  ActiveFault,
  ClusterView,
  Command,
  ControllersView,
  EngineOptions,
  EtcdMemberView,
  EtcdOpResult,
  KvEntryView,
  MessageInFlightView,
  SchedulerView,
  TraceRecordView,
  VirtualMs,
  WatchView,
} from '../facade/types';

/** Speeds the UI offers; 0 means paused (the host keeps the last non-zero speed). */
// The slow end exists because peers on one LAN answer in about a millisecond:
// at x0.001 a message takes a second of wall time to cross.
export const SPEEDS = [0.001, 0.01, 0.1, 0.25, 0.5, 1, 2, 5, 10, 100, 1000] as const;
export const MIN_SPEED = 0.001;
export const MAX_SPEED = 10_000;

export interface ClockView {
  virtualTime: VirtualMs;
  /** Kernel events processed so far. */
  events: number;
  /** Virtual ms per wall ms while playing (never 0; see `playing`). */
  speed: number;
  playing: boolean;
  /** True when the last frame could not keep up with `speed` (work per frame is capped). */
  lagging: boolean;
  /** `count:hash` over the whole trace: equal runs have equal digests. */
  traceDigest: string;
}

export interface SessionInfo {
  seed: number;
  etcdMembers: number;
  /** e.g. "etcd: 3 members". */
  scenario: string;
}

/** A watch as the UI sees it: events are appended, never re-sent. */
export interface WatchDelta {
  watchId: number;
  key: string;
  rangeEnd?: string;
  canceled?: string;
  /** Events not posted before (all of them on the first post of this watch). */
  newEvents: WatchView['events'];
}

export interface KvDelta {
  from: string | null;
  revision: number;
  compactRevision: number;
  /** Keys in the store; the view carries at most the first KV_VIEW_LIMIT. */
  total: number;
  /** Keys created or modified since the last post (all keys when `full`). */
  changed: KvEntryView[];
  removed: string[];
}

/**
 * One batch of changes, posted at most once per animation frame. Absent fields
 * did not change. The first update after subscribing has `full: true` and
 * carries everything.
 */
export interface ViewUpdate {
  seq: number;
  full: boolean;
  clock: ClockView;
  /** Member order, sent when the membership changes (and on full updates). */
  memberOrder?: string[];
  /** Members whose view changed. */
  members?: EtcdMemberView[];
  /** All messages in flight, when that set changed. */
  inFlight?: MessageInFlightView[];
  kv?: KvDelta;
  partition?: { groups: string[][]; blocked: [string, string][] };
  /** Trace records after the last one posted (at most the newest TRACE_POST_LIMIT). */
  trace?: TraceRecordView[];
  /** Records skipped because too many happened in one frame. */
  traceSkipped?: number;
  /** New op results, and pending ones that completed. */
  opResults?: EtcdOpResult[];
  watches?: WatchDelta[];
  components?: { name: string; kind: string; up: boolean }[];
  /** Set when the engine threw (a bug): the host has paused and says why. */
  engineError?: string;
  /** kube-apiserver request records not posted before (at most REQUEST_POST_LIMIT, newest last). */
  requests?: RequestRecord[];
  /** The faults in effect, all of them, when that list changed. */
  faults?: ActiveFault[];
}

export const REQUEST_POST_LIMIT = 200;

/** What one `kubectl` run printed. `editId` is set when `kubectl edit` waits for the editor. */
/** Where a running kubectl's output goes; 'attach' says it now reads the terminal ('tty' raw, or 'pipe'). */
export type KubectlStream = 'stdout' | 'stderr' | 'attach';

export interface KubectlOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  edit?: { editId: number; path: string; content: string };
}

/** One document of a multi-document apply from the editor, and what became of it. */
export interface ApplyDocResult {
  /** 0-based index of the document, and its first line (1-based) in the buffer. */
  index: number;
  line: number;
  ok: boolean;
  /** kubectl's line: `deployment.apps/web created`, or the error. */
  message: string;
  /** YAML syntax errors: where (1-based). */
  errorLine?: number;
  errorColumn?: number;
}

export const TRACE_POST_LIMIT = 400;

export type { ClusterView, ControllersView, DecisionJson, QueueEntry, QueueView, SchedulerView };
export type { MapDelta, EventsQuery, EventsView, InspectView, ObjectRef };
export type { PacketTraceRequest, PacketTraceView };
export type { TraceStep, TraceType } from '../netfilter';
export type { ActiveFault, Fault } from '../facade/types';
export type { EventStreamRow, DescribeEventRow, EventObject } from '../facade/inspect/events';
export type { ObjectLink } from '../facade/inspect/objects';
export type { MapComponent } from '../facade/map/protocol';

/** GET /playground/v1/scheduler/decisions: every decision still held for one pod, oldest first. */
export interface PodDecisions {
  pod: string;
  decisions: DecisionJson[];
}

export type ExecResult = { ok: true; result?: unknown } | { ok: false; error: string };

/** The object the worker exposes through Comlink. */
export interface WorkerApi {
  /** (Re)creates the engine; returns once the first full update has been posted. */
  init(opts: EngineOptions): SessionInfo;
  /** Posts updates to `callback` (a Comlink proxy), at most once per frame. */
  subscribe(callback: (update: ViewUpdate) => void): void;
  play(): void;
  pause(): void;
  /** Pauses, then processes exactly one kernel event. */
  step(): TraceRecordView | null;
  /** Pauses, then processes events until the next message is delivered (or dropped). */
  stepMessage(): TraceRecordView | null;
  /** 0 pauses; otherwise clamps to [MIN_SPEED, MAX_SPEED] and sets the pace. */
  setSpeed(speed: number): void;
  exec(cmd: Command): ExecResult;
  /** Runs one kubectl command line inside the simulation (files: what -f may name, e.g. "editor"). */
  kubectl(args: string[], files?: Record<string, string>, onOutput?: (stream: KubectlStream, text: string) => void): Promise<KubectlOutput>;
  /** Keys for the running kubectl that reads the terminal (after its 'attach' output). */
  kubectlInput(data: string): void;
  /** Ctrl-C: ends the running kubectl's watch (get -w, rollout status). */
  kubectlInterrupt(): void;
  /** Continues a `kubectl edit` with the edited text (the same text cancels the edit). */
  kubectlEditDone(editId: number, text: string): Promise<KubectlOutput>;
  /** Tab completion for a kubectl command line. */
  kubectlComplete(line: string): Promise<string[]>;
  /** Applies every document of a YAML buffer (kubectl apply), one result per document. */
  apply(yaml: string): Promise<ApplyDocResult[]>;
  /** kube-scheduler: replicas, counters, queue sizes and the newest `recent` cycles (null without a control plane). */
  schedulerView(recent?: number): SchedulerView | null;
  /** The active kube-scheduler's queue, pod by pod. */
  schedulerQueue(): QueueView | null;
  /** Every decision still held for a pod ("namespace/name"). */
  schedulerDecisions(pod: string): PodDecisions;
  /** Keep (or stop keeping) a pod's decisions beyond the ring of recent cycles. */
  watchSchedulerDecisions(pod: string, on: boolean): void;
  /** The running KubeSchedulerConfiguration (YAML), or null without a scheduler. Replace it with exec({ type: 'schedulerConfig', text }). */
  schedulerConfig(): string | null;
  /** The cluster map: nodes, pods and control-plane components (null before the API server is ready). */
  clusterView(): ClusterView | null;
  /** kube-controller-manager's controllers: queue depth, latency and recent reconciles (null without it). */
  controllersView(): ControllersView | null;
  /** The cluster map's changes since delta `seq` of feed `epoch` (everything for 0, 0 or a stale pair); its buffers are transferred. */
  clusterMap(epoch: number, seq: number): MapDelta;
  /** One API object: its YAML as `kubectl get -o yaml` prints it, owners, dependents and events. */
  inspect(ref: ObjectRef): InspectView | { error: string };
  /** The newest events matching a filter, newest first (null before an API server is ready). */
  events(query: EventsQuery): EventsView | null;
  /** A packet through a node's iptables as `-j TRACE` logs it, on a copy of its tables (null for a node without a machine). */
  tracePacket(node: string, req: PacketTraceRequest): PacketTraceView | { error: string } | null;
}
