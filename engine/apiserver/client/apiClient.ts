// An HTTP client of kube-apiserver on the simulated network: the playground's
// kubectl and the headless server's gateway talk to the cluster through one of
// these (`kubectl-0`). Hosts start calls and read the answers as they arrive;
// watch calls accumulate their event lines until the host drains them.
import type { Actor, ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerActorKind } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { ApiRequest, ApiResponse } from '../types';
import { httpMsg, type HttpChunkMsg, type HttpEndMsg, type HttpResponseMsg } from '../http/messages';

export const API_CLIENT_KIND = 'api-client';

export interface ApiClientConfig {
  server: ActorId;
  /** No answer (head) within this long: the call fails as a client timeout. */
  timeoutMs: number;
}

export type ApiCallError = 'refused' | 'timeout' | 'reset';

export interface ApiCall {
  id: number;
  request: ApiRequest;
  issuedAt: number;
  /** The answer (for a watch: its head). */
  response?: ApiResponse;
  error?: ApiCallError;
  doneAt?: number;
  streaming: boolean;
  /** Watch event lines not yet drained. */
  chunks: string[];
  /** The stream ended (server closed it, or it failed). */
  ended: boolean;
  /** Writes made before the stream was open. */
  outbox?: string[];
  timer: number;
}

export class ApiClient implements Actor {
  readonly calls = new Map<number, ApiCall>();
  private nextId = 1;

  constructor(
    readonly id: ActorId,
    readonly config: ApiClientConfig,
  ) {}

  start(): void {}

  call(ctx: ActorContext, request: ApiRequest): number {
    const id = this.nextId++;
    const timer = ctx.setTimer(this.config.timeoutMs, 'timeout', id);
    this.calls.set(id, { id, request, issuedAt: ctx.now, streaming: false, chunks: [], ended: false, timer });
    ctx.send(this.config.server, httpMsg.request(id, request));
    return id;
  }

  /** Writes to an upgraded stream (an exec's stdin); before the upgrade's answer, the writes wait for it. */
  send(ctx: ActorContext, id: number, chunk: string): void {
    const c = this.calls.get(id);
    if (!c || c.ended || c.error) return;
    if (!c.response) (c.outbox ??= []).push(chunk);
    else if (c.streaming) ctx.send(this.config.server, httpMsg.data(id, chunk));
  }

  /** Stops a watch (the client closes the connection). */
  cancel(ctx: ActorContext, id: number): void {
    const c = this.calls.get(id);
    if (!c) return;
    if (!c.ended) ctx.send(this.config.server, httpMsg.cancel(id));
    c.ended = true;
    ctx.cancelTimer(c.timer);
  }

  forget(id: number): void {
    this.calls.delete(id);
  }

  receive(ctx: ActorContext, _from: ActorId, p: Payload): void {
    if (p.type === 'HttpResponse') {
      const m = p as unknown as HttpResponseMsg;
      const c = this.calls.get(m.reqId);
      if (!c || c.response || c.error) return;
      ctx.cancelTimer(c.timer);
      c.response = m.response;
      c.doneAt = ctx.now;
      c.streaming = !!m.streaming;
      if (!m.streaming) c.ended = true;
      if (c.outbox) {
        if (c.streaming) for (const chunk of c.outbox) ctx.send(this.config.server, httpMsg.data(c.id, chunk));
        delete c.outbox;
      }
    } else if (p.type === 'HttpChunk') {
      const m = p as unknown as HttpChunkMsg;
      const c = this.calls.get(m.reqId);
      if (c && !c.ended) c.chunks.push(m.chunk);
    } else if (p.type === 'HttpEnd') {
      const m = p as unknown as HttpEndMsg;
      const c = this.calls.get(m.reqId);
      if (c) c.ended = true;
    }
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (tag !== 'timeout') return;
    const c = this.calls.get(data as number);
    if (!c || c.response || c.error) return;
    this.fail(ctx, c, 'timeout');
  }

  persisted(): void {}

  refused(ctx: ActorContext, _to: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId;
    const c = reqId === undefined ? undefined : this.calls.get(reqId);
    if (c && !c.response && !c.error) this.fail(ctx, c, 'refused');
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer !== this.config.server) return;
    for (const c of this.calls.values()) {
      if (c.ended) continue;
      if (!c.response) this.fail(ctx, c, 'reset');
      else c.ended = true; // a watch stream cut off
    }
  }

  private fail(ctx: ActorContext, c: ApiCall, error: ApiCallError): void {
    ctx.cancelTimer(c.timer);
    c.error = error;
    c.doneAt = ctx.now;
    c.ended = true;
  }
}

registerClass('ApiClient', ApiClient);
registerActorKind<ApiClientConfig, null>({
  kind: API_CLIENT_KIND,
  initDurable: () => null,
  create: (id, config) => new ApiClient(id, config),
});
