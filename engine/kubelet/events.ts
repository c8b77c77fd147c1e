// The kubelet's event recorder: core/v1 Events about its pods (kuberuntime's
// recordContainerEvent, with the container's fieldPath) and its node, source
// component kubelet. Each is its own Event (no series aggregation).
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

/** Sends the recorded events. */
export function flushEvents(k: Kubelet, ctx: ActorContext): void {
  for (const ev of k.outbox.splice(0)) {
    const ns = ev.involved.namespace || 'default';
    const t = rfc3339(ev.at);
    const nanos = (BigInt(Math.floor(epochMs() + ev.at)) * 1_000_000n + BigInt(k.eventSeq++ % 1_000_000)).toString(16);
    const { kind, name, namespace, uid, resourceVersion, fieldPath } = ev.involved;
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${nanos}`, namespace: ns },
      involvedObject: { kind, ...(namespace ? { namespace } : {}), name, uid, apiVersion: 'v1', ...(resourceVersion ? { resourceVersion } : {}), ...(fieldPath ? { fieldPath } : {}) },
      reason: ev.reason,
      message: ev.message,
      source: { component: 'kubelet', host: k.nodeName },
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
      type: ev.type,
      eventTime: null,
      reportingComponent: 'kubelet',
      reportingInstance: k.nodeName,
    };
    apiRequest(k, ctx, { method: 'POST', path: `/api/v1/namespaces/${ns}/events`, query: {}, body: JSON.stringify(body) }, { kind: 'event' });
  }
}
