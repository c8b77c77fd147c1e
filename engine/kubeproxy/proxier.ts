// kube-proxy in iptables mode (cmd/kube-proxy, pkg/proxy/iptables), one per
// node as kubeadm's DaemonSet runs it: informers on Services and
// EndpointSlices (without those that ask for another proxy or are headless),
// and, once both have synced, syncProxyRules whenever they change, at most
// once a second after a burst of two (minSyncPeriod 1 s). Its rules go to its
// node's kernel (IptablesSync); a failed restore is retried after syncPeriod.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import { KUBE_PROXY } from '../apiserver/auth/user';
import { epochMs, rfc3339Micro } from '../apiserver/http/time';
import { ApiConnection, API_CONNECTION_TIMERS, type ApiYield } from '../client/apiConnection';
import { BoundedFrequencyRunner } from './runner';
import { KUBE_PROXY_CANARY } from './chains';
import { endpointsByServicePort, servicePorts } from './serviceMap';
import { jumpTargets, syncProxyRules, type ProxierConfig } from './syncRules';
import type { IptablesSyncedMsg, IptablesSyncMsg } from './messages';

export const KUBE_PROXY_KIND = 'kube-proxy';
export const KUBE_PROXY_VERSION = 'v1.32.0';

/** The actor of node `node`'s kube-proxy. */
export function kubeProxyOf(node: string): ActorId {
  return `kube-proxy-${node}`;
}

export interface KubeProxyConfig extends Partial<ProxierConfig> {
  server: ActorId;
  nodeName: string;
  /** The node's machine (its kubelet's actor), whose kernel holds the rules. */
  node: ActorId;
  nodeIP: string;
}

/** KubeProxyConfiguration defaults (v1alpha1): minSyncPeriod 1 s, syncPeriod 30 s. */
export const MIN_SYNC_PERIOD_MS = 1000;
export const SYNC_PERIOD_MS = 30_000;
/** BoundedFrequencyRunner's maxInterval (an hour) and burst (2). */
const MAX_INTERVAL_MS = 3_600_000;
const BURST_SYNCS = 2;

/** Informers without Services for another proxy (service-proxy-name) or headless ones (server.go). */
const SELECTOR = { labelSelector: '!service.kubernetes.io/headless,!service.kubernetes.io/service-proxy-name' };

export interface SyncRecord {
  at: number;
  ok: boolean;
  services: number;
  endpoints: number;
  rules: { filter: number; nat: number };
  message: string;
}

export class KubeProxy implements Actor {
  readonly conn: ApiConnection;
  readonly runner = new BoundedFrequencyRunner(MIN_SYNC_PERIOD_MS, MAX_INTERVAL_MS, BURST_SYNCS);
  readonly cfg: ProxierConfig;
  private timerId: number | null = null;
  private timerAt = Infinity;
  private seq = 0;
  /** The nat chains the node reported after the last restore. */
  private natChains: string[] = [];
  /** Syncs sent and not answered (seq → what was sent). */
  private readonly inFlight = new Map<number, Omit<SyncRecord, 'ok' | 'message'>>();
  /** The Starting event, kept for its retries. */
  private startingEvent: object | null = null;
  /** The last few syncs, newest last (the UI's view of the proxier). */
  readonly syncs: SyncRecord[] = [];

  constructor(
    readonly id: ActorId,
    readonly config: KubeProxyConfig,
  ) {
    this.cfg = { nodeIP: config.nodeIP, clusterCIDR: config.clusterCIDR ?? '10.244.0.0/16', masqueradeBit: config.masqueradeBit ?? 14 };
    this.conn = new ApiConnection(config.server, { [CLIENT_CERT_HEADER]: `CN=${KUBE_PROXY}` }, `kube-proxy/${KUBE_PROXY_VERSION} (linux/amd64) kubernetes/70d3cc9`, {
      services: { path: '/api/v1/services', selectors: SELECTOR },
      endpointslices: { path: '/apis/discovery.k8s.io/v1/endpointslices', selectors: SELECTOR },
    });
  }

  start(ctx: ActorContext): void {
    this.waitForServer(ctx);
  }

  /**
   * Its DaemonSet pod runs once the control plane serves (a kube-proxy started earlier exits and is
   * restarted until it can talk to the API server): /readyz, once a second, before anything else.
   */
  private waitForServer(ctx: ActorContext): void {
    this.conn.call(ctx, { method: 'GET', path: '/readyz' }, { readyz: true });
  }

  private serverReady(ctx: ActorContext): void {
    this.conn.startInformers(ctx);
    this.recordStarting(ctx);
  }

