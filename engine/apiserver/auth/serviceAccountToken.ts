// Service-account tokens: minting (the TokenRequest registry, pkg/registry/core/
// serviceaccount/storage/token.go, and the legacy tokens controller) and
// validation (pkg/serviceaccount/jwt.go, claims.go, legacy.go). Tokens are JWTs
// signed with HS256 under a per-cluster key derived from the scenario seed.
import type { KObject } from '../../apimachinery/types';
import { epochMs } from '../http/time';
import type { ClusterReader, UserInfo } from '../types';
import { base64Decode } from '../../sim/base64';
import { parseJwt, signJwt, verifyJwtSignature } from './jwt';
import { fromHex, fromUtf8, hmacSha256, sha256, toHex, utf8 } from './sha256';
import {
  EXTRA_CREDENTIAL_ID,
  EXTRA_NODE_NAME,
  EXTRA_NODE_UID,
  EXTRA_POD_NAME,
  EXTRA_POD_UID,
  makeServiceAccountUsername,
  serviceAccountGroups,
} from './user';

/** kubeadm's --service-account-issuer; --api-audiences defaults to it. */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The issuer of secret-based (legacy) tokens. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** Kubelet-requested lifetime that the apiserver silently extends (serviceaccount.WarnOnlyBoundTokenExpirationSeconds). */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
/** go-jose's jwt.DefaultLeeway for exp/nbf. */
const LEEWAY_SECONDS = 60;

export interface ServiceAccountTokenConfig {
  issuer: string;
  apiAudiences: string[];
  /** HMAC key, hex. Plain data so the config snapshots and travels in scenarios. */
  signingKey: string;
  /** --service-account-extend-token-expiration (default true). */
  extendExpiration: boolean;
}

/** A deterministic per-cluster key: the same seed gives the same tokens. */
export function serviceAccountSigningKey(seed: string | number): string {
  return toHex(sha256(utf8(`kubeglass/service-account-signing-key/${seed}`)));
}

export function defaultServiceAccountTokenConfig(seed: string | number): ServiceAccountTokenConfig {
  return { issuer: DEFAULT_ISSUER, apiAudiences: [DEFAULT_ISSUER], signingKey: serviceAccountSigningKey(seed), extendExpiration: true };
}

function keyBytes(config: ServiceAccountTokenConfig): Uint8Array {
  const k = fromHex(config.signingKey);
  if (!k || k.length === 0) throw new Error('service account signing key must be non-empty hex');
  return k;
}

/** Virtual ms → JWT NumericDate (Unix seconds). */
export function unixSeconds(virtualMs: number): number {
  return Math.floor((epochMs() + virtualMs) / 1000);
}

function ref(obj: KObject): { name: string; uid: string } {
  return { name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '' };
}

