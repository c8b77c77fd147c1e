import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import type { AuthorizationAttributes, UserInfo } from '../types';
import { clusterRole, clusterRoleBinding, group, role, roleBinding, rule, serviceAccount, urlRule, user } from './bootstrapBuilders';
import { rbacAuthorize, rbacRulesFor, ruleAllows } from './rbac';
import type { PolicyRule } from './rbacTypes';
import { MemoryCluster } from './testCluster';

const alice: UserInfo = { username: 'alice', groups: ['dev', 'system:authenticated'] };
const res = (verb: string, resource: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: alice,
  verb,
  isResourceRequest: true,
  apiGroup: '',
  resource,
  ...extra,
});
const path = (verb: string, p: string): AuthorizationAttributes => ({ user: alice, verb, isResourceRequest: false, path: p });

describe('rule matching (evaluation_helpers.go)', () => {
  const cases: [string, PolicyRule, AuthorizationAttributes, boolean][] = [
    ['exact verb/group/resource', rule(['get'], [''], ['pods']), res('get', 'pods'), true],
    ['other verb', rule(['get'], [''], ['pods']), res('list', 'pods'), false],
    ['verb *', rule(['*'], [''], ['pods']), res('deletecollection', 'pods'), true],
    ['other group', rule(['get'], ['apps'], ['pods']), res('get', 'pods'), false],
    ['group *', rule(['get'], ['*'], ['deployments']), res('get', 'deployments', { apiGroup: 'apps' }), true],
    ['resource * covers subresources', rule(['get'], [''], ['*']), res('get', 'pods', { subresource: 'log' }), true],
    ['pods does not cover pods/status', rule(['update'], [''], ['pods']), res('update', 'pods', { subresource: 'status' }), false],
    ['pods/status', rule(['update'], [''], ['pods/status']), res('update', 'pods', { subresource: 'status' }), true],
    ['pods/status does not cover pods', rule(['update'], [''], ['pods/status']), res('update', 'pods'), false],
    ['*/scale', rule(['get'], ['*'], ['*/scale']), res('get', 'deployments', { apiGroup: 'apps', subresource: 'scale' }), true],
    ['*/scale is not */status', rule(['get'], ['*'], ['*/scale']), res('get', 'deployments', { apiGroup: 'apps', subresource: 'status' }), false],
    ['*/scale needs a subresource', rule(['get'], ['*'], ['*/scale']), res('get', 'deployments', { apiGroup: 'apps' }), false],
    ['resourceNames match', rule(['get'], [''], ['configmaps'], ['a']), res('get', 'configmaps', { name: 'a' }), true],
    ['resourceNames miss', rule(['get'], [''], ['configmaps'], ['a']), res('get', 'configmaps', { name: 'b' }), false],
    ['resourceNames never match list', rule(['list'], [''], ['configmaps'], ['a']), res('list', 'configmaps'), false],
    ['URL exact', urlRule(['get'], ['/healthz']), path('get', '/healthz'), true],
    ['URL no prefix without *', urlRule(['get'], ['/healthz']), path('get', '/healthz/etcd'), false],
    ['URL trailing *', urlRule(['get'], ['/apis/*']), path('get', '/apis/apps/v1'), true],
    ['URL *', urlRule(['get'], ['*']), path('get', '/anything'), true],
    ['URL rule never matches resources', urlRule(['*'], ['*']), res('get', 'pods'), false],
    ['resource rule never matches URLs', rule(['*'], ['*'], ['*']), path('get', '/healthz'), false],
  ];
  it.each(cases)('%s', (_name, r, attrs, want) => {
    expect(ruleAllows(attrs, r)).toBe(want);
  });
});

function cluster(...objs: KObject[]): MemoryCluster {
  return new MemoryCluster(objs);
}

