// kubectl create token against the simulated API server: the token is one the
// server accepts as the service account (a TokenReview says so), printed with
// a newline only on a terminal; -o prints the TokenRequest; refusals as
// create_token.go words them (the parity suite compares them with kubectl v1.32).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import type { Engine } from '../../facade/engine';
import { engineKubectl } from '../testing/engineKubectl';

const kubectl = (e: Engine, tty: boolean) => engineKubectl(e, { tty });

describe('kubectl create token', () => {
  it('issues a token the server authenticates as the service account', { timeout: 60_000 }, async () => {
    const e = controlPlane(95, { nodes: 0, etcdMembers: 1 });
    const sa = () => call(e, 'GET', '/api/v1/namespaces/default/serviceaccounts/default').status === 200;
    for (let i = 0; i < 100 && !sa(); i++) e.advance(200);
    const piped = await kubectl(e, false)('create', 'token', 'default', '--duration=10m');
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const review = call(e, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: piped.stdout } }).body;
    expect(review.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:default' } });
    const typed = await kubectl(e, true)('create', 'token', 'default');
    expect(typed.stdout).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const json = JSON.parse((await kubectl(e, true)('create', 'token', 'default', '--audience=a', '-o', 'json')).stdout);
    expect(Object.keys(json)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(json.spec).toEqual({ audiences: ['a'], expirationSeconds: 3600, boundObjectRef: null });
    expect((await kubectl(e, true)('create', 'token', 'nope')).stderr).toBe('error: failed to create token: serviceaccounts "nope" not found\n');
    expect((await kubectl(e, true)('create', 'token', 'default', '--bound-object-kind=Job', '--bound-object-name=x')).stderr).toBe('error: supported --bound-object-kind values are Node, Pod, Secret\n');
  });
});
