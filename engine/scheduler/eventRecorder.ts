// The events.k8s.io/v1 recorder the scheduler reports with
// (client-go tools/events): the first occurrence of an event is created; a
// repeat of the same event (same object, action, reason, note) turns it into a
// series (count 2, patched at once); later repeats only count locally and the
// series is refreshed every 30 minutes, as upstream's broadcaster does.
import { registerClass } from '../sim/serial';
import { rfc3339Micro, epochMs } from '../apiserver/http/time';
import type { KObject } from '../apimachinery/types';
import type { ApiAction } from './framework/interface';

/** refreshTime in client-go tools/events. */
export const SERIES_REFRESH_MS = 30 * 60 * 1000;
/** finishTime: a series not seen for this long is forgotten. */
export const SERIES_FINISH_MS = 6 * 60 * 1000;

interface Tracked {
  name: string;
  namespace: string;
  count: number;
  lastObserved: number;
  /** Count last written to the API. */
  written: number;
}

export interface EventSpec {
  regarding: KObject;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
}

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

  /** The API calls recording this event needs now (zero or one). */
  record(e: EventSpec, now: number): ApiAction[] {
    const r = e.regarding;
    const ns = r.metadata.namespace || 'default';
    const key = [r.kind, ns, r.metadata.name, r.metadata.uid, e.action, e.reason, e.type, e.note].join('\x00');
    const t = this.cache.get(key);
    if (t) {
      t.count = t.count < 2 ? 2 : t.count + 1;
      t.lastObserved = now;
      if (t.written >= 2) return [];
      t.written = t.count;
      return [this.seriesPatch(t, now)];
    }
    this.sameNow = now === this.lastNow ? this.sameNow + 1 : 0;
    this.lastNow = now;
    const nanos = (BigInt(epochMs()) * 1_000_000n + BigInt(Math.round(now * 1_000_000)) + BigInt(this.sameNow)).toString(16);
    const name = `${r.metadata.name}.${nanos}`;
    this.cache.set(key, { name, namespace: ns, count: 1, lastObserved: now, written: 1 });
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      eventTime: rfc3339Micro(now),
      reportingController: this.reportingController,
      reportingInstance: this.reportingInstance,
      action: e.action,
      reason: e.reason,
      regarding: { kind: r.kind, namespace: r.metadata.namespace, name: r.metadata.name, uid: r.metadata.uid, apiVersion: r.apiVersion, resourceVersion: r.metadata.resourceVersion },
      note: e.note,
      type: e.type,
    };
    return [{ method: 'POST', path: `/apis/events.k8s.io/v1/namespaces/${ns}/events`, body, description: `event ${e.reason} for ${r.kind.toLowerCase()} ${ns}/${r.metadata.name}` }];
  }

  private seriesPatch(t: Tracked, now: number): ApiAction {
    return {
      method: 'PATCH',
      path: `/apis/events.k8s.io/v1/namespaces/${t.namespace}/events/${t.name}`,
      contentType: 'application/merge-patch+json',
      body: { series: { count: t.count, lastObservedTime: rfc3339Micro(now) } },
      description: `event series ${t.namespace}/${t.name} count ${t.count}`,
    };
  }

  /** Every 30 minutes: write changed series counts; forget series idle for 6 minutes. */
  refresh(now: number): ApiAction[] {
    const out: ApiAction[] = [];
    for (const [k, t] of this.cache) {
      if (t.count > t.written) {
        t.written = t.count;
        out.push(this.seriesPatch(t, t.lastObserved));
      }
      if (now - t.lastObserved >= SERIES_FINISH_MS) this.cache.delete(k);
    }
    return out;
  }
}

registerClass('SchedulerEventRecorder', EventRecorder);
