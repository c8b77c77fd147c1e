import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { persistentVolumeFor, shouldDelete, shouldProvision } from './provisioner';

const sc = (mode: string, reclaimPolicy = 'Delete'): KObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard' }, provisioner: 'hostpath.csi.k8s.io', volumeBindingMode: mode, reclaimPolicy, parameters: { kind: 'fast', 'csi.storage.k8s.io/fstype': 'ext4' } } as KObject);
const claim = (ann: Record<string, string>, spec: Record<string, unknown> = {}): KObject =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default', uid: 'abc', resourceVersion: '9', annotations: ann }, spec: { storageClassName: 'standard', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1500M' } }, ...spec } }) as KObject;
const mine = { 'volume.kubernetes.io/storage-provisioner': 'hostpath.csi.k8s.io' };

describe('external-provisioner decisions', () => {
  it('shouldProvision: our annotation, an unbound claim, and a node for WaitForFirstConsumer', () => {
    const wffc = new Map([['standard', sc('WaitForFirstConsumer')]]);
    expect(shouldProvision(claim(mine) as never, wffc, 'hostpath.csi.k8s.io')).toBe(false);
    expect(shouldProvision(claim({ ...mine, 'volume.kubernetes.io/selected-node': 'n1' }) as never, wffc, 'hostpath.csi.k8s.io')).toBe(true);
    expect(shouldProvision(claim({ ...mine, 'volume.kubernetes.io/selected-node': 'n1' }, { volumeName: 'x' }) as never, wffc, 'hostpath.csi.k8s.io')).toBe(false);
    expect(shouldProvision(claim({ 'volume.beta.kubernetes.io/storage-provisioner': 'hostpath.csi.k8s.io' }) as never, new Map([['standard', sc('Immediate')]]), 'hostpath.csi.k8s.io')).toBe(true);
    expect(shouldProvision(claim({ 'volume.kubernetes.io/storage-provisioner': 'other' }) as never, new Map([['standard', sc('Immediate')]]), 'hostpath.csi.k8s.io')).toBe(false);
  });

  it('the PV: named pvc-<uid>, bound to the claim, the request rounded up to bytes, topology, finalizer only for Delete', () => {
    const v = persistentVolumeFor(claim(mine) as never, sc('Immediate') as never, { driver: 'hostpath.csi.k8s.io', volumeHandle: 'h-1', identity: 'id-1', node: 'node-2' });
    expect(v.metadata.name).toBe('pvc-abc');
    expect(v.metadata.finalizers).toEqual(['external-provisioner.volume.kubernetes.io/finalizer']);
    // bytesToQuantity: BinarySI, which prints a non-multiple of 1024 as plain bytes.
    expect(v.spec!.capacity).toEqual({ storage: '1500000000' });
    expect(v.spec!.claimRef).toEqual({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: 'data', namespace: 'default', resourceVersion: '9', uid: 'abc' });
    expect(v.spec!.csi).toEqual({ driver: 'hostpath.csi.k8s.io', volumeAttributes: { kind: 'fast', 'storage.kubernetes.io/csiProvisionerIdentity': 'id-1' }, volumeHandle: 'h-1' });
    expect(persistentVolumeFor(claim(mine, { resources: { requests: { storage: '2Gi' } } }) as never, sc('Immediate') as never, { driver: 'd', volumeHandle: 'h', identity: 'i', node: 'n' }).spec!.capacity).toEqual({ storage: '2Gi' });
    expect(persistentVolumeFor(claim(mine) as never, sc('Immediate', 'Retain') as never, { driver: 'd', volumeHandle: 'h', identity: 'i', node: 'n' }).metadata.finalizers).toBeUndefined();
  });

  it('shouldDelete: Released, Delete, and provisioned by us', () => {
    const pv = (phase: string, by = 'hostpath.csi.k8s.io', policy = 'Delete'): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'p', annotations: { 'pv.kubernetes.io/provisioned-by': by } }, spec: { persistentVolumeReclaimPolicy: policy }, status: { phase } }) as KObject;
    expect(shouldDelete(pv('Released') as never, 'hostpath.csi.k8s.io')).toBe(true);
    expect(shouldDelete(pv('Bound') as never, 'hostpath.csi.k8s.io')).toBe(false);
    expect(shouldDelete(pv('Released', 'other') as never, 'hostpath.csi.k8s.io')).toBe(false);
    expect(shouldDelete(pv('Released', 'hostpath.csi.k8s.io', 'Retain') as never, 'hostpath.csi.k8s.io')).toBe(false);
  });
});
