// A CoreDNS container's process, as far as it talks to the API server: the
// kubernetes plugin's informers on Services, EndpointSlices and Namespaces
// (plugin/kubernetes/controller.go), under the pod's ServiceAccount. The
// container itself — its ports, its answers — is the node's (the kubelet's
// runtime); this actor is started and stopped with it, and hands the runtime
// what its caches hold whenever they change (CorednsView), as the plugin's
// ServeDNS reads its informers' stores.
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import { ApiConnection, API_CONNECTION_TIMERS, type ApiYield } from '../client/apiConnection';
import { AddonBootstrap, type AddonTag } from '../client/addon';
import { dnsViewOf, type KubeDnsView } from '../dns/kubernetes';
import { epochMs } from '../apiserver/http/time';

export const COREDNS_KIND = 'coredns';
export const COREDNS_VERSION = '1.11.3';

export interface CorednsConfig {
  server: ActorId;
  /** The machine the container runs on (its kubelet's actor). */
  node: ActorId;
  /** The runtime's container id. */
  container: string;
  namespace: string;
  serviceAccount: string;
}

/** What the plugin's caches hold, for the container's DNS answers and its /ready. */
export interface CorednsViewMsg {
  type: 'CorednsView';
  container: string;
  view: KubeDnsView;
  /** Every informer has listed (the ready plugin's condition for the kubernetes plugin). */
  synced: boolean;
}

const INFORMERS = ['services', 'endpointslices', 'namespaces'] as const;

export class Coredns implements Actor {
  readonly conn: ApiConnection;
  readonly bootstrap: AddonBootstrap;
  private pushArmed = false;

  constructor(
    readonly id: ActorId,
    readonly config: CorednsConfig,
  ) {
    this.conn = new ApiConnection(config.server, {}, `coredns/${COREDNS_VERSION} (linux/amd64)`, {
      services: '/api/v1/services',
      endpointslices: '/apis/discovery.k8s.io/v1/endpointslices',
      namespaces: '/api/v1/namespaces',
    });
    // The kubelet projects the ServiceAccount's token into the pod; here the process asks for it (see client/addon.ts).
    this.bootstrap = new AddonBootstrap([], { namespace: config.namespace, name: config.serviceAccount });
  }

  get synced(): boolean {
    return this.conn.synced(...INFORMERS);
  }

  start(ctx: ActorContext): void {
    this.bootstrap.start(ctx, this.conn);
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    this.handle(ctx, this.conn.receive(ctx, from, p));
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (tag === 'push') {
      this.pushArmed = false;
      return this.push(ctx);
    }
    if (tag === 'addon:retry') return this.bootstrap.timer(ctx, this.conn, data as AddonTag);
    if (API_CONNECTION_TIMERS.has(tag)) for (const y of this.conn.timer(ctx, tag, data)) this.handle(ctx, y);
  }

  persisted(): void {}

  refused(ctx: ActorContext, to: ActorId, p: Payload): void {
    if (to === this.config.server) for (const y of this.conn.failAll(ctx, (p as { reqId?: number }).reqId)) this.handle(ctx, y);
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer === this.config.server) for (const y of this.conn.failAll(ctx)) this.handle(ctx, y);
  }

  private handle(ctx: ActorContext, y: ApiYield): void {
    if (y.type === 'response' && AddonBootstrap.owns(y.tag)) {
      if (this.bootstrap.onResponse(ctx, this.conn, y.tag, y.status, y.body)) this.conn.startInformers(ctx);
      return;
    }
    // Changes that arrive together are handed over together.
    if (y.type === 'informer' && !this.pushArmed) {
      this.pushArmed = true;
      ctx.setTimer(0, 'push');
    }
  }

  private push(ctx: ActorContext): void {
    // The SOA serial is the Unix second of the caches' last change (kubernetes.go, Serial).
    const modified = Math.floor((epochMs() + ctx.now) / 1000);
    const view = dnsViewOf(this.conn.store('services').values(), this.conn.store('endpointslices').values(), this.conn.store('namespaces').values(), { modified });
    const m: CorednsViewMsg = { type: 'CorednsView', container: this.config.container, view, synced: this.synced };
    ctx.send(this.config.node, m);
  }
}

registerClass('Coredns', Coredns);
registerActorKind<CorednsConfig, null>({
  kind: COREDNS_KIND,
  initDurable: () => null,
  create: (id, config) => new Coredns(id, config),
});
