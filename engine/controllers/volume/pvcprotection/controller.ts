// The PVC protection controller (pkg/controller/volume/pvcprotection/pvc_protection_controller.go,
// v1.32): a claim being deleted keeps its kubernetes.io/pvc-protection
// finalizer while a scheduled pod uses it — in the informer's cache or, to be
// sure, in a live list of the namespace's pods — and loses it once none does.
// A pod that is done (or a deleted pod) brings its claims back for a look.
import type { KObject } from '../../../apimachinery/types';
import type { ReflectorEvent } from '../../../client/reflector';
import { RateLimitingQueue } from '../../../client/workqueue';
import { PVC_PROTECTION_FINALIZER } from '../../../apiserver/admission/storageObjectInUseProtection';
import { ephemeralClaimName, volumeIsForPod } from '../../../scheduler/plugins/volumeBinding/helpers';
import { registerClass } from '../../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../../framework/types';
import { keyOfObject, pushRecent, type Loose } from '../../endpoint/podutil';
import { isDeletionCandidate, needToAddFinalizer, withFinalizer } from '../protection';
import { isPodTerminated, podClaimKeys } from '../util';

type Tag = { type: 'liveList'; pvc: string } | { type: 'put'; pvc: string; what: string };

/** podIsShutDown: the kubelet is done with it (deleted with grace 0) or it was force-deleted. */
const podIsShutDown = (pod: Loose): boolean => !!pod.metadata.deletionTimestamp && pod.metadata.deletionGracePeriodSeconds === 0;

/** podUsesPVC: only scheduled pods count (the kubelet never starts one on a claim being deleted). */
export function podUsesPVC(pod: Loose, pvc: KObject): boolean {
  if (!pod.spec?.nodeName || pod.metadata.namespace !== pvc.metadata.namespace) return false;
  for (const v of pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName === pvc.metadata.name) return true;
    if (!podIsShutDown(pod) && v.ephemeral && ephemeralClaimName(pod, v) === pvc.metadata.name && volumeIsForPod(pod, pvc) === null) return true;
  }
  return false;
}

export class PVCProtectionController implements Controller {
  readonly name = 'pvc-protection-controller';
  readonly informers = ['persistentvolumeclaims', 'pods'] as const;
  readonly queue = new RateLimitingQueue<string>('pvcprotection');
  readonly recent: { t: number; key: string; what: string }[] = [];
  readonly inFlight = new Set<string>();
  /** A live list said the claim is unused (consumed by the next sync). */
  readonly confirmedUnused = new Set<string>();
  readonly writeErrors = new Set<string>();

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    const o = ev.object as Loose;
    if (resource === 'persistentvolumeclaims') {
      if (ev.type !== 'DELETED' && (needToAddFinalizer(o, PVC_PROTECTION_FINALIZER) || isDeletionCandidate(o, PVC_PROTECTION_FINALIZER))) this.queue.add(keyOfObject(o), ctx.now);
      return;
    }
    this.enqueuePVCs(o, ev.type === 'DELETED', ctx);
    // An update may hide the deletion of one pod and the creation of another with the same name.
    const old = ev.old as Loose | undefined;
    if (old && old.metadata.uid !== o.metadata.uid) this.enqueuePVCs(old, true, ctx);
  }

  /** Only pods that may let a claim go: deleted, finished, or not scheduled. */
  private enqueuePVCs(pod: Loose, deleted: boolean, ctx: ControllerContext): void {
    if (!deleted && !isPodTerminated(pod) && pod.spec?.nodeName) return;
    for (const k of podClaimKeys(pod)) this.queue.add(k, ctx.now);
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (this.inFlight.has(key)) return { type: 'done' };
    if (this.writeErrors.delete(key)) return { type: 'error', message: `failed to update PVC ${key}` };
    const pvc = ctx.store('persistentvolumeclaims').get(key);
    if (!pvc) return { type: 'done' };
    if (isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)) {
      const inCache = [...ctx.store('pods').values()].some((p) => podUsesPVC(p, pvc));
      if (!inCache) {
        if (!this.confirmedUnused.delete(key)) {
          // askAPIServer: a pod may be missing from the cache.
          this.inFlight.add(key);
          ctx.request({ method: 'GET', path: `/api/v1/namespaces/${pvc.metadata.namespace}/pods` }, { type: 'liveList', pvc: key } satisfies Tag);
          return { type: 'done' };
        }
        this.put(pvc, false, 'removed protection finalizer', ctx);
        return { type: 'done' };
      }
      this.confirmedUnused.delete(key);
    }
    if (needToAddFinalizer(pvc, PVC_PROTECTION_FINALIZER)) this.put(pvc, true, 'added protection finalizer', ctx);
    return { type: 'done' };
  }

  private put(pvc: KObject, add: boolean, what: string, ctx: ControllerContext): void {
    const key = keyOfObject(pvc);
    this.inFlight.add(key);
    ctx.request(
      { method: 'PUT', path: `/api/v1/namespaces/${pvc.metadata.namespace}/persistentvolumeclaims/${pvc.metadata.name}`, body: withFinalizer(pvc, PVC_PROTECTION_FINALIZER, add, 'PersistentVolumeClaim') },
      { type: 'put', pvc: key, what } satisfies Tag,
    );
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    this.inFlight.delete(t.pvc);
    if (t.type === 'liveList') {
      if (status !== 200) {
        this.writeErrors.add(t.pvc);
        this.queue.add(t.pvc, ctx.now);
        return;
      }
      const pvc = ctx.store('persistentvolumeclaims').get(t.pvc);
      const items = (JSON.parse(body) as { items?: Loose[] }).items ?? [];
      if (pvc && !items.some((p) => podUsesPVC(p, pvc))) this.confirmedUnused.add(t.pvc);
      this.queue.add(t.pvc, ctx.now);
      return;
    }
    if (status === 200) pushRecent(this.recent, ctx.now, t.pvc, t.what);
    else if (status !== 404) {
      this.writeErrors.add(t.pvc);
      this.queue.add(t.pvc, ctx.now);
    }
  }
}

registerClass('PVCProtectionController', PVCProtectionController);
