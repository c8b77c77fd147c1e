// The disruption controller, "disruption-controller"
// (pkg/controller/disruption/disruption.go, v1.32): each PodDisruptionBudget's
// status from the pods its selector picks — expectedPods (the pods, or for a
// percentage or maxUnavailable the scale of their controllers), desiredHealthy,
// currentHealthy (ready, not being deleted, not just evicted), disruptionsAllowed,
// the evictions not yet seen through (disruptedPods, forgotten after two
// minutes), observedGeneration and the DisruptionAllowed condition; when the
// status cannot be computed, a fail-safe status that allows no disruption. It
// also resets a DisruptionTarget condition the eviction API left on a pod that
// was not deleted after all. Its recorder reports as "controllermanager".
import type { KObject } from '../../apimachinery/types';
import { parseApiVersion } from '../../apimachinery/types';
import * as labels from '../../apimachinery/selectors/labels';
import { setStatusCondition, type Condition } from '../../apimachinery/conditions';
import { DISRUPTION_ALLOWED, SYNC_FAILED, conditionsAreUpToDate, updateDisruptionAllowedCondition, type PdbStatus } from '../../apimachinery/podDisruptionBudget';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { resourceForKind } from '../../apiserver/registry/resources';
import { parseRfc3339, rfc3339 } from '../../apiserver/http/time';
import { jsonRoundTrip } from '../../sim/jsonClone';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { isPodReady, keyOfObject, pushRecent, type Loose } from '../endpoint/podutil';
import { scaledValue } from '../deployment/util';

/** DeletionTimeout: how long an eviction's pod may take to be deleted before the PDB counts it again. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;
/** stalePodDisruptionTimeout. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;
const COMPONENT = 'controllermanager';
const STALE = 'stale:';

type Tag = { type: 'status'; key: string } | { type: 'stale'; key: string };

/** metav1.GetControllerOf. */
function controllerOf(o: Loose): Loose | undefined {
  return (o?.metadata?.ownerReferences ?? []).find((r: Loose) => r.controller === true);
}

const groupOf = (ref: Loose) => parseApiVersion(String(ref.apiVersion ?? '')).group;
const isTerminal = (pod: Loose) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

