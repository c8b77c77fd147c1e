// The API status of a pod from what the runtime reports and what the kubelet
// remembers (pkg/kubelet/kubelet_pods.go generateAPIPodStatus,
// convertToAPIContainerStatuses, getPhase; pkg/kubelet/status/generate.go for
// the conditions): container states with upstream's reasons (ContainerCreating
// and PodInitializing by default, the reason cache's ErrImagePull /
// ImagePullBackOff / CrashLoopBackOff / CreateContainerConfigError for
// containers that will be (re)started, the runtime's Completed / Error /
// OOMKilled for terminated ones), restart counts, the previous instance as
// lastState, readiness and started from the probes, the pod phase and the
// PodReadyToStartContainers, Initialized, Ready, ContainersReady and
// PodScheduled conditions.
import { rfc3339 } from '../../apiserver/http/time';
import type { Container, Pod } from '../../scheduler/framework/api';
import type { RtContainer, Sandbox } from '../runtime/runtime';
import { podQOSClass } from '../../apiserver/validation/strategy';

/** A sync error remembered per container (kubelet's reasonCache). */
export interface ReasonEntry {
  reason: string;
  message: string;
}

type Spec = Pod['spec'] & { restartPolicy?: string; readinessGates?: { conditionType: string }[]; ephemeralContainers?: ContainerSpec[] };
type ContainerSpec = Container & { volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[] };

export interface StatusInput {
  pod: Pod;
  /** Every instance the runtime has for the pod, oldest first. */
  containers: readonly RtContainer[];
  sandbox: Sandbox | null;
  reasons: Readonly<Record<string, ReasonEntry>>;
  /** Probe results by container id. */
  ready: (id: string) => boolean;
  started: (id: string) => boolean;
  /** The pod will not run again: its containers are not restarted whatever the policy. */
  terminal: boolean;
  /** The kubelet ended the pod itself (eviction): phase Failed with this reason and message, and a DisruptionTarget condition. */
  ended: { reason: string; message: string; disruption: boolean } | null;
  hostIP: string;
  startTime: string;
  now: number;
  /** Condition type → "status@time" of its last transition (the status manager's memory). */
  transitions: Record<string, string>;
}

export interface ApiContainerStatus {
  containerID?: string;
  image: string;
  imageID: string;
  lastState: Record<string, unknown>;
  name: string;
  ready: boolean;
  restartCount: number;
  started: boolean;
  state: { waiting?: { reason: string; message?: string }; running?: { startedAt: string }; terminated?: Terminated };
  volumeMounts?: { mountPath: string; name: string; readOnly?: boolean; recursiveReadOnly?: string }[];
}

interface Terminated {
  containerID: string;
  exitCode: number;
  finishedAt: string;
  message?: string;
  reason: string;
  startedAt: string;
}

export const isSidecar = (c: Container) => c.restartPolicy === 'Always';

/** The latest instance of each container name, and the one before it. */
function instances(containers: readonly RtContainer[], name: string): { latest?: RtContainer; previous?: RtContainer } {
  const mine = containers.filter((c) => c.name === name);
  return { latest: mine[mine.length - 1], previous: mine[mine.length - 2] };
}

/** A container that never ran has CRI started_at 0, which the kubelet shows as the Unix epoch. */
const NEVER_STARTED = '1970-01-01T00:00:00Z';

function terminatedOf(c: RtContainer): Terminated {
  return {
    containerID: `containerd://${c.id}`,
    exitCode: c.exitCode,
    finishedAt: rfc3339(c.finishedAt),
    ...(c.message ? { message: c.message } : {}),
    reason: c.reason,
    startedAt: c.reason === 'StartError' ? NEVER_STARTED : rfc3339(Math.max(0, c.startedAt)),
  };
}

