// activeQ and the in-flight bookkeeping (pkg/scheduler/backend/queue/active_queue.go).
//
// While a pod is being scheduled or bound ("in flight"), the cluster events
// the queue receives are appended to one shared log, after the pod's own
// entry. When the pod comes back unschedulable, the events after its entry are
// exactly those that happened during its attempt; the queueing hints of the
// plugins that rejected it decide whether any of them may have helped.
//
// Upstream uses a linked list. Here the log is an array of entries with
// sequence numbers; a finished pod's entry becomes a tombstone and the
// front of the log is pruned up to the first live pod, as upstream's done().
import { registerClass } from '../../sim/serial';
import type { Pod } from '../framework/api';
import type { QueuedPodInfo, QueueSortPlugin } from '../framework/interface';
import type { QueueClusterEvent } from './events';
import { KeyedHeap } from './heap';

export interface InFlightClusterEvent {
  event: QueueClusterEvent;
  oldObj: unknown;
  newObj: unknown;
}

/** An in-flight pod, or an event received while some pod was in flight. */
export type InFlightLogEntry = { type: 'pod'; pod: Pod } | ({ type: 'event' } & InFlightClusterEvent);

type LogEntry =
  | { type: 'pod'; seq: number; uid: string; pod: Pod; done: boolean }
  | ({ type: 'event'; seq: number } & InFlightClusterEvent);

type PodEntry = Extract<LogEntry, { type: 'pod' }>;

export class ActiveQueue {
  readonly heap: KeyedHeap<QueuedPodInfo>;
  /** Pod UID → its entry in `log`, for pods popped and not yet done. */
  private readonly inFlight = new Map<string, PodEntry>();
  private log: LogEntry[] = [];
  /** seq of log[0] (the next seq when the log is empty). */
  private baseSeq = 0;
  private nextSeq = 0;
  /** schedCycle: incremented at every pop. */
  private schedCycle = 0;

  constructor(
    order: QueueSortPlugin,
    private readonly trackInFlight: boolean,
  ) {
    this.heap = new KeyedHeap<QueuedPodInfo>(order);
  }

  schedulingCycle(): number {
    return this.schedCycle;
  }

  /**
   * pop: the head of activeQ, with attempts incremented, its rejector plugins
   * cleared for the new attempt, and (with hints) an entry in the in-flight log.
   */
  pop(): QueuedPodInfo | undefined {
    for (;;) {
      const pInfo = this.heap.pop();
      if (!pInfo) return undefined;
      pInfo.attempts++;
      if (this.trackInFlight) {
        const uid = pInfo.podInfo.pod.metadata.uid ?? '';
        // Upstream (#127016): a pod already in flight is a bug elsewhere; discard the duplicate.
        if (this.inFlight.has(uid)) continue;
        const entry: PodEntry = { type: 'pod', seq: this.nextSeq++, uid, pod: pInfo.podInfo.pod, done: false };
        this.log.push(entry);
        this.inFlight.set(uid, entry);
      }
      this.schedCycle++;
      pInfo.unschedulablePlugins = [];
      pInfo.pendingPlugins = [];
      return pInfo;
    }
  }

  isInFlight(uid: string): boolean {
    return this.inFlight.has(uid);
  }

  /** addEventsIfPodInFlight: records the pod's own update events when it is in flight. */
  addEventsIfPodInFlight(oldPod: Pod | undefined, newPod: Pod, events: readonly QueueClusterEvent[]): boolean {
    if (!this.inFlight.has(newPod.metadata.uid ?? '')) return false;
    for (const event of events) this.log.push({ type: 'event', seq: this.nextSeq++, event, oldObj: oldPod, newObj: newPod });
    return true;
  }

  /** addEventIfAnyInFlight */
  addEventIfAnyInFlight(oldObj: unknown, newObj: unknown, event: QueueClusterEvent): boolean {
    if (this.inFlight.size === 0) return false;
    this.log.push({ type: 'event', seq: this.nextSeq++, event, oldObj, newObj });
    return true;
  }

  /** clusterEventsForPod: the events logged since the pod was popped; null when it is not in flight. */
  clusterEventsForPod(uid: string): InFlightClusterEvent[] | null {
    const entry = this.inFlight.get(uid);
    if (!entry) return null;
    const out: InFlightClusterEvent[] = [];
    for (let i = entry.seq - this.baseSeq + 1; i < this.log.length; i++) {
      const e = this.log[i]!;
      if (e.type === 'event') out.push({ event: e.event, oldObj: e.oldObj, newObj: e.newObj });
    }
    return out;
  }

  /** done: the pod's attempt is over; events no live in-flight pod can see are dropped. */
  done(uid: string): void {
    const entry = this.inFlight.get(uid);
    if (!entry) return;
    this.inFlight.delete(uid);
    entry.done = true;
    let k = 0;
    while (k < this.log.length) {
      const e = this.log[k]!;
      if (e.type === 'pod' && !e.done) break;
      k++;
    }
    if (k > 0) {
      this.log.splice(0, k);
      this.baseSeq = this.log.length > 0 ? this.log[0]!.seq : this.nextSeq;
    }
  }

  inFlightPods(): Pod[] {
    return [...this.inFlight.values()].map((e) => e.pod);
  }

  /** The log as upstream's listInFlightEvents: live pods and events, in order. */
  inFlightLog(): InFlightLogEntry[] {
    const out: InFlightLogEntry[] = [];
    for (const e of this.log) {
      if (e.type === 'pod') {
        if (!e.done) out.push({ type: 'pod', pod: e.pod });
      } else {
        out.push({ type: 'event', event: e.event, oldObj: e.oldObj, newObj: e.newObj });
      }
    }
    return out;
  }
}

registerClass('SchedulerActiveQueue', ActiveQueue);
