// Request authentication as kube-apiserver chains it
// (pkg/kubeapiserver/authenticator/config.go): x509 client certificates, then
// bearer tokens (static token file, service-account tokens), the union wrapped
// in the AuthenticatedGroupAdder, then anonymous when no credential was offered.
import { registerClass } from '../../sim/serial';
import { status } from '../../apimachinery/status';
import { assertNever } from '../../sim/assert';
import type { Status } from '../../apimachinery/types';
import type { ClusterReader, UserInfo } from '../types';
import { defaultServiceAccountTokenConfig, validateServiceAccountToken, type ServiceAccountTokenConfig } from './serviceAccountToken';
import {
  ALL_AUTHENTICATED,
  ALL_UNAUTHENTICATED,
  ANONYMOUS,
  KUBE_CONTROLLER_MANAGER,
  KUBE_PROXY,
  KUBE_SCHEDULER,
  NODE_USER_PREFIX,
  NODES_GROUP,
  SYSTEM_PRIVILEGED_GROUP,
  anonymousUser,
} from './user';

/**
 * A user the scenario declares: known by a static bearer token (--token-auth-file)
 * and/or a client certificate whose subject CN is `certCN`.
 */
export interface StaticUser {
  name: string;
  uid?: string;
  token?: string;
  certCN?: string;
  groups: string[];
}

export interface AuthnConfig {
  users: StaticUser[];
  /** --anonymous-auth (kubeadm leaves it on). */
  anonymous: boolean;
  serviceAccounts: ServiceAccountTokenConfig;
}

/**
 * The simulated TLS layer's report of a verified client certificate: its
 * subject, `CN=alice,O=dev,O=ops` (or a bare CN). Requests over the simulated
 * network carry it as this pseudo-header; a real client never sets it.
 */
export const CLIENT_CERT_HEADER = 'x-kubeglass-client-cert';

/** Which authenticator decided: on failure, `service-account` (a token of ours, rejected), `bearer-token` (a token nobody owns) or `anonymous` (disabled). */
export type Authenticator = 'x509' | 'token-file' | 'service-account' | 'bearer-token' | 'anonymous';

export type AuthnResult = { ok: true; user: UserInfo; authenticator: Authenticator } | { ok: false; status: Status; reason: string; authenticator: Authenticator };

export type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every value of a header, whatever the case of its name, arrays kept apart. */
export function headerValues(headers: Headers, name: string): string[] {
  const want = name.toLowerCase();
  const out: string[] = [];
  // for-in, not entries or keys: every request asks for several headers, nearly all absent, and nothing is allocated.
  for (const k in headers) {
    const v = headers[k];
    if (v === undefined || k.length !== want.length || (k !== want && k.toLowerCase() !== want)) continue;
    if (typeof v === 'string') out.push(v);
    else out.push(...v);
  }
  return out;
}

export function defaultAuthnConfig(seed: string | number, users: StaticUser[] = []): AuthnConfig {
  return { users, anonymous: true, serviceAccounts: defaultServiceAccountTokenConfig(seed) };
}

/** The identities kubeadm gives the control plane and nodes, as certificate users. */
export function componentUsers(nodeNames: readonly string[] = []): StaticUser[] {
  const certUser = (name: string, groups: string[]): StaticUser => ({ name, certCN: name, groups });
  return [
    certUser('kubernetes-admin', [SYSTEM_PRIVILEGED_GROUP]),
    certUser(KUBE_SCHEDULER, []),
    certUser(KUBE_CONTROLLER_MANAGER, []),
    certUser(KUBE_PROXY, []),
    ...nodeNames.map((n) => certUser(`${NODE_USER_PREFIX}${n}`, [NODES_GROUP])),
  ];
}

/** The subject header value a component's client certificate would carry. */
export function certificateSubject(user: StaticUser): string {
  return [`CN=${user.certCN ?? user.name}`, ...user.groups.map((g) => `O=${g}`)].join(',');
}

/** Parses `CN=x,O=a,O=b`; a value without `=` is a bare CN. */
export function parseCertificateSubject(subject: string): { cn: string; orgs: string[] } | undefined {
  if (!subject.includes('=')) return subject ? { cn: subject, orgs: [] } : undefined;
  let cn = '';
  const orgs: string[] = [];
  for (const part of subject.split(',')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim().toUpperCase();
    const v = part.slice(i + 1).trim();
    if (k === 'CN') cn = v;
    else if (k === 'O') orgs.push(v);
  }
  return cn ? { cn, orgs } : undefined;
}

/**
 * Subjects parsed, by subject: every request of a client carries the same one.
 * Parsing is a pure function of the text; the few clients' subjects fit, and a
 * full memo starts again rather than grow.
 */
const subjects = new Map<string, Readonly<{ cn: string; orgs: readonly string[] }> | null>();
const SUBJECTS_LIMIT = 256;

