import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { cloneState } from '../../sim/serial';
import { base64Decode } from '../../sim/base64';
import { parseJwt } from '../../apiserver/auth/jwt';
import { call, controlPlane, runUntil } from '../../scheduler/testing/cluster';
import { ANN_SERVICE_ACCOUNT_NAME, ANN_SERVICE_ACCOUNT_UID, SERVICE_ACCOUNT_TOKEN_TYPE, TokensController } from './tokens';

const text = (b64: string) => new TextDecoder().decode(base64Decode(b64)!);

const sa = (name: string, uid = `uid-${name}`, extra: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'default', uid, resourceVersion: '5' }, ...extra });

function tokenSecret(name: string, account: string, extra: { uid?: string; data?: Record<string, string>; rv?: string } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: SERVICE_ACCOUNT_TOKEN_TYPE,
    metadata: { name, namespace: 'default', uid: `uid-secret-${name}`, resourceVersion: extra.rv ?? '7', annotations: { [ANN_SERVICE_ACCOUNT_NAME]: account, ...(extra.uid ? { [ANN_SERVICE_ACCOUNT_UID]: extra.uid } : {}) } },
    ...(extra.data ? { data: extra.data } : {}),
  } as KObject;
}

describe('TokensController (tokens_controller_test.go)', () => {
  it('fills token, ca.crt and namespace from a fresh copy, and sets the uid annotation', () => {
    const c = new TokensController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'serviceaccounts', sa('build'));
    const secret = tokenSecret('build-token', 'build');
    ctx.upsert(c, 'secrets', secret);
    ctx.drain(c);
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['GET', '/api/v1/namespaces/default/secrets/build-token']]);
    ctx.respond(c, 200, secret);
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['PUT', '/api/v1/namespaces/default/secrets/build-token']]);
    const put = ctx.calls[0]!.call.body as any;
    expect(text(put.data.namespace)).toBe('default');
    expect(text(put.data['ca.crt'])).toContain('BEGIN CERTIFICATE');
    const jwt = parseJwt(text(put.data.token));
    expect(jwt.type).toBe('parsed');
    expect((jwt as any).claims).toMatchObject({ iss: 'kubernetes/serviceaccount', sub: 'system:serviceaccount:default:build', 'kubernetes.io/serviceaccount/secret.name': 'build-token', 'kubernetes.io/serviceaccount/service-account.uid': 'uid-build' });
    expect(put.metadata.annotations[ANN_SERVICE_ACCOUNT_UID]).toBe('uid-build');
  });

  it('does not write when the live copy is newer than the cache (its update event comes back)', () => {
    const c = new TokensController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'serviceaccounts', sa('build'));
    ctx.upsert(c, 'secrets', tokenSecret('t', 'build'));
    ctx.drain(c);
    ctx.respond(c, 200, tokenSecret('t', 'build', { rv: '9' }));
    expect(ctx.calls).toEqual([]);
  });

  it('leaves complete secrets alone and deletes tokens of missing or replaced accounts', () => {
    const c = new TokensController();
    const ctx = new FakeContext();
    ctx.upsert(c, 'serviceaccounts', sa('build', 'uid-new'));
    ctx.upsert(c, 'secrets', tokenSecret('old', 'build', { uid: 'uid-old' }));
    ctx.upsert(c, 'secrets', tokenSecret('orphan', 'nobody'));
    ctx.drain(c);
    expect(ctx.calls.map((x) => [x.call.method, x.call.path, (x.call.body as any).preconditions?.uid])).toEqual([
      ['DELETE', '/api/v1/namespaces/default/secrets/old', 'uid-secret-old'],
      ['DELETE', '/api/v1/namespaces/default/secrets/orphan', 'uid-secret-orphan'],
    ]);
  });

  it('deleting a ServiceAccount deletes its token secrets; a deleted secret leaves the account list', () => {
    const c = new TokensController();
    const ctx = new FakeContext();
    const account = sa('build', 'uid-build', { secrets: [{ name: 'gone' }, { name: 'other' }] });
    ctx.upsert(c, 'serviceaccounts', account);
    const gone = tokenSecret('gone', 'build', { uid: 'uid-build', data: { token: 'eA==', namespace: 'eA==', 'ca.crt': 'eA==' } });
    ctx.upsert(c, 'secrets', gone);
    ctx.drain(c);
    ctx.respond(c, 404, {}); // its GET (the CA differs) finds it already gone
    ctx.remove(c, 'secrets', gone);
    ctx.drain(c);
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['PUT', '/api/v1/namespaces/default/serviceaccounts/build']]);
    expect((ctx.calls[0]!.call.body as any).secrets).toEqual([{ name: 'other' }]);
    ctx.respond(c, 200, {});
    const c2 = cloneState(c);
    const ctx2 = new FakeContext();
    ctx2.upsert(c2, 'secrets', tokenSecret('mine', 'build'));
    (ctx2.store('serviceaccounts') as Map<string, KObject>).clear();
    c2.onEvent('serviceaccounts', { type: 'DELETED', object: account }, ctx2);
    ctx2.drain(c2);
    expect(ctx2.calls.map((x) => [x.call.method, x.call.path])).toContainEqual(['DELETE', '/api/v1/namespaces/default/secrets/mine']);
  });
});

describe('tokens-controller on the control plane', () => {
  it('a service-account-token Secret gets a token the API server accepts; the account going takes it along', () => {
    const e = controlPlane(3);
    expect(call(e, 'POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ci' } }).status).toBe(201);
    const created = call(e, 'POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', type: SERVICE_ACCOUNT_TOKEN_TYPE, metadata: { name: 'ci-token', annotations: { [ANN_SERVICE_ACCOUNT_NAME]: 'ci' } } });
    expect(created.status).toBe(201);
    const secret = () => call(e, 'GET', '/api/v1/namespaces/default/secrets/ci-token');
    runUntil(e, () => !!secret().body?.data?.token, 'the token filled in', 30_000);
    const s = secret().body;
    expect(Object.keys(s.data).sort()).toEqual(['ca.crt', 'namespace', 'token']);
    const token = text(s.data.token);
    const review = call(e, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { token });
    expect(review.status).toBe(201);
    expect(review.body.status.userInfo.username).toBe('system:serviceaccount:default:ci');
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/ci').status).toBe(200);
    runUntil(e, () => secret().status === 404, 'the token secret deleted', 30_000);
  }, 60_000);
});
