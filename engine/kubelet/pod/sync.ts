// The pod worker's sync functions (pkg/kubelet/kubelet.go SyncPod,
// SyncTerminatingPod, SyncTerminatedPod, and the kuberuntime manager's
// computePodActions / SyncPod): volumes, the sandbox (re-created, with a
// SandboxChanged event, when it is gone), init containers one by one, sidecars
// (init containers with restartPolicy Always, v1.29+: started before the next
// init container and kept running, restarted when they exit, stopped last),
// regular containers per the restart policy with the crash-loop back-off,
// liveness and startup failures, completion, and graceful termination
// (preStop hooks, the grace period, SIGKILL after it; sidecars after the
// regular containers, in reverse order).
//
// Each sync runs at one virtual instant and says when it must run again:
// when a back-off or a pull ends, a probe is due, a stop's grace runs out, or
// the runtime expects a container to exit (noticed at the next 1 s PLEG
// relist, as upstream's relist period makes it).
import { podDns } from './resolvConf';
import type { ActorContext } from '../../sim/kernel';
import type { Container, Pod } from '../../scheduler/framework/api';
import { quantityNumber } from '../../scheduler/framework/resources';
import { formatGoDuration } from '../../scheduler/config/goText';
import type { Kubelet } from '../kubelet';
import { recordPodEvent } from '../events';
import { ensureImage, pullPolicyOf } from '../images/imageManager';
import { newProbeWorker, tick, type ProbeWorker } from '../prober/prober';
import { portOf, probeName, type ProbeKind, type ProbeSpec } from '../prober/probes';
import { bytesLimit, type RtContainer, type Sandbox } from '../runtime/runtime';
import { isSidecar, shouldRestart } from '../status/generate';
import { serviceEnv } from './serviceEnv';
import { containerEnv, containerMounts, podVolumes, referencedObjects, type ContainerEnvSpec, type PodFacts } from './config';
import type { PodWorker } from './worker';
import { requestObjects } from './objectRequests';

type Spec = Pod['spec'] & { restartPolicy?: string; terminationGracePeriodSeconds?: number; ephemeralContainers?: ContainerSpec[] };
type Handler = { exec?: { command?: string[] }; httpGet?: { path?: string; port: number | string; host?: string; scheme?: string }; sleep?: { seconds: number } };
export type ContainerSpec = Container &
  ContainerEnvSpec & {
    command?: string[];
    args?: string[];
    imagePullPolicy?: string;
    startupProbe?: ProbeSpec;
    readinessProbe?: ProbeSpec;
    livenessProbe?: ProbeSpec;
    lifecycle?: { preStart?: Handler; postStart?: Handler; preStop?: Handler };
    stdin?: boolean;
    stdinOnce?: boolean;
    tty?: boolean;
  };

/** The PLEG relists every second: a change in the runtime is seen at the next relist. */
export const RELIST_MS = 1000;
/** killContainer always gives a container this long before SIGKILL. */
export const MIN_GRACE_MS = 2000;
/** How soon a failed sync (config error, mount error) is retried (the pod worker's back-off period). */
const RETRY_MS = 10_000;

export const relistAfter = (t: number) => Math.ceil(t / RELIST_MS) * RELIST_MS;
const goDuration = (ms: number) => formatGoDuration(BigInt(Math.round(ms)) * 1_000_000n);

