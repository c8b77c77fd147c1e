import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import type { UserInfo } from '../types';
import { defaultAuthnConfig } from './authn';
import { bootstrapPolicy } from './bootstrap';
import { role, roleBinding, rule, user } from './bootstrapBuilders';
import { localSubjectAccessReview, review, selfSubjectAccessReview, selfSubjectReview, selfSubjectRulesReview, subjectAccessReview, tokenReview } from './reviews';
import { tokenRequest } from './tokenRequest';
import { MemoryCluster, node, pod, sa } from './testCluster';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
const kubelet: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

function cluster(): MemoryCluster {
  return new MemoryCluster([
    ...bootstrapPolicy(),
    role('team', 'pod-reader', [rule(['get', 'list'], [''], ['pods'])]),
    roleBinding('team', 'pod-reader', [user('alice')], 'alice-reads'),
    sa('team', 'robot'),
    node('n1'),
    pod('team', 'web', { serviceAccountName: 'robot', nodeName: 'n1' }),
  ]);
}

const body = (kind: string, spec: Record<string, unknown>, metadata: KObject['metadata'] = {}): KObject => ({ kind, apiVersion: 'authorization.k8s.io/v1', metadata, spec });

describe('access reviews', () => {
  it('SelfSubjectAccessReview: allowed with the RBAC reason; not allowed without one', () => {
    const c = cluster();
    const r = selfSubjectAccessReview(body('SelfSubjectAccessReview', { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'team' } }), alice, c);
    expect(r).toEqual({
      ok: true,
      object: {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: { resourceAttributes: { namespace: 'team', verb: 'list', resource: 'pods' } },
        status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-reads/team" of Role "pod-reader" to User "alice"' },
      },
    });
    const no = selfSubjectAccessReview(body('SelfSubjectAccessReview', { resourceAttributes: { verb: 'delete', resource: 'pods', namespace: 'team' } }), alice, c);
    expect(no.ok && no.object.status).toEqual({ allowed: false });
    const url = selfSubjectAccessReview(body('SelfSubjectAccessReview', { nonResourceAttributes: { path: '/healthz', verb: 'get' } }), alice, c);
    expect(url.ok && url.object.status).toEqual({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' });
  });

  it('rejects a spec with neither or both kinds of attributes', () => {
    const r = selfSubjectAccessReview(body('SelfSubjectAccessReview', {}), alice, cluster());
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.status.code).toBe(422);
      expect(r.status.message).toBe(
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      );
    }
  });

  it('SubjectAccessReview checks exactly the subject described (no implied groups)', () => {
    const c = cluster();
    const asAlice = subjectAccessReview(body('SubjectAccessReview', { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'team' } }), c);
    expect(asAlice.ok && asAlice.object.status).toMatchObject({ allowed: true });
    // Without system:authenticated, not even discovery is allowed.
    const bare = subjectAccessReview(body('SubjectAccessReview', { user: 'alice', nonResourceAttributes: { path: '/api', verb: 'get' } }), c);
    expect(bare.ok && bare.object.status).toEqual({ allowed: false });
    const withGroup = subjectAccessReview(body('SubjectAccessReview', { user: 'alice', groups: ['system:authenticated'], nonResourceAttributes: { path: '/api', verb: 'get' } }), c);
    expect(withGroup.ok && withGroup.object.status).toMatchObject({ allowed: true });
    const invalid = subjectAccessReview(body('SubjectAccessReview', { resourceAttributes: { verb: 'get', resource: 'pods' } }), c);
    expect(!invalid.ok && invalid.status.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
  });

  it('LocalSubjectAccessReview must stay in its namespace', () => {
    const c = cluster();
    const good = localSubjectAccessReview(body('LocalSubjectAccessReview', { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'team' } }, { namespace: 'team' }), 'team', c);
    expect(good.ok && good.object.metadata).toEqual({ namespace: 'team', creationTimestamp: null });
    expect(good.ok && good.object.status).toMatchObject({ allowed: true });
    const bad = localSubjectAccessReview(body('LocalSubjectAccessReview', { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } }, { namespace: 'team' }), 'team', c);
    expect(!bad.ok && bad.status.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    );
    const wrongUrl = localSubjectAccessReview(body('LocalSubjectAccessReview', { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'team' } }, { namespace: 'team' }), 'x', c);
    expect(!wrongUrl.ok && wrongUrl.status).toMatchObject({ code: 400, message: 'spec.resourceAttributes.namespace must match namespace: x' });
  });
});

