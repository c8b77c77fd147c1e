// The StatefulSet control loop, as upstream v1.32's
// pkg/controller/statefulset/stateful_set_control.go (UpdateStatefulSet,
// performUpdate, getStatefulSetRevisions, updateStatefulSet, truncateHistory)
// and stateful_pod_control.go: given the set, its pods, revisions and claims,
// it plans the writes upstream would make in this pass, in upstream's order.
// OrderedReady ("monotonic") stops at the first pod it creates, deletes or must
// wait for; Parallel works on every ordinal in slow-start batches. A pod's
// ordinal is never recreated until the old pod is gone from the API.
import type { KObject } from '../../apimachinery/types';
import type { EventSpec } from '../framework/types';
import type { PlannedStep, PlannedWrite } from '../framework/writes';
import { adoptRevisionPatch, equalRevision, findEqualRevisions, hashControllerRevision, controllerRevisionName, newControllerRevision, rawData, revisionNumber, sortControllerRevisions, templatePatch } from '../history/history';
import { controllerOf, KIND, refObject } from '../replicaset/podUtil';
import {
  allowsBurst, applyRevision, claimOwnerMatchesSetAndPod, completeRollingUpdate, getOrdinal, getPodRevision, getStartOrdinal, hasUnexpectedController, identityMatches, inconsistentStatus, isCreated,
  isFailed, isPending, isRunningAndAvailable, isRunningAndReady, isSucceeded, isTerminating, isUnavailable, newVersionedPod, podClaimIsStale, podClaims, podInOrdinalRange,
  setReplicas, setSpec, setStatus, statusJson, storageMatches, updateClaimOwnerRefs, updateIdentity, updateStorage, type Loose, type StatefulSetStatus,
} from './utils';

/** MaxBatchSize of slowStartBatch. */
const MAX_BATCH_SIZE = 500;

export interface ControlInput {
  set: KObject;
  /** The pods the set owns (claimed), any order. */
  pods: KObject[];
  /** Revisions the set owns or nobody does (ListRevisions). */
  revisions: KObject[];
  /** The claims informer's store ("ns/name"). */
  claims: ReadonlyMap<string, KObject>;
  /** ControllerRevisions by "ns/name", for name collisions with revisions of others. */
  allRevisions: ReadonlyMap<string, KObject>;
  now: number;
}

export interface ControlPlan {
  steps: PlannedStep[];
  status: StatefulSetStatus;
  /** What the pass did, for the controllers panel. */
  notes: string[];
  /** Events for failures found while planning (no write to fail). */
  events: EventSpec[];
  /** The pass ended in an error without a failed write: upstream's sync returns it (a rate-limited requeue). */
  failed: boolean;
}

type Outcome = { exit: boolean; steps: PlannedStep[]; error?: boolean };

/** A claim write of CreateStatefulPod: its failure is also the pod's ("failed to create PVC <claim>: <err>"). */
export interface ClaimFailureMeta {
  podCreate: { regarding: KObject; pod: string; set: string; claim: string };
}