export function podFullName(pod: Pod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace ?? 'default'}(${pod.metadata.uid})`;
}

/** One sync at `ctx.now`; returns the instants the worker must run again. */
export function syncWorker(k: Kubelet, ctx: ActorContext, w: PodWorker): number[] {
  const wake: number[] = [];
  k.runtime.advance(ctx.now);
  processStops(k, w, ctx.now);
  if (w.phase === 'sync') {
    if (w.pod.metadata.deletionTimestamp || w.ended) beginTermination(k, w, ctx.now);
    else syncRunning(k, ctx, w, wake);
  }
  if (w.phase === 'terminating') syncTerminating(k, ctx, w, wake);
  // Whatever the runtime expects of this pod's containers is seen at the next relist.
  for (const c of k.runtime.podContainers(w.uid)) {
    if (c.state !== 'running') continue;
    const e = k.runtime.predictExit(c);
    if (Number.isFinite(e)) wake.push(relistAfter(Math.max(e, ctx.now)));
    if (c.startedAt > ctx.now) wake.push(relistAfter(c.startedAt));
  }
  for (const s of Object.values(w.stopping)) if (!s.signalled) wake.push(s.signalAt);
  for (const p of Object.values(w.probes)) if (w.phase !== 'terminated') wake.push(p.nextAt);
  return wake;
}

// ---- SyncPod ---------------------------------------------------------------------

function facts(k: Kubelet, sb: Sandbox | null): PodFacts {
  const a = k.allocatable();
  return { podIP: sb?.ip ?? '', hostIP: k.config.internalIP, nodeAllocatable: { cpuMilli: a.cpuMilli, memoryBytes: a.memoryBytes } };
}

export function currentSandbox(k: Kubelet, uid: string): Sandbox | null {
  const all = k.runtime.podSandboxes(uid);
  return all[all.length - 1] ?? null;
}

function syncRunning(k: Kubelet, ctx: ActorContext, w: PodWorker, wake: number[]): void {
  const now = ctx.now;
  const rt = k.runtime;
  const pod = w.pod;
  const spec = pod.spec as Spec;
  ensureProbeWorkers(k, w, now);
  runProbes(k, w, now);

  // Volumes: everything they refer to must be there before the sandbox is made.
  requestObjects(k, ctx, pod, referencedObjects(pod));
  let sb = currentSandbox(k, w.uid);
  const vols = podVolumes(pod, k.objects, facts(k, sb));
  if (vols.type === 'pending') return;
  if (vols.type === 'error') {
    const key = `mount/${vols.volume}`;
    if (w.once[key] === undefined || now - w.once[key]! >= 120_000) {
      w.once[key] = now;
      recordPodEvent(k, w.pod, '', 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${vols.volume}" : ${vols.message}`, now);
    }
    wake.push(now + RETRY_MS);
    return;
  }

  // The sandbox.
  if (!sb || sb.state !== 'ready') {
    if (sb) {
      recordPodEvent(k, w.pod, '', 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', now);
      rt.stopPodSandbox(sb.id, now);
    }
    // generatePodSandboxConfig forms the pod's DNS, warning about what it had to cut.
    for (const m of podDns(pod.spec as Parameters<typeof podDns>[0], pod.metadata.namespace ?? 'default').warnings) recordPodEvent(k, w.pod, '', 'Warning', 'DNSConfigForming', m, now);
    sb = rt.runPodSandbox(w.uid, pod.metadata.name!, pod.metadata.namespace ?? 'default', sb ? sb.attempt + 1 : 0, now, pod.spec?.hostNetwork === true);
  }
  if (sb.readyAt > now) {
    wake.push(sb.readyAt);
    return;
  }
  const all = rt.podContainers(w.uid);
  const latest = (name: string, inSandbox = false) => {
    const mine = all.filter((c) => c.name === name && (!inSandbox || c.sandboxId === sb!.id));
    return mine[mine.length - 1];
  };
  const start = (c: ContainerSpec, kind: 'init' | 'sidecar' | 'regular' | 'ephemeral') => startContainer(k, ctx, w, c, kind, sb!, vols.files, latest(c.name), wake);

  // Init containers (in the current sandbox: a new sandbox runs them again), with sidecars among them.
  for (const c of (spec.initContainers ?? []) as ContainerSpec[]) {
    const rc = latest(c.name, true);
    if (isSidecar(c)) {
      if (rc?.state === 'running') {
        if (failedProbe(w, c.name, rc.id)) {
          killFor(k, w, rc, c, 'restart', now, wake);
          return;
        }
        if (!isStarted(w, c, rc, now)) return;
        continue;
      }
      start(c, 'sidecar');
      return;
    }
    if (!rc) {
      start(c, 'init');
      return;
    }
    if (rc.state === 'running') return;
    if (rc.exitCode === 0) continue;
    if ((spec.restartPolicy ?? 'Always') === 'Never') {
      // A failed init container under restartPolicy Never fails the pod.
      w.completed = true;
      beginTermination(k, w, now);
      return;
    }
    start(c, 'init');
    return;
  }

  // Sidecars that died after initialization are restarted.
  for (const c of (spec.initContainers ?? []).filter(isSidecar) as ContainerSpec[]) {
    const rc = latest(c.name, true);
    if (rc?.state === 'running') {
      if (failedProbe(w, c.name, rc.id)) killFor(k, w, rc, c, 'restart', now, wake);
      continue;
    }
    start(c, 'sidecar');
  }

  // Regular containers.
  let keep = 0;
  const toStart: ContainerSpec[] = [];
  for (const c of spec.containers as ContainerSpec[]) {
    const rc = latest(c.name);
    if (!rc || rc.state !== 'running') {
      if (shouldRestart(spec, c, rc, false)) toStart.push(c);
      continue;
    }
    if (w.stopping[rc.id]) {
      // Being killed (a failed probe): it comes back once it has exited, if the policy says so.
      if ((spec.restartPolicy ?? 'Always') !== 'Never') keep++;
      continue;
    }
    if (failedProbe(w, c.name, rc.id)) {
      const restart = (spec.restartPolicy ?? 'Always') !== 'Never';
      killFor(k, w, rc, c, restart ? 'restart' : 'stop', now, wake);
      if (restart) keep++;
      continue;
    }
    keep++;
  }
  // Ephemeral containers (computePodActions' EphemeralContainersToStart): each is started once, never again.
  for (const c of (spec.ephemeralContainers ?? []) as ContainerSpec[]) if (!latest(c.name)) start(c, 'ephemeral');
  if (keep === 0 && toStart.length === 0) {
    // Every container has finished and none will run again: the pod completes.
    w.completed = true;
    beginTermination(k, w, now);
    return;
  }
  for (const c of toStart) if (start(c, 'regular') === 'blocked') break;
}

