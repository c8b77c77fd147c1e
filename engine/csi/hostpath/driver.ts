// A simulated CSI driver, csi-driver-host-path (`csi-hostpathplugin-0`):
// its controller service (CreateVolume / DeleteVolume over volumes it keeps in
// memory) and the external-provisioner sidecar in front of it, which talks
// to kube-apiserver like the real one: it watches claims, storage classes and
// volumes, provisions a PV for each claim the PV controller handed to it
// (volume.kubernetes.io/storage-provisioner) — on the node the scheduler
// chose for WaitForFirstConsumer classes — and, when such a PV is Released
// under reclaim policy Delete, deletes the volume and the PV. It installs its
// manifests (ServiceAccount, RBAC, CSIDriver and the default StorageClass)
// first, then works as its ServiceAccount.
import type { Actor, ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerActorKind } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import type { KObject } from '../../apimachinery/types';
import { epochMs } from '../../apiserver/http/time';
import { newUid } from '../../apiserver/server/ids';
import { ApiConnection, API_CONNECTION_TIMERS, type ApiYield } from '../../client/apiConnection';
import { AddonBootstrap, type AddonTag } from '../../client/addon';
import { CoreEventRecorder, coreEventWrite } from '../../controllers/framework/events';
import { afterEventAnswer, eventRequest, type EventWrite } from '../../client/eventSink';
import { claimKey, getPersistentVolumeClaimClass } from '../../scheduler/plugins/volumeBinding/helpers';
import { ANN_SELECTED_NODE, type PersistentVolume, type PersistentVolumeClaim, type StorageClass } from '../../scheduler/plugins/volumeBinding/types';
import { HOSTPATH_DRIVER, hostpathManifests, PROVISIONER_SA } from './manifests';
import { persistentVolumeFor, PV_DELETION_PROTECTION_FINALIZER, shouldDelete, shouldProvision } from './provisioner';

export const CSI_HOSTPATH_KIND = 'csi-hostpathplugin';

export interface CsiHostpathConfig {
  server: ActorId;
}

/** --retry-interval-start 1 s doubling to --retry-interval-max 5 min. */
const RETRY_START_MS = 1000;
const RETRY_MAX_MS = 5 * 60_000;

/** A volume of the driver's controller service. */
interface HostpathVolume {
  handle: string;
  name: string;
  node: string;
  bytes: string;
}

type Tag =
  | AddonTag
  | { type: 'nodes'; claim: string }
  | { type: 'createPV'; claim: string; pv: string }
  | { type: 'unselect'; claim: string }
  | { type: 'deletePV'; pv: string }
  | { type: 'unfinalize'; pv: string }
  | { type: 'event'; write: EventWrite };

export class CsiHostpathDriver implements Actor {
  readonly conn: ApiConnection;
  readonly bootstrap = new AddonBootstrap(hostpathManifests(), PROVISIONER_SA);
  /** The driver's volumes, by PV name. */
  readonly volumes = new Map<string, HostpathVolume>();
  /** Claims and PVs with an operation under way (the library's operation map). */
  readonly busy = new Set<string>();
  /** Back-off of claims whose provisioning failed: next attempt at, and the delay. */
  readonly backoff = new Map<string, { at: number; delayMs: number }>();
  private readonly events: CoreEventRecorder;
  /** `<driver>_<pod>_<uuid>`, the library's event source; and the provisioner identity stamped on its volumes. */
  identity = '';
  provisionerIdentity = '';

  constructor(
    readonly id: ActorId,
    readonly config: CsiHostpathConfig,
  ) {
    this.conn = new ApiConnection(config.server, {}, 'csi-provisioner/v5.1.0', {
      persistentvolumeclaims: '/api/v1/persistentvolumeclaims',
      persistentvolumes: '/api/v1/persistentvolumes',
      storageclasses: '/apis/storage.k8s.io/v1/storageclasses',
    });
    this.events = new CoreEventRecorder(id);
  }

