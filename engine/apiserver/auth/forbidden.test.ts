import { describe, expect, it } from 'vitest';
import type { AuthorizationAttributes, UserInfo } from '../types';
import { authorize } from './authorizer';
import { bootstrapPolicy } from './bootstrap';
import { clusterRoleBinding, user } from './bootstrapBuilders';
import { forbiddenMessage, forbiddenStatus } from './forbidden';
import { MemoryCluster, node, pod } from './testCluster';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
const anonymous: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const res = (u: UserInfo, verb: string, resource: string, o: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: u,
  verb,
  isResourceRequest: true,
  apiGroup: '',
  apiVersion: 'v1',
  resource,
  ...o,
});

describe('forbidden messages (responsewriters.forbiddenMessage + apierrors.NewForbidden)', () => {
  const cases: [string, AuthorizationAttributes, string][] = [
    [
      'namespaced create, no name',
      res(alice, 'create', 'pods', { namespace: 'default' }),
      'pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default"',
    ],
    [
      'subresource; the name qualifies the resource, not the sentence',
      res(alice, 'get', 'pods', { namespace: 'default', name: 'web', subresource: 'log' }),
      'pods "web" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "default"',
    ],
    ['cluster scope', res(anonymous, 'list', 'nodes'), 'nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope'],
    [
      'named group resource',
      res(alice, 'delete', 'deployments', { apiGroup: 'apps', namespace: 'prod', name: 'web' }),
      'deployments.apps "web" is forbidden: User "alice" cannot delete resource "deployments" in API group "apps" in the namespace "prod"',
    ],
    [
      'cluster-scoped named',
      res(alice, 'get', 'clusterroles', { apiGroup: 'rbac.authorization.k8s.io', name: 'admin' }),
      'clusterroles.rbac.authorization.k8s.io "admin" is forbidden: User "alice" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
    ],
    ['non-resource path', { user: anonymous, verb: 'get', isResourceRequest: false, path: '/api' }, 'forbidden: User "system:anonymous" cannot get path "/api"'],
    ['HTML is defused', { user: alice, verb: 'get', isResourceRequest: false, path: '/<b>&' }, 'forbidden: User "alice" cannot get path "/&lt;b&gt;&amp;"'],
  ];
  it.each(cases)('%s', (_name, attrs, message) => {
    expect(forbiddenStatus(attrs, { reason: '' }).message).toBe(message);
  });

  it('the whole Status', () => {
    expect(forbiddenStatus(res(alice, 'get', 'deployments', { apiGroup: 'apps', namespace: 'prod', name: 'web' }), '')).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments" in API group "apps" in the namespace "prod"',
      reason: 'Forbidden',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
      code: 403,
    });
    expect(forbiddenStatus({ user: alice, verb: 'get', isResourceRequest: false, path: '/metrics' })).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'forbidden: User "alice" cannot get path "/metrics"',
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
    expect(forbiddenMessage(res(alice, 'watch', 'pods'))).toBe('User "alice" cannot watch resource "pods" in API group "" at the cluster scope');
  });

  it('appends the authorizers\' reason after ": "', () => {
    const c = new MemoryCluster([...bootstrapPolicy(), node('n1'), pod('default', 'web', { nodeName: 'n2' })]);
    const kubelet: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
    const attrs = res(kubelet, 'get', 'secrets', { namespace: 'default', name: 's' });
    expect(forbiddenStatus(attrs, authorize(attrs, c)).message).toBe(
      'secrets "s" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object',
    );
    const list = res(kubelet, 'list', 'pods');
    expect(forbiddenStatus(list, authorize(list, c)).message).toBe(
      'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
    );
    const broken = new MemoryCluster([clusterRoleBinding('gone', [user('alice')])]);
    const a2 = res(alice, 'list', 'pods', { namespace: 'default' });
    expect(forbiddenStatus(a2, authorize(a2, broken)).message).toBe(
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    );
  });
});
