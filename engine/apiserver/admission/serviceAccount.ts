// ServiceAccount (plugin/pkg/admission/serviceaccount/admission.go): on pod
// create, defaults spec.serviceAccountName to "default", requires that the
// account exists, copies its imagePullSecrets, and (unless automount is off on
// the pod or the account) adds the projected kube-api-access-XXXXX volume and
// mounts it read-only in every container at /var/run/secrets/kubernetes.io/serviceaccount.
// Since bound tokens went GA (1.22) there is no wait for a token Secret; a
// missing account is refused at once (upstream's retries against storage find
// nothing our watch-cache reader does not).
import type { KObject } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { admissionForbidden, allow, deny, isResource } from './errors';
import { bool, ensureArr, isRec, path, rec, recs, str, stringMap, type Rec } from './json';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
export const SERVICE_ACCOUNT_VOLUME_NAME = 'kube-api-access';
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
export const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = 'kubernetes.io/enforce-mountable-secrets';
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: 1 hour + 7 s, the projected token's lifetime. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
/** CreateOptions key a caller may set to a 5-character suffix drawn from its own Rng. */
export const RANDOM_SUFFIX_OPTION = '__randomSuffix';

/** utilrand's alphabet: no vowels, no confusable digits (names.SimpleNameGenerator). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1a, 32 bits. */
function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The 5-character suffix of the token volume's name. Upstream draws it at
 * random; the engine's Rng is not reachable from here, so the caller may pass
 * one in attrs.options.__randomSuffix. Otherwise it is derived from
 * "<namespace>/<name or generateName>": FNV-1a 32 of that text seeds an
 * xorshift32 stream, and each of 5 draws picks ALPHANUMS[draw mod 27].
 */
export function volumeNameSuffix(attrs: AdmissionAttributes, pod: KObject): string {
  const given = attrs.options[RANDOM_SUFFIX_OPTION];
  if (typeof given === 'string' && /^[a-z0-9]{5}$/.test(given)) return given;
  let h = fnv1a32(`${attrs.namespace}/${pod.metadata.name || pod.metadata.generateName || ''}`) || 0x9e3779b9;
  let out = '';
  for (let i = 0; i < 5; i++) {
    h ^= h << 13;
    h >>>= 0;
    h ^= h >>> 17;
    h ^= h << 5;
    h >>>= 0;
    out += ALPHANUMS[h % ALPHANUMS.length];
  }
  return out;
}

