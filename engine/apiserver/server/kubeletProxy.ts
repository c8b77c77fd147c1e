// kube-apiserver's connections to kubelets (pkg/registry/core/pod/rest/log.go
// and subresources.go, pkg/registry/core/node/rest/proxy.go): pods/log,
// pods/exec, pods/attach and nodes/proxy are validated here, then proxied to the kubelet
// on the pod's node — an HTTP request over the simulated network to the actor
// named like the node, port 10250 — and its answer (streamed for `follow`)
// goes back to the client. A kubelet that answers with an error becomes a
// Status with its text (kubectl: "Error from server (BadRequest): container
// "web" in pod "web-0" is waiting to start: ContainerCreating"); one that does
// not answer is the transport's error ("dial tcp …: connect: connection refused").
import type { ActorId } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { KObject, Status } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import { httpMsg, queryValue, type HttpChunkMsg, type HttpResponseMsg } from '../http/messages';
import type { ApiResponse } from '../types';
import type { ApiServer } from './apiserver';
import { statusResponse } from './apiserver';
import type { RestOp } from './rest';

/** The kubelet's port (daemonEndpoints.kubeletEndpoint). */
const KUBELET_PORT = 10250;
/** A kubelet that does not answer at all: the dial gives up after this long. */
const DIAL_TIMEOUT_MS = 30_000;

interface Pending {
  opId: number;
  client: ActorId;
  clientReqId: number;
  recordId: number;
  node: ActorId;
  /** What the error texts call the kubelet's URL. */
  url: string;
  nodeIP: string;
  streaming: boolean;
  timer: number;
}

type Pod = KObject & { spec: { nodeName?: string; containers: { name: string }[]; initContainers?: { name: string }[]; ephemeralContainers?: { name: string }[] }; status?: { phase?: string } };

const unknown = (code: number, message: string): Status => ({ ...status.internal(message), code, reason: '' as Status['reason'], message });

/** NewGenericServerResponse: the kubelet's status code becomes the reason; its text the message. */
function fromKubelet(res: ApiResponse, kind: string, name: string): Status {
  const body = res.body.trim();
  switch (res.status) {
    case 400:
      return status.badRequest(body || 'the server rejected our request for an unknown reason');
    case 404:
      return { ...status.notFound({ group: '', resource: kind }, name), message: body || 'the server could not find the requested resource' };
    case 403:
      return { ...status.forbidden({ group: '', resource: kind }, name, body), message: body };
    default:
      return unknown(res.status >= 500 ? 500 : res.status, body || `the server responded with the status code ${res.status} but did not return more information`);
  }
}

function containerNames(pod: Pod): string[] {
  return [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])].map((c) => c.name);
}

