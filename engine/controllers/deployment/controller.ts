// The Deployment controller, as upstream v1.32's pkg/controller/deployment
// (deployment_controller.go, sync.go, rolling.go, recreate.go, progress.go):
// it claims ReplicaSets by selector, keeps one ReplicaSet per pod template
// (`<deploy>-<pod-template-hash>`), moves replicas between them by the
// strategy, and reports status and the Progressing/Available conditions.
//
// Upstream's sync blocks on each write and goes on with the object returned.
// Ours issues its writes, then waits: while any write for a Deployment is in
// flight its key is not reconciled again, and the answer re-enqueues it.
// Writes carry resourceVersions, so a stale cache only costs a 409 and a retry.
import { jsonRoundTrip } from '../../sim/jsonClone';
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { isEmpty, labelSelectorAsSelector, matches } from '../../apimachinery/selectors/labels';
import { registerClass } from '../../sim/serial';
import type { ApiCall, Controller, ControllerContext, EventSpec, SyncResult } from '../framework/types';
import { keyOf, rsReplicas, rsSpec, rsStatus } from '../replicaset/controller';
import { controllerOf, errorMessage, newControllerRef, KIND, refObject, timeOf } from '../replicaset/podUtil';
import { computeHash } from './hash';
import {
  activeRSs, actualReplicasSum, availableReplicasSum, byCreation, byRevision, bySizeNewer, bySizeOlder, deepEqual, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY,
  deploymentComplete, deploymentProgressing, deploymentTimedOut, DESIRED_REPLICAS_ANNOTATION, dReplicas, dSpec, dStatus, equalIgnoreHash, findActiveOrLatest,
  FOUND_NEW_RS_REASON, getCondition, getProportion, hasProgressDeadline, hasRevisionHistoryLimit, isRollingUpdate, isSaturated, maxRevision, maxSurge,
  maxUnavailable, MINIMUM_REPLICAS_AVAILABLE, MINIMUM_REPLICAS_UNAVAILABLE, NEW_RS_AVAILABLE_REASON, NEW_RS_REASON, newCondition, newRSNewReplicas,
  PAUSED_DEPLOY_REASON, readyReplicasSum, removeCondition, REPLICA_SET_UPDATED_REASON, replicasAnnotationsNeedUpdate, RESUMED_DEPLOY_REASON, REVISION_ANNOTATION,
  setCondition, setNewReplicaSetAnnotations, setReplicasAnnotations, specReplicasSum, TIMED_OUT_REASON, type DeploymentStatus,
} from './util';

type Tag = { key: string; what: 'write' | 'status' | 'createRS'; name?: string; event?: EventSpec; failEvent?: { reason: string; prefix: string } };

/** One reconcile of one Deployment: the working copy and whether it wrote. */
interface Pass {
  key: string;
  orig: KObject;
  d: KObject;
  ctx: ControllerContext;
  /** A write (not the final status) was issued. */
  wrote: boolean;
}

const RECENT = 50;
// The pass's copies of its Deployment and ReplicaSets: a JSON round trip, built directly (sim/jsonClone.ts).
const clone = jsonRoundTrip;

/** FindNewReplicaSet / FindOldReplicaSets: the oldest ReplicaSet whose template is the Deployment's, and the rest, by creation. */
function splitByTemplate(d: KObject, rsList: readonly KObject[]): { newRS: KObject | null; oldRSs: KObject[] } {
  const sorted = [...rsList].sort(byCreation);
  const newRS = sorted.find((rs) => equalIgnoreHash(rsSpec(rs).template, dSpec(d).template)) ?? null;
  return { newRS, oldRSs: sorted.filter((rs) => rs !== newRS) };
}

export class DeploymentController implements Controller {
  readonly name = 'deployment-controller';
  readonly informers = ['deployments', 'replicasets', 'pods'] as const;
  readonly queue = new RateLimitingQueue<string>('deployment');
  /** Writes in flight per Deployment key. */
  readonly inflight = new Map<string, number>();
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** ReplicaSets created ("ns/name") that the informer has not shown yet: not created twice. */
  readonly createdUnseen = new Set<string>();

