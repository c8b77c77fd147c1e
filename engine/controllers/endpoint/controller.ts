// The Endpoints controller (pkg/controller/endpoint/endpoints_controller.go,
// v1.32): for each Service with a selector, the v1 Endpoints object of the
// same name listing its pods' addresses (ready and not ready) and ports.
// Writes are asynchronous here: a service is not synced while its write is in
// flight, and upstream's staleEndpointsTracker keeps it from acting on an
// informer that has not yet shown its last write.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { hasNamespaceTerminatingCause } from '../framework/apiErrors';
import { keyOfObject, podsForService, pushRecent, serviceSelector, servicesForPod, type Loose } from './podutil';
import { canonicalSubsets, computeSubsets, LABEL_HEADLESS, MAX_CAPACITY, OVER_CAPACITY_ANNOTATION, truncateSubsets } from './subsets';

type Tag = { svc: string; op: 'create' | 'update' | 'delete'; staleRV: string };

export class EndpointController implements Controller {
  readonly name = 'endpoint-controller';
  readonly informers = ['services', 'pods', 'endpoints'] as const;
  readonly queue = new RateLimitingQueue<string>('endpoint');
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** Service keys with a write in flight. */
  readonly inFlight = new Set<string>();
  /** staleEndpointsTracker: the resourceVersion already processed ("" = the object did not exist yet). */
  readonly stale = new Map<string, string>();
  /** Errors of answered writes, returned by the next sync (so they back off, as upstream). */
  readonly writeErrors = new Map<string, string>();

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    const o = ev.object as KObject;
    switch (resource) {
      case 'services':
        this.queue.add(keyOfObject(o), ctx.now);
        return;
      case 'pods': {
        const keys = new Set(servicesForPod(ctx.store('services'), o));
        if (ev.type === 'MODIFIED' && ev.old) for (const k of servicesForPod(ctx.store('services'), ev.old as KObject)) keys.add(k);
        for (const k of keys) this.queue.add(k, ctx.now);
        return;
      }
      case 'endpoints':
        // onEndpointsDelete: a deleted Endpoints object is rebuilt; updates bring the cache up to date.
        if (ev.type === 'DELETED' || this.stale.has(keyOfObject(o))) this.queue.add(keyOfObject(o), ctx.now);
        return;
      default:
        return;
    }
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (this.inFlight.has(key)) return { type: 'done' }; // the answer requeues
    const failed = this.writeErrors.get(key);
    if (failed !== undefined) {
      this.writeErrors.delete(key);
      return { type: 'error', message: failed };
    }
    for (const r of this.informers) if (!ctx.synced(r)) return { type: 'after', delayMs: 100 };
    const [ns, name] = key.split('/') as [string, string];
    const path = `/api/v1/namespaces/${ns}/endpoints`;
    const svc = ctx.store('services').get(key) as Loose;
    if (!svc) {
      // The service is gone: so are its Endpoints.
      this.stale.delete(key);
      this.inFlight.add(key);
      ctx.request({ method: 'DELETE', path: `${path}/${name}` }, { svc: key, op: 'delete', staleRV: '' } satisfies Tag);
      return { type: 'done' };
    }
    const sel = serviceSelector(svc);
    if (!sel || svc.spec?.type === 'ExternalName') return { type: 'done' };

    const current = ctx.store('endpoints').get(key) as Loose | undefined;
    const staleRV = this.stale.get(key);
    if (staleRV !== undefined) {
      const rv = current?.metadata?.resourceVersion ?? '';
      if (rv === staleRV) return { type: 'error', message: `endpoints informer cache is out of date, resource version ${rv} already processed for endpoints ${key}` };
      this.stale.delete(key);
    }

    const subsets = computeSubsets(svc, podsForService(ctx.store('pods'), svc, sel));
    const labels: Record<string, string> = { ...((svc.metadata.labels ?? {}) as Record<string, string>) };
    if (svc.spec?.clusterIP === 'None') labels[LABEL_HEADLESS] = '';
    else delete labels[LABEL_HEADLESS];
    const total = subsets.reduce((n, s) => n + (s.addresses ?? []).length + (s.notReadyAddresses ?? []).length, 0);

    if (current) {
      const curLabels: Record<string, string> = { ...(current.metadata.labels ?? {}) };
      delete curLabels[LABEL_HEADLESS];
      const svcLabels: Record<string, string> = { ...((svc.metadata.labels ?? {}) as Record<string, string>) };
      const labelsEqual = Object.keys(curLabels).length === Object.keys(svcLabels).length && Object.keys(svcLabels).every((k) => curLabels[k] === svcLabels[k]);
      const ann = current.metadata.annotations?.[OVER_CAPACITY_ANNOTATION];
      const capacityOk = total > MAX_CAPACITY ? ann === 'truncated' : ann === undefined;
      if (labelsEqual && capacityOk && canonicalSubsets(current.subsets) === canonicalSubsets(subsets)) return { type: 'done' };
    }

    const annotations: Record<string, string> = { ...(current?.metadata?.annotations ?? {}) };
    delete annotations[OVER_CAPACITY_ANNOTATION];
    if (truncateSubsets(subsets)) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
    const metadata = current ? { ...current.metadata, labels, annotations } : { name, namespace: ns, labels, ...(Object.keys(annotations).length ? { annotations } : {}) };
    if (current && Object.keys(annotations).length === 0) delete metadata.annotations;
    const body = { apiVersion: 'v1', kind: 'Endpoints', metadata, subsets };
    this.inFlight.add(key);
    if (current) ctx.request({ method: 'PUT', path: `${path}/${name}`, body }, { svc: key, op: 'update', staleRV: current.metadata.resourceVersion ?? '' } satisfies Tag);
    else ctx.request({ method: 'POST', path, body }, { svc: key, op: 'create', staleRV: '' } satisfies Tag);
    pushRecent(this.recent, ctx.now, key, `${current ? 'updated' : 'created'} Endpoints (${total} addresses)`);
    return { type: 'done' };
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    this.inFlight.delete(t.svc);
    const ok = status >= 200 && status < 300;
    if (t.op === 'delete') {
      if (!ok && status !== 404) this.writeErrors.set(t.svc, `deleting Endpoints ${t.svc}: status ${status}`);
    } else if (ok) {
      this.stale.set(t.svc, t.staleRV);
    } else if (t.op === 'create' && status === 403 && hasNamespaceTerminatingCause(body)) {
      // syncService: creating in a terminating namespace is expected to fail; no error, no retry.
      return;
    } else {
      this.writeErrors.set(t.svc, `${t.op === 'create' ? 'creating' : 'updating'} Endpoints ${t.svc}: status ${status}`);
    }
    if (!ok || t.op !== 'delete') this.queue.add(t.svc, ctx.now);
  }
}


registerClass('EndpointController', EndpointController);
