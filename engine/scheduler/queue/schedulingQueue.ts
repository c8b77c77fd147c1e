// The scheduling queue (pkg/scheduler/backend/queue/scheduling_queue.go, v1.32):
// a PriorityQueue of pods waiting to be scheduled, made of
//   - activeQ: a heap ordered by the QueueSort plugin; pop() takes its head;
//   - backoffQ: a heap ordered by back-off expiry; flushBackoffQCompleted moves
//     expired pods to activeQ;
//   - unschedulablePods: pods a plugin rejected, waiting for a cluster event that
//     one of those plugins registered (EnqueueExtensions) and whose queueing hint
//     says Queue; also pods a PreEnqueue plugin gated (gated = true);
// plus the nominator (pods preemption nominated to nodes).
//
// Virtual time: every method that needs the clock takes `now` (ms). No timers:
// the owner calls flushBackoffQCompleted(now) every 1 s and
// flushUnschedulablePodsLeftover(now) every 30 s, as upstream's Run does.
import { registerClass } from '../../sim/serial';
import { podKey, podPriority, type Pod } from '../framework/api';
import {
  isEnqueueExtensions,
  type ClusterEvent,
  type EnqueueExtensions,
  type Plugin,
  type PreEnqueuePlugin,
  type QueuedPodInfo,
  type QueueingHint,
  type QueueSortPlugin,
} from '../framework/interface';
import { affinityTermMatches, PodInfo } from '../framework/podInfo';
import { message as statusMessage } from '../framework/status';
import type { Labels } from '../../apimachinery/selectors/labels';
import { ActiveQueue, type InFlightLogEntry } from './activeQueue';
import {
  BackoffOrder,
  calculateBackoffDuration,
  DEFAULT_POD_INITIAL_BACKOFF_MS,
  DEFAULT_POD_MAX_BACKOFF_MS,
  DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS,
} from './backoff';
import {
  actionMask,
  BackoffComplete,
  EventAssignedPodAdd,
  EventForceActivate,
  eventLabel,
  EventUnschedulableTimeout,
  EventUnscheduledPodAdd,
  EventUnscheduledPodUpdate,
  ForceActivate,
  isPodUpdated,
  isWildCard,
  matchClusterEvent,
  podSchedulingPropertiesChange,
  profileOf,
  publicEvent,
  resourceMatches,
  ScheduleAttemptFailure,
  UNROLLED_WILDCARD,
  type QueueClusterEvent,
} from './events';
import { KeyedHeap } from './heap';
import { Nominator, type NominatingInfo } from './nominator';

export interface PriorityQueueOptions {
  /** The QueueSort plugin (all profiles share one, as upstream requires). */
  queueSort: QueueSortPlugin;
  /** Profile (schedulerName) → its PreEnqueue plugins, in order. */
  preEnqueue?: Map<string, PreEnqueuePlugin[]>;
  /**
   * Plugin name → plugin, for every enabled plugin. Plugins with
   * eventsToRegister() use their registrations; the others are registered for
   * every event on every resource (upstream's defaultEnqueueExtension).
   */
  enqueueExtensions?: Map<string, Plugin>;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsDurationMs?: number;
  /** The SchedulerQueueingHints feature gate (on by default in v1.32). Off: the moveRequestCycle rule. */
  queueingHints?: boolean;
}

/** PreEnqueueCheck: the caller's filter of which unschedulable pods an event may move (not stored). */
export type PreEnqueueCheck = (pod: Pod) => boolean;

/** Where a pod was put (upstream's queue names). */
export type QueueName = 'Active' | 'Backoff' | 'Unschedulable';

/** queueingStrategy */
type QueueingStrategy = 'queueSkip' | 'queueAfterBackoff' | 'queueImmediately';

/** A QueuedPodInfo as pop() returns it: with the scheduling cycle it started. */
export interface QueuedPod extends QueuedPodInfo {
  schedulingCycle?: number;
}

/** One pod as the UI and GET /playground/v1/scheduler/queue show it. */
export interface QueueEntry {
  /** "namespace/name" */
  pod: string;
  priority: number;
  attempts: number;
  /** Virtual ms of the pod's addition or its last failure (back-off counts from it). */
  timestamp: number;
  /** When its back-off ends (backoff and unschedulable pods). */
  backoffExpiresAt?: number;
  unschedulablePlugins: string[];
  pendingPlugins: string[];
  /** The last failure message (set by the owner, or the PreEnqueue rejection of a gated pod). */
  message?: string;
  /** Virtual ms it entered the sub-queue it is in. */
  enqueuedAt: number;
}

