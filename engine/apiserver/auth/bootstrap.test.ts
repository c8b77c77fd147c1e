import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import type { AuthorizationAttributes, UserInfo } from '../types';
import { aggregateClusterRoles, aggregatedRules, labelSelectorMatches } from './aggregation';
import { authorize } from './authorizer';
import { bootstrapPolicy } from './bootstrap';
import { clusterRole, clusterRoleBinding, roleBinding, rule, user } from './bootstrapBuilders';
import { rulesOf } from './rbacTypes';
import { MemoryCluster } from './testCluster';

const policy = bootstrapPolicy();
const byName = (kind: string, name: string, namespace?: string): KObject =>
  policy.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace)!;

function clusterWith(...extra: KObject[]): MemoryCluster {
  return new MemoryCluster([...policy, ...extra]);
}

const scheduler: UserInfo = { username: 'system:kube-scheduler', groups: ['system:authenticated'] };
const kcm: UserInfo = { username: 'system:kube-controller-manager', groups: ['system:authenticated'] };
const proxy: UserInfo = { username: 'system:kube-proxy', groups: ['system:authenticated'] };
const anonymous: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
const controllerSA = (name: string): UserInfo => ({
  username: `system:serviceaccount:kube-system:${name}`,
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
});

const can = (c: MemoryCluster, u: UserInfo, verb: string, resource: string, o: Partial<AuthorizationAttributes> = {}) =>
  authorize({ user: u, verb, isResourceRequest: true, apiGroup: '', resource, ...o }, c).decision === 'Allow';
const canPath = (c: MemoryCluster, u: UserInfo, verb: string, path: string) => authorize({ user: u, verb, isResourceRequest: false, path }, c).decision === 'Allow';

