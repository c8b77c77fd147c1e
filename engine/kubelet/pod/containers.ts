// Starting and restarting one container (the kuberuntime manager's
// computePodActions / startContainer for a single container): restart policy
// and crash-loop back-off, the image pull policy and pull back-off, create and
// start with the image's behaviour and the usage model's OOM kill.
import { formatGoDuration } from '../../scheduler/config/goText';
import type { Pod } from '../../scheduler/framework/api';
import { quantityNumber } from '../../scheduler/framework/resources';
import type { Kubelet } from '../kubelet';
import { backoffKey, inBackoff, nextBackoff } from '../backoff';
import { record } from '../events';
import { pull } from '../images/puller';
import { hex } from '../ids';
import { probe } from '../prober/prober';
import type { ProbeSpec } from '../prober/probes';
import { behaviourOf, imageDigest, lookupImage, parseImage, type Behaviour } from '../runtime/images';
import { demandOf, oomAfterMs, processArgv } from '../runtime/usage';
import type { ContainerRt, PodWorker } from '../status/generate';
import { finished } from './podWorkers';

export type ContainerSpec = Pod['spec']['containers'][number] & {
  command?: string[];
  args?: string[];
  imagePullPolicy?: string;
  startupProbe?: ProbeSpec;
  readinessProbe?: ProbeSpec;
  livenessProbe?: ProbeSpec;
};

/** Creating a container takes this long. */
const CREATE_MS = 100;
/** The worker's quick requeue after a sync error (ErrImagePull → ImagePullBackOff shows up). */
const ERROR_RESYNC_MS = 1000;

const goDuration = (ms: number) => formatGoDuration(BigInt(Math.round(ms)) * 1_000_000n);

