// APIServerIdentity (beta, on in v1.32): each kube-apiserver holds a Lease in
// kube-system named after its identity, apiserver-<hash of its hostname>, and
// renews it every 10 s through its loopback client (the post-start hook
// start-kube-apiserver-identity-lease-controller, running component-helpers'
// lease controller: PUT the Lease it last wrote, falling back to GET/create when
// that fails). The lease lasts 3600 s; every 3600 s the identity lease garbage
// collector deletes the ones whose holder stopped renewing
// (pkg/controlplane/apiserver/server.go, pkg/controlplane/controller/apiserverleasegc).
// Plain data (the engine snapshots it).
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import { sha256, utf8 } from '../auth/sha256';
import { base32 } from '../../sim/base32';
import { parseRfc3339, rfc3339Micro } from '../http/time';
import type { ApiResponse } from '../types';
import { loopbackRequest, type LoopbackHost } from './loopback';
import { newUid } from './ids';

/** IdentityLeaseDurationSeconds. */
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
/** IdentityLeaseRenewIntervalPeriod (the lease controller adds up to 4% jitter). */
export const IDENTITY_LEASE_RENEW_MS = 10_000;
/** IdentityLeaseGCPeriod. */
export const IDENTITY_LEASE_GC_MS = 3600_000;
export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
const HOSTNAME_LABEL = 'kubernetes.io/hostname';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';

/**
 * The server's identity: apiserver- and the lowered base32 of the first 16 bytes
 * of SHA-256 over the hostname and "kube-apiserver", each prefixed by its
 * 16-bit length (k8s.io/apiserver/pkg/server/config.go NewConfig).
 */
export function apiServerId(hostname: string): string {
  const parts = [utf8(hostname), utf8('kube-apiserver')];
  const data = new Uint8Array(parts.reduce((n, p) => n + 2 + p.length, 0));
  let at = 0;
  for (const p of parts) {
    data[at++] = (p.length >> 8) & 255;
    data[at++] = p.length & 255;
    data.set(p, at);
    at += p.length;
  }
  return `apiserver-${base32(sha256(data).subarray(0, 16), false).toLowerCase()}`;
}

type Json = Record<string, unknown>;
type RenewStep = 'idle' | 'update' | 'get' | 'create';
type GcStep = 'idle' | 'list' | 'get' | 'delete';

export class IdentityLease {
  readonly name: string;
  /** <identity>_<uuid>: a new one each time the process starts. */
  holder = '';
  /** The lease controller and the garbage collector run apart, each one request at a time. */
  renewStep: RenewStep = 'idle';
  private renewWaiting = 0;
  gcStep: GcStep = 'idle';
  private gcWaiting = 0;
  /** The Lease as last written or read (the optimistic update's base). */
  private latest: Json | null = null;
  private gcQueue: string[] = [];
  renewals = 0;
  collected = 0;

  constructor(readonly hostname: string) {
    this.name = apiServerId(hostname);
  }

  /** The post-start hooks: the lease controller now, the garbage collector now and every hour. */
  start(host: LoopbackHost, ctx: ActorContext): void {
    if (this.holder) return;
    this.holder = `${this.name}_${newUid(ctx.rng)}`;
    this.sync(host, ctx);
    this.gcTimer(host, ctx);
  }

  timer(host: LoopbackHost, ctx: ActorContext): void {
    this.sync(host, ctx);
  }

  gcTimer(host: LoopbackHost, ctx: ActorContext): void {
    ctx.setTimer(IDENTITY_LEASE_GC_MS, 'identityLeaseGC');
    if (this.gcStep !== 'idle') return;
    this.gcStep = 'list';
    this.gcWaiting = host.loopback(ctx, 'identity', loopbackRequest('GET', LEASES, undefined, { labelSelector: `${IDENTITY_LABEL}=kube-apiserver` }));
  }

  /** The next renewal: 10 s after this one ended, plus up to 4% (wait.JitterUntil, sliding). */
  private next(ctx: ActorContext): void {
    this.renewStep = 'idle';
    this.renewWaiting = 0;
    ctx.setTimer(IDENTITY_LEASE_RENEW_MS * (1 + 0.04 * ctx.rng.float()), 'identityLease');
  }

  private sync(host: LoopbackHost, ctx: ActorContext): void {
    if (this.renewStep !== 'idle') return;
    if (this.latest) return this.update(host, ctx, this.latest);
    this.get(host, ctx);
  }