const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
const claimsPath = (ns: string) => `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
const revisionsPath = (ns: string) => `/apis/apps/v1/namespaces/${ns}/controllerrevisions`;
const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;

/** One pass of UpdateStatefulSet for one set. */
export function planStatefulSet(input: ControlInput): ControlPlan {
  return new Pass(input).run();
}

class Pass {
  readonly steps: PlannedStep[] = [];
  readonly notes: string[] = [];
  readonly events: EventSpec[] = [];
  private failed = false;
  readonly set: KObject;
  readonly ref: KObject;
  /** A revision is written first: when that fails upstream returns before any status update. */
  private revisionWrite = false;

  constructor(readonly input: ControlInput) {
    this.set = input.set;
    this.ref = refObject(input.set);
  }

  run(): ControlPlan {
    const { set } = this;
    const revisions = sortControllerRevisions(this.input.revisions);
    const { current, update, collisionCount } = this.revisions(revisions);
    const status = this.updateStatefulSet(current, update, collisionCount);
    // updateStatefulSetStatus: written even when a pod write failed.
    completeRollingUpdate(set, status);
    if (inconsistentStatus(set, status)) {
      const body = { ...clone(set), status: statusJson(status) };
      this.push([{ call: { method: 'PUT', path: `/apis/apps/v1/namespaces/${set.metadata.namespace}/statefulsets/${set.metadata.name}/status`, body }, observe: 'statefulsets' }], !this.revisionWrite);
    }
    this.truncateHistory(revisions, current, update);
    return { steps: this.steps, status, notes: this.notes, events: this.events, failed: this.failed };
  }

  private push(writes: PlannedWrite[], always = false): void {
    if (writes.length) this.steps.push({ writes, ...(always ? { always } : {}) });
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string): EventSpec {
    return { regarding: this.ref, type, reason, message };
  }

  // ---- revisions

  /** getStatefulSetRevisions: the update revision (created, or an equal one reused with a new number) and the current one. */
  private revisions(revisions: KObject[]): { current: KObject; update: KObject; collisionCount: number } {
    const set = this.set;
    let collisionCount = setStatus(set).collisionCount ?? 0;
    const next = revisions.length ? revisionNumber(revisions[revisions.length - 1]!) + 1 : 1;
    const raw = templatePatch(set);
    let update: KObject = this.newRevision(raw, next, collisionCount);
    const equal = findEqualRevisions(revisions, update);
    const ns = set.metadata.namespace!;
    if (equal.length && equalRevision(revisions[revisions.length - 1]!, equal[equal.length - 1]!)) {
      update = revisions[revisions.length - 1]!;
    } else if (equal.length) {
      // A rollback to an earlier template: that revision gets the next number.
      const body = { ...clone(equal[equal.length - 1]!), revision: next };
      this.push([{ call: { method: 'PUT', path: `${revisionsPath(ns)}/${body.metadata.name}`, body }, observe: 'controllerrevisions' }]);
      this.revisionWrite = true;
      update = body;
    } else {
      // CreateControllerRevision: a name taken by different data bumps the collision count.
      for (;;) {
        const name = controllerRevisionName(set.metadata.name!, hashControllerRevision(raw, collisionCount));
        const taken = this.input.allRevisions.get(`${ns}/${name}`);
        if (taken && rawData(taken) === raw) {
          update = taken;
          break;
        }
        if (taken) {
          collisionCount++;
          continue;
        }
        // Only the name follows the bumped count: the hash label stays the one newRevision computed.
        update = { ...update, metadata: { ...update.metadata, name } };
        this.revisionWrite = true;
        this.push([{ call: { method: 'POST', path: revisionsPath(ns), body: update }, observe: 'controllerrevisions' }]);
        this.notes.push(`revision ${name} (${next})`);
        break;
      }
    }
    const current = revisions.find((r) => r.metadata.name === setStatus(set).currentRevision) ?? update;
    return { current, update, collisionCount };
  }

  private newRevision(raw: string, revision: number, collisionCount: number): KObject {
    const cr = newControllerRevision(this.set, KIND.StatefulSet, setSpec(this.set).template?.metadata?.labels, raw, revision, collisionCount);
    // newRevision copies the set's annotations onto the revision.
    if (this.set.metadata.annotations) cr.metadata.annotations = { ...this.set.metadata.annotations };
    return cr;
  }

  /** truncateHistory: drop the oldest revisions no pod, current or update revision uses, beyond revisionHistoryLimit. */
  private truncateHistory(revisions: KObject[], current: KObject, update: KObject): void {
    const live = new Set([current.metadata.name, update.metadata.name, ...this.input.pods.map(getPodRevision)]);
    const history = revisions.filter((r) => !live.has(r.metadata.name));
    const limit = setSpec(this.set).revisionHistoryLimit ?? 10;
    if (limit < 0 || history.length <= limit) return;
    const ns = this.set.metadata.namespace!;
    this.push(history.slice(0, history.length - limit).map((r) => ({ call: { method: 'DELETE', path: `${revisionsPath(ns)}/${r.metadata.name}` }, observe: 'controllerrevisions', tolerate: [404] })), true);
  }

  // ---- updateStatefulSet

  private updateStatefulSet(currentRevision: KObject, updateRevision: KObject, collisionCount: number): StatefulSetStatus {
    const { set } = this;
    const now = this.input.now;
    const minReady = setSpec(set).minReadySeconds ?? 0;
    const currentSet = applyRevision(set, currentRevision);
    const updateSet = applyRevision(set, updateRevision);
    const status: StatefulSetStatus = { observedGeneration: set.metadata.generation ?? 0, currentRevision: currentRevision.metadata.name, updateRevision: updateRevision.metadata.name, collisionCount, replicas: 0, availableReplicas: 0 };
    const count = (lists: KObject[][]) => computeStatus(status, lists, minReady, currentRevision.metadata.name!, updateRevision.metadata.name!, now);
    count([this.input.pods]);

    const start = getStartOrdinal(set);
    const replicaCount = setReplicas(set);
    const replicas: (KObject | undefined)[] = new Array(replicaCount);
    const condemned: KObject[] = [];
    for (const pod of this.input.pods) {
      if (podInOrdinalRange(pod, set)) replicas[getOrdinal(pod) - start] = pod;
      else if (getOrdinal(pod) >= 0) condemned.push(pod);
    }
    for (let i = 0; i < replicaCount; i++) {
      if (!replicas[i]) replicas[i] = newVersionedPod(currentSet, updateSet, currentRevision.metadata.name!, updateRevision.metadata.name!, start + i);
    }
    const live = replicas as KObject[];
    condemned.sort((a, b) => getOrdinal(b) - getOrdinal(a));
    let firstUnavailable: KObject | null = live.find((p) => isUnavailable(p, minReady, now)) ?? null;
    if (!firstUnavailable) for (let i = condemned.length - 1; i >= 0; i--) if (isUnavailable(condemned[i]!, minReady, now)) { firstUnavailable = condemned[i]!; break; }
    const finish = () => {
      count([live, condemned]);
      return status;
    };
    if (set.metadata.deletionTimestamp) return status;

    const monotonic = !allowsBurst(set);
    if (this.runForAll(live.length, (i) => this.processReplica(updateSet, monotonic, live, i), monotonic)) return finish();
    if (this.runForAll(condemned.length, (i) => ({ exit: false, steps: this.fixClaims(updateSet, condemned[i]!) }), monotonic)) return finish();
    if (this.runForAll(condemned.length, (i) => this.processCondemned(firstUnavailable, monotonic, condemned, i), monotonic)) return finish();
    count([live, condemned]);
    if (setSpec(set).updateStrategy?.type === 'OnDelete') return status;

    // The rolling update: the highest ordinal not at the update revision goes first, one at a time.
    const updateMin = setSpec(set).updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let target = live.length - 1; target >= updateMin; target--) {
      const pod = live[target]!;
      if (getPodRevision(pod) !== updateRevision.metadata.name && !isTerminating(pod)) {
        this.steps.push({ writes: [this.deletePod(pod)] });
        this.notes.push(`delete ${pod.metadata.name} for update`);
        status.currentReplicas = (status.currentReplicas ?? 0) - 1;
        return status;
      }
      if (isUnavailable(pod, minReady, now)) return status;
    }
    return status;
  }

  /**
   * runForAll: in order, stopping where fn says so (monotonic), or every item
   * in slow-start batches (1, 2, 4… up to 500) whose writes run at once.
   * Returns whether the caller must stop here.
   */
  private runForAll(n: number, fn: (i: number) => Outcome, monotonic: boolean): boolean {
    if (monotonic) {
      for (let i = 0; i < n; i++) {
        const r = fn(i);
        this.steps.push(...r.steps);
        if (r.error) this.failed = true;
        if (r.exit || r.error) return true;
      }
      return false;
    }
    for (let j = 0, size = Math.min(1, n); size > 0; ) {
      const results = Array.from({ length: size }, (_, k) => fn(j + k));
      // The batch's writes by depth: first writes of every item together, then the second ones...
      const depth = Math.max(0, ...results.map((r) => r.steps.length));
      for (let d = 0; d < depth; d++) this.push(results.flatMap((r) => r.steps[d]?.writes ?? []));
      // slowStartBatch stops after a batch with an error.
      if (results.some((r) => r.error)) {
        this.failed = true;
        return true;
      }
      j += size;
      size = Math.min(2 * size, n - j, MAX_BATCH_SIZE);
    }
    return false;
  }

  /** processReplica: recreate terminal pods, create missing ones, wait for readiness, enforce identity and storage. */
  private processReplica(updateSet: KObject, monotonic: boolean, replicas: KObject[], i: number): Outcome {
    const pod = replicas[i]!;
    const now = this.input.now;
    const minReady = setSpec(this.set).minReadySeconds ?? 0;
    if (isFailed(pod) || isSucceeded(pod)) {
      // The ordinal is recreated once this pod is gone from the API.
      const steps = pod.metadata.deletionTimestamp ? [] : [{ writes: [this.deletePod(pod)] }];
      if (steps.length) this.notes.push(`delete ${isFailed(pod) ? 'failed' : 'succeeded'} ${pod.metadata.name}`);
      return { exit: true, steps };
    }
    const steps: PlannedStep[] = [];
    if (!isCreated(pod)) {
      if (podClaimIsStale(this.set, pod, this.input.claims)) return { exit: true, steps };
      // createPersistentVolumeClaims: a claim being deleted fails the pod's creation (the missing ones are still created).
      const deleting = this.claimsBeingDeleted(pod);
      if (deleting) {
        steps.push(...this.createMissingClaims(pod, true));
        this.events.push(this.event('Warning', 'FailedCreate', `create Pod ${pod.metadata.name} in StatefulSet ${this.set.metadata.name} failed error: ${deleting}`));
        return { exit: true, steps, error: true };
      }
      steps.push(...this.createPod(pod));
      if (monotonic) return { exit: true, steps };
      return { exit: false, steps };
    }
    if (isPending(pod)) {
      steps.push(...this.createMissingClaims(pod));
      // createMissingPersistentVolumeClaims returns the error without an event.
      if (this.claimsBeingDeleted(pod)) return { exit: true, steps, error: true };
    }
    if (isTerminating(pod) && monotonic) return { exit: true, steps };
    if (!isRunningAndReady(pod) && monotonic) return { exit: true, steps };
    if (!isRunningAndAvailable(pod, minReady, now) && monotonic) return { exit: true, steps };
    const retentionMatch = this.claimsMatchRetention(updateSet, pod);
    if (identityMatches(this.set, pod) && storageMatches(this.set, pod) && retentionMatch) return { exit: false, steps };
    steps.push(...this.updatePod(updateSet, pod));
    return { exit: false, steps };
  }

  /** processCondemned: pods beyond the replicas go, highest ordinal first, once their predecessors are healthy. */
  private processCondemned(firstUnavailable: KObject | null, monotonic: boolean, condemned: KObject[], i: number): Outcome {
    const pod = condemned[i]!;
    const minReady = setSpec(this.set).minReadySeconds ?? 0;
    if (isTerminating(pod)) return { exit: monotonic, steps: [] };
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnavailable) return { exit: true, steps: [] };
    if (!isRunningAndAvailable(pod, minReady, this.input.now) && monotonic && pod !== firstUnavailable) return { exit: true, steps: [] };
    this.notes.push(`delete ${pod.metadata.name} (scale down)`);
    return { exit: true, steps: [{ writes: [this.deletePod(pod)] }] };
  }

  // ---- StatefulPodControl

  private podEvent(verb: 'create' | 'update' | 'delete', pod: KObject): Pick<PlannedWrite, 'ok' | 'fail'> {
    const title = verb[0]!.toUpperCase() + verb.slice(1);
    return {
      ok: this.event('Normal', `Successful${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${this.set.metadata.name} successful`),
      fail: { regarding: this.ref, type: 'Warning', reason: `Failed${title}`, prefix: `${verb} Pod ${pod.metadata.name} in StatefulSet ${this.set.metadata.name} failed error: ` },
    };
  }

  private deletePod(pod: KObject): PlannedWrite {
    return { call: { method: 'DELETE', path: `${podsPath(pod.metadata.namespace!)}/${pod.metadata.name}` }, observe: 'pods', ...this.podEvent('delete', pod) };
  }

  /** CreateStatefulPod: the pod's missing claims first, then the pod (an existing name is sunk without an event). */
  private createPod(pod: KObject): PlannedStep[] {
    this.notes.push(`create ${pod.metadata.name}`);
    const claims = this.claimCreates(pod, true);
    const create: PlannedWrite = { call: { method: 'POST', path: podsPath(pod.metadata.namespace!), body: pod }, observe: 'pods', ...this.podEvent('create', pod), quiet: [409] };
    // Then the existing claims' owner references, "as much as is possible at this point".
    const retention = this.claimRetentionUpdates(this.set, pod, true);
    return [...(claims.length ? [{ writes: claims }] : []), { writes: [create] }, ...(retention.length ? [{ writes: retention }] : [])];
  }

  /** createMissingPersistentVolumeClaims (a pending pod): the missing claims, then the claims' owner references. */
  private createMissingClaims(pod: KObject, forCreate = false): PlannedStep[] {
    const claims = this.claimCreates(pod, forCreate);
    const steps: PlannedStep[] = claims.length ? [{ writes: claims }] : [];
    if (forCreate) return steps;
    const retention = this.claimRetentionUpdates(this.set, pod, true);
    if (retention.length) steps.push({ writes: retention });
    return steps;
  }

  /** The "pvc <name> is being deleted" error of createPersistentVolumeClaims (aggregated as Go does), or null. */
  private claimsBeingDeleted(pod: KObject): string | null {
    const errs: string[] = [];
    for (const claim of podClaims(this.set, pod).values()) {
      const existing = this.input.claims.get(`${claim.metadata.namespace}/${claim.metadata.name}`);
      if (existing?.metadata.deletionTimestamp) errs.push(`pvc ${claim.metadata.name} is being deleted`);
    }
    if (!errs.length) return null;
    return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
  }

  /** createPersistentVolumeClaims: each claim the informer does not hold; events name the claim and the pod. */
  private claimCreates(pod: KObject, forCreate: boolean): PlannedWrite[] {
    const out: PlannedWrite[] = [];
    for (const claim of podClaims(this.set, pod).values()) {
      const existing = this.input.claims.get(`${claim.metadata.namespace}/${claim.metadata.name}`);
      if (existing) continue;
      const msg = `create Claim ${claim.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${this.set.metadata.name}`;
      // recordClaimEvent (none for AlreadyExists); for CreateStatefulPod the controller adds the pod's FailedCreate (ClaimFailureMeta).
      out.push({
        call: { method: 'POST', path: claimsPath(claim.metadata.namespace!), body: claim },
        observe: 'persistentvolumeclaims',
        ok: this.event('Normal', 'SuccessfulCreate', `${msg} success`),
        fail: { regarding: this.ref, type: 'Warning', reason: 'FailedCreate', prefix: `create Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${this.set.metadata.name} failed error: ` },
        quiet: [409],
        ...(forCreate ? { meta: { podCreate: { regarding: this.ref, pod: pod.metadata.name!, set: this.set.metadata.name!, claim: claim.metadata.name! } } satisfies ClaimFailureMeta } : {}),
      });
    }
    return out;
  }

  /** ClaimsMatchRetentionPolicy: every existing claim's owner references follow the policy. */
  private claimsMatchRetention(set: KObject, pod: KObject): boolean {
    for (const claim of podClaims(set, pod).values()) {
      const c = this.input.claims.get(`${claim.metadata.namespace}/${claim.metadata.name}`);
      if (c && !claimOwnerMatchesSetAndPod(c, set, pod)) return false;
    }
    return true;
  }

  /**
   * UpdatePodClaimForRetentionPolicy: claim updates that set the policy's
   * owner references; a claim another controller manages gets a
   * ConflictingController warning. A failed update is the pod's FailedUpdate
   * when the caller records it (podEvent).
   */
  private claimRetentionUpdates(set: KObject, pod: KObject, podEvent = false): PlannedWrite[] {
    const out: PlannedWrite[] = [];
    for (const claim of podClaims(set, pod).values()) {
      const c = this.input.claims.get(`${claim.metadata.namespace}/${claim.metadata.name}`);
      if (!c) continue;
      if (hasUnexpectedController(c, set, pod)) {
        this.events.push(this.event('Warning', 'ConflictingController', `PersistentVolumeClaim ${c.metadata.name} has a conflicting OwnerReference that acts as a managing controller, the retention policy is ignored for this claim`));
      }
      if (claimOwnerMatchesSetAndPod(c, set, pod)) continue;
      const body = clone(c);
      if (!updateClaimOwnerRefs(body, set, pod)) continue;
      out.push({
        call: { method: 'PUT', path: `${claimsPath(c.metadata.namespace!)}/${c.metadata.name}`, body },
        observe: 'persistentvolumeclaims',
        ...(podEvent ? { fail: { regarding: this.ref, type: 'Warning' as const, reason: 'FailedUpdate', prefix: `update Pod ${pod.metadata.name} in StatefulSet ${this.set.metadata.name} failed error: could not update claim ${c.metadata.name} for delete policy ownerRefs: ` } } : {}),
      });
    }
    return out;
  }

  /** UpdateStatefulPod: identity, storage (and its claims), retention owner references; then the pod update. */
  private updatePod(set: KObject, live: KObject): PlannedStep[] {
    const pod = clone(live);
    const steps: PlannedStep[] = [];
    if (!identityMatches(set, pod)) updateIdentity(set, pod);
    if (!storageMatches(set, pod)) {
      updateStorage(set, pod);
      const creates = this.claimCreates(pod, false);
      if (creates.length) steps.push({ writes: creates });
    }
    // UpdatePodClaimForRetentionPolicy only when ClaimsMatchRetentionPolicy says no.
    const retention = this.claimsMatchRetention(set, pod) ? [] : this.claimRetentionUpdates(set, pod, true);
    if (retention.length) steps.push({ writes: retention });
    this.notes.push(`update ${pod.metadata.name}`);
    steps.push({ writes: [{ call: { method: 'PUT', path: `${podsPath(pod.metadata.namespace!)}/${pod.metadata.name}`, body: pod }, observe: 'pods', ...this.podEvent('update', pod) }] });
    return steps;
  }

  /** fixPodClaim for a condemned pod: its claims' owner references after scale-down (whenScaled=Delete). */
  private fixClaims(set: KObject, pod: KObject): PlannedStep[] {
    const updates = this.claimsMatchRetention(set, pod) ? [] : this.claimRetentionUpdates(set, pod);
    return updates.length ? [{ writes: updates }] : [];
  }
}

/** updateStatus / computeReplicaStatus over pod lists (pods not created yet count nowhere). */
function computeStatus(status: StatefulSetStatus, lists: KObject[][], minReady: number, current: string, update: string, now: number): void {
  status.replicas = 0;
  status.readyReplicas = 0;
  status.availableReplicas = 0;
  status.currentReplicas = 0;
  status.updatedReplicas = 0;
  for (const list of lists) {
    for (const pod of list) {
      if (isCreated(pod)) status.replicas++;
      if (isRunningAndReady(pod)) {
        status.readyReplicas++;
        if (isRunningAndAvailable(pod, minReady, now)) status.availableReplicas++;
      }
      if (isCreated(pod) && !isTerminating(pod)) {
        const rev = getPodRevision(pod);
        if (rev === current) status.currentReplicas++;
        if (rev === update) status.updatedReplicas++;
      }
    }
  }
}

/** Orphan revisions the set's selector matches: AdoptControllerRevision patches. */
export function adoptOrphanRevisions(set: KObject, revisions: KObject[]): PlannedWrite[] {
  return revisions
    .filter((r) => !controllerOf(r))
    .map((r) => ({ call: { method: 'PATCH', path: `${revisionsPath(set.metadata.namespace!)}/${r.metadata.name}`, contentType: 'application/strategic-merge-patch+json', body: adoptRevisionPatch(set, KIND.StatefulSet, r) }, observe: 'controllerrevisions' }));
}

export type { Loose };