/** kubecontainer.ShouldContainerBeRestarted (sidecars always restart). */
export function shouldRestart(spec: Spec, c: Container, latest: RtContainer | undefined, deleting: boolean): boolean {
  if (deleting) return false;
  if (!latest) return true;
  if (latest.state === 'running') return false;
  if (latest.state === 'created') return true;
  if (isSidecar(c)) return true;
  const policy = spec.restartPolicy ?? 'Always';
  if (policy === 'Never') return false;
  if (policy === 'OnFailure') return latest.exitCode !== 0;
  return true;
}

function convertStatuses(inp: StatusInput, specs: readonly ContainerSpec[], isInit: boolean): ApiContainerStatus[] {
  const spec = inp.pod.spec as Spec;
  const hasInit = (spec.initContainers ?? []).length > 0;
  const deleting = !!inp.pod.metadata.deletionTimestamp || inp.terminal;
  return specs.map((cs) => {
    const { latest, previous } = instances(inp.containers, cs.name);
    const image = cs.image ?? '';
    const base: ApiContainerStatus = {
      image,
      imageID: '',
      lastState: {},
      name: cs.name,
      ready: false,
      restartCount: 0,
      started: false,
      state: { waiting: { reason: hasInit ? 'PodInitializing' : 'ContainerCreating' } },
    };
    let st = base;
    if (latest) {
      st = {
        containerID: `containerd://${latest.id}`,
        image: latest.imageRef,
        imageID: latest.imageId,
        lastState: previous && previous.state === 'exited' ? { terminated: terminatedOf(previous) } : {},
        name: cs.name,
        // prober manager UpdatePodStatus: a regular init container is ready once it exited 0.
        ready: isInit && !isSidecar(cs) ? latest.state === 'exited' && latest.exitCode === 0 : latest.state === 'running' && inp.ready(latest.id),
        restartCount: latest.attempt,
        started: latest.state === 'running' && inp.started(latest.id),
        state: latest.state === 'running' ? { running: { startedAt: rfc3339(latest.startedAt) } } : { terminated: terminatedOf(latest) },
      };
      const mounts = (cs.volumeMounts ?? []).map((m) => ({ mountPath: m.mountPath, name: m.name, ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}) }));
      if (mounts.length) st.volumeMounts = mounts;
    }
    // A container the next sync starts again is Waiting, with the reason its last start failed.
    const completedInit = isInit && !isSidecar(cs) && latest?.state === 'exited' && latest.exitCode === 0;
    const reason = inp.reasons[cs.name];
    if (!completedInit && reason && shouldRestart(spec, cs, latest, deleting)) {
      if (st.state.terminated) st.lastState = { terminated: st.state.terminated };
      st.state = { waiting: { reason: reason.reason, ...(reason.message ? { message: reason.message } : {}) } };
      st.ready = false;
      st.started = false;
    }
    return st;
  });
}

