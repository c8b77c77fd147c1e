// kube-apiserver's aggregation layer (k8s.io/kube-aggregator, v1.32), kept to
// what extension API servers such as metrics-server need:
//
// - the proxy (apiserver/handler_proxy.go): a request for a group/version an
//   APIService with spec.service registers goes, once authenticated and
//   authorized here, to that service with the caller's identity in
//   X-Remote-User / X-Remote-Group; an APIService that is not Available
//   answers 503 "service unavailable";
// - the availability controller (controllers/status/remote): every 30 s (and
//   when the APIService changes) the Service must exist and listen on the
//   port, have a ready endpoint and answer discovery at /apis/<group>/<version>
//   within 5 s; the Available condition (Passed, ServiceNotFound,
//   ServicePortError, MissingEndpoints, FailedDiscoveryCheck) is written to
//   the APIService's status;
// - discovery: available groups join /apis and aggregated discovery, with the
//   resources the service's discovery answer listed.
//
// A Service reaches its backend through kube-proxy upstream; here the
// scenario's routing table names the actor behind each service, and the
// backend's /readyz stands in for its endpoints' readiness.
import type { ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { KObject } from '../../apimachinery/types';
import { httpMsg, type HttpRequestMsg, type HttpResponseMsg } from '../http/messages';
import { rfc3339 } from '../http/time';
import type { ApiRequest, ApiResponse, UserInfo } from '../types';
import type { RequestInfo } from '../http/requestInfo';

/** How often each APIService is checked (the informer's resync), and the discovery timeout. */
export const AVAILABILITY_RESYNC_MS = 30_000;
export const DISCOVERY_TIMEOUT_MS = 5_000;
/** How long a proxied request may take (the request timeout). */
const PROXY_TIMEOUT_MS = 60_000;

export interface APIServiceSpec {
  group?: string;
  version?: string;
  service?: { namespace?: string; name?: string; port?: number } | null;
  groupPriorityMinimum?: number;
  versionPriority?: number;
}

export interface AvailableCondition {
  type: 'Available';
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** A group/version served by an extension server, with the resources its discovery listed. */
export interface AggregatedGroupVersion {
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
  resources: { name: string; singularName?: string; namespaced: boolean; kind: string; verbs: string[]; shortNames?: string[]; categories?: string[] }[];
}

/** What the aggregator needs of its API server. */
export interface AggregatorHost {
  readonly cluster: { get(group: string, resource: string, namespace: string | undefined, name: string): KObject | undefined; list(group: string, resource: string): readonly KObject[] };
  /** Writes an APIService's status (a compare-and-swap on its resourceVersion). */
  writeAPIServiceStatus(ctx: ActorContext, obj: KObject): void;
  /** Answers a client and closes its record. */
  finish(ctx: ActorContext, client: ActorId, reqId: number, recordId: number, res: ApiResponse): void;
}

type Pending =
  | { kind: 'proxy'; client: ActorId; clientReqId: number; recordId: number; timer: number }
  | { kind: 'check'; apiService: string; step: 'readyz' | 'discovery'; url: string; timer: number };

/** The APIServices with a service, by the (shared, unchanging) list they were taken from. */
const withService = new WeakMap<readonly KObject[], KObject[]>();

const specOf = (o: KObject): APIServiceSpec => (o.spec ?? {}) as APIServiceSpec;

export function availableCondition(o: KObject): AvailableCondition | undefined {
  return ((o.status as { conditions?: AvailableCondition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Available');
}

const text = (status: number, body: string): ApiResponse => ({ status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body });

export class Aggregator {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Per APIService: when it was last checked, at which resourceVersion. */
  private readonly checked = new Map<string, { at: number; rv: string }>();
  /** Discovery answers of available services, by APIService name. */
  readonly discovered = new Map<string, AggregatedGroupVersion>();

  constructor(
    /** Service "namespace/name" → the actor serving it. */
    readonly backends: Readonly<Record<string, ActorId>>,
  ) {}

  owns(from: ActorId): boolean {
    return Object.values(this.backends).includes(from);
  }

  private apiServices(host: AggregatorHost): KObject[] {
    // Every request is routed: the filtered list is kept while the cache's list is the same array.
    const all = host.cluster.list('apiregistration.k8s.io', 'apiservices');
    let remote = withService.get(all);
    if (!remote) withService.set(all, (remote = all.filter((a) => !!specOf(a).service)));
    return remote;
  }

  /** The APIService (with a service) that serves this request's group/version, if any. */
  route(host: AggregatorHost, info: RequestInfo): KObject | undefined {
    let group: string;
    let version: string;
    if (info.isResourceRequest) {
      group = info.apiGroup;
      version = info.apiVersion;
    } else {
      const parts = info.path.split('/').filter(Boolean);
      if (parts[0] !== 'apis' || parts.length < 3) return undefined;
      group = parts[1]!;
      version = parts[2]!;
    }
    if (group === '') return undefined;
    return this.apiServices(host).find((a) => specOf(a).group === group && specOf(a).version === version);
  }

  /** The group document /apis/<group> of an aggregated group, when some version of it is available. */
  groupDocument(group: string): unknown | null {
    const versions = this.available().filter((g) => g.group === group);
    if (versions.length === 0) return null;
    const gvs = versions.map((v) => ({ groupVersion: `${group}/${v.version}`, version: v.version }));
    return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: gvs, preferredVersion: gvs[0] };
  }

  /** Available aggregated group-versions, by group priority (highest first) then version priority. */
  available(): AggregatedGroupVersion[] {
    return [...this.discovered.values()].sort((a, b) => b.groupPriorityMinimum - a.groupPriorityMinimum || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) || b.versionPriority - a.versionPriority);
  }

  /** Forwards a request to the APIService's backend (proxyHandler.ServeHTTP). */
  proxy(host: AggregatorHost, ctx: ActorContext, apiService: KObject, client: ActorId, m: HttpRequestMsg, recordId: number, user: UserInfo): void {
    const backend = this.backendOf(apiService);
    if (availableCondition(apiService)?.status !== 'True' || !backend) return host.finish(ctx, client, m.reqId, recordId, text(503, 'service unavailable\n'));
    const id = this.nextId++;
    const timer = ctx.setTimer(PROXY_TIMEOUT_MS, 'aggregator:timeout', id);
    this.pending.set(id, { kind: 'proxy', client, clientReqId: m.reqId, recordId, timer });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.request.headers)) if (k !== 'authorization' && !k.startsWith('impersonate-') && !k.startsWith('x-kubeglass-')) headers[k] = v;
    // The requestheader identity the extension server trusts from the front proxy's certificate.
    headers['x-remote-user'] = user.username;
    if (user.groups.length) headers['x-remote-group'] = user.groups.join(',');
    const req: ApiRequest = { ...m.request, headers };
    ctx.send(backend, httpMsg.request(id, req));
  }

  private backendOf(apiService: KObject): ActorId | undefined {
    const svc = specOf(apiService).service;
    return svc ? this.backends[`${svc.namespace ?? ''}/${svc.name ?? ''}`] : undefined;
  }

  /** A message from a backend: the answer to a proxied request or to a check. */
  receive(host: AggregatorHost, ctx: ActorContext, _from: ActorId, p: Payload): void {
    if (p.type !== 'HttpResponse') return;
    const m = p as unknown as HttpResponseMsg;
    const pending = this.pending.get(m.reqId);
    if (!pending) return;
    this.pending.delete(m.reqId);
    ctx.cancelTimer(pending.timer);
    if (pending.kind === 'proxy') return host.finish(ctx, pending.client, pending.clientReqId, pending.recordId, m.response);
    this.onCheck(host, ctx, pending, m.response.status, m.response.body);
  }

  /** A message to a backend was refused (its process is down). */
  refused(host: AggregatorHost, ctx: ActorContext, to: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const pending = this.pending.get(reqId);
    if (!pending) return;
    this.pending.delete(reqId);
    ctx.cancelTimer(pending.timer);
    if (pending.kind === 'proxy') return host.finish(ctx, pending.client, pending.clientReqId, pending.recordId, text(503, `error trying to reach service: dial tcp ${to}: connect: connection refused\n`));
    this.onCheck(host, ctx, pending, 0, `connect: connection refused`);
  }

  timeout(host: AggregatorHost, ctx: ActorContext, id: number): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (pending.kind === 'proxy') return host.finish(ctx, pending.client, pending.clientReqId, pending.recordId, text(503, 'error trying to reach service: context deadline exceeded\n'));
    this.onCheck(host, ctx, pending, -1, '');
  }

  // ---- availability ------------------------------------------------------------------------

  /** The periodic pass: each APIService with a service is checked when new, changed, or due. */
  tick(host: AggregatorHost, ctx: ActorContext): void {
    const seen = new Set<string>();
    for (const a of this.apiServices(host)) {
      const name = a.metadata.name!;
      seen.add(name);
      const last = this.checked.get(name);
      if (last && last.rv === a.metadata.resourceVersion && ctx.now - last.at < AVAILABILITY_RESYNC_MS) continue;
      if ([...this.pending.values()].some((p) => p.kind === 'check' && p.apiService === name)) continue;
      this.check(host, ctx, a);
    }
    for (const name of [...this.discovered.keys()]) if (!seen.has(name)) this.discovered.delete(name);
    for (const name of [...this.checked.keys()]) if (!seen.has(name)) this.checked.delete(name);
  }

  private check(host: AggregatorHost, ctx: ActorContext, a: KObject): void {
    const name = a.metadata.name!;
    this.checked.set(name, { at: ctx.now, rv: a.metadata.resourceVersion ?? '' });
    const spec = specOf(a);
    const svcRef = spec.service!;
    const svcName = svcRef.name ?? '';
    const ns = svcRef.namespace ?? '';
    const port = svcRef.port ?? 443;
    const svc = host.cluster.get('', 'services', ns, svcName);
    if (!svc) return this.setAvailable(host, ctx, a, 'False', 'ServiceNotFound', `service/${svcName} in ${JSON.stringify(ns)} is not present`);
    const sp = (svc.spec ?? {}) as { type?: string; clusterIP?: string; ports?: { name?: string; port?: number }[] };
    const found = (sp.ports ?? []).find((p) => p.port === port);
    if ((sp.type ?? 'ClusterIP') === 'ClusterIP' && !found) return this.setAvailable(host, ctx, a, 'False', 'ServicePortError', `service/${svcName} in ${JSON.stringify(ns)} is not listening on port ${port}`);
    const backend = this.backendOf(a);
    const portName = found?.name ?? '';
    if (!backend) return this.setAvailable(host, ctx, a, 'False', 'MissingEndpoints', `endpoints for service/${svcName} in ${JSON.stringify(ns)} have no addresses with port name ${JSON.stringify(portName)}`);
    const url = `https://${sp.clusterIP ?? svcName}:${port}/apis/${spec.group}/${spec.version}`;
    this.send(ctx, backend, name, 'readyz', url, '/readyz');
  }

  private send(ctx: ActorContext, backend: ActorId, apiService: string, step: 'readyz' | 'discovery', url: string, path: string): void {
    const id = this.nextId++;
    const timer = ctx.setTimer(DISCOVERY_TIMEOUT_MS, 'aggregator:timeout', id);
    this.pending.set(id, { kind: 'check', apiService, step, url, timer });
    // The check runs as system:kube-aggregator in system:masters, so access is never the problem.
    ctx.send(backend, httpMsg.request(id, { method: 'GET', path, query: {}, headers: { accept: 'application/json', 'x-remote-user': 'system:kube-aggregator', 'x-remote-group': 'system:masters' } }));
  }

  /** status < 0: timed out; 0: connection refused. */
  private onCheck(host: AggregatorHost, ctx: ActorContext, p: Extract<Pending, { kind: 'check' }>, status: number, body: string): void {
    const a = host.cluster.get('apiregistration.k8s.io', 'apiservices', undefined, p.apiService);
    if (!a) return;
    const spec = specOf(a);
    const svc = spec.service!;
    if (p.step === 'readyz') {
      // The pod's readiness probe: until it passes, its endpoints are not ready.
      if (status !== 200) {
        const svcObj = host.cluster.get('', 'services', svc.namespace, svc.name ?? '');
        const portName = ((svcObj?.spec as { ports?: { name?: string; port?: number }[] } | undefined)?.ports ?? []).find((x) => x.port === (svc.port ?? 443))?.name ?? '';
        return this.setAvailable(host, ctx, a, 'False', 'MissingEndpoints', `endpoints for service/${svc.name} in ${JSON.stringify(svc.namespace)} have no addresses with port name ${JSON.stringify(portName)}`);
      }
      const backend = this.backendOf(a);
      if (backend) this.send(ctx, backend, p.apiService, 'discovery', p.url, `/apis/${spec.group}/${spec.version}`);
      return;
    }
    if (status < 0) return this.setAvailable(host, ctx, a, 'False', 'FailedDiscoveryCheck', `failing or missing response from ${p.url}: Get ${JSON.stringify(p.url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
    if (status === 0) return this.setAvailable(host, ctx, a, 'False', 'FailedDiscoveryCheck', `failing or missing response from ${p.url}: Get ${JSON.stringify(p.url)}: dial tcp: ${body}`);
    if (status < 200 || status >= 300) return this.setAvailable(host, ctx, a, 'False', 'FailedDiscoveryCheck', `failing or missing response from ${p.url}: bad status from ${p.url}: ${status}`);
    try {
      const list = JSON.parse(body) as { resources?: AggregatedGroupVersion['resources'] };
      this.discovered.set(p.apiService, {
        group: spec.group ?? '',
        version: spec.version ?? '',
        groupPriorityMinimum: spec.groupPriorityMinimum ?? 0,
        versionPriority: spec.versionPriority ?? 0,
        resources: list.resources ?? [],
      });
    } catch {
      return this.setAvailable(host, ctx, a, 'False', 'FailedDiscoveryCheck', `failing or missing response from ${p.url}: invalid discovery document`);
    }
    this.setAvailable(host, ctx, a, 'True', 'Passed', 'all checks passed');
  }

  /** SetAPIServiceCondition + updateAPIServiceStatus: written only when something changed; the transition time moves with the status. */
  private setAvailable(host: AggregatorHost, ctx: ActorContext, a: KObject, st: AvailableCondition['status'], reason: string, message: string): void {
    if (st !== 'True') this.discovered.delete(a.metadata.name!);
    const old = availableCondition(a);
    if (old && old.status === st && old.reason === reason && old.message === message) return;
    const cond: AvailableCondition = { type: 'Available', status: st, lastTransitionTime: old && old.status === st ? old.lastTransitionTime : rfc3339(ctx.now), reason, message };
    const conditions = ((a.status as { conditions?: AvailableCondition[] } | undefined)?.conditions ?? []).filter((c) => c.type !== 'Available');
    host.writeAPIServiceStatus(ctx, { ...a, status: { ...(a.status ?? {}), conditions: [...conditions, cond] } });
  }
}

registerClass('Aggregator', Aggregator);
