// core/v1 Events as client-go's record.EventRecorder writes them for the
// controllers (source.component = the controller), each component's events
// through its own EventCorrelator (client/eventCorrelator: each upstream
// controller has its own broadcaster): the first occurrence is created, a
// repeat bumps it by a patch, similar ones are combined, spam is dropped.
import { registerClass } from '../../sim/serial';
import { rfc3339, epochMs } from '../../apiserver/http/time';
import { correlate, newEventCorrelator, type EventCorrelatorState } from '../../client/eventCorrelator';
import type { EventSpec } from './types';
import { eventWrite, type EventWrite } from '../../client/eventSink';

export interface EventCall {
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  contentType?: string;
  /** For a bump: the whole Event to create if the one it bumps is gone (recordEvent's fallback on NotFound). */
  create?: { path: string; body: unknown };
}

export class CoreEventRecorder {
  private readonly correlators = new Map<string, EventCorrelatorState>();
  /** The clock reading of the last new event and how many came at it: a real clock has advanced between two calls, so names never repeat. */
  private lastNow = -1;
  private sameNow = 0;

  constructor(readonly host: string) {}

  record(e: EventSpec, component: string, now: number): EventCall | null {
    const r = e.regarding;
    const ns = r.metadata.namespace || 'default';
    const ts = rfc3339(now);
    let state = this.correlators.get(component);
    if (!state) this.correlators.set(component, (state = newEventCorrelator()));
    const involvedObject = { kind: r.kind, namespace: r.metadata.namespace, name: r.metadata.name, uid: r.metadata.uid, apiVersion: r.apiVersion, resourceVersion: r.metadata.resourceVersion };
    const freshName = () => {
      this.sameNow = now === this.lastNow ? this.sameNow + 1 : 0;
      this.lastNow = now;
      return `${r.metadata.name}.${(BigInt(epochMs()) * 1_000_000n + BigInt(Math.round(now * 1_000_000)) + BigInt(this.sameNow)).toString(16)}`;
    };
    const c = correlate(state, { source: { component }, involvedObject: { ...involvedObject, name: r.metadata.name ?? '' }, type: e.type, reason: e.reason, message: e.message, reportingController: component }, ns, now, ts, freshName);
    if (c.skip) return null;
    const whole = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: c.name, namespace: c.namespace },
      involvedObject,
      reason: e.reason,
      message: c.message,
      source: { component },
      firstTimestamp: c.first,
      lastTimestamp: ts,
      count: c.count,
      type: e.type,
      eventTime: null,
      reportingComponent: c.aggregate ? '' : component,
      reportingInstance: '',
    };
    const create = { path: `/api/v1/namespaces/${c.namespace}/events`, body: whole };
    if (c.patch === undefined) return { method: 'POST', ...create };
    return { method: 'PATCH', path: `/api/v1/namespaces/${c.namespace}/events/${c.name}`, contentType: 'application/strategic-merge-patch+json', body: JSON.parse(c.patch) as unknown, create };
  }
}

/** The write a call makes, with recordToSink's fallback and retries (client/eventSink). */
export function coreEventWrite(call: EventCall): EventWrite {
  const create = call.create ?? { path: call.path, body: call.body };
  return eventWrite('core', { path: create.path, body: JSON.stringify(create.body) }, call.method === 'PATCH' ? { path: call.path, body: JSON.stringify(call.body) } : undefined);
}

registerClass('CoreEventRecorder', CoreEventRecorder);
