// GET /api/v1/componentstatuses (pkg/registry/core/componentstatus, deprecated
// since v1.19 but served in v1.32): nothing stored; each read probes the
// components there and then. kube-controller-manager and kube-scheduler are
// probed at https://127.0.0.1:10257/healthz and :10259/healthz, the ones on this
// API server's own host (here the replica with the server's index), by an
// HTTP request over the simulated network with the prober's 20 s timeout; each
// etcd storage backend ("etcd-0": one here, however many members) by a read
// through the server's etcd client. The list is in the order the answers came.
import type { ActorId } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import { status } from '../../apimachinery/status';
import type { KObject } from '../../apimachinery/types';
import { httpMsg, warningHeader } from '../http/messages';
import type { ApiResponse } from '../types';
import type { CallRecord } from '../../etcd/client/client';
import type { ApiServer } from './apiserver';
import { statusResponse } from './apiserver';
import * as chain from './chain';
import type { RestOp } from './rest';

/** probeTimeOut in componentstatus/validator.go. */
export const PROBE_TIMEOUT_MS = 20_000;
/** The deprecation warning every request to the resource gets. */
export const COMPONENT_STATUS_WARNING = 'v1 ComponentStatus is deprecated in v1.19+';
const WARN = warningHeader([COMPONENT_STATUS_WARNING]);

type Server = { name: string; kind: 'http'; actor: ActorId; port: number } | { name: string; kind: 'etcd' };

export interface ComponentResult {
  name: string;
  /** probe.Result: Success → True, Failure → False, Unknown → Unknown. */
  status: 'True' | 'False' | 'Unknown';
  message: string;
  error: string;
}

interface Probing {
  opId: number;
  waiting: number;
  results: ComponentResult[];
}

/** serversToValidate, for the API server `id` (kube-apiserver-N talks to the components numbered N). */
function serversFor(id: ActorId): Server[] {
  const n = /-(\d+)$/.exec(id)?.[1] ?? '0';
  return [
    { name: 'controller-manager', kind: 'http', actor: `kube-controller-manager-${n}`, port: 10257 },
    { name: 'scheduler', kind: 'http', actor: `kube-scheduler-${n}`, port: 10259 },
    { name: 'etcd-0', kind: 'etcd' },
  ];
}

const urlOf = (port: number) => `https://127.0.0.1:${port}/healthz`;

export class ComponentStatuses {
  private nextReq = 1;
  /** Probe request id → what it is for. */
  private readonly http = new Map<number, { probing: number; name: string; actor: ActorId; port: number; timer: number }>();
  /** etcd call id → what it is for. */
  private readonly etcd = new Map<number, { probing: number; name: string }>();
  private readonly probings = new Map<number, Probing>();

  /** A get or list of componentstatuses: probe, then answer. */
  start(s: ApiServer, ctx: ActorContext, op: RestOp): void {
    const verb = op.info.verb;
    if (verb !== 'get' && verb !== 'list') return s.complete(ctx, op, statusResponse(status.methodNotSupported({ group: '', resource: 'componentstatuses' }, verb), WARN));
    const sel = chain.parseSelectors(op.req, op.r);
    if (!sel.ok) return s.complete(ctx, op, statusResponse(sel.status, WARN));
    let servers = serversFor(s.id);
    if (verb === 'get') {
      servers = servers.filter((x) => x.name === op.info.name);
      if (servers.length === 0) return s.complete(ctx, op, statusResponse(status.notFound({ group: '', resource: 'componentstatus' }, op.info.name), WARN));
    }
    const probing = op.id;
    this.probings.set(probing, { opId: op.id, waiting: servers.length, results: [] });
    for (const server of servers) {
      if (server.kind === 'etcd') {
        const id = s.etcdCall(ctx, null, 'RangeRequest', { key: 'health' }, 'componentStatus');
        this.etcd.set(id, { probing, name: server.name });
        continue;
      }
      const reqId = this.nextReq++;
      const timer = ctx.setTimer(PROBE_TIMEOUT_MS, 'componentStatusTimeout', reqId);
      this.http.set(reqId, { probing, name: server.name, actor: server.actor, port: server.port, timer });
      ctx.send(server.actor, httpMsg.request(reqId, { method: 'GET', path: '/healthz', query: {}, headers: { 'user-agent': 'kube-probe/1.32', accept: '*/*' } }));
    }
  }

