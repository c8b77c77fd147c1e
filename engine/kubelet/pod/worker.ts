// A pod worker's state (pkg/kubelet/pod_workers.go podSyncStatus, with what
// the kubelet keeps per pod beside it: the reason cache, image pulls in
// flight, containers being stopped, probe workers and the status manager's
// memory). Volatile: a restarted kubelet rebuilds it from the API and the
// runtime.
import type { Pod } from '../../scheduler/framework/api';
import type { ReasonEntry } from '../status/generate';
import type { ProbeWorker } from '../prober/prober';

/** A container being stopped: its preStop hook runs until `signalAt`, then StopContainer with `timeoutMs`. */
export interface Stopping {
  containerId: string;
  signalAt: number;
  timeoutMs: number;
  signalled: boolean;
  /**
   * A sidecar waiting for its turn (terminationOrdering): its preStop hook ends at `hookEnd`, then it waits
   * for the regular containers and the sidecars after it, at most `graceMs` (the grace left after the hook).
   */
  turn?: { hookEnd: number; graceMs: number };
}

/** An image pull a container waits on (the puller is node-wide and serialized). */
export interface PullWait {
  image: string;
  /** When the kubelet asked (the "including waiting" part of the Pulled event). */
  requestedAt: number;
  /** The pull in the runtime's queue: when it starts and ends, and how it ends. */
  startedAt: number;
  doneAt: number;
  error: { code: string; message: string } | null;
}

export type WorkerPhase =
  /** SyncPod: the pod should be running. */
  | 'sync'
  /** SyncTerminatingPod: its containers are being stopped. */
  | 'terminating'
  /** SyncTerminatedPod: nothing runs any more; the final status is written (and a deleted pod removed). */
  | 'terminated';

export interface PodWorker {
  uid: string;
  pod: Pod;
  phase: WorkerPhase;
  /** Refused at admission: never ran, status Failed with this reason. */
  rejected: ReasonEntry | null;
  /** The kubelet ended it (eviction): final status Failed with this reason and message. */
  ended: { reason: string; message: string; disruption: boolean; graceMs: number } | null;
  /** The pod's containers are all done and will not run again (restartPolicy): it completes. */
  completed: boolean;
  /** When termination began and the pod-level grace period it was given. */
  terminatingSince: number;
  graceMs: number;
  /** status.startTime. */
  startTime: string;
  reasons: Record<string, ReasonEntry>;
  pulls: Record<string, PullWait>;
  stopping: Record<string, Stopping>;
  probes: Record<string, ProbeWorker>;
  /** The next instant the worker must run, and the timer's tag for it. */
  wakeAt: number;
  /** Configuration errors are retried on the worker's back-off period. */
  retryAt: number;
  /** The status manager: the status last written, whether a write is in flight, condition transitions. */
  lastSent: string;
  patchInFlight: boolean;
  transitions: Record<string, string>;
  deleteSent: boolean;
  /** Events already recorded once per condition (FailedMount), keyed, with the time. */
  once: Record<string, number>;
}

export function newWorker(pod: Pod, startTime: string): PodWorker {
  return {
    uid: pod.metadata.uid!,
    pod,
    phase: 'sync',
    rejected: null,
    ended: null,
    completed: false,
    terminatingSince: -1,
    graceMs: 0,
    startTime,
    reasons: {},
    pulls: {},
    stopping: {},
    probes: {},
    wakeAt: -1,
    retryAt: -1,
    lastSent: '',
    patchInFlight: false,
    transitions: {},
    deleteSent: false,
    once: {},
  };
}
