// The kubelet's event recorder: core/v1 Events about its pods (kuberuntime's
// recordContainerEvent, with the container's fieldPath) and its node, source
// component kubelet, through client-go's EventCorrelator (client/
// eventCorrelator: similar events combined, repeats counted, spam dropped).
// Writes that get no answer are retried as recordToSink does (below).
import type { ActorContext } from '../sim/kernel';
import { rfc3339, epochMs } from '../apiserver/http/time';
import type { Pod } from '../scheduler/framework/api';
import { correlate, type Correlation } from '../client/eventCorrelator';
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

/** Sends the recorded events, each through the correlator (client/eventCorrelator). */
export function flushEvents(k: Kubelet, ctx: ActorContext): void {
  for (const ev of k.outbox.splice(0)) {
    const ns = ev.involved.namespace || 'default';
    const t = rfc3339(ev.at);
    const { kind, namespace, name, uid, fieldPath } = ev.involved;
    const seen = { source: { component: 'kubelet', host: k.nodeName }, involvedObject: { kind, namespace, name, uid, apiVersion: 'v1', ...(fieldPath ? { fieldPath } : {}) }, type: ev.type, reason: ev.reason, message: ev.message, reportingController: 'kubelet', reportingInstance: k.nodeName };
    const freshName = () => `${name}.${(BigInt(Math.floor(epochMs() + ev.at)) * 1_000_000n + BigInt(k.eventSeq++ % 1_000_000)).toString(16)}`;
    const c = correlate(k.events, seen, ns, ev.at, t, freshName);
    if (c.skip) continue;
    const whole = eventBody(k, ev, c, t);
    if (c.patch === undefined) {
      sendEventWrite(k, ctx, { method: 'POST', path: `/api/v1/namespaces/${c.namespace}/events`, body: JSON.stringify(whole), tries: 0 });
      continue;
    }
    sendEventWrite(k, ctx, {
      method: 'PATCH',
      path: `/api/v1/namespaces/${c.namespace}/events/${c.name}`,
      body: c.patch,
      create: { path: `/api/v1/namespaces/${c.namespace}/events`, body: JSON.stringify(whole) },
      tries: 0,
    });
  }
}

/** The Event as recordToSink writes it (count and first/last timestamps from the correlator). */
function eventBody(k: Kubelet, ev: KubeletEvent, c: Extract<Correlation, { skip: false }>, last: string) {
  const { kind, name, namespace, uid, resourceVersion, fieldPath } = ev.involved;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: c.name, namespace: c.namespace },
    involvedObject: { kind, ...(namespace ? { namespace } : {}), name, uid, apiVersion: 'v1', ...(resourceVersion ? { resourceVersion } : {}), ...(fieldPath ? { fieldPath } : {}) },
    reason: ev.reason,
    message: c.message,
    source: { component: 'kubelet', host: k.nodeName },
    firstTimestamp: c.first,
    lastTimestamp: last,
    count: c.count,
    type: ev.type,
    eventTime: null,
    reportingComponent: c.aggregate ? '' : 'kubelet',
    reportingInstance: c.aggregate ? '' : k.nodeName,
  };
}
