// The StatefulSet controller (statefulset-controller), as upstream v1.32's
// pkg/controller/statefulset/stateful_set.go: informer handlers that enqueue
// the owning set, a sync that adopts orphan revisions, claims its pods
// (adopting orphans whose names are its ordinals, releasing pods its selector
// no longer matches), then runs the control loop (control.ts) and requeues
// after minReadySeconds while replicas are ready but not yet available.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { isEmpty, labelSelectorAsSelector, matches } from '../../apimachinery/selectors/labels';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { WriteChains, type PlannedStep, type PlannedWrite, type WriteTag } from '../framework/writes';
import { controllerOf, errorMessage, inNamespace, isPodReady, newControllerRef, KIND } from '../replicaset/podUtil';
import { keyOfObject, pushRecent } from '../endpoint/podutil';
import { listControllerRevisions } from '../history/history';
import { adoptOrphanRevisions, planStatefulSet, type ClaimFailureMeta } from './control';
import { isMemberOf, setReplicas, setSpec } from './utils';

export class StatefulSetController implements Controller {
  readonly name = 'statefulset-controller';
  readonly informers = ['statefulsets', 'pods', 'controllerrevisions', 'persistentvolumeclaims'] as const;
  readonly queue = new RateLimitingQueue<string>('statefulset');
  readonly writes = new WriteChains();
  readonly recent: { t: number; key: string; what: string }[] = [];