/** validateContainer (strategy.go): the named container, the only one, or why not. */
function validateContainer(pod: Pod, container: string | undefined): { ok: true; name: string } | { ok: false; status: Status } {
  if (!container) {
    if (pod.spec.containers.length === 1) return { ok: true, name: pod.spec.containers[0]!.name };
    if (pod.spec.containers.length === 0) return { ok: false, status: status.badRequest(`a container name must be specified for pod ${pod.metadata.name}`) };
    return { ok: false, status: status.badRequest(`a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containerNames(pod).join(' ')}]`) };
  }
  if (!containerNames(pod).includes(container)) return { ok: false, status: status.badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`) };
  return { ok: true, name: container };
}

/** ValidatePodLogOptions: the numbers must make sense. */
function validateLogOptions(op: RestOp, name: string): Status | null {
  const q = (k: string) => queryValue(op.req.query, k);
  const errs: { field: string; value: string; detail: string }[] = [];
  const num = (k: string, min: number, detail: string) => {
    const v = q(k);
    if (v !== undefined && !(Number(v) >= min)) errs.push({ field: k, value: v, detail });
  };
  num('tailLines', 0, 'must be greater than or equal to 0');
  num('limitBytes', 1, 'must be greater than 0');
  num('sinceSeconds', 1, 'must be greater than 0');
  if (q('sinceSeconds') !== undefined && q('sinceTime') !== undefined) return status.badRequest('at most one of `sinceTime` or `sinceSeconds` may be specified');
  if (errs.length === 0) return null;
  return status.invalid(
    { group: '', kind: 'PodLogOptions' },
    name,
    errs.map((e) => ({ type: 'FieldValueInvalid', field: e.field, badValue: Number(e.value), detail: e.detail })),
  );
}

export class KubeletProxy {
  readonly pending = new Map<number, Pending>();
  private nextReq = 1;

  /** The subresources this proxies. */
  static handles(resource: string, subresource: string): boolean {
    return (resource === 'pods' && (subresource === 'log' || subresource === 'exec' || subresource === 'attach')) || (resource === 'nodes' && subresource === 'proxy');
  }

  /** The pod (or node) has been read: validate and connect. */
  start(s: ApiServer, ctx: ActorContext, op: RestOp, obj: KObject | null): void {
    const fail = (st: Status) => s.complete(ctx, op, statusResponse(st));
    if (op.r.resource === 'nodes') {
      if (!obj) return fail(status.notFound({ group: '', resource: 'nodes' }, op.info.name));
      const path = `/${op.info.parts.slice(3).join('/')}`;
      const query = { ...op.req.query };
      return this.connect(s, ctx, op, op.info.name, path, query, nodeIP(obj));
    }
    if (!obj) return fail(status.notFound({ group: '', resource: 'pods' }, op.info.name));
    const pod = obj as Pod;
    const q = (k: string) => queryValue(op.req.query, k);
    const c = validateContainer(pod, q('container'));
    if (!c.ok) return fail(c.status);
    const node = pod.spec.nodeName;
    if (op.info.subresource === 'log') {
      const bad = validateLogOptions(op, pod.metadata.name!);
      if (bad) return fail(bad);
      // A pod without a node has no log yet: an empty answer.
      if (!node) return s.complete(ctx, op, { status: 200, headers: { 'content-type': 'text/plain' }, body: '' });
      const query: Record<string, string> = {};
      for (const k of ['follow', 'previous', 'timestamps']) if (q(k) === 'true') query[k] = 'true';
      for (const k of ['sinceSeconds', 'sinceTime', 'tailLines', 'limitBytes']) if (q(k) !== undefined) query[k] = q(k)!;
      return this.connect(s, ctx, op, node, `/containerLogs/${pod.metadata.namespace}/${pod.metadata.name}/${c.name}`, query, '');
    }
    const phase = pod.status?.phase;
    if (op.info.subresource === 'attach') {
      // AttachLocation (strategy.go): the container's main process, on the pod's node.
      if (!node) return fail(status.badRequest(`pod ${pod.metadata.name} does not have a host assigned`));
      return this.connect(s, ctx, op, node, `/attach/${pod.metadata.namespace}/${pod.metadata.name}/${c.name}`, streamParams(q), '');
    }
    // exec
    if (phase === 'Succeeded' || phase === 'Failed') return fail(status.badRequest(`cannot exec into a container in a completed pod; current phase is ${phase}`));
    const cmd = op.req.query['command'];
    const command = Array.isArray(cmd) ? cmd : cmd !== undefined ? [cmd] : [];
    if (command.length === 0) return fail(status.badRequest('you must specify at least one command for the container'));
    if (!node) return fail(status.badRequest(`pod ${pod.metadata.name} does not have a host assigned`));
    const query: Record<string, string | string[]> = { command, container: c.name, ...streamParams(q) };
    this.connect(s, ctx, op, node, `/exec/${pod.metadata.namespace}/${pod.metadata.name}/${c.name}`, query, '');
  }

  private connect(s: ApiServer, ctx: ActorContext, op: RestOp, node: string, path: string, query: Record<string, string | string[]>, ip: string): void {
    const reqId = this.nextReq++;
    const qs = Object.entries(query)
      .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`))
      .join('&');
    const url = `https://${node}:${KUBELET_PORT}${path}${qs ? `?${qs}` : ''}`;
    const timer = ctx.setTimer(DIAL_TIMEOUT_MS, 'kubeletProxyTimeout', reqId);
    const nodeObj = ip ? null : s.cluster.get('', 'nodes', undefined, node);
    this.pending.set(reqId, { opId: op.id, client: op.client, clientReqId: op.reqId, recordId: op.recordId, node, url, nodeIP: ip || (nodeObj ? nodeIP(nodeObj) : node), streaming: false, timer });
    ctx.send(node, httpMsg.request(reqId, { method: op.req.method, path, query, headers: { 'user-agent': `kube-apiserver/${s.id}` } }));
  }

  owns(from: ActorId, reqId: number): boolean {
    const p = this.pending.get(reqId);
    return !!p && p.node === from;
  }

  receive(s: ApiServer, ctx: ActorContext, type: string, reqId: number, payload: unknown): void {
    const p = this.pending.get(reqId);
    if (!p) return;
    const op = s.ops.get(p.opId);
    if (type === 'HttpResponse') {
      ctx.cancelTimer(p.timer);
      const m = payload as HttpResponseMsg;
      const res = m.response;
      const kind = op?.r.resource === 'nodes' ? 'nodes' : 'pods';
      // An exec with stdin is upgraded (101 Switching Protocols) to a stream both ways.
      const ok = (res.status >= 200 && res.status < 300) || (res.status === 101 && !!m.streaming);
      if (!op) return this.drop(ctx, reqId);
      if (!ok) {
        this.pending.delete(reqId);
        if (op.info.subresource === 'exec' && res.status === 500)
          return s.complete(ctx, op, statusResponse(status.internal(res.body)));
        return s.complete(ctx, op, statusResponse(fromKubelet(res, kind, op.info.name)));
      }
      if (!m.streaming) {
        this.pending.delete(reqId);
        return s.complete(ctx, op, res);
      }
      // A followed log: the head now, chunks as they come.
      p.streaming = true;
      s.ops.delete(op.id);
      const rec = s.record(p.recordId);
      if (rec) {
        rec.code = res.status;
        rec.doneAt = ctx.now;
      }
      const head = res.status === 101 ? res : { status: 200, headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: '' };
      ctx.send(p.client, httpMsg.response(p.clientReqId, head, true));
      return;
    }
    if (!p.streaming) return;
    if (type === 'HttpChunk') return ctx.send(p.client, httpMsg.chunk(p.clientReqId, (payload as HttpChunkMsg).chunk));
    if (type === 'HttpEnd') {
      this.pending.delete(reqId);
      ctx.send(p.client, httpMsg.end(p.clientReqId));
    }
  }

  /** The client's side of an upgraded stream (exec's stdin) goes on to the kubelet. */
  data(ctx: ActorContext, client: ActorId, clientReqId: number, chunk: string): void {
    for (const [reqId, p] of this.pending) {
      if (p.client !== client || p.clientReqId !== clientReqId || !p.streaming) continue;
      ctx.send(p.node, httpMsg.data(reqId, chunk));
      return;
    }
  }

  /** The client hung up: so does the proxy. */
  cancel(ctx: ActorContext, client: ActorId, clientReqId: number): void {
    for (const [reqId, p] of this.pending) {
      if (p.client !== client || p.clientReqId !== clientReqId) continue;
      this.drop(ctx, reqId);
    }
  }

  private drop(ctx: ActorContext, reqId: number): void {
    const p = this.pending.get(reqId);
    if (!p) return;
    this.pending.delete(reqId);
    ctx.cancelTimer(p.timer);
    ctx.send(p.node, httpMsg.cancel(reqId));
  }

  /** The kubelet's host refused (its process is down) or never answered. */
  failed(s: ApiServer, ctx: ActorContext, reqId: number, why: 'refused' | 'timeout' | 'reset'): void {
    const p = this.pending.get(reqId);
    if (!p) return;
    this.pending.delete(reqId);
    ctx.cancelTimer(p.timer);
    if (p.streaming) return ctx.send(p.client, httpMsg.end(p.clientReqId));
    const op = s.ops.get(p.opId);
    if (!op) return;
    const dial = `dial tcp ${p.nodeIP}:${KUBELET_PORT}`;
    const detail = why === 'refused' ? `${dial}: connect: connection refused` : why === 'timeout' ? `${dial}: i/o timeout` : `read tcp ${p.nodeIP}:${KUBELET_PORT}: read: connection reset by peer`;
    s.complete(ctx, op, statusResponse(unknown(500, `Get "${p.url}": ${detail}`)));
  }

  /** Every request to `node` fails (its kubelet crashed: connections reset). */
  peerReset(s: ApiServer, ctx: ActorContext, node: ActorId): void {
    for (const [reqId, p] of [...this.pending]) if (p.node === node) this.failed(s, ctx, reqId, 'reset');
  }

  isNode(actor: ActorId): boolean {
    for (const p of this.pending.values()) if (p.node === actor) return true;
    return false;
  }
}

/** streamParams (strategy.go): the kubelet's names for the exec and attach options' streams. */
function streamParams(q: (k: string) => string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [option, param] of [['stdin', 'input'], ['stdout', 'output'], ['stderr', 'error'], ['tty', 'tty']] as const) if (q(option) === 'true') out[param] = '1';
  return out;
}

function nodeIP(node: KObject): string {
  const addrs = ((node as { status?: { addresses?: { type: string; address: string }[] } }).status?.addresses ?? []) as { type: string; address: string }[];
  return addrs.find((a) => a.type === 'InternalIP')?.address ?? node.metadata.name!;
}

registerClass('KubeletProxy', KubeletProxy);
