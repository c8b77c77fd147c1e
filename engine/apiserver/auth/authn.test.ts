import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import { CLIENT_CERT_HEADER, authenticate, certificateSubject, componentUsers, defaultAuthnConfig, type AuthnConfig } from './authn';
import { base64Encode } from '../../sim/base64';
import { parseJwt } from './jwt';
import { issueBoundToken, issueLegacyToken, WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS } from './serviceAccountToken';
import { utf8 } from './sha256';
import { MemoryCluster, node, pod, sa, secret } from './testCluster';

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

function setup(): { config: AuthnConfig; cluster: MemoryCluster } {
  const config = defaultAuthnConfig(42, [
    ...componentUsers(['worker-1']),
    { name: 'alice', token: 'alice-token', groups: ['dev'] },
    { name: 'carol', certCN: 'carol', groups: ['ops'], uid: 'u-carol' },
  ]);
  const cluster = new MemoryCluster([sa('default', 'builder'), node('worker-1'), pod('default', 'web', { serviceAccountName: 'builder', nodeName: 'worker-1' })]);
  return { config, cluster };
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe('authenticate', () => {
  it('static bearer token → the user with system:authenticated appended', () => {
    const { config, cluster } = setup();
    const r = authenticate(bearer('alice-token'), config, cluster, 0);
    expect(r).toEqual({ ok: true, user: { username: 'alice', groups: ['dev', 'system:authenticated'] }, authenticator: 'token-file' });
  });

  it('client certificates: components by CN, scenario users by certCN, unknown CNs by CN and O', () => {
    const { config, cluster } = setup();
    const kubelet = componentUsers(['worker-1']).find((u) => u.name === 'system:node:worker-1')!;
    expect(authenticate({ [CLIENT_CERT_HEADER]: certificateSubject(kubelet) }, config, cluster, 0)).toMatchObject({
      ok: true,
      user: { username: 'system:node:worker-1', groups: ['system:nodes', 'system:authenticated'] },
      authenticator: 'x509',
    });
    expect(authenticate({ [CLIENT_CERT_HEADER]: 'CN=kubernetes-admin,O=system:masters' }, config, cluster, 0)).toMatchObject({
      ok: true,
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
    });
    expect(authenticate({ [CLIENT_CERT_HEADER]: 'carol' }, config, cluster, 0)).toMatchObject({ ok: true, user: { username: 'carol', uid: 'u-carol', groups: ['ops', 'system:authenticated'] } });
    expect(authenticate({ [CLIENT_CERT_HEADER]: 'CN=dave,O=a,O=b' }, config, cluster, 0)).toMatchObject({ ok: true, user: { username: 'dave', groups: ['a', 'b', 'system:authenticated'] } });
  });

  it('a certificate wins over a bearer token (x509 runs first)', () => {
    const { config, cluster } = setup();
    const r = authenticate({ [CLIENT_CERT_HEADER]: 'CN=system:kube-scheduler', ...bearer('alice-token') }, config, cluster, 0);
    expect(r.ok && r.user.username).toBe('system:kube-scheduler');
  });

  it('no credentials → system:anonymous in system:unauthenticated; disabled → 401', () => {
    const { config, cluster } = setup();
    expect(authenticate({}, config, cluster, 0)).toEqual({ ok: true, user: { username: 'system:anonymous', groups: ['system:unauthenticated'] }, authenticator: 'anonymous' });
    // Non-bearer schemes and empty tokens offer no credential either.
    expect(authenticate({ authorization: 'Basic YWxpY2U6cHc=' }, config, cluster, 0)).toMatchObject({ ok: true, authenticator: 'anonymous' });
    expect(authenticate({ authorization: 'Bearer ' }, config, cluster, 0)).toMatchObject({ ok: true, authenticator: 'anonymous' });
    const r = authenticate({}, { ...config, anonymous: false }, cluster, 0);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.status).toEqual(UNAUTHORIZED);
  });

  it('an unknown bearer token → 401 Unauthorized, never anonymous', () => {
    const { config, cluster } = setup();
    const r = authenticate(bearer('nope'), config, cluster, 0);
    expect(r).toEqual({ ok: false, status: UNAUTHORIZED, reason: 'invalid bearer token', authenticator: 'bearer-token' });
    // The scheme is case-insensitive.
    expect(authenticate({ Authorization: 'bearer alice-token' }, config, cluster, 0).ok).toBe(true);
  });
});