export interface QueueView {
  /** In pop order. */
  active: QueueEntry[];
  /** In back-off expiry order. */
  backoff: QueueEntry[];
  unschedulable: QueueEntry[];
  gated: QueueEntry[];
}

/** One (event, plugin) pair of upstream's QueueingHintMap. */
interface Registration {
  event: ClusterEvent;
  /** The event's resource, action bits and wildcard-ness, precomputed for matching. */
  resource: ClusterEvent['resource'];
  mask: number;
  wild: boolean;
  plugin: string;
  /** Ask the plugin's isSchedulableAfter (else the default hint: Queue). */
  useHint: boolean;
}

interface Since {
  queue: QueueName;
  at: number;
}

interface Message {
  text: string;
  /** Set from a PreEnqueue rejection: cleared when the pod is no longer gated. */
  fromGate: boolean;
}

const UNSCHEDULED_POD_ADD = eventLabel(EventUnscheduledPodAdd);
const UNSCHEDULED_POD_UPDATE = eventLabel(EventUnscheduledPodUpdate);

function uidOf(pod: Pod): string {
  return pod.metadata.uid ?? '';
}

function union(a: readonly string[], b: readonly string[]): Set<string> {
  const s = new Set(a);
  for (const x of b) s.add(x);
  return s;
}

export class PriorityQueue {
  private readonly queueSort: QueueSortPlugin;
  private readonly preEnqueuePlugins: Map<string, PreEnqueuePlugin[]>;
  private readonly plugins: Map<string, Plugin>;
  private readonly registrations: Registration[] = [];
  readonly podInitialBackoffMs: number;
  readonly podMaxBackoffMs: number;
  readonly podMaxInUnschedulablePodsDurationMs: number;
  readonly queueingHints: boolean;

  private readonly activeQ: ActiveQueue;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly backoffOrder: BackoffOrder;
  /** unschedulablePods (gated pods included), by "namespace/name", in insertion order. */
  private readonly unschedulablePods = new Map<string, QueuedPodInfo>();
  /**
   * The scheduling cycle of the last move request: a pod whose attempt started
   * at or before it goes to backoffQ rather than unschedulablePods (hints off).
   */
  private moveRequestCycle = -1;
  readonly nominator = new Nominator();

  private readonly since = new Map<string, Since>();
  private readonly messages = new Map<string, Message>();

  constructor(o: PriorityQueueOptions) {
    this.queueSort = o.queueSort;
    this.preEnqueuePlugins = o.preEnqueue ?? new Map();
    this.plugins = o.enqueueExtensions ?? new Map();
    this.podInitialBackoffMs = o.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS;
    this.podMaxBackoffMs = o.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS;
    this.podMaxInUnschedulablePodsDurationMs = o.podMaxInUnschedulablePodsDurationMs ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS;
    this.queueingHints = o.queueingHints ?? true;
    this.activeQ = new ActiveQueue(this.queueSort, this.queueingHints);
    this.backoffOrder = new BackoffOrder(this.podInitialBackoffMs, this.podMaxBackoffMs);
    this.backoffQ = new KeyedHeap<QueuedPodInfo>(this.backoffOrder);
    this.buildRegistrations();
  }

  /** buildQueueingHintMap (pkg/scheduler/scheduler.go). */
  private buildRegistrations(): void {
    for (const [name, pl] of this.plugins) {
      const ext = isEnqueueExtensions(pl);
      const events = ext ? pl.eventsToRegister() : UNROLLED_WILDCARD;
      // No events: only the pod's own update can requeue it (e.g. SchedulingGates).
      if (events.length === 0) continue;
      const hasHint = ext && typeof (pl as EnqueueExtensions).isSchedulableAfter === 'function';
      let nodeAdded = false;
      let nodeTaint = false;
      for (const event of events) {
        if (event.resource === 'Node') {
          const m = actionMask(event.actions);
          if (m & actionMask(['Add'])) nodeAdded = true;
          if (m & actionMask(['UpdateNodeTaint'])) nodeTaint = true;
        }
        this.register(event, name, this.queueingHints && hasHint);
      }
      // Upstream's workaround for #109437: a plugin interested in NodeAdd also hears
      // UpdateNodeTaint (default hint), since preCheck can hide a node's addition.
      if (nodeAdded && !nodeTaint) this.register({ resource: 'Node', actions: ['UpdateNodeTaint'] }, name, false);
    }
  }