/** TokenVolumeSource(): the projected sources every automounted pod gets. */
export function tokenVolumeSource(): Rec {
  return {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

function shouldIgnore(a: AdmissionAttributes): boolean {
  return !isResource(a, '', 'pods') || a.subresource !== '' || !a.object;
}

function isMirrorPod(pod: KObject): boolean {
  return MIRROR_POD_ANNOTATION in stringMap(pod.metadata.annotations);
}

function shouldAutomount(sa: KObject, spec: Rec): boolean {
  const podPref = bool(spec['automountServiceAccountToken']);
  if (podPref !== undefined) return podPref;
  const saPref = bool(sa['automountServiceAccountToken']);
  if (saPref !== undefined) return saPref;
  return true;
}

function lookup(a: AdmissionAttributes, cluster: ClusterReader, name: string): KObject | string {
  const sa = cluster.get('', 'serviceaccounts', a.namespace, name);
  return sa ?? `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`;
}

function mountServiceAccountToken(a: AdmissionAttributes, pod: KObject, spec: Rec): void {
  const volumes = recs(spec['volumes']);
  const existing = volumes.find((v) => (str(v['name']) ?? '').startsWith(`${SERVICE_ACCOUNT_VOLUME_NAME}-`));
  const volumeName = existing ? str(existing['name'])! : `${SERVICE_ACCOUNT_VOLUME_NAME}-${volumeNameSuffix(a, pod)}`;
  let needsVolume = false;
  for (const c of [...recs(spec['initContainers']), ...recs(spec['containers'])]) {
    const mounts = recs(c['volumeMounts']);
    // A mount already at the token path (the user's own) wins.
    if (mounts.some((m) => m['mountPath'] === DEFAULT_API_TOKEN_MOUNT_PATH)) continue;
    ensureArr(c, 'volumeMounts').push({ name: volumeName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH });
    needsVolume = true;
  }
  if (!existing && needsVolume) ensureArr(spec, 'volumes').push({ name: volumeName, projected: tokenVolumeSource() });
}

function limitSecretReferences(sa: KObject, spec: Rec): string | null {
  const saName = sa.metadata.name ?? '';
  const mountable = new Set(recs(sa['secrets']).map((s) => str(s['name']) ?? ''));
  for (const v of recs(spec['volumes'])) {
    const secretName = str(path(v, 'secret', 'secretName'));
    if (secretName !== undefined && !mountable.has(secretName)) {
      return `volume with secret.secretName="${secretName}" is not allowed because service account ${saName} does not reference that secret`;
    }
  }
  const envRefs = (containers: Rec[], what: string): string | null => {
    for (const c of containers) {
      for (const env of recs(c['env'])) {
        const ref = str(path(env, 'valueFrom', 'secretKeyRef', 'name'));
        if (ref !== undefined && !mountable.has(ref)) {
          return `${what} ${str(c['name']) ?? ''} with envVar ${str(env['name']) ?? ''} referencing secret.secretName="${ref}" is not allowed because service account ${saName} does not reference that secret`;
        }
      }
    }
    return null;
  };
  const initErr = envRefs(recs(spec['initContainers']), 'init container');
  if (initErr) return initErr;
  const err = envRefs(recs(spec['containers']), 'container');
  if (err) return err;
  const pullSecrets = new Set(recs(sa['imagePullSecrets']).map((s) => str(s['name']) ?? ''));
  const podPull = recs(spec['imagePullSecrets']);
  for (let i = 0; i < podPull.length; i++) {
    const n = str(podPull[i]!['name']) ?? '';
    if (!pullSecrets.has(n)) return `imagePullSecrets[${i}].name="${n}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return null;
}

function validatePod(a: AdmissionAttributes, cluster: ClusterReader, pod: KObject) {
  const spec = rec(pod['spec']) ?? {};
  if (isMirrorPod(pod)) {
    if (str(spec['serviceAccountName'])) return deny(admissionForbidden(a, 'a mirror pod may not reference service accounts'));
    const usesSecrets =
      recs(spec['volumes']).some((v) => isRec(v['secret'])) ||
      [...recs(spec['initContainers']), ...recs(spec['containers'])].some((c) => recs(c['env']).some((e) => isRec(path(e, 'valueFrom', 'secretKeyRef'))));
    if (usesSecrets) return deny(admissionForbidden(a, 'a mirror pod may not reference secrets'));
    const usesTokens = recs(spec['volumes']).some((v) => recs(path(v, 'projected', 'sources')).some((s) => isRec(s['serviceAccountToken'])));
    if (usesTokens) return deny(admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections'));
    return allow();
  }
  const sa = lookup(a, cluster, str(spec['serviceAccountName']) ?? '');
  if (typeof sa === 'string') return deny(admissionForbidden(a, sa));
  const enforce = stringMap(sa.metadata.annotations)[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION];
  if (enforce !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(enforce)) {
    const err = limitSecretReferences(sa, spec);
    if (err) return deny(admissionForbidden(a, err));
  }
  return allow();
}

export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  handles: (a) => a.operation === 'CREATE',
  // admit changes nothing it ignores (shouldIgnore): only pods.
  mayMutate: (a) => !shouldIgnore(a),
  admit(a, cluster) {
    if (shouldIgnore(a)) return allow();
    const pod = a.object!;
    if (isMirrorPod(pod)) return validatePod(a, cluster, pod);
    const spec = rec(pod['spec']) ?? {};
    if (!isRec(pod['spec'])) pod['spec'] = spec;
    if (!str(spec['serviceAccountName'])) spec['serviceAccountName'] = DEFAULT_SERVICE_ACCOUNT_NAME;
    const sa = lookup(a, cluster, str(spec['serviceAccountName'])!);
    if (typeof sa === 'string') return deny(admissionForbidden(a, sa));
    if (shouldAutomount(sa, spec)) mountServiceAccountToken(a, pod, spec);
    if (recs(spec['imagePullSecrets']).length === 0) {
      const fromSa = recs(sa['imagePullSecrets']).map((s) => ({ name: str(s['name']) ?? '' }));
      if (fromSa.length) spec['imagePullSecrets'] = fromSa;
    }
    return validatePod(a, cluster, pod);
  },
  validate(a, cluster) {
    if (shouldIgnore(a)) return allow();
    return validatePod(a, cluster, a.object!);
  },
};
