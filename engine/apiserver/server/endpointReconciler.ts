// The endpoints of the `kubernetes` Service, as kube-apiserver keeps them with
// --endpoint-reconciler-type=lease (the default): pkg/controlplane/reconcilers/
// lease.go and endpointsadapter.go, run by the kubernetesservice controller every
// 10 s. Each pass, an API server
//   1. refreshes its master lease: /registry/masterleases/<its IP>, an Endpoints
//      object written straight to storage under an etcd lease of 15 s (a fresh
//      grant each time: at that TTL the storage lease manager reuses nothing);
//   2. lists the master leases: the IPs of the API servers alive now;
//   3. reads default/kubernetes (Endpoints) through its loopback client and, when
//      the IPs, ports or the skip-mirror label are not right, writes it;
//   4. makes the EndpointSlice "kubernetes" follow the Endpoints.
// A stopped API server drops out once its lease expires, at the next pass of
// another. Plain data (the engine snapshots it).
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { CallRecord } from '../../etcd/client/client';
import type { LeaseGrantResponse, RangeResponse, TxnRequest, TxnResponse } from '../../etcd/api/rpc';
import type { ApiRequest, ApiResponse } from '../types';
import { binaryToUtf8, utf8ToBinary } from '../../etcd/api/bytes';
import { keyBytes, prefixRange } from '../storage/codec';
import { deepEqual } from '../validation/util';
import { loopbackRequest, type LoopbackHost } from './loopback';

/** DefaultEndpointReconcilerInterval. */
export const ENDPOINT_RECONCILE_INTERVAL_MS = 10_000;
/** DefaultEndpointReconcilerTTL: a master lease's etcd lease. */
export const MASTER_LEASE_TTL_SECONDS = 15;
/** Where the master leases live (the reconciler's own storage, under the registry prefix). */
export const MASTER_LEASES_PREFIX = '/registry/masterleases/';

/** A pass still waiting after this long is abandoned and the next starts afresh. */
const PASS_TIMEOUT_MS = 60_000;

const SERVICE = 'kubernetes';
const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const ENDPOINTS_PATH = `/api/v1/namespaces/default/endpoints`;
const SLICES_PATH = `/apis/discovery.k8s.io/v1/namespaces/default/endpointslices`;

/** What the reconciler needs of its API server. */
export interface ReconcilerHost extends LoopbackHost {
  readonly id: string;
  /** host:port of this server (the lease holds the host). */
  readonly config: { serverAddress: string };
  /** An etcd call whose answer comes back to `onEtcd`. */
  etcdCall(ctx: ActorContext, op: null, type: 'RangeRequest' | 'LeaseGrantRequest' | 'TxnRequest', body: never, purpose: 'endpointReconciler'): number;
}

type Step = 'idle' | 'readLease' | 'grant' | 'writeLease' | 'list' | 'getEndpoints' | 'writeEndpoints' | 'getSlice' | 'writeSlice';

type Json = Record<string, unknown>;

export interface EndpointPort {
  name: string;
  port: number;
  protocol: string;
}

export class EndpointReconciler {
  step: Step = 'idle';
  /** The etcd call or loopback request the pass waits on. */
  waitingOn = 0;
  /** The master lease as read: its JSON and mod revision (0: none yet). */
  private leaseValue: string | null = null;
  private leaseModRevision = 0;
  private leaseId = 0;
  /** The API server IPs the leases list, in key order. */
  ips: string[] = [];
  /** The Endpoints the pass settled on (what the slice follows). */
  private endpoints: Json | null = null;
  /** Passes run, and why the last one stopped early (for the trace and tests). */
  passes = 0;
  lastError = '';
  /** When the pass in progress began (one stuck past a minute is given up). */
  private startedAt = 0;

  constructor(readonly ports: EndpointPort[] = [{ name: 'https', port: 6443, protocol: 'TCP' }]) {}

  /** The IP this server advertises (--advertise-address). */
  static ipOf(host: ReconcilerHost): string {
    const a = host.config.serverAddress;
    const i = a.lastIndexOf(':');
    return i > 0 ? a.slice(0, i) : a;
  }

  /** One pass, unless one is still going (wait.Until runs them one after another). */
  run(host: ReconcilerHost, ctx: ActorContext): void {
    if (this.step !== 'idle' && ctx.now - this.startedAt < PASS_TIMEOUT_MS) return;
    this.startedAt = ctx.now;
    this.passes++;
    this.lastError = '';
    this.step = 'readLease';
    this.waitingOn = host.etcdCall(ctx, null, 'RangeRequest', { key: keyBytes(MASTER_LEASES_PREFIX + EndpointReconciler.ipOf(host)) } as never, 'endpointReconciler');
  }

  private stop(error: string): void {
    this.step = 'idle';
    this.waitingOn = 0;
    this.lastError = error;
  }