/** A container counts as started once running past its start, or when its startup probe passed. */
export function isStarted(w: PodWorker, c: ContainerSpec, rc: RtContainer, now: number): boolean {
  if (rc.state !== 'running' || rc.startedAt > now) return false;
  if (!c.startupProbe) return true;
  const p = w.probes[`${c.name}/startup`];
  return !!p && p.containerId === rc.id && p.result === 'success';
}

export function isReady(w: PodWorker, c: ContainerSpec | undefined, rc: RtContainer, now: number): boolean {
  if (!c || rc.state !== 'running' || !isStarted(w, c, rc, now)) return false;
  if (!c.readinessProbe) return true;
  const p = w.probes[`${c.name}/readiness`];
  return !!p && p.containerId === rc.id && p.result === 'success';
}

function failedProbe(w: PodWorker, name: string, id: string): ProbeKind | null {
  for (const kind of ['liveness', 'startup'] as const) {
    const p = w.probes[`${name}/${kind}`];
    if (p && p.containerId === id && p.result === 'failure') return kind;
  }
  return null;
}

/** Kills a container whose liveness or startup probe failed. */
function killFor(k: Kubelet, w: PodWorker, rc: RtContainer, c: ContainerSpec, what: 'restart' | 'stop', now: number, wake: number[]): void {
  if (w.stopping[rc.id]) return;
  const kind = failedProbe(w, c.name, rc.id)!;
  const probe = kind === 'liveness' ? c.livenessProbe : c.startupProbe;
  const spec = w.pod.spec as Spec;
  const graceS = probe?.terminationGracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
  killContainer(k, w, rc, c, `Container ${c.name} failed ${kind} probe${what === 'restart' ? ', will be restarted' : ''}`, graceS * 1000, now, wake);
}

// ---- containers -------------------------------------------------------------------

