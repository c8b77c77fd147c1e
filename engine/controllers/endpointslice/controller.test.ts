import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { cloneState } from '../../sim/serial';
import { node, pod, service } from '../endpoint/fixtures';
import { EndpointSliceController } from './controller';

function setup() {
  const c = new EndpointSliceController();
  const ctx = new FakeContext();
  ctx.upsert(c, 'nodes', node('node-1', 'zone-a'));
  return { c, ctx };
}

/** Answers a POST as the API server would (name, uid, generation), and shows it to the informer. */
function answerCreate(c: EndpointSliceController, ctx: FakeContext, n: number, show = true): KObject {
  const { call } = ctx.calls[0]!;
  const o = JSON.parse(JSON.stringify(call.body)) as KObject;
  o.metadata.name = `${o.metadata.generateName}x${n}`;
  o.metadata.uid = `slice-${n}`;
  o.metadata.generation = 1;
  ctx.respond(c, 201, o);
  if (show) ctx.upsert(c, 'endpointslices', o);
  return o;
}

describe('EndpointSliceController (endpointslice_controller_test.go)', () => {
  it('ignores services without a selector', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('ext', { selector: null }));
    ctx.drain(c);
    expect(ctx.calls).toEqual([]);
  });

  it('creates a slice for a service and its pods, then does nothing more', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'pods', pod('web-1', { ip: '10.244.0.5' }));
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices']]);
    answerCreate(c, ctx, 1);
    ctx.drain(c);
    expect(ctx.calls).toEqual([]);
  });

  it('does not sync while its writes are in flight, and waits for the informer (stale cache)', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    expect(ctx.calls).toHaveLength(1);
    ctx.upsert(c, 'pods', pod('web-1', { ip: '10.244.0.5' }));
    ctx.drain(c); // in flight: no second create
    expect(ctx.calls).toHaveLength(1);
    const created = answerCreate(c, ctx, 1, false);
    const r = ctx.drain(c); // the informer has not shown the slice yet
    expect(r).toEqual([{ type: 'error', message: 'EndpointSlice informer cache is out of date' }]);
    expect(ctx.calls).toEqual([]);
    ctx.upsert(c, 'endpointslices', created);
    ctx.now += 1000;
    ctx.drain(c);
    // The placeholder is updated in place with the new endpoint.
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['PUT', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/web-x1']]);
    expect((ctx.calls[0]!.call.body as any).endpoints[0].addresses).toEqual(['10.244.0.5']);
  });

  it('pod readiness changes update the slice', () => {
    const { c, ctx } = setup();
    const p = pod('web-1', { ip: '10.244.0.5', ready: false });
    ctx.upsert(c, 'pods', p);
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    const s = answerCreate(c, ctx, 1);
    expect((s.endpoints as any[])[0].conditions).toEqual({ ready: false, serving: false, terminating: false });
    ctx.drain(c);
    ctx.upsert(c, 'pods', pod('web-1', { ip: '10.244.0.5', ready: true }));
    ctx.drain(c);
    expect(ctx.calls).toHaveLength(1);
    expect((ctx.calls[0]!.call.body as any).endpoints[0].conditions).toEqual({ ready: true, serving: true, terminating: false });
  });

  it('recreates a slice someone else deleted, and forgets slices it deleted itself', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'pods', pod('web-1', { ip: '10.244.0.5' }));
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    const s = answerCreate(c, ctx, 1);
    ctx.drain(c);
    ctx.remove(c, 'endpointslices', s);
    ctx.drain(c);
    expect(ctx.calls.map((x) => x.call.method)).toEqual(['POST']);
  });

  it('a failed write is retried with back-off', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    ctx.respond(c, 500, {});
    const r = ctx.drain(c);
    expect(r[0]!.type).toBe('error');
    expect(ctx.calls).toEqual([]);
    ctx.now += 1000; // defaultSyncBackOff
    ctx.drain(c);
    expect(ctx.calls.map((x) => x.call.method)).toEqual(['POST']);
  });

  it('snapshots mid-run: the clone continues identically', () => {
    const { c, ctx } = setup();
    ctx.upsert(c, 'services', service('web', { selector: { app: 'web' } }));
    ctx.drain(c);
    const created = answerCreate(c, ctx, 1, false);
    const k = cloneState(c);
    const run = (x: EndpointSliceController) => {
      const f = new FakeContext();
      for (const [r, m] of ctx.stores) for (const o of m.values()) f.upsert(x, r, o);
      f.drain(x); // stale until the informer shows the slice
      f.upsert(x, 'endpointslices', created);
      f.upsert(x, 'pods', pod('web-1', { ip: '10.244.0.9' }));
      f.now = 5000;
      f.drain(x);
      return f.calls.map((y) => y.call);
    };
    const a = run(k);
    expect(a.map((y) => y.method)).toEqual(['PUT']);
    expect(a).toEqual(run(c));
    expect(k).toBeInstanceOf(EndpointSliceController);
    expect(k.tracker.get('default/web')?.get('slice-1')).toBe(1);
  });
});
