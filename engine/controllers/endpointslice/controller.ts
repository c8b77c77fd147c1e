// The EndpointSlice controller (pkg/controller/endpointslice/endpointslice_controller.go,
// v1.32): for each Service with a selector, slices of up to 100 endpoints for
// the pods it selects. Writes are asynchronous here, so the controller keeps
// upstream's EndpointSliceTracker (the generation it expects each slice to
// reach) and does not sync a service while its own writes are in flight.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { ItemExponentialFailureRateLimiter, BucketRateLimiter, MaxOfRateLimiter, RateLimitingQueue } from '../../client/workqueue';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { keyOfObject, podsForService, pushRecent, serviceSelector, servicesForPod, type Loose } from '../endpoint/podutil';
import { CONTROLLER_MANAGED_BY, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, MAX_ENDPOINTS_PER_SLICE, reconcile } from './reconciler';

/** The generation the tracker expects after a delete. */
const DELETION_EXPECTED = -1;

type Tag = { svc: string; op: 'create' | 'update' | 'delete'; uid: string };

export class EndpointSliceController implements Controller {
  readonly name = 'endpointslice-controller';
  readonly informers = ['services', 'pods', 'endpointslices', 'nodes'] as const;
  // defaultSyncBackOff 1 s to maxSyncBackOff 1000 s, and 10 qps (burst 100).
  readonly queue = new RateLimitingQueue<string>('endpoint_slice', new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(1000, 1_000_000), new BucketRateLimiter<string>(10, 100)));
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** EndpointSliceTracker: service key → slice uid → generation expected (DELETION_EXPECTED once deleted). */
  readonly tracker = new Map<string, Map<string, number>>();
  /** Writes sent and not answered, per service key. */
  readonly inFlight = new Map<string, number>();
  /** Errors of the last answered writes, per service key (the sync returns them, as upstream). */
  readonly writeErrors = new Map<string, string>();

  constructor(readonly maxEndpointsPerSlice = MAX_ENDPOINTS_PER_SLICE) {}

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    const o = ev.object as KObject;
    switch (resource) {
      case 'services':
        this.queue.add(keyOfObject(o), ctx.now);
        if (ev.type === 'DELETED') this.tracker.delete(keyOfObject(o));
        return;
      case 'pods': {
        const keys = new Set(servicesForPod(ctx.store('services'), o));
        if (ev.type === 'MODIFIED' && ev.old) for (const k of servicesForPod(ctx.store('services'), ev.old as KObject)) keys.add(k);
        for (const k of keys) this.queue.add(k, ctx.now);
        return;
      }
      case 'endpointslices': {
        const labels = o.metadata.labels ?? {};
        if (labels[LABEL_MANAGED_BY] !== CONTROLLER_MANAGED_BY || !labels[LABEL_SERVICE_NAME]) return;
        const svcKey = `${o.metadata.namespace}/${labels[LABEL_SERVICE_NAME]}`;
        if (ev.type === 'DELETED') {
          // HandleDeletion: an expected deletion is forgotten; an unexpected one resyncs.
          const t = this.tracker.get(svcKey);
          if (t?.get(o.metadata.uid!) === DELETION_EXPECTED) {
            t.delete(o.metadata.uid!);
            return;
          }
          t?.delete(o.metadata.uid!);
        }
        this.queue.add(svcKey, ctx.now);
        return;
      }
      default:
        // Nodes are read for zones; upstream only watches them for topology hints.
        return;
    }
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if ((this.inFlight.get(key) ?? 0) > 0) return { type: 'done' }; // the last answer requeues
    const failed = this.writeErrors.get(key);
    if (failed !== undefined) {
      this.writeErrors.delete(key);
      return { type: 'error', message: failed };
    }
    for (const r of this.informers) if (!ctx.synced(r)) return { type: 'after', delayMs: 100 };
    const svc = ctx.store('services').get(key) as Loose;
    if (!svc) {
      // The garbage collector removes the slices through their owner references.
      this.tracker.delete(key);
      return { type: 'done' };
    }
    const sel = serviceSelector(svc);
    if (!sel || svc.spec?.type === 'ExternalName') return { type: 'done' };

    const [ns, name] = key.split('/') as [string, string];
    const slices: KObject[] = [];
    for (const s of ctx.store('endpointslices').values()) {
      const l = s.metadata.labels ?? {};
      if (s.metadata.namespace === ns && l[LABEL_SERVICE_NAME] === name && l[LABEL_MANAGED_BY] === CONTROLLER_MANAGED_BY && !s.metadata.deletionTimestamp) slices.push(s);
    }
    if (this.staleSlices(key, slices)) return { type: 'error', message: 'EndpointSlice informer cache is out of date' };

    const pods = podsForService(ctx.store('pods'), svc, sel);
    const plan = reconcile(svc, pods, ctx.store('nodes') as ReadonlyMap<string, KObject>, slices, this.maxEndpointsPerSlice);
    const base = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
    const writes = plan.create.length + plan.update.length + plan.delete.length;
    if (writes > 0) this.inFlight.set(key, writes);
    for (const s of plan.create) ctx.request({ method: 'POST', path: base, body: s }, { svc: key, op: 'create', uid: '' } satisfies Tag);
    for (const s of plan.update) ctx.request({ method: 'PUT', path: `${base}/${s.metadata.name}`, body: s }, { svc: key, op: 'update', uid: s.metadata.uid ?? '' } satisfies Tag);
    for (const s of plan.delete) {
      this.trackerFor(key).set(s.metadata.uid!, DELETION_EXPECTED);
      ctx.request({ method: 'DELETE', path: `${base}/${s.metadata.name}` }, { svc: key, op: 'delete', uid: s.metadata.uid ?? '' } satisfies Tag);
    }
    if (writes > 0) pushRecent(this.recent, ctx.now, key, `created ${plan.create.length}, updated ${plan.update.length}, deleted ${plan.delete.length} slices`);
    if (plan.errors.length) return { type: 'error', message: plan.errors.join('; ') };
    return { type: 'done' };
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    const left = (this.inFlight.get(t.svc) ?? 1) - 1;
    if (left > 0) this.inFlight.set(t.svc, left);
    else this.inFlight.delete(t.svc);
    const ok = status >= 200 && status < 300;
    if (ok && t.op !== 'delete') {
      const o = JSON.parse(body) as KObject;
      if (o.metadata?.uid) this.trackerFor(t.svc).set(o.metadata.uid, o.metadata.generation ?? 1);
    } else if (!ok && !(t.op === 'delete' && status === 404)) {
      if (t.op === 'delete') this.tracker.get(t.svc)?.delete(t.uid);
      this.writeErrors.set(t.svc, `${t.op} EndpointSlice for ${t.svc}: status ${status}`);
    } else if (t.op === 'delete') this.tracker.get(t.svc)?.delete(t.uid);
    if (left <= 0) this.queue.add(t.svc, ctx.now);
  }

  private trackerFor(svc: string): Map<string, number> {
    let t = this.tracker.get(svc);
    if (!t) this.tracker.set(svc, (t = new Map()));
    return t;
  }

  /** StaleSlices: the informer has not yet shown a write of ours. */
  private staleSlices(svc: string, slices: KObject[]): boolean {
    const t = this.tracker.get(svc);
    if (!t) return false;
    const seen = new Set<string>();
    for (const s of slices) {
      seen.add(s.metadata.uid!);
      const g = t.get(s.metadata.uid!);
      if (g === undefined) continue;
      if (g === DELETION_EXPECTED || g > (s.metadata.generation ?? 0)) return true;
    }
    for (const [uid, g] of t) if (g !== DELETION_EXPECTED && !seen.has(uid)) return true;
    return false;
  }
}

registerClass('EndpointSliceController', EndpointSliceController);