  onEtcd(host: ReconcilerHost, ctx: ActorContext, call: CallRecord): void {
    if (call.id !== this.waitingOn) return;
    if (call.outcome?.status !== 'ok') return this.stop(`${this.step}: ${call.outcome?.status === 'error' ? call.outcome.error : 'no answer'}`);
    const body = call.outcome.body;
    switch (this.step) {
      case 'readLease': {
        const kv = (body as RangeResponse).kvs[0];
        this.leaseValue = kv ? binaryToUtf8(kv.value) : null;
        this.leaseModRevision = kv ? kv.modRevision : 0;
        this.step = 'grant';
        this.waitingOn = host.etcdCall(ctx, null, 'LeaseGrantRequest', { TTL: MASTER_LEASE_TTL_SECONDS } as never, 'endpointReconciler');
        return;
      }
      case 'grant': {
        this.leaseId = (body as LeaseGrantResponse).ID;
        this.step = 'writeLease';
        this.waitingOn = host.etcdCall(ctx, null, 'TxnRequest', this.leaseTxn(EndpointReconciler.ipOf(host)) as never, 'endpointReconciler');
        return;
      }
      case 'writeLease': {
        // Lost a race with itself (a pass of an earlier incarnation): the next pass reads it again.
        if (!(body as TxnResponse).succeeded) return this.stop('master lease changed while it was written');
        this.step = 'list';
        const { key, rangeEnd } = prefixRange(MASTER_LEASES_PREFIX);
        this.waitingOn = host.etcdCall(ctx, null, 'RangeRequest', { key, rangeEnd } as never, 'endpointReconciler');
        return;
      }
      case 'list': {
        this.ips = [];
        for (const kv of (body as RangeResponse).kvs) {
          const ip = leaseIp(binaryToUtf8(kv.value));
          if (ip) this.ips.push(ip);
        }
        if (this.ips.length === 0) return this.stop('no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes Service');
        this.step = 'getEndpoints';
        this.request(host, ctx, { method: 'GET', path: `${ENDPOINTS_PATH}/${SERVICE}` });
        return;
      }
      default:
        return;
    }
  }

  /** GuaranteedUpdate of the master lease: the IP set, generation bumped (a write that changes nothing would not refresh the TTL). */
  private leaseTxn(ip: string): TxnRequest {
    let existing: Json = {};
    try {
      if (this.leaseValue !== null) existing = JSON.parse(this.leaseValue) as Json;
    } catch {
      existing = {};
    }
    const meta = { ...((existing.metadata as Json | undefined) ?? {}) };
    meta.generation = (typeof meta.generation === 'number' ? meta.generation : 0) + 1;
    if (!('creationTimestamp' in meta)) meta.creationTimestamp = null;
    const obj = { kind: 'Endpoints', apiVersion: 'v1', metadata: meta, subsets: [{ addresses: [{ ip }] }] };
    const key = keyBytes(MASTER_LEASES_PREFIX + ip);
    return {
      compare: [{ key, target: 'MOD', result: 'EQUAL', modRevision: this.leaseModRevision }],
      success: [{ requestPut: { key, value: utf8ToBinary(JSON.stringify(obj)), lease: this.leaseId } }],
      failure: [{ requestRange: { key } }],
    };
  }

  private request(host: ReconcilerHost, ctx: ActorContext, r: { method: ApiRequest['method']; path: string; body?: unknown }): void {
    this.waitingOn = host.loopback(ctx, 'endpoints', loopbackRequest(r.method, r.path, r.body));
  }

