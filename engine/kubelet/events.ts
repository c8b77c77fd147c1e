// The kubelet's event recorder: core/v1 Events about its pods
// (kubecontainer's recordContainerEvent), source component kubelet.
import type { ActorContext } from '../sim/kernel';
import { rfc3339, SIM_EPOCH_MS } from '../apiserver/http/time';
import type { Pod } from '../scheduler/framework/api';
import { apiRequest } from './client';
import type { Kubelet } from './kubelet';
import type { PodWorker } from './status/generate';

/** A core/v1 Event the kubelet records about a pod. */
export interface KubeletEvent {
  pod: Pod;
  container: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  at: number;
}

export function record(k: Kubelet, w: PodWorker, container: string, type: KubeletEvent['type'], reason: string, message: string, at: number): void {
  k.outbox.push({ pod: w.pod, container, type, reason, message, at });
}

/** Sends the recorded events (no series aggregation: each one is its own Event, count 1). */
export function flushEvents(k: Kubelet, ctx: ActorContext): void {
  for (const ev of k.outbox.splice(0)) {
    const ns = ev.pod.metadata.namespace ?? 'default';
    const t = rfc3339(ev.at);
    const nanos = (BigInt(Math.floor(SIM_EPOCH_MS + ev.at)) * 1_000_000n + BigInt(k.eventSeq++ % 1_000_000)).toString(16);
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${ev.pod.metadata.name}.${nanos}`, namespace: ns },
      involvedObject: {
        kind: 'Pod',
        namespace: ns,
        name: ev.pod.metadata.name,
        uid: ev.pod.metadata.uid,
        apiVersion: 'v1',
        resourceVersion: ev.pod.metadata.resourceVersion,
        ...(ev.container ? { fieldPath: `spec.containers{${ev.container}}` } : {}),
      },
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
    apiRequest(
      k,
      ctx,
      {
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/events`,
        query: {},
        body: JSON.stringify(body),
      },
      { kind: 'event' },
    );
  }
}