  private register(event: ClusterEvent, plugin: string, useHint: boolean): void {
    this.registrations.push({ event, resource: event.resource, mask: actionMask(event.actions), wild: isWildCard(event), plugin, useHint });
  }

  /** ClusterEvent.Match of a registration against an incoming event's resource and action bits. */
  private static matches(reg: Registration, resource: ClusterEvent['resource'], mask: number): boolean {
    return reg.wild || ((reg.mask & mask) !== 0 && resourceMatches(reg.resource, resource));
  }

  // ---------------------------------------------------------------- basics

  /** SchedulingCycle: the number of pods popped so far. */
  get schedulingCycle(): number {
    return this.activeQ.schedulingCycle();
  }

  calculateBackoffDuration(p: QueuedPodInfo): number {
    return calculateBackoffDuration(p.attempts, this.podInitialBackoffMs, this.podMaxBackoffMs);
  }

  /** getBackoffTime: when the pod's back-off ends. */
  getBackoffTime(p: QueuedPodInfo): number {
    return this.backoffOrder.backoffTime(p);
  }

  /** isPodBackingoff: gated pods never are. */
  isPodBackingoff(p: QueuedPodInfo, now: number): boolean {
    if (p.gated) return false;
    return this.getBackoffTime(p) > now;
  }

  private newQueuedPodInfo(pod: Pod, now: number, plugins: string[] = []): QueuedPodInfo {
    return { podInfo: new PodInfo(pod), timestamp: now, attempts: 0, initialAttemptTimestamp: undefined, unschedulablePlugins: plugins, pendingPlugins: [], gated: false };
  }

  private entered(key: string, queue: QueueName, now: number): void {
    if (this.since.get(key)?.queue !== queue) this.since.set(key, { queue, at: now });
  }

  private putUnschedulable(key: string, pInfo: QueuedPodInfo, now: number): void {
    this.unschedulablePods.set(key, pInfo);
    this.entered(key, 'Unschedulable', now);
  }

  private putBackoff(key: string, pInfo: QueuedPodInfo, now: number): void {
    this.backoffQ.addOrUpdate(key, pInfo);
    this.entered(key, 'Backoff', now);
  }

  // ---------------------------------------------------------------- PreEnqueue

  /** runPreEnqueuePlugins: false at the first rejection, which is recorded among unschedulablePlugins. */
  private runPreEnqueuePlugins(pInfo: QueuedPodInfo): boolean {
    const pod = pInfo.podInfo.pod;
    for (const pl of this.preEnqueuePlugins.get(profileOf(pod)) ?? []) {
      const s = pl.preEnqueue(pod);
      if (s === null) continue;
      if (!pInfo.unschedulablePlugins.includes(pl.name)) pInfo.unschedulablePlugins.push(pl.name);
      this.messages.set(podKey(pod), { text: statusMessage(s), fromGate: true });
      return false;
    }
    return true;
  }

  /**
   * moveToActiveQ: runs the PreEnqueue plugins; a gated pod goes to
   * unschedulablePods (unless it is already queued), the others to activeQ.
   */
  private moveToActiveQ(pInfo: QueuedPodInfo, event: string, now: number): boolean {
    pInfo.gated = !this.runPreEnqueuePlugins(pInfo);
    const key = podKey(pInfo.podInfo.pod);
    if (pInfo.gated) {
      if (this.activeQ.heap.has(key) || this.backoffQ.has(key)) return false;
      this.putUnschedulable(key, pInfo, now);
      return false;
    }
    if (pInfo.initialAttemptTimestamp === undefined) pInfo.initialAttemptTimestamp = now;
    this.activeQ.heap.addOrUpdate(key, pInfo);
    this.entered(key, 'Active', now);
    this.unschedulablePods.delete(key);
    this.backoffQ.delete(key);
    if (this.messages.get(key)?.fromGate) this.messages.delete(key);
    if (event === UNSCHEDULED_POD_ADD || event === UNSCHEDULED_POD_UPDATE) {
      this.nominator.add(pInfo.podInfo);
    }
    return true;
  }

  // ---------------------------------------------------------------- Add / Activate / Pop / Done

