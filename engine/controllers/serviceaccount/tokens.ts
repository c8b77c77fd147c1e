// The tokens controller (pkg/controller/serviceaccount/tokens_controller.go,
// v1.32): a Secret of type kubernetes.io/service-account-token that names an
// existing ServiceAccount gets its `token` (a legacy JWT signed with the
// cluster's service-account key), `ca.crt` and `namespace` filled in, and the
// account's uid annotation; a token Secret whose ServiceAccount is gone is
// deleted, and deleting a ServiceAccount deletes its token Secrets. Since
// v1.24 nothing creates such Secrets automatically: users do.
// Upstream runs it on kube-controller-manager's own credentials.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { issueLegacyToken } from '../../apiserver/auth/serviceAccountToken';
import type { ServiceAccountTokenConfig } from '../../apiserver/auth/serviceAccountToken';
import { authnConfigFor } from '../../apiserver/server/scenario';
import { base64Encode } from '../../sim/base64';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { ROOT_CA_CRT } from '../framework/rootCA';
import { keyOfObject, pushRecent, type Loose } from '../endpoint/podutil';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
/** v1.ServiceAccountNameKey / ServiceAccountUIDKey and the Secret's data keys. */
export const ANN_SERVICE_ACCOUNT_NAME = 'kubernetes.io/service-account.name';
export const ANN_SERVICE_ACCOUNT_UID = 'kubernetes.io/service-account.uid';
const TOKEN_KEY = 'token';
const CA_KEY = 'ca.crt';
const NAMESPACE_KEY = 'namespace';

/** Queue keys: a ServiceAccount or a token Secret ("ns/name"). */
const SA = 'sa:';
const SECRET = 'secret:';

type Tag =
  | { type: 'get'; key: string; rv: string }
  | { type: 'update'; key: string }
  | { type: 'delete'; key: string }
  | { type: 'unref'; key: string };

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const b64 = (s: string): string => base64Encode(utf8(s));

const isTokenSecret = (s: Loose): boolean => s?.type === SERVICE_ACCOUNT_TOKEN_TYPE;

/** What a token Secret lacks (secretUpdateNeeded): the CA, the namespace, the token. */
export function secretUpdateNeeded(secret: Loose, rootCA: string): { ca: boolean; namespace: boolean; token: boolean } {
  const data = (secret.data ?? {}) as Record<string, string>;
  return { ca: rootCA.length > 0 && data[CA_KEY] !== b64(rootCA), namespace: !data[NAMESPACE_KEY], token: !data[TOKEN_KEY] };
}

/** serviceaccount.IsServiceAccountToken: the Secret names this account (and its uid, when it records one). */
function isTokenOf(secret: Loose, sa: KObject): boolean {
  if (!isTokenSecret(secret) || secret.metadata.namespace !== sa.metadata.namespace) return false;
  const ann = secret.metadata.annotations ?? {};
  if (ann[ANN_SERVICE_ACCOUNT_NAME] !== sa.metadata.name) return false;
  const uid = ann[ANN_SERVICE_ACCOUNT_UID];
  return !uid || uid === sa.metadata.uid;
}

export class TokensController implements Controller {
  readonly name = 'tokens-controller';
  readonly rootCredentials = true;
  readonly informers = ['serviceaccounts', 'secrets'] as const;
  readonly queue = new RateLimitingQueue<string>('serviceaccount_tokens');
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** Deleted ServiceAccounts, kept until their token Secrets are gone (the deletion event's object). */
  readonly deletedAccounts = new Map<string, KObject>();
  /** Deleted token Secrets whose ServiceAccount may still list them (removeSecretReference). */
  readonly deletedSecrets = new Map<string, KObject>();
  /** Secrets with a call in flight. */
  readonly inFlight = new Set<string>();

  constructor(
    private readonly tokenConfig: ServiceAccountTokenConfig = authnConfigFor(undefined).serviceAccounts,
    private readonly rootCA: string = ROOT_CA_CRT,
  ) {}

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    const o = ev.object as Loose;
    if (resource === 'serviceaccounts') {
      if (ev.type === 'DELETED') {
        this.deletedAccounts.set(keyOfObject(o), o);
        this.queue.add(SA + keyOfObject(o), ctx.now);
      }
      return;
    }
    if (resource !== 'secrets' || !isTokenSecret(o)) return;
    if (ev.type === 'DELETED') this.deletedSecrets.set(keyOfObject(o), o);
    else this.deletedSecrets.delete(keyOfObject(o));
    this.queue.add(SECRET + keyOfObject(o), ctx.now);
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    return key.startsWith(SA) ? this.syncServiceAccount(key.slice(SA.length), ctx) : this.syncSecret(key.slice(SECRET.length), ctx);
  }

  /** A deleted ServiceAccount: delete its token Secrets. */
  private syncServiceAccount(key: string, ctx: ControllerContext): SyncResult {
    const sa = this.deletedAccounts.get(key);
    if (!sa) return { type: 'done' };
    if (ctx.store('serviceaccounts').has(key)) {
      this.deletedAccounts.delete(key);
      return { type: 'done' };
    }
    let left = 0;
    for (const s of ctx.store('secrets').values()) {
      if (!isTokenOf(s, sa)) continue;
      left++;
      this.deleteToken(keyOfObject(s), ctx);
    }
    if (left === 0) this.deletedAccounts.delete(key);
    return { type: 'done' };
  }

