import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { defaultStorageClass } from './defaultStorageClass';
import { defaultTolerationSeconds } from './defaultTolerationSeconds';
import { priority } from './priority';
import { storageObjectInUseProtection } from './storageObjectInUseProtection';
import { attrs, FakeCluster, pod } from './testing';

describe('DefaultTolerationSeconds', () => {
  it('adds not-ready and unreachable NoExecute tolerations for 300 s', () => {
    const a = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] }) });
    expect(defaultTolerationSeconds.admit!(a, new FakeCluster())).toEqual({ allowed: true });
    expect((a.object!['spec'] as { tolerations: unknown }).tolerations).toEqual([
      { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('leaves pods that already tolerate them, including a wildcard toleration', () => {
    const own = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }];
    const a = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { tolerations: structuredClone(own) }) });
    defaultTolerationSeconds.admit!(a, new FakeCluster());
    expect((a.object!['spec'] as { tolerations: unknown[] }).tolerations).toEqual([...own, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]);
    const wild = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { tolerations: [{ operator: 'Exists' }] }) });
    defaultTolerationSeconds.admit!(wild, new FakeCluster());
    expect((wild.object!['spec'] as { tolerations: unknown[] }).tolerations).toEqual([{ operator: 'Exists' }]);
  });
});

describe('DefaultStorageClass', () => {
  const sc = (name: string, created: string, isDefault: boolean): KObject => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {} },
    provisioner: 'x',
  });
  const pvc = (spec: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], ...spec } });

  it('gives a class-less claim the newest default class', () => {
    const cluster = new FakeCluster([sc('old', '2024-01-01T00:00:00Z', true), sc('new', '2024-06-01T00:00:00Z', true), sc('fast', '2025-01-01T00:00:00Z', false)]);
    const a = attrs({ resource: 'persistentvolumeclaims', object: pvc() });
    defaultStorageClass.admit!(a, cluster);
    expect((a.object!['spec'] as { storageClassName: string }).storageClassName).toBe('new');
  });

  it('leaves an explicit class, even "", and does nothing without a default', () => {
    const cluster = new FakeCluster([sc('std', '2024-01-01T00:00:00Z', true)]);
    const empty = attrs({ resource: 'persistentvolumeclaims', object: pvc({ storageClassName: '' }) });
    defaultStorageClass.admit!(empty, cluster);
    expect((empty.object!['spec'] as { storageClassName: string }).storageClassName).toBe('');
    const none = attrs({ resource: 'persistentvolumeclaims', object: pvc() });
    defaultStorageClass.admit!(none, new FakeCluster([sc('fast', '2024-01-01T00:00:00Z', false)]));
    expect((none.object!['spec'] as { storageClassName?: string }).storageClassName).toBeUndefined();
  });
});

describe('StorageObjectInUseProtection', () => {
  it('adds the protection finalizer to new PVs and PVCs, once, and to nothing else', () => {
    const pv = attrs({ resource: 'persistentvolumes', namespace: '', object: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-1', finalizers: ['example.com/x'] }, spec: {} } });
    storageObjectInUseProtection.admit!(pv, new FakeCluster());
    expect(pv.object!.metadata.finalizers).toEqual(['example.com/x', 'kubernetes.io/pv-protection']);
    const pvc = attrs({ resource: 'persistentvolumeclaims', object: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default', finalizers: ['kubernetes.io/pvc-protection'] }, spec: {} } });
    storageObjectInUseProtection.admit!(pvc, new FakeCluster());
    expect(pvc.object!.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const p = attrs({ resource: 'pods', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: {} } });
    storageObjectInUseProtection.admit!(p, new FakeCluster());
    expect(p.object!.metadata.finalizers).toBeUndefined();
  });
});

describe('Priority', () => {
  const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });
  type Spec = { priority?: number; preemptionPolicy?: string; priorityClassName?: string };

  it('resolves a class into priority and preemptionPolicy', () => {
    const cluster = new FakeCluster([pc('high', 1000, { preemptionPolicy: 'Never' })]);
    const a = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { priorityClassName: 'high' }) });
    expect(priority.admit!(a, cluster).allowed).toBe(true);
    expect(a.object!['spec']).toMatchObject({ priority: 1000, preemptionPolicy: 'Never' });
  });

  it('knows the system classes and uses the global default or 0', () => {
    const a = attrs({ resource: 'pods', namespace: 'kube-system', object: pod('dns', 'kube-system', undefined, { priorityClassName: 'system-node-critical' }) });
    priority.admit!(a, new FakeCluster());
    expect((a.object!['spec'] as Spec).priority).toBe(2000001000);
    const b = attrs({ resource: 'pods', object: pod('web', 'default') });
    priority.admit!(b, new FakeCluster());
    expect(b.object!['spec']).toMatchObject({ priority: 0 });
    expect((b.object!['spec'] as Spec).preemptionPolicy).toBe('PreemptLowerPriority'); // getDefaultPriority without a default class
    const c = attrs({ resource: 'pods', object: pod('web', 'default') });
    priority.admit!(c, new FakeCluster([pc('low', 10, { globalDefault: true }), pc('lower', 5, { globalDefault: true })]));
    expect(c.object!['spec']).toMatchObject({ priority: 5, priorityClassName: 'lower', preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('refuses unknown classes and a conflicting priority', () => {
    const a = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { priorityClassName: 'gold' }) });
    expect(priority.admit!(a, new FakeCluster())).toMatchObject({ allowed: false, status: { code: 403, message: 'pods "web" is forbidden: no PriorityClass with name gold was found' } });
    const b = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { priorityClassName: 'high', priority: 7 }) });
    expect(priority.admit!(b, new FakeCluster([pc('high', 1000)]))).toMatchObject({
      allowed: false,
      status: { message: 'pods "web" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name' },
    });
  });

  it('allows only one global default PriorityClass', () => {
    const cluster = new FakeCluster([pc('base', 1, { globalDefault: true })]);
    const v = priority.validate!(attrs({ group: 'scheduling.k8s.io', resource: 'priorityclasses', name: 'other', object: pc('other', 2, { globalDefault: true }) }), cluster);
    expect(v).toMatchObject({ allowed: false, status: { message: 'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass base is already marked as default. Only one default can exist' } });
    expect(priority.validate!(attrs({ operation: 'UPDATE', group: 'scheduling.k8s.io', resource: 'priorityclasses', name: 'base', object: pc('base', 1, { globalDefault: true }) }), cluster).allowed).toBe(true);
  });
});
