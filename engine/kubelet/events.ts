// The kubelet's event recorder: core/v1 Events about its pods (kuberuntime's
// recordContainerEvent, with the container's fieldPath) and its node, source
// component kubelet, through client-go's EventCorrelator (tools/record/
// events_cache.go): a source may say 25 things about one object, then one more
// every 5 minutes (the spam filter's token bucket); an event identical to an
// earlier one (same object, field path, type, reason and message) bumps that
// Event's count and lastTimestamp by a patch instead of making a new one.
// Writes that get no answer are retried as recordToSink does (below).
// (The aggregator that combines ten similar messages into one is not modelled.)
import type { ActorContext } from '../sim/kernel';
import { rfc3339, epochMs } from '../apiserver/http/time';
import type { Pod } from '../scheduler/framework/api';
import { apiRequest } from './client';
import type { Kubelet } from './kubelet';

export interface KubeletEvent {
  involved: { kind: 'Pod' | 'Node'; name: string; namespace: string; uid: string; resourceVersion?: string; fieldPath?: string };
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  at: number;
}

export function recordPodEvent(k: Kubelet, pod: Pod, fieldPath: string, type: KubeletEvent['type'], reason: string, message: string, at: number): void {
  k.outbox.push({
    involved: {
      kind: 'Pod',
      name: pod.metadata.name!,
      namespace: pod.metadata.namespace ?? 'default',
      uid: pod.metadata.uid!,
      ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
      ...(fieldPath ? { fieldPath } : {}),
    },
    type,
    reason,
    message,
    at,
  });
}

/** Events about the node itself (its reference's UID is the node name, as the kubelet's nodeRef has it). */
export function recordNodeEvent(k: Kubelet, type: KubeletEvent['type'], reason: string, message: string, at: number): void {
  k.outbox.push({ involved: { kind: 'Node', name: k.nodeName, namespace: '', uid: k.nodeName }, type, reason, message, at });
}

/** defaultSpamBurst and defaultSpamQPS (one token every 300 s), and the correlator's LRU size. */
const SPAM_BURST = 25;
const SPAM_REFILL_MS = 300_000;
const LRU_ENTRIES = 4096;

/** What the correlator remembers (plain data, kept by the kubelet). */
export interface EventCorrelatorState {
  /** getEventKey → the Event it became, oldest first (an LRU). */
  seen: Map<string, { name: string; namespace: string; count: number; first: string }>;
  /** getSpamKey → its token bucket. */
  spam: Map<string, { tokens: number; at: number }>;
}

export function newEventCorrelator(): EventCorrelatorState {
  return { seen: new Map(), spam: new Map() };
}

function touch<V>(m: Map<string, V>, key: string, v: V): void {
  m.delete(key);
  m.set(key, v);
  if (m.size > LRU_ENTRIES) m.delete(m.keys().next().value!);
}

/** EventSourceObjectSpamFilter: true when the source has said too much about the object lately. */
function spammed(c: EventCorrelatorState, key: string, at: number): boolean {
  const b = c.spam.get(key) ?? { tokens: SPAM_BURST, at };
  const tokens = Math.min(SPAM_BURST, b.tokens + (at - b.at) / SPAM_REFILL_MS);
  const ok = tokens >= 1;
  touch(c.spam, key, { tokens: ok ? tokens - 1 : tokens, at });
  return !ok;
}

/**
 * recordToSink's retries (tools/record/event.go): a write that failed in
 * transport (no answer: the API server unreachable) is tried again, at most 12
 * times in all, after a random share of 10 s the first time (so clients do not
 * come back together) and 10 s after that. A refusal (a Status) is not retried.
 */
export const EVENT_MAX_TRIES = 12;
export const EVENT_RETRY_SLEEP_MS = 10_000;

/** One write of an Event: a POST, or a count-bump PATCH that falls back to a POST of the whole Event. */
export interface EventWrite {
  method: 'POST' | 'PATCH';
  path: string;
  body: string;
  /** For a PATCH: the Event to create if the one it bumps is gone (recordEvent). */
  create?: { path: string; body: string };
  tries: number;
}