export class DisruptionController implements Controller {
  readonly name = 'disruption-controller';
  readonly informers = ['poddisruptionbudgets', 'pods', 'replicationcontrollers', 'replicasets', 'deployments', 'statefulsets'] as const;
  readonly queue = new RateLimitingQueue<string>('disruption');
  readonly recent: { t: number; key: string; what: string }[] = [];
  readonly inFlight = new Set<string>();
  /** Keys whose sync came while their write was in flight: synced again after it. */
  readonly dirty = new Set<string>();
  readonly conflicts = new Set<string>();

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource === 'poddisruptionbudgets') return this.queue.add(keyOfObject(ev.object), ctx.now);
    if (resource !== 'pods') return;
    const pod = ev.object as Loose;
    const pdb = this.pdbForPod(pod, ctx);
    if (pdb) this.queue.add(keyOfObject(pdb), ctx.now);
    if (ev.type !== 'DELETED') {
      const stale = this.staleDisruption(pod, ctx.now);
      if (stale) this.queue.addAfter(STALE + keyOfObject(pod), stale.cleanupInMs, ctx.now);
    }
  }

  /** getPdbForPod: the first PDB selecting the pod, with a warning when there are several. */
  private pdbForPod(pod: Loose, ctx: ControllerContext): KObject | null {
    const pdbs = podDisruptionBudgetsFor(pod, ctx.store('poddisruptionbudgets').values());
    if (pdbs.length === 0) return null;
    if (pdbs.length > 1) {
      const msg = `Pod ${JSON.stringify(pod.metadata.namespace)}/${JSON.stringify(pod.metadata.name)} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(pdbs[0]!.metadata.name)} arbitrarily.`;
      ctx.event({ regarding: pod, type: 'Warning', reason: 'MultiplePodDisruptionBudgets', message: msg, component: COMPONENT });
    }
    return pdbs[0]!;
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (key.startsWith(STALE)) return this.syncStalePodDisruption(key.slice(STALE.length), ctx);
    if (this.inFlight.has(key)) {
      this.dirty.add(key);
      return { type: 'done' };
    }
    if (this.conflicts.delete(key)) return { type: 'error', message: `Operation cannot be fulfilled on poddisruptionbudgets.policy ${JSON.stringify(key.split('/')[1])}: the object has been modified` };
    const pdb = ctx.store('poddisruptionbudgets').get(key) as Loose | undefined;
    if (!pdb) return { type: 'done' };
    const r = this.trySync(pdb, ctx);
    if (!r.ok) this.failSafe(pdb, r.error, ctx);
    return { type: 'done' };
  }

  private trySync(pdb: Loose, ctx: ControllerContext): { ok: true } | { ok: false; error: string } {
    const key = keyOfObject(pdb);
    const sel = labels.labelSelectorAsSelector(pdb.spec?.selector ?? null);
    if (!sel.ok) {
      ctx.event({ regarding: pdb, type: 'Warning', reason: 'NoPods', message: `Failed to get pods: ${sel.error}`, component: COMPONENT });
      return { ok: false, error: sel.error };
    }
    const pods = [...ctx.store('pods').values()].filter((p) => p.metadata.namespace === pdb.metadata.namespace && labels.matches(sel.selector, p.metadata.labels ?? {})) as Loose[];
    if (pods.length === 0) ctx.event({ regarding: pdb, type: 'Normal', reason: 'NoPods', message: 'No matching pods found', component: COMPONENT });

    const expected = this.expectedPodCount(pdb, pods, ctx);
    if (!expected.ok) {
      ctx.event({ regarding: pdb, type: 'Warning', reason: 'CalculateExpectedPodCountFailed', message: `Failed to calculate the number of expected pods: ${expected.error}`, component: COMPONENT });
      return expected;
    }
    if (expected.unmanaged.length > 0) {
      ctx.event({
        regarding: pdb,
        type: 'Warning',
        reason: 'UnmanagedPods',
        message: `Pods selected by this PodDisruptionBudget (selector: ${labelSelectorGoString(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
        component: COMPONENT,
      });
    }
    const { disrupted, recheckAt } = this.buildDisruptedPodMap(pods, pdb, ctx);
    const currentHealthy = countHealthyPods(pods, disrupted, ctx.now);
    this.updatePdbStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, disrupted, ctx);
    if (recheckAt !== null) this.queue.addAfter(key, Math.max(0, recheckAt - ctx.now), ctx.now);
    return { ok: true };
  }

  /** getExpectedPodCount. */
  private expectedPodCount(pdb: Loose, pods: Loose[], ctx: ControllerContext): { ok: true; expectedCount: number; desiredHealthy: number; unmanaged: string[] } | { ok: false; error: string } {
    const spec = pdb.spec ?? {};
    if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
      const scale = this.expectedScale(pods, ctx);
      if (!scale.ok) return scale;
      const v = intOrPercent(spec.maxUnavailable, scale.count, true);
      if (!v.ok) return v;
      return { ok: true, expectedCount: scale.count, desiredHealthy: Math.max(0, scale.count - v.value), unmanaged: scale.unmanaged };
    }
    if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
      if (typeof spec.minAvailable === 'number') return { ok: true, expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanaged: [] };
      const scale = this.expectedScale(pods, ctx);
      if (!scale.ok) return scale;
      const v = intOrPercent(spec.minAvailable, scale.count, true);
      if (!v.ok) return v;
      return { ok: true, expectedCount: scale.count, desiredHealthy: v.value, unmanaged: scale.unmanaged };
    }
    return { ok: true, expectedCount: 0, desiredHealthy: 0, unmanaged: [] };
  }

  /** getExpectedScale: the sum of the scales of the pods' controllers, each counted once. */
  private expectedScale(pods: Loose[], ctx: ControllerContext): { ok: true; count: number; unmanaged: string[] } | { ok: false; error: string } {
    const scales = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of pods) {
      const ref = controllerOf(pod);
      if (!ref) {
        unmanaged.push(pod.metadata.name);
        continue;
      }
      if (scales.has(ref.uid)) continue;
      const found = this.findController(ref, pod.metadata.namespace, ctx);
      if (!found.ok) return found;
      if (!found.value) return { ok: false, error: `found no controllers for pod ${JSON.stringify(pod.metadata.name)}` };
      scales.set(found.value.uid, found.value.scale);
    }
    let count = 0;
    for (const n of scales.values()) count += n;
    return { ok: true, count, unmanaged };
  }

  /** The finders in upstream's order: ReplicationController, Deployment (through its ReplicaSet), ReplicaSet, StatefulSet, any scale. */
  private findController(ref: Loose, ns: string, ctx: ControllerContext): { ok: true; value: { uid: string; scale: number } | null } | { ok: false; error: string } {
    const get = (informer: string, name: string) => ctx.store(informer).get(`${ns}/${name}`) as Loose | undefined;
    const replicas = (o: Loose) => (typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1);
    const g = groupOf(ref);
    if (ref.kind === 'ReplicationController' && g === '') {
      const rc = get('replicationcontrollers', ref.name);
      if (rc && rc.metadata.uid === ref.uid) return { ok: true, value: { uid: rc.metadata.uid, scale: replicas(rc) } };
    }
    if (ref.kind === 'ReplicaSet' && (g === 'apps' || g === 'extensions')) {
      const rs = get('replicasets', ref.name);
      if (rs && rs.metadata.uid === ref.uid) {
        const owner = controllerOf(rs);
        if (owner && owner.kind === 'Deployment' && (groupOf(owner) === 'apps' || groupOf(owner) === 'extensions')) {
          const d = get('deployments', owner.name);
          if (d && d.metadata.uid === owner.uid) return { ok: true, value: { uid: d.metadata.uid, scale: replicas(d) } };
        }
        // A ReplicaSet a Deployment controls is the Deployment's (the finder above); others count themselves.
        if (!(owner && owner.kind === 'Deployment')) return { ok: true, value: { uid: rs.metadata.uid, scale: replicas(rs) } };
      }
    }
    if (ref.kind === 'StatefulSet' && g === 'apps') {
      const sts = get('statefulsets', ref.name);
      if (sts && sts.metadata.uid === ref.uid) return { ok: true, value: { uid: sts.metadata.uid, scale: replicas(sts) } };
    }
    // getScaleController: the kind must map to a resource, and that resource serve /scale.
    const gv = parseApiVersion(String(ref.apiVersion ?? ''));
    const r = resourceForKind(gv.group, String(ref.kind ?? ''));
    if (!r || (r.version !== gv.version && gv.version !== '')) return { ok: false, error: `no matches for kind ${JSON.stringify(ref.kind ?? '')} in version ${JSON.stringify(String(ref.apiVersion ?? ''))}` };
    if (!r.subresources.some((s) => s.name === 'scale')) return { ok: false, error: `${r.group ? `${r.resource}.${r.group}` : r.resource} does not implement the scale subresource` };
    // The kinds with a scale here are the four above: not found, or another uid.
    return { ok: true, value: null };
  }

  /** buildDisruptedPodMap: evictions still expected to complete, and when the next one times out. */
  private buildDisruptedPodMap(pods: Loose[], pdb: Loose, ctx: ControllerContext): { disrupted: Record<string, string>; recheckAt: number | null } {
    const recorded: Record<string, string> | undefined = pdb.status?.disruptedPods ?? undefined;
    const out: Record<string, string> = {};
    let recheckAt: number | null = null;
    if (!recorded) return { disrupted: out, recheckAt };
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const at = recorded[pod.metadata.name];
      if (at === undefined) continue;
      const expectedDeletion = parseRfc3339(at) + DELETION_TIMEOUT_MS;
      if (expectedDeletion < ctx.now) {
        // Upstream formats the namespace twice here.
        ctx.event({ regarding: pod, type: 'Warning', reason: 'NotDeleted', message: `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.namespace} to be deleted but it wasn't`, component: COMPONENT });
      } else {
        if (recheckAt === null || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
        out[pod.metadata.name] = at;
      }
    }
    return { disrupted: out, recheckAt };
  }

  private updatePdbStatus(pdb: Loose, currentHealthy: number, desiredHealthy: number, expectedCount: number, disrupted: Record<string, string>, ctx: ControllerContext): void {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const st: PdbStatus = pdb.status ?? {};
    const generation = pdb.metadata.generation ?? 0;
    const sameDisrupted = JSON.stringify(sortKeys(st.disruptedPods ?? {})) === JSON.stringify(sortKeys(disrupted));
    if (st.currentHealthy === currentHealthy && st.desiredHealthy === desiredHealthy && st.expectedPods === expectedCount && st.disruptionsAllowed === disruptionsAllowed && sameDisrupted && (st.observedGeneration ?? 0) === generation && conditionsAreUpToDate(st, generation)) return;
    const next: PdbStatus = {
      observedGeneration: generation,
      ...(Object.keys(disrupted).length > 0 ? { disruptedPods: sortKeys(disrupted) } : {}),
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods: expectedCount,
      conditions: jsonRoundTrip(st.conditions ?? []) as Condition[],
    };
    updateDisruptionAllowedCondition(next, rfc3339(ctx.now));
    this.writeStatus(pdb, next, `disruptionsAllowed ${disruptionsAllowed} (${currentHealthy} healthy, ${desiredHealthy} desired, ${expectedCount} expected)`, ctx);
  }

  /** failSafe: no disruption allowed, and why. */
  private failSafe(pdb: Loose, error: string, ctx: ControllerContext): void {
    const st: PdbStatus = jsonRoundTrip(pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    st.disruptionsAllowed = 0;
    st.conditions ??= [];
    setStatusCondition(st.conditions, { type: DISRUPTION_ALLOWED, status: 'False', reason: SYNC_FAILED, message: error, observedGeneration: st.observedGeneration ?? 0 }, rfc3339(ctx.now));
    if (JSON.stringify(st) === JSON.stringify(pdb.status ?? {})) return;
    this.writeStatus(pdb, st, `fail-safe: ${error}`, ctx);
  }

  private writeStatus(pdb: Loose, status: PdbStatus, what: string, ctx: ControllerContext): void {
    const key = keyOfObject(pdb);
    this.inFlight.add(key);
    const body = { ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status };
    pushRecent(this.recent, ctx.now, key, what);
    ctx.request({ method: 'PUT', path: `/apis/policy/v1/namespaces/${pdb.metadata.namespace}/poddisruptionbudgets/${pdb.metadata.name}/status`, body }, { type: 'status', key } satisfies Tag);
  }

  // ---- stale DisruptionTarget conditions ----------------------------------------------------

  /** nonTerminatingPodHasStaleDisruptionCondition: the eviction's condition on a pod not deleted, and how long until it is stale. */
  private staleDisruption(pod: Loose, now: number): { cleanupInMs: number } | null {
    if (pod.metadata.deletionTimestamp) return null;
    const c = (pod.status?.conditions ?? []).find((x: Loose) => x.type === 'DisruptionTarget');
    // The kubelet's own disruption conditions are never stale, nor any on a pod that has finished.
    if (!c || c.status !== 'True' || c.reason === 'TerminationByKubelet' || isTerminal(pod)) return null;
    const since = now - parseRfc3339(String(c.lastTransitionTime ?? ''));
    return { cleanupInMs: Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - (Number.isFinite(since) ? since : 0)) };
  }

  private syncStalePodDisruption(key: string, ctx: ControllerContext): SyncResult {
    const pod = ctx.store('pods').get(key) as Loose | undefined;
    if (!pod) return { type: 'done' };
    const stale = this.staleDisruption(pod, ctx.now);
    if (!stale) return { type: 'done' };
    if (stale.cleanupInMs > 0) return { type: 'after', delayMs: stale.cleanupInMs };
    // Upstream applies {type, status: False, lastTransitionTime} server-side; a merge on the
    // condition's type key changes the same fields and keeps the eviction's reason and message.
    const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion }, status: { conditions: [{ type: 'DisruptionTarget', status: 'False', lastTransitionTime: rfc3339(ctx.now) }] } };
    ctx.request({ method: 'PATCH', path: `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, body: patch, contentType: 'application/strategic-merge-patch+json' }, { type: 'stale', key } satisfies Tag);
    return { type: 'done' };
  }

  onResponse(tag: unknown, status: number, _body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    if (t.type === 'stale') {
      if (status === 200) pushRecent(this.recent, ctx.now, t.key, 'reset stale DisruptionTarget condition to False');
      else if (status !== 404) this.queue.addRateLimited(STALE + t.key, ctx.now);
      return;
    }
    this.inFlight.delete(t.key);
    if (status === 409) this.conflicts.add(t.key);
    if (status === 409 || this.dirty.delete(t.key)) this.queue.add(t.key, ctx.now);
  }
}

/** The PDBs of the pod's namespace whose selector picks it, by name (the lister's GetPodPodDisruptionBudgets). */
export function podDisruptionBudgetsFor(pod: Loose, pdbs: Iterable<KObject>): KObject[] {
  const out: KObject[] = [];
  for (const pdb of pdbs) {
    if (pdb.metadata.namespace !== pod.metadata.namespace) continue;
    const sel = labels.labelSelectorAsSelector((pdb.spec as Loose)?.selector ?? null);
    if (!sel.ok || !labels.matches(sel.selector, pod.metadata.labels ?? {})) continue;
    out.push(pdb);
  }
  return out.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

/** countHealthyPods: ready, not being deleted, not evicted within the deletion timeout. */
export function countHealthyPods(pods: Loose[], disrupted: Record<string, string>, now: number): number {
  let n = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disrupted[pod.metadata.name];
    if (at !== undefined && parseRfc3339(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) n++;
  }
  return n;
}

/** intstr.GetScaledValueFromIntOrPercent, with its error for a string that is not a percentage. */
function intOrPercent(v: unknown, total: number, roundUp: boolean): { ok: true; value: number } | { ok: false; error: string } {
  if (typeof v === 'number') return { ok: true, value: v };
  if (typeof v !== 'string' || !/^\d+%$/.test(v)) return { ok: false, error: `invalid value for IntOrString: invalid type: string is not a percentage` };
  return { ok: true, value: scaledValue(v, total, roundUp) };
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));
}

/** A *LabelSelector as Go's %v prints it (the generated String(): sorted map, requirements without their &). */
function labelSelectorGoString(sel: Loose): string {
  if (!sel) return '<nil>';
  const ml = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels[k]},`)
    .join('');
  const me = (sel.matchExpressions ?? []).map((e: Loose) => `LabelSelectorRequirement{Key:${e.key ?? ''},Operator:${e.operator ?? ''},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${ml}},MatchExpressions:[]LabelSelectorRequirement{${me}},}`;
}

registerClass('DisruptionController', DisruptionController);