describe('service-account tokens', () => {
  it('bound token round trip: claims as upstream shapes them, user with SA groups and extras', () => {
    const { config, cluster } = setup();
    const p = cluster.get('', 'pods', 'default', 'web')!;
    const issued = issueBoundToken(config.serviceAccounts, {
      serviceAccount: cluster.get('', 'serviceaccounts', 'default', 'builder')!,
      boundObject: { kind: 'Pod', pod: p, node: cluster.get('', 'nodes', undefined, 'worker-1')! },
      expirationSeconds: 3600,
      now: 5_000,
      jti: 'j-1',
    });
    const parsed = parseJwt(issued.token);
    expect(parsed.type).toBe('parsed');
    if (parsed.type !== 'parsed') return;
    expect(parsed.header).toMatchObject({ alg: 'HS256' });
    expect(Object.keys(parsed.claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    expect(parsed.claims).toMatchObject({
      aud: ['https://kubernetes.default.svc.cluster.local'],
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:default:builder',
      'kubernetes.io': {
        namespace: 'default',
        node: { name: 'worker-1', uid: 'uid-node-worker-1' },
        pod: { name: 'web', uid: 'uid-pod-default-web' },
        serviceaccount: { name: 'builder', uid: 'uid-sa-default-builder' },
      },
    });
    expect((parsed.claims.exp as number) - (parsed.claims.iat as number)).toBe(3600);

    const r = authenticate(bearer(issued.token), config, cluster, 10_000);
    expect(r).toEqual({
      ok: true,
      authenticator: 'service-account',
      user: {
        username: 'system:serviceaccount:default:builder',
        uid: 'uid-sa-default-builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
        extra: {
          'authentication.kubernetes.io/credential-id': ['JTI=j-1'],
          'authentication.kubernetes.io/node-name': ['worker-1'],
          'authentication.kubernetes.io/node-uid': ['uid-node-worker-1'],
          'authentication.kubernetes.io/pod-name': ['web'],
          'authentication.kubernetes.io/pod-uid': ['uid-pod-default-web'],
        },
      },
    });
  });

  it('is deterministic per cluster seed and differs across seeds', () => {
    const { cluster } = setup();
    const input = { serviceAccount: cluster.get('', 'serviceaccounts', 'default', 'builder')!, now: 0 };
    const a = issueBoundToken(defaultAuthnConfig(1).serviceAccounts, input).token;
    expect(issueBoundToken(defaultAuthnConfig(1).serviceAccounts, input).token).toBe(a);
    expect(issueBoundToken(defaultAuthnConfig(2).serviceAccounts, input).token).not.toBe(a);
    // A token from another cluster's key fails the signature check.
    expect(authenticate(bearer(a), defaultAuthnConfig(2), cluster, 0)).toMatchObject({ ok: false, reason: 'invalid signature' });
  });

  it('tampering with any part → 401', () => {
    const { config, cluster } = setup();
    const token = issueBoundToken(config.serviceAccounts, { serviceAccount: cluster.get('', 'serviceaccounts', 'default', 'builder')!, now: 0 }).token;
    const [h, c, s] = token.split('.') as [string, string, string];
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(c.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0))));
    claims.sub = 'system:serviceaccount:kube-system:admin';
    const forged = base64Encode(utf8(JSON.stringify(claims))).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const flipped = s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
    for (const bad of [`${h}.${forged}.${s}`, `${h}.${c}.${flipped}`, `${h}.${c}.`]) {
      const r = authenticate(bearer(bad), config, cluster, 0);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.status).toEqual(UNAUTHORIZED);
    }
  });

  it('rejects expired tokens (after a minute of leeway) and tokens whose objects are gone or replaced', () => {
    const { config, cluster } = setup();
    const saObj = cluster.get('', 'serviceaccounts', 'default', 'builder')!;
    const p = cluster.get('', 'pods', 'default', 'web')!;
    const t = issueBoundToken(config.serviceAccounts, { serviceAccount: saObj, boundObject: { kind: 'Pod', pod: p }, expirationSeconds: 600, now: 0 }).token;
    expect(authenticate(bearer(t), config, cluster, 660_000).ok).toBe(true);
    expect(authenticate(bearer(t), config, cluster, 661_000)).toMatchObject({ ok: false, reason: 'service account token has expired' });

    cluster.delete(p);
    expect(authenticate(bearer(t), config, cluster, 0)).toMatchObject({ ok: false, reason: 'service account token has been invalidated' });
    cluster.put(pod('default', 'web', { serviceAccountName: 'builder' }, 'another-uid'));
    expect(authenticate(bearer(t), config, cluster, 0)).toMatchObject({ ok: false, reason: 'pod UID (another-uid) does not match service account pod ref claim (uid-pod-default-web)' });

    // Same name, new ServiceAccount: the old token no longer works.
    cluster.put(sa('default', 'builder', 'new-sa-uid'));
    expect(authenticate(bearer(t), config, cluster, 0)).toMatchObject({ ok: false, reason: 'service account UID (new-sa-uid) does not match claim (uid-sa-default-builder)' });
    cluster.delete(saObj);
    expect(authenticate(bearer(t), config, cluster, 0)).toMatchObject({ ok: false, reason: 'serviceaccounts "builder" not found' });
  });

  it('rejects tokens for other audiences', () => {
    const { config, cluster } = setup();
    const t = issueBoundToken(config.serviceAccounts, { serviceAccount: cluster.get('', 'serviceaccounts', 'default', 'builder')!, audiences: ['vault'], now: 0 }).token;
    expect(authenticate(bearer(t), config, cluster, 0)).toMatchObject({
      ok: false,
      reason: 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
    });
  });

  it('kubelet-lifetime tokens are extended to a year with warnafter', () => {
    const { config, cluster } = setup();
    const issued = issueBoundToken(config.serviceAccounts, {
      serviceAccount: cluster.get('', 'serviceaccounts', 'default', 'builder')!,
      boundObject: { kind: 'Pod', pod: cluster.get('', 'pods', 'default', 'web')! },
      expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
      now: 0,
    });
    const claims = (parseJwt(issued.token) as { claims: Record<string, any> }).claims;
    expect(claims.exp - claims.iat).toBe(365 * 24 * 3600);
    expect(claims['kubernetes.io'].warnafter - claims.iat).toBe(3607);
    expect(issued.expirationTimestamp).toBe(3_607_000);
    expect(authenticate(bearer(issued.token), config, cluster, 30 * 24 * 3600 * 1000).ok).toBe(true);
  });

  it('legacy secret-based tokens are valid while the secret holds them', () => {
    const { config, cluster } = setup();
    const saObj = cluster.get('', 'serviceaccounts', 'default', 'builder')!;
    const s = secret('default', 'builder-token');
    const t = issueLegacyToken(config.serviceAccounts, saObj, s);
    cluster.put({ ...s, data: { token: base64Encode(utf8(t)) } });
    expect(authenticate(bearer(t), config, cluster, 0)).toEqual({
      ok: true,
      authenticator: 'service-account',
      user: { username: 'system:serviceaccount:default:builder', uid: 'uid-sa-default-builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
    });
    cluster.delete(s);
    expect(authenticate(bearer(t), config, cluster, 0)).toMatchObject({ ok: false, reason: 'token has been invalidated' });
  });

  it('the config is plain data: a snapshot clone authenticates identically', () => {
    const { config, cluster } = setup();
    const token = issueBoundToken(config.serviceAccounts, { serviceAccount: cluster.get('', 'serviceaccounts', 'default', 'builder')!, now: 0 }).token;
    const clone = cloneState(config);
    expect(clone).not.toBe(config);
    for (const headers of [bearer(token), bearer('alice-token'), bearer('nope'), {}, { [CLIENT_CERT_HEADER]: 'carol' }]) {
      expect(authenticate(headers, clone, cluster, 0)).toEqual(authenticate(headers, config, cluster, 0));
    }
  });
});
