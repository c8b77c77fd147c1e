// metrics-server (`metrics-server-0`), sigs.k8s.io/metrics-server v0.7 run as
// components.yaml runs it (--metric-resolution=15s): it watches nodes and
// pods, scrapes every kubelet's GET /metrics/resource each resolution (staggered
// by up to 8 ms a node, at most 4 s; 10 s timeout), keeps the last two points
// of each node and container, and serves metrics.k8s.io/v1beta1 to
// kube-apiserver's aggregation layer, which proxies clients (kubectl top, the
// HPA controller) to it. It installs its manifests first, then works as its
// ServiceAccount.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';
import { httpMsg, type HttpRequestMsg, type HttpResponseMsg } from '../apiserver/http/messages';
import { epochMs } from '../apiserver/http/time';
import type { ApiResponse } from '../apiserver/types';
import { ApiConnection, API_CONNECTION_TIMERS, type ApiYield } from '../client/apiConnection';
import { AddonBootstrap, type AddonTag } from '../client/addon';
import { decodeBatch, type MetricsBatch } from './decode';
import { MetricsStorage } from './storage';
import { serveMetricsApi } from './api';
import { METRICS_SERVER_SA, metricsServerManifests } from './manifests';

export const METRICS_SERVER_KIND = 'metrics-server';

export interface MetricsServerConfig {
  server: ActorId;
  /** --metric-resolution (components.yaml: 15 s). */
  resolutionMs?: number;
  /** --kubelet-request-timeout (10 s). */
  scrapeTimeoutMs?: number;
}

const MAX_DELAY_MS = 4000;
const DELAY_PER_SOURCE_MS = 8;

interface Round {
  id: number;
  startedAt: number;
  pending: Set<string>;
  batch: MetricsBatch;
}

const text = (status: number, body: string): ApiResponse => ({ status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body });

export class MetricsServer implements Actor {
  readonly conn: ApiConnection;
  readonly bootstrap = new AddonBootstrap(metricsServerManifests(), METRICS_SERVER_SA);
  readonly storage: MetricsStorage;
  readonly resolutionMs: number;
  readonly scrapeTimeoutMs: number;
  /** The scrape under way. */
  round: Round | null = null;
  private nextRound = 1;
  /** Kubelet requests in flight: request id → node. */
  private readonly scrapes = new Map<number, { node: string; round: number }>();
  private nextScrape = 1;
  private scraping = false;
  /** Bearer token the kubelets are called with (the ServiceAccount's). */
  private token = '';

  constructor(
    readonly id: ActorId,
    readonly config: MetricsServerConfig,
  ) {
    this.resolutionMs = config.resolutionMs ?? 15_000;
    this.scrapeTimeoutMs = config.scrapeTimeoutMs ?? 10_000;
    this.storage = new MetricsStorage(this.resolutionMs);
    this.conn = new ApiConnection(config.server, {}, 'metrics-server/v0.7.2', { nodes: '/api/v1/nodes', pods: '/api/v1/pods' });
  }

  start(ctx: ActorContext): void {
    this.bootstrap.start(ctx, this.conn);
  }

