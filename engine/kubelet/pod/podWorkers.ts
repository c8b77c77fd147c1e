// The pod workers (pkg/kubelet/pod_workers.go with the kubelet's SyncPod,
// SyncTerminatingPod and SyncTerminatedPod): each pod is driven to `now` —
// sandbox and IP, containers, graceful termination — and woken again at the
// next instant something is due.
import type { ActorContext } from '../../sim/kernel';
import { rfc3339 } from '../../apiserver/http/time';
import type { Pod } from '../../scheduler/framework/api';
import type { Kubelet } from '../kubelet';
import { flushEvents, record } from '../events';
import { finishPulls } from '../images/puller';
import { fits } from '../lifecycle/admission';
import { allocateIP, ipString } from '../runtime/ipam';
import { lookupImage, parseImage } from '../runtime/images';
import { demandOf, processArgv } from '../runtime/usage';
import { flushStatus, maybeDelete } from '../status/statusManager';
import type { ContainerRt, PodWorker } from '../status/generate';
import { syncContainer, type ContainerSpec } from './containers';

/** Creating the sandbox (pause container, network) takes this long. */
const SANDBOX_MS = 500;

export function forget(k: Kubelet, w: PodWorker): void {
  if (w.ip) k.usedIPs.delete(w.ip);
  k.workers.delete(w.uid);
  for (const c of w.containers) k.backoff.delete(`${w.uid}/${c.name}`);
}

export function newWorker(k: Kubelet, pod: Pod, now: number): PodWorker {
  const spec = pod.spec as Pod['spec'] & { restartPolicy?: string };
  return {
    uid: pod.metadata.uid!,
    pod,
    stage: 'sandbox',
    readyToStartAt: -1,
    ip: 0,
    podIP: '',
    startTime: rfc3339(now),
    rejected: null,
    deleting: false,
    containers: spec.containers.map((c) => ({
      name: c.name,
      image: c.image ?? '',
      state: 'waiting',
      reason: 'ContainerCreating',
      message: '',
      restartCount: 0,
      containerID: '',
      imageID: '',
      startedAt: -1,
      listeningAt: -1,
      ready: false,
      started: false,
      probes: {},
      ports: [],
      exitAt: -1,
      exitCode: 0,
      finishedAt: -1,
      lastTerminated: null,
      pullAt: -1,
      pullStartedAt: -1,
      backoffUntil: -1,
      ignoresSigterm: false,
      oomKilled: false,
    })),
    restartPolicy: spec.restartPolicy ?? 'Always',
    wakeAt: -1,
    lastSent: '',
    patchInFlight: false,
    deleteSent: false,
    deleteInFlight: false,
    transitions: {},
  };
}

/** canAdmitPod: the pods count, then cpu, memory, ephemeral-storage (Fit's order). */
export function admit(k: Kubelet, ctx: ActorContext, pod: Pod): void {
  const w = newWorker(k, pod, ctx.now);
  k.workers.set(w.uid, w);
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    w.stage = 'done';
    w.lastSent = 'terminal';
    return maybeDelete(k, ctx, w);
  }
  if (!pod.metadata.deletionTimestamp) {
    const verdict = fits(k, pod, w.uid);
    if (verdict) {
      w.rejected = verdict;
      w.stage = 'done';
      record(k, w, '', 'Warning', verdict.reason, verdict.message, ctx.now);
      flushEvents(k, ctx);
      return flushStatus(k, ctx, w);
    }
  }
  syncPod(k, ctx, w);
}

export function wake(k: Kubelet, ctx: ActorContext, w: PodWorker, at: number): void {
  if (w.wakeAt >= ctx.now && w.wakeAt <= at) return;
  w.wakeAt = at;
  ctx.setTimer(Math.max(0, at - ctx.now), 'pod', { uid: w.uid, at });
}

/** The pod worker's SyncPod / SyncTerminatingPod, driven to `now`. */
export function syncPod(k: Kubelet, ctx: ActorContext, w: PodWorker): void {
  const now = ctx.now;
  finishPulls(k, now);
  const next: number[] = [];
  if (w.stage === 'done') return flushStatus(k, ctx, w);
  if (w.pod.metadata.deletionTimestamp && !w.deleting) {
    w.deleting = true;
    const grace = (w.pod.metadata.deletionGracePeriodSeconds ?? (w.pod.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30) * 1000;
    for (const c of w.containers) {
      if (c.state === 'running') {
        // SIGTERM: ordinary images exit at once; others are SIGKILLed at the end of the grace period.
        kill(k, c, c.ignoresSigterm ? now + grace : now, now);
        record(k, w, c.name, 'Normal', 'Killing', `Stopping container ${c.name}`, now);
      }
    }
  }
  if (w.stage === 'sandbox') {
    if (w.readyToStartAt < 0) w.readyToStartAt = now + SANDBOX_MS;
    if (w.deleting) w.stage = 'terminated';
    else if (now >= w.readyToStartAt) {
      w.ip = allocateIP(k);
      w.podIP = ipString(k, w.ip);
      w.stage = 'running';
      const pause = lookupImage(parseImage('registry.k8s.io/pause:3.10'))!;
      k.meter.addPod(w.uid, w.pod.metadata.name!, w.pod.metadata.namespace ?? 'default', demandOf(pause, [], undefined, w.uid), now);
    } else next.push(w.readyToStartAt);
  }
  if (w.stage === 'running') {
    for (const c of w.containers) syncContainer(k, now, w, c, next);
    if (w.containers.every((c) => c.state === 'terminated' && (w.deleting || finished(k, w, c)))) {
      w.stage = 'terminated';
    }
  }
  if (w.stage === 'terminated') {
    w.stage = 'done';
    k.meter.removePod(w.uid, now);
    if (w.ip) k.usedIPs.delete(w.ip);
    w.ip = 0;
  }
  flushStatus(k, ctx, w);
  flushEvents(k, ctx);
  const soonest = next.length ? Math.min(...next) : -1;
  if (soonest >= 0) wake(k, ctx, w, soonest);
}

/** Stops a running container at `at` (SIGTERM now, or SIGKILL at the end of the grace period). */
export function kill(k: Kubelet, c: ContainerRt, at: number, now: number): void {
  if (c.exitAt >= 0 && c.exitAt <= at) return; // it ends by itself (or is OOM-killed) first
  c.exitAt = at;
  c.exitCode = c.ignoresSigterm ? 137 : 0;
  c.oomKilled = false;
  k.meter.stop(c.containerID, at, now);
}

/** A pod's annotations changed: containers whose load they set (hpa-example) get the new demand. */
export function updateDemands(k: Kubelet, w: PodWorker, now: number): void {
  for (const c of w.containers) {
    if (c.state !== 'running') continue;
    const spec = w.pod.spec.containers.find((s) => s.name === c.name) as ContainerSpec | undefined;
    const img = lookupImage(parseImage(c.image));
    if (!img) continue;
    k.meter.setDemand(c.containerID, demandOf(img, processArgv(img, spec?.command, spec?.args), w.pod.metadata.annotations, c.containerID), now);
  }
}

/** A terminated container that will not be restarted (restartPolicy). */
export function finished(k: Kubelet, w: PodWorker, c: ContainerRt): boolean {
  if (w.restartPolicy === 'Never') return true;
  if (w.restartPolicy === 'OnFailure') return c.exitCode === 0;
  return false;
}