  private syncSecret(key: string, ctx: ControllerContext): SyncResult {
    if (this.inFlight.has(key)) return { type: 'done' };
    const secret = ctx.store('secrets').get(key) as Loose | undefined;
    if (!secret) return this.removeSecretReference(key, ctx);
    if (!isTokenSecret(secret)) return { type: 'done' };
    const ann = secret.metadata.annotations ?? {};
    const saKey = `${secret.metadata.namespace}/${ann[ANN_SERVICE_ACCOUNT_NAME] ?? ''}`;
    const sa = ctx.store('serviceaccounts').get(saKey);
    const uid = ann[ANN_SERVICE_ACCOUNT_UID];
    if (!sa || (uid && uid !== sa.metadata.uid)) {
      pushRecent(this.recent, ctx.now, key, 'service account is gone: token deleted');
      this.deleteToken(key, ctx);
      return { type: 'done' };
    }
    const need = secretUpdateNeeded(secret, this.rootCA);
    if (!need.ca && !need.namespace && !need.token) return { type: 'done' };
    // generateTokenIfNeeded: work on a fresh copy, and only if the cache is not behind it.
    this.inFlight.add(key);
    ctx.request({ method: 'GET', path: `/api/v1/namespaces/${secret.metadata.namespace}/secrets/${secret.metadata.name}` }, { type: 'get', key, rv: secret.metadata.resourceVersion ?? '' } satisfies Tag);
    return { type: 'done' };
  }

  /** The Secret is gone: the ServiceAccount must not list it any more. */
  private removeSecretReference(key: string, ctx: ControllerContext): SyncResult {
    const gone = this.deletedSecrets.get(key) as Loose | undefined;
    if (!gone) return { type: 'done' };
    const ann = gone.metadata.annotations ?? {};
    const sa = ctx.store('serviceaccounts').get(`${gone.metadata.namespace}/${ann[ANN_SERVICE_ACCOUNT_NAME] ?? ''}`) as Loose | undefined;
    const refs = (sa?.secrets ?? []) as { name?: string }[];
    if (!sa || (ann[ANN_SERVICE_ACCOUNT_UID] && ann[ANN_SERVICE_ACCOUNT_UID] !== sa.metadata.uid) || !refs.some((r) => r.name === gone.metadata.name)) {
      this.deletedSecrets.delete(key);
      return { type: 'done' };
    }
    this.inFlight.add(key);
    const next = { ...sa, secrets: refs.filter((r) => r.name !== gone.metadata.name) };
    ctx.request({ method: 'PUT', path: `/api/v1/namespaces/${sa.metadata.namespace}/serviceaccounts/${sa.metadata.name}`, body: next }, { type: 'unref', key } satisfies Tag);
    return { type: 'done' };
  }

  private deleteToken(key: string, ctx: ControllerContext): void {
    if (this.inFlight.has(key)) return;
    const secret = ctx.store('secrets').get(key);
    if (!secret) return;
    this.inFlight.add(key);
    // Deleted only if it is still the Secret we looked at.
    ctx.request(
      { method: 'DELETE', path: `/api/v1/namespaces/${secret.metadata.namespace}/secrets/${secret.metadata.name}`, body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: secret.metadata.uid } } },
      { type: 'delete', key } satisfies Tag,
    );
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    this.inFlight.delete(t.key);
    if (t.type === 'get') {
      if (status !== 200) return void this.queue.addRateLimited(SECRET + t.key, ctx.now);
      const live = JSON.parse(body) as Loose;
      // Our view of the secret is out of date: its update event will bring us back.
      if (live.metadata.resourceVersion !== t.rv) return;
      const sa = ctx.store('serviceaccounts').get(`${live.metadata.namespace}/${live.metadata.annotations?.[ANN_SERVICE_ACCOUNT_NAME] ?? ''}`);
      if (!sa) return void this.queue.add(SECRET + t.key, ctx.now);
      const need = secretUpdateNeeded(live, this.rootCA);
      live.data ??= {};
      live.metadata.annotations ??= {};
      if (need.ca) live.data[CA_KEY] = b64(this.rootCA);
      if (need.namespace) live.data[NAMESPACE_KEY] = b64(live.metadata.namespace);
      if (need.token) live.data[TOKEN_KEY] = b64(issueLegacyToken(this.tokenConfig, sa, live));
      live.metadata.annotations[ANN_SERVICE_ACCOUNT_NAME] = sa.metadata.name;
      live.metadata.annotations[ANN_SERVICE_ACCOUNT_UID] = sa.metadata.uid;
      this.inFlight.add(t.key);
      ctx.request({ method: 'PUT', path: `/api/v1/namespaces/${live.metadata.namespace}/secrets/${live.metadata.name}`, body: live }, { type: 'update', key: t.key } satisfies Tag);
      return;
    }
    if (t.type === 'update') {
      if (status === 200) pushRecent(this.recent, ctx.now, t.key, 'token, ca.crt and namespace filled in');
      else if (status !== 404) this.queue.addRateLimited(SECRET + t.key, ctx.now);
      return;
    }
    if (t.type === 'delete') {
      if (status !== 200 && status !== 404 && status !== 409) this.queue.addRateLimited(SECRET + t.key, ctx.now);
      return;
    }
    // unref: a conflict means the account changed; look again (RetryOnConflict).
    if (status === 409) this.queue.add(SECRET + t.key, ctx.now);
    else this.deletedSecrets.delete(t.key);
  }
}

registerClass('TokensController', TokensController);