  private get(host: LoopbackHost, ctx: ActorContext): void {
    this.renewStep = 'get';
    this.renewWaiting = host.loopback(ctx, 'identity', loopbackRequest('GET', `${LEASES}/${this.name}`));
  }

  /** newLease: the base (or a new Lease) held by us, renewed now, with the identity labels. */
  private leaseFrom(base: Json | null, now: number): Json {
    const meta = { ...((base?.metadata as Json | undefined) ?? { name: this.name, namespace: 'kube-system' }) };
    meta.labels = { ...((meta.labels as Record<string, string> | undefined) ?? {}), [IDENTITY_LABEL]: 'kube-apiserver', [HOSTNAME_LABEL]: this.hostname };
    const spec = { ...((base?.spec as Json | undefined) ?? {}), holderIdentity: this.holder, leaseDurationSeconds: IDENTITY_LEASE_DURATION_SECONDS, renewTime: rfc3339Micro(now) };
    return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...(base ?? {}), metadata: meta, spec };
  }

  private update(host: LoopbackHost, ctx: ActorContext, base: Json): void {
    this.renewStep = 'update';
    this.renewWaiting = host.loopback(ctx, 'identity', loopbackRequest('PUT', `${LEASES}/${this.name}`, this.leaseFrom(base, ctx.now)));
  }

  onResponse(host: LoopbackHost, ctx: ActorContext, reqId: number, res: ApiResponse): void {
    if (reqId === this.renewWaiting) return this.onRenew(host, ctx, res);
    if (reqId === this.gcWaiting) return this.onGc(host, ctx, res);
  }

  private onRenew(host: LoopbackHost, ctx: ActorContext, res: ApiResponse): void {
    const ok = res.status >= 200 && res.status < 300;
    switch (this.renewStep) {
      case 'update':
        if (ok) {
          this.latest = JSON.parse(res.body) as Json;
          this.renewals++;
          return this.next(ctx);
        }
        // A conflict or any failure: read it afresh (ensureLease), then update.
        this.latest = null;
        return this.get(host, ctx);
      case 'get':
        if (res.status === 404) {
          this.renewStep = 'create';
          this.renewWaiting = host.loopback(ctx, 'identity', loopbackRequest('POST', LEASES, this.leaseFrom(null, ctx.now)));
          return;
        }
        if (!ok) return this.next(ctx);
        return this.update(host, ctx, JSON.parse(res.body) as Json);
      case 'create':
        // Created: no update needed this round.
        if (ok) {
          this.latest = JSON.parse(res.body) as Json;
          this.renewals++;
        }
        return this.next(ctx);
      default:
        return;
    }
  }

  private onGc(host: LoopbackHost, ctx: ActorContext, res: ApiResponse): void {
    const ok = res.status >= 200 && res.status < 300;
    switch (this.gcStep) {
      case 'list':
        this.gcQueue = [];
        if (ok) for (const l of (JSON.parse(res.body) as { items?: Json[] }).items ?? []) if (expired(l, ctx.now)) this.gcQueue.push((l.metadata as Json).name as string);
        return this.gcNext(host, ctx);
      case 'get': {
        // Double-checked with the server: gone already (another server's collector), or renewed meanwhile.
        const lease = ok ? (JSON.parse(res.body) as Json) : null;
        if (lease && expired(lease, ctx.now)) {
          this.gcStep = 'delete';
          this.gcWaiting = host.loopback(ctx, 'identity', loopbackRequest('DELETE', `${LEASES}/${(lease.metadata as Json).name as string}`));
          return;
        }
        return this.gcNext(host, ctx);
      }
      case 'delete':
        if (ok) this.collected++;
        return this.gcNext(host, ctx);
      default:
        return;
    }
  }

  private gcNext(host: LoopbackHost, ctx: ActorContext): void {
    const name = this.gcQueue.shift();
    if (name === undefined) {
      this.gcStep = 'idle';
      this.gcWaiting = 0;
      return;
    }
    this.gcStep = 'get';
    this.gcWaiting = host.loopback(ctx, 'identity', loopbackRequest('GET', `${LEASES}/${name}`));
  }
}

/** isLeaseExpired: no renewTime or duration, or renewTime + duration before now. */
function expired(lease: Json, now: number): boolean {
  const spec = (lease.spec as Json | undefined) ?? {};
  if (typeof spec.renewTime !== 'string' || typeof spec.leaseDurationSeconds !== 'number') return true;
  return parseRfc3339(spec.renewTime) + spec.leaseDurationSeconds * 1000 < now;
}

registerClass('IdentityLease', IdentityLease);
