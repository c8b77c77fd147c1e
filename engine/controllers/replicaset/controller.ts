// The ReplicaSet controller, as upstream v1.32's
// pkg/controller/replicaset/replica_set.go: it claims the pods its selector
// matches (adopting orphans, releasing pods that no longer match), creates or
// deletes pods until the active ones equal spec.replicas (creates in slow-start
// batches 1, 2, 4…, deletes by ActivePodsWithRanks), guards against its stale
// cache with expectations, and writes status.
//
// Upstream's sync blocks on its API calls; ours returns and continues in
// onResponse, so a slow-start batch's progress lives in `batches`.
//
// The replication manager (pkg/controller/replication) is the same controller
// run over ReplicationControllers, whose selector is a plain label map:
// ReplicationManager below.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { isEmpty, labelSelectorAsSelector, matches, selectorFromSet, type LabelSelector, type Selector } from '../../apimachinery/selectors/labels';
import { registerClass } from '../../sim/serial';
import { assertNever } from '../../sim/assert';
import { rfc3339 } from '../../apiserver/http/time';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { hasNamespaceTerminatingCause } from '../framework/apiErrors';
import { UIDTrackingControllerExpectations } from './expectations';
import { getPodsToDelete } from './ranking';
import { controllerOf, errorMessage, isPodActive, isPodAvailable, isPodReady, newControllerRef, KIND, refObject, type ControllerKind } from './podUtil';

/** BurstReplicas: at most this many creates/deletes per sync. */
export const BURST_REPLICAS = 500;
/** SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }[];
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: unknown };
}

export const rsSpec = (rs: KObject): ReplicaSetSpec => (rs.spec ?? {}) as ReplicaSetSpec;
export const rsStatus = (rs: KObject): ReplicaSetStatus => (rs.status ?? { replicas: 0 }) as ReplicaSetStatus;
export const rsReplicas = (rs: KObject): number => rsSpec(rs).replicas ?? 1;

type Tag =
  | { type: 'create'; key: string }
  | { type: 'delete'; key: string; podKey: string; podName: string }
  | { type: 'status'; key: string }
  | { type: 'adopt'; key: string; podKey: string }
  | { type: 'release'; key: string; podKey: string };

/** One slowStartBatch in progress for a ReplicaSet. */
interface CreateBatch {
  rs: KObject;
  pod: KObject;
  /** Creations not issued yet. */
  remaining: number;
  batchSize: number;
  inflight: number;
  failed: number;
  /** The batch's first error: slowStartBatch returns the first one its channel received. */
  firstError: string;
}

interface ManageError {
  reason: 'FailedCreate' | 'FailedDelete';
  message: string;
}

const RECENT = 50;

/** The objects a replica controller manages: ReplicaSets, or ReplicationControllers (plain data: controllers are cloned into snapshots). */
interface ReplicaTarget {
  resource: 'replicasets' | 'replicationcontrollers';
  kind: ControllerKind;
  /** The API path of the resource's collection, before /namespaces/NS/RESOURCE. */
  apiPrefix: string;
}

const REPLICA_SETS: ReplicaTarget = { resource: 'replicasets', kind: KIND.ReplicaSet, apiPrefix: '/apis/apps/v1' };
const REPLICATION_CONTROLLERS: ReplicaTarget = { resource: 'replicationcontrollers', kind: { apiVersion: 'v1', kind: 'ReplicationController' }, apiPrefix: '/api/v1' };

/** The object's selector: a ReplicaSet's LabelSelector, a ReplicationController's label map (as the replication manager converts it). */
function selectorOf(target: ReplicaTarget, rs: KObject): ReturnType<typeof labelSelectorAsSelector> {
  if (target === REPLICATION_CONTROLLERS) {
    const m = (rs.spec as { selector?: Record<string, string> } | undefined)?.selector;
    return labelSelectorAsSelector(m ? { matchLabels: m } : undefined);
  }
  return labelSelectorAsSelector(rsSpec(rs).selector);
}

export class ReplicaSetController implements Controller {
  readonly name: string = 'replicaset-controller';
  readonly target: ReplicaTarget = REPLICA_SETS;
  readonly informers: readonly string[] = ['replicasets', 'pods'];
  readonly queue = new RateLimitingQueue<string>('replicaset');
  readonly expectations = new UIDTrackingControllerExpectations();
  readonly batches = new Map<string, CreateBatch>();
  /** The last manageReplicas failure per ReplicaSet, for the ReplicaFailure condition. */
  readonly manageErrors = new Map<string, ManageError>();
  /** Status writes and ownerReference patches in flight (not repeated meanwhile). */
  readonly inflight = new Set<string>();
  readonly recent: { t: number; key: string; what: string }[] = [];

