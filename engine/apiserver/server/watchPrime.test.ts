// kube-apiserver encodes a watch event once per version and primes the readers'
// decoding with what it encoded (apimachinery/watchChunks.ts): the informers
// that receive the event hold the cache's object itself, not a decoded copy.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import type { KObject } from '../../apimachinery/types';
import type { ApiServer } from './apiserver';
import type { ControllerManager } from '../../controllers/manager';

describe('watch events primed for their readers', () => {
  it('an informer holds the watch cache object of an event, equal to its decoding', () => {
    const e = controlPlane(7);
    e.advance(1_000);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { mode: 'a' } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/configmaps', cm).status).toBe(201);
    e.advance(1_000);
    const apiserver = e.sim.actor('kube-apiserver-0') as unknown as ApiServer;
    const kcm = e.sim.actor('kube-controller-manager-0') as unknown as ControllerManager;
    const cached = () => (apiserver as unknown as { caches: Map<string, { store: Map<string, KObject> }> }).caches.get('/configmaps')!.store.get('/registry/configmaps/default/settings')!;
    const informed = () => kcm.reflectors.get('configmaps')!.store.get('default/settings')!;
    expect(informed()).toBe(cached());
    const got = call(e, 'GET', '/api/v1/namespaces/default/configmaps/settings').body;
    expect(call(e, 'PUT', '/api/v1/namespaces/default/configmaps/settings', { ...got, data: { mode: 'b' } }).status).toBe(200);
    e.advance(1_000);
    expect(informed()).toBe(cached());
    expect(informed().data).toEqual({ mode: 'b' });
    expect(Object.isFrozen(informed().data)).toBe(true);
  });
});