describe('RBAC authorizer', () => {
  it('allows through a ClusterRoleBinding to a group, naming it in the reason', () => {
    const c = cluster(clusterRole({ name: 'reader', rules: [rule(['get', 'list'], [''], ['pods'])] }), clusterRoleBinding('reader', [group('dev')], 'dev-readers'));
    expect(rbacAuthorize(res('list', 'pods', { namespace: 'x' }), c)).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "dev-readers" of ClusterRole "reader" to Group "dev"',
    });
    expect(rbacAuthorize(res('delete', 'pods', { namespace: 'x' }), c)).toEqual({ decision: 'NoOpinion', reason: '' });
  });

  it('RoleBindings apply only in their namespace and print as name/namespace', () => {
    const c = cluster(
      role('team-a', 'pod-reader', [rule(['get'], [''], ['pods'])]),
      roleBinding('team-a', 'pod-reader', [user('alice')], 'read-pods'),
    );
    expect(rbacAuthorize(res('get', 'pods', { namespace: 'team-a', name: 'p' }), c)).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "read-pods/team-a" of Role "pod-reader" to User "alice"',
    });
    expect(rbacAuthorize(res('get', 'pods', { namespace: 'team-b', name: 'p' }), c).decision).toBe('NoOpinion');
    expect(rbacAuthorize(res('get', 'pods', { name: 'p' }), c).decision).toBe('NoOpinion');
  });

  it('a RoleBinding to a ClusterRole grants it only in that namespace', () => {
    const c = cluster(clusterRole({ name: 'edit-ish', rules: [rule(['create'], [''], ['configmaps'])] }), {
      ...roleBinding('team-a', 'edit-ish', [user('alice')], 'alice-edit'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit-ish' },
    });
    expect(rbacAuthorize(res('create', 'configmaps', { namespace: 'team-a' }), c).reason).toBe('RBAC: allowed by RoleBinding "alice-edit/team-a" of ClusterRole "edit-ish" to User "alice"');
    expect(rbacAuthorize(res('create', 'configmaps', { namespace: 'team-b' }), c).decision).toBe('NoOpinion');
  });

  it('ServiceAccount subjects: namespace defaults to the binding namespace', () => {
    const robot: UserInfo = { username: 'system:serviceaccount:team-a:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'] };
    const c = cluster(role('team-a', 'r', [rule(['get'], [''], ['secrets'])]), roleBinding('team-a', 'r', [{ kind: 'ServiceAccount', name: 'robot' }], 'b'));
    expect(rbacAuthorize({ ...res('get', 'secrets', { namespace: 'team-a', name: 's' }), user: robot }, c).reason).toBe(
      'RBAC: allowed by RoleBinding "b/team-a" of Role "r" to ServiceAccount "robot/team-a"',
    );
    const c2 = cluster(clusterRole({ name: 'x', rules: [rule(['get'], [''], ['nodes'])] }), clusterRoleBinding('x', [serviceAccount('team-a', 'robot')]));
    expect(rbacAuthorize({ ...res('get', 'nodes'), user: robot }, c2).reason).toBe('RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "x" to ServiceAccount "robot/team-a"');
  });

  it('a binding to a missing role explains itself in the NoOpinion reason', () => {
    const c = cluster(clusterRoleBinding('ghost', [user('alice')]), roleBinding('ns1', 'gone', [group('dev')], 'b2'));
    expect(rbacAuthorize(res('get', 'pods', { namespace: 'ns1' }), c)).toEqual({
      decision: 'NoOpinion',
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "gone" not found]',
    });
    expect(rbacAuthorize(res('get', 'pods'), c)).toEqual({ decision: 'NoOpinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found' });
  });

  it('rulesFor lists every applying rule, cluster-wide first', () => {
    const c = cluster(
      clusterRole({ name: 'a', rules: [rule(['get'], [''], ['nodes'])] }),
      clusterRoleBinding('a', [group('dev')]),
      role('ns1', 'b', [rule(['list'], [''], ['pods'])]),
      roleBinding('ns1', 'b', [user('alice')]),
      clusterRole({ name: 'unrelated', rules: [rule(['*'], ['*'], ['*'])] }),
      clusterRoleBinding('unrelated', [user('bob')]),
    );
    expect(rbacRulesFor(alice, 'ns1', c)).toEqual({ rules: [rule(['get'], [''], ['nodes']), rule(['list'], [''], ['pods'])], errors: [] });
    expect(rbacRulesFor(alice, 'other', c).rules).toEqual([rule(['get'], [''], ['nodes'])]);
  });
});
