// The PV protection controller (pkg/controller/volume/pvprotection/pv_protection_controller.go,
// v1.32): a PersistentVolume being deleted keeps its kubernetes.io/pv-protection
// finalizer while it is Bound to a claim and loses it once it is not; a live
// PV without the finalizer (created before the admission plugin) gets it.
import type { KObject } from '../../../apimachinery/types';
import type { ReflectorEvent } from '../../../client/reflector';
import { RateLimitingQueue } from '../../../client/workqueue';
import { PV_PROTECTION_FINALIZER } from '../../../apiserver/admission/storageObjectInUseProtection';
import { registerClass } from '../../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../../framework/types';
import { pushRecent } from '../../endpoint/podutil';
import { isDeletionCandidate, needToAddFinalizer, withFinalizer } from '../protection';

type Tag = { pv: string; what: string };

export class PVProtectionController implements Controller {
  readonly name = 'pv-protection-controller';
  readonly informers = ['persistentvolumes'] as const;
  readonly queue = new RateLimitingQueue<string>('pvprotection');
  readonly recent: { t: number; key: string; what: string }[] = [];
  readonly inFlight = new Set<string>();
  readonly writeErrors = new Set<string>();

  onEvent(_resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (ev.type === 'DELETED') return;
    const pv = ev.object;
    if (needToAddFinalizer(pv, PV_PROTECTION_FINALIZER) || isDeletionCandidate(pv, PV_PROTECTION_FINALIZER)) this.queue.add(pv.metadata.name!, ctx.now);
  }

  sync(name: string, ctx: ControllerContext): SyncResult {
    if (this.inFlight.has(name)) return { type: 'done' };
    if (this.writeErrors.delete(name)) return { type: 'error', message: `failed to update PV ${name}` };
    const pv = ctx.store('persistentvolumes').get(name);
    if (!pv) return { type: 'done' };
    if (isDeletionCandidate(pv, PV_PROTECTION_FINALIZER)) {
      // isBeingUsed: the PV controller's phase says whether a claim holds it.
      if ((pv.status as { phase?: string } | undefined)?.phase !== 'Bound') this.put(pv, false, 'removed protection finalizer', ctx);
      return { type: 'done' };
    }
    if (needToAddFinalizer(pv, PV_PROTECTION_FINALIZER)) this.put(pv, true, 'added protection finalizer', ctx);
    return { type: 'done' };
  }

  private put(pv: KObject, add: boolean, what: string, ctx: ControllerContext): void {
    const name = pv.metadata.name!;
    this.inFlight.add(name);
    ctx.request({ method: 'PUT', path: `/api/v1/persistentvolumes/${name}`, body: withFinalizer(pv, PV_PROTECTION_FINALIZER, add, 'PersistentVolume') }, { pv: name, what } satisfies Tag);
  }

  onResponse(tag: unknown, status: number, _body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    this.inFlight.delete(t.pv);
    if (status === 200) pushRecent(this.recent, ctx.now, t.pv, t.what);
    else if (status !== 404) {
      this.writeErrors.add(t.pv);
      this.queue.add(t.pv, ctx.now);
    }
  }
}

registerClass('PVProtectionController', PVProtectionController);