  get ready(): boolean {
    return this.storage.ready;
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'HttpRequest') return this.serve(ctx, from, p as HttpRequestMsg);
    if (from !== this.config.server) {
      if (p.type === 'HttpResponse') this.onScrape(ctx, (p as HttpResponseMsg).reqId, (p as HttpResponseMsg).response);
      return;
    }
    this.handle(ctx, this.conn.receive(ctx, from, p));
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (API_CONNECTION_TIMERS.has(tag)) {
      for (const y of this.conn.timer(ctx, tag, data)) this.handle(ctx, y);
      return;
    }
    if (tag === 'addon:retry') return this.bootstrap.timer(ctx, this.conn, data as AddonTag);
    if (tag === 'tick') return this.tick(ctx);
    if (tag === 'scrapeNode') return this.scrapeNode(ctx, data as { node: string; round: number });
    if (tag === 'roundTimeout') {
      if (this.round?.id === data) this.finishRound();
    }
  }

  persisted(): void {}

  refused(ctx: ActorContext, to: ActorId, p: Payload): void {
    const reqId = (p as { reqId?: number }).reqId;
    if (to !== this.config.server) {
      if (reqId !== undefined) this.onScrape(ctx, reqId, null);
      return;
    }
    for (const y of this.conn.failAll(ctx, reqId)) this.handle(ctx, y);
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer === this.config.server) for (const y of this.conn.failAll(ctx)) this.handle(ctx, y);
    else for (const [id, s] of [...this.scrapes]) if (s.node === peer) this.onScrape(ctx, id, null);
  }

  private handle(ctx: ActorContext, y: ApiYield): void {
    if (y.type !== 'response' || !AddonBootstrap.owns(y.tag)) return;
    if (this.bootstrap.onResponse(ctx, this.conn, y.tag, y.status, y.body)) {
      this.token = JSON.parse(y.body).status.token as string;
      this.conn.startInformers(ctx);
      // runScrape: the first tick at once, then one each resolution.
      if (!this.scraping) {
        this.scraping = true;
        this.tick(ctx);
      }
    }
  }

  // ---- scraping (pkg/scraper) ------------------------------------------------------------

  private tick(ctx: ActorContext): void {
    ctx.setTimer(this.resolutionMs, 'tick');
    if (!this.conn.synced('nodes', 'pods')) return;
    if (this.round) this.finishRound();
    const nodes = [...this.conn.store('nodes').keys()].sort();
    const round: Round = { id: this.nextRound++, startedAt: ctx.now, pending: new Set(nodes), batch: { nodes: new Map(), pods: new Map() } };
    this.round = round;
    if (nodes.length === 0) return this.finishRound();
    const delayMs = Math.min(DELAY_PER_SOURCE_MS * nodes.length, MAX_DELAY_MS);
    for (const node of nodes) ctx.setTimer(ctx.rng.int(0, delayMs), 'scrapeNode', { node, round: round.id });
    ctx.setTimer(this.scrapeTimeoutMs + delayMs, 'roundTimeout', round.id);
  }

  private scrapeNode(ctx: ActorContext, s: { node: string; round: number }): void {
    if (this.round?.id !== s.round) return;
    const id = this.nextScrape++;
    this.scrapes.set(id, s);
    // The kubelet is reached at the node (its InternalIP:10250 upstream; the node's actor here).
    ctx.send(s.node, httpMsg.request(id, { method: 'GET', path: '/metrics/resource', query: {}, headers: { authorization: `Bearer ${this.token}`, accept: 'text/plain', 'user-agent': 'metrics-server/v0.7.2' } }));
  }

  private onScrape(ctx: ActorContext, reqId: number, res: ApiResponse | null): void {
    const s = this.scrapes.get(reqId);
    if (!s) return;
    this.scrapes.delete(reqId);
    const round = this.round;
    if (!round || round.id !== s.round) return;
    round.pending.delete(s.node);
    if (res && res.status === 200) {
      const batch = decodeBatch(res.body, epochMs() + ctx.now, s.node);
      const pods = this.conn.store('pods');
      for (const [k, v] of batch.nodes) round.batch.nodes.set(k, v);
      for (const [k, v] of batch.pods) {
        // collectNode: only pods the cache knows on that node.
        const pod = pods.get(k) as KObject | undefined;
        if (!pod || (pod.spec as { nodeName?: string } | undefined)?.nodeName !== s.node) continue;
        if (!round.batch.pods.has(k)) round.batch.pods.set(k, v);
      }
    }
    if (round.pending.size === 0) this.finishRound();
  }

  private finishRound(): void {
    if (!this.round) return;
    this.storage.store(this.round.batch);
    this.round = null;
  }

  // ---- serving -------------------------------------------------------------------------

  private serve(ctx: ActorContext, from: ActorId, m: HttpRequestMsg): void {
    const path = m.request.path.replace(/\/+$/, '');
    let res: ApiResponse;
    if (path === '/healthz' || path === '/livez') res = text(200, 'ok');
    else if (path === '/readyz') res = this.ready ? text(200, 'ok') : text(500, '[-]metric-storage-ready failed: reason withheld\nreadyz check failed\n');
    else if (path.startsWith('/apis/metrics.k8s.io/v1beta1'))
      res = serveMetricsApi({ storage: this.storage, nodes: () => this.conn.store('nodes'), pods: () => this.conn.store('pods') }, m.request, ctx.now);
    else res = text(404, '404 page not found\n');
    ctx.send(from, httpMsg.response(m.reqId, res));
  }
}

registerClass('MetricsServer', MetricsServer);
registerActorKind<MetricsServerConfig, null>({
  kind: METRICS_SERVER_KIND,
  initDurable: () => null,
  create: (id, config) => new MetricsServer(id, config),
});