/** startContainer (kuberuntime_container.go): back-off, image, config, create, start, postStart. */
function startContainer(
  k: Kubelet,
  ctx: ActorContext,
  w: PodWorker,
  c: ContainerSpec,
  kind: 'init' | 'sidecar' | 'regular' | 'ephemeral',
  sb: Sandbox,
  volumes: Record<string, Record<string, string>>,
  prev: RtContainer | undefined,
  wake: number[],
): 'started' | 'blocked' | 'error' {
  const now = ctx.now;
  const rt = k.runtime;
  const pod = w.pod;
  const field = kind === 'regular' ? `spec.containers{${c.name}}` : kind === 'ephemeral' ? `spec.ephemeralContainers{${c.name}}` : `spec.initContainers{${c.name}}`;
  const event = (type: 'Normal' | 'Warning', reason: string, message: string) => recordPodEvent(k, pod, field, type, reason, message, now);
  // doBackOff: a restart waits out the crash-loop back-off counted from the last exit.
  if (prev && prev.state === 'exited') {
    const key = `${w.uid}/${c.name}`;
    if (k.crashBackoff.inBackoffSince(key, prev.finishedAt, now)) {
      const bo = k.crashBackoff.get(key);
      const reason = { reason: 'CrashLoopBackOff', message: `back-off ${goDuration(bo)} restarting failed container=${c.name} pod=${podFullName(pod)}` };
      if (w.reasons[c.name]?.message !== reason.message) event('Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podFullName(pod)}`);
      w.reasons[c.name] = reason;
      wake.push(prev.finishedAt + bo, relistAfter(now + 1));
      return 'error';
    }
    k.crashBackoff.next(key, prev.finishedAt, now);
  }
  // The image.
  const events: { type: 'Normal' | 'Warning'; reason: string; message: string }[] = [];
  const image = c.image ?? '';
  const { result, wait } = ensureImage(rt, k.pullBackoff, w.uid, image, pullPolicyOf(image, c.imagePullPolicy), w.pulls[c.name], now, events);
  for (const e of events) event(e.type, e.reason, e.message);
  if (wait) w.pulls[c.name] = wait;
  else delete w.pulls[c.name];
  if (result.type === 'pulling') {
    wake.push(result.until);
    return 'blocked';
  }
  if (result.type === 'error') {
    w.reasons[c.name] = result.reason;
    event('Warning', 'Failed', `Error: ${result.reason.reason}`);
    // A pull that just failed is synced again at the next relist (the sandbox it made is a PLEG event: that
    // sync shows ImagePullBackOff); otherwise the failed sync is requeued after the pod worker's back-off
    // period, 10 s jittered by up to 50% (pod_workers.go completeWork), and the image back-off is checked then.
    wake.push(result.reason.reason === 'ErrImagePull' ? relistAfter(now + 1) : now + RETRY_MS * (1 + 0.5 * ctx.rng.float()));
    return 'error';
  }
  // The config: environment and mounts.
  const services = k.services.synced ? serviceEnv(k.services.store.values(), pod.metadata.namespace ?? 'default', (pod.spec as { enableServiceLinks?: boolean }).enableServiceLinks ?? true) : null;
  const env = containerEnv(pod, c, k.objects, facts(k, sb), services);
  if (env.type === 'pending') return 'blocked';
  if (env.type === 'error') {
    w.reasons[c.name] = { reason: 'CreateContainerConfigError', message: env.message };
    event('Warning', 'Failed', `Error: ${env.message}`);
    wake.push(now + RETRY_MS, relistAfter(now + 1));
    return 'error';
  }
  const limits = c.resources?.limits ?? {};
  const requests = c.resources?.requests ?? {};
  const rc = rt.startContainer(
    sb.id,
    {
      podUid: w.uid,
      podName: pod.metadata.name!,
      namespace: pod.metadata.namespace ?? 'default',
      name: c.name,
      attempt: prev ? prev.attempt + 1 : 0,
      image,
      ...(c.command ? { command: c.command } : {}),
      ...(c.args ? { args: c.args } : {}),
      env: env.env,
      mounts: containerMounts(pod, c, volumes, sb.ip),
      cpuLimitMilli: quantityNumber(limits.cpu, true),
      memoryLimitBytes: bytesLimit(limits.memory),
      cpuRequestMilli: quantityNumber(requests.cpu ?? limits.cpu, true),
      annotations: pod.metadata.annotations ?? {},
      kind,
      ...(c.stdin ? { stdin: true, ...(c.stdinOnce ? { stdinOnce: true } : {}) } : {}),
      ...(c.tty ? { tty: true } : {}),
    },
    now,
  );
  event('Normal', 'Created', `Created container: ${c.name}`);
  if (rc.reason === 'StartError') {
    event('Warning', 'Failed', `Error: ${rc.message}`);
    w.reasons[c.name] = { reason: 'RunContainerError', message: rc.message };
    wake.push(relistAfter(now + 1));
    return 'error';
  }
  event('Normal', 'Started', `Started container ${c.name}`);
  delete w.reasons[c.name];
  // postStart: a failing hook kills the container.
  const post = c.lifecycle?.postStart;
  const hook = post ? runHook(k, rc, sb, post, c.ports ?? [], now, 30_000) : null;
  if (hook && !hook.ok) {
    // The event keeps the hook's output out (it may hold secrets); the waiting message has it.
    event('Warning', 'FailedPostStartHook', 'PostStartHook failed');
    w.reasons[c.name] = { reason: 'PostStartHookError', message: hook.message };
    killContainer(k, w, rc, c, 'FailedPostStartHook', gracePeriodMs(pod), now, wake);
  }
  wake.push(relistAfter(rc.startedAt));
  return 'started';
}

/**
 * Runs a lifecycle handler (exec, httpGet, sleep): how long it took, whether it succeeded, and when not the
 * handler runner's message (pkg/kubelet/lifecycle/handlers.go). An HTTP hook fails only when the request
 * does: any status answered counts as done.
 */
function runHook(k: Kubelet, rc: RtContainer, sb: Sandbox, h: Handler, ports: readonly { name?: string; containerPort: number }[], now: number, timeoutMs: number): { ok: boolean; ms: number; message: string } {
  const who = `for Container "${rc.name}" in Pod "${rc.podName}_${rc.namespace}(${rc.podUid})" failed`;
  if (h.exec) {
    const cmd = h.exec.command ?? [];
    const failed = (err: string, output: string, ms: number) => ({ ok: false, ms, message: `Exec lifecycle hook ([${cmd.join(' ')}]) ${who} - error: ${err}, message: ${JSON.stringify(output)}` });
    const r = k.runtime.exec(rc.id, cmd, now, timeoutMs);
    if ('error' in r) return failed(`rpc error: code = Unknown desc = ${r.error}`, '', 0);
    const ms = Math.min(r.durationMs, timeoutMs);
    if (r.timedOut) return failed(`command ${JSON.stringify(cmd.join(' '))} timed out`, '', ms);
    // The CRI client's error for a non-zero exit names the command, the code and its stderr.
    if (r.exitCode !== 0) return failed(`command '${cmd.join(' ')}' exited with ${r.exitCode}: ${r.stderr}`, r.stdout + r.stderr, ms);
    return { ok: true, ms, message: '' };
  }
  if (h.httpGet) {
    // As an HTTP probe builds its URL: a named port through the container's ports, the pod IP unless host is set.
    const port = portOf(h.httpGet.port, ports);
    const host = h.httpGet.host ?? sb.ip;
    const scheme = (h.httpGet.scheme ?? 'HTTP').toLowerCase();
    const path = h.httpGet.path ?? '/';
    if (host === sb.ip && k.runtime.httpGet(sb.id, port, path, now) !== null) return { ok: true, ms: 0, message: '' };
    return { ok: false, ms: 0, message: `HTTP lifecycle hook (${path}) ${who} - error: Get "${scheme}://${host}:${port}${path}": dial tcp ${host}:${port}: connect: connection refused` };
  }
  if (h.sleep) return { ok: true, ms: Math.min(h.sleep.seconds * 1000, timeoutMs), message: '' };
  return { ok: true, ms: 0, message: '' };
}

/** The pod-level grace period: the deletion's, else terminationGracePeriodSeconds (30 s). */
export function gracePeriodMs(pod: Pod): number {
  const s = pod.metadata.deletionGracePeriodSeconds ?? (pod.spec as Spec).terminationGracePeriodSeconds ?? 30;
  return s * 1000;
}

/**
 * killContainer: the Killing event, the preStop hook (it eats into the grace
 * period, in whole seconds), then StopContainer with what is left, never less
 * than 2 s.
 */
export function killContainer(
  k: Kubelet,
  w: PodWorker,
  rc: RtContainer,
  c: ContainerSpec | undefined,
  message: string,
  graceMs: number,
  now: number,
  wake: number[],
  waitTurn = false,
): void {
  if (w.stopping[rc.id] || rc.state !== 'running') return;
  const field = rc.kind === 'regular' ? `spec.containers{${rc.name}}` : `spec.initContainers{${rc.name}}`;
  recordPodEvent(k, w.pod, field, 'Normal', 'Killing', message || `Stopping container ${rc.name}`, now);
  let hookMs = 0;
  const pre = c?.lifecycle?.preStop;
  const sb = k.runtime.sandboxes.get(rc.sandboxId);
  if (pre && graceMs > 0 && sb) {
    const r = runHook(k, rc, sb, pre, c?.ports ?? [], now, graceMs);
    hookMs = r.ms;
    if (!r.ok) recordPodEvent(k, w.pod, field, 'Warning', 'FailedPreStopHook', 'PreStopHook failed', now);
  }
  const afterHook = graceMs - Math.floor(hookMs / 1000) * 1000;
  const left = Math.max(MIN_GRACE_MS, afterHook);
  if (waitTurn) {
    // Signalled when its turn comes (syncTerminating).
    w.stopping[rc.id] = { containerId: rc.id, signalAt: Infinity, timeoutMs: left, signalled: false, turn: { hookEnd: now + hookMs, graceMs: afterHook } };
    wake.push(now + hookMs);
    return;
  }
  w.stopping[rc.id] = { containerId: rc.id, signalAt: now + hookMs, timeoutMs: left, signalled: false };
  processStops(k, w, now);
  if (!w.stopping[rc.id]?.signalled) wake.push(now + hookMs);
}

/** Stops whose preStop hook is over get their signal. */
function processStops(k: Kubelet, w: PodWorker, now: number): void {
  for (const [id, s] of Object.entries(w.stopping)) {
    const rc = k.runtime.containers.get(id);
    if (!rc || rc.state !== 'running') {
      delete w.stopping[id];
      continue;
    }
    if (!s.signalled && s.signalAt <= now) {
      s.signalled = true;
      k.runtime.stopContainer(id, s.timeoutMs, now);
      if (k.runtime.containers.get(id)?.state !== 'running') delete w.stopping[id];
    }
  }
}

// ---- termination ------------------------------------------------------------------------

/** The pod is to stop: deleted, evicted, or done. */
export function beginTermination(k: Kubelet, w: PodWorker, now: number): void {
  if (w.phase !== 'sync') return;
  w.phase = 'terminating';
  w.terminatingSince = now;
  w.graceMs = w.ended ? w.ended.graceMs : gracePeriodMs(w.pod);
  // Liveness and startup probes stop; readiness keeps telling until the container stops.
  for (const key of Object.keys(w.probes)) if (!key.endsWith('/readiness')) delete w.probes[key];
  w.pulls = {};
}

function syncTerminating(k: Kubelet, ctx: ActorContext, w: PodWorker, wake: number[]): void {
  const now = ctx.now;
  runProbes(k, w, now);
  const spec = w.pod.spec as Spec;
  const specOf = (name: string) => [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])].find((c) => c.name === name) as ContainerSpec | undefined;
  const running = k.runtime.podContainers(w.uid).filter((c) => c.state === 'running');
  const regular = running.filter((c) => c.kind !== 'sidecar');
  const elapsed = Math.floor((now - w.terminatingSince) / 1000) * 1000;
  const graceLeft = Math.max(0, w.graceMs - elapsed);
  for (const rc of regular) killContainer(k, w, rc, specOf(rc.name), '', graceLeft, now, wake);
  // Sidecars are killed along with them (the Killing event, the preStop hook), but each is only stopped
  // once the regular containers and the sidecars defined after it have exited, or its grace ran out
  // waiting (kuberuntime_container.go killContainer with a terminationOrdering).
  const order = (spec.initContainers ?? []).filter(isSidecar).map((c) => c.name);
  const sidecars = running.filter((c) => c.kind === 'sidecar');
  for (const rc of sidecars) killContainer(k, w, rc, specOf(rc.name), '', graceLeft, now, wake, true);
  for (const rc of sidecars) {
    const s = w.stopping[rc.id];
    if (!s?.turn) continue;
    if (now < s.turn.hookEnd) {
      wake.push(s.turn.hookEnd);
      continue;
    }
    const later = order.slice(order.indexOf(rc.name) + 1);
    const waitsOn = running.some((c) => c.kind !== 'sidecar' || later.includes(c.name));
    const timeoutAt = s.turn.hookEnd + Math.max(0, s.turn.graceMs);
    if (waitsOn && now < timeoutAt) {
      wake.push(timeoutAt);
      continue;
    }
    // The time waited comes off the grace period, in whole seconds, never below the 2 s minimum.
    s.timeoutMs = Math.max(MIN_GRACE_MS, s.turn.graceMs - Math.floor((now - s.turn.hookEnd) / 1000) * 1000);
    s.signalAt = now;
    delete s.turn;
  }
  processStops(k, w, now);
  if (running.length > 0) return;
  // Nothing runs: tear the sandbox down (SyncTerminatedPod).
  const sb = currentSandbox(k, w.uid);
  if (sb && sb.state === 'ready') k.runtime.stopPodSandbox(sb.id, now);
  w.phase = 'terminated';
  w.probes = {};
  w.stopping = {};
}