  /**
   * server.go's Run: s.Recorder.Eventf(nodeRef, nil, Normal, "Starting", "StartKubeProxy", "") through
   * the events/v1 recorder; the node's reference carries its name as uid, and the event is named
   * `<node>.<UnixNano in hex>`, in the default namespace (what `kubectl describe node` shows).
   */
  private recordStarting(ctx: ActorContext): void {
    const nanos = BigInt(epochMs()) * 1_000_000n + BigInt(Math.round(ctx.now * 1_000_000));
    const event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `${this.config.nodeName}.${nanos.toString(16)}`, namespace: 'default' },
      eventTime: rfc3339Micro(ctx.now),
      reportingController: 'kube-proxy',
      reportingInstance: `kube-proxy-${this.config.nodeName}`,
      action: 'StartKubeProxy',
      reason: 'Starting',
      regarding: { kind: 'Node', name: this.config.nodeName, uid: this.config.nodeName },
      type: 'Normal',
    };
    this.startingEvent = event;
    this.postStarting(ctx, 1);
  }

  private postStarting(ctx: ActorContext, attempt: number): void {
    this.conn.call(ctx, { method: 'POST', path: '/apis/events.k8s.io/v1/namespaces/default/events', body: this.startingEvent }, { event: attempt });
  }

  /** The events broadcaster's retries: up to 12 tries, 10 s apart, while the server cannot take it (tools/events). */
  private onEventAnswer(ctx: ActorContext, attempt: number, status: number): void {
    if ((status === 0 || status === 429 || status >= 500) && attempt < 12) ctx.setTimer(10_000, 'event', attempt + 1);
  }

  get synced(): boolean {
    return this.conn.synced('services', 'endpointslices');
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'IptablesSynced') return this.onSynced(ctx, p as unknown as IptablesSyncedMsg);
    this.handle(ctx, this.conn.receive(ctx, from, p));
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (API_CONNECTION_TIMERS.has(tag)) {
      for (const y of this.conn.timer(ctx, tag, data)) this.handle(ctx, y);
      return;
    }
    if (tag === 'event') return this.postStarting(ctx, data as number);
    if (tag === 'readyz') return this.waitForServer(ctx);
    if (tag === 'sync') {
      this.timerId = null;
      this.timerAt = Infinity;
      this.sync(ctx);
    }
  }

  persisted(): void {}

  refused(ctx: ActorContext, to: ActorId, p: Payload): void {
    if (to !== this.config.server) return;
    for (const y of this.conn.failAll(ctx, (p as { reqId?: number }).reqId)) this.handle(ctx, y);
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer === this.config.server) for (const y of this.conn.failAll(ctx)) this.handle(ctx, y);
  }

  private handle(ctx: ActorContext, y: ApiYield): void {
    if (y.type === 'response' && (y.tag as { readyz?: true } | null)?.readyz) {
      if (y.status === 200) return this.serverReady(ctx);
      ctx.setTimer(1000, 'readyz');
      return;
    }
    if (y.type === 'response' && (y.tag as { event?: number } | null)?.event !== undefined) return this.onEventAnswer(ctx, (y.tag as { event: number }).event, y.status);
    // Any change to a Service or EndpointSlice asks for a sync (OnServiceUpdate, OnEndpointSliceUpdate → Sync).
    if (y.type === 'informer' && this.synced) this.arm(ctx, this.runner.request(ctx.now));
  }

  private arm(ctx: ActorContext, at: number): void {
    if (at === this.timerAt) return;
    if (this.timerId !== null) ctx.cancelTimer(this.timerId);
    this.timerAt = at;
    this.timerId = ctx.setTimer(Math.max(0, at - ctx.now), 'sync');
  }

  /** syncProxyRules: "Not syncing iptables until Services and Endpoints have been received from master" before both lists. */
  private sync(ctx: ActorContext): void {
    if (!this.synced) return;
    this.arm(ctx, this.runner.ran(ctx.now));
    const services = [...this.conn.store('services').values()].flatMap(servicePorts);
    const endpoints = endpointsByServicePort(this.conn.store('endpointslices').values(), this.config.nodeName);
    const out = syncProxyRules(services, endpoints, this.cfg, this.natChains);
    const seq = ++this.seq;
    let n = 0;
    for (const eps of endpoints.values()) n += eps.length;
    this.inFlight.set(seq, { at: ctx.now, services: services.length, endpoints: n, rules: out.rules });
    // The canary chains ipt.Monitor creates (mangle too, upstream; this kernel has nat and filter only),
    // then each chain its jumps lead to, before the jumps themselves.
    const ensureChains = [...(['nat', 'filter'] as const).map((table) => ({ table, chain: KUBE_PROXY_CANARY })), ...jumpTargets(out.ensure)];
    const m: IptablesSyncMsg = { type: 'IptablesSync', seq, ensureChains, ensure: out.ensure, restore: out.restore };
    ctx.send(this.config.node, m);
  }

  private onSynced(ctx: ActorContext, m: IptablesSyncedMsg): void {
    const sent = this.inFlight.get(m.seq);
    this.inFlight.delete(m.seq);
    this.natChains = m.natChains;
    if (sent) {
      this.syncs.push({ ...sent, ok: m.ok, message: m.message });
      if (this.syncs.length > 20) this.syncs.shift();
    }
    // proxier.syncRunner.RetryAfter(proxier.syncPeriod) after a failed restore.
    if (!m.ok) this.arm(ctx, this.runner.retryAfter(ctx.now, SYNC_PERIOD_MS));
  }
}

registerClass('KubeProxy', KubeProxy);
registerActorKind<KubeProxyConfig, null>({
  kind: KUBE_PROXY_KIND,
  initDurable: () => null,
  create: (id, config) => new KubeProxy(id, config),
});
