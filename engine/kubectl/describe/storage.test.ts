import { describe, it, expect } from 'vitest';
import { accessModesString, describePersistentVolume, describePersistentVolumeClaim, podsUsingClaim } from './storage';

describe('describe pvc and pv', () => {
  it('lists the pods using a claim, sorted, and shows capacity only once bound', () => {
    const pvc = { metadata: { name: 'data', namespace: 'default', uid: 'u1', finalizers: ['kubernetes.io/pvc-protection'] }, spec: { storageClassName: 'standard', volumeMode: 'Filesystem', resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } };
    const pods = [
      { metadata: { name: 'web-1', uid: 'p1' }, spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } },
      { metadata: { name: 'other', uid: 'p2' }, spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'logs' } }] } },
      { metadata: { name: 'web-0', uid: 'p3' }, spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } },
    ];
    expect(describePersistentVolumeClaim(pvc, null, podsUsingClaim(pvc, pods), 0)).toBe(
      ['Name:          data', 'Namespace:     default', 'StorageClass:  standard', 'Status:        Pending', 'Volume:        ', 'Labels:        <none>', 'Annotations:   <none>', 'Finalizers:    [kubernetes.io/pvc-protection]', 'Capacity:      ', 'Access Modes:  ', 'VolumeMode:    Filesystem', 'Used By:       web-0', '               web-1', ''].join('\n'),
    );
    // A generic ephemeral volume's claim is its pod's.
    const eph = { metadata: { name: 'app-scratch', ownerReferences: [{ controller: true, uid: 'p9' }] } };
    expect(podsUsingClaim(eph, [{ metadata: { name: 'app', uid: 'p9' }, spec: { volumes: [{ name: 'scratch', ephemeral: {} }] } }])).toEqual(['app']);
  });

  it('prints node affinity terms and every CSI volume attribute', () => {
    const pv = {
      metadata: { name: 'pv1', finalizers: ['kubernetes.io/pv-protection'] },
      spec: {
        storageClassName: 'fast',
        claimRef: { namespace: 'ns', name: 'c' },
        persistentVolumeReclaimPolicy: 'Delete',
        accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'],
        capacity: { storage: '5Gi' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }, { key: 'gpu', operator: 'Exists' }] }] } },
        csi: { driver: 'd.example.com', volumeHandle: 'h1', fsType: 'ext4', volumeAttributes: { b: '2', a: '1' } },
      },
      status: { phase: 'Bound' },
    };
    const out = describePersistentVolume(pv, null, 0);
    expect(out).toContain('Access Modes:      RWO,RWOP\n');
    expect(out).toContain('Node Affinity:     \n  Required Terms:  \n    Term 0:        zone in [a, b]\n                   gpu exists\n');
    expect(out).toContain('    VolumeAttributes:      a=1\n                           b=2\n');
    expect(accessModesString(['ReadWriteMany', 'ReadOnlyMany'])).toBe('ROX,RWX');
  });
});
