// pods/eviction (pkg/registry/core/pod/storage/eviction.go, v1.32): a pod
// that is terminal, Pending or already being deleted goes at once; otherwise
// the one PodDisruptionBudget selecting it must allow a disruption, which the
// eviction takes (disruptionsAllowed − 1, the pod recorded in disruptedPods,
// written to the budget's status before the pod is touched). An unready pod
// may go without taking one when the budget is met (or its
// unhealthyPodEvictionPolicy is AlwaysAllow), as long as it is still the pod
// that was checked. The pod gets the DisruptionTarget condition, then is
// deleted as a DELETE would delete it.
import type { ActorContext } from '../../sim/kernel';
import type { KObject, Status } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import * as labels from '../../apimachinery/selectors/labels';
import { updateDisruptionAllowedCondition, type PdbStatus } from '../../apimachinery/podDisruptionBudget';
import type { RangeResponse, TxnResponse } from '../../etcd/api/rpc';
import { storageKey, resourceFor } from '../registry/resources';
import { jsonResponse } from '../http/messages';
import { rfc3339 } from '../http/time';
import { decodeObject } from '../storage/codec';
import type { ApiServer } from './apiserver';
import { statusResponse } from './apiserver';
import * as chain from './chain';
import { deleteTxn, updateTxn } from './storageOps';
import type { RestOp } from './rest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

/** MaxDisruptedPodSize: evictions the controller has not confirmed yet, per budget. */
export const MAX_DISRUPTED_POD_SIZE = 2000;
/** EvictionsRetry: conflicts retried (wait.Backoff Steps). */
const EVICTION_RETRIES = 20;

/** Where an eviction is (kept on the op, plain data). */
export interface EvictionState {
  /** The budget being decremented, as last read, and its mod revision. */
  pdb: KObject | null;
  pdbRev: number;
  pdbName: string;
  attempts: number;
  /** The pod must still be the one checked (delete preconditions set by the eviction). */
  enforceRv: boolean;
  /** A conflict on that pod answers 429 (the unready-pod path) instead of starting over. */
  tooManyOnConflict: boolean;
  step: 'pdbWrite' | 'condition' | 'delete';
}

const PODS = { group: '', resource: 'pods' };
const PDBS = { group: 'policy', resource: 'poddisruptionbudget' };
const isPodReady = (pod: Loose) => (pod.status?.conditions ?? []).some((c: Loose) => c.type === 'Ready' && c.status === 'True');

/** canIgnorePDB: the pod's disruption has happened already, or it never ran. */
function canIgnorePDB(pod: Loose): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

/** shouldEnforceResourceVersion: all but terminal pods and pods being deleted. */
function shouldEnforceResourceVersion(pod: Loose): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp);
}