describe('bootstrap policy objects', () => {
  it('every object carries the bootstrapping label and autoupdate annotation; names are unique', () => {
    const keys = new Set<string>();
    for (const o of policy) {
      expect(o.apiVersion).toBe('rbac.authorization.k8s.io/v1');
      expect(o.metadata.labels?.['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(o.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
      const key = `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      expect(keys.has(key), key).toBe(false);
      keys.add(key);
    }
    const count = (kind: string) => policy.filter((o) => o.kind === kind).length;
    expect({ ClusterRole: count('ClusterRole'), ClusterRoleBinding: count('ClusterRoleBinding'), Role: count('Role'), RoleBinding: count('RoleBinding') }).toEqual({
      ClusterRole: 31 + 34,
      ClusterRoleBinding: 12 + 34,
      Role: 7,
      RoleBinding: 7,
    });
  });

  it('has the bindings of v1.32', () => {
    const subjects = (name: string) => byName('ClusterRoleBinding', name).subjects;
    expect(subjects('cluster-admin')).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }]);
    expect(subjects('system:discovery')).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }]);
    expect(subjects('system:public-info-viewer')).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' },
    ]);
    expect(subjects('system:node')).toBeUndefined();
    expect(subjects('system:controller:deployment-controller')).toEqual([{ kind: 'ServiceAccount', name: 'deployment-controller', namespace: 'kube-system' }]);
    expect(byName('Role', 'extension-apiserver-authentication-reader', 'kube-system').rules).toEqual([
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'] },
    ]);
  });

  it('lists in rules are sorted like PolicyRuleBuilder output', () => {
    expect(rulesOf(byName('ClusterRole', 'system:kube-scheduler'))[0]).toEqual({ verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] });
  });
});

describe('aggregation', () => {
  it('view/edit/admin are filled from the aggregate-to-* roles, transitively, in name order', () => {
    const view = rulesOf(byName('ClusterRole', 'view'));
    const edit = rulesOf(byName('ClusterRole', 'edit'));
    const admin = rulesOf(byName('ClusterRole', 'admin'));
    expect(view).toEqual(rulesOf(byName('ClusterRole', 'system:aggregate-to-view')));
    // edit selects system:aggregate-to-edit and view (sorted by name).
    expect(edit).toEqual([...rulesOf(byName('ClusterRole', 'system:aggregate-to-edit')), ...view]);
    // admin selects edit and system:aggregate-to-admin.
    expect(admin).toEqual([...edit, ...rulesOf(byName('ClusterRole', 'system:aggregate-to-admin'))]);
  });

  it('unaggregated objects are as the apiserver first writes them', () => {
    const raw = bootstrapPolicy({ aggregated: false }).find((o) => o.metadata.name === 'admin')!;
    expect(raw.rules).toEqual([]);
    expect(raw.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
  });

  it('a new labelled role joins the aggregate; duplicates are dropped', () => {
    const extra = clusterRole({ name: 'crd-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, rules: [rule(['get'], ['example.com'], ['widgets']), rule(['get'], [''], ['pods'])] });
    const dup = clusterRole({ name: 'a-dup', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, rules: [rule(['get'], ['example.com'], ['widgets'])] });
    const roles = aggregateClusterRoles([...bootstrapPolicy({ aggregated: false }).filter((o) => o.kind === 'ClusterRole'), extra, dup]);
    const view = rulesOf(roles.find((r) => r.metadata.name === 'view')!);
    expect(view[0]).toEqual(rule(['get'], ['example.com'], ['widgets'])); // from a-dup, first by name
    expect(view.filter((r) => r.apiGroups?.[0] === 'example.com')).toHaveLength(1);
    const admin = rulesOf(roles.find((r) => r.metadata.name === 'admin')!);
    expect(admin).toContainEqual(rule(['get'], ['example.com'], ['widgets']));
    expect(aggregatedRules(byName('ClusterRole', 'cluster-admin'), roles)).toBeUndefined();
  });

  it('label selectors: matchLabels and matchExpressions', () => {
    expect(labelSelectorMatches({}, {})).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { a: '1' } }, { a: '1', b: '2' })).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { a: '1' } }, { a: '2' })).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '2'] }] }, { a: '2' })).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, {})).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, {})).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, { a: 'x' })).toBe(false);
  });
});

describe('what the default policy allows', () => {
  const c = clusterWith();

  it('the scheduler can do its job', () => {
    expect(can(c, scheduler, 'create', 'pods', { namespace: 'default', name: 'web', subresource: 'binding' })).toBe(true);
    expect(can(c, scheduler, 'create', 'bindings', { namespace: 'default' })).toBe(true);
    expect(can(c, scheduler, 'list', 'nodes')).toBe(true);
    expect(can(c, scheduler, 'watch', 'pods')).toBe(true);
    expect(can(c, scheduler, 'patch', 'pods', { namespace: 'default', name: 'web', subresource: 'status' })).toBe(true);
    expect(can(c, scheduler, 'delete', 'pods', { namespace: 'default', name: 'web' })).toBe(true); // preemption
    expect(can(c, scheduler, 'create', 'events', { namespace: 'default', apiGroup: 'events.k8s.io' })).toBe(true);
    expect(can(c, scheduler, 'create', 'leases', { namespace: 'kube-system', apiGroup: 'coordination.k8s.io' })).toBe(true);
    expect(can(c, scheduler, 'update', 'leases', { namespace: 'kube-system', apiGroup: 'coordination.k8s.io', name: 'kube-scheduler' })).toBe(true);
    expect(can(c, scheduler, 'list', 'poddisruptionbudgets', { apiGroup: 'policy' })).toBe(true);
    expect(can(c, scheduler, 'watch', 'csinodes', { apiGroup: 'storage.k8s.io' })).toBe(true);
    expect(can(c, scheduler, 'update', 'persistentvolumes', { name: 'pv1' })).toBe(true); // system:volume-scheduler
  });

  it('and nothing more', () => {
    // Outside kube-system (where its leader-locking Role applies) only the lease named kube-scheduler.
    expect(can(c, scheduler, 'update', 'leases', { namespace: 'default', apiGroup: 'coordination.k8s.io', name: 'kube-controller-manager' })).toBe(false);
    expect(can(c, scheduler, 'update', 'leases', { namespace: 'default', apiGroup: 'coordination.k8s.io', name: 'kube-scheduler' })).toBe(true);
    expect(can(c, scheduler, 'get', 'secrets', { namespace: 'default', name: 's' })).toBe(false);
    expect(can(c, scheduler, 'create', 'pods', { namespace: 'default' })).toBe(false);
    expect(can(c, scheduler, 'update', 'nodes', { name: 'n1' })).toBe(false);
    expect(can(c, scheduler, 'create', 'deployments', { apiGroup: 'apps', namespace: 'default' })).toBe(false);
  });

  it('controllers run with their own service accounts', () => {
    expect(can(c, controllerSA('deployment-controller'), 'create', 'replicasets', { apiGroup: 'apps', namespace: 'default' })).toBe(true);
    expect(can(c, controllerSA('deployment-controller'), 'create', 'pods', { namespace: 'default' })).toBe(false);
    expect(can(c, controllerSA('replicaset-controller'), 'create', 'pods', { namespace: 'default' })).toBe(true);
    expect(can(c, controllerSA('disruption-controller'), 'get', 'statefulsets', { apiGroup: 'apps', subresource: 'scale', namespace: 'x', name: 'db' })).toBe(true);
    expect(can(c, controllerSA('generic-garbage-collector'), 'delete', 'widgets', { apiGroup: 'example.com', namespace: 'x', name: 'w' })).toBe(true);
    expect(can(c, controllerSA('namespace-controller'), 'deletecollection', 'configmaps', { namespace: 'x' })).toBe(true);
    expect(can(c, kcm, 'list', 'secrets')).toBe(true);
    expect(can(c, kcm, 'update', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-system', name: 'kube-controller-manager' })).toBe(true);
  });

  it('kube-proxy reads services and endpointslices', () => {
    expect(can(c, proxy, 'watch', 'endpointslices', { apiGroup: 'discovery.k8s.io' })).toBe(true);
    expect(can(c, proxy, 'list', 'services')).toBe(true);
    expect(can(c, proxy, 'list', 'pods')).toBe(false);
  });

  it('view cannot read secrets, edit can, admin can also grant roles', () => {
    const cc = clusterWith(
      roleBinding('team', 'view', [user('viewer')], 'v'),
      roleBinding('team', 'edit', [user('editor')], 'e'),
      roleBinding('team', 'admin', [user('boss')], 'a'),
    );
    for (const b of cc.list('rbac.authorization.k8s.io', 'rolebindings', 'team')) (b.roleRef as { kind: string }).kind = 'ClusterRole';
    const viewer = { username: 'viewer', groups: ['system:authenticated'] };
    const editor = { username: 'editor', groups: ['system:authenticated'] };
    const boss = { username: 'boss', groups: ['system:authenticated'] };
    const ns = { namespace: 'team' };
    expect(can(cc, viewer, 'list', 'pods', ns)).toBe(true);
    expect(can(cc, viewer, 'get', 'pods', { ...ns, subresource: 'log', name: 'p' })).toBe(true);
    expect(can(cc, viewer, 'get', 'secrets', { ...ns, name: 's' })).toBe(false);
    expect(can(cc, viewer, 'create', 'pods', ns)).toBe(false);
    expect(can(cc, editor, 'get', 'secrets', { ...ns, name: 's' })).toBe(true);
    expect(can(cc, editor, 'create', 'deployments', { ...ns, apiGroup: 'apps' })).toBe(true);
    expect(can(cc, editor, 'update', 'deployments', { ...ns, apiGroup: 'apps', subresource: 'scale', name: 'd' })).toBe(true);
    expect(can(cc, editor, 'list', 'pods', ns)).toBe(true); // via view
    expect(can(cc, editor, 'create', 'rolebindings', { ...ns, apiGroup: 'rbac.authorization.k8s.io' })).toBe(false);
    expect(can(cc, boss, 'create', 'rolebindings', { ...ns, apiGroup: 'rbac.authorization.k8s.io' })).toBe(true);
    expect(can(cc, boss, 'delete', 'secrets', { ...ns, name: 's' })).toBe(true);
    // Only in their namespace.
    expect(can(cc, boss, 'list', 'pods', { namespace: 'elsewhere' })).toBe(false);
  });

  it('anonymous may see health and version, not the API; authenticated users may discover', () => {
    for (const p of ['/healthz', '/livez', '/readyz', '/version']) expect(canPath(c, anonymous, 'get', p)).toBe(true);
    expect(canPath(c, anonymous, 'get', '/api')).toBe(false);
    expect(canPath(c, anonymous, 'get', '/metrics')).toBe(false);
    expect(canPath(c, alice, 'get', '/apis/apps/v1')).toBe(true);
    expect(canPath(c, alice, 'get', '/openapi/v3')).toBe(true);
    expect(canPath(c, alice, 'post', '/api')).toBe(false);
    expect(can(c, alice, 'create', 'selfsubjectaccessreviews', { apiGroup: 'authorization.k8s.io' })).toBe(true);
    expect(can(c, alice, 'create', 'selfsubjectreviews', { apiGroup: 'authentication.k8s.io' })).toBe(true);
    expect(can(c, alice, 'list', 'pods', { namespace: 'default' })).toBe(false);
  });

  it('system:masters may do anything, decided before RBAC', () => {
    const admin: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
    expect(authorize({ user: admin, verb: 'delete', isResourceRequest: true, apiGroup: 'x.io', resource: 'y', namespace: 'z', name: 'n' }, new MemoryCluster())).toEqual({
      decision: 'Allow',
      reason: '',
      authorizer: 'PrivilegedGroups',
    });
    // Another member of cluster-admin's subjects gets the RBAC reason.
    const cc = clusterWith(clusterRoleBinding('cluster-admin', [user('root')], 'root-admin'));
    expect(authorize({ user: { username: 'root', groups: [] }, verb: 'get', isResourceRequest: false, path: '/x' }, cc)).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "root-admin" of ClusterRole "cluster-admin" to User "root"',
      authorizer: 'RBAC',
    });
  });
});
