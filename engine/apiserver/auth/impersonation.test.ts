import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../types';
import { authorize } from './authorizer';
import { bootstrapPolicy } from './bootstrap';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, user } from './bootstrapBuilders';
import { impersonate } from './impersonation';
import { MemoryCluster } from './testCluster';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
const admin: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

function cluster(): MemoryCluster {
  return new MemoryCluster([
    ...bootstrapPolicy(),
    // alice may impersonate bob and the group "devs", and set one extra.
    clusterRole({
      name: 'impersonator',
      rules: [
        rule(['impersonate'], [''], ['users'], ['bob']),
        rule(['impersonate'], [''], ['groups'], ['devs']),
        rule(['impersonate'], ['authentication.k8s.io'], ['userextras/scopes'], ['view']),
        rule(['impersonate'], ['authentication.k8s.io'], ['uids'], ['u-1']),
      ],
    }),
    clusterRoleBinding('impersonator', [user('alice')]),
    // and service accounts in team-a, through edit.
    { ...roleBinding('team-a', 'edit', [user('alice')], 'alice-edit'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' } },
    role('team-a', 'reader', [rule(['get'], [''], ['pods'])]),
    roleBinding('team-a', 'reader', [user('bob')]),
  ]);
}

describe('impersonation', () => {
  it('no headers → none', () => {
    expect(impersonate({ accept: 'application/json' }, alice, cluster())).toEqual({ type: 'none' });
  });

  it('allowed: the new user gets system:authenticated, groups and extras as asked', () => {
    const c = cluster();
    expect(impersonate({ 'impersonate-user': 'bob' }, alice, c)).toEqual({ type: 'impersonated', requestor: alice, user: { username: 'bob', groups: ['system:authenticated'] } });
    expect(impersonate({ 'impersonate-user': 'bob', 'impersonate-group': 'devs', 'impersonate-extra-scopes': 'view', 'impersonate-uid': 'u-1' }, alice, c)).toEqual({
      type: 'impersonated',
      requestor: alice,
      user: { username: 'bob', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['view'] } },
    });
    // The impersonated user is then authorized as itself.
    const r = impersonate({ 'impersonate-user': 'bob' }, alice, c);
    if (r.type !== 'impersonated') throw new Error(r.type);
    expect(authorize({ user: r.user, verb: 'get', isResourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'team-a', name: 'p' }, c).decision).toBe('Allow');
  });

  it('service accounts: edit lets one impersonate those of its namespace; SA groups are implied', () => {
    const c = cluster();
    expect(impersonate({ 'impersonate-user': 'system:serviceaccount:team-a:robot' }, alice, c)).toEqual({
      type: 'impersonated',
      requestor: alice,
      user: { username: 'system:serviceaccount:team-a:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'] },
    });
    const denied = impersonate({ 'impersonate-user': 'system:serviceaccount:team-b:robot' }, alice, c);
    expect(denied.type === 'forbidden' && denied.status.message).toBe(
      'serviceaccounts "robot" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team-b"',
    );
  });

  it('forbidden with upstream\'s message on the first disallowed request', () => {
    const c = cluster();
    const r1 = impersonate({ 'impersonate-user': 'carol' }, alice, c);
    expect(r1.type).toBe('forbidden');
    if (r1.type === 'forbidden') {
      expect(r1.status).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
        reason: 'Forbidden',
        details: { name: 'carol', kind: 'users' },
        code: 403,
      });
    }
    const r2 = impersonate({ 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' }, alice, c);
    expect(r2.type === 'forbidden' && r2.status.message).toBe(
      'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    const r3 = impersonate({ 'impersonate-user': 'bob', 'impersonate-extra-scopes': 'admin' }, alice, c);
    expect(r3.type === 'forbidden' && r3.status.message).toBe(
      'userextras.authentication.k8s.io "admin" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('explicit groups are the authority; anonymous gets system:unauthenticated', () => {
    const c = cluster();
    expect(impersonate({ 'impersonate-user': 'x', 'impersonate-group': ['g1', 'system:authenticated'] }, admin, c)).toMatchObject({
      type: 'impersonated',
      user: { username: 'x', groups: ['g1', 'system:authenticated'] },
    });
    expect(impersonate({ 'impersonate-user': 'system:serviceaccount:a:b', 'impersonate-group': 'g1, g2' }, admin, c)).toMatchObject({
      user: { username: 'system:serviceaccount:a:b', groups: ['g1', 'g2', 'system:authenticated'] },
    });
    expect(impersonate({ 'impersonate-user': 'system:anonymous' }, admin, c)).toMatchObject({ user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
  });

  it('groups without a user is a 500, as upstream answers it', () => {
    const r = impersonate({ 'impersonate-group': 'devs' }, admin, cluster(), '/api/v1/pods');
    expect(r.type).toBe('error');
    if (r.type === 'error') {
      expect(r.text).toBe('Internal Server Error: "/api/v1/pods": requested [{Group  devs    }] without impersonating a user');
      expect(r.status.code).toBe(500);
    }
  });
});