  // ---- informer events

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource === 'deployments') this.queue.add(keyOf(ev.object), ctx.now);
    else if (resource === 'replicasets') this.onReplicaSet(ev, ctx);
    else if (resource === 'pods' && ev.type === 'DELETED') this.onPodDeleted(ev.object, ctx);
  }

  private onReplicaSet(ev: ReflectorEvent, ctx: ControllerContext): void {
    const rs = ev.object;
    const ns = rs.metadata.namespace ?? '';
    this.createdUnseen.delete(keyOf(rs));
    if (ev.type === 'MODIFIED' && ev.old) {
      if (ev.old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
      const oldRef = controllerOf(ev.old);
      const curRef = controllerOf(rs);
      const refChanged = JSON.stringify(oldRef ?? null) !== JSON.stringify(curRef ?? null);
      if (refChanged && oldRef) this.enqueueOwner(ns, oldRef, ctx);
      if (curRef) return this.enqueueOwner(ns, curRef, ctx);
      const labelsChanged = JSON.stringify(ev.old.metadata.labels ?? {}) !== JSON.stringify(rs.metadata.labels ?? {});
      if (labelsChanged || refChanged) for (const d of this.deploymentsFor(rs, ctx)) this.queue.add(keyOf(d), ctx.now);
      return;
    }
    const ref = controllerOf(rs);
    if (ref) return this.enqueueOwner(ns, ref, ctx);
    if (ev.type === 'ADDED') for (const d of this.deploymentsFor(rs, ctx)) this.queue.add(keyOf(d), ctx.now);
  }

  /** deletePod: a Recreate rollout waits for its old pods to be gone. */
  private onPodDeleted(pod: KObject, ctx: ControllerContext): void {
    const ref = controllerOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = ctx.store('replicasets').get(`${pod.metadata.namespace}/${ref.name}`);
    const dref = rs && rs.metadata.uid === ref.uid ? controllerOf(rs) : undefined;
    if (!dref || dref.kind !== 'Deployment') return;
    const d = ctx.store('deployments').get(`${pod.metadata.namespace}/${dref.name}`);
    if (d && d.metadata.uid === dref.uid && !isRollingUpdate(d)) this.queue.add(keyOf(d), ctx.now);
  }

  private enqueueOwner(ns: string, ref: { kind: string; name: string; uid: string }, ctx: ControllerContext): void {
    if (ref.kind !== 'Deployment') return;
    const d = ctx.store('deployments').get(`${ns}/${ref.name}`);
    if (d && d.metadata.uid === ref.uid) this.queue.add(keyOf(d), ctx.now);
  }

  /** getDeploymentsForReplicaSet: Deployments whose non-empty selector matches the RS's labels. */
  private deploymentsFor(rs: KObject, ctx: ControllerContext): KObject[] {
    return ctx.list('deployments', rs.metadata.namespace ?? '').filter((d) => {
      const sel = labelSelectorAsSelector(dSpec(d).selector);
      return sel.ok && !isEmpty(sel.selector) && matches(sel.selector, rs.metadata.labels ?? {});
    });
  }

  // ---- syncDeployment

  sync(key: string, ctx: ControllerContext): SyncResult {
    if ((this.inflight.get(key) ?? 0) > 0) return { type: 'done' };
    const orig = ctx.store('deployments').get(key);
    if (!orig) return { type: 'done' };
    const p: Pass = { key, orig, d: clone(orig), ctx, wrote: false };
    const d = p.d;
    const selector = dSpec(d).selector;
    if (selector && !(selector.matchLabels && Object.keys(selector.matchLabels).length) && !selector.matchExpressions?.length) {
      ctx.event({ regarding: refObject(d), type: 'Warning', reason: 'SelectingAll', message: 'This deployment is selecting all pods. A non-empty selector is required.' });
      if ((dStatus(d).observedGeneration ?? 0) < (d.metadata.generation ?? 0)) this.writeStatus(p, { ...dStatus(d), observedGeneration: d.metadata.generation ?? 0 });
      return { type: 'done' };
    }
    const rsList = this.claimReplicaSets(p);
    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(p, rsList);
    if (this.checkPausedConditions(p)) return { type: 'done' };
    if (dSpec(d).paused) return this.syncScale(p, rsList);
    if (this.isScalingEvent(p, rsList)) return this.syncScale(p, rsList);
    return isRollingUpdate(d) ? this.rolloutRolling(p, rsList) : this.rolloutRecreate(p, rsList);
  }

  /**
   * getReplicaSetsForDeployment: ClaimReplicaSets (adopt matching orphans, release non-matching).
   * Copies: a pass changes its ReplicaSets as it scales them (where upstream puts the API's answer
   * in their place); the informer's objects are the cache, shared and frozen.
   */
  private claimReplicaSets(p: Pass): KObject[] {
    const d = p.d;
    const sel = labelSelectorAsSelector(dSpec(d).selector);
    if (!sel.ok) return [];
    const out: KObject[] = [];
    for (const rs of p.ctx.list('replicasets', d.metadata.namespace ?? '')) {
      // ClaimObject: another controller's ReplicaSet is skipped before its labels are matched.
      const ref = controllerOf(rs);
      if (ref) {
        if (ref.uid !== d.metadata.uid) continue;
        if (matches(sel.selector, rs.metadata.labels ?? {})) out.push(clone(rs));
        else if (!d.metadata.deletionTimestamp) this.write(p, { method: 'PATCH', path: rsPath(rs), contentType: 'application/strategic-merge-patch+json', body: { metadata: { ownerReferences: [{ $patch: 'delete', uid: d.metadata.uid }], uid: rs.metadata.uid } } });
        continue;
      }
      if (d.metadata.deletionTimestamp || rs.metadata.deletionTimestamp || !matches(sel.selector, rs.metadata.labels ?? {})) continue;
      this.write(p, { method: 'PATCH', path: rsPath(rs), contentType: 'application/strategic-merge-patch+json', body: { metadata: { ownerReferences: [newControllerRef(d, KIND.Deployment)], uid: rs.metadata.uid } } });
      out.push(clone(rs));
    }
    return out;
  }

  /** checkPausedConditions: Progressing=Unknown DeploymentPaused / DeploymentResumed. True when it wrote. */
  private checkPausedConditions(p: Pass): boolean {
    const d = p.d;
    if (!hasProgressDeadline(d)) return false;
    const cond = getCondition(dStatus(d), 'Progressing');
    if (cond?.reason === TIMED_OUT_REASON) return false;
    const pausedExists = cond?.reason === PAUSED_DEPLOY_REASON;
    const status = clone(dStatus(d));
    if (dSpec(d).paused && !pausedExists) setCondition(status, newCondition('Progressing', 'Unknown', PAUSED_DEPLOY_REASON, 'Deployment is paused', p.ctx.now));
    else if (!dSpec(d).paused && pausedExists) setCondition(status, newCondition('Progressing', 'Unknown', RESUMED_DEPLOY_REASON, 'Deployment is resumed', p.ctx.now));
    else return false;
    this.writeStatus(p, status);
    return true;
  }

  /**
   * getAllReplicaSetsAndSyncRevision / getNewReplicaSet. `null` newRS means
   * none yet (or its creation was just requested, when `create`).
   */
  private getAllReplicaSets(p: Pass, rsList: KObject[], create: boolean): { newRS: KObject | null; oldRSs: KObject[] } {
    const d = p.d;
    const { newRS: existing, oldRSs } = splitByTemplate(d, rsList);
    const newRevision = maxRevision(oldRSs) + 1;
    const status = dStatus(d);
    if (existing) {
      const copy = clone(existing);
      const annotationsUpdated = setNewReplicaSetAnnotations(d, copy, newRevision, true);
      const minReady = dSpec(d).minReadySeconds ?? 0;
      const minReadyUpdate = (rsSpec(copy).minReadySeconds ?? 0) !== minReady;
      if (annotationsUpdated || minReadyUpdate) {
        (copy.spec as { minReadySeconds?: number }).minReadySeconds = minReady;
        this.write(p, { method: 'PUT', path: rsPath(copy), body: copy });
      }
      // SetDeploymentRevision and the first Progressing condition, written with the final status.
      const rev = copy.metadata.annotations?.[REVISION_ANNOTATION];
      if (rev !== undefined) (d.metadata.annotations ??= {})[REVISION_ANNOTATION] = rev;
      if (!getCondition(status, 'Progressing')) setCondition(status, newCondition('Progressing', 'True', FOUND_NEW_RS_REASON, `Found new replica set "${copy.metadata.name}"`, p.ctx.now));
      d.status = status;
      return { newRS: copy, oldRSs };
    }
    if (!create) return { newRS: null, oldRSs };
    const template = clone(dSpec(d).template ?? {});
    const hash = computeHash(dSpec(d).template ?? {}, status.collisionCount);
    const name = `${d.metadata.name}-${hash}`;
    if (this.createdUnseen.has(`${d.metadata.namespace}/${name}`)) return { newRS: null, oldRSs };
    const taken = p.ctx.store('replicasets').get(`${d.metadata.namespace}/${name}`);
    if (taken) {
      // A hash collision (the name is taken by another template or owner): bump collisionCount.
      if (controllerOf(taken)?.uid !== d.metadata.uid || !equalIgnoreHash(rsSpec(taken).template, dSpec(d).template)) {
        this.writeStatus(p, { ...status, collisionCount: (status.collisionCount ?? 0) + 1 });
        p.wrote = true;
      }
      return { newRS: null, oldRSs };
    }
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY]: hash } };
    const selector = clone(dSpec(d).selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY]: hash };
    const rs: KObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: d.metadata.namespace, ownerReferences: [newControllerRef(d, KIND.Deployment)], labels: { ...template.metadata.labels } },
      spec: { replicas: 0, minReadySeconds: dSpec(d).minReadySeconds ?? 0, selector, template },
    };
    const replicas = newRSNewReplicas(d, [...oldRSs, rs], 0);
    (rs.spec as { replicas: number }).replicas = replicas;
    setNewReplicaSetAnnotations(d, rs, newRevision, false);
    const event: EventSpec | undefined = replicas > 0 ? { regarding: refObject(d), type: 'Normal', reason: 'ScalingReplicaSet', message: `Scaled up replica set ${name} from 0 to ${replicas}` } : undefined;
    this.request(p, { method: 'POST', path: `/apis/apps/v1/namespaces/${d.metadata.namespace}/replicasets`, body: rs }, { key: p.key, what: 'createRS', name: `${d.metadata.namespace}/${name}`, event, failEvent: { reason: 'FailedCreate', prefix: `Failed to create new replica set "${name}": ` } });
    p.wrote = true;
    (d.metadata.annotations ??= {})[REVISION_ANNOTATION] = String(newRevision);
    setCondition(status, newCondition('Progressing', 'True', NEW_RS_REASON, `Created new replica set "${name}"`, p.ctx.now));
    d.status = status;
    this.note(p, `create replica set ${name} (${replicas})`);
    return { newRS: null, oldRSs };
  }

  /** isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
  private isScalingEvent(p: Pass, rsList: KObject[]): boolean {
    // getAllReplicaSetsAndSyncRevision(createIfNotExisted=false), read only: syncing the new ReplicaSet's revision
    // never touches its desired-replicas annotation (it is not copied from the Deployment), so nothing needs a copy.
    const { newRS, oldRSs } = splitByTemplate(p.d, rsList);
    for (const rs of activeRSs([...oldRSs, newRS])) {
      const desired = rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION];
      if (desired === undefined || !/^\d+$/.test(desired)) continue;
      if (Number(desired) !== dReplicas(p.d)) return true;
    }
    return false;
  }

  // ---- strategies

  private rolloutRolling(p: Pass, rsList: KObject[]): SyncResult {
    const { newRS, oldRSs } = this.getAllReplicaSets(p, rsList, true);
    if (!newRS) return this.finish(p);
    const allRSs = [...oldRSs, newRS];
    if (this.reconcileNewReplicaSet(p, allRSs, newRS)) return this.syncRolloutStatus(p, allRSs, newRS);
    if (this.reconcileOldReplicaSets(p, allRSs, activeRSs(oldRSs), newRS)) return this.syncRolloutStatus(p, allRSs, newRS);
    if (deploymentComplete(p.d, dStatus(p.d))) this.cleanupDeployment(p, oldRSs);
    return this.syncRolloutStatus(p, allRSs, newRS);
  }

  private reconcileNewReplicaSet(p: Pass, allRSs: KObject[], newRS: KObject): boolean {
    const want = dReplicas(p.d);
    if (rsReplicas(newRS) === want) return false;
    if (rsReplicas(newRS) > want) return this.scaleAndRecord(p, newRS, want);
    return this.scaleAndRecord(p, newRS, newRSNewReplicas(p.d, allRSs, rsReplicas(newRS)));
  }

  private reconcileOldReplicaSets(p: Pass, allRSs: KObject[], oldRSs: KObject[], newRS: KObject): boolean {
    const oldPods = specReplicasSum(oldRSs);
    if (oldPods === 0) return false;
    const allPods = specReplicasSum(allRSs);
    const minAvailable = dReplicas(p.d) - maxUnavailable(p.d);
    const newRSUnavailable = rsReplicas(newRS) - (rsStatus(newRS).availableReplicas ?? 0);
    const maxScaledDown = allPods - minAvailable - newRSUnavailable;
    if (maxScaledDown <= 0) return false;
    // cleanupUnhealthyReplicas: scale down old replicas that are not available first.
    // An old RS whose status still counts more available pods than its spec
    // asks for (the RS controller has not caught up with the last scale-down)
    // would give a negative count, i.e. a scale *up*: upstream refuses it
    // ("got invalid request to scale down") and the whole step does nothing.
    const olds = [...oldRSs].sort(byCreation);
    let cleaned = 0;
    for (const rs of olds) {
      if (cleaned >= maxScaledDown) break;
      const available = rsStatus(rs).availableReplicas ?? 0;
      if (rsReplicas(rs) === 0 || rsReplicas(rs) === available) continue;
      const n = Math.min(maxScaledDown - cleaned, rsReplicas(rs) - available);
      if (n < 0) return cleaned > 0;
      this.scaleAndRecord(p, rs, rsReplicas(rs) - n);
      cleaned += n;
    }
    // scaleDownOldReplicaSetsForRollingUpdate: then available ones, down to minAvailable.
    const availablePods = availableReplicasSum([...olds, newRS]);
    let scaled = 0;
    if (availablePods > minAvailable) {
      const total = availablePods - minAvailable;
      for (const rs of olds) {
        if (scaled >= total) break;
        if (rsReplicas(rs) === 0) continue;
        const n = Math.min(rsReplicas(rs), total - scaled);
        this.scaleAndRecord(p, rs, rsReplicas(rs) - n);
        scaled += n;
      }
    }
    return cleaned + scaled > 0;
  }

  private rolloutRecreate(p: Pass, rsList: KObject[]): SyncResult {
    let { newRS, oldRSs } = this.getAllReplicaSets(p, rsList, false);
    let allRSs = [...oldRSs, newRS];
    // scaleDownOldReplicaSetsForRecreate.
    let scaledDown = false;
    for (const rs of activeRSs(oldRSs)) scaledDown = this.scaleAndRecord(p, rs, 0) || scaledDown;
    if (scaledDown) return this.syncRolloutStatus(p, allRSs, newRS);
    if (this.oldPodsRunning(p, newRS, oldRSs)) return this.syncRolloutStatus(p, allRSs, newRS);
    if (!newRS) {
      ({ newRS, oldRSs } = this.getAllReplicaSets(p, rsList, true));
      if (!newRS) return this.finish(p);
      allRSs = [...oldRSs, newRS];
    }
    this.scaleAndRecord(p, newRS, dReplicas(p.d));
    if (deploymentComplete(p.d, dStatus(p.d))) this.cleanupDeployment(p, oldRSs);
    return this.syncRolloutStatus(p, allRSs, newRS);
  }

  /** oldPodsRunning: old ReplicaSets still report pods, or a non-terminal pod of theirs exists. */
  private oldPodsRunning(p: Pass, newRS: KObject | null, oldRSs: KObject[]): boolean {
    if (actualReplicasSum(oldRSs) > 0) return true;
    const oldUids = new Set(oldRSs.map((rs) => rs.metadata.uid));
    for (const pod of p.ctx.list('pods', p.d.metadata.namespace ?? '')) {
      const ref = controllerOf(pod);
      if (!ref || !oldUids.has(ref.uid) || ref.uid === newRS?.metadata.uid) continue;
      const phase = (pod.status as { phase?: string } | undefined)?.phase;
      if (phase !== 'Failed' && phase !== 'Succeeded') return true;
    }
    return false;
  }

  /** sync: scale (paused or a scaling event), clean up when paused, write status. */
  private syncScale(p: Pass, rsList: KObject[]): SyncResult {
    const { newRS, oldRSs } = this.getAllReplicaSets(p, rsList, false);
    this.scale(p, newRS, oldRSs);
    if (dSpec(p.d).paused) this.cleanupDeployment(p, oldRSs);
    const allRSs = [...oldRSs, newRS];
    this.writeStatus(p, this.calculateStatus(p, allRSs, newRS));
    return this.finish(p);
  }

  private syncStatusOnly(p: Pass, rsList: KObject[]): SyncResult {
    const { newRS, oldRSs } = this.getAllReplicaSets(p, rsList, false);
    this.writeStatus(p, this.calculateStatus(p, [...oldRSs, newRS], newRS));
    return this.finish(p);
  }

  /** scale: the single active RS takes all; a saturated new RS empties the old; else proportional. */
  private scale(p: Pass, newRS: KObject | null, oldRSs: KObject[]): void {
    const d = p.d;
    const one = findActiveOrLatest(newRS, oldRSs);
    if (one) {
      if (rsReplicas(one) !== dReplicas(d)) this.scaleAndRecord(p, one, dReplicas(d));
      return;
    }
    if (isSaturated(d, newRS)) {
      for (const old of activeRSs(oldRSs)) this.scaleAndRecord(p, old, 0);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const all = activeRSs([...oldRSs, newRS]);
    const allowed = dReplicas(d) > 0 ? dReplicas(d) + maxSurge(d) : 0;
    const toAdd = allowed - specReplicasSum(all);
    let op = '';
    if (toAdd > 0) {
      all.sort(bySizeNewer);
      op = 'up';
    } else if (toAdd < 0) {
      all.sort(bySizeOlder);
      op = 'down';
    }
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of all) {
      if (toAdd !== 0) {
        const prop = getProportion(rs, d, toAdd, added);
        sizes.set(rs.metadata.name!, rsReplicas(rs) + prop);
        added += prop;
      } else sizes.set(rs.metadata.name!, rsReplicas(rs));
    }
    all.forEach((rs, i) => {
      let size = sizes.get(rs.metadata.name!)!;
      if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
      this.scaleReplicaSet(p, rs, size, op);
    });
  }

  /** scaleReplicaSetAndRecordEvent. True when it changed the size. */
  private scaleAndRecord(p: Pass, rs: KObject, newScale: number): boolean {
    if (rsReplicas(rs) === newScale) return false;
    return this.scaleReplicaSet(p, rs, newScale, newScale > rsReplicas(rs) ? 'up' : 'down');
  }

  /** scaleReplicaSet: PUT the new size and the replicas annotations; updates `rs` in place (our copy). */
  private scaleReplicaSet(p: Pass, rs: KObject, newScale: number, op: string): boolean {
    const d = p.d;
    const max = dReplicas(d) + maxSurge(d);
    const sizeChanges = rsReplicas(rs) !== newScale;
    if (!sizeChanges && !replicasAnnotationsNeedUpdate(rs, dReplicas(d), max)) return false;
    const oldScale = rsReplicas(rs);
    const body = clone(rs);
    (body.spec as { replicas: number }).replicas = newScale;
    setReplicasAnnotations(body, dReplicas(d), max);
    const event: EventSpec | undefined = sizeChanges ? { regarding: refObject(d), type: 'Normal', reason: 'ScalingReplicaSet', message: `Scaled ${op} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}` } : undefined;
    this.request(p, { method: 'PUT', path: rsPath(rs), body }, { key: p.key, what: 'write', event });
    p.wrote = true;
    // Later steps of this pass see the new size, as upstream's use of the returned object.
    (rs.spec as { replicas: number }).replicas = newScale;
    rs.metadata.annotations = body.metadata.annotations;
    if (sizeChanges) this.note(p, `scale ${rs.metadata.name} ${oldScale}→${newScale}`);
    return sizeChanges;
  }

  /** cleanupDeployment: delete the oldest empty ReplicaSets beyond revisionHistoryLimit. */
  private cleanupDeployment(p: Pass, oldRSs: KObject[]): void {
    if (!hasRevisionHistoryLimit(p.d)) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = cleanable.length - (dSpec(p.d).revisionHistoryLimit ?? 0);
    if (diff <= 0) return;
    cleanable.sort(byRevision);
    for (const rs of cleanable.slice(0, diff)) {
      if ((rsStatus(rs).replicas ?? 0) !== 0 || rsReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (rsStatus(rs).observedGeneration ?? 0)) continue;
      this.request(p, { method: 'DELETE', path: rsPath(rs) }, { key: p.key, what: 'write' });
      p.wrote = true;
      this.note(p, `delete old replica set ${rs.metadata.name}`);
    }
  }

  // ---- status

  /** calculateStatus (sync.go). */
  private calculateStatus(p: Pass, allRSs: (KObject | null)[], newRS: KObject | null): DeploymentStatus {
    const d = p.d;
    const cur = dStatus(d);
    const available = availableReplicasSum(allRSs);
    const total = specReplicasSum(allRSs);
    const status: DeploymentStatus = {
      observedGeneration: d.metadata.generation ?? 0,
      replicas: actualReplicasSum(allRSs),
      updatedReplicas: actualReplicasSum([newRS]),
      readyReplicas: readyReplicasSum(allRSs),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, total - available),
      conditions: clone(cur.conditions ?? []),
    };
    if (cur.collisionCount !== undefined) status.collisionCount = cur.collisionCount;
    if (available >= dReplicas(d) - maxUnavailable(d)) setCondition(status, newCondition('Available', 'True', MINIMUM_REPLICAS_AVAILABLE, 'Deployment has minimum availability.', p.ctx.now));
    else setCondition(status, newCondition('Available', 'False', MINIMUM_REPLICAS_UNAVAILABLE, 'Deployment does not have minimum availability.', p.ctx.now));
    return status;
  }

  /** syncRolloutStatus (progress.go): Progressing by progress or deadline, ReplicaFailure from the RSs. */
  private syncRolloutStatus(p: Pass, allRSs: (KObject | null)[], newRS: KObject | null): SyncResult {
    const d = p.d;
    const now = p.ctx.now;
    const status = this.calculateStatus(p, allRSs, newRS);
    if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
    const curCond = getCondition(dStatus(d), 'Progressing');
    const complete = status.replicas === status.updatedReplicas && curCond?.reason === NEW_RS_AVAILABLE_REASON;
    if (hasProgressDeadline(d) && !complete) {
      const name = newRS?.metadata.name ?? '';
      if (deploymentComplete(d, status)) {
        setCondition(status, newCondition('Progressing', 'True', NEW_RS_AVAILABLE_REASON, `ReplicaSet "${name}" has successfully progressed.`, now));
      } else if (deploymentProgressing(d, status)) {
        const c = newCondition('Progressing', 'True', REPLICA_SET_UPDATED_REASON, `ReplicaSet "${name}" is progressing.`, now);
        if (curCond) {
          if (curCond.status === 'True') c.lastTransitionTime = curCond.lastTransitionTime;
          removeCondition(status, 'Progressing');
        }
        setCondition(status, c);
      } else if (deploymentTimedOut(d, status, now)) {
        setCondition(status, newCondition('Progressing', 'False', TIMED_OUT_REASON, `ReplicaSet "${name}" has timed out progressing.`, now));
      }
    }
    const failure = this.replicaFailure(allRSs, newRS);
    if (failure) setCondition(status, failure);
    else removeCondition(status, 'ReplicaFailure');
    const wroteStatus = this.writeStatus(p, status);
    const result = this.finish(p);
    if (wroteStatus || result.type !== 'done') return result;
    return this.requeueStuck(d, status, now);
  }

  /** getReplicaFailures: the new RS's ReplicaFailure condition, else an old one's. */
  private replicaFailure(allRSs: (KObject | null)[], newRS: KObject | null): ReturnType<typeof newCondition> | null {
    const pick = (rs: KObject | null) => (rsStatus(rs ?? ({} as KObject)).conditions ?? []).find((c) => c.type === 'ReplicaFailure');
    const list = [newRS, ...allRSs.filter((rs) => rs !== newRS)];
    for (const rs of list) {
      if (!rs) continue;
      const c = pick(rs);
      if (c) return { type: 'ReplicaFailure', status: c.status, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime, reason: c.reason, message: c.message };
    }
    return null;
  }

  /** requeueStuckDeployment: check the deadline again once it can have passed. */
  private requeueStuck(d: KObject, status: DeploymentStatus, now: number): SyncResult {
    const cur = getCondition(dStatus(d), 'Progressing');
    if (!hasProgressDeadline(d) || !cur) return { type: 'done' };
    if (deploymentComplete(d, status) || cur.reason === TIMED_OUT_REASON) return { type: 'done' };
    const from = timeOf(cur.lastUpdateTime);
    if (from === null) return { type: 'done' };
    const after = from + (dSpec(d).progressDeadlineSeconds ?? 0) * 1000 - now;
    if (after < 1000) return { type: 'error', message: 'progress deadline check' };
    return { type: 'after', delayMs: after + 1000 };
  }

  /** A status PUT when the status (or the revision annotation) changed; true when written. */
  private writeStatus(p: Pass, status: DeploymentStatus): boolean {
    const next = dropZero(status);
    if (deepEqual(p.orig.status ?? {}, next) && deepEqual(p.orig.metadata.annotations ?? {}, p.d.metadata.annotations ?? {})) return false;
    const body = clone(p.d);
    body.status = next;
    this.request(p, { method: 'PUT', path: `/apis/apps/v1/namespaces/${body.metadata.namespace}/deployments/${body.metadata.name}/status`, body }, { key: p.key, what: 'status' });
    return true;
  }

  private finish(_p: Pass): SyncResult {
    return { type: 'done' };
  }

  private write(p: Pass, call: ApiCall): void {
    this.request(p, call, { key: p.key, what: 'write' });
    p.wrote = true;
  }

  private request(p: Pass, call: ApiCall, tag: Tag): void {
    this.inflight.set(p.key, (this.inflight.get(p.key) ?? 0) + 1);
    p.ctx.request(call, tag);
  }

  onResponse(tagIn: unknown, status: number, body: string, ctx: ControllerContext): void {
    const tag = tagIn as Tag;
    const n = (this.inflight.get(tag.key) ?? 1) - 1;
    if (n > 0) this.inflight.set(tag.key, n);
    else this.inflight.delete(tag.key);
    const ok = status >= 200 && status < 300;
    if (ok && tag.what === 'createRS' && tag.name && !ctx.store('replicasets').has(tag.name)) this.createdUnseen.add(tag.name);
    if (ok && tag.event) ctx.event(tag.event);
    if (!ok && tag.failEvent) {
      const d = ctx.store('deployments').get(tag.key);
      if (d) ctx.event({ regarding: refObject(d), type: 'Warning', reason: tag.failEvent.reason, message: tag.failEvent.prefix + errorMessage(status, body) });
    }
    // A create that found its name taken is a collision the next sync resolves; other failures back off.
    if (ok || (tag.what === 'createRS' && status === 409)) this.queue.add(tag.key, ctx.now);
    else if (status !== 404) this.queue.addRateLimited(tag.key, ctx.now);
  }

  private note(p: Pass, what: string): void {
    this.recent.push({ t: p.ctx.now, key: p.key, what });
    if (this.recent.length > RECENT) this.recent.splice(0, this.recent.length - RECENT);
  }
}

const rsPath = (rs: KObject): string => `/apis/apps/v1/namespaces/${rs.metadata.namespace}/replicasets/${rs.metadata.name}`;

/** DeploymentStatus as Go marshals it: the counts are omitempty. */
function dropZero(s: DeploymentStatus): DeploymentStatus {
  const out: DeploymentStatus = {};
  for (const k of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'] as const) {
    const v = s[k];
    if (v) out[k] = v;
  }
  if (s.collisionCount !== undefined) out.collisionCount = s.collisionCount;
  if (s.conditions?.length) out.conditions = s.conditions;
  return out;
}

registerClass('DeploymentController', DeploymentController);
