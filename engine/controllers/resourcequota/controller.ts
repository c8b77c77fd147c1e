// The resource quota controller, "resourcequota-controller"
// (pkg/controller/resourcequota/resource_quota_controller.go and
// resource_quota_monitor.go, v1.32): status.hard is spec.hard, status.used
// what the namespace's objects use of each hard resource (quota/evaluators.ts,
// the evaluators admission uses too). A quota is recalculated when its spec
// changes, when objects it counts are deleted (or pods end, services change
// type, claims change), and all of them every 5 minutes. Admission charges
// creations in between, so status.used is right before this controller sees
// the object.
//
// The objects come from the manager's informers; resources it does not watch
// (limitranges, roles, ingresses...) are counted by a LIST when a quota needs
// them, which also means their deletions are seen at the next full resync.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { controllerEvaluators, equalLists, mask, podCountsForCompute, resourceListJson, specHard, statusHard, statusUsed, usageStats, type Evaluator } from '../../apiserver/quota/evaluators';
import { parseResourceList, type ResourceList } from '../../apiserver/admission/quantity';
import { resourceFor } from '../../apiserver/registry/resources';
import { registerClass } from '../../sim/serial';
import { PeriodicLoops } from '../framework/loops';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { INFORMER_PATHS } from '../framework/types';
import { keyOfObject, pushRecent, type Loose } from '../endpoint/podutil';

/** --resource-quota-sync-period. */
export const RESOURCE_QUOTA_SYNC_PERIOD_MS = 5 * 60_000;
const RESYNC = '@resync';

/** The informers the manager runs anyway (for the garbage collector and others), with the group each is of. */
const WATCHED: Record<string, string> = {
  pods: '',
  services: '',
  persistentvolumeclaims: '',
  configmaps: '',
  secrets: '',
  serviceaccounts: '',
  endpoints: '',
  replicationcontrollers: '',
  replicasets: 'apps',
  deployments: 'apps',
  statefulsets: 'apps',
  daemonsets: 'apps',
  controllerrevisions: 'apps',
  jobs: 'batch',
  cronjobs: 'batch',
  endpointslices: 'discovery.k8s.io',
  leases: 'coordination.k8s.io',
  poddisruptionbudgets: 'policy',
  horizontalpodautoscalers: 'autoscaling',
};

type Tag = { type: 'list'; key: string; gr: string } | { type: 'status'; key: string };

/** One syncResourceQuota waiting on LISTs of unwatched resources. */
interface Op {
  lists: Map<string, KObject[] | null>;
  pending: number;
  errors: string[];
}

/** The evaluator registry (module state: functions are never part of a snapshot). */
const EVALUATORS: readonly Evaluator[] = controllerEvaluators();

const grOf = (ev: Evaluator) => `${ev.group}/${ev.resource}`;
const informerOf = (ev: Evaluator): string | null => (Object.hasOwn(WATCHED, ev.resource) && WATCHED[ev.resource] === ev.group && INFORMER_PATHS[ev.resource] ? ev.resource : null);

