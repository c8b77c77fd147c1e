// The status manager (pkg/kubelet/status/status_manager.go): writes a pod's
// status (a strategic-merge PATCH of pods/<name>/status) when it changed, and
// once a deleted pod has stopped and its final status is written, deletes it
// with gracePeriodSeconds 0 and a UID precondition (canBeDeleted).
import type { ActorContext } from '../../sim/kernel';
import type { Container } from '../../scheduler/framework/api';
import { apiRequest } from '../client';
import type { Kubelet } from '../kubelet';
import { currentSandbox, isReady, isStarted, type ContainerSpec } from '../pod/sync';
import type { PodWorker } from '../pod/worker';
import { deletedKubeletConditions, podStatusFor, rejectedStatus } from './generate';

/** The status the worker's pod has now. */
export function statusOf(k: Kubelet, w: PodWorker, now: number): Record<string, unknown> {
  if (w.rejected) return rejectedStatus(w.pod, w.rejected.reason, w.rejected.message, w.startTime);
  const specs = [...(w.pod.spec.initContainers ?? []), ...w.pod.spec.containers] as Container[];
  const containers = k.runtime.podContainers(w.uid);
  const byId = (id: string) => containers.find((c) => c.id === id)!;
  const spec = (name: string) => specs.find((c) => c.name === name) as ContainerSpec | undefined;
  return podStatusFor({
    pod: w.pod,
    containers,
    sandbox: currentSandbox(k, w.uid),
    reasons: w.reasons,
    ready: (id) => isReady(w, spec(byId(id).name), byId(id), now),
    started: (id) => {
      const s = spec(byId(id).name);
      return !!s && isStarted(w, s, byId(id), now);
    },
    terminal: w.phase === 'terminated',
    ended: w.ended,
    hostIP: k.config.internalIP,
    startTime: w.startTime,
    now,
    transitions: w.transitions,
  });
}

/** A rejected pod's status as a strategic merge patch: its kept conditions, and deletions of the kubelet's own. */
function rejectedPatch(status: Record<string, unknown>, w: PodWorker): Record<string, unknown> {
  const kept = (status.conditions ?? []) as unknown[];
  const deleted = deletedKubeletConditions(w.pod);
  const { conditions: _, ...rest } = status;
  return kept.length || deleted.length ? { ...rest, conditions: [...kept, ...deleted] } : rest;
}

/** PATCH pods/<name>/status when the status changed. */
export function flushStatus(k: Kubelet, ctx: ActorContext, w: PodWorker): void {
  if (w.patchInFlight || !k.workers.has(w.uid) || w.lastSent === 'terminal') return maybeDelete(k, ctx, w);
  const status = statusOf(k, w, ctx.now);
  const body = JSON.stringify(status);
  if (body === w.lastSent) return maybeDelete(k, ctx, w);
  w.patchInFlight = true;
  // A rejected pod keeps only the conditions the kubelet does not own: the patch deletes the scheduler's PodScheduled.
  const patch = { status: w.rejected ? rejectedPatch(status, w) : withRemovedConditionFields(status, w.lastSent) };
  apiRequest(
    k,
    ctx,
    { method: 'PATCH', path: `/api/v1/namespaces/${w.pod.metadata.namespace}/pods/${w.pod.metadata.name}/status`, query: {}, body: JSON.stringify(patch) },
    { kind: 'podStatus', uid: w.uid, body },
    'application/strategic-merge-patch+json',
  );
}

/**
 * Upstream's status manager sends a two-way strategic merge patch from the old
 * status to the new: a condition field that went away (Ready turning True
 * drops its reason and message) is sent as null, else the merge would keep it.
 */
function withRemovedConditionFields<T extends { conditions?: { type: string }[] }>(status: T, lastSent: string | undefined): T {
  if (!lastSent || lastSent === 'terminal' || !status.conditions) return status;
  let prev: { conditions?: Record<string, unknown>[] };
  try {
    prev = JSON.parse(lastSent) as typeof prev;
  } catch {
    return status;
  }
  const before = new Map((prev.conditions ?? []).map((c) => [c.type as string, c]));
  const conditions = status.conditions.map((c) => {
    const old = before.get(c.type);
    if (!old) return c;
    const out: Record<string, unknown> = { ...c };
    for (const key of Object.keys(old)) if (!(key in out)) out[key] = null;
    return out as typeof c;
  });
  return { ...status, conditions };
}

/** canBeDeleted: a deleted pod whose containers are gone and whose final status is written goes with grace 0. */
export function maybeDelete(k: Kubelet, ctx: ActorContext, w: PodWorker): void {
  if (!w.pod.metadata.deletionTimestamp || w.phase !== 'terminated' || w.patchInFlight || w.deleteSent) return;
  w.deleteSent = true;
  const opts = { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: w.uid } };
  apiRequest(
    k,
    ctx,
    { method: 'DELETE', path: `/api/v1/namespaces/${w.pod.metadata.namespace}/pods/${w.pod.metadata.name}`, query: {}, body: JSON.stringify(opts) },
    { kind: 'podDelete', uid: w.uid },
  );
}
