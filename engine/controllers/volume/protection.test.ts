import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { PVCProtectionController, podUsesPVC } from './pvcprotection/controller';
import { PVProtectionController } from './pvprotection/controller';

const claim = (meta: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default', uid: 'u1', resourceVersion: '5', ...meta }, spec: {} } as KObject);
const pod = (name: string, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}`, ...meta }, spec: { nodeName: 'node-1', volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }], ...extra } }) as KObject;
const deleting = { deletionTimestamp: '2025-01-01T00:00:10Z', finalizers: ['kubernetes.io/pvc-protection'] };

describe('pvc-protection-controller (pvc_protection_controller_test.go)', () => {
  it('podUsesPVC: only scheduled pods, and a finished one still holds it until deleted', () => {
    expect(podUsesPVC(pod('a'), claim())).toBe(true);
    expect(podUsesPVC(pod('a', { nodeName: undefined }), claim())).toBe(false);
    expect(podUsesPVC({ ...pod('a'), status: { phase: 'Succeeded' } } as KObject, claim())).toBe(true);
    const eph = pod('web', { volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: {} } }] });
    const ephClaim = claim({ name: 'web-scratch', ownerReferences: [{ uid: 'uid-web', controller: true, kind: 'Pod', name: 'web', apiVersion: 'v1' }] });
    expect(podUsesPVC(eph, ephClaim)).toBe(true);
    // Shut down (deleted with grace 0): an ephemeral claim is no longer held.
    expect(podUsesPVC({ ...eph, metadata: { ...eph.metadata, deletionTimestamp: 'x', deletionGracePeriodSeconds: 0 } } as KObject, ephClaim)).toBe(false);
  });

  it('keeps the finalizer while a pod uses the claim, asks the API server before letting go, then removes it', () => {
    const c = new PVCProtectionController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'pods', pod('user'));
    ctx.upsert(c, 'persistentvolumeclaims', claim(deleting));
    ctx.drain(c);
    expect(ctx.calls).toEqual([]);
    ctx.remove(c, 'pods', pod('user'));
    ctx.drain(c);
    expect(ctx.calls.map((x) => `${x.call.method} ${x.call.path}`)).toEqual(['GET /api/v1/namespaces/default/pods']);
    // The live list still shows a pod the cache missed: keep it.
    ctx.respond(c, 200, { items: [pod('late')] });
    ctx.drain(c);
    expect(ctx.calls.map((x) => x.call.method)).toEqual(['GET']);
    ctx.respond(c, 200, { items: [] });
    ctx.drain(c);
    expect(ctx.calls.map((x) => `${x.call.method} ${x.call.path}`)).toEqual(['PUT /api/v1/namespaces/default/persistentvolumeclaims/data']);
    expect((ctx.calls[0]!.call.body as KObject).metadata.finalizers).toBeUndefined();
  });

  it('adds the finalizer to a live claim without it', () => {
    const c = new PVCProtectionController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'persistentvolumeclaims', claim());
    ctx.drain(c);
    expect((ctx.calls[0]!.call.body as KObject).metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  });
});

describe('pv-protection-controller (pv_protection_controller_test.go)', () => {
  it('a PV being deleted keeps the finalizer while Bound and loses it once not', () => {
    const c = new PVProtectionController();
    const ctx = new FakeContext();
    const pv = (phase: string): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v', resourceVersion: '3', deletionTimestamp: 'x', finalizers: ['kubernetes.io/pv-protection'] }, spec: {}, status: { phase } }) as KObject;
    ctx.upsert(c, 'persistentvolumes', pv('Bound'));
    ctx.drain(c);
    expect(ctx.calls).toEqual([]);
    ctx.upsert(c, 'persistentvolumes', pv('Released'));
    ctx.drain(c);
    expect(ctx.calls.map((x) => `${x.call.method} ${x.call.path}`)).toEqual(['PUT /api/v1/persistentvolumes/v']);
    expect((ctx.calls[0]!.call.body as KObject).metadata.finalizers).toBeUndefined();
  });
});
