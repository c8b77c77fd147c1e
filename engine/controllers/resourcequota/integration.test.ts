// ResourceQuota end to end: the controller measures status.used, admission
// charges it in the object's own transaction (two creations racing for the
// last unit: one wins), deletions give it back, and resources the manager
// does not watch are counted again at the 5-minute resync.
import { describe, it, expect } from 'vitest';
import { call, controlPlane, runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';
import { ADMIN_TOKEN } from '../../apiserver/server/scenario';
import { RESOURCE_QUOTA_SYNC_PERIOD_MS } from './controller';

const NS = '/api/v1/namespaces/team';
const quota = (e: Engine) => call(e, 'GET', `${NS}/resourcequotas/compute`).body;
const pod = (name: string, cpu: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }] } });
const limitRange = (name: string) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: [{ type: 'Container', default: { cpu: '100m' } }] } });

/** Sends both requests before either is answered. */
function together(e: Engine, paths: [string, unknown][]): number[] {
  const ids = paths.map(([path, body]) => {
    const r = e.exec({ type: 'api', request: { method: 'POST', path, query: {}, headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify(body) } });
    if (!r.ok) throw new Error(r.error);
    return r.result as number;
  });
  for (let i = 0; i < 10_000 && ids.some((id) => !e.apiCall(id)?.response); i++) e.advance(1);
  return ids.map((id) => e.apiCall(id)!.response!.status);
}

describe('resourcequota controller and admission', () => {
  it('measures, charges, replenishes and resyncs', () => {
    const e = controlPlane(31, { etcdMembers: 1 });
    expect(call(e, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }).status).toBe(201);
    runUntil(e, () => call(e, 'GET', `${NS}/serviceaccounts/default`).status === 200, 'the default ServiceAccount', 10_000);
    const hard = { pods: '2', 'requests.cpu': '1', 'count/configmaps': '3', 'count/limitranges': '1', 'count/widgets.example.com': '1', 'services.nodeports': '1' };
    expect(call(e, 'POST', `${NS}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { hard } }).status).toBe(201);
    runUntil(e, () => !!quota(e).status?.used, 'the first measurement', 10_000);
    // The namespace's kube-root-ca.crt ConfigMap counts; a name no evaluator knows gets no usage.
    expect(quota(e).status).toEqual({
      hard: { 'count/configmaps': '3', 'count/limitranges': '1', 'count/widgets.example.com': '1', pods: '2', 'requests.cpu': '1', 'services.nodeports': '1' },
      used: { 'count/configmaps': '1', 'count/limitranges': '0', pods: '0', 'requests.cpu': '0', 'services.nodeports': '0' },
    });

    // Admission charges in the pod's own write: the status is current as soon as the pod exists.
    expect(call(e, 'POST', `${NS}/pods`, pod('a', '500m')).status).toBe(201);
    expect(quota(e).status.used).toMatchObject({ pods: '1', 'requests.cpu': '500m' });
    const over = call(e, 'POST', `${NS}/pods`, pod('b', '600m'));
    expect(over.status).toBe(403);
    expect(over.body.message).toBe('pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=500m, limited: requests.cpu=1');

    // Two pods for the last pod slot at once: the second transaction finds the quota changed, re-checks, and is refused.
    const statuses = together(e, [
      [`${NS}/pods`, pod('c', '100m')],
      [`${NS}/pods`, pod('d', '100m')],
    ]);
    expect(statuses.sort()).toEqual([201, 403]);
    expect(quota(e).status.used).toMatchObject({ pods: '2', 'requests.cpu': '600m' });

    // A deletion gives back (the quota monitor sees it).
    expect(call(e, 'DELETE', `${NS}/pods/a`).status).toBe(200);
    runUntil(e, () => quota(e).status.used.pods === '1', 'the replenishment', 10_000);
    expect(quota(e).status.used['requests.cpu']).toBe('100m');

    // LimitRanges are not watched: charged by admission, given back only at the full resync.
    expect(call(e, 'POST', `${NS}/limitranges`, limitRange('one')).status).toBe(201);
    expect(quota(e).status.used['count/limitranges']).toBe('1');
    expect(call(e, 'POST', `${NS}/limitranges`, limitRange('two')).body.message).toBe('limitranges "two" is forbidden: exceeded quota: compute, requested: count/limitranges=1, used: count/limitranges=1, limited: count/limitranges=1');
    expect(call(e, 'DELETE', `${NS}/limitranges/one`).status).toBe(200);
    e.advance(30_000);
    expect(quota(e).status.used['count/limitranges']).toBe('1');
    runUntil(e, () => quota(e).status.used['count/limitranges'] === '0', 'the resync', RESOURCE_QUOTA_SYNC_PERIOD_MS + 10_000, 1000);

    // Raising the spec: status.hard follows.
    expect(call(e, 'PATCH', `${NS}/resourcequotas/compute`, { spec: { hard: { pods: '5' } } }, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => quota(e).status.hard.pods === '5', 'the new hard', 10_000);
    expect(call(e, 'POST', `${NS}/pods`, pod('e', '100m')).status).toBe(201);
  });
});