/** getPhase (kubelet_pods.go) with restartable init containers, as in v1.32. */
export function getPhase(spec: Spec, init: readonly ApiContainerStatus[], regular: readonly ApiContainerStatus[], podIsTerminal: boolean): string {
  const byName = (list: readonly ApiContainerStatus[], n: string) => list.find((s) => s.name === n);
  let pendingRegularInit = 0;
  let failedInit = 0;
  let pendingSidecars = 0;
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.initContainers ?? []) {
    const s = byName(init, c.name);
    if (isSidecar(c)) {
      if (!s) {
        unknown++;
        continue;
      }
      if (s.state.running) {
        if (!s.started) pendingSidecars++;
        running++;
      } else if (s.state.waiting && !s.lastState.terminated) {
        pendingSidecars++;
        waiting++;
      }
      continue;
    }
    if (!s) {
      pendingRegularInit++;
      continue;
    }
    if (s.state.running) pendingRegularInit++;
    else if (s.state.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++;
    } else if (s.state.waiting) {
      const last = s.lastState.terminated as Terminated | undefined;
      if (last) {
        if (last.exitCode !== 0) failedInit++;
      } else pendingRegularInit++;
    } else pendingRegularInit++;
  }
  for (const c of spec.containers) {
    const s = byName(regular, c.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state.running) running++;
    else if (s.state.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state.waiting) {
      if (s.lastState.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  const policy = spec.restartPolicy ?? 'Always';
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  // Pending initialization (regular init containers and sidecars alike) only keeps the pod Pending while no
  // regular container has run (kubelet_pods.go getPhase): a re-run of the init containers in a new sandbox does not.
  if (((pendingRegularInit > 0 || pendingSidecars > 0) && !anyRegularStarted(regular)) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** kubecontainer.HasAnyRegularContainerStarted: a regular container is running or has terminated. */
function anyRegularStarted(regular: readonly ApiContainerStatus[]): boolean {
  return regular.some((s) => !!s.state.running || !!s.state.terminated);
}

/**
 * v1qos.GetPodQOS: Guaranteed, Burstable or BestEffort, comparing quantities as quantities (requests of
 * 1000m and limits of 1 are equal), as the API server's qos.ComputePodQOS does.
 */
export function qosClass(pod: Pod): string {
  return podQOSClass(pod.spec);
}

export function podStatusFor(inp: StatusInput): Record<string, unknown> {
  const { pod } = inp;
  const spec = pod.spec as Spec;
  const prior = (pod.status ?? {}) as { qosClass?: string; conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }[] };
  const qos = prior.qosClass ?? qosClass(pod);
  const cond = (type: string, status: string, reason?: string, message?: string) => {
    const key = `${status}@`;
    let since = inp.transitions[type];
    if (!since || !since.startsWith(key)) {
      const existing = prior.conditions?.find((c) => c.type === type && c.status === status);
      since = `${key}${existing?.lastTransitionTime ?? rfc3339(inp.now)}`;
      inp.transitions[type] = since;
    }
    return { lastProbeTime: null, lastTransitionTime: since.slice(key.length), ...(message ? { message } : {}), ...(reason ? { reason } : {}), status, type };
  };
  const init = convertStatuses(inp, (spec.initContainers ?? []) as ContainerSpec[], true);
  const regular = convertStatuses(inp, spec.containers as ContainerSpec[], false);
  // Ephemeral containers are never ready and have no startup state of their own (the prober sets neither).
  const ephemeral = convertStatuses(inp, (spec.ephemeralContainers ?? []) as ContainerSpec[], false).map(({ started: _started, ...st }) => ({ ...st, ready: false }));
  let phase = getPhase(spec, init, regular, inp.terminal);
  const apiPhase = (pod.status as { phase?: string } | undefined)?.phase;
  // A terminal phase never changes back.
  if ((apiPhase === 'Failed' || apiPhase === 'Succeeded') && phase !== apiPhase) phase = apiPhase;
  if (inp.ended) phase = 'Failed';

  const conditions: unknown[] = [];
  const sandboxUp = !!inp.sandbox && inp.sandbox.state === 'ready' && inp.sandbox.readyAt <= inp.now;
  conditions.push(cond('PodReadyToStartContainers', sandboxUp ? 'True' : 'False'));
  // Initialized.
  const initSpecs = spec.initContainers ?? [];
  if (initSpecs.length === 0) conditions.push(cond('Initialized', 'True'));
  else {
    const unknownInit: string[] = [];
    const incomplete: string[] = [];
    for (const c of initSpecs) {
      const s = init.find((x) => x.name === c.name);
      if (!s || (!s.containerID && !s.lastState.terminated && s.state.waiting)) {
        // No instance yet: upstream counts a status it has (the default waiting one) as known but incomplete.
        incomplete.push(c.name);
        continue;
      }
      const done = isSidecar(c) ? s.started : s.state.terminated?.exitCode === 0;
      if (!done) incomplete.push(c.name);
    }
    if (phase === 'Succeeded' && unknownInit.length === 0) conditions.push(cond('Initialized', 'True', 'PodCompleted'));
    else if (anyRegularStarted(regular) || incomplete.length === 0) conditions.push(cond('Initialized', 'True'));
    else conditions.push(cond('Initialized', 'False', 'ContainersNotInitialized', `containers with incomplete status: [${incomplete.join(' ')}]`));
  }
  // ContainersReady and Ready: regular containers and sidecars must be ready (status/generate.go); a terminal
  // pod is not ready, with reason PodCompleted or PodFailed and no message.
  const unready = [...initSpecs.filter(isSidecar).map((c) => init.find((s) => s.name === c.name)!), ...regular].filter((s) => !s.ready).map((s) => s.name);
  let readyCond: [string, string?, string?];
  if (phase === 'Succeeded') readyCond = ['False', 'PodCompleted'];
  else if (phase === 'Failed') readyCond = ['False', 'PodFailed'];
  else if (unready.length) readyCond = ['False', 'ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`];
  else readyCond = ['True'];
  // Every readiness gate that is not True is named, joined with ", " (GeneratePodReadyCondition).
  const gateMessages = (spec.readinessGates ?? []).flatMap((g) => {
    const c = prior.conditions?.find((x) => x.type === g.conditionType);
    if (!c) return [`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`];
    return c.status === 'True' ? [] : [`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`];
  });
  const ready: [string, string?, string?] = readyCond[0] === 'True' && gateMessages.length ? ['False', 'ReadinessGatesNotReady', gateMessages.join(', ')] : readyCond;
  // Conditions the kubelet does not own (readiness gates, DisruptionTarget set by others) come first, as
  // generateAPIPodStatus keeps them, then the kubelet's own, PodScheduled last among them.
  const kept = (prior.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.has(c.type) && !(inp.ended?.disruption && c.type === 'DisruptionTarget'));
  conditions.unshift(...kept);
  conditions.push(cond('Ready', ...ready));
  conditions.push(cond('ContainersReady', ...readyCond));
  conditions.push(cond('PodScheduled', 'True'));
  if (inp.ended?.disruption) conditions.push(cond('DisruptionTarget', 'True', 'TerminationByKubelet', inp.ended.message));

  const sb = inp.sandbox;
  const podIP = sb && sb.ip && sb.state === 'ready' ? sb.ip : (sb?.ip ?? '');
  return {
    conditions,
    containerStatuses: regular,
    ...(ephemeral.length ? { ephemeralContainerStatuses: ephemeral } : {}),
    hostIP: inp.hostIP,
    hostIPs: [{ ip: inp.hostIP }],
    ...(init.length ? { initContainerStatuses: init } : {}),
    ...(inp.ended ? { message: inp.ended.message } : {}),
    phase,
    ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
    qosClass: qos,
    ...(inp.ended ? { reason: inp.ended.reason } : {}),
    startTime: inp.startTime,
  };
}

/** The conditions the kubelet owns (kubelet/types PodConditionByKubelet); the others it keeps as they are. */
export const KUBELET_CONDITIONS: ReadonlySet<string> = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);

/**
 * The status of a pod the kubelet refused to run (kubelet.go rejectPod): phase, reason, message and QoS
 * class, with the start time the status manager always sets. rejectPod's status has no conditions, and
 * mergePodStatus keeps only the old ones the kubelet does not own: PodScheduled goes.
 */
export function rejectedStatus(pod: Pod, reason: string, message: string, startTime: string): Record<string, unknown> {
  const prior = (pod.status ?? {}) as { qosClass?: string; conditions?: { type: string }[] };
  const kept = (prior.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.has(c.type));
  return { ...(kept.length ? { conditions: kept } : {}), message: `Pod was rejected: ${message}`, phase: 'Failed', qosClass: prior.qosClass ?? qosClass(pod), reason, startTime };
}

/** The strategic-merge entries deleting the kubelet-owned conditions the stored pod has (a rejected pod's patch). */
export function deletedKubeletConditions(pod: Pod): { type: string; $patch: 'delete' }[] {
  const prior = (pod.status ?? {}) as { conditions?: { type: string }[] };
  return (prior.conditions ?? []).filter((c) => KUBELET_CONDITIONS.has(c.type)).map((c) => ({ type: c.type, $patch: 'delete' as const }));
}