/** A UUID-shaped id derived from the token's contents (no randomness in the engine). */
function deriveJti(key: Uint8Array, seedText: string): string {
  const h = toHex(hmacSha256(key, utf8(`jti/${seedText}`)));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export type BoundObject = { kind: 'Pod'; pod: KObject; node?: KObject } | { kind: 'Secret'; secret: KObject } | { kind: 'Node'; node: KObject };

export interface TokenRequestInput {
  serviceAccount: KObject;
  /** Defaults to the API audiences. */
  audiences?: string[];
  expirationSeconds?: number;
  boundObject?: BoundObject;
  /** Virtual time of issue, ms. */
  now: number;
  /** Token id; derived from the token's contents when absent. */
  jti?: string;
}

export interface IssuedToken {
  token: string;
  /** What TokenRequest.status.expirationTimestamp says (virtual ms): the requested lifetime, even when extended. */
  expirationTimestamp: number;
  claims: Record<string, unknown>;
}

/** Mints a bound token as the serviceaccounts/token subresource does. Claims in Go's (sorted) JSON order. */
export function issueBoundToken(config: ServiceAccountTokenConfig, input: TokenRequestInput): IssuedToken {
  const key = keyBytes(config);
  const sa = input.serviceAccount;
  const namespace = sa.metadata.namespace ?? '';
  const requested = input.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS;
  const iat = unixSeconds(input.now);
  const bound = input.boundObject;
  let lifetime = requested;
  let warnAfter: number | undefined;
  // Kubelets ask for 3607s; the apiserver hands out a year and records when a refresh was due.
  if (config.extendExpiration && bound?.kind === 'Pod' && requested === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS) {
    warnAfter = iat + requested;
    lifetime = EXPIRATION_EXTENSION_SECONDS;
  }
  const k8s: Record<string, unknown> = { namespace };
  if (bound?.kind === 'Pod') {
    // The node a pod runs on is recorded too (ServiceAccountTokenPodNodeInfo, on in 1.32).
    const nodeName = (bound.pod.spec as { nodeName?: string } | undefined)?.nodeName;
    if (nodeName) k8s.node = bound.node ? ref(bound.node) : { name: nodeName };
    k8s.pod = ref(bound.pod);
  } else if (bound?.kind === 'Node') {
    k8s.node = ref(bound.node);
  } else if (bound?.kind === 'Secret') {
    k8s.secret = ref(bound.secret);
  }
  k8s.serviceaccount = ref(sa);
  if (warnAfter !== undefined) k8s.warnafter = warnAfter;
  const sub = makeServiceAccountUsername(namespace, sa.metadata.name ?? '');
  const jti = input.jti ?? deriveJti(key, `${sa.metadata.uid ?? ''}/${iat}/${JSON.stringify(k8s)}/${(input.audiences ?? []).join(',')}`);
  const claims: Record<string, unknown> = {
    aud: input.audiences ?? config.apiAudiences,
    exp: iat + lifetime,
    iat,
    iss: config.issuer,
    jti,
    'kubernetes.io': k8s,
    nbf: iat,
    sub,
  };
  return { token: signJwt(claims, key), expirationTimestamp: input.now + requested * 1000, claims };
}

/** The token the (legacy) tokens controller writes into a kubernetes.io/service-account-token Secret. */
export function issueLegacyToken(config: ServiceAccountTokenConfig, serviceAccount: KObject, secret: KObject): string {
  const namespace = serviceAccount.metadata.namespace ?? '';
  const name = serviceAccount.metadata.name ?? '';
  const claims: Record<string, unknown> = {
    iss: LEGACY_ISSUER,
    'kubernetes.io/serviceaccount/namespace': namespace,
    'kubernetes.io/serviceaccount/secret.name': secret.metadata.name ?? '',
    'kubernetes.io/serviceaccount/service-account.name': name,
    'kubernetes.io/serviceaccount/service-account.uid': serviceAccount.metadata.uid ?? '',
    sub: makeServiceAccountUsername(namespace, name),
  };
  return signJwt(claims, keyBytes(config));
}

/** `notMine`: not a service-account token, another authenticator may own it. */
export type TokenValidation = { type: 'notMine' } | { type: 'invalid'; reason: string } | { type: 'valid'; user: UserInfo; audiences: string[] };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const refOf = (v: unknown): { name: string; uid: string } | undefined =>
  typeof v === 'object' && v !== null ? { name: str((v as Record<string, unknown>).name), uid: str((v as Record<string, unknown>).uid) } : undefined;

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/**
 * Validates a bearer token as the service-account authenticators would:
 * issuer, signature, audience, time, then that the ServiceAccount (and bound
 * pod/secret/node) still exist with the UIDs the token names.
 */
export function validateServiceAccountToken(token: string, config: ServiceAccountTokenConfig, cluster: ClusterReader, now: number): TokenValidation {
  const parsed = parseJwt(token);
  if (parsed.type !== 'parsed') return { type: 'notMine' };
  const iss = parsed.claims.iss;
  if (iss !== config.issuer && iss !== LEGACY_ISSUER) return { type: 'notMine' };
  if (!verifyJwtSignature(parsed, keyBytes(config))) return { type: 'invalid', reason: 'invalid signature' };
  return iss === LEGACY_ISSUER ? validateLegacy(token, parsed.claims, config, cluster) : validateBound(parsed.claims, config, cluster, now);
}

function checkServiceAccount(cluster: ClusterReader, namespace: string, name: string, uid: string): string | undefined {
  const sa = cluster.get('', 'serviceaccounts', namespace, name);
  if (!sa) return `serviceaccounts "${name}" not found`;
  if (sa.metadata.uid !== uid) return `service account UID (${sa.metadata.uid ?? ''}) does not match claim (${uid})`;
  return undefined;
}

function validateBound(claims: Record<string, unknown>, config: ServiceAccountTokenConfig, cluster: ClusterReader, now: number): TokenValidation {
  const tokenAuds = audiencesOf(claims.aud);
  const auds = tokenAuds.filter((a) => config.apiAudiences.includes(a));
  if (auds.length === 0) {
    return { type: 'invalid', reason: `token audiences ${JSON.stringify(tokenAuds)} is invalid for the target audiences ${JSON.stringify(config.apiAudiences)}` };
  }
  const t = unixSeconds(now);
  const exp = num(claims.exp);
  const nbf = num(claims.nbf);
  if (exp !== undefined && t > exp + LEEWAY_SECONDS) return { type: 'invalid', reason: 'service account token has expired' };
  if (nbf !== undefined && t + LEEWAY_SECONDS < nbf) return { type: 'invalid', reason: 'service account token is not valid yet' };

  const k8s = claims['kubernetes.io'];
  if (typeof k8s !== 'object' || k8s === null) return { type: 'invalid', reason: 'service account token claims could not be validated due to unexpected private claim' };
  const priv = k8s as Record<string, unknown>;
  const namespace = str(priv.namespace);
  const saRef = refOf(priv.serviceaccount);
  if (!namespace || !saRef) return { type: 'invalid', reason: 'service account token claims could not be validated due to unexpected private claim' };
  const saErr = checkServiceAccount(cluster, namespace, saRef.name, saRef.uid);
  if (saErr) return { type: 'invalid', reason: saErr };

  const extra: Record<string, string[]> = {};
  const secretRef = refOf(priv.secret);
  if (secretRef) {
    const secret = cluster.get('', 'secrets', namespace, secretRef.name);
    if (!secret) return { type: 'invalid', reason: 'service account token has been invalidated' };
    if (secret.metadata.uid !== secretRef.uid) return { type: 'invalid', reason: `secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${secretRef.uid})` };
  }
  const podRef = refOf(priv.pod);
  if (podRef) {
    const pod = cluster.get('', 'pods', namespace, podRef.name);
    if (!pod) return { type: 'invalid', reason: 'service account token has been invalidated' };
    if (pod.metadata.uid !== podRef.uid) return { type: 'invalid', reason: `pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${podRef.uid})` };
    extra[EXTRA_POD_NAME] = [podRef.name];
    extra[EXTRA_POD_UID] = [podRef.uid];
  }
  const nodeRef = refOf(priv.node);
  if (nodeRef) {
    // A node binding is checked only when it is the token's own binding, not inferred from a pod.
    if (!podRef) {
      const node = cluster.get('', 'nodes', undefined, nodeRef.name);
      if (!node) return { type: 'invalid', reason: 'service account token has been invalidated' };
      if (nodeRef.uid && node.metadata.uid !== nodeRef.uid) return { type: 'invalid', reason: `node UID (${node.metadata.uid ?? ''}) does not match service account node ref claim (${nodeRef.uid})` };
    }
  }
  const jti = str(claims.jti);
  if (jti) extra[EXTRA_CREDENTIAL_ID] = [`JTI=${jti}`];
  if (nodeRef) {
    extra[EXTRA_NODE_NAME] = [nodeRef.name];
    if (nodeRef.uid) extra[EXTRA_NODE_UID] = [nodeRef.uid];
  }
  const user: UserInfo = { username: makeServiceAccountUsername(namespace, saRef.name), uid: saRef.uid, groups: serviceAccountGroups(namespace) };
  if (Object.keys(extra).length) user.extra = sortedExtra(extra);
  return { type: 'valid', user, audiences: auds };
}

function sortedExtra(extra: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(extra).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function validateLegacy(token: string, claims: Record<string, unknown>, config: ServiceAccountTokenConfig, cluster: ClusterReader): TokenValidation {
  const namespace = str(claims['kubernetes.io/serviceaccount/namespace']);
  const secretName = str(claims['kubernetes.io/serviceaccount/secret.name']);
  const saName = str(claims['kubernetes.io/serviceaccount/service-account.name']);
  const saUID = str(claims['kubernetes.io/serviceaccount/service-account.uid']);
  if (!namespace) return { type: 'invalid', reason: 'namespace claim is missing' };
  if (!secretName) return { type: 'invalid', reason: 'secretName claim is missing' };
  if (!saName) return { type: 'invalid', reason: 'serviceAccountName claim is missing' };
  if (!saUID) return { type: 'invalid', reason: 'serviceAccountUID claim is missing' };
  const secret = cluster.get('', 'secrets', namespace, secretName);
  if (!secret) return { type: 'invalid', reason: 'token has been invalidated' };
  const stored = (secret.data as Record<string, unknown> | undefined)?.token;
  const storedBytes = typeof stored === 'string' ? base64Decode(stored) : undefined;
  if (!storedBytes || fromUtf8(storedBytes) !== token) return { type: 'invalid', reason: "token does not match server's copy" };
  const sa = cluster.get('', 'serviceaccounts', namespace, saName);
  if (!sa) return { type: 'invalid', reason: `serviceaccounts "${saName}" not found` };
  if (sa.metadata.uid !== saUID) return { type: 'invalid', reason: `ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${saUID})` };
  return { type: 'valid', user: { username: makeServiceAccountUsername(namespace, saName), uid: saUID, groups: serviceAccountGroups(namespace) }, audiences: config.apiAudiences };
}
