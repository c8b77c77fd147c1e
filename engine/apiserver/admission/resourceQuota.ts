// ResourceQuota (admission/plugin/resourcequota/controller.go CheckRequest,
// with the evaluators of quota/evaluators.ts). For a create (or an update that
// changes usage) in a namespace with quotas: each quota the object matches
// (by the resources of its status.hard and its scopes) must have usage for
// them in status.used — the resourcequota controller computes it — and hold
// the object's usage on top, or the request is refused with upstream's
// `exceeded quota: NAME, requested: ..., used: ..., limited: ...`. An admitted
// request charges status.used; the API server writes those quotas in the same
// transaction as the object, so two requests cannot both take the last unit.
import type { KObject } from '../../apimachinery/types';
import type { AdmissionPlugin } from '../types';
import { admissionForbidden, allow, deny } from './errors';
import { cmpQuantity } from '../validation/quantity';
import { add, equalLists, evaluatorFor, IGNORED_RESOURCES, mask, prettyPrint, quotaMatchesObject, resourceListJson, statusHard, statusUsed, subtractNonNegative } from '../quota/evaluators';

export const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  validate(a, cluster) {
    if (a.subresource !== '' || !a.namespace || !a.object) return allow();
    if (IGNORED_RESOURCES.has(`${a.resource.group}/${a.resource.resource}`)) return allow();
    const quotas = cluster.list('', 'resourcequotas', a.namespace);
    if (quotas.length === 0) return allow();
    const ev = evaluatorFor(a.resource.group, a.resource.resource);
    if (!ev.handles(a)) return allow();

    const interesting: KObject[] = [];
    for (const quota of quotas) {
      const restricted = [...statusHard(quota).keys()].filter((k) => ev.matchesResourceName(k));
      // Matches: a resource of the quota's status.hard, and its scopes.
      if (restricted.length === 0 || !quotaMatchesObject(quota, ev, a.object)) continue;
      const err = ev.constraints?.(restricted, a.object);
      if (err) return deny(admissionForbidden(a, `failed quota: ${quota.metadata.name ?? ''}: ${err}`));
      const used = statusUsed(quota);
      if (restricted.some((k) => !used.has(k))) return deny(admissionForbidden(a, `status unknown for quota: ${quota.metadata.name ?? ''}, resources: ${[...restricted].sort().join(',')}`));
      interesting.push(quota);
    }

    let delta = ev.usage(a.object, a.now);
    const negative = [...delta].filter(([, q]) => q.nanos < 0n).map(([k]) => k);
    if (negative.length) return deny(admissionForbidden(a, `quota usage is negative for resource(s): ${negative.sort().join(',')}`));
    if (a.operation === 'UPDATE') {
      if (!a.oldObject) return deny(admissionForbidden(a, 'unable to get previous usage since prior version of object was not found'));
      // Not a create-on-update: charge the growth only.
      if (a.oldObject.metadata.resourceVersion) delta = subtractNonNegative(delta, ev.usage(a.oldObject, a.now));
    }
    for (const [k, q] of [...delta]) if (q.nanos === 0n) delta.delete(k);
    if (delta.size === 0 || interesting.length === 0) return allow();

    const charged: KObject[] = [];
    for (const quota of interesting) {
      const hard = statusHard(quota);
      const used = statusUsed(quota);
      const requested = mask(delta, hard.keys());
      const newUsage = add(used, requested);
      const exceeded = [...requested.keys()].filter((k) => cmpQuantity(newUsage.get(k)!, hard.get(k)!) > 0);
      if (exceeded.length) {
        return deny(
          admissionForbidden(
            a,
            `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
          ),
        );
      }
      if (!equalLists(newUsage, used)) charged.push({ ...quota, status: { ...(quota.status ?? {}), used: resourceListJson(newUsage) } });
    }
    return { ...allow(), ...(charged.length ? { storageWrites: charged } : {}) };
  },
};