/** createTooManyRequestsError: the budget's status is behind its spec, or the pod changed under us. */
function stillProcessing(name: string): Status {
  const st = status.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10);
  st.details!.causes = [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} is still being processed by the server.` }];
  return st;
}

function deleteOptionsOf(op: RestOp): Loose {
  const d = (op.body as Loose | null)?.deleteOptions;
  return d && typeof d === 'object' ? d : {};
}

function etcd(s: ApiServer, ctx: ActorContext, op: RestOp, txn: ReturnType<typeof updateTxn>): void {
  op.etcdStartedAt = ctx.now;
  s.etcdCall(ctx, op, 'TxnRequest', txn);
}

const fail = (s: ApiServer, ctx: ActorContext, op: RestOp, st: Status) => s.complete(ctx, op, statusResponse(st, st.code === 429 && st.details?.retryAfterSeconds ? { 'retry-after': String(st.details.retryAfterSeconds) } : {}));
const succeed = (s: ApiServer, ctx: ActorContext, op: RestOp) => s.complete(ctx, op, jsonResponse(201, { ...status.success(), code: 201 }));

/** The eviction, with the pod just read into op.current. */
export function computeEviction(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  if (!op.current) return fail(s, ctx, op, status.notFound(PODS, op.info.name));
  const pod = op.current as Loose;
  const opts = deleteOptionsOf(op);
  const userRv = opts.preconditions?.resourceVersion;
  const state: EvictionState = { pdb: null, pdbRev: 0, pdbName: '', attempts: op.eviction?.attempts ?? 0, enforceRv: false, tooManyOnConflict: false, step: 'condition' };
  op.eviction = state;
  if (canIgnorePDB(pod)) {
    state.enforceRv = shouldEnforceResourceVersion(pod) && !userRv;
    return addConditionAndDelete(s, ctx, op);
  }
  const pdbs = podDisruptionBudgetsForEviction(pod, s.cluster.list('policy', 'poddisruptionbudgets', pod.metadata.namespace));
  if (pdbs.length > 1) return s.complete(ctx, op, statusResponse(status.storage('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.')));
  if (pdbs.length === 0) return addConditionAndDelete(s, ctx, op);
  const pdb = pdbs[0]! as Loose;
  state.pdbName = pdb.metadata.name;
  if (!isPodReady(pod)) {
    const st: PdbStatus = pdb.status ?? {};
    // An unhealthy pod counts for neither currentHealthy nor desiredHealthy: no disruption is taken.
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || (st.currentHealthy >= st.desiredHealthy && st.desiredHealthy > 0)) {
      state.enforceRv = true;
      state.tooManyOnConflict = !userRv;
      return addConditionAndDelete(s, ctx, op);
    }
  }
  state.pdb = pdb;
  state.pdbRev = Number(pdb.metadata.resourceVersion);
  checkAndDecrement(s, ctx, op);
}

/** The eviction's variant of the lister: an empty selector matches nothing here. */
function podDisruptionBudgetsForEviction(pod: Loose, pdbs: readonly KObject[]): KObject[] {
  return pdbs
    .filter((pdb) => {
      const sel = labels.labelSelectorAsSelector((pdb.spec as Loose | undefined)?.selector ?? null);
      return sel.ok && !labels.isEmpty(sel.selector) && labels.matches(sel.selector, pod.metadata.labels ?? {});
    })
    .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

/** checkAndDecrement: the budget allows one more disruption, taken in its status. */
function checkAndDecrement(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const state = op.eviction!;
  const pdb = state.pdb as Loose;
  const st: PdbStatus = pdb.status ?? {};
  if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) return fail(s, ctx, op, stillProcessing(pdb.metadata.name));
  if (st.disruptionsAllowed < 0) return fail(s, ctx, op, status.forbidden(PDBS, pdb.metadata.name, 'pdb disruptions allowed is negative'));
  if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) return fail(s, ctx, op, status.forbidden(PDBS, pdb.metadata.name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller'));
  if ((st.disruptionsAllowed ?? 0) === 0) {
    const out = status.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0);
    delete out.details!.retryAfterSeconds;
    out.details!.causes = [{ reason: 'DisruptionBudget', message: `The disruption budget ${pdb.metadata.name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently` }];
    return fail(s, ctx, op, out);
  }
  const next: PdbStatus = structuredClone(st);
  next.disruptionsAllowed--;
  if (next.disruptionsAllowed === 0) updateDisruptionAllowedCondition(next, rfc3339(ctx.now));
  if (op.dryRun) return addConditionAndDelete(s, ctx, op);
  // Tell the disruption controller the pod is going, so it does not count it as healthy meanwhile.
  next.disruptedPods = { ...(next.disruptedPods ?? {}), [op.info.name]: rfc3339(ctx.now) };
  const updated = { ...pdb, status: next };
  state.step = 'pdbWrite';
  etcd(s, ctx, op, updateTxn(pdbKey(pdb), updated as KObject, state.pdbRev));
}

const pdbKey = (pdb: Loose) => storageKey(resourceFor('policy', 'poddisruptionbudgets')!, pdb.metadata.namespace, pdb.metadata.name);

/** addConditionAndDeletePod: DisruptionTarget on the pod's status (unless dry-run), then the delete. */
function addConditionAndDelete(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const state = op.eviction!;
  const pod = op.current as Loose;
  const opts = deleteOptionsOf(op);
  const pre = opts.preconditions ?? {};
  if (pre.uid && pre.uid !== pod.metadata.uid) return fail(s, ctx, op, status.conflict(PODS, op.info.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${pod.metadata.uid ?? ''}`));
  if (pre.resourceVersion && pre.resourceVersion !== String(op.currentRev)) return fail(s, ctx, op, status.conflict(PODS, op.info.name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${op.currentRev}`));
  if (op.dryRun) return succeed(s, ctx, op);
  const next = structuredClone(pod);
  const conds: Loose[] = ((next.status ??= {}).conditions ??= []);
  const cond = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(ctx.now), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
  const i = conds.findIndex((c) => c.type === 'DisruptionTarget');
  if (i < 0) conds.push(cond);
  else conds[i] = { ...cond, lastTransitionTime: conds[i].status === 'True' ? conds[i].lastTransitionTime : cond.lastTransitionTime };
  op.next = next;
  state.step = 'condition';
  etcd(s, ctx, op, updateTxn(op.key, next, op.currentRev));
}

function deletePod(s: ApiServer, ctx: ActorContext, op: RestOp): void {
  const state = op.eviction!;
  const pod = op.next!;
  const plan = chain.planDelete(op.r, pod, deleteOptionsOf(op), ctx.now);
  state.step = 'delete';
  if (plan.type === 'immediate') {
    op.writeKind = 'delete';
    return etcd(s, ctx, op, deleteTxn(op.key, op.currentRev));
  }
  op.next = plan.obj;
  op.writeKind = 'put';
  etcd(s, ctx, op, updateTxn(op.key, plan.obj, op.currentRev));
}

/** The eviction's etcd answers, by step. */
export function onEvictionEtcd(s: ApiServer, ctx: ActorContext, op: RestOp, body: TxnResponse | RangeResponse): void {
  const state = op.eviction!;
  switch (state.step) {
    case 'pdbWrite': {
      const res = body as TxnResponse;
      if (res.succeeded) return addConditionAndDelete(s, ctx, op);
      // Someone else wrote the budget: read it again and check again.
      if (++state.attempts > EVICTION_RETRIES) return fail(s, ctx, op, status.timeout(`Timeout: couldn't update PodDisruptionBudget ${JSON.stringify(state.pdbName)} due to conflicts`, 10));
      const kv = res.responses[0]?.responseRange?.kvs[0];
      if (!kv) return fail(s, ctx, op, status.notFound(PDBS, state.pdbName));
      state.pdb = decodeObject(kv);
      state.pdbRev = kv.modRevision;
      return checkAndDecrement(s, ctx, op);
    }
    case 'condition': {
      const res = body as TxnResponse;
      if (res.succeeded) {
        op.currentRev = res.header.revision;
        return deletePod(s, ctx, op);
      }
      return podChanged(s, ctx, op, res);
    }
    case 'delete': {
      const res = body as TxnResponse;
      if (res.succeeded) return succeed(s, ctx, op);
      return podChanged(s, ctx, op, res);
    }
  }
}

/** The pod was written between our read and our write. */
function podChanged(s: ApiServer, ctx: ActorContext, op: RestOp, res: TxnResponse): void {
  const state = op.eviction!;
  const kv = res.responses[0]?.responseRange?.kvs[0];
  if (!kv) return fail(s, ctx, op, status.notFound(PODS, op.info.name));
  if (state.tooManyOnConflict) return fail(s, ctx, op, stillProcessing(state.pdbName));
  if (state.enforceRv || deleteOptionsOf(op).preconditions?.resourceVersion) {
    // The pod is not the one that was checked: start over from it (retry.OnError on conflicts).
    if (++state.attempts > EVICTION_RETRIES || deleteOptionsOf(op).preconditions?.resourceVersion) return fail(s, ctx, op, status.optimisticLock(PODS, op.info.name));
    op.current = decodeObject(kv);
    op.currentRev = kv.modRevision;
    return computeEviction(s, ctx, op);
  }
  // No precondition: the update and delete retry on the latest pod.
  if (++state.attempts > EVICTION_RETRIES) return fail(s, ctx, op, status.optimisticLock(PODS, op.info.name));
  op.current = decodeObject(kv);
  op.currentRev = kv.modRevision;
  addConditionAndDelete(s, ctx, op);
}
