// The pod worker's runtime state and the API status it implies
// (kubelet_pods.go generateAPIPodStatus, getPhase; status/generate.go).
import type { Pod } from '../../scheduler/framework/api';
import { rfc3339 } from '../../apiserver/http/time';
import { parseImage } from '../runtime/images';
import type { ProbeKind, ProbeState } from '../prober/probes';

export interface Terminated {
  exitCode: number;
  reason: string;
  startedAt: number;
  finishedAt: number;
  containerID: string;
}

export interface ContainerRt {
  name: string;
  image: string;
  state: 'waiting' | 'running' | 'terminated';
  reason: string;
  message: string;
  restartCount: number;
  containerID: string;
  imageID: string;
  startedAt: number;
  /** When the process serves (its start delay over): probes pass from then. */
  listeningAt: number;
  /** The container's ready and started flags (probe results). */
  ready: boolean;
  started: boolean;
  probes: Partial<Record<ProbeKind, ProbeState>>;
  /** Ports the running image listens on. */
  ports: number[];
  exitAt: number;
  exitCode: number;
  finishedAt: number;
  lastTerminated: Terminated | null;
  pullAt: number;
  /** When this container began waiting for its image's pull, -1 when not pulling. */
  pullStartedAt: number;
  backoffUntil: number;
  ignoresSigterm: boolean;
  /** The pending exit is the kernel's OOM killer (reason OOMKilled). */
  oomKilled: boolean;
}

export interface PodWorker {
  uid: string;
  pod: Pod;
  /** sandbox → running → terminated → done (status final). */
  stage: 'sandbox' | 'running' | 'terminated' | 'done';
  readyToStartAt: number;
  ip: number;
  podIP: string;
  startTime: string;
  rejected: { reason: string; message: string } | null;
  deleting: boolean;
  containers: ContainerRt[];
  restartPolicy: string;
  wakeAt: number;
  lastSent: string;
  patchInFlight: boolean;
  deleteSent: boolean;
  deleteInFlight: boolean;
  /** Condition type → "status@time" of its last transition. */
  transitions: Record<string, string>;
}

function terminatedState(t: Terminated) {
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      startedAt: rfc3339(t.startedAt),
      finishedAt: rfc3339(t.finishedAt),
      containerID: t.containerID,
    },
  };
}

function containerStatus(c: ContainerRt, now: number, image: string) {
  const ready = c.state === 'running' && c.ready;
  let state: unknown;
  switch (c.state) {
    case 'waiting':
      state = {
        waiting: {
          reason: c.reason,
          ...(c.message ? { message: c.message } : {}),
        },
      };
      break;
    case 'running':
      state = { running: { startedAt: rfc3339(c.startedAt) } };
      break;
    case 'terminated':
      state = terminatedState({
        exitCode: c.exitCode,
        reason: c.reason,
        startedAt: c.startedAt,
        finishedAt: c.finishedAt,
        containerID: c.containerID,
      });
      break;
  }
  return {
    ...(c.state !== 'waiting' || c.lastTerminated
      ? {
          containerID: c.state === 'waiting' ? c.lastTerminated!.containerID : c.containerID,
        }
      : {}),
    image,
    imageID: c.imageID,
    lastState: c.lastTerminated ? terminatedState(c.lastTerminated) : {},
    name: c.name,
    ready,
    restartCount: c.restartCount,
    started: c.state === 'running' && c.started,
    state,
  };
}

/** getPhase for a pod without init containers. */
function phaseOf(w: PodWorker): string {
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of w.containers) {
    if (c.state === 'running') running++;
    else if (c.state === 'terminated') {
      stopped++;
      if (c.exitCode === 0) succeeded++;
    } else if (c.lastTerminated) stopped++;
    else waiting++;
  }
  const terminal = w.stage === 'done';
  if (waiting > 0 && !terminal) return 'Pending';
  if (running > 0 && !terminal) return 'Running';
  if (terminal || w.restartPolicy === 'Never') return stopped === succeeded && waiting === 0 ? 'Succeeded' : 'Failed';
  if (w.restartPolicy === 'OnFailure' && stopped === succeeded) return 'Succeeded';
  return 'Running';
}

export function podStatusFor(w: PodWorker, now: number, hostIP: string): Record<string, unknown> {
  const prior = (w.pod.status ?? {}) as {
    qosClass?: string;
    conditions?: {
      type: string;
      status: string;
      lastTransitionTime?: string;
    }[];
  };
  const qosClass = prior.qosClass ?? 'BestEffort';
  if (w.rejected)
    return {
      phase: 'Failed',
      reason: w.rejected.reason,
      message: `Pod was rejected: ${w.rejected.message}`,
      qosClass,
    };
  const cond = (type: string, status: string, reason?: string, message?: string) => {
    const key = `${status}@`;
    let since = w.transitions[type];
    if (!since || !since.startsWith(key)) {
      const existing = prior.conditions?.find((c) => c.type === type && c.status === status);
      since = `${key}${existing?.lastTransitionTime ?? rfc3339(now)}`;
      w.transitions[type] = since;
    }
    return {
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: since.slice(key.length),
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
    };
  };
  const images = new Map(w.pod.spec.containers.map((c) => [c.name, c.image ?? '']));
  const statuses = w.containers.map((c) => {
    const s = containerStatus(c, now, images.get(c.name) ?? c.image);
    return { ...s, image: s.imageID ? normalised(s.image) : s.image };
  });
  const phase = phaseOf(w);
  const unready = statuses.filter((s) => !s.ready).map((s) => s.name);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const notReadyReason = terminal ? 'PodCompleted' : 'ContainersNotReady';
  const notReadyMsg = terminal ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  const sandboxUp = w.stage === 'running';
  const conditions = [
    cond('PodReadyToStartContainers', sandboxUp ? 'True' : 'False'),
    cond('Initialized', 'True'),
    unready.length === 0 && !terminal ? cond('Ready', 'True') : cond('Ready', 'False', notReadyReason, notReadyMsg),
    unready.length === 0 && !terminal ? cond('ContainersReady', 'True') : cond('ContainersReady', 'False', notReadyReason, notReadyMsg),
    cond('PodScheduled', 'True'),
  ];
  return {
    phase,
    conditions,
    hostIP,
    hostIPs: [{ ip: hostIP }],
    ...(w.podIP ? { podIP: w.podIP, podIPs: [{ ip: w.podIP }] } : {}),
    startTime: w.startTime,
    containerStatuses: statuses,
    qosClass,
  };
}

function normalised(image: string): string {
  return parseImage(image).full;
}
