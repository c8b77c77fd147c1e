// The client side an add-on actor needs against kube-apiserver (what client-go
// gives a Deployment's pod): informers — reflectors that list, watch and
// relist — and REST calls whose answers come back with the caller's tag.
// It holds plain data only, so the actor that owns it snapshots with it.
// The actor forwards its messages and timers here and acts on what they yield.
import type { ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import type { ApiRequest } from '../apiserver/types';
import { httpMsg, type HttpChunkMsg, type HttpResponseMsg } from '../apiserver/http/messages';
import type { KObject } from '../apimachinery/types';
import { Reflector, type ReflectorEvent } from './reflector';
import { Transport, TRANSPORT_TIMERS } from './transport';

export interface RestCall {
  method: ApiRequest['method'];
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Default application/json; merge patches by default for PATCH. */
  contentType?: string;
  accept?: string;
}

/** What a message to the actor turned out to be. */
export type ApiYield =
  | { type: 'informer'; informer: string; events: ReflectorEvent[] }
  | { type: 'response'; tag: unknown; status: number; body: string; headers: Record<string, string> }
  | { type: 'none' };

type Pending = { kind: 'list' | 'watch'; informer: string } | { kind: 'call'; tag: unknown };

/** Timer tags the connection owns (the actor passes them on). */
export const API_CONNECTION_TIMERS: ReadonlySet<string> = new Set(['apiconn:relist', ...TRANSPORT_TIMERS]);

export class ApiConnection {
  readonly reflectors = new Map<string, Reflector>();
  private readonly pending = new Map<number, Pending>();
  private nextReq = 1;
  /** The HTTP/2 connection under the calls (its health check ends requests a partition swallowed). */
  readonly transport: Transport;
  /** Authorization or client-certificate headers of the identity in use. */
  private identity: Record<string, string>;

  constructor(
    readonly server: ActorId,
    identity: Record<string, string>,
    readonly userAgent: string,
    /** Informer name → collection path, or path and list options (labelSelector, fieldSelector). */
    informers: Record<string, string | { path: string; selectors: Record<string, string> }> = {},
  ) {
    this.identity = identity;
    this.transport = new Transport(server);
    for (const [name, spec] of Object.entries(informers)) {
      const r = new Reflector(typeof spec === 'string' ? spec : spec.path);
      if (typeof spec !== 'string') r.selectors = spec.selectors;
      this.reflectors.set(name, r);
    }
  }

  /** Switches to another identity (a ServiceAccount token once the actor has one). */
  useIdentity(identity: Record<string, string>): void {
    this.identity = identity;
  }

  store(informer: string): ReadonlyMap<string, KObject> {
    return this.reflectors.get(informer)!.store;
  }

  synced(...informers: string[]): boolean {
    return informers.every((i) => this.reflectors.get(i)?.synced);
  }

  /** Starts every informer's list. */
  startInformers(ctx: ActorContext): void {
    for (const name of this.reflectors.keys()) this.list(ctx, name);
  }

  call(ctx: ActorContext, c: RestCall, tag: unknown): void {
    const body = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    const contentType = c.contentType ?? (c.method === 'PATCH' ? 'application/merge-patch+json' : body !== undefined ? 'application/json' : undefined);
    this.send(ctx, { method: c.method, path: c.path, query: c.query ?? {}, ...(body !== undefined ? { body } : {}) }, { kind: 'call', tag }, { ...(contentType ? { 'content-type': contentType } : {}), ...(c.accept ? { accept: c.accept } : {}) });
  }

  private send(ctx: ActorContext, req: Omit<ApiRequest, 'headers'>, p: Pending, headers: Record<string, string> = {}): number {
    const id = this.nextReq++;
    this.pending.set(id, p);
    this.transport.send(ctx, httpMsg.request(id, { ...req, headers: { ...this.identity, accept: 'application/json', 'user-agent': this.userAgent, ...headers } }));
    return id;
  }

  private list(ctx: ActorContext, informer: string): void {
    const r = this.reflectors.get(informer)!;
    const q = r.listRequest();
    r.reqId = this.send(ctx, { method: 'GET', path: q.path, query: q.query }, { kind: 'list', informer });
  }

  private watch(ctx: ActorContext, informer: string): void {
    const r = this.reflectors.get(informer)!;
    const q = r.watchRequest();
    r.reqId = this.send(ctx, { method: 'GET', path: q.path, query: q.query }, { kind: 'watch', informer });
  }

  private relistLater(ctx: ActorContext, informer: string): void {
    ctx.setTimer(1000, 'apiconn:relist', informer);
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): ApiYield {
    if (this.transport.receive(ctx, from, p)) return { type: 'none' };
    const reqId = (p as { reqId?: number }).reqId ?? 0;
    const pending = this.pending.get(reqId);
    if (!pending) return { type: 'none' };
    if (p.type === 'HttpResponse') {
      const m = p as unknown as HttpResponseMsg;
      if (!m.streaming) this.pending.delete(reqId);
      if (pending.kind === 'call') return { type: 'response', tag: pending.tag, status: m.response.status, body: m.response.body, headers: m.response.headers };
      if (pending.kind === 'watch') {
        if (m.response.status !== 200) this.relistLater(ctx, pending.informer);
        return { type: 'none' };
      }
      const r = this.reflectors.get(pending.informer)!;
      const out = r.onList(m.response.status, m.response.body);
      if (out === 'retry') {
        this.relistLater(ctx, pending.informer);
        return { type: 'none' };
      }
      const next = r.nextRequest();
      if (next) {
        r.reqId = this.send(ctx, { method: 'GET', path: next.path, query: next.query }, pending);
        return { type: 'none' };
      }
      this.watch(ctx, pending.informer);
      return { type: 'informer', informer: pending.informer, events: out };
    }
    if (p.type === 'HttpChunk' && pending.kind === 'watch') {
      const out = this.reflectors.get(pending.informer)!.onChunk((p as unknown as HttpChunkMsg).chunk);
      if (out === 'relist') {
        this.pending.delete(reqId);
        this.list(ctx, pending.informer);
        return { type: 'none' };
      }
      return out.length ? { type: 'informer', informer: pending.informer, events: out } : { type: 'none' };
    }
    if (p.type === 'HttpEnd' && pending.kind === 'watch') {
      this.pending.delete(reqId);
      this.watch(ctx, pending.informer);
    }
    return { type: 'none' };
  }

  /** One of API_CONNECTION_TIMERS: what it yields (calls failed when the connection closed). */
  timer(ctx: ActorContext, tag: string, data: unknown): ApiYield[] {
    if (tag === 'apiconn:relist') {
      this.list(ctx, data as string);
      return [];
    }
    return this.transport.timer(ctx, tag, data, this.pending.size > 0) ? this.failAll(ctx) : [];
  }

  /**
   * The server refused a message (reqId) or the connection is gone (none: it
   * reset, or a dial was refused): informers relist; calls fail (status 0).
   */
  failAll(ctx: ActorContext, reqId?: number): ApiYield[] {
    if (reqId === undefined && this.transport.state !== 'closed') this.transport.close(ctx);
    const out: ApiYield[] = [];
    for (const [id, p] of [...this.pending]) {
      if (reqId !== undefined && id !== reqId) continue;
      if (reqId === undefined && this.transport.isThrottled(id)) continue;
      this.pending.delete(id);
      if (p.kind === 'call') out.push({ type: 'response', tag: p.tag, status: 0, body: '', headers: {} });
      else this.relistLater(ctx, p.informer);
    }
    return out;
  }
}

registerClass('ApiConnection', ApiConnection);
