// core/v1 Events as client-go's record.EventRecorder writes them for the
// controllers (source.component = the controller): the first occurrence is
// created; an identical one later increments count and lastTimestamp (the
// correlator's aggregation, simplified to exact repeats).
import { registerClass } from '../../sim/serial';
import { rfc3339, epochMs } from '../../apiserver/http/time';
import type { EventSpec } from './types';

interface Tracked {
  name: string;
  namespace: string;
  count: number;
  first: string;
}

export interface EventCall {
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  contentType?: string;
}

const MAX_TRACKED = 4096;

export class CoreEventRecorder {
  private readonly seen = new Map<string, Tracked>();
  /** The clock reading of the last new event and how many came at it: a real clock has advanced between two calls, so names never repeat. */
  private lastNow = -1;
  private sameNow = 0;

  constructor(readonly host: string) {}

  record(e: EventSpec, component: string, now: number): EventCall | null {
    const r = e.regarding;
    const ns = r.metadata.namespace || 'default';
    const key = [component, r.kind, ns, r.metadata.name, r.metadata.uid, e.type, e.reason, e.message].join('\x00');
    const ts = rfc3339(now);
    const t = this.seen.get(key);
    if (t) {
      t.count++;
      return {
        method: 'PATCH',
        path: `/api/v1/namespaces/${t.namespace}/events/${t.name}`,
        contentType: 'application/strategic-merge-patch+json',
        body: { count: t.count, lastTimestamp: ts },
      };
    }
    if (this.seen.size >= MAX_TRACKED) this.seen.delete(this.seen.keys().next().value!);
    this.sameNow = now === this.lastNow ? this.sameNow + 1 : 0;
    this.lastNow = now;
    const nanos = (BigInt(epochMs()) * 1_000_000n + BigInt(Math.round(now * 1_000_000)) + BigInt(this.sameNow)).toString(16);
    const name = `${r.metadata.name}.${nanos}`;
    this.seen.set(key, { name, namespace: ns, count: 1, first: ts });
    return {
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/events`,
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: ns },
        involvedObject: { kind: r.kind, namespace: r.metadata.namespace, name: r.metadata.name, uid: r.metadata.uid, apiVersion: r.apiVersion, resourceVersion: r.metadata.resourceVersion },
        reason: e.reason,
        message: e.message,
        source: { component },
        firstTimestamp: ts,
        lastTimestamp: ts,
        count: 1,
        type: e.type,
        eventTime: null,
        reportingComponent: component,
        reportingInstance: '',
      },
    };
  }
}

registerClass('CoreEventRecorder', CoreEventRecorder);