  /** Add: a new pending pod (informer add). */
  add(pod: Pod, now: number): void {
    this.moveToActiveQ(this.newQueuedPodInfo(pod, now), UNSCHEDULED_POD_ADD, now);
  }

  /**
   * Activate: moves the pods from unschedulablePods/backoffQ to activeQ. A pod
   * in flight instead gets a ForceActivate event (for itself only), so it is
   * requeued when its attempt fails.
   */
  activate(pods: readonly Pod[], now: number): void {
    for (const pod of pods) {
      const key = podKey(pod);
      const pInfo = this.unschedulablePods.get(key) ?? this.backoffQ.get(key);
      if (pInfo && this.moveToActiveQ(pInfo, ForceActivate, now)) continue;
      if (this.queueingHints) this.activeQ.addEventsIfPodInFlight(undefined, pod, [EventForceActivate]);
      this.moveRequestCycle = this.schedulingCycle;
    }
  }

  /**
   * Pop: the head of activeQ (undefined when empty, where upstream blocks).
   * Attempts are incremented and the scheduling cycle advances; the returned
   * pod carries that cycle.
   */
  pop(_now: number): QueuedPod | undefined {
    const pInfo: QueuedPod | undefined = this.activeQ.pop();
    if (!pInfo) return undefined;
    pInfo.schedulingCycle = this.schedulingCycle;
    this.since.delete(podKey(pInfo.podInfo.pod));
    return pInfo;
  }

  /** Done: the attempt of a popped pod (or its UID) is over: it was bound, dropped, or re-added. */
  done(pod: Pod | string): void {
    if (!this.queueingHints) return;
    this.activeQ.done(typeof pod === 'string' ? pod : uidOf(pod));
  }

  // ---------------------------------------------------------------- failures

  /**
   * AddUnschedulableIfNotPresent: a popped pod whose attempt failed comes back.
   * With hints, the events that happened during its attempt and the hints of
   * its rejecting plugins choose activeQ, backoffQ or unschedulablePods; without,
   * the moveRequestCycle rule. No rejecting plugin recorded (an Error) always
   * means a retry after back-off. Returns an error message if the pod is
   * already queued (nothing is changed then), else null.
   *
   * `message` is shown in the view; `isError` says the attempt ended in an
   * Error rather than a rejection: no plugin rejected it, so it is retried
   * after back-off (upstream gets there by leaving the plugin sets empty).
   */
  addUnschedulableIfNotPresent(pInfo: QueuedPodInfo, podSchedulingCycle: number, now: number, message?: string, isError = false): string | null {
    const pod = pInfo.podInfo.pod;
    const key = podKey(pod);
    try {
      if (this.unschedulablePods.has(key)) return `Pod ${key} is already present in unschedulable queue`;
      if (this.activeQ.heap.has(key)) return `Pod ${key} is already present in the active queue`;
      if (this.backoffQ.has(key)) return `Pod ${key} is already present in the backoff queue`;

      if (message !== undefined) this.messages.set(key, { text: message, fromGate: false });
      if (isError) {
        pInfo.unschedulablePlugins = [];
        pInfo.pendingPlugins = [];
      }

      // Refresh the timestamp since the pod is re-added: back-off counts from now.
      pInfo.timestamp = now;
      if (!this.queueingHints) {
        this.addUnschedulableWithoutQueueingHint(pInfo, podSchedulingCycle, now);
        return null;
      }
      const strategy = this.determineSchedulingHintForInFlightPod(pInfo);
      this.requeuePodViaQueueingHint(pInfo, strategy, ScheduleAttemptFailure, now);
      return null;
    } finally {
      // In any case the pod is no longer in flight.
      this.done(uidOf(pod));
    }
  }

  private addUnschedulableWithoutQueueingHint(pInfo: QueuedPodInfo, podSchedulingCycle: number, now: number): void {
    const key = podKey(pInfo.podInfo.pod);
    const rejectors = union(pInfo.unschedulablePlugins, pInfo.pendingPlugins);
    // A move request since the attempt started, or no plugin to wait for: retry after back-off.
    if (this.moveRequestCycle >= podSchedulingCycle || rejectors.size === 0) {
      this.putBackoff(key, pInfo, now);
    } else {
      this.putUnschedulable(key, pInfo, now);
    }
  }

