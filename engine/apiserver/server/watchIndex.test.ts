// Watches whose field selector pins a trigger field (pods: spec.nodeName, nodes:
// metadata.name) are indexed, as the cacher's triggers are: they still see exactly
// the events their selector admits, in the order the watches started.
import { describe, expect, it } from 'vitest';
import { call, controlPlane, watch } from '../testing/harness';
import type { ApiServer } from './apiserver';

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, nodeName?: string) => ({ metadata: { name }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx' }] } });

describe('indexed watch triggers', () => {
  it('gives node-pinned pod watchers only their node’s pods, and unpinned ones everything', () => {
    const e = controlPlane(51, { schedulers: 0 });
    const onA = watch(e, '/api/v1/pods', { fieldSelector: 'spec.nodeName=a' });
    const onB = watch(e, '/api/v1/pods', { fieldSelector: 'spec.nodeName=b' });
    const unbound = watch(e, '/api/v1/pods', { fieldSelector: 'spec.nodeName=' });
    const all = watch(e, '/api/v1/pods', { labelSelector: '' });
    const notA = watch(e, '/api/v1/pods', { fieldSelector: 'spec.nodeName!=a' });
    e.advance(100);
    expect(call(e, 'POST', PODS, pod('p1', 'a')).status).toBe(201);
    expect(call(e, 'POST', PODS, pod('p2')).status).toBe(201);
    expect(call(e, 'POST', `${PODS}/p2/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p2' }, target: { kind: 'Node', name: 'b' } }).status).toBe(201);
    expect(call(e, 'DELETE', `${PODS}/p1`, undefined, { query: { gracePeriodSeconds: '0' } }).status).toBe(200);
    e.advance(200);
    const seen = (w: ReturnType<typeof watch>) => w.read().map((ev) => `${ev.type} ${ev.object.metadata.name}`);
    expect(seen(onA)).toEqual(['ADDED p1', 'DELETED p1']);
    expect(seen(onB)).toEqual(['ADDED p2']);
    // Moving out of a selector arrives as DELETED.
    expect(seen(unbound)).toEqual(['ADDED p2', 'DELETED p2']);
    expect(seen(all)).toEqual(['ADDED p1', 'ADDED p2', 'MODIFIED p2', 'DELETED p1']);
    expect(seen(notA)).toEqual(['ADDED p2', 'MODIFIED p2']);
    // A finished watch leaves the index.
    const hub = e.sim.actor<ApiServer>('kube-apiserver-0')!.watch;
    const n = hub.count();
    e.exec({ type: 'apiCancel', call: onA.id });
    e.advance(50);
    expect(hub.count()).toBe(n - 1);
    expect(call(e, 'POST', PODS, pod('p3', 'a')).status).toBe(201);
    e.advance(100);
    expect(seen(onA)).toEqual(['ADDED p1', 'DELETED p1']);
    expect(seen(all).at(-1)).toBe('ADDED p3');
  });
});
