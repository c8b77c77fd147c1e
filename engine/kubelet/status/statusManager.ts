// The status manager (pkg/kubelet/status/status_manager.go): PATCHes a pod's
// status when it changed, and deletes a deleted pod (grace 0) once its final
// status is written (canBeDeleted).
import type { ActorContext } from '../../sim/kernel';
import { apiRequest } from '../client';
import type { Kubelet } from '../kubelet';
import { podStatusFor, type PodWorker } from './generate';

/** The status manager: PATCH pods/<name>/status when the status changed. */
export function flushStatus(k: Kubelet, ctx: ActorContext, w: PodWorker): void {
  if (w.patchInFlight || !k.workers.has(w.uid)) return;
  const status = podStatusFor(w, ctx.now, k.config.internalIP);
  const body = JSON.stringify(status);
  if (body === w.lastSent) return maybeDelete(k, ctx, w);
  w.patchInFlight = true;
  apiRequest(
    k,
    ctx,
    {
      method: 'PATCH',
      path: `/api/v1/namespaces/${w.pod.metadata.namespace}/pods/${w.pod.metadata.name}/status`,
      query: {},
      body: JSON.stringify({ status }),
    },
    { kind: 'podStatus', uid: w.uid, body },
    'application/strategic-merge-patch+json',
  );
}

/** canBeDeleted: a deleted pod whose terminal status is written goes with grace 0. */
export function maybeDelete(k: Kubelet, ctx: ActorContext, w: PodWorker): void {
  if (!w.pod.metadata.deletionTimestamp || w.stage !== 'done' || w.patchInFlight || w.deleteSent) return;
  w.deleteSent = true;
  w.deleteInFlight = true;
  const opts = {
    kind: 'DeleteOptions',
    apiVersion: 'v1',
    gracePeriodSeconds: 0,
    preconditions: { uid: w.uid },
  };
  apiRequest(
    k,
    ctx,
    {
      method: 'DELETE',
      path: `/api/v1/namespaces/${w.pod.metadata.namespace}/pods/${w.pod.metadata.name}`,
      query: {},
      body: JSON.stringify(opts),
    },
    { kind: 'podDelete', uid: w.uid },
  );
}