  /** determineSchedulingHintForInFlightPod */
  private determineSchedulingHintForInFlightPod(pInfo: QueuedPodInfo): QueueingStrategy {
    const events = this.activeQ.clusterEventsForPod(uidOf(pInfo.podInfo.pod));
    // Not in flight: should not happen; retry rather than strand the pod.
    if (events === null) return 'queueAfterBackoff';
    const rejectors = union(pInfo.unschedulablePlugins, pInfo.pendingPlugins);
    // Nothing rejected it (an error, e.g. an API failure): retry.
    if (rejectors.size === 0) return 'queueAfterBackoff';
    let strategy: QueueingStrategy = 'queueSkip';
    for (const e of events) {
      switch (this.isPodWorthRequeuing(pInfo, e.event, e.oldObj, e.newObj)) {
        case 'queueSkip':
          continue;
        case 'queueImmediately':
          return 'queueImmediately';
        case 'queueAfterBackoff':
          strategy = 'queueAfterBackoff';
          // Only Pending plugins can raise it to queueImmediately.
          if (pInfo.pendingPlugins.length === 0) return strategy;
      }
    }
    return strategy;
  }

  /**
   * isPodWorthRequeuing: asks the hints of the plugins that rejected the pod
   * (only those registered for a matching event). A Pending plugin's Queue
   * means activeQ now; an Unschedulable plugin's Queue means after back-off.
   */
  private isPodWorthRequeuing(pInfo: QueuedPodInfo, event: QueueClusterEvent, oldObj: unknown, newObj: unknown): QueueingStrategy {
    const unsched = pInfo.unschedulablePlugins;
    const pending = pInfo.pendingPlugins;
    if (unsched.length === 0 && pending.length === 0) return 'queueAfterBackoff';
    const pod = pInfo.podInfo.pod;
    if (isWildCard(event)) {
      // A wildcard event carrying a pod (ForceActivate) is for that pod only.
      const target = newObj as Pod | undefined;
      if (target && target.kind === 'Pod' && target.metadata?.uid !== undefined && target.metadata.uid !== pod.metadata.uid) return 'queueSkip';
      return 'queueAfterBackoff';
    }
    let strategy: QueueingStrategy = 'queueSkip';
    const mask = actionMask(event.actions);
    for (const reg of this.registrations) {
      // Rejector lists hold a plugin or two: includes() beats building a Set per pod.
      const isPending = pending.includes(reg.plugin);
      if (!isPending && !unsched.includes(reg.plugin)) continue;
      if (!PriorityQueue.matches(reg, event.resource, mask)) continue;
      if (this.hint(reg, event, pod, oldObj, newObj) === 'QueueSkip') continue;
      if (isPending) return 'queueImmediately';
      if (pending.length === 0) return 'queueAfterBackoff';
      strategy = 'queueAfterBackoff';
    }
    return strategy;
  }

  private hint(reg: Registration, event: QueueClusterEvent, pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    if (!reg.useHint) return 'Queue';
    const pl = this.plugins.get(reg.plugin) as (Plugin & EnqueueExtensions) | undefined;
    if (!pl?.isSchedulableAfter) return 'Queue';
    return pl.isSchedulableAfter(publicEvent(event), pod, oldObj as never, newObj as never);
  }

  /** isEventOfInterest: a wildcard, or an event some plugin registered. */
  private isEventOfInterest(event: QueueClusterEvent): boolean {
    if (isWildCard(event)) return true;
    const mask = actionMask(event.actions);
    for (const reg of this.registrations) if (PriorityQueue.matches(reg, event.resource, mask)) return true;
    return false;
  }

  /** requeuePodViaQueueingHint: puts the pod where the strategy says; returns the queue. */
  private requeuePodViaQueueingHint(pInfo: QueuedPodInfo, strategy: QueueingStrategy, event: string, now: number): QueueName {
    const key = podKey(pInfo.podInfo.pod);
    if (strategy === 'queueSkip') {
      this.putUnschedulable(key, pInfo, now);
      return 'Unschedulable';
    }
    if (strategy === 'queueAfterBackoff' && this.isPodBackingoff(pInfo, now)) {
      this.putBackoff(key, pInfo, now);
      return 'Backoff';
    }
    if (this.moveToActiveQ(pInfo, event, now)) return 'Active';
    // A gated pod was put back into unschedulablePods by moveToActiveQ.
    if (pInfo.gated) return 'Unschedulable';
    this.putUnschedulable(key, pInfo, now);
    return 'Unschedulable';
  }

  // ---------------------------------------------------------------- flushes