  owns(from: ActorId, reqId: number): boolean {
    return this.http.get(reqId)?.actor === from;
  }

  /** The component answered: 2xx/3xx is Success with the body as its message (DoHTTPProbe). */
  response(s: ApiServer, ctx: ActorContext, reqId: number, res: ApiResponse): void {
    const p = this.http.get(reqId);
    if (!p) return;
    this.http.delete(reqId);
    ctx.cancelTimer(p.timer);
    const ok = res.status >= 200 && res.status < 400;
    this.done(s, ctx, p.probing, { name: p.name, status: ok ? 'True' : 'False', message: ok ? res.body : `HTTP probe failed with statuscode: ${res.status}`, error: '' });
  }

  /** Nothing listens (the component is down or not there), or no answer within the timeout: a Failure whose message is the transport's error. */
  failed(s: ApiServer, ctx: ActorContext, reqId: number, why: 'refused' | 'timeout'): void {
    const p = this.http.get(reqId);
    if (!p) return;
    this.http.delete(reqId);
    if (why === 'refused') ctx.cancelTimer(p.timer);
    const url = urlOf(p.port);
    const message = why === 'refused' ? `Get "${url}": dial tcp 127.0.0.1:${p.port}: connect: connection refused` : `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
    this.done(s, ctx, p.probing, { name: p.name, status: 'False', message, error: '' });
  }

  /** The etcd read came back: Success "ok", or a Failure carrying the client's error. */
  etcdDone(s: ApiServer, ctx: ActorContext, call: CallRecord): void {
    const p = this.etcd.get(call.id);
    if (!p) return;
    this.etcd.delete(call.id);
    const o = call.outcome;
    if (o?.status === 'ok') this.done(s, ctx, p.probing, { name: p.name, status: 'True', message: 'ok', error: '' });
    else this.done(s, ctx, p.probing, { name: p.name, status: 'False', message: '', error: o?.status === 'error' ? o.error.message : 'context deadline exceeded' });
  }

  private done(s: ApiServer, ctx: ActorContext, probing: number, r: ComponentResult): void {
    const pr = this.probings.get(probing);
    if (!pr) return;
    pr.results.push(r);
    if (--pr.waiting > 0) return;
    this.probings.delete(probing);
    const op = s.ops.get(pr.opId);
    if (!op) return;
    const objs = pr.results.map(componentStatusObject);
    const sel = chain.parseSelectors(op.req, op.r);
    const items = sel.ok ? objs.filter((o) => chain.matches(op.r, o, sel)) : objs;
    const body = op.info.verb === 'get' ? chain.render(op.r, op.req, items, ctx.now, null) : listBody(op, items, ctx.now);
    s.complete(ctx, op, { status: 200, headers: { 'content-type': 'application/json', ...WARN }, body: JSON.stringify(body) });
  }
}

/** getComponentStatus: one Healthy condition; empty message and error are left out. */
export function componentStatusObject(r: ComponentResult): KObject {
  return {
    apiVersion: 'v1',
    kind: 'ComponentStatus',
    metadata: { name: r.name, creationTimestamp: null as unknown as string },
    conditions: [{ type: 'Healthy', status: r.status, ...(r.message ? { message: r.message } : {}), ...(r.error ? { error: r.error } : {}) }],
  } as KObject;
}

function listBody(op: RestOp, items: KObject[], now: number): unknown {
  const out = chain.render(op.r, op.req, items, now, { resourceVersion: '' }) as { metadata?: Record<string, unknown> };
  // ComponentStatusList's ListMeta is empty (nothing stored, no resourceVersion)
  if (out.metadata && out.metadata['resourceVersion'] === '') delete out.metadata['resourceVersion'];
  return out;
}

registerClass('ComponentStatuses', ComponentStatuses);