  // ---- informer events (addRS/updateRS/deleteRS, addPod/updatePod/deletePod)

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource === this.target.resource) this.onReplicaSet(ev, ctx);
    else if (resource === 'pods') this.onPod(ev, ctx);
  }

  private onReplicaSet(ev: ReflectorEvent, ctx: ControllerContext): void {
    const key = keyOf(ev.object);
    if (ev.type === 'DELETED') this.expectations.deleteExpectations(key);
    else if (ev.type === 'MODIFIED' && ev.old && ev.old.metadata.uid !== ev.object.metadata.uid) this.expectations.deleteExpectations(key);
    this.queue.add(key, ctx.now);
  }

  private onPod(ev: ReflectorEvent, ctx: ControllerContext): void {
    const pod = ev.object;
    switch (ev.type) {
      case 'ADDED': {
        if (pod.metadata.deletionTimestamp) return this.podDeleted(pod, ctx);
        const ref = controllerOf(pod);
        if (ref) {
          const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref, ctx);
          if (!rs) return;
          const key = keyOf(rs);
          this.expectations.creationObserved(key);
          this.queue.add(key, ctx.now);
          return;
        }
        for (const rs of this.getPodReplicaSets(pod, ctx)) this.queue.add(keyOf(rs), ctx.now);
        return;
      }
      case 'MODIFIED': {
        const old = ev.old;
        if (!old) return;
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
        const labelChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
        if (pod.metadata.deletionTimestamp) {
          this.podDeleted(pod, ctx);
          if (labelChanged) this.podDeleted(old, ctx);
          return;
        }
        const curRef = controllerOf(pod);
        const oldRef = controllerOf(old);
        const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
        if (refChanged && oldRef) {
          const rs = this.resolveControllerRef(old.metadata.namespace ?? '', oldRef, ctx);
          if (rs) this.queue.add(keyOf(rs), ctx.now);
        }
        if (curRef) {
          const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', curRef, ctx);
          if (!rs) return;
          this.queue.add(keyOf(rs), ctx.now);
          // A pod turned ready: check availability again once minReadySeconds passed.
          const minReady = rsSpec(rs).minReadySeconds ?? 0;
          if (!isPodReady(old) && isPodReady(pod) && minReady > 0) this.queue.addAfter(keyOf(rs), minReady * 1000 + 1000, ctx.now);
          return;
        }
        if (labelChanged || refChanged) for (const rs of this.getPodReplicaSets(pod, ctx)) this.queue.add(keyOf(rs), ctx.now);
        return;
      }
      case 'DELETED':
        return this.podDeleted(pod, ctx);
      default:
        return assertNever(ev.type, 'event type');
    }
  }

  private podDeleted(pod: KObject, ctx: ControllerContext): void {
    const ref = controllerOf(pod);
    if (!ref) return;
    const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref, ctx);
    if (!rs) return;
    const key = keyOf(rs);
    this.expectations.deletionObserved(key, keyOf(pod));
    this.queue.add(key, ctx.now);
  }

  private resolveControllerRef(ns: string, ref: { kind: string; name: string; uid: string }, ctx: ControllerContext): KObject | null {
    if (ref.kind !== this.target.kind.kind) return null;
    const rs = ctx.store(this.target.resource).get(`${ns}/${ref.name}`);
    return rs && rs.metadata.uid === ref.uid ? rs : null;
  }

  /** GetPodReplicaSets: the ReplicaSets whose (non-empty) selector matches the pod. */
  private getPodReplicaSets(pod: KObject, ctx: ControllerContext): KObject[] {
    const out: KObject[] = [];
    for (const rs of ctx.list(this.target.resource, pod.metadata.namespace ?? '')) {
      const sel = selectorOf(this.target, rs);
      if (!sel.ok || isEmpty(sel.selector) || !matches(sel.selector, pod.metadata.labels ?? {})) continue;
      out.push(rs);
    }
    return out;
  }

  // ---- sync (syncReplicaSet)

  sync(key: string, ctx: ControllerContext): SyncResult {
    const rs = ctx.store(this.target.resource).get(key);
    if (!rs) {
      this.expectations.deleteExpectations(key);
      this.batches.delete(key);
      this.manageErrors.delete(key);
      return { type: 'done' };
    }
    const sel = selectorOf(this.target, rs);
    if (!sel.ok) return { type: 'done' };
    const rsNeedsSync = this.expectations.satisfied(key, ctx.now) && !this.batches.has(key);
    // The pods it owns and the orphans it may adopt (the pod informer's owner index).
    const active = ctx.podsOwnedBy(rs.metadata.namespace ?? '', rs.metadata.uid ?? '').filter(isPodActive);
    const filteredPods = this.claimPods(rs, key, sel.selector, active, ctx);
    if (rsNeedsSync && !rs.metadata.deletionTimestamp) this.manageReplicas(filteredPods, rs, key, ctx);
    const status = calculateStatus(rs, filteredPods, this.manageErrors.get(key), ctx.now);
    this.updateStatus(rs, key, status, ctx);
    const minReady = rsSpec(rs).minReadySeconds ?? 0;
    const replicas = rsReplicas(rs);
    if (!this.manageErrors.has(key) && minReady > 0 && status.readyReplicas === replicas && status.availableReplicas !== replicas) {
      return { type: 'after', delayMs: minReady * 1000 };
    }
    return { type: 'done' };
  }

  /**
   * ClaimPods (PodControllerRefManager): ours and matching → keep; ours and no
   * longer matching → release; orphans that match → adopt (unless either side
   * is being deleted). Adopted pods count at once, as upstream's do once its
   * patch returns.
   */
  private claimPods(rs: KObject, key: string, sel: Selector, pods: KObject[], ctx: ControllerContext): KObject[] {
    const uid = rs.metadata.uid;
    const claimed: KObject[] = [];
    for (const pod of pods) {
      const ref = controllerOf(pod);
      const match = matches(sel, pod.metadata.labels ?? {});
      if (ref) {
        if (ref.uid !== uid) continue;
        if (match) claimed.push(pod);
        else if (!rs.metadata.deletionTimestamp) this.patchOwner(rs, key, pod, 'release', ctx);
        continue;
      }
      if (rs.metadata.deletionTimestamp || !match || pod.metadata.deletionTimestamp) continue;
      if ((pod.metadata.namespace ?? '') !== (rs.metadata.namespace ?? '')) continue;
      this.patchOwner(rs, key, pod, 'adopt', ctx);
      claimed.push(pod);
    }
    return claimed;
  }

  private patchOwner(rs: KObject, key: string, pod: KObject, type: 'adopt' | 'release', ctx: ControllerContext): void {
    const podKey = keyOf(pod);
    const id = `${type}/${podKey}`;
    if (this.inflight.has(id)) return;
    this.inflight.add(id);
    const ownerReferences = type === 'adopt' ? [newControllerRef(rs, this.target.kind)] : [{ $patch: 'delete', uid: rs.metadata.uid }];
    ctx.request(
      {
        method: 'PATCH',
        path: `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`,
        contentType: 'application/strategic-merge-patch+json',
        body: { metadata: { ownerReferences, uid: pod.metadata.uid } },
      },
      { type, key, podKey } satisfies Tag,
    );
    this.note(ctx, key, `${type} pod ${pod.metadata.name}`);
  }

  private manageReplicas(filteredPods: KObject[], rs: KObject, key: string, ctx: ControllerContext): void {
    const diff = filteredPods.length - rsReplicas(rs);
    if (diff < 0) {
      const n = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expectCreations(key, n, ctx.now);
      const batch: CreateBatch = { rs: refObject(rs), pod: podFromTemplate(rs, this.target.kind), remaining: n, batchSize: Math.min(n, SLOW_START_INITIAL_BATCH_SIZE), inflight: 0, failed: 0, firstError: '' };
      this.batches.set(key, batch);
      this.note(ctx, key, `create ${n} pod(s)`);
      this.issueBatch(key, batch, ctx);
    } else if (diff > 0) {
      const n = Math.min(diff, BURST_REPLICAS);
      const toDelete = getPodsToDelete(filteredPods, this.getIndirectlyRelatedPods(rs, ctx), n, ctx.now);
      this.expectations.expectDeletions(key, toDelete.map(keyOf), ctx.now);
      this.note(ctx, key, `delete ${toDelete.length} pod(s)`);
      for (const pod of toDelete) {
        ctx.request({ method: 'DELETE', path: `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}` }, { type: 'delete', key, podKey: keyOf(pod), podName: pod.metadata.name! } satisfies Tag);
      }
    } else this.manageErrors.delete(key);
  }

  private issueBatch(key: string, b: CreateBatch, ctx: ControllerContext): void {
    const ns = b.rs.metadata.namespace;
    for (let i = 0; i < b.batchSize; i++) {
      b.inflight++;
      b.remaining--;
      ctx.request({ method: 'POST', path: `/api/v1/namespaces/${ns}/pods`, body: b.pod }, { type: 'create', key } satisfies Tag);
    }
  }

  /** Pods matching the selector of any ReplicaSet with the same controller (a Deployment's). */
  private getIndirectlyRelatedPods(rs: KObject, ctx: ControllerContext): KObject[] {
    const owner = controllerOf(rs);
    if (!owner) return [];
    const seen = new Set<string>();
    const out: KObject[] = [];
    const pods = ctx.list('pods', rs.metadata.namespace ?? '');
    for (const other of ctx.list(this.target.resource, rs.metadata.namespace ?? '')) {
      if (controllerOf(other)?.uid !== owner.uid) continue;
      const sel = selectorOf(this.target, other);
      if (!sel.ok) continue;
      for (const p of pods) {
        if (seen.has(p.metadata.uid ?? '') || !matches(sel.selector, p.metadata.labels ?? {})) continue;
        seen.add(p.metadata.uid ?? '');
        out.push(p);
      }
    }
    return out;
  }

  /** updateReplicaSetStatus: a PUT to /status only when something changed. */
  private updateStatus(rs: KObject, key: string, status: ReplicaSetStatus, ctx: ControllerContext): void {
    const cur = rsStatus(rs);
    const gen = rs.metadata.generation ?? 0;
    const same =
      (cur.replicas ?? 0) === status.replicas &&
      (cur.fullyLabeledReplicas ?? 0) === (status.fullyLabeledReplicas ?? 0) &&
      (cur.readyReplicas ?? 0) === (status.readyReplicas ?? 0) &&
      (cur.availableReplicas ?? 0) === (status.availableReplicas ?? 0) &&
      (cur.observedGeneration ?? 0) === gen &&
      JSON.stringify(cur.conditions ?? []) === JSON.stringify(status.conditions ?? []);
    if (same) return;
    const id = `status/${key}`;
    if (this.inflight.has(id)) return;
    this.inflight.add(id);
    const body = { ...rs, status: omitZero({ ...status, observedGeneration: gen }) };
    ctx.request({ method: 'PUT', path: `${this.target.apiPrefix}/namespaces/${rs.metadata.namespace}/${this.target.resource}/${rs.metadata.name}/status`, body }, { type: 'status', key } satisfies Tag);
  }

  // ---- answers

  onResponse(tagIn: unknown, status: number, body: string, ctx: ControllerContext): void {
    const tag = tagIn as Tag;
    const ok = status >= 200 && status < 300;
    switch (tag.type) {
      case 'create':
        return this.created(tag.key, ok, status, body, ctx);
      case 'delete': {
        const rs = ctx.store(this.target.resource).get(tag.key);
        const regarding = rs ? refObject(rs) : null;
        if (ok) {
          if (regarding) ctx.event({ regarding, type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted pod: ${tag.podName}` });
          return;
        }
        // The informer will never see this deletion.
        this.expectations.deletionObserved(tag.key, tag.podKey);
        if (status === 404) return;
        const message = errorMessage(status, body);
        if (regarding) ctx.event({ regarding, type: 'Warning', reason: 'FailedDelete', message: `Error deleting: ${message}` });
        this.manageErrors.set(tag.key, { reason: 'FailedDelete', message: `unable to delete pods: ${message}` });
        this.queue.addRateLimited(tag.key, ctx.now);
        return;
      }
      case 'status':
        this.inflight.delete(`status/${tag.key}`);
        // On success the informer's update re-syncs; on a conflict, retry with the newer object.
        if (!ok) this.queue.addRateLimited(tag.key, ctx.now);
        return;
      case 'adopt':
      case 'release':
        this.inflight.delete(`${tag.type}/${tag.podKey}`);
        if (!ok && status !== 404) this.queue.addRateLimited(tag.key, ctx.now);
        return;
      default:
        return assertNever(tag, 'tag');
    }
  }

  /** One create of a slow-start batch answered: next batch when all succeeded, else stop. */
  private created(key: string, ok: boolean, status: number, body: string, ctx: ControllerContext): void {
    const b = this.batches.get(key);
    if (!b) return;
    b.inflight--;
    if (ok) {
      let name = '';
      try {
        name = (JSON.parse(body) as KObject).metadata.name ?? '';
      } catch {
        name = '';
      }
      ctx.event({ regarding: b.rs, type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${name}` });
    } else if (!hasNamespaceTerminatingCause(body)) {
      // A namespace being terminated is no failure: manageReplicas counts the creation as done, createPods records no event.
      const message = errorMessage(status, body);
      if (!b.failed++) b.firstError = message;
      ctx.event({ regarding: b.rs, type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${message}` });
    }
    if (b.inflight > 0) return;
    if (b.failed > 0) {
      // The creations skipped or failed will never be observed.
      for (let i = 0; i < b.remaining + b.failed; i++) this.expectations.creationObserved(key);
      this.batches.delete(key);
      this.manageErrors.set(key, { reason: 'FailedCreate', message: b.firstError });
      this.queue.addRateLimited(key, ctx.now);
      return;
    }
    if (b.remaining > 0) {
      b.batchSize = Math.min(2 * b.batchSize, b.remaining);
      this.issueBatch(key, b, ctx);
      return;
    }
    this.batches.delete(key);
    this.manageErrors.delete(key);
    this.queue.add(key, ctx.now);
  }

  private note(ctx: ControllerContext, key: string, what: string): void {
    this.recent.push({ t: ctx.now, key, what });
    if (this.recent.length > RECENT) this.recent.splice(0, this.recent.length - RECENT);
  }
}


export function keyOf(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
}

/** GetPodFromTemplate: the template's labels, annotations, finalizers and spec; generateName `<rs>-`. */
export function podFromTemplate(rs: KObject, kind: ControllerKind = KIND.ReplicaSet): KObject {
  const t = rsSpec(rs).template ?? {};
  const m = t.metadata ?? {};
  const metadata: KObject['metadata'] = { generateName: `${rs.metadata.name}-`, namespace: rs.metadata.namespace, ownerReferences: [newControllerRef(rs, kind)] };
  if (m.labels) metadata.labels = { ...m.labels };
  if (m.annotations) metadata.annotations = { ...m.annotations };
  if (m.finalizers) metadata.finalizers = [...m.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: JSON.parse(JSON.stringify(t.spec ?? {})) as unknown };
}

/** calculateStatus: counts of the claimed active pods, and the ReplicaFailure condition. */
export function calculateStatus(rs: KObject, filteredPods: readonly KObject[], manageErr: ManageError | undefined, now: number): ReplicaSetStatus {
  const cur = rsStatus(rs);
  const templateLabels = selectorFromSet(rsSpec(rs).template?.metadata?.labels ?? {});
  const minReady = rsSpec(rs).minReadySeconds ?? 0;
  let fully = 0;
  let ready = 0;
  let available = 0;
  for (const p of filteredPods) {
    if (matches(templateLabels, p.metadata.labels ?? {})) fully++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now)) available++;
    }
  }
  let conditions = [...(cur.conditions ?? [])];
  const failure = conditions.find((c) => c.type === 'ReplicaFailure');
  if (manageErr && !failure) {
    const diff = filteredPods.length - rsReplicas(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : manageErr.reason;
    conditions.push({ type: 'ReplicaFailure', status: 'True', lastTransitionTime: rfc3339(now), reason, message: manageErr.message });
  } else if (!manageErr && failure) conditions = conditions.filter((c) => c.type !== 'ReplicaFailure');
  const out: ReplicaSetStatus = { replicas: filteredPods.length, fullyLabeledReplicas: fully, readyReplicas: ready, availableReplicas: available, observedGeneration: cur.observedGeneration };
  if (conditions.length) out.conditions = conditions;
  return out;
}

/** The Go JSON of ReplicaSetStatus: replicas always, the other counts omitempty. */
function omitZero(s: ReplicaSetStatus): ReplicaSetStatus {
  const out: ReplicaSetStatus = { replicas: s.replicas };
  if (s.fullyLabeledReplicas) out.fullyLabeledReplicas = s.fullyLabeledReplicas;
  if (s.readyReplicas) out.readyReplicas = s.readyReplicas;
  if (s.availableReplicas) out.availableReplicas = s.availableReplicas;
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  if (s.conditions?.length) out.conditions = s.conditions;
  return out;
}

/**
 * The replication manager (pkg/controller/replication): the ReplicaSet controller over
 * ReplicationControllers, with its own name, service account and events ("replication-controller").
 */
export class ReplicationManager extends ReplicaSetController {
  override readonly name = 'replication-controller';
  override readonly target = REPLICATION_CONTROLLERS;
  override readonly informers: readonly string[] = ['replicationcontrollers', 'pods'];
  override readonly queue = new RateLimitingQueue<string>('replicationmanager');
}

registerClass('ReplicaSetController', ReplicaSetController);
registerClass('ReplicationManager', ReplicationManager);