  /** flushBackoffQCompleted: pods whose back-off ended go to activeQ. */
  flushBackoffQCompleted(now: number): void {
    for (;;) {
      const pInfo = this.backoffQ.peek();
      if (!pInfo || this.isPodBackingoff(pInfo, now)) break;
      this.backoffQ.pop();
      this.moveToActiveQ(pInfo, BackoffComplete, now);
    }
  }

  /** flushUnschedulablePodsLeftover: pods unschedulable for longer than the maximum are retried. */
  flushUnschedulablePodsLeftover(now: number): void {
    const toMove: QueuedPodInfo[] = [];
    for (const pInfo of this.unschedulablePods.values()) {
      if (now - pInfo.timestamp > this.podMaxInUnschedulablePodsDurationMs) toMove.push(pInfo);
    }
    if (toMove.length > 0) this.movePodsToActiveOrBackoffQueue(toMove, EventUnschedulableTimeout, undefined, undefined, now);
  }

  // ---------------------------------------------------------------- events

  /**
   * MoveAllToActiveOrBackoffQueue: a cluster event happened. Each
   * unschedulable pod (passing preCheck) whose rejecting plugins registered the
   * event, and whose hint says Queue, moves to backoffQ (still backing off) or
   * activeQ. Pods with no rejecting plugin move on any event of interest.
   */
  moveAllToActiveOrBackoffQueue(event: QueueClusterEvent, oldObj: unknown, newObj: unknown, now: number, preCheck?: PreEnqueueCheck): void {
    if (event.actions.length > 1) {
      // Upstream's events carry one ActionType each (a node update that changed
      // labels and taints is two events): deliver them one by one, in order.
      for (const a of event.actions) this.moveAllToActiveOrBackoffQueue({ resource: event.resource, actions: [a], label: event.label }, oldObj, newObj, now, preCheck);
      return;
    }
    if (!this.isEventOfInterest(event)) return;
    const pods: QueuedPodInfo[] = [];
    for (const pInfo of this.unschedulablePods.values()) {
      if (!preCheck || preCheck(pInfo.podInfo.pod)) pods.push(pInfo);
    }
    this.movePodsToActiveOrBackoffQueue(pods, event, oldObj, newObj, now);
  }

  private movePodsToActiveOrBackoffQueue(pods: readonly QueuedPodInfo[], event: QueueClusterEvent, oldObj: unknown, newObj: unknown, now: number): void {
    if (!this.isEventOfInterest(event)) return;
    const label = eventLabel(event);
    for (const pInfo of pods) {
      // Pods held by scheduling gates wait for their own update, never for events.
      if (pInfo.gated && pInfo.unschedulablePlugins.includes('SchedulingGates')) continue;
      const strategy = this.isPodWorthRequeuing(pInfo, event, oldObj, newObj);
      if (strategy === 'queueSkip') continue;
      this.unschedulablePods.delete(podKey(pInfo.podInfo.pod));
      this.requeuePodViaQueueingHint(pInfo, strategy, label, now);
    }
    this.moveRequestCycle = this.schedulingCycle;
    // Pods in flight will check this event when they come back.
    if (this.queueingHints) this.activeQ.addEventIfAnyInFlight(oldObj, newObj, event);
  }

  /**
   * AssignedPodAdded (used when queueing hints are off; with hints the owner
   * calls moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, ...)): only pods
   * whose required affinity matches the new pod, or that PodTopologySpread
   * rejected in its namespace, may move. `nsLabels` are the labels of the
   * assigned pod's namespace.
   */
  assignedPodAdded(pod: Pod, now: number, nsLabels?: Labels): void {
    this.movePodsToActiveOrBackoffQueue(this.unschedulablePodsWithCrossTopologyTerm(pod, nsLabels), EventAssignedPodAdd, undefined, pod, now);
  }

  /** AssignedPodUpdated (hints off): a scale-down may help any pod; other updates only cross-topology ones. */
  assignedPodUpdated(oldPod: Pod, newPod: Pod, event: QueueClusterEvent, now: number, nsLabels?: Labels): void {
    if (matchClusterEvent({ resource: 'Pod', actions: ['UpdatePodScaleDown'] }, event)) {
      this.moveAllToActiveOrBackoffQueue(event, oldPod, newPod, now);
    } else {
      this.movePodsToActiveOrBackoffQueue(this.unschedulablePodsWithCrossTopologyTerm(newPod, nsLabels), event, oldPod, newPod, now);
    }
  }

