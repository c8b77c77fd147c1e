import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { cloneState } from '../../sim/serial';
import { pod, service } from './fixtures';
import { EndpointController } from './controller';

function setup() {
  return { c: new EndpointController(), ctx: new FakeContext() };
}

/** Answers the pending write as the API server would and shows the result to the informer. */
function answer(c: EndpointController, ctx: FakeContext, rv: string, show = true): KObject {
  const o = JSON.parse(JSON.stringify(ctx.calls[0]!.call.body)) as KObject;
  o.metadata.resourceVersion = rv;
  ctx.respond(c, ctx.calls[0]!.call.method === 'POST' ? 201 : 200, o);
  if (show) ctx.upsert(c, 'endpoints', o);
  return o;
}

describe('EndpointController (endpoints_controller_test.go)', () => {
  it('creates Endpoints named after the service, with its labels, and stops when up to date', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'pods', pod('web-1', { ip: '10.244.0.5' }));
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' }, labels: { tier: 'front' } }));
    ctx.drain(c);
    expect(ctx.calls).toHaveLength(1);
    const { call } = ctx.calls[0]!;
    expect([call.method, call.path]).toEqual(['POST', '/api/v1/namespaces/default/endpoints']);
    expect(call.body).toMatchObject({ kind: 'Endpoints', metadata: { name: 'web', namespace: 'default', labels: { tier: 'front' } }, subsets: [{ addresses: [{ ip: '10.244.0.5' }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }] });
    expect((call.body as any).metadata.ownerReferences).toBeUndefined();
    answer(c, ctx, '10');
    expect(ctx.drain(c).every((r) => r.type === 'done')).toBe(true);
    expect(ctx.calls).toEqual([]);
  });

  it('a create refused because the namespace is terminating is neither an error nor retried (syncService)', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'pods', pod('web-1', { ip: '10.244.0.5' }));
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    expect(ctx.calls).toHaveLength(1);
    // What NamespaceLifecycle answers: the cause's type travels as "reason".
    ctx.respond(c, 403, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403, message: 'endpoints "web" is forbidden: unable to create new content in namespace default because it is being terminated', details: { name: 'web', kind: 'endpoints', causes: [{ reason: 'NamespaceTerminating', message: 'namespace default is being terminated', field: 'metadata.namespace' }] } });
    ctx.now += 60_000;
    expect(ctx.drain(c)).toEqual([]);
    expect(ctx.calls).toEqual([]);
    // Any other refusal is an error, retried with back-off.
    ctx.upsert(c, 'pods', pod('web-2', { ip: '10.244.0.6' }));
    ctx.drain(c);
    ctx.respond(c, 403, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403, message: 'forbidden' });
    expect(ctx.drain(c).map((r) => r.type)).toEqual(['error']);
  });

  it('ignores services without a selector', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('ext', { selector: null }));
    ctx.drain(c);
    expect(ctx.calls).toEqual([]);
  });

  it('an empty Endpoints object for a service with no ready pods; updates as pods come and go', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    expect((ctx.calls[0]!.call.body as any).subsets).toEqual([]);
    answer(c, ctx, '10');
    ctx.drain(c);
    ctx.upsert(c, 'pods', pod('web-1', { ip: '10.244.0.5', ready: false }));
    ctx.drain(c);
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['PUT', '/api/v1/namespaces/default/endpoints/web']]);
    expect((ctx.calls[0]!.call.body as any).metadata.resourceVersion).toBe('10');
    expect((ctx.calls[0]!.call.body as any).subsets[0].notReadyAddresses[0].ip).toBe('10.244.0.5');
  });

  it('does not act on a stale informer after its own write', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    const o = answer(c, ctx, '10', false);
    const r = ctx.drain(c);
    expect(r[0]).toEqual({ type: 'error', message: 'endpoints informer cache is out of date, resource version  already processed for endpoints default/web' });
    expect(ctx.calls).toEqual([]);
    ctx.upsert(c, 'endpoints', o);
    ctx.drain(c);
    expect(ctx.calls).toEqual([]);
  });

  it('deletes the Endpoints when the service goes, and recreates Endpoints deleted by someone else', () => {
    const { c, ctx } = setup();
    const svc = service('web', { selector: { app: 'web' } });
    ctx.upsert(c, 'services', svc);
    ctx.drain(c);
    const ep = answer(c, ctx, '10');
    ctx.drain(c);
    ctx.remove(c, 'endpoints', ep);
    ctx.drain(c);
    expect(ctx.calls.map((x) => x.call.method)).toEqual(['POST']);
    answer(c, ctx, '12');
    ctx.drain(c);
    ctx.remove(c, 'services', svc);
    ctx.drain(c);
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['DELETE', '/api/v1/namespaces/default/endpoints/web']]);
  });

  it('marks headless services and over-capacity Endpoints', () => {
    const { c, ctx } = setup();
    const pods = ctx.store('pods') as Map<string, KObject>;
    for (let i = 0; i < 1001; i++) pods.set(`default/p${i}`, pod(`p${i}`, { ip: `10.1.${Math.floor(i / 250)}.${i % 250}` }));
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' }, clusterIP: 'None' }));
    ctx.drain(c);
    const body = ctx.calls[0]!.call.body as any;
    expect(body.metadata.labels).toEqual({ 'service.kubernetes.io/headless': '' });
    expect(body.metadata.annotations).toEqual({ 'endpoints.kubernetes.io/over-capacity': 'truncated' });
    expect(body.subsets[0].addresses).toHaveLength(1000);
  });

  it('snapshots mid-run: the clone continues identically', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    const o = answer(c, ctx, '10', false);
    const k = cloneState(c);
    const run = (x: EndpointController) => {
      const f = new FakeContext();
      for (const [r, m] of ctx.stores) for (const v of m.values()) f.upsert(x, r, v);
      const first = f.drain(x).map((r) => r.type);
      f.upsert(x, 'endpoints', o);
      f.upsert(x, 'pods', pod('web-1', { ip: '10.244.0.9' }));
      f.now = 1000;
      f.drain(x);
      return { first, calls: f.calls.map((y) => y.call) };
    };
    const a = run(k);
    expect(a.first).toEqual(['error']);
    expect(a.calls.map((y) => y.method)).toEqual(['PUT']);
    expect(a).toEqual(run(c));
  });
});