  onResponse(host: ReconcilerHost, ctx: ActorContext, reqId: number, res: ApiResponse): void {
    if (reqId !== this.waitingOn) return;
    switch (this.step) {
      case 'getEndpoints': {
        if (res.status !== 200 && res.status !== 404) return this.stop(`get endpoints: ${res.status}`);
        const current = res.status === 200 ? (JSON.parse(res.body) as Json) : null;
        const e: Json = current ?? { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: SERVICE, namespace: 'default' } };
        const desired = this.desiredEndpoints(e);
        if (!desired) {
          this.endpoints = e;
          return this.getSlice(host, ctx);
        }
        this.endpoints = desired;
        this.step = 'writeEndpoints';
        this.request(host, ctx, current ? { method: 'PUT', path: `${ENDPOINTS_PATH}/${SERVICE}`, body: desired } : { method: 'POST', path: ENDPOINTS_PATH, body: desired });
        return;
      }
      case 'writeEndpoints': {
        // AlreadyExists: another API server created it first (not an error upstream).
        if (res.status >= 300 && res.status !== 409) return this.stop(`write endpoints: ${res.status}`);
        if (res.status < 300) this.endpoints = JSON.parse(res.body) as Json;
        return this.getSlice(host, ctx);
      }
      case 'getSlice': {
        if (res.status !== 200 && res.status !== 404) return this.stop(`get endpointslice: ${res.status}`);
        const desired = sliceFromEndpoints(this.endpoints ?? {});
        if (res.status === 404) {
          this.step = 'writeSlice';
          this.request(host, ctx, { method: 'POST', path: SLICES_PATH, body: desired });
          return;
        }
        const current = JSON.parse(res.body) as Json;
        const same = current.addressType === desired.addressType && deepEqual(current.endpoints ?? [], desired.endpoints) && deepEqual(current.ports ?? [], desired.ports) && deepEqual((current.metadata as Json | undefined)?.labels ?? {}, (desired.metadata as Json).labels);
        if (same) return this.stop('');
        this.step = 'writeSlice';
        this.request(host, ctx, { method: 'PUT', path: `${SLICES_PATH}/${SERVICE}`, body: desired });
        return;
      }
      case 'writeSlice':
        return this.stop(res.status < 300 || res.status === 409 ? '' : `write endpointslice: ${res.status}`);
      default:
        return;
    }
  }

  private getSlice(host: ReconcilerHost, ctx: ActorContext): void {
    this.step = 'getSlice';
    this.request(host, ctx, { method: 'GET', path: `${SLICES_PATH}/${SERVICE}` });
  }

  /**
   * lease.go doReconcile over `e`: null when it is already right (one subset,
   * these ports, exactly the leased IPs, the skip-mirror label set), else the
   * Endpoints to write.
   */
  private desiredEndpoints(e: Json): Json | null {
    const meta = { ...((e.metadata as Json | undefined) ?? {}) };
    const labels = { ...((meta.labels as Record<string, string> | undefined) ?? {}) };
    const skipMirrorChanged = labels[SKIP_MIRROR_LABEL] !== 'true';
    labels[SKIP_MIRROR_LABEL] = 'true';
    meta.labels = labels;
    const subsets = Array.isArray(e.subsets) ? (e.subsets as Json[]) : [];
    const first = subsets[0];
    const formatCorrect = subsets.length === 1 && first !== undefined;
    const addresses = formatCorrect && Array.isArray(first.addresses) ? (first.addresses as Json[]) : [];
    const ipCorrect = formatCorrect && addresses.length === this.ips.length && addresses.every((a) => this.ips.includes(a.ip as string)) && !(Array.isArray(first.notReadyAddresses) && first.notReadyAddresses.length > 0);
    const portsCorrect = formatCorrect && deepEqual(first.ports ?? [], this.ports);
    if (!skipMirrorChanged && formatCorrect && ipCorrect && portsCorrect) return null;
    let out: Json[] = formatCorrect ? subsets.map((s) => ({ ...s })) : [{ addresses: [], ports: this.ports }];
    if (!formatCorrect || !ipCorrect) {
      // RepackSubsets keeps the addresses in lexicographic order.
      out[0]!.addresses = [...this.ips].sort().map((ip) => ({ ip }));
      delete out[0]!.notReadyAddresses;
    }
    if (!portsCorrect) out[0]!.ports = this.ports;
    out = out.filter((s) => Array.isArray(s.addresses) && s.addresses.length > 0);
    return { ...e, apiVersion: 'v1', kind: 'Endpoints', metadata: meta, subsets: out };
  }
}

/** The IP a master lease holds (its Endpoints' first address). */
function leaseIp(text: string): string | null {
  try {
    const o = JSON.parse(text) as { subsets?: { addresses?: { ip?: string }[] }[] };
    const ip = o.subsets?.[0]?.addresses?.[0]?.ip;
    return typeof ip === 'string' && ip ? ip : null;
  } catch {
    return null;
  }
}

/** endpointSliceFromEndpoints: the slice named as the Endpoints, IPv4, every address ready. */
export function sliceFromEndpoints(e: Json): Json & { endpoints: Json[]; ports: Json[]; addressType: string } {
  const subset = (Array.isArray(e.subsets) ? (e.subsets as Json[]) : [])[0];
  const ports = subset && Array.isArray(subset.ports) ? (subset.ports as Json[]).map((p) => ({ name: p.name, port: p.port, protocol: p.protocol })) : [];
  const endpoints: Json[] = [];
  if (subset) {
    for (const a of (subset.addresses as Json[] | undefined) ?? []) endpoints.push({ addresses: [a.ip], conditions: { ready: true } });
    for (const a of (subset.notReadyAddresses as Json[] | undefined) ?? []) endpoints.push({ addresses: [a.ip], conditions: { ready: false } });
  }
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: SERVICE, namespace: 'default', labels: { [SERVICE_NAME_LABEL]: SERVICE } },
    addressType: 'IPv4',
    endpoints,
    ports,
  };
}

registerClass('EndpointReconciler', EndpointReconciler);