function parsedSubject(subject: string): Readonly<{ cn: string; orgs: readonly string[] }> | null {
  let parsed = subjects.get(subject);
  if (parsed === undefined) {
    const p = parseCertificateSubject(subject);
    parsed = p ? Object.freeze({ cn: p.cn, orgs: Object.freeze(p.orgs) }) : null;
    if (subjects.size >= SUBJECTS_LIMIT) subjects.clear();
    subjects.set(subject, parsed);
  }
  return parsed;
}

/** x509 authenticator: user = CN, groups = O (CommonNameUserConversion); the scenario's entry for that CN wins. */
function x509User(subject: string, config: AuthnConfig): UserInfo | undefined {
  const parsed = parsedSubject(subject);
  if (!parsed) return undefined;
  const known = config.users.find((u) => u.certCN === parsed.cn);
  if (known) return { username: known.name, ...(known.uid ? { uid: known.uid } : {}), groups: [...known.groups] };
  return { username: parsed.cn, groups: [...parsed.orgs] };
}

/** bearertoken.Authenticator: `Authorization: Bearer <token>`, scheme case-insensitive; empty tokens offer nothing. */
export function bearerToken(headers: Headers): string | undefined {
  const auth = headerValues(headers, 'authorization')[0];
  if (!auth) return undefined;
  const parts = auth.trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1] || undefined;
}

/** AuthenticatedGroupAdder: everyone but anonymous gets system:authenticated, appended. */
function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS) return user;
  const groups = user.groups;
  for (let i = 0; i < groups.length; i++) if (groups[i] === ALL_AUTHENTICATED || groups[i] === ALL_UNAUTHENTICATED) return user;
  // Copied, then appended to: this runs for every request (a spread literal costs twice as much).
  const withGroup = groups.slice();
  withGroup.push(ALL_AUTHENTICATED);
  return { ...user, groups: withGroup };
}

function unauthorized(authenticator: Authenticator, reason: string): AuthnResult {
  return { ok: false, status: status.unauthorized(), reason, authenticator };
}

/**
 * Authenticates a request. A failure is always the generic 401 `Unauthorized`
 * (upstream never says why); `reason` records why for the trace.
 */
export function authenticateToken(token: string, config: AuthnConfig, cluster: ClusterReader, now: number): AuthnResult {
  const staticUser = config.users.find((u) => u.token !== undefined && u.token === token);
  if (staticUser) {
    const user: UserInfo = { username: staticUser.name, ...(staticUser.uid ? { uid: staticUser.uid } : {}), groups: [...staticUser.groups] };
    return { ok: true, user: withAuthenticatedGroup(user), authenticator: 'token-file' };
  }
  const sa = validateServiceAccountToken(token, config.serviceAccounts, cluster, now);
  switch (sa.type) {
    case 'valid':
      return { ok: true, user: withAuthenticatedGroup(sa.user), authenticator: 'service-account' };
    case 'invalid':
      return unauthorized('service-account', sa.reason);
    case 'notMine':
      return unauthorized('bearer-token', 'invalid bearer token');
    default:
      return assertNever(sa, 'token validation');
  }
}

/**
 * kube-apiserver's token cache (--token-success-cache-ttl... the built-in
 * authentication options: successes kept 10 s, failures not at all;
 * k8s.io/apiserver/pkg/authentication/token/cache): a bearer token that
 * authenticated is not verified again within the TTL. Plain data, owned by the
 * server.
 */
export class TokenCache {
  static readonly SUCCESS_TTL_MS = 10_000;
  private static readonly MAX_ENTRIES = 4096;
  readonly entries = new Map<string, { expiresAt: number; result: AuthnResult & { ok: true } }>();

  get(token: string, now: number): (AuthnResult & { ok: true }) | undefined {
    const e = this.entries.get(token);
    if (!e) return undefined;
    if (e.expiresAt > now) return e.result;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, result: AuthnResult & { ok: true }, now: number): void {
    if (this.entries.size >= TokenCache.MAX_ENTRIES) for (const [k, e] of this.entries) if (e.expiresAt <= now || this.entries.size >= TokenCache.MAX_ENTRIES) this.entries.delete(k);
    this.entries.set(token, { expiresAt: now + TokenCache.SUCCESS_TTL_MS, result });
  }
}

export function authenticate(headers: Headers, config: AuthnConfig, cluster: ClusterReader, now: number, tokens?: TokenCache): AuthnResult {
  const subject = headerValues(headers, CLIENT_CERT_HEADER)[0];
  if (subject) {
    const user = x509User(subject, config);
    if (user) return { ok: true, user: withAuthenticatedGroup(user), authenticator: 'x509' };
  }
  const token = bearerToken(headers);
  if (token !== undefined) {
    const hit = tokens?.get(token, now);
    if (hit) return hit;
    const r = authenticateToken(token, config, cluster, now);
    if (r.ok) tokens?.set(token, r, now);
    return r;
  }
  if (!config.anonymous) return unauthorized('anonymous', 'no credentials and anonymous auth is disabled');
  return { ok: true, user: anonymousUser(), authenticator: 'anonymous' };
}

registerClass('TokenCache', TokenCache);
