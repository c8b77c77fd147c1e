import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { resourceFor } from '../registry/resources';
import type { AdmissionAttributes, UserInfo } from '../types';
import { authorize } from './authorizer';
import { bootstrapPolicy } from './bootstrap';
import { nodeAuthorize, type AttributesWithSelectors } from './node';
import { nodeRestrictionAdmit } from './nodeRestriction';
import { MemoryCluster, configMap, node, pod, sa, secret } from './testCluster';

const kubelet: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

function cluster(): MemoryCluster {
  return new MemoryCluster([
    ...bootstrapPolicy(),
    node('n1'),
    node('n2'),
    sa('app', 'web-sa'),
    secret('app', 'db-password'),
    secret('app', 'pull'),
    secret('app', 'other'),
    configMap('app', 'settings'),
    configMap('app', 'elsewhere'),
    pod('app', 'web', {
      nodeName: 'n1',
      serviceAccountName: 'web-sa',
      imagePullSecrets: [{ name: 'pull' }],
      containers: [{ name: 'c', image: 'x', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db-password', key: 'p' } } }], envFrom: [{ configMapRef: { name: 'settings' } }] }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    }),
    pod('app', 'far', { nodeName: 'n2', volumes: [{ name: 'cfg', configMap: { name: 'elsewhere' } }] }),
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { namespace: 'app', name: 'data' }, spec: { volumeName: 'pv-1' } },
    { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-1' }, spec: { claimRef: { namespace: 'app', name: 'data' } } },
    { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-2' }, spec: {} },
  ]);
}

const attrs = (verb: string, resource: string, o: Partial<AttributesWithSelectors> = {}): AttributesWithSelectors => ({
  user: kubelet,
  verb,
  isResourceRequest: true,
  apiGroup: '',
  resource,
  ...o,
});

describe('Node authorizer', () => {
  const c = cluster();
  const decide = (a: AttributesWithSelectors) => authorize(a, c);

  it('reads what its pods reference, nothing else', () => {
    expect(decide(attrs('get', 'secrets', { namespace: 'app', name: 'db-password' })).decision).toBe('Allow');
    expect(decide(attrs('get', 'secrets', { namespace: 'app', name: 'pull' })).decision).toBe('Allow');
    expect(decide(attrs('watch', 'configmaps', { namespace: 'app', name: 'settings' })).decision).toBe('Allow');
    expect(decide(attrs('get', 'persistentvolumeclaims', { namespace: 'app', name: 'data' })).decision).toBe('Allow');
    expect(decide(attrs('get', 'persistentvolumes', { name: 'pv-1' })).decision).toBe('Allow');
    expect(decide(attrs('create', 'serviceaccounts', { namespace: 'app', name: 'web-sa', subresource: 'token' })).decision).toBe('Allow');
    expect(decide(attrs('get', 'pods', { namespace: 'app', name: 'web' })).decision).toBe('Allow');

    expect(decide(attrs('get', 'secrets', { namespace: 'app', name: 'other' }))).toEqual({ decision: 'NoOpinion', reason: "no relationship found between node 'n1' and this object" });
    expect(decide(attrs('get', 'configmaps', { namespace: 'app', name: 'elsewhere' })).decision).toBe('NoOpinion');
    expect(decide(attrs('get', 'persistentvolumes', { name: 'pv-2' })).decision).toBe('NoOpinion');
    expect(decide(attrs('get', 'pods', { namespace: 'app', name: 'far' })).decision).toBe('NoOpinion');
    expect(decide(attrs('list', 'secrets', { namespace: 'app' }))).toEqual({ decision: 'NoOpinion', reason: 'No Object name found' });
    expect(decide(attrs('update', 'secrets', { namespace: 'app', name: 'db-password' }))).toEqual({ decision: 'NoOpinion', reason: 'can only read resources of this type' });
    expect(decide(attrs('list', 'persistentvolumeclaims', { namespace: 'app' }))).toEqual({ decision: 'NoOpinion', reason: 'can only get individual resources of this type' });
  });

  it('its own Node, Lease and pods by field selector', () => {
    expect(decide(attrs('get', 'nodes', { name: 'n1' })).decision).toBe('Allow');
    expect(decide(attrs('patch', 'nodes', { name: 'n1', subresource: 'status' })).decision).toBe('Allow');
    expect(decide(attrs('get', 'nodes', { name: 'n2' }))).toEqual({ decision: 'NoOpinion', reason: "node 'n1' cannot read 'n2', only its own Node object" });
    expect(decide(attrs('list', 'nodes'))).toEqual({ decision: 'NoOpinion', reason: "node 'n1' cannot read all nodes, only its own Node object" });
    expect(decide(attrs('update', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n1' })).decision).toBe('Allow');
    expect(decide(attrs('update', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n2' })).reason).toBe(
      'can only access node lease with the same name as the requesting node',
    );
    expect(decide(attrs('create', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'default' })).reason).toBe('can only access leases in the "kube-node-lease" system namespace');
    expect(decide(attrs('watch', 'pods', { fieldSelector: 'spec.nodeName=n1' })).decision).toBe('Allow');
    expect(decide(attrs('watch', 'pods', { fieldSelector: 'spec.nodeName=n2' })).decision).toBe('NoOpinion');
    expect(decide(attrs('update', 'pods', { namespace: 'app', name: 'web', subresource: 'status' })).decision).toBe('Allow');
  });

  it('other resources follow the static node rules', () => {
    expect(decide(attrs('list', 'services')).decision).toBe('Allow');
    expect(decide(attrs('create', 'events', { namespace: 'app' })).decision).toBe('Allow');
    expect(decide(attrs('create', 'tokenreviews', { apiGroup: 'authentication.k8s.io' })).decision).toBe('Allow');
    expect(decide(attrs('list', 'deployments', { apiGroup: 'apps' })).decision).toBe('NoOpinion');
  });

  it('has no opinion about anyone else, nor about a node without the nodes group', () => {
    expect(nodeAuthorize({ ...attrs('get', 'secrets', { namespace: 'app', name: 'pull' }), user: { username: 'alice', groups: [] } }, c)).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(nodeAuthorize({ ...attrs('get', 'secrets', { namespace: 'app', name: 'pull' }), user: { username: 'system:node:n1', groups: [] } }, c).reason).toBe('');
  });
});

describe('NodeRestriction admission', () => {
  const c = cluster();
  const podsR = resourceFor('', 'pods')!;
  const nodesR = resourceFor('', 'nodes')!;
  const adm = (o: Partial<AdmissionAttributes>): AdmissionAttributes => ({
    operation: 'CREATE',
    resource: podsR,
    subresource: '',
    namespace: 'app',
    name: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    object: null,
    oldObject: null,
    userInfo: kubelet,
    dryRun: false,
    options: {},
    now: 0,
    ...o,
  });
  const mirror = (extra: Partial<KObject['metadata']> = {}, spec: Record<string, unknown> = {}): KObject => {
    const p = pod('app', 'static-web', { nodeName: 'n1', ...spec });
    p.metadata = {
      ...p.metadata,
      annotations: { 'kubernetes.io/config.mirror': 'hash' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-node-n1', controller: true }],
      ...extra,
    };
    return p;
  };
  const message = (v: ReturnType<typeof nodeRestrictionAdmit>) => (v.allowed ? 'allowed' : v.status.message);

  it('mirror pods only, bound to and owned by the node, referencing nothing', () => {
    expect(message(nodeRestrictionAdmit(adm({ object: mirror() }), c))).toBe('allowed');
    expect(message(nodeRestrictionAdmit(adm({ object: pod('app', 'x', { nodeName: 'n1' }) }), c))).toBe(
      'pods "x" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
    );
    expect(message(nodeRestrictionAdmit(adm({ object: mirror({}, { nodeName: 'n2' }) }), c))).toBe(
      'pods "static-web" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
    );
    expect(message(nodeRestrictionAdmit(adm({ object: mirror({}, { volumes: [{ name: 's', secret: { secretName: 'pull' } }] }) }), c))).toBe(
      'pods "static-web" is forbidden: node "n1" can not create pods that reference secrets',
    );
  });

  it('deletes and status updates only for its own pods', () => {
    expect(message(nodeRestrictionAdmit(adm({ operation: 'DELETE', name: 'far' }), c))).toBe('pods "far" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
    expect(message(nodeRestrictionAdmit(adm({ operation: 'DELETE', name: 'web' }), c))).toBe('allowed');
    const far = c.get('', 'pods', 'app', 'far')!;
    expect(message(nodeRestrictionAdmit(adm({ operation: 'UPDATE', subresource: 'status', name: 'far', object: far, oldObject: far }), c))).toBe(
      'pods "far" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
    );
  });

  it('its own Node only, with no new restricted labels and untouched taints', () => {
    const n1 = c.get('', 'nodes', undefined, 'n1')!;
    expect(message(nodeRestrictionAdmit(adm({ operation: 'UPDATE', resource: nodesR, namespace: '', name: 'n2', object: n1, oldObject: n1 }), c))).toBe(
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    );
    const labelled = { ...n1, metadata: { ...n1.metadata, labels: { 'node-role.kubernetes.io/control-plane': '', 'topology.kubernetes.io/zone': 'a' } } };
    expect(message(nodeRestrictionAdmit(adm({ operation: 'UPDATE', resource: nodesR, namespace: '', name: 'n1', object: labelled, oldObject: n1 }), c))).toBe(
      'nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane',
    );
    const tainted = { ...n1, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } };
    expect(message(nodeRestrictionAdmit(adm({ operation: 'UPDATE', resource: nodesR, namespace: '', name: 'n1', object: n1, oldObject: tainted }), c))).toBe(
      'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
    );
  });

  it('leaves everyone else alone', () => {
    expect(nodeRestrictionAdmit(adm({ userInfo: { username: 'alice', groups: [] }, object: pod('app', 'x') }), c).allowed).toBe(true);
  });
});
