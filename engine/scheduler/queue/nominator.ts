// The PodNominator (pkg/scheduler/backend/queue/nominator.go): pods that
// preemption nominated to a node, so that the next scheduling cycles account
// for them (filters with nominated pods) before they are bound.
//
// It stores references (name, namespace, uid); the PriorityQueue resolves
// them to the current PodInfo in its sub-queues.
import { registerClass } from '../../sim/serial';
import type { Pod } from '../framework/api';
import type { PodInfo } from '../framework/podInfo';

/** framework.NominatingMode: Noop keeps the pod's status.nominatedNodeName, Override sets it. */
export type NominatingMode = 'Noop' | 'Override';

/** framework.NominatingInfo (absent reads as Noop, like a nil pointer). */
export interface NominatingInfo {
  nominatingMode: NominatingMode;
  nominatedNodeName: string;
}

export interface PodRef {
  name: string;
  namespace: string;
  uid: string;
}

function uidOf(pod: Pod): string {
  return pod.metadata.uid ?? '';
}

function nominatedNodeName(pod: Pod): string {
  return pod.status?.nominatedNodeName ?? '';
}

export class Nominator {
  /** Node name → pods nominated to it, in nomination order. */
  readonly nominatedPods = new Map<string, PodRef[]>();
  /** Pod UID → the node it is nominated to. */
  readonly nominatedPodToNode = new Map<string, string>();
  /** The PodInfo last nominated per UID: the answer when the pod is in none of the sub-queues. */
  private readonly lastPodInfo = new Map<string, PodInfo>();

  /**
   * AddNominatedPod. `livePod` is the informer's current copy when the caller
   * has it (upstream's podLister check): a deleted (null) or already bound pod
   * is not nominated.
   */
  add(pi: PodInfo, nominatingInfo?: NominatingInfo, livePod?: Pod | null): void {
    // Never store more than one entry per pod.
    this.delete(pi.pod);
    let nodeName: string;
    if ((nominatingInfo?.nominatingMode ?? 'Noop') === 'Override') {
      nodeName = nominatingInfo!.nominatedNodeName;
    } else {
      nodeName = nominatedNodeName(pi.pod);
      if (nodeName === '') return;
    }
    if (livePod === null) return;
    if (livePod !== undefined && livePod.spec.nodeName) return;
    const uid = uidOf(pi.pod);
    this.nominatedPodToNode.set(uid, nodeName);
    this.lastPodInfo.set(uid, pi);
    let list = this.nominatedPods.get(nodeName);
    if (!list) {
      list = [];
      this.nominatedPods.set(nodeName, list);
    }
    if (list.some((r) => r.uid === uid)) return;
    list.push({ name: pi.pod.metadata.name ?? '', namespace: pi.pod.metadata.namespace ?? '', uid });
  }

  /**
   * UpdateNominatedPod: re-points the entry at the new pod. An update that
   * neither sets nor clears status.nominatedNodeName keeps the in-memory
   * nomination (the API may not have caught up with preemption yet).
   */
  update(oldPod: Pod, newPodInfo: PodInfo): void {
    let info: NominatingInfo | undefined;
    if (nominatedNodeName(oldPod) === '' && nominatedNodeName(newPodInfo.pod) === '') {
      const nnn = this.nominatedPodToNode.get(uidOf(oldPod));
      if (nnn !== undefined) info = { nominatingMode: 'Override', nominatedNodeName: nnn };
    }
    this.delete(oldPod);
    this.add(newPodInfo, info);
  }

  /** DeleteNominatedPodIfExists */
  delete(pod: Pod): void {
    const uid = uidOf(pod);
    const nnn = this.nominatedPodToNode.get(uid);
    if (nnn === undefined) return;
    const list = this.nominatedPods.get(nnn);
    if (list) {
      const i = list.findIndex((r) => r.uid === uid);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.nominatedPods.delete(nnn);
    }
    this.nominatedPodToNode.delete(uid);
    this.lastPodInfo.delete(uid);
  }

  forNode(nodeName: string): PodRef[] {
    return [...(this.nominatedPods.get(nodeName) ?? [])];
  }

  lastKnown(uid: string): PodInfo | undefined {
    return this.lastPodInfo.get(uid);
  }
}

registerClass('SchedulerQueueNominator', Nominator);
