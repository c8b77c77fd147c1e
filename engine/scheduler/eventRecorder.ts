// The events.k8s.io/v1 recorder the scheduler reports with, as client-go's
// tools/events broadcaster keeps its cache (event_broadcaster.go
// recordToSink, refreshExistingEventSeries, finishSeries):
// - events are isomorphic when type, action, reason, the reporter and the
//   regarding reference (with its resourceVersion and fieldPath) and the
//   related one agree; the note is not compared, so the Event keeps the note
//   it was first written with;
// - the first is created; the first repeat makes it a series of count 2,
//   written at once; later repeats only count here;
// - every 30 minutes every series is written again (its count, its last
//   observation); every 6 minutes a series not observed for 6 minutes gets a
//   final write and is forgotten, and so is a single event older than that.
// Writes go through client/eventSink (the PATCH's fallback create, retries).
import { registerClass } from '../sim/serial';
import { rfc3339Micro, epochMs } from '../apiserver/http/time';
import type { KObject } from '../apimachinery/types';
import { eventWrite, type EventWrite } from '../client/eventSink';

/** refreshTime in client-go tools/events. */
export const SERIES_REFRESH_MS = 30 * 60 * 1000;
/** finishTime: a series not observed for this long is finished. */
export const SERIES_FINISH_MS = 6 * 60 * 1000;

interface Tracked {
  /** The Event as first written (name, note, eventTime). */
  body: Record<string, unknown>;
  name: string;
  namespace: string;
  eventTime: number;
  series: { count: number; lastObserved: number } | null;
}

export interface EventSpec {
  regarding: KObject;
  related?: KObject;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
}

/** corev1.ObjectReference as GetReference makes it: every field omitempty. */
function reference(o: KObject): Record<string, string> {
  const r: Record<string, string> = { kind: o.kind };
  const m = o.metadata;
  if (m.namespace) r.namespace = m.namespace;
  if (m.name) r.name = m.name;
  if (m.uid) r.uid = m.uid;
  if (o.apiVersion) r.apiVersion = o.apiVersion;
  if (m.resourceVersion) r.resourceVersion = m.resourceVersion;
  return r;
}

const refKey = (r: Record<string, string> | undefined) => (r ? [r.kind, r.namespace, r.name, r.uid, r.apiVersion, r.resourceVersion, r.fieldPath].join('\x01') : '');

export class EventRecorder {
  private readonly cache = new Map<string, Tracked>();
  /**
   * The instant of the last new event and how many came at it. Upstream names
   * an event `<object>.<UnixNano hex>` from a real clock, which has moved on
   * between two calls; the virtual one may not have, so a second event at one
   * instant takes the next nanosecond (else its POST is a 409 and it is lost).
   */
  private lastNow = -1;
  private sameNow = 0;

  constructor(
    readonly reportingController: string,
    readonly reportingInstance: string,
  ) {}

  /** The write recording this event needs now, if any. */
  record(e: EventSpec, now: number): EventWrite[] {
    const regarding = reference(e.regarding);
    const related = e.related ? reference(e.related) : undefined;
    const key = [e.type, e.action, e.reason, refKey(regarding), refKey(related)].join('\x00');
    const t = this.cache.get(key);
    if (t) {
      if (t.series) {
        t.series.count++;
        t.series.lastObserved = now;
        return [];
      }
      t.series = { count: 2, lastObserved: now };
      return [this.write(t)];
    }
    this.sameNow = now === this.lastNow ? this.sameNow + 1 : 0;
    this.lastNow = now;
    const nanos = (BigInt(epochMs()) * 1_000_000n + BigInt(Math.round(now * 1_000_000)) + BigInt(this.sameNow)).toString(16);
    const name = `${e.regarding.metadata.name}.${nanos}`;
    const namespace = e.regarding.metadata.namespace || 'default';
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name, namespace },
      eventTime: rfc3339Micro(now),
      reportingController: this.reportingController,
      reportingInstance: this.reportingInstance,
      action: e.action,
      reason: e.reason,
      regarding,
      ...(related ? { related } : {}),
      note: e.note,
      type: e.type,
    };
    const tracked: Tracked = { body, name, namespace, eventTime: now, series: null };
    this.cache.set(key, tracked);
    return [this.write(tracked)];
  }

  /** recordEvent: a series is a strategic merge patch of its series (the whole Event if it is gone), else a create. */
  private write(t: Tracked): EventWrite {
    const path = `/apis/events.k8s.io/v1/namespaces/${t.namespace}/events`;
    if (!t.series) return eventWrite('events', { path, body: JSON.stringify(t.body) });
    const series = { count: t.series.count, lastObservedTime: rfc3339Micro(t.series.lastObserved) };
    return eventWrite('events', { path, body: JSON.stringify({ ...t.body, series }) }, { path: `${path}/${t.name}`, body: JSON.stringify({ series }) });
  }

  /** refreshExistingEventSeries, every 30 minutes: every series written again. */
  refresh(): EventWrite[] {
    const out: EventWrite[] = [];
    for (const t of this.cache.values()) if (t.series) out.push(this.write(t));
    return out;
  }

  /** finishSeries, every 6 minutes: a final write for each series idle 6 minutes, and both they and old single events forgotten. */
  finish(now: number): EventWrite[] {
    const out: EventWrite[] = [];
    for (const [k, t] of this.cache) {
      const last = t.series ? t.series.lastObserved : t.eventTime;
      if (last >= now - SERIES_FINISH_MS) continue;
      if (t.series) out.push(this.write(t));
      this.cache.delete(k);
    }
    return out;
  }
}

registerClass('SchedulerEventRecorder', EventRecorder);
