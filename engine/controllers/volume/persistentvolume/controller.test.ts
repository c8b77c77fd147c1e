import { describe, it, expect } from 'vitest';
import type { KObject } from '../../../apimachinery/types';
import { FakeContext } from '../../framework/testing';
import { cloneState } from '../../../sim/serial';
import { PersistentVolumeController, checkVolumeSatisfyClaim, doDeleteVolume } from './controller';
import { findBestMatchForClaim } from './index';

let rv = 100;
const pv = (name: string, size: string, spec: Record<string, unknown> = {}, status: Record<string, unknown> = { phase: 'Available' }, meta: Record<string, unknown> = {}): KObject =>
  ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, uid: `uid-${name}`, resourceVersion: String(++rv), ...meta }, spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: '', ...spec }, status }) as KObject;
const pvc = (name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}, status: Record<string, unknown> = { phase: 'Pending' }): KObject =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: String(++rv), ...meta }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '', ...spec }, status }) as KObject;
const sc = (name: string, provisioner: string, mode = 'Immediate'): KObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name, resourceVersion: '1' }, provisioner, volumeBindingMode: mode } as KObject);

/** Answers every pending write as the API server would (bumping resourceVersion) and shows the results to the informers. */
function settle(c: PersistentVolumeController, ctx: FakeContext, rounds = 20): void {
  for (let i = 0; i < rounds; i++) {
    ctx.drain(c);
    if (!ctx.calls.length) return;
    while (ctx.calls.length) {
      const { call } = ctx.calls[0]!;
      if (call.method !== 'PUT') {
        ctx.respond(c, 404, {});
        continue;
      }
      const o = structuredClone(call.body) as KObject;
      o.metadata.resourceVersion = String(++rv);
      ctx.respond(c, 200, o);
      ctx.upsert(c, o.kind === 'PersistentVolume' ? 'persistentvolumes' : 'persistentvolumeclaims', o);
    }
  }
}

const writes = (ctx: FakeContext) => ctx.calls.map((x) => `${x.call.method} ${x.call.path}`);

describe('findBestMatchForClaim (index.go)', () => {
  it('prefers the exact access-mode set, then the smallest PV that fits', () => {
    const claim = pvc('c', { resources: { requests: { storage: '5Gi' } } });
    const vols = [pv('rwo-rox-6g', '6Gi', { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] }), pv('rwo-10g', '10Gi'), pv('rwo-8g', '8Gi'), pv('rwo-1g', '1Gi')];
    const r = findBestMatchForClaim(claim as never, vols as never, false);
    expect(r.ok && r.value?.metadata.name).toBe('rwo-8g');
    // Only a larger mode set fits: it is used.
    const r2 = findBestMatchForClaim(pvc('c', { accessModes: ['ReadOnlyMany'], resources: { requests: { storage: '5Gi' } } }) as never, vols as never, false);
    expect(r2.ok && r2.value?.metadata.name).toBe('rwo-rox-6g');
  });

  it('skips other classes, unmatched selectors and non-Available PVs; leaves delayed claims to the scheduler', () => {
    const vols = [pv('fast', '1Gi', { storageClassName: 'fast' }), pv('released', '1Gi', {}, { phase: 'Released' }), pv('labelled', '2Gi', {}, { phase: 'Available' }, { labels: { tier: 'gold' } }), pv('plain', '3Gi')];
    const pick = (claim: KObject, delay = false) => {
      const r = findBestMatchForClaim(claim as never, vols as never, delay);
      return r.ok ? (r.value?.metadata.name ?? null) : r.error;
    };
    expect(pick(pvc('c'))).toBe('labelled');
    expect(pick(pvc('c', { selector: { matchLabels: { tier: 'silver' } } }))).toBe(null);
    expect(pick(pvc('c', { storageClassName: 'fast' }))).toBe('fast');
    expect(pick(pvc('c'), true)).toBe(null);
    const prebound = [...vols, pv('reserved', '1Gi', { claimRef: { namespace: 'default', name: 'c' } }, { phase: 'Available' })];
    const r = findBestMatchForClaim(pvc('c') as never, prebound as never, true);
    expect(r.ok && r.value?.metadata.name).toBe('reserved');
  });
});