  private unschedulablePodsWithCrossTopologyTerm(pod: Pod, nsLabels: Labels | undefined): QueuedPodInfo[] {
    const out: QueuedPodInfo[] = [];
    for (const pInfo of this.unschedulablePods.values()) {
      if (pInfo.unschedulablePlugins.includes('PodTopologySpread') && pod.metadata.namespace === pInfo.podInfo.pod.metadata.namespace) {
        out.push(pInfo);
        continue;
      }
      if (pInfo.podInfo.requiredAffinityTerms.some((t) => affinityTermMatches(t, pod, nsLabels))) out.push(pInfo);
    }
    return out;
  }

  // ---------------------------------------------------------------- Update / Delete

  /**
   * Update: an unassigned pod changed. In flight: only recorded as events.
   * In activeQ/backoffQ: updated in place. In unschedulablePods: with hints,
   * requeued if a rejecting plugin's hint says the update may help; without,
   * requeued on any spec/metadata change. Elsewhere: added to activeQ.
   */
  update(oldPod: Pod | undefined, newPod: Pod, now: number): void {
    const events = this.queueingHints && oldPod ? podSchedulingPropertiesChange(oldPod, newPod) : [];
    if (this.queueingHints && this.activeQ.addEventsIfPodInFlight(oldPod, newPod, events)) return;

    if (oldPod) {
      const oldKey = podKey(oldPod);
      const inActive = this.activeQ.heap.get(oldKey);
      if (inActive) {
        inActive.podInfo = new PodInfo(newPod);
        this.activeQ.heap.addOrUpdate(oldKey, inActive);
        this.nominator.update(oldPod, inActive.podInfo);
        return;
      }
      const inBackoff = this.backoffQ.get(oldKey);
      if (inBackoff) {
        inBackoff.podInfo = new PodInfo(newPod);
        this.nominator.update(oldPod, inBackoff.podInfo);
        this.backoffQ.addOrUpdate(oldKey, inBackoff);
        return;
      }
    }

    const key = podKey(newPod);
    const pInfo = this.unschedulablePods.get(key);
    if (pInfo) {
      pInfo.podInfo = new PodInfo(newPod);
      if (oldPod) this.nominator.update(oldPod, pInfo.podInfo);
      if (this.queueingHints) {
        for (const evt of events) {
          const strategy = this.isPodWorthRequeuing(pInfo, evt, oldPod, newPod);
          const queue = this.requeuePodViaQueueingHint(pInfo, strategy, eventLabel(evt), now);
          if (queue !== 'Unschedulable') this.unschedulablePods.delete(key);
          // Upstream goes on only after Unschedulable, or after Backoff, where a later
          // QueueSkip would file the pod in two places; once it has left, it stays out.
          if (queue !== 'Unschedulable') break;
        }
        return;
      }
      if (oldPod && isPodUpdated(oldPod, newPod)) {
        if (this.isPodBackingoff(pInfo, now)) {
          this.putBackoff(key, pInfo, now);
          this.unschedulablePods.delete(key);
          return;
        }
        this.moveToActiveQ(pInfo, BackoffComplete, now);
        return;
      }
      // The update cannot make it schedulable: it stays (with the new pod).
      return;
    }
    this.moveToActiveQ(this.newQueuedPodInfo(newPod, now), UNSCHEDULED_POD_UPDATE, now);
  }

  /** Delete: the pod is gone (or was bound elsewhere). */
  delete(pod: Pod): void {
    this.nominator.delete(pod);
    const key = podKey(pod);
    if (!this.activeQ.heap.delete(key)) {
      this.backoffQ.delete(key);
      this.unschedulablePods.delete(key);
    }
    this.since.delete(key);
    this.messages.delete(key);
  }

  // ---------------------------------------------------------------- nominator

  /**
   * AddNominatedPod. A node name stands for {Override, name}; absent is Noop
   * (the pod's status.nominatedNodeName). See Nominator.add for `livePod`.
   */
  addNominatedPod(pi: PodInfo, nominatingInfo?: NominatingInfo | string, livePod?: Pod | null): void {
    const info = typeof nominatingInfo === 'string' ? { nominatingMode: 'Override' as const, nominatedNodeName: nominatingInfo } : nominatingInfo;
    this.nominator.add(pi, info, livePod);
  }