export function syncContainer(k: Kubelet, now: number, w: PodWorker, c: ContainerRt, next: number[]): void {
  const spec = w.pod.spec.containers.find((s) => s.name === c.name) as ContainerSpec | undefined;
  if (c.state === 'running') {
    if (!w.deleting && !(c.exitAt >= 0 && now >= c.exitAt)) probe(k, now, w, c, spec, next);
    if (c.exitAt >= 0 && now >= c.exitAt) {
      c.ready = false;
      c.started = false;
      c.probes = {};
      c.state = 'terminated';
      c.finishedAt = c.exitAt;
      c.reason = c.oomKilled ? 'OOMKilled' : c.exitCode === 0 ? 'Completed' : 'Error';
      c.exitAt = -1;
    } else {
      if (c.exitAt >= 0) next.push(c.exitAt);
      return;
    }
  }
  if (w.deleting) {
    if (c.state === 'waiting') {
      c.state = 'terminated';
      c.reason = 'ContainerStatusUnknown';
      c.finishedAt = now;
      c.exitCode = 137;
    }
    return;
  }
  if (c.state === 'terminated') {
    if (finished(k, w, c)) return;
    // doBackOff: the first restart is at once, later ones wait out the back-off.
    const key = backoffKey(k, w, c, 'crash');
    if (inBackoff(k, key, c.finishedAt, now)) {
      const e = k.backoff.get(key)!;
      c.backoffUntil = c.finishedAt + e.backoffMs;
      c.lastTerminated = {
        exitCode: c.exitCode,
        reason: c.reason,
        startedAt: c.startedAt,
        finishedAt: c.finishedAt,
        containerID: c.containerID,
      };
      c.state = 'waiting';
      if (c.reason !== 'CrashLoopBackOff')
        record(k, w, c.name, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${w.pod.metadata.name}_${w.pod.metadata.namespace}(${w.uid})`, now);
      c.reason = 'CrashLoopBackOff';
      c.message = `back-off ${e.backoffMs / 1000 >= 60 ? `${e.backoffMs / 60_000}m0s` : `${e.backoffMs / 1000}s`} restarting failed container=${c.name} pod=${w.pod.metadata.name}_${w.pod.metadata.namespace}(${w.uid})`;
      next.push(c.backoffUntil);
      return;
    }
    nextBackoff(k, key, c.finishedAt);
    c.lastTerminated = {
      exitCode: c.exitCode,
      reason: c.reason,
      startedAt: c.startedAt,
      finishedAt: c.finishedAt,
      containerID: c.containerID,
    };
    c.restartCount++;
    c.pullAt = -1;
    c.state = 'waiting';
    c.reason = 'ContainerCreating';
    c.backoffUntil = -1;
  }
  // waiting
  if (c.reason === 'CrashLoopBackOff') {
    if (now < c.backoffUntil) {
      next.push(c.backoffUntil);
      return;
    }
    const key = backoffKey(k, w, c, 'crash');
    nextBackoff(k, key, now);
    c.restartCount++;
    c.pullAt = -1;
    c.reason = 'ContainerCreating';
  }
  const ref = parseImage(c.image);
  const policy = spec?.imagePullPolicy ?? (ref.tag === 'latest' ? 'Always' : 'IfNotPresent');
  const present = k.images.has(ref.full);
  const needPull = policy === 'Always' ? c.pullAt < 0 || !present : !present && policy !== 'Never';
  if (!present && policy === 'Never') {
    c.reason = 'ErrImageNeverPull';
    c.message = `Container image "${c.image}" is not present with pull policy of Never`;
    return;
  }
  if (needPull || c.pullStartedAt >= 0) {
    const key = backoffKey(k, w, c, 'pull');
    if (c.pullStartedAt < 0 && c.backoffUntil > now) {
      if (c.reason !== 'ImagePullBackOff') {
        record(k, w, c.name, 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`, now);
        record(k, w, c.name, 'Warning', 'Failed', 'Error: ImagePullBackOff', now);
      }
      c.reason = 'ImagePullBackOff';
      c.message = `Back-off pulling image "${c.image}"`;
      next.push(c.backoffUntil);
      return;
    }
    // A pull this container waited on that left the queue has succeeded (failures stay until read).
    const finished = c.pullStartedAt >= 0 && !k.pulls.some((q) => q.image === c.image);
    if (!finished) {
      const p = pull(k, now, c.image, policy === 'Always');
      if (c.pullStartedAt < 0) {
        c.pullStartedAt = now;
        record(k, w, c.name, 'Normal', 'Pulling', `Pulling image "${c.image}"`, now);
      }
      if (p.doneAt > now) {
        next.push(p.doneAt);
        return;
      }
      if (!p.ok) {
        // ErrImagePull now, ImagePullBackOff on the worker's next sync until the back-off ends.
        k.pulls.splice(k.pulls.indexOf(p), 1);
        const ms = nextBackoff(k, key, now);
        c.backoffUntil = now + ms;
        c.reason = 'ErrImagePull';
        c.message = `failed to pull and unpack image "${ref.full}": failed to resolve reference "${ref.full}": ${ref.full}: not found`;
        c.pullStartedAt = -1;
        record(k, w, c.name, 'Warning', 'Failed', `Failed to pull image "${c.image}": rpc error: code = NotFound desc = ${c.message}`, now);
        record(k, w, c.name, 'Warning', 'Failed', 'Error: ErrImagePull', now);
        next.push(now + ERROR_RESYNC_MS);
        return;
      }
    }
    c.pullAt = now;
    const img = lookupImage(ref)!;
    const pullMs = Math.min(now - c.pullStartedAt, Math.ceil((img.sizeBytes / k.config.imageBandwidthBytesPerSec) * 1000));
    record(
      k,
      w,
      c.name,
      'Normal',
      'Pulled',
      `Successfully pulled image "${c.image}" in ${goDuration(pullMs)} (${goDuration(now - c.pullStartedAt)} including waiting). Image size: ${img.sizeBytes} bytes.`,
      now,
    );
    c.pullStartedAt = -1;
  } else {
    record(k, w, c.name, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`, now);
  }
  // Create and start.
  const img = lookupImage(ref)!;
  const b: Behaviour = behaviourOf(img, spec?.command, spec?.args);
  record(k, w, c.name, 'Normal', 'Created', `Created container: ${c.name}`, now);
  record(k, w, c.name, 'Normal', 'Started', `Started container ${c.name}`, now);
  c.state = 'running';
  c.reason = '';
  c.message = '';
  c.startedAt = now + CREATE_MS;
  c.containerID = `containerd://${hex(k.nextContainer++ * 2654435761 + w.uid.length, w.uid + c.name)}`;
  c.imageID = `${ref.repo}@${imageDigest(ref)}`;
  c.ignoresSigterm = b.type === 'run' && b.ignoresSigterm;
  c.listeningAt = c.startedAt + (b.type === 'run' ? b.startDelayMs : 0);
  c.ports = img.ports;
  c.ready = false;
  c.started = false;
  c.probes = {};
  c.exitAt = b.type === 'exit' ? c.startedAt + b.afterMs : -1;
  c.exitCode = b.type === 'exit' ? b.exitCode : 0;
  c.oomKilled = false;
  // The usage model: a working set above the memory limit gets the container OOM-killed (137).
  const demand = demandOf(img, processArgv(img, spec?.command, spec?.args), w.pod.metadata.annotations, c.containerID);
  const limits = spec?.resources?.limits;
  const oomAfter = oomAfterMs(demand.memory, quantityNumber(limits?.memory, false));
  if (oomAfter !== null && (c.exitAt < 0 || c.startedAt + oomAfter < c.exitAt)) {
    c.exitAt = c.startedAt + oomAfter;
    c.exitCode = 137;
    c.oomKilled = true;
  }
  k.meter.start(
    {
      id: c.containerID,
      podUid: w.uid,
      name: c.name,
      startedAt: c.startedAt,
      stopAt: c.exitAt >= 0 ? c.exitAt : Infinity,
      demand,
      requestMilli: quantityNumber(spec?.resources?.requests?.cpu ?? limits?.cpu, true),
      limitMilli: quantityNumber(limits?.cpu, true),
    },
    now,
  );
  next.push(c.startedAt);
  if (c.exitAt >= 0) next.push(c.exitAt);
}
