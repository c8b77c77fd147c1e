// kube-apiserver keeps a bearer token's successful authentication for 10 s
// (the token cache over the token authenticators), so a deleted
// ServiceAccount's token still works until the entry expires.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';

describe('token cache', () => {
  it('keeps a successful authentication for 10 s, then verifies the token again', () => {
    const e = controlPlane(61);
    expect(call(e, 'POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'robot' } }).status).toBe(201);
    const tr = call(e, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [] } });
    expect(tr.status).toBe(201);
    const token = tr.body.status.token as string;
    const whoami = () => call(e, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { token });
    expect(whoami().body.status.userInfo.username).toBe('system:serviceaccount:default:robot');
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/robot').status).toBe(200);
    e.advance(1000);
    expect(whoami().status).toBe(201);
    e.advance(10_000);
    expect(whoami().status).toBe(401);
  });
});