describe('rules and identity reviews', () => {
  it('SelfSubjectRulesReview lists RBAC rules; nodes are incomplete', () => {
    const c = cluster();
    const r = selfSubjectRulesReview(body('SelfSubjectRulesReview', { namespace: 'team' }), alice, c);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const st = r.object.status as { resourceRules: unknown[]; nonResourceRules: unknown[]; incomplete: boolean };
    expect(st.incomplete).toBe(false);
    expect(st.resourceRules).toContainEqual({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] });
    expect(st.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(st.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
    expect(r.object.spec).toEqual({});

    const n = selfSubjectRulesReview(body('SelfSubjectRulesReview', { namespace: 'team' }), kubelet, c);
    expect(n.ok && n.object.status).toMatchObject({ incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
    const missing = selfSubjectRulesReview(body('SelfSubjectRulesReview', {}), alice, c);
    expect(!missing.ok && missing.status).toMatchObject({ code: 400, message: 'no namespace on request' });
  });

  it('SelfSubjectReview (kubectl auth whoami)', () => {
    expect(selfSubjectReview({ username: 'alice', uid: 'u1', groups: ['system:authenticated'], extra: { scopes: ['a'] } }, 5000)).toEqual({
      ok: true,
      object: {
        kind: 'SelfSubjectReview',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { creationTimestamp: '2025-01-01T00:00:05Z' },
        status: { userInfo: { username: 'alice', uid: 'u1', groups: ['system:authenticated'], extra: { scopes: ['a'] } } },
      },
    });
  });

  it('TokenRequest then TokenReview round trip', () => {
    const c = cluster();
    const authn = defaultAuthnConfig('seed');
    const tr = tokenRequest(
      { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: {}, spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'uid-pod-team-web' } } },
      'team',
      'robot',
      { cluster: c, config: authn.serviceAccounts, now: 0 },
    );
    expect(tr.ok).toBe(true);
    if (!tr.ok) return;
    expect(tr.object.metadata).toEqual({ name: 'robot', namespace: 'team', creationTimestamp: '2025-01-01T00:00:00Z' });
    expect(tr.object.spec).toMatchObject({ audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 });
    const st = tr.object.status as { token: string; expirationTimestamp: string };
    expect(st.expirationTimestamp).toBe('2025-01-01T01:00:00Z');

    const rev = review('tokenreviews', { kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: {}, spec: { token: st.token } }, alice, c, '', { now: 1000, authn });
    expect(rev?.ok && rev.object.status).toMatchObject({
      authenticated: true,
      user: { username: 'system:serviceaccount:team:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
    const badRev = tokenReview({ kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: {}, spec: { token: 'garbage' } }, authn, c, 0);
    expect(badRev.ok && badRev.object.status).toEqual({ authenticated: false, user: {}, error: 'invalid bearer token' });
  });

  it('TokenRequest refusals', () => {
    const c = cluster();
    const ctx = { cluster: c, config: defaultAuthnConfig(1).serviceAccounts, now: 0 };
    const tr = (spec: Record<string, unknown>, name = 'robot') => tokenRequest({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: {}, spec }, 'team', name, ctx);
    expect(tr({}, 'ghost')).toMatchObject({ ok: false, status: { code: 404, message: 'serviceaccounts "ghost" not found' } });
    expect(tr({ expirationSeconds: 60 })).toMatchObject({
      ok: false,
      status: { code: 422, message: 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes' },
    });
    expect(tr({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'stale' } })).toMatchObject({
      ok: false,
      status: { code: 409, message: 'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated' },
    });
    expect(tr({ boundObjectRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' } })).toMatchObject({
      ok: false,
      status: { code: 400, message: 'cannot bind token for serviceaccount "robot" to object of kind "Deployment"' },
    });
  });

  it('review() dispatches by resource and ignores others', () => {
    const c = cluster();
    const ctx = { now: 0, authn: defaultAuthnConfig(1) };
    expect(review('selfsubjectreviews', { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: {} }, alice, c, '', ctx)?.ok).toBe(true);
    expect(review('pods', body('Pod', {}), alice, c, '', ctx)).toBeUndefined();
  });
});
