// How an add-on (a CSI driver, metrics-server) comes up in a cluster: its
// release manifest is applied by the cluster's admin (`kubectl apply -f`, as
// kind and kubeadm install theirs) — ServiceAccount, RBAC, Services,
// APIServices, StorageClasses… each created unless present — and its pod then
// talks to the API server as that ServiceAccount, with the token the kubelet
// would project into it (a TokenRequest here). The add-on actor drives this
// through its ApiConnection and starts working once `ready`.
import type { KObject } from '../apimachinery/types';
import type { ActorContext } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import { RESOURCES } from '../apiserver/registry/resources';
import { apiVersionOf, parseApiVersion } from '../apimachinery/types';
import type { ApiConnection } from './apiConnection';

/** The identity `kubectl apply` runs with: the cluster admin's client certificate. */
export const ADMIN_IDENTITY = { [CLIENT_CERT_HEADER]: 'CN=kubernetes-admin,O=system:masters' };
/** Projected service-account tokens live about a year (the kubelet's extended lifetime). */
const TOKEN_SECONDS = 365 * 24 * 3600;
const RETRY_MS = 1000;

export type AddonTag = { addon: 'ready' } | { addon: 'create'; index: number } | { addon: 'token' };

/** The collection URL an object is created at. */
export function collectionPath(obj: KObject): string {
  const { group, version } = parseApiVersion(obj.apiVersion ?? 'v1');
  const r = RESOURCES.find((x) => x.group === group && x.kind === obj.kind && x.version === version);
  if (!r) throw new Error(`addon: no resource serves ${obj.apiVersion} ${obj.kind}`);
  const base = group === '' ? `/api/${version}` : `/apis/${apiVersionOf(group, version)}`;
  return r.namespaced ? `${base}/namespaces/${obj.metadata.namespace}/${r.resource}` : `${base}/${r.resource}`;
}

export class AddonBootstrap {
  phase: 'ready' | 'install' | 'token' | 'done' = 'ready';
  /** Manifest objects still to create. */
  private remaining: number;

  constructor(
    readonly manifests: KObject[],
    /** The identity it works as afterwards; null: an installer, done once the objects exist. */
    readonly serviceAccount: { namespace: string; name: string } | null,
  ) {
    this.remaining = manifests.length;
  }

  get ready(): boolean {
    return this.phase === 'done';
  }

  start(ctx: ActorContext, conn: ApiConnection): void {
    this.phase = 'ready';
    conn.useIdentity(ADMIN_IDENTITY);
    conn.call(ctx, { method: 'GET', path: '/readyz' }, { addon: 'ready' } satisfies AddonTag);
  }

  static owns(tag: unknown): tag is AddonTag {
    return typeof tag === 'object' && tag !== null && 'addon' in tag;
  }

  /** An answer to one of our calls; true once the add-on has its token (the moment to start working). */
  onResponse(ctx: ActorContext, conn: ApiConnection, tag: AddonTag, status: number, body: string): boolean {
    switch (tag.addon) {
      case 'ready':
        if (status !== 200) {
          ctx.setTimer(RETRY_MS, 'addon:retry', tag);
          return false;
        }
        this.phase = 'install';
        this.remaining = this.manifests.length;
        this.manifests.forEach((obj, index) => this.create(ctx, conn, index, obj));
        if (this.manifests.length === 0) this.requestToken(ctx, conn);
        return false;
      case 'create':
        if (status !== 201 && status !== 409) {
          ctx.setTimer(RETRY_MS, 'addon:retry', tag);
          return false;
        }
        if (--this.remaining === 0) this.requestToken(ctx, conn);
        return false;
      case 'token': {
        if (status !== 201) {
          ctx.setTimer(RETRY_MS, 'addon:retry', tag);
          return false;
        }
        const token = (JSON.parse(body) as { status: { token: string } }).status.token;
        conn.useIdentity({ authorization: `Bearer ${token}` });
        this.phase = 'done';
        return true;
      }
    }
  }

  /** The retry timer of a call that failed. */
  timer(ctx: ActorContext, conn: ApiConnection, tag: AddonTag): void {
    if (tag.addon === 'ready') return this.start(ctx, conn);
    if (tag.addon === 'create') return this.create(ctx, conn, tag.index, this.manifests[tag.index]!);
    this.requestToken(ctx, conn);
  }

  private create(ctx: ActorContext, conn: ApiConnection, index: number, obj: KObject): void {
    conn.call(ctx, { method: 'POST', path: collectionPath(obj), body: obj }, { addon: 'create', index } satisfies AddonTag);
  }

  private requestToken(ctx: ActorContext, conn: ApiConnection): void {
    if (!this.serviceAccount) {
      this.phase = 'done';
      return;
    }
    this.phase = 'token';
    const { namespace, name } = this.serviceAccount;
    const tr = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [], expirationSeconds: TOKEN_SECONDS } };
    conn.call(ctx, { method: 'POST', path: `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, body: tr }, { addon: 'token' } satisfies AddonTag);
  }
}

registerClass('AddonBootstrap', AddonBootstrap);
