// The pod workers (pkg/kubelet/pod_workers.go): one per pod the kubelet was
// given, admitted first (lifecycle/admission.ts), then synced whenever
// something happens to it — a pod update, a timer it asked for (back-off,
// probe, pull, grace period), the runtime's predicted change seen at the next
// PLEG relist — with its status written and its events sent after each sync.
import type { ActorContext } from '../../sim/kernel';
import { rfc3339 } from '../../apiserver/http/time';
import type { Pod } from '../../scheduler/framework/api';
import type { Kubelet } from '../kubelet';
import { flushEvents, recordPodEvent } from '../events';
import { canAdmitPod } from '../lifecycle/admission';
import { flushStatus } from '../status/statusManager';
import { beginTermination, relistAfter, syncWorker } from './sync';
import { newWorker, type PodWorker } from './worker';

/** HandlePodAdditions: a new pod is admitted or rejected, then synced. */
export function addPod(k: Kubelet, ctx: ActorContext, pod: Pod): void {
  const prior = pod.status as { phase?: string; startTime?: string } | undefined;
  const w = newWorker(pod, prior?.startTime ?? rfc3339(ctx.now));
  k.workers.set(w.uid, w);
  if (prior?.phase === 'Succeeded' || prior?.phase === 'Failed') {
    // Already finished (a kubelet restart finds it so): nothing runs, the status stays as written.
    w.phase = 'terminated';
    w.lastSent = 'terminal';
    return dispatch(k, ctx, w);
  }
  k.eviction.start(ctx);
  const alreadyRunning = k.runtime.podSandboxes(w.uid).length > 0;
  if (!pod.metadata.deletionTimestamp && !alreadyRunning) {
    const node = k.nodeObject();
    const admitted = [...k.workers.values()].filter((x) => x !== w && x.phase !== 'terminated' && !x.rejected).map((x) => x.pod);
    const pressure = k.eviction.admit(pod, ctx.now);
    const r = pressure.admit ? canAdmitPod(pod, node, admitted) : pressure;
    if (!r.admit) {
      w.rejected = { reason: r.reason, message: r.message };
      w.phase = 'terminated';
      recordPodEvent(k, pod, '', 'Warning', r.reason, r.message, ctx.now);
    }
  }
  dispatch(k, ctx, w);
}

/** HandlePodUpdates. */
export function updatePod(k: Kubelet, ctx: ActorContext, w: PodWorker, pod: Pod): void {
  const before = w.pod;
  w.pod = pod;
  if (JSON.stringify(before.metadata.annotations ?? {}) !== JSON.stringify(pod.metadata.annotations ?? {})) k.runtime.setLoad(w.uid, pod.metadata.annotations, ctx.now);
  if (pod.metadata.deletionTimestamp && !before.metadata.deletionTimestamp) return dispatch(k, ctx, w);
  // UpdatePod syncs the worker on a change of the spec (an ephemeral container added, an image changed);
  // the pod's own status coming back from the API server changes nothing to do.
  if (JSON.stringify(before.spec) !== JSON.stringify(pod.spec)) dispatch(k, ctx, w);
}

/** HandlePodRemoves: the pod is gone from the API; whatever still runs is killed, then forgotten. */
export function removePod(k: Kubelet, ctx: ActorContext, w: PodWorker): void {
  if (w.phase === 'sync') {
    w.pod = { ...w.pod, metadata: { ...w.pod.metadata, deletionTimestamp: w.pod.metadata.deletionTimestamp ?? rfc3339(ctx.now), deletionGracePeriodSeconds: 0 } };
    beginTermination(k, w, ctx.now);
  }
  w.deleteSent = true;
  w.lastSent = 'terminal';
  dispatch(k, ctx, w);
  if (w.phase === 'terminated') forget(k, w);
}

/** The pod is done and gone: its containers and sandboxes leave the runtime (container GC). */
export function forget(k: Kubelet, w: PodWorker): void {
  for (const sb of k.runtime.podSandboxes(w.uid)) {
    if (sb.state === 'ready') k.runtime.stopPodSandbox(sb.id, k.runtime.at);
    k.runtime.removePodSandbox(sb.id);
  }
  for (const c of k.runtime.podContainers(w.uid)) k.runtime.removeContainer(c.id);
  k.workers.delete(w.uid);
  for (const key of [...k.crashBackoff.entries.keys()]) if (key.startsWith(`${w.uid}/`)) k.crashBackoff.reset(key);
}

/** Syncs the worker now, writes its status and events, and arranges its next wake-up. */
export function dispatch(k: Kubelet, ctx: ActorContext, w: PodWorker): void {
  const wake = w.rejected || (w.phase === 'terminated' && w.lastSent === 'terminal') ? [] : syncWorker(k, ctx, w);
  gcContainers(k, w);
  flushStatus(k, ctx, w);
  flushEvents(k, ctx);
  const soonest = Math.min(...wake.filter((t) => t >= ctx.now), Infinity);
  if (Number.isFinite(soonest)) wakeAt(ctx, w, soonest);
  // A removed pod whose containers have all stopped is forgotten.
  if (w.deleteSent && w.lastSent === 'terminal' && w.phase === 'terminated' && !k.podsByUid(w.uid)) forget(k, w);
}

/**
 * Something outside the runtime's own course changed a pod's containers (an
 * attached user's input ended its shell): the PLEG sees it at its next relist,
 * so the worker syncs then rather than at the exit it had predicted.
 */
export function runtimeChanged(k: Kubelet, ctx: ActorContext, podUid: string): void {
  const w = k.workers.get(podUid);
  if (w) wakeAt(ctx, w, relistAfter(ctx.now + 1));
}

function wakeAt(ctx: ActorContext, w: PodWorker, at: number): void {
  if (w.wakeAt >= ctx.now && w.wakeAt <= at) return;
  w.wakeAt = at;
  ctx.setTimer(Math.max(0, at - ctx.now), 'pod', { uid: w.uid, at });
}

/** Dead containers beyond the newest two per name (the running one and its predecessor) are removed. */
function gcContainers(k: Kubelet, w: PodWorker): void {
  const byName = new Map<string, string[]>();
  for (const c of k.runtime.podContainers(w.uid)) {
    const list = byName.get(c.name) ?? [];
    list.push(c.id);
    byName.set(c.name, list);
  }
  for (const ids of byName.values()) {
    for (const id of ids.slice(0, Math.max(0, ids.length - 2))) {
      if (k.runtime.containers.get(id)?.state !== 'running') k.runtime.removeContainer(id);
    }
  }
}