  deleteNominatedPodIfExists(pod: Pod): void {
    this.nominator.delete(pod);
  }

  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void {
    this.nominator.update(oldPod, newPodInfo);
  }

  /**
   * NominatedPodsForNode: the pods nominated to the node, each as the queue's
   * current PodInfo (activeQ, unschedulablePods, backoffQ), else as last nominated.
   */
  nominatedPodsForNode(nodeName: string): PodInfo[] {
    const out: PodInfo[] = [];
    for (const ref of this.nominator.forNode(nodeName)) {
      const key = `${ref.namespace}/${ref.name}`;
      const pi = this.activeQ.heap.get(key)?.podInfo ?? this.unschedulablePods.get(key)?.podInfo ?? this.backoffQ.get(key)?.podInfo ?? this.nominator.lastKnown(ref.uid);
      if (pi) out.push(pi);
    }
    return out;
  }

  // ---------------------------------------------------------------- inspection

  /** Sets the message the view shows for a pod (e.g. the last FitError). */
  setMessage(pod: Pod | string, text: string | undefined): void {
    const key = typeof pod === 'string' ? pod : podKey(pod);
    if (text === undefined) this.messages.delete(key);
    else this.messages.set(key, { text, fromGate: false });
  }

  /** GetPod: the queued pod by "namespace/name", and where it is. */
  get(key: string): { pInfo: QueuedPodInfo; queue: QueueName } | undefined {
    const a = this.activeQ.heap.get(key);
    if (a) return { pInfo: a, queue: 'Active' };
    const b = this.backoffQ.get(key);
    if (b) return { pInfo: b, queue: 'Backoff' };
    const u = this.unschedulablePods.get(key);
    if (u) return { pInfo: u, queue: 'Unschedulable' };
    return undefined;
  }

  podsInActiveQ(): Pod[] {
    return this.activeQ.heap.list().map((p) => p.podInfo.pod);
  }

  podsInBackoffQ(): Pod[] {
    return this.backoffQ.list().map((p) => p.podInfo.pod);
  }

  unschedulablePodList(): Pod[] {
    return [...this.unschedulablePods.values()].map((p) => p.podInfo.pod);
  }

  inFlightPods(): Pod[] {
    return this.queueingHints ? this.activeQ.inFlightPods() : [];
  }

  /** listInFlightEvents: in-flight pods and the events logged after them, in order. */
  inFlightEvents(): InFlightLogEntry[] {
    return this.activeQ.inFlightLog();
  }

  /** Every queued pod: activeQ, backoffQ, unschedulablePods (gated included). */
  allPods(): Pod[] {
    return this.pendingPods().pods;
  }

  /** PendingPods: every queued pod and upstream's summary line. */
  pendingPods(): { pods: Pod[]; summary: string } {
    const a = this.podsInActiveQ();
    const b = this.podsInBackoffQ();
    const u = this.unschedulablePodList();
    return { pods: [...a, ...b, ...u], summary: `activeQ:${a.length}; backoffQ:${b.length}; unschedulablePods:${u.length}` };
  }

  /** The queue as plain data (UI, GET /playground/v1/scheduler/queue). */
  view(now: number): QueueView {
    const entry = (p: QueuedPodInfo, withBackoff: boolean): QueueEntry => {
      const key = podKey(p.podInfo.pod);
      const e: QueueEntry = {
        pod: key,
        priority: podPriority(p.podInfo.pod),
        attempts: p.attempts,
        timestamp: p.timestamp,
        unschedulablePlugins: [...p.unschedulablePlugins],
        pendingPlugins: [...p.pendingPlugins],
        enqueuedAt: this.since.get(key)?.at ?? now,
      };
      if (withBackoff) e.backoffExpiresAt = this.getBackoffTime(p);
      const m = this.messages.get(key);
      if (m) e.message = m.text;
      return e;
    };
    const unschedulable: QueueEntry[] = [];
    const gated: QueueEntry[] = [];
    for (const p of this.unschedulablePods.values()) {
      if (p.gated) gated.push(entry(p, false));
      else unschedulable.push(entry(p, true));
    }
    return {
      active: this.activeQ.heap.popOrder().map((p) => entry(p, false)),
      backoff: this.backoffQ.popOrder().map((p) => entry(p, true)),
      unschedulable,
      gated,
    };
  }
}

registerClass('SchedulerPriorityQueue', PriorityQueue);
