import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from './testing';
import { WriteChains, type PlannedStep, type WriteTag } from './writes';

const ref: KObject = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's', namespace: 'default' } };
const post = (name: string, extra = {}) => ({ call: { method: 'POST' as const, path: '/api/v1/namespaces/default/pods', body: { metadata: { name } } }, observe: 'pods', ok: { regarding: ref, type: 'Normal' as const, reason: 'SuccessfulCreate', message: `made ${name}` }, fail: { regarding: ref, type: 'Warning' as const, reason: 'FailedCreate', prefix: `create ${name} failed: ` }, ...extra });

function answer(w: WriteChains, ctx: FakeContext, status: number, body: unknown) {
  const c = ctx.calls.shift()!;
  return w.onResponse(c.tag as WriteTag, status, JSON.stringify(body), ctx);
}

describe('WriteChains', () => {
  it('runs steps in order, the writes of a step at once, and awaits each write in its informer', () => {
    const ctx = new FakeContext();
    const w = new WriteChains();
    const steps: PlannedStep[] = [{ writes: [post('a'), post('b')] }, { writes: [post('c')] }];
    expect(w.start('k', steps, ctx)).toBe(true);
    expect(ctx.calls.map((c) => (c.call.body as any).metadata.name)).toEqual(['a', 'b']);
    expect(w.wait('k', ctx)).toEqual({ busy: true, delayMs: null });
    expect(answer(w, ctx, 201, { metadata: { name: 'a', namespace: 'default', resourceVersion: '7' } })).toBeNull();
    expect(ctx.calls).toHaveLength(1);
    expect(answer(w, ctx, 201, { metadata: { name: 'b', namespace: 'default', resourceVersion: '8' } })).toBeNull();
    expect(ctx.calls.map((c) => (c.call.body as any).metadata.name)).toEqual(['c']);
    expect(answer(w, ctx, 201, { metadata: { name: 'c', namespace: 'default', resourceVersion: '9' } })).toMatchObject({ owner: 'k', ok: true });
    expect(ctx.events.map((e) => e.message)).toEqual(['made a', 'made b', 'made c']);
    // Not in the informer yet: wait (at most until the deadline).
    expect(w.wait('k', ctx)).toEqual({ busy: true, delayMs: 5000 });
    const pods = ctx.store('pods') as Map<string, KObject>;
    for (const [n, rv] of [['a', '7'], ['b', '8'], ['c', '9']]) pods.set(`default/${n}`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: n, namespace: 'default', resourceVersion: rv } });
    expect(w.wait('k', ctx)).toEqual({ busy: false });
  });

  it('stops at the first failing step (with its event), but runs the always steps; reports what never ran', () => {
    const ctx = new FakeContext();
    const w = new WriteChains();
    w.start('k', [{ writes: [post('a')] }, { writes: [post('b', { meta: 'b' })] }, { writes: [post('s')], always: true }], ctx);
    answer(w, ctx, 403, { kind: 'Status', message: 'pods "a" is forbidden' });
    expect(ctx.events.map((e) => `${e.reason}: ${e.message}`)).toEqual(['FailedCreate: create a failed: pods "a" is forbidden']);
    expect(ctx.calls.map((c) => (c.call.body as any).metadata.name)).toEqual(['s']);
    const r = answer(w, ctx, 201, { metadata: { name: 's', namespace: 'default', resourceVersion: '3' } });
    expect(r).toMatchObject({ ok: false, errors: ['pods "a" is forbidden'], skipped: ['b'] });
  });

  it('a quiet status fails without an event; a tolerated one succeeds; a delete answered with a Status is awaited as gone', () => {
    const ctx = new FakeContext();
    const w = new WriteChains();
    w.start('k', [{ writes: [post('a', { quiet: [409] })] }], ctx);
    expect(answer(w, ctx, 409, { message: 'exists' })).toMatchObject({ ok: false });
    expect(ctx.events).toEqual([]);
    w.start('k', [{ writes: [{ call: { method: 'DELETE', path: '/api/v1/namespaces/default/pods/x' }, observe: 'pods', tolerate: [404] }] }], ctx);
    expect(answer(w, ctx, 200, { kind: 'Status', status: 'Success' })).toMatchObject({ ok: true });
    (ctx.store('pods') as Map<string, KObject>).set('default/x', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'default', resourceVersion: '1' } });
    expect(w.wait('k', ctx).busy).toBe(true);
    (ctx.store('pods') as Map<string, KObject>).delete('default/x');
    expect(w.wait('k', ctx)).toEqual({ busy: false });
  });
});