  // ---- informer handlers (addPod/updatePod/deletePod, enqueueStatefulSet)

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource === 'statefulsets') return this.queue.add(keyOfObject(ev.object), ctx.now);
    if (resource === 'pods') return this.onPod(ev, ctx);
  }

  private onPod(ev: ReflectorEvent, ctx: ControllerContext): void {
    const pod = ev.object;
    const ns = pod.metadata.namespace ?? '';
    if (ev.type === 'MODIFIED' && ev.old) {
      const old = ev.old;
      if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
      const labelChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
      const curRef = controllerOf(pod);
      const oldRef = controllerOf(old);
      const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
      if (refChanged && oldRef) this.enqueueRef(ns, oldRef, ctx);
      if (curRef) {
        const set = this.resolve(ns, curRef, ctx);
        if (!set) return;
        this.queue.add(keyOfObject(set), ctx.now);
        // A pod turned ready: its availability changes minReadySeconds later.
        const minReady = setSpec(set).minReadySeconds ?? 0;
        if (!isPodReady(old) && isPodReady(pod) && minReady > 0) this.queue.addAfter(keyOfObject(set), minReady * 1000 + 1000, ctx.now);
        return;
      }
      if (labelChanged || refChanged) for (const s of this.setsForPod(pod, ctx)) this.queue.add(keyOfObject(s), ctx.now);
      return;
    }
    const ref = controllerOf(pod);
    if (ref) return this.enqueueRef(ns, ref, ctx);
    // An orphan: the sets that could adopt it.
    if (ev.type === 'ADDED') for (const s of this.setsForPod(pod, ctx)) this.queue.add(keyOfObject(s), ctx.now);
  }

  private resolve(ns: string, ref: { kind: string; name: string; uid: string }, ctx: ControllerContext): KObject | null {
    if (ref.kind !== 'StatefulSet') return null;
    const set = ctx.store('statefulsets').get(`${ns}/${ref.name}`);
    return set && set.metadata.uid === ref.uid ? set : null;
  }

  private enqueueRef(ns: string, ref: { kind: string; name: string; uid: string }, ctx: ControllerContext): void {
    const set = this.resolve(ns, ref, ctx);
    if (set) this.queue.add(keyOfObject(set), ctx.now);
  }

  /** getPodStatefulSets: sets whose selector matches the pod's labels. */
  private setsForPod(pod: KObject, ctx: ControllerContext): KObject[] {
    return inNamespace(ctx.store('statefulsets'), pod.metadata.namespace ?? '').filter((s) => {
      const sel = labelSelectorAsSelector(setSpec(s).selector);
      return sel.ok && !isEmpty(sel.selector) && matches(sel.selector, pod.metadata.labels ?? {});
    });
  }

  // ---- sync

  sync(key: string, ctx: ControllerContext): SyncResult {
    const wait = this.writes.wait(key, ctx);
    if (wait.busy) return wait.delayMs === null ? { type: 'done' } : { type: 'after', delayMs: wait.delayMs };
    const set = ctx.store('statefulsets').get(key);
    if (!set) {
      this.writes.forget(key);
      return { type: 'done' };
    }
    const sel = labelSelectorAsSelector(setSpec(set).selector);
    if (!sel.ok) return { type: 'done' };
    const revisions = listControllerRevisions(ctx.store('controllerrevisions'), set, setSpec(set).selector);
    const steps: PlannedStep[] = [];
    const adopt = adoptOrphanRevisions(set, revisions);
    if (adopt.length) steps.push({ writes: adopt });
    const { pods, writes } = this.claimPods(set, ctx);
    if (writes.length) steps.push({ writes });
    const plan = planStatefulSet({ set, pods, revisions, claims: ctx.store('persistentvolumeclaims'), allRevisions: ctx.store('controllerrevisions'), now: ctx.now });
    steps.push(...plan.steps);
    for (const n of plan.notes) pushRecent(this.recent, ctx.now, key, n);
    for (const e of plan.events) ctx.event(e);
    this.writes.start(key, steps, ctx);
    // An error found while planning: upstream's sync returns it and the key is requeued rate-limited.
    if (plan.failed) this.queue.addRateLimited(key, ctx.now);
    // Ready replicas become available minReadySeconds later: look again then.
    const minReady = setSpec(set).minReadySeconds ?? 0;
    if (minReady > 0 && plan.status.availableReplicas !== setReplicas(set)) this.queue.addAfter(key, minReady * 1000, ctx.now);
    return { type: 'done' };
  }

  /**
   * getPodsForStatefulSet (ClaimPods): owned pods that still match stay;
   * owned pods that no longer match (or are not its ordinals) are released;
   * matching orphans named as its ordinals are adopted.
   */
  private claimPods(set: KObject, ctx: ControllerContext): { pods: KObject[]; writes: PlannedWrite[] } {
    const sel = labelSelectorAsSelector(setSpec(set).selector);
    const pods: KObject[] = [];
    const writes: PlannedWrite[] = [];
    if (!sel.ok) return { pods, writes };
    for (const pod of inNamespace(ctx.store('pods'), set.metadata.namespace ?? '')) {
      const ref = controllerOf(pod);
      const match = matches(sel.selector, pod.metadata.labels ?? {}) && isMemberOf(set, pod);
      const path = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;
      if (ref) {
        if (ref.uid !== set.metadata.uid) continue;
        if (match) pods.push(pod);
        else if (!set.metadata.deletionTimestamp) writes.push({ call: { method: 'PATCH', path, contentType: 'application/strategic-merge-patch+json', body: { metadata: { ownerReferences: [{ $patch: 'delete', uid: set.metadata.uid }], uid: pod.metadata.uid } } }, observe: 'pods', tolerate: [404] });
        continue;
      }
      if (!match || set.metadata.deletionTimestamp || pod.metadata.deletionTimestamp) continue;
      writes.push({ call: { method: 'PATCH', path, contentType: 'application/strategic-merge-patch+json', body: { metadata: { ownerReferences: [newControllerRef(set, KIND.StatefulSet)], uid: pod.metadata.uid } } }, observe: 'pods' });
      pods.push(pod);
    }
    return { pods, writes };
  }

  /** Per set key, per pod, the claim creation errors of CreateStatefulPod's step in flight. */
  readonly claimErrors = new Map<string, Map<string, { regarding: KObject; set: string; errors: string[] }>>();

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as WriteTag;
    const meta = this.writes.chains.get(t.owner)?.steps[t.step]?.writes[t.index]?.meta as ClaimFailureMeta | undefined;
    if (meta?.podCreate && !(status >= 200 && status < 300)) {
      const m = meta.podCreate;
      const byPod = this.claimErrors.get(t.owner) ?? new Map<string, { regarding: KObject; set: string; errors: string[] }>();
      const e = byPod.get(m.pod) ?? { regarding: m.regarding, set: m.set, errors: [] };
      e.errors.push(`failed to create PVC ${m.claim}: ${errorMessage(status, body)}`);
      byPod.set(m.pod, e);
      this.claimErrors.set(t.owner, byPod);
    }
    const r = this.writes.onResponse(t, status, body, ctx);
    // The step is over: CreateStatefulPod records the pod's FailedCreate with the aggregated claim errors.
    const byPod = this.claimErrors.get(t.owner);
    if (byPod && this.writes.chains.get(t.owner)?.step !== t.step) {
      this.claimErrors.delete(t.owner);
      for (const [pod, e] of byPod) {
        const unique = [...new Set(e.errors)];
        const err = unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
        ctx.event({ regarding: e.regarding, type: 'Warning', reason: 'FailedCreate', message: `create Pod ${pod} in StatefulSet ${e.set} failed error: ${err}` });
      }
    }
    if (!r) return;
    if (r.ok) this.queue.add(r.owner, ctx.now);
    else this.queue.addRateLimited(r.owner, ctx.now);
  }
}

registerClass('StatefulSetController', StatefulSetController);
