// PersistentVolumes end to end on the simulated control plane: the PV
// controller binding static PVs, the CSI hostpath driver provisioning for the
// default (WaitForFirstConsumer) class with the scheduler's choice of node, and
// reclaim policies once the claim is gone.
import { describe, it, expect } from 'vitest';
import type { Engine } from '../../../facade/engine';
import { call, controlPlane, createNode, runUntil } from '../../../scheduler/testing/cluster';

const pvc = (e: Engine, name: string) => call(e, 'GET', `/api/v1/namespaces/default/persistentvolumeclaims/${name}`);
const pv = (e: Engine, name: string) => call(e, 'GET', `/api/v1/persistentvolumes/${name}`);
const eventsFor = (e: Engine, name: string) =>
  (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.involvedObject.name === name).map((x) => ({ reason: x.reason, message: x.message, from: x.source.component, count: x.count }));

function claim(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } };
}

function volume(name: string, size: string, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/mnt/${name}` }, storageClassName: 'manual', ...extra } };
}

describe('persistentvolume-binder on the control plane', () => {
  it('binds a claim to the smallest fitting PV, as upstream annotates and phases both', () => {
    const e = controlPlane(7);
    expect(call(e, 'POST', '/api/v1/persistentvolumes', volume('big', '10Gi')).status).toBe(201);
    expect(call(e, 'POST', '/api/v1/persistentvolumes', volume('small', '2Gi')).status).toBe(201);
    expect(call(e, 'POST', '/api/v1/persistentvolumes', volume('tiny', '512Mi')).status).toBe(201);
    runUntil(e, () => pv(e, 'small').body.status.phase === 'Available', 'PVs Available', 30_000);
    expect(call(e, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('data', { storageClassName: 'manual' })).status).toBe(201);
    runUntil(e, () => pvc(e, 'data').body.status.phase === 'Bound', 'the claim Bound', 30_000);
    const c = pvc(e, 'data').body;
    expect(c.spec.volumeName).toBe('small');
    expect(c.metadata.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(c.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(c.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '2Gi' } });
    const v = pv(e, 'small').body;
    expect(v.status.phase).toBe('Bound');
    expect(v.metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(v.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(v.spec.claimRef).toMatchObject({ kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: c.metadata.uid, apiVersion: 'v1' });
    expect(pv(e, 'big').body.status.phase).toBe('Available');

    // Retain: the claim goes, the PV is Released and stays, its claimRef kept.
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/persistentvolumeclaims/data').status).toBe(200);
    runUntil(e, () => pvc(e, 'data').status === 404, 'the claim deleted (pvc-protection lets it go)', 30_000);
    runUntil(e, () => pv(e, 'small').body.status.phase === 'Released', 'the PV Released', 30_000);
    e.advance(20_000);
    expect(pv(e, 'small').body.status.phase).toBe('Released');
    expect(pv(e, 'small').body.spec.claimRef.name).toBe('data');
  }, 60_000);

  it('a claim no PV fits and without a class waits, with upstream’s event; a pre-bound claim binds its PV', () => {
    const e = controlPlane(8, { storageDriver: false });
    expect(call(e, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('lonely', {})).status).toBe(201);
    runUntil(e, () => eventsFor(e, 'lonely').length > 0, 'an event', 30_000);
    expect(eventsFor(e, 'lonely')[0]).toEqual({ reason: 'FailedBinding', message: 'no persistent volumes available for this claim and no storage class is set', from: 'persistentvolume-controller', count: 1 });
    expect(pvc(e, 'lonely').body.status.phase).toBe('Pending');
    // 15 s later the resync repeats it (count 2), as `kubectl describe` shows "(x2 over 15s)".
    e.advance(16_000);
    expect(eventsFor(e, 'lonely')[0]!.count).toBe(2);

    expect(call(e, 'POST', '/api/v1/persistentvolumes', volume('mine', '1Gi', { storageClassName: '' })).status).toBe(201);
    expect(call(e, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('wants-mine', { volumeName: 'mine', storageClassName: '' })).status).toBe(201);
    runUntil(e, () => pvc(e, 'wants-mine').body.status.phase === 'Bound', 'the pre-bound claim Bound', 30_000);
    // The user chose the volume: the claim is not "bound by controller", the PV is.
    expect(pvc(e, 'wants-mine').body.metadata.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes' });
    expect(pv(e, 'mine').body.metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
  }, 60_000);

  it('WaitForFirstConsumer: the default class waits for a pod, the scheduler picks the node, the CSI driver provisions there; Delete removes the PV', () => {
    const e = controlPlane(9);
    createNode(e, { name: 'node-a' });
    createNode(e, { name: 'node-b' });
    runUntil(e, () => call(e, 'GET', '/apis/storage.k8s.io/v1/storageclasses/standard').status === 200, 'the default StorageClass', 30_000);
    const sc = call(e, 'GET', '/apis/storage.k8s.io/v1/storageclasses/standard').body;
    expect(sc).toMatchObject({ provisioner: 'hostpath.csi.k8s.io', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer', metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } });
    expect(call(e, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('web-data', {})).status).toBe(201);
    // DefaultStorageClass admission named the class.
    expect(pvc(e, 'web-data').body.spec.storageClassName).toBe('standard');
    runUntil(e, () => eventsFor(e, 'web-data').some((x) => x.reason === 'WaitForFirstConsumer'), 'WaitForFirstConsumer', 30_000);
    e.advance(20_000);
    expect(pvc(e, 'web-data').body.status.phase).toBe('Pending');
    expect(call(e, 'GET', '/api/v1/persistentvolumes').body.items).toEqual([]);

    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'web-data' } }] } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
    runUntil(e, () => !!call(e, 'GET', '/api/v1/namespaces/default/pods/web').body.spec.nodeName, 'the pod bound', 60_000);
    const node = call(e, 'GET', '/api/v1/namespaces/default/pods/web').body.spec.nodeName;
    const c = pvc(e, 'web-data').body;
    expect(c.status.phase).toBe('Bound');
    expect(c.metadata.annotations).toMatchObject({
      'volume.kubernetes.io/selected-node': node,
      'volume.kubernetes.io/storage-provisioner': 'hostpath.csi.k8s.io',
      'volume.beta.kubernetes.io/storage-provisioner': 'hostpath.csi.k8s.io',
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    const name = `pvc-${c.metadata.uid}`;
    expect(c.spec.volumeName).toBe(name);
    const v = pv(e, name).body;
    expect(v.metadata.annotations).toEqual({ 'pv.kubernetes.io/provisioned-by': 'hostpath.csi.k8s.io', 'volume.kubernetes.io/provisioner-deletion-secret-name': '', 'volume.kubernetes.io/provisioner-deletion-secret-namespace': '' });
    expect(v.metadata.finalizers).toEqual(['external-provisioner.volume.kubernetes.io/finalizer', 'kubernetes.io/pv-protection']);
    expect(v.spec).toMatchObject({ capacity: { storage: '1Gi' }, persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'standard', volumeMode: 'Filesystem', csi: { driver: 'hostpath.csi.k8s.io' } });
    expect(v.spec.nodeAffinity.required.nodeSelectorTerms).toEqual([{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }]);
    const reasons = eventsFor(e, 'web-data').map((x) => x.reason);
    expect(reasons).toEqual(expect.arrayContaining(['WaitForFirstConsumer', 'ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded']));
    const succeeded = eventsFor(e, 'web-data').find((x) => x.reason === 'ProvisioningSucceeded')!;
    expect(succeeded.message).toBe(`Successfully provisioned volume ${name}`);
    expect(succeeded.from).toMatch(/^hostpath\.csi\.k8s\.io_csi-hostpathplugin-0_[0-9a-f-]{36}$/);
    expect(eventsFor(e, 'web-data').find((x) => x.reason === 'ExternalProvisioning')!.message).toBe(
      "Waiting for a volume to be created either by the external provisioner 'hostpath.csi.k8s.io' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    );

    // The claim stays while its pod uses it; then Delete removes the PV and its volume.
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/persistentvolumeclaims/web-data').status).toBe(200);
    e.advance(10_000);
    expect(pvc(e, 'web-data').body.metadata.deletionTimestamp).toBeDefined();
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/pods/web').status).toBe(200);
    runUntil(e, () => pvc(e, 'web-data').status === 404, 'the claim gone', 60_000);
    runUntil(e, () => pv(e, name).status === 404, 'the PV deleted by the provisioner', 60_000);
  }, 90_000);

  it('Immediate: the CSI driver provisions at once on a Ready node, and the claim binds without a pod', () => {
    const e = controlPlane(10);
    createNode(e, { name: 'node-a' });
    const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'now' }, provisioner: 'hostpath.csi.k8s.io', volumeBindingMode: 'Immediate', reclaimPolicy: 'Retain' };
    expect(call(e, 'POST', '/apis/storage.k8s.io/v1/storageclasses', sc).status).toBe(201);
    expect(call(e, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('fast', { storageClassName: 'now' })).status).toBe(201);
    runUntil(e, () => pvc(e, 'fast').body.status.phase === 'Bound', 'the claim Bound', 30_000);
    const v = pv(e, pvc(e, 'fast').body.spec.volumeName).body;
    expect(v.spec.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(v.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(v.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values).toEqual(['node-a']);
  }, 60_000);
});