export class ResourceQuotaController implements Controller {
  readonly name = 'resourcequota-controller';
  readonly informers = ['resourcequotas', ...Object.keys(WATCHED)] as const;
  readonly queue = new RateLimitingQueue<string>('resourcequota_primary');
  readonly loops = new PeriodicLoops();
  readonly recent: { t: number; key: string; what: string }[] = [];
  readonly ops = new Map<string, Op>();
  readonly inFlight = new Set<string>();
  readonly dirty = new Set<string>();
  readonly conflicts = new Set<string>();
  resyncScheduled = false;

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (!this.resyncScheduled) {
      this.resyncScheduled = true;
      this.loops.schedule(RESYNC, ctx.now + RESOURCE_QUOTA_SYNC_PERIOD_MS);
    }
    if (resource === 'resourcequotas') return this.onQuota(ev, ctx);
    // The quota monitor: deletions always; updates only where usage can have dropped.
    const o = ev.object as Loose;
    if (ev.type === 'ADDED') return;
    if (ev.type === 'MODIFIED') {
      const old = ev.old as Loose | undefined;
      if (!old) return;
      if (resource === 'pods' && !(podCountsForCompute(old, ctx.now) && !podCountsForCompute(o, ctx.now))) return;
      if (resource === 'services' && quotaServiceType(old) === quotaServiceType(o)) return;
      if (resource !== 'pods' && resource !== 'services' && resource !== 'persistentvolumeclaims') return;
    }
    this.replenish(WATCHED[resource] ?? '', resource, o.metadata?.namespace, ctx);
  }

  /** addQuota and updateQuota: a spec change (or a quota missing usage) is worth a recalculation; status changes are ours or admission's. */
  private onQuota(ev: ReflectorEvent, ctx: ControllerContext): void {
    const q = ev.object;
    if (ev.type === 'MODIFIED' && ev.old && equalLists(specHard(ev.old), specHard(q))) return;
    this.queue.add(keyOfObject(q), ctx.now);
  }

  /** replenishQuota: the namespace's quotas that track something of this resource. */
  private replenish(group: string, resource: string, ns: string | undefined, ctx: ControllerContext): void {
    if (!ns) return;
    const ev = EVALUATORS.find((e) => e.group === group && e.resource === resource);
    if (!ev) return;
    for (const q of ctx.store('resourcequotas').values()) {
      if (q.metadata.namespace !== ns) continue;
      if ([...statusHard(q).keys()].some((k) => ev.matchesResourceName(k))) this.queue.add(keyOfObject(q), ctx.now);
    }
  }

  /** RESYNC: enqueueAll, then again in one period. */
  runPass(_pass: string, ctx: ControllerContext): number {
    for (const q of ctx.store('resourcequotas').values()) this.queue.add(keyOfObject(q), ctx.now);
    return RESOURCE_QUOTA_SYNC_PERIOD_MS;
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (this.inFlight.has(key) || this.ops.has(key)) {
      this.dirty.add(key);
      return { type: 'done' };
    }
    if (this.conflicts.delete(key)) return { type: 'error', message: `Operation cannot be fulfilled on resourcequotas ${JSON.stringify(key.split('/')[1])}: the object has been modified` };
    const quota = ctx.store('resourcequotas').get(key);
    if (!quota) return { type: 'done' };
    // Unwatched resources the quota counts: LIST them first.
    const op: Op = { lists: new Map(), pending: 0, errors: [] };
    const hard = [...specHard(quota).keys()];
    for (const ev of EVALUATORS) {
      if (informerOf(ev) || !hard.some((k) => ev.matchesResourceName(k))) continue;
      const r = resourceFor(ev.group, ev.resource)!;
      const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
      op.lists.set(grOf(ev), null);
      op.pending++;
      ctx.request({ method: 'GET', path: `${base}/namespaces/${quota.metadata.namespace}/${r.resource}` }, { type: 'list', key, gr: grOf(ev) } satisfies Tag);
    }
    if (op.pending === 0) this.calculate(key, quota, op, ctx);
    else this.ops.set(key, op);
    return { type: 'done' };
  }

  /** syncResourceQuota once every evaluator's objects are known. */
  private calculate(key: string, quota: KObject, op: Op, ctx: ControllerContext): void {
    const hardLimits = specHard(quota);
    const hardNames = [...hardLimits.keys()];
    const previous = statusUsed(quota);
    const used: ResourceList = new Map(previous);
    // CalculateUsage: each evaluator over the hard resources it knows; one that failed keeps its old values.
    for (const ev of EVALUATORS) {
      const resources = hardNames.filter((k) => ev.matchesResourceName(k));
      if (resources.length === 0) continue;
      const informer = informerOf(ev);
      const objects = informer ? [...ctx.store(informer).values()].filter((o) => o.metadata.namespace === quota.metadata.namespace) : op.lists.get(grOf(ev));
      if (!objects) continue;
      for (const [k, q] of usageStats(quota, ev, resources, objects, ctx.now)) used.set(k, q);
    }
    const masked = mask(used, hardNames);
    const statusLimitsDirty = !equalLists(hardLimits, statusHard(quota));
    const st = (quota.status ?? {}) as { hard?: unknown; used?: unknown };
    const dirty = statusLimitsDirty || st.hard === undefined || st.used === undefined || !equalLists(masked, parseResourceList(st.used));
    if (!dirty) return;
    this.inFlight.add(key);
    const body = { ...quota, apiVersion: 'v1', kind: 'ResourceQuota', status: { hard: resourceListJson(hardLimits), used: resourceListJson(masked) } };
    pushRecent(this.recent, ctx.now, key, `used ${Object.entries(body.status.used).map(([k, v]) => `${k}=${v}`).join(',')}`);
    ctx.request({ method: 'PUT', path: `/api/v1/namespaces/${quota.metadata.namespace}/resourcequotas/${quota.metadata.name}/status`, body }, { type: 'status', key } satisfies Tag);
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    if (t.type === 'list') {
      const op = this.ops.get(t.key);
      if (!op) return;
      if (status === 200) op.lists.set(t.gr, ((JSON.parse(body) as { items?: KObject[] }).items ?? []) as KObject[]);
      else op.errors.push(t.gr);
      if (--op.pending > 0) return;
      this.ops.delete(t.key);
      const quota = ctx.store('resourcequotas').get(t.key);
      if (quota) this.calculate(t.key, quota, op, ctx);
      if (op.errors.length > 0 || this.dirty.delete(t.key)) this.queue.addRateLimited(t.key, ctx.now);
      return;
    }
    this.inFlight.delete(t.key);
    if (status === 409) this.conflicts.add(t.key);
    if (status === 409 || this.dirty.delete(t.key)) this.queue.add(t.key, ctx.now);
  }
}

/** GetQuotaServiceType: what a service is for quota (NodePort and LoadBalancer use node ports). */
function quotaServiceType(svc: Loose): string {
  const t = svc?.spec?.type ?? 'ClusterIP';
  return t === 'NodePort' || t === 'LoadBalancer' ? t : '';
}

registerClass('ResourceQuotaController', ResourceQuotaController);
