// The kubelet's event recorder: core/v1 Events about its pods (kuberuntime's
// recordContainerEvent, with the container's fieldPath) and its node, source
// component kubelet, through client-go's EventCorrelator (client/
// eventCorrelator: similar events combined, repeats counted, spam dropped).
// Writes that get no answer are retried as recordToSink does (client/eventSink).
import type { ActorContext } from '../sim/kernel';
import { rfc3339, epochMs } from '../apiserver/http/time';
import type { Pod } from '../scheduler/framework/api';
import { correlate, type Correlation } from '../client/eventCorrelator';
import { afterEventAnswer, eventRequest, eventWrite, type EventWrite } from '../client/eventSink';
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

export { EVENT_MAX_TRIES, EVENT_RETRY_SLEEP_MS, type EventWrite } from '../client/eventSink';

export function sendEventWrite(k: Kubelet, ctx: ActorContext, w: EventWrite): void {
  const r = eventRequest(w);
  apiRequest(k, ctx, { method: r.method, path: r.path, query: {}, body: r.body }, { kind: 'event', write: w }, r.contentType);
}

/** The answer to an Event write (status 0: none came): recordToSink's fallback and retries (client/eventSink). */
export function onEventAnswer(ctx: ActorContext, k: Kubelet, w: EventWrite, status: number): void {
  const next = afterEventAnswer(w, status, () => ctx.rng.float());
  if (next.type === 'send') sendEventWrite(k, ctx, next.write);
  else if (next.type === 'retry') ctx.setTimer(next.afterMs, 'eventRetry', next.write);
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
    const create = { path: `/api/v1/namespaces/${c.namespace}/events`, body: JSON.stringify(whole) };
    sendEventWrite(k, ctx, eventWrite('core', create, c.patch === undefined ? undefined : { path: `/api/v1/namespaces/${c.namespace}/events/${c.name}`, body: c.patch }));
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