describe('PersistentVolumeController (pv_controller_test.go)', () => {
  it('binds in upstream’s order: PV claimRef, PV phase, claim annotations and volumeName, claim phase', () => {
    const c = new PersistentVolumeController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'persistentvolumes', pv('v1', '1Gi'));
    ctx.upsert(c, 'persistentvolumeclaims', pvc('data'));
    const order: string[] = [];
    for (let i = 0; i < 10; i++) {
      ctx.drain(c);
      if (!ctx.calls.length) break;
      order.push(...writes(ctx));
      settle(c, ctx, 1);
    }
    expect(order).toEqual([
      'PUT /api/v1/persistentvolumes/v1',
      'PUT /api/v1/persistentvolumes/v1/status',
      'PUT /api/v1/namespaces/default/persistentvolumeclaims/data',
      'PUT /api/v1/namespaces/default/persistentvolumeclaims/data/status',
    ]);
    const claim = ctx.store('persistentvolumeclaims').get('default/data')!;
    expect(claim.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } });
    expect(ctx.store('persistentvolumes').get('v1')!.status).toEqual({ phase: 'Bound' });
  });

  it('a bound claim whose PV disappears is Lost, once, with ClaimLost', () => {
    const c = new PersistentVolumeController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'persistentvolumeclaims', pvc('data', { volumeName: 'gone' }, { annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } }, { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] }));
    settle(c, ctx);
    expect(ctx.store('persistentvolumeclaims').get('default/data')!.status).toEqual({ phase: 'Lost' });
    expect(ctx.events.map((e) => [e.type, e.reason, e.message, e.component])).toEqual([['Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!', 'persistentvolume-controller']]);
    ctx.upsert(c, 'persistentvolumeclaims', ctx.store('persistentvolumeclaims').get('default/data')!);
    settle(c, ctx);
    expect(ctx.events).toHaveLength(1);
  });

  it('provisioning: an unknown class, an in-tree name, and an external provisioner (annotations then event)', () => {
    const c = new PersistentVolumeController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'storageclasses', sc('local', 'kubernetes.io/no-provisioner'));
    ctx.upsert(c, 'storageclasses', sc('csi', 'csi.example.com'));
    ctx.upsert(c, 'persistentvolumeclaims', pvc('a', { storageClassName: 'missing' }));
    ctx.upsert(c, 'persistentvolumeclaims', pvc('b', { storageClassName: 'local' }));
    ctx.upsert(c, 'persistentvolumeclaims', pvc('c', { storageClassName: 'csi' }));
    settle(c, ctx);
    // The claim's update (the annotations) brings it back, and the event repeats (counted as x2), as upstream's does.
    const seen = [...new Set(ctx.events.map((e) => JSON.stringify([e.regarding.metadata.name, e.reason, e.message])))].map((x) => JSON.parse(x));
    expect(seen).toEqual([
      ['a', 'ProvisioningFailed', 'storageclass.storage.k8s.io "missing" not found'],
      ['b', 'ProvisioningFailed', 'no volume plugin matched name: kubernetes.io/no-provisioner'],
      ['c', 'ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'csi.example.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."],
    ]);
    expect(ctx.store('persistentvolumeclaims').get('default/c')!.metadata.annotations).toEqual({ 'volume.beta.kubernetes.io/storage-provisioner': 'csi.example.com', 'volume.kubernetes.io/storage-provisioner': 'csi.example.com' });
  });

  it('WaitForFirstConsumer names the pods waiting to be scheduled', () => {
    const c = new PersistentVolumeController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'storageclasses', sc('wait', 'csi.example.com', 'WaitForFirstConsumer'));
    ctx.upsert(c, 'persistentvolumeclaims', pvc('data', { storageClassName: 'wait' }));
    settle(c, ctx);
    expect(ctx.events.at(-1)).toMatchObject({ type: 'Normal', reason: 'WaitForFirstConsumer', message: 'waiting for first consumer to be created before binding' });
    for (const name of ['web-1', 'web-0']) {
      (ctx.store('pods') as Map<string, KObject>).set(`default/${name}`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } } as KObject);
    }
    c.queue.add('claim:default/data', ctx.now);
    settle(c, ctx);
    expect(ctx.events.at(-1)).toMatchObject({ reason: 'WaitForPodScheduled', message: 'waiting for pods web-0,web-1 to be scheduled' });
  });

  it('a pre-bound claim that the volume does not satisfy gets VolumeMismatch', () => {
    expect(checkVolumeSatisfyClaim(pv('v', '512Mi') as never, pvc('c') as never)).toBe('requested PV is too small');
    expect(checkVolumeSatisfyClaim(pv('v', '1Gi', { storageClassName: 'x' }) as never, pvc('c') as never)).toBe('storageClassName does not match');
    const c = new PersistentVolumeController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'persistentvolumes', pv('small', '512Mi'));
    ctx.upsert(c, 'persistentvolumeclaims', pvc('data', { volumeName: 'small' }));
    settle(c, ctx);
    expect(ctx.events.map((e) => [e.type, e.reason, e.message])).toEqual([['Warning', 'VolumeMismatch', 'Cannot bind to requested volume "small": requested PV is too small']]);
  });

  it('reclaim: a released hostPath volume under /tmp is deleted, elsewhere it fails with the deleter’s error', () => {
    expect(doDeleteVolume(pv('a', '1Gi', { hostPath: { path: '/tmp/a' } }) as never)).toEqual({ type: 'deleted' });
    expect(doDeleteVolume(pv('b', '1Gi', { csi: { driver: 'x', volumeHandle: 'h' } }) as never)).toEqual({ type: 'external' });
    expect(doDeleteVolume(pv('c', '1Gi', { nfs: { server: 's', path: '/' } }) as never)).toEqual({ type: 'error', message: 'error getting deleter volume plugin for volume "c": no deletable volume plugin matched' });
    const c = new PersistentVolumeController();
    const ctx = new FakeContext();
    const bound = { claimRef: { namespace: 'default', name: 'old', uid: 'uid-old' }, persistentVolumeReclaimPolicy: 'Delete' };
    ctx.upsert(c, 'persistentvolumes', pv('tmp', '1Gi', { ...bound, hostPath: { path: '/tmp/x' } }, { phase: 'Bound' }));
    ctx.upsert(c, 'persistentvolumes', pv('mnt', '1Gi', { ...bound, hostPath: { path: '/mnt/x' } }, { phase: 'Bound' }));
    settle(c, ctx); // live GETs of the claim answer 404: both Released
    ctx.drain(c);
    expect(ctx.store('persistentvolumes').get('mnt')!.status).toEqual({ phase: 'Failed', message: 'host_path deleter only supports /tmp/.+ but received provided /mnt/x' });
    expect(ctx.events.map((e) => [e.regarding.metadata.name, e.reason])).toEqual([['mnt', 'VolumeFailedDelete']]);
    const copy = cloneState(c);
    expect(copy.volumes.get('tmp')!.status).toEqual({ phase: 'Released' });
  });
});