export function sendEventWrite(k: Kubelet, ctx: ActorContext, w: EventWrite): void {
  const contentType = w.method === 'PATCH' ? 'application/strategic-merge-patch+json' : undefined;
  apiRequest(k, ctx, { method: w.method, path: w.path, query: {}, body: w.body }, { kind: 'event', write: w }, contentType);
}

/** The answer to an Event write. */
export function onEventAnswer(ctx: ActorContext, k: Kubelet, w: EventWrite, status: number): void {
  if (status >= 200 && status < 300) return;
  if (status === 404 && w.create) {
    // The Event it bumped is gone (its TTL ran out): recordEvent creates it anew, same name and count.
    return sendEventWrite(k, ctx, { method: 'POST', path: w.create.path, body: w.create.body, tries: w.tries });
  }
  if (status !== 0) return; // refused: "will not retry"
  const tries = w.tries + 1;
  if (tries >= EVENT_MAX_TRIES) return; // "retry limit exceeded"
  const delay = tries === 1 ? EVENT_RETRY_SLEEP_MS * ctx.rng.float() : EVENT_RETRY_SLEEP_MS;
  ctx.setTimer(delay, 'eventRetry', { ...w, tries });
}

/** Sends the recorded events. */
export function flushEvents(k: Kubelet, ctx: ActorContext): void {
  const c = k.events;
  for (const ev of k.outbox.splice(0)) {
    const ns = ev.involved.namespace || 'default';
    const t = rfc3339(ev.at);
    const inv = ev.involved;
    if (spammed(c, ['kubelet', k.nodeName, inv.kind, inv.namespace, inv.name, inv.uid, 'v1'].join('\x00'), ev.at)) continue;
    const key = ['kubelet', k.nodeName, inv.kind, inv.namespace, inv.name, inv.fieldPath ?? '', inv.uid, 'v1', ev.type, ev.reason, ev.message].join('\x00');
    const known = c.seen.get(key);
    if (known) {
      known.count++;
      touch(c.seen, key, known);
      const whole = eventBody(k, ev, known.name, known.namespace, known.count, known.first, t);
      sendEventWrite(k, ctx, {
        method: 'PATCH',
        path: `/api/v1/namespaces/${known.namespace}/events/${known.name}`,
        body: JSON.stringify({ count: known.count, lastTimestamp: t }),
        create: { path: `/api/v1/namespaces/${known.namespace}/events`, body: JSON.stringify(whole) },
        tries: 0,
      });
      continue;
    }
    const nanos = (BigInt(Math.floor(epochMs() + ev.at)) * 1_000_000n + BigInt(k.eventSeq++ % 1_000_000)).toString(16);
    const body = eventBody(k, ev, `${ev.involved.name}.${nanos}`, ns, 1, t, t);
    touch(c.seen, key, { name: body.metadata.name, namespace: ns, count: 1, first: t });
    sendEventWrite(k, ctx, { method: 'POST', path: `/api/v1/namespaces/${ns}/events`, body: JSON.stringify(body), tries: 0 });
  }
}

/** The Event as recordToSink writes it (count and first/last timestamps from the correlator). */
function eventBody(k: Kubelet, ev: KubeletEvent, eventName: string, ns: string, count: number, first: string, last: string) {
  const { kind, name, namespace, uid, resourceVersion, fieldPath } = ev.involved;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName, namespace: ns },
    involvedObject: { kind, ...(namespace ? { namespace } : {}), name, uid, apiVersion: 'v1', ...(resourceVersion ? { resourceVersion } : {}), ...(fieldPath ? { fieldPath } : {}) },
    reason: ev.reason,
    message: ev.message,
    source: { component: 'kubelet', host: k.nodeName },
    firstTimestamp: first,
    lastTimestamp: last,
    count,
    type: ev.type,
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: k.nodeName,
  };
}