// ---- probes -------------------------------------------------------------------------------

function ensureProbeWorkers(k: Kubelet, w: PodWorker, now: number): void {
  const spec = w.pod.spec as Spec;
  for (const c of [...(spec.initContainers ?? []).filter(isSidecar), ...spec.containers] as ContainerSpec[]) {
    const probes: [ProbeKind, ProbeSpec | undefined][] = [
      ['startup', c.startupProbe],
      ['readiness', c.readinessProbe],
      ['liveness', c.livenessProbe],
    ];
    for (const [kind, p] of probes) {
      const key = `${c.name}/${kind}`;
      if (p && !w.probes[key]) w.probes[key] = newProbeWorker(kind, c.name, p, now, k.startedAt, k.rng);
    }
  }
}

/** Runs the probe ticks due; failed attempts record Unhealthy events. */
export function runProbes(k: Kubelet, w: PodWorker, now: number): void {
  const spec = w.pod.spec as Spec;
  const all = k.runtime.podContainers(w.uid);
  const sb = currentSandbox(k, w.uid);
  for (const pw of Object.values(w.probes) as ProbeWorker[]) {
    const c = [...(spec.initContainers ?? []), ...spec.containers].find((x) => x.name === pw.container) as ContainerSpec | undefined;
    const p = c && (pw.kind === 'startup' ? c.startupProbe : pw.kind === 'readiness' ? c.readinessProbe : c.livenessProbe);
    if (!c || !p) continue;
    const mine = all.filter((x) => x.name === pw.container);
    const rc = mine[mine.length - 1];
    const started = rc ? isStarted(w, c, rc, pw.nextAt) : false;
    const out = tick(pw, p, k.runtime, rc, sb, c.ports ?? [], started, now, (spec.restartPolicy ?? 'Always') === 'Never');
    const field = isSidecar(c) ? `spec.initContainers{${c.name}}` : `spec.containers{${c.name}}`;
    for (const f of out.failures) recordPodEvent(k, w.pod, field, 'Warning', 'Unhealthy', `${probeName(pw.kind)} probe ${f.errored ? 'errored' : 'failed'}: ${f.output}`, f.at);
  }
}
