// `kubeadm init`'s addon phase for CoreDNS: the cluster admin applies the
// add-on's objects once the API server serves (each created unless present);
// the Deployment controller, the scheduler and the kubelets do the rest. The
// actor then has nothing more to do (kubeadm has exited).
import type { Actor, ActorId, Payload } from '../sim/actor';
import type { ActorContext } from '../sim/kernel';
import { registerActorKind } from '../sim/kernel';
import { registerClass } from '../sim/serial';
import { ApiConnection, API_CONNECTION_TIMERS, type ApiYield } from '../client/apiConnection';
import { AddonBootstrap, type AddonTag } from '../client/addon';
import { corednsManifests } from './manifests';

export const KUBEADM_ADDONS_KIND = 'kubeadm-addons';

export interface KubeadmAddonsConfig {
  server: ActorId;
  /** The CoreDNS Deployment's replicas (kubeadm: 2). */
  dnsReplicas?: number;
}

export class KubeadmAddons implements Actor {
  readonly conn: ApiConnection;
  readonly bootstrap: AddonBootstrap;

  constructor(
    readonly id: ActorId,
    readonly config: KubeadmAddonsConfig,
  ) {
    this.conn = new ApiConnection(config.server, {}, 'kubeadm/v1.32.0 (linux/amd64) kubernetes/70d3cc9');
    this.bootstrap = new AddonBootstrap(corednsManifests(config.dnsReplicas ?? 2), null);
  }

  get done(): boolean {
    return this.bootstrap.ready;
  }

  start(ctx: ActorContext): void {
    this.bootstrap.start(ctx, this.conn);
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    this.handle(ctx, this.conn.receive(ctx, from, p));
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (tag === 'addon:retry') return this.bootstrap.timer(ctx, this.conn, data as AddonTag);
    if (API_CONNECTION_TIMERS.has(tag)) {
      for (const y of this.conn.timer(ctx, tag, data)) this.handle(ctx, y);
    }
  }

  persisted(): void {}

  refused(ctx: ActorContext, to: ActorId, p: Payload): void {
    if (to !== this.config.server) return;
    for (const y of this.conn.failAll(ctx, (p as { reqId?: number }).reqId)) this.handle(ctx, y);
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer !== this.config.server) return;
    for (const y of this.conn.failAll(ctx)) this.handle(ctx, y);
  }

  private handle(ctx: ActorContext, y: ApiYield): void {
    if (y.type === 'response' && AddonBootstrap.owns(y.tag)) this.bootstrap.onResponse(ctx, this.conn, y.tag, y.status, y.body);
  }
}

registerClass('KubeadmAddons', KubeadmAddons);
registerActorKind<KubeadmAddonsConfig, null>({
  kind: KUBEADM_ADDONS_KIND,
  initDurable: () => null,
  create: (id, config) => new KubeadmAddons(id, config),
});
