// The kubelet's pod source (pkg/kubelet/config, the apiserver source): a
// reflector over pods with spec.nodeName=<node>, feeding additions (oldest
// first, HandlePodAdditions), updates and deletions to the pod workers.
import type { ActorContext } from '../sim/kernel';
import type { ReflectorEvent } from '../client/reflector';
import type { Pod } from '../scheduler/framework/api';
import { apiRequest } from './client';
import type { Kubelet } from './kubelet';
import { admit, forget, syncPod, updateDemands } from './pod/podWorkers';

export function podQuery(k: Kubelet, q: Record<string, string>): Record<string, string> {
  return { ...q, fieldSelector: `spec.nodeName=${k.nodeName}` };
}

export function list(k: Kubelet, ctx: ActorContext): void {
  const q = k.pods.listRequest();
  k.pods.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: podQuery(k, q.query) }, { kind: 'list' });
}

export function watch(k: Kubelet, ctx: ActorContext): void {
  const q = k.pods.watchRequest();
  k.pods.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: podQuery(k, q.query) }, { kind: 'watch' });
}

export function onPodEvents(k: Kubelet, ctx: ActorContext, events: ReflectorEvent[]): void {
  const added: Pod[] = [];
  for (const ev of events) {
    const pod = ev.object as Pod;
    const uid = pod.metadata.uid!;
    if (ev.type === 'DELETED') {
      const w = k.workers.get(uid);
      if (w) forget(k, w);
      continue;
    }
    const w = k.workers.get(uid);
    if (w) {
      const annotationsChanged = JSON.stringify(w.pod.metadata.annotations ?? {}) !== JSON.stringify(pod.metadata.annotations ?? {});
      w.pod = pod;
      if (annotationsChanged) updateDemands(k, w, ctx.now);
      if (pod.metadata.deletionTimestamp && !w.deleting) syncPod(k, ctx, w);
    } else added.push(pod);
  }
  // HandlePodAdditions: oldest first.
  added.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || a.metadata.name!.localeCompare(b.metadata.name!));
  for (const pod of added) admit(k, ctx, pod);
}