  start(ctx: ActorContext): void {
    this.identity = `${HOSTPATH_DRIVER}_${this.id}_${newUid(ctx.rng)}`;
    this.provisionerIdentity = `${epochMs() + ctx.now}-${ctx.rng.int(0, 10_000)}-${HOSTPATH_DRIVER}`;
    this.bootstrap.start(ctx, this.conn);
  }

  receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    this.handle(ctx, this.conn.receive(ctx, from, p));
  }

  timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (API_CONNECTION_TIMERS.has(tag)) {
      for (const y of this.conn.timer(ctx, tag, data)) this.handle(ctx, y);
      return;
    }
    if (tag === 'addon:retry') return this.bootstrap.timer(ctx, this.conn, data as AddonTag);
    if (tag === 'retry') return this.considerClaim(ctx, data as string);
    if (tag === 'eventRetry') return this.sendEvent(ctx, data as EventWrite);
  }

  persisted(): void {}

  refused(ctx: ActorContext, _to: ActorId, p: Payload): void {
    for (const y of this.conn.failAll(ctx, (p as { reqId?: number }).reqId)) this.handle(ctx, y);
  }

  peerReset(ctx: ActorContext, peer: ActorId): void {
    if (peer !== this.config.server) return;
    for (const y of this.conn.failAll(ctx)) this.handle(ctx, y);
  }

  private handle(ctx: ActorContext, y: ApiYield): void {
    if (y.type === 'none') return;
    if (y.type === 'response') return this.onResponse(ctx, y.tag as Tag, y.status, y.body);
    if (!this.bootstrap.ready) return;
    for (const ev of y.events) {
      if (y.informer === 'persistentvolumeclaims' && ev.type !== 'DELETED') this.considerClaim(ctx, claimKey(ev.object as PersistentVolumeClaim));
      else if (y.informer === 'persistentvolumes' && ev.type !== 'DELETED') this.considerVolume(ctx, ev.object.metadata.name!);
      else if (y.informer === 'storageclasses') for (const k of this.conn.store('persistentvolumeclaims').keys()) this.considerClaim(ctx, k);
    }
  }

  /** Started once the manifests are in and the token is ours: the informers begin. */
  private onReady(ctx: ActorContext): void {
    this.conn.startInformers(ctx);
  }

  private get informersSynced(): boolean {
    return this.conn.synced('persistentvolumeclaims', 'persistentvolumes', 'storageclasses');
  }

  // ---- provisioning ----------------------------------------------------------------------

  private considerClaim(ctx: ActorContext, key: string): void {
    if (!this.informersSynced || this.busy.has(key)) return;
    const b = this.backoff.get(key);
    if (b && ctx.now < b.at) return;
    const claim = this.conn.store('persistentvolumeclaims').get(key) as PersistentVolumeClaim | undefined;
    if (!claim || !shouldProvision(claim, this.conn.store('storageclasses'), HOSTPATH_DRIVER)) return;
    // A PV for it already exists: the PV controller is binding them.
    if (this.conn.store('persistentvolumes').has(`pvc-${claim.metadata.uid}`)) return;
    this.busy.add(key);
    this.event(ctx, claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim ${JSON.stringify(key)}`);
    const node = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    // Immediate binding: the volume goes to one of the nodes (the driver's accessible topology).
    this.conn.call(ctx, { method: 'GET', path: node ? `/api/v1/nodes/${node}` : '/api/v1/nodes' }, { type: 'nodes', claim: key } satisfies Tag);
  }

  /** CreateVolume on the chosen node, then the PV. */
  private provision(ctx: ActorContext, key: string, nodes: KObject[]): void {
    const claim = this.conn.store('persistentvolumeclaims').get(key) as PersistentVolumeClaim | undefined;
    const sc = claim && (this.conn.store('storageclasses').get(getPersistentVolumeClaimClass(claim)) as StorageClass | undefined);
    if (!claim || !sc) return void this.busy.delete(key);
    const selected = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    const ready = nodes.filter((n) => ((n.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
    const candidates = (selected ? nodes : ready).map((n) => n.metadata.name!).sort();
    if (candidates.length === 0) {
      const why = selected ? `failed to get target node: node ${JSON.stringify(selected)} not found` : 'error generating accessibility requirements: no available topology found';
      return this.failProvisioning(ctx, claim, sc, why);
    }
    const node = candidates[ctx.rng.int(0, candidates.length)]!;
    const pvName = `pvc-${claim.metadata.uid}`;
    let vol = this.volumes.get(pvName);
    if (!vol) {
      vol = { handle: newUid(ctx.rng), name: pvName, node, bytes: '' };
      this.volumes.set(pvName, vol);
    }
    const pv = persistentVolumeFor(claim, sc, { driver: HOSTPATH_DRIVER, volumeHandle: vol.handle, identity: this.provisionerIdentity, node: vol.node });
    vol.bytes = String(pv.spec!.capacity!.storage);
    this.conn.call(ctx, { method: 'POST', path: '/api/v1/persistentvolumes', body: pv }, { type: 'createPV', claim: key, pv: pvName } satisfies Tag);
  }

  private failProvisioning(ctx: ActorContext, claim: PersistentVolumeClaim, sc: StorageClass, why: string): void {
    const key = claimKey(claim);
    this.event(ctx, claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass ${JSON.stringify(sc.metadata.name)}: ${why}`);
    const prev = this.backoff.get(key)?.delayMs ?? 0;
    const delayMs = prev === 0 ? RETRY_START_MS : Math.min(prev * 2, RETRY_MAX_MS);
    this.backoff.set(key, { at: ctx.now + delayMs, delayMs });
    if (claim.metadata.annotations?.[ANN_SELECTED_NODE] && sc.volumeBindingMode === 'WaitForFirstConsumer') {
      // rescheduleProvisioning: the scheduler picks another node.
      const clone = JSON.parse(JSON.stringify(claim)) as PersistentVolumeClaim;
      delete clone.metadata.annotations![ANN_SELECTED_NODE];
      this.conn.call(ctx, { method: 'PUT', path: `/api/v1/namespaces/${claim.metadata.namespace}/persistentvolumeclaims/${claim.metadata.name}`, body: { ...clone, apiVersion: 'v1', kind: 'PersistentVolumeClaim' } }, { type: 'unselect', claim: key } satisfies Tag);
      return;
    }
    this.busy.delete(key);
    ctx.setTimer(delayMs, 'retry', key);
  }

  // ---- deletion -----------------------------------------------------------------------------

  private considerVolume(ctx: ActorContext, name: string): void {
    if (!this.informersSynced || this.busy.has(name)) return;
    const pv = this.conn.store('persistentvolumes').get(name) as PersistentVolume | undefined;
    if (!pv) return;
    if (pv.metadata.deletionTimestamp) {
      // The PV was deleted (by us or a user): once no claim holds it, the volume goes, then our finalizer.
      if ((pv.metadata.finalizers ?? []).includes(PV_DELETION_PROTECTION_FINALIZER) && pv.status?.phase !== 'Bound' && pv.spec?.persistentVolumeReclaimPolicy === 'Delete') {
        this.volumes.delete(name);
        this.unfinalize(ctx, pv);
      }
      return;
    }
    if (!shouldDelete(pv, HOSTPATH_DRIVER)) return;
    // DeleteVolume, then the PV object.
    this.busy.add(name);
    this.volumes.delete(name);
    this.conn.call(ctx, { method: 'DELETE', path: `/api/v1/persistentvolumes/${name}` }, { type: 'deletePV', pv: name } satisfies Tag);
  }

  private unfinalize(ctx: ActorContext, pv: KObject): void {
    const name = pv.metadata.name!;
    this.busy.add(name);
    const finalizers = (pv.metadata.finalizers ?? []).filter((f) => f !== PV_DELETION_PROTECTION_FINALIZER);
    this.conn.call(ctx, { method: 'PATCH', path: `/api/v1/persistentvolumes/${name}`, body: { metadata: { finalizers, resourceVersion: pv.metadata.resourceVersion } } }, { type: 'unfinalize', pv: name } satisfies Tag);
  }

  // ---- answers -------------------------------------------------------------------------------

  private onResponse(ctx: ActorContext, tag: Tag, status: number, body: string): void {
    if (AddonBootstrap.owns(tag)) {
      if (this.bootstrap.onResponse(ctx, this.conn, tag, status, body)) this.onReady(ctx);
      return;
    }
    switch (tag.type) {
      case 'nodes': {
        if (status === 200) {
          const o = JSON.parse(body) as KObject & { items?: KObject[] };
          return this.provision(ctx, tag.claim, o.items ?? [o]);
        }
        const claim = this.conn.store('persistentvolumeclaims').get(tag.claim) as PersistentVolumeClaim | undefined;
        const sc = claim && (this.conn.store('storageclasses').get(getPersistentVolumeClaimClass(claim)) as StorageClass | undefined);
        if (claim && sc && status === 404) return this.provision(ctx, tag.claim, []);
        this.busy.delete(tag.claim);
        ctx.setTimer(RETRY_START_MS, 'retry', tag.claim);
        return;
      }
      case 'createPV': {
        const claim = this.conn.store('persistentvolumeclaims').get(tag.claim);
        this.busy.delete(tag.claim);
        if (status === 201 || status === 409) {
          this.backoff.delete(tag.claim);
          if (status === 201 && claim) this.event(ctx, claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${tag.pv}`);
          return;
        }
        // Saving the PV failed: try again later (the library retries, then deletes the volume).
        ctx.setTimer(RETRY_START_MS, 'retry', tag.claim);
        return;
      }
      case 'unselect':
        this.busy.delete(tag.claim);
        return;
      case 'deletePV': {
        this.busy.delete(tag.pv);
        if (status === 200) {
          // The PV now carries a deletionTimestamp; take our finalizer off that version.
          const pv = JSON.parse(body) as KObject;
          if ((pv.metadata?.finalizers ?? []).includes(PV_DELETION_PROTECTION_FINALIZER)) this.unfinalize(ctx, pv);
        }
        return;
      }
      case 'unfinalize':
        this.busy.delete(tag.pv);
        if (status === 409) this.considerVolume(ctx, tag.pv);
        return;
      case 'event': {
        // recordToSink's fallback and retries (client/eventSink); status 0: no answer.
        const next = afterEventAnswer(tag.write, status, () => ctx.rng.float());
        if (next.type === 'send') this.sendEvent(ctx, next.write);
        else if (next.type === 'retry') ctx.setTimer(next.afterMs, 'eventRetry', next.write);
        return;
      }
    }
  }

  private event(ctx: ActorContext, regarding: KObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const ref = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: regarding.metadata.name, namespace: regarding.metadata.namespace, uid: regarding.metadata.uid, resourceVersion: regarding.metadata.resourceVersion } };
    const call = this.events.record({ regarding: ref, type, reason, message }, this.identity, ctx.now);
    if (call) this.sendEvent(ctx, coreEventWrite(call));
  }

  private sendEvent(ctx: ActorContext, write: EventWrite): void {
    const r = eventRequest(write);
    this.conn.call(ctx, { method: r.method, path: r.path, body: r.body, ...(r.contentType ? { contentType: r.contentType } : {}) }, { type: 'event', write } satisfies Tag);
  }
}

registerClass('CsiHostpathDriver', CsiHostpathDriver);
registerActorKind<CsiHostpathConfig, null>({
  kind: CSI_HOSTPATH_KIND,
  initDurable: () => null,
  create: (id, config) => new CsiHostpathDriver(id, config),
});
