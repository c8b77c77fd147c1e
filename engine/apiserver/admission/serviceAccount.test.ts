import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { DEFAULT_API_TOKEN_MOUNT_PATH, serviceAccount, volumeNameSuffix } from './serviceAccount';
import { attrs, FakeCluster, namespace, pod, serviceAccountObj } from './testing';

type Spec = { serviceAccountName?: string; volumes?: { name: string; projected?: unknown }[]; containers: { volumeMounts?: unknown[] }[]; initContainers?: { volumeMounts?: unknown[] }[]; imagePullSecrets?: unknown };

describe('ServiceAccount', () => {
  const cluster = new FakeCluster([namespace('default'), serviceAccountObj('default', 'default'), serviceAccountObj('builder', 'default', { imagePullSecrets: [{ name: 'regcred' }] })]);

  it('defaults the account and mounts the projected token volume read-only in every container', () => {
    const p = pod('web', 'default', [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }], { initContainers: [{ name: 'init', image: 'z' }] });
    const a = attrs({ resource: 'pods', object: p });
    expect(serviceAccount.admit!(a, cluster)).toEqual({ allowed: true });
    const spec = a.object!['spec'] as Spec;
    expect(spec.serviceAccountName).toBe('default');
    const volName = spec.volumes![0]!.name;
    expect(volName).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(spec.volumes).toEqual([
      {
        name: volName,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
    ]);
    const mount = { name: volName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH };
    expect(spec.containers.map((c) => c.volumeMounts)).toEqual([[mount], [mount]]);
    expect(spec.initContainers![0]!.volumeMounts).toEqual([mount]);
  });

  it('derives the suffix deterministically, or takes the caller’s', () => {
    const p = pod('web', 'default');
    const s1 = volumeNameSuffix(attrs({ resource: 'pods', object: p }), p);
    expect(volumeNameSuffix(attrs({ resource: 'pods', object: p }), p)).toBe(s1);
    expect(volumeNameSuffix(attrs({ resource: 'pods', object: pod('db', 'default') }), pod('db', 'default'))).not.toBe(s1);
    const a = attrs({ resource: 'pods', object: p, options: { __randomSuffix: 'x7k2q' } });
    serviceAccount.admit!(a, cluster);
    expect((a.object!['spec'] as Spec).volumes![0]!.name).toBe('kube-api-access-x7k2q');
  });

  it('respects automountServiceAccountToken and an existing mount at the token path', () => {
    const off = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { automountServiceAccountToken: false }) });
    serviceAccount.admit!(off, cluster);
    expect((off.object!['spec'] as Spec).volumes).toBeUndefined();
    const saOff = new FakeCluster([serviceAccountObj('default', 'default', { automountServiceAccountToken: false })]);
    const a2 = attrs({ resource: 'pods', object: pod('web', 'default') });
    serviceAccount.admit!(a2, saOff);
    expect((a2.object!['spec'] as Spec).volumes).toBeUndefined();
    const own = pod('web', 'default', [{ name: 'a', image: 'x', volumeMounts: [{ name: 'mine', mountPath: DEFAULT_API_TOKEN_MOUNT_PATH }] }], { volumes: [{ name: 'mine', emptyDir: {} }] });
    const a3 = attrs({ resource: 'pods', object: own });
    serviceAccount.admit!(a3, cluster);
    expect((a3.object!['spec'] as Spec).volumes).toEqual([{ name: 'mine', emptyDir: {} }]);
  });

  it('copies the account’s imagePullSecrets', () => {
    const a = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { serviceAccountName: 'builder' }) });
    serviceAccount.admit!(a, cluster);
    expect((a.object!['spec'] as Spec).imagePullSecrets).toEqual([{ name: 'regcred' }]);
  });

  it('refuses a pod whose account does not exist', () => {
    const a = attrs({ resource: 'pods', object: pod('web', 'default', undefined, { serviceAccountName: 'ghost' }) });
    const v = serviceAccount.admit!(a, cluster);
    expect(v).toMatchObject({ allowed: false, status: { code: 403, message: 'pods "web" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found' } });
  });

  it('keeps mirror pods unchanged and refuses their account references', () => {
    const mirror: KObject = { ...pod('static', 'default'), metadata: { name: 'static', namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'abc' } } };
    const a = attrs({ resource: 'pods', object: structuredClone(mirror) });
    expect(serviceAccount.admit!(a, cluster).allowed).toBe(true);
    expect(a.object).toEqual(mirror);
    const withSa = attrs({ resource: 'pods', object: { ...mirror, spec: { ...(mirror['spec'] as object), serviceAccountName: 'default' } } });
    expect(serviceAccount.admit!(withSa, cluster)).toMatchObject({ allowed: false, status: { message: 'pods "static" is forbidden: a mirror pod may not reference service accounts' } });
  });

  it('enforces mountable secrets when the account asks for it', () => {
    const strict = new FakeCluster([serviceAccountObj('default', 'default', { metadata: { name: 'default', namespace: 'default', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] })]);
    const p = pod('web', 'default', undefined, { automountServiceAccountToken: false, volumes: [{ name: 's', secret: { secretName: 'other' } }] });
    const v = serviceAccount.admit!(attrs({ resource: 'pods', object: p }), strict);
    expect(v).toMatchObject({ allowed: false, status: { message: 'pods "web" is forbidden: volume with secret.secretName="other" is not allowed because service account default does not reference that secret' } });
  });
});
