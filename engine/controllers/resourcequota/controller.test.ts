// The resourcequota controller on a fake context: what it measures, what it lists, what wakes it.
import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { ResourceQuotaController } from './controller';

const quota = (hard: Record<string, string>, status?: Record<string, unknown>, scopes?: string[]): KObject =>
  ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns', resourceVersion: '4' }, spec: { hard, ...(scopes ? { scopes } : {}) }, ...(status ? { status } : {}) }) as KObject;
const pod = (name: string, cpu: string, phase = 'Running', limits = true): KObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu }, ...(limits ? { limits: { cpu } } : {}) } }] }, status: { phase } }) as KObject;

function statusWritten(c: ResourceQuotaController, ctx: FakeContext): any {
  ctx.drain(c);
  const put = ctx.calls.find((x) => x.call.method === 'PUT');
  return put ? (put.call.body as any).status : null;
}

describe('resourcequota controller', () => {
  it('measures pods, honours scopes, and lists what no informer holds', () => {
    const c = new ResourceQuotaController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'pods', pod('a', '250m'));
    ctx.upsert(c, 'pods', pod('b', '500m', 'Succeeded'));
    ctx.upsert(c, 'pods', pod('be', '0', 'Running', false));
    ctx.upsert(c, 'resourcequotas', quota({ pods: '10', 'requests.cpu': '2', 'count/pods': '10', 'count/roles.rbac.authorization.k8s.io': '5' }));
    ctx.drain(c);
    // Roles are not watched: one LIST, then the status.
    expect(ctx.calls.map((x) => `${x.call.method} ${x.call.path}`)).toEqual(['GET /apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles']);
    ctx.respond(c, 200, { items: [{ metadata: { name: 'r1', namespace: 'ns' } }, { metadata: { name: 'r2', namespace: 'ns' } }] });
    expect((ctx.calls[0]!.call.body as any).status).toEqual({
      hard: { 'count/pods': '10', 'count/roles.rbac.authorization.k8s.io': '5', pods: '10', 'requests.cpu': '2' },
      // The Succeeded pod counts as an object, not as a running pod.
      used: { 'count/pods': '3', 'count/roles.rbac.authorization.k8s.io': '2', pods: '2', 'requests.cpu': '250m' },
    });

    const scoped = new ResourceQuotaController();
    const ctx2 = new FakeContext();
    ctx2.upsert(scoped, 'pods', pod('a', '250m'));
    ctx2.upsert(scoped, 'pods', { ...pod('be', '0'), spec: { containers: [{ name: 'c' }] } } as KObject);
    ctx2.upsert(scoped, 'resourcequotas', quota({ pods: '5', 'count/configmaps': '5' }, undefined, ['BestEffort']));
    // Object counts match no scoped quota: zero.
    expect(statusWritten(scoped, ctx2).used).toEqual({ 'count/configmaps': '0', pods: '1' });
  });

  it('wakes on deletions and on pods ending, not on status writes or new objects', () => {
    const c = new ResourceQuotaController();
    const ctx = new FakeContext();
    const measured = quota({ pods: '5' }, { hard: { pods: '5' }, used: { pods: '1' } });
    ctx.upsert(c, 'pods', pod('a', '100m'));
    ctx.upsert(c, 'resourcequotas', measured);
    expect(statusWritten(c, ctx)).toBeNull();
    ctx.upsert(c, 'resourcequotas', { ...measured, status: { hard: { pods: '5' }, used: { pods: '2' } } } as KObject);
    ctx.upsert(c, 'pods', pod('b', '100m'));
    expect(c.queue.len()).toBe(0);
    ctx.upsert(c, 'pods', pod('b', '100m', 'Failed'));
    expect(c.queue.len()).toBe(1);
    ctx.remove(c, 'pods', pod('a', '100m'));
    ctx.drain(c);
    expect(ctx.calls.map((x) => (x.call.body as any).status.used)).toEqual([{ pods: '0' }]);
  });
});
