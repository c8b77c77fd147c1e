// The DaemonSet controller (daemon-set-controller), as upstream v1.32's
// pkg/controller/daemon/daemon_controller.go: one pod per node that should
// run it (node selector, required node affinity, taints against the daemon
// tolerations), created unbound with a required node affinity on the node's
// metadata.name so that the scheduler places it; failed pods are deleted
// with a per-node back-off (1 s doubling to 15 min), extra pods removed;
// expectations guard against acting twice on a stale cache; status counts
// desired/current/ready/available/updated/misscheduled pods.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { Backoff } from '../../client/backoff';
import { isEmpty, labelSelectorAsSelector, matches } from '../../apimachinery/selectors/labels';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, EventSpec, SyncResult } from '../framework/types';
import { WriteChains, type PlannedStep, type PlannedWrite, type WriteTag } from '../framework/writes';
import { UIDTrackingControllerExpectations } from '../replicaset/expectations';
import { controllerOf, inNamespace, isPodAvailable, isPodReady, newControllerRef, KIND, refObject } from '../replicaset/podUtil';
import { keyOfObject, pushRecent } from '../endpoint/podutil';
import { listControllerRevisions } from '../history/history';
import { constructHistory, historyToDelete, rollingUpdate } from './update';
import { allowsSurge, byCreationAndPhase, createPodTemplate, dsSpec, dsStatus, HASH_LABEL, isPodUpdated, isRollingUpdate, nodeShouldRunDaemonPod, pinToNode, statusJson, targetNodeName, templateGeneration, type DaemonSetStatus } from './util';

/** BurstReplicas: at most this many creations or deletions per sync. */
const BURST_REPLICAS = 250;
const SLOW_START_INITIAL_BATCH_SIZE = 1;

type Meta = { op: 'create' } | { op: 'delete'; podKey: string };

const revisionsPath = (ns: string) => `/apis/apps/v1/namespaces/${ns}/controllerrevisions`;

export class DaemonSetsController implements Controller {
  readonly name = 'daemon-set-controller';
  readonly informers = ['daemonsets', 'pods', 'nodes', 'controllerrevisions'] as const;
  readonly queue = new RateLimitingQueue<string>('daemonset');
  readonly expectations = new UIDTrackingControllerExpectations();
  readonly writes = new WriteChains();
  /** failedPodsBackoff: 1 s doubling to 15 min, per DaemonSet generation and node. */
  readonly failedPodsBackoff = new Backoff(1000, 15 * 60_000);
  readonly recent: { t: number; key: string; what: string }[] = [];

  // ---- informer handlers

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    switch (resource) {
      case 'daemonsets':
        // deleteDaemonset; updateDaemonset treats a changed uid (a re-create whose delete went unseen) as one.
        if (ev.type === 'DELETED' || (ev.type === 'MODIFIED' && ev.old && ev.old.metadata.uid !== ev.object.metadata.uid)) this.expectations.deleteExpectations(keyOfObject(ev.object));
        return this.queue.add(keyOfObject(ev.object), ctx.now);
      case 'pods':
        return this.onPod(ev, ctx);
      case 'nodes':
        return this.onNode(ev, ctx);
      case 'controllerrevisions': {
        const ref = controllerOf(ev.object);
        if (ref) this.enqueueRef(ev.object.metadata.namespace ?? '', ref, ctx);
        else if (ev.type !== 'DELETED') for (const ds of this.daemonSetsMatching(ev.object, ctx)) this.queue.add(keyOfObject(ds), ctx.now);
        return;
      }
    }
  }

  private onPod(ev: ReflectorEvent, ctx: ControllerContext): void {
    const pod = ev.object;
    const ns = pod.metadata.namespace ?? '';
    const owner = (p: KObject) => {
      const ref = controllerOf(p);
      return ref ? this.resolve(ns, ref, ctx) : null;
    };
    if (ev.type === 'ADDED') {
      if (pod.metadata.deletionTimestamp) return this.podGone(pod, ctx);
      const ds = owner(pod);
      if (ds) {
        this.expectations.creationObserved(keyOfObject(ds));
        return this.queue.add(keyOfObject(ds), ctx.now);
      }
      if (!controllerOf(pod)) for (const d of this.daemonSetsMatching(pod, ctx)) this.queue.add(keyOfObject(d), ctx.now);
      return;
    }
    if (ev.type === 'DELETED') return this.podGone(pod, ctx);
    const old = ev.old;
    if (!old || old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) this.podGone(pod, ctx);
    const curRef = controllerOf(pod);
    const oldRef = controllerOf(old);
    if (JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null) && oldRef) this.enqueueRef(ns, oldRef, ctx);
    const ds = owner(pod);
    if (ds) {
      this.queue.add(keyOfObject(ds), ctx.now);
      // A pod turned ready: it becomes available minReadySeconds later.
      const minReady = dsSpec(ds).minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(pod) && minReady > 0) this.queue.addAfter(keyOfObject(ds), minReady * 1000, ctx.now);
      return;
    }
    if (!curRef && JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {})) for (const d of this.daemonSetsMatching(pod, ctx)) this.queue.add(keyOfObject(d), ctx.now);
  }

  private podGone(pod: KObject, ctx: ControllerContext): void {
    const ref = controllerOf(pod);
    const ds = ref ? this.resolve(pod.metadata.namespace ?? '', ref, ctx) : null;
    if (!ds) return;
    this.expectations.deletionObserved(keyOfObject(ds), keyOfObject(pod));
    this.queue.add(keyOfObject(ds), ctx.now);
  }

  /** addNode / updateNode: the DaemonSets whose verdict for the node changed. */
  private onNode(ev: ReflectorEvent, ctx: ControllerContext): void {
    if (ev.type === 'DELETED') return;
    for (const ds of ctx.store('daemonsets').values()) {
      const cur = nodeShouldRunDaemonPod(ev.object, ds);
      if (ev.type === 'ADDED' || !ev.old) {
        if (cur.shouldRun) this.queue.add(keyOfObject(ds), ctx.now);
        continue;
      }
      const before = nodeShouldRunDaemonPod(ev.old, ds);
      if (before.shouldRun !== cur.shouldRun || before.shouldContinueRunning !== cur.shouldContinueRunning) this.queue.add(keyOfObject(ds), ctx.now);
    }
  }

  private resolve(ns: string, ref: { kind: string; name: string; uid: string }, ctx: ControllerContext): KObject | null {
    if (ref.kind !== 'DaemonSet') return null;
    const ds = ctx.store('daemonsets').get(`${ns}/${ref.name}`);
    return ds && ds.metadata.uid === ref.uid ? ds : null;
  }

  private enqueueRef(ns: string, ref: { kind: string; name: string; uid: string }, ctx: ControllerContext): void {
    const ds = this.resolve(ns, ref, ctx);
    if (ds) this.queue.add(keyOfObject(ds), ctx.now);
  }

  private daemonSetsMatching(o: KObject, ctx: ControllerContext): KObject[] {
    return inNamespace(ctx.store('daemonsets'), o.metadata.namespace ?? '').filter((ds) => {
      const sel = labelSelectorAsSelector(dsSpec(ds).selector);
      return sel.ok && !isEmpty(sel.selector) && matches(sel.selector, o.metadata.labels ?? {});
    });
  }

  // ---- syncDaemonSet

  sync(key: string, ctx: ControllerContext): SyncResult {
    const wait = this.writes.wait(key, ctx);
    if (wait.busy) return wait.delayMs === null ? { type: 'done' } : { type: 'after', delayMs: wait.delayMs };
    const ds = ctx.store('daemonsets').get(key);
    if (!ds) {
      this.expectations.deleteExpectations(key);
      this.writes.forget(key);
      return { type: 'done' };
    }
    const ref = refObject(ds);
    const sel = dsSpec(ds).selector;
    if (sel && !Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length) {
      ctx.event({ regarding: ref, type: 'Warning', reason: 'SelectingAll', message: 'This daemon set is selecting all pods. A non-empty selector is required.' });
      return { type: 'done' };
    }
    if (ds.metadata.deletionTimestamp) return { type: 'done' };
    const nodes = [...ctx.store('nodes').values()].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const steps: PlannedStep[] = [];

    // Adoption of pods and revisions, then the history.
    const claimed = this.claimPods(ds, ctx);
    const revisions = this.claimRevisions(ds, ctx);
    if (claimed.writes.length || revisions.writes.length) steps.push({ writes: [...claimed.writes, ...revisions.writes] });
    const history = constructHistory(ds, revisions.revisions);
    const ns = ds.metadata.namespace!;
    if (!history.cur) {
      // The current revision must exist (and be seen) before pods carry its hash.
      for (const w of history.writes) steps.push({ writes: [this.revisionWrite(ns, w.method, w.cr)] });
      this.start(key, steps, ctx, 'new revision');
      return { type: 'done' };
    }
    if (history.relabel !== undefined) {
      const hash = history.relabel;
      const patches: PlannedWrite[] = claimed.pods
        .filter((p) => p.metadata.labels?.[HASH_LABEL] !== hash)
        .map((p) => ({ call: { method: 'PATCH', path: `/api/v1/namespaces/${ns}/pods/${p.metadata.name}`, contentType: 'application/strategic-merge-patch+json', body: { metadata: { labels: { [HASH_LABEL]: hash } } } }, observe: 'pods' }));
      if (patches.length) steps.push({ writes: patches });
    }
    if (history.writes.length) steps.push({ writes: history.writes.map((w) => this.revisionWrite(ns, w.method, w.cr)) });
    const hash = history.cur.metadata.labels?.[HASH_LABEL] ?? '';
    const nodeToPods = this.nodesToDaemonPods(claimed.pods);
    let requeueAfter: number | null = null;

    if (!this.expectations.satisfied(key, ctx.now)) {
      // Only the status; observedGeneration waits for a sync that acted on this generation.
      const status = this.status(ds, nodes, nodeToPods, hash, false, ctx);
      if (status) steps.push({ writes: [status], always: true });
      this.start(key, steps, ctx);
      return { type: 'done' };
    }

    // manage
    const manage = this.manage(ds, nodes, nodeToPods, hash, ctx);
    if (manage.requeueAfter !== null) requeueAfter = manage.requeueAfter;
    let sync = this.syncNodes(ds, manage.podsToDelete, manage.nodesNeeding, hash, ctx);
    // Process the rolling update once the manage loop has nothing in flight.
    if (!sync.issued && isRollingUpdate(ds)) {
      const plan = rollingUpdate(ds, nodes, this.nodesToDaemonPods(claimed.pods), hash, ctx.now);
      sync = this.syncNodes(ds, plan.podsToDelete, plan.nodesToCreate, hash, ctx);
      if (sync.issued) pushRecent(this.recent, ctx.now, key, `rolling update: delete ${plan.podsToDelete.length}, create ${plan.nodesToCreate.length}`);
    }
    steps.push(...sync.steps);
    const cleanup = historyToDelete(ds, history.old, claimed.pods);
    if (cleanup.length) steps.push({ writes: cleanup.map((cr) => this.revisionWrite(ns, 'DELETE', cr)), always: true });
    const status = this.status(ds, nodes, nodeToPods, hash, true, ctx);
    if (status) steps.push({ writes: [status], always: true });
    this.start(key, steps, ctx);
    const minReady = dsSpec(ds).minReadySeconds ?? 0;
    if (minReady > 0 && this.lastReadyNotAvailable) requeueAfter = Math.min(requeueAfter ?? Infinity, minReady * 1000);
    return requeueAfter === null ? { type: 'done' } : { type: 'after', delayMs: requeueAfter };
  }

  private start(key: string, steps: PlannedStep[], ctx: ControllerContext, note?: string): void {
    if (this.writes.start(key, steps, ctx) && note) pushRecent(this.recent, ctx.now, key, note);
  }

  private revisionWrite(ns: string, method: 'POST' | 'PUT' | 'DELETE', cr: KObject): PlannedWrite {
    const path = method === 'POST' ? revisionsPath(ns) : `${revisionsPath(ns)}/${cr.metadata.name}`;
    return { call: { method, path, ...(method === 'DELETE' ? {} : { body: cr }) }, observe: 'controllerrevisions', ...(method === 'DELETE' ? { tolerate: [404] } : {}) };
  }

  /** getDaemonPods (ClaimPods): adopt matching orphans, release owned pods that no longer match. */
  private claimPods(ds: KObject, ctx: ControllerContext): { pods: KObject[]; writes: PlannedWrite[] } {
    const sel = labelSelectorAsSelector(dsSpec(ds).selector);
    const pods: KObject[] = [];
    const writes: PlannedWrite[] = [];
    if (!sel.ok) return { pods, writes };
    for (const pod of inNamespace(ctx.store('pods'), ds.metadata.namespace ?? '')) {
      const ref = controllerOf(pod);
      const match = matches(sel.selector, pod.metadata.labels ?? {});
      const path = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;
      if (ref) {
        if (ref.uid !== ds.metadata.uid) continue;
        if (match) pods.push(pod);
        else writes.push({ call: { method: 'PATCH', path, contentType: 'application/strategic-merge-patch+json', body: { metadata: { ownerReferences: [{ $patch: 'delete', uid: ds.metadata.uid }], uid: pod.metadata.uid } } }, observe: 'pods', tolerate: [404] });
        continue;
      }
      if (!match || pod.metadata.deletionTimestamp) continue;
      writes.push({ call: { method: 'PATCH', path, contentType: 'application/strategic-merge-patch+json', body: { metadata: { ownerReferences: [newControllerRef(ds, KIND.DaemonSet)], uid: pod.metadata.uid } } }, observe: 'pods' });
      pods.push(pod);
    }
    return { pods, writes };
  }

  /** controlledHistories: owned revisions, orphans the selector matches adopted. */
  private claimRevisions(ds: KObject, ctx: ControllerContext): { revisions: KObject[]; writes: PlannedWrite[] } {
    const revisions = listControllerRevisions(ctx.store('controllerrevisions'), ds, dsSpec(ds).selector);
    const writes: PlannedWrite[] = revisions
      .filter((r) => !controllerOf(r))
      .map((r) => ({ call: { method: 'PATCH', path: `${revisionsPath(ds.metadata.namespace!)}/${r.metadata.name}`, contentType: 'application/strategic-merge-patch+json', body: { metadata: { ownerReferences: [newControllerRef(ds, KIND.DaemonSet)], uid: r.metadata.uid } } }, observe: 'controllerrevisions' }));
    return { revisions, writes };
  }

  /** getNodesToDaemonPods: pods by their (target) node; terminal pods being deleted are left out. */
  private nodesToDaemonPods(pods: KObject[]): Map<string, KObject[]> {
    const out = new Map<string, KObject[]>();
    for (const pod of pods) {
      const phase = (pod.status as { phase?: string } | undefined)?.phase;
      if ((phase === 'Succeeded' || phase === 'Failed') && pod.metadata.deletionTimestamp) continue;
      const node = targetNodeName(pod);
      if (node === null) continue;
      const list = out.get(node);
      if (list) list.push(pod);
      else out.set(node, [pod]);
    }
    return out;
  }

  /** manage / podsShouldBeOnNode: nodes that need a daemon pod, and pods that must go. */
  private manage(ds: KObject, nodes: KObject[], nodeToPods: Map<string, KObject[]>, hash: string, ctx: ControllerContext): { nodesNeeding: string[]; podsToDelete: string[]; requeueAfter: number | null } {
    const nodesNeeding: string[] = [];
    const podsToDelete: string[] = [];
    let requeueAfter: number | null = null;
    const ref = refObject(ds);
    const minReady = dsSpec(ds).minReadySeconds ?? 0;
    for (const node of nodes) {
      const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
      const name = node.metadata.name!;
      const pods = nodeToPods.get(name);
      if (!shouldContinueRunning && pods) {
        for (const p of pods) if (!p.metadata.deletionTimestamp) podsToDelete.push(p.metadata.name!);
        continue;
      }
      if (shouldRun && !pods) {
        nodesNeeding.push(name);
        continue;
      }
      if (!shouldContinueRunning || !pods) continue;
      const running: KObject[] = [];
      for (const pod of pods) {
        if (pod.metadata.deletionTimestamp) continue;
        const phase = (pod.status as { phase?: string } | undefined)?.phase;
        if (phase === 'Failed') {
          // Kubelets rejecting a pod and the controller recreating it must not hot-loop.
          const bk = `${ds.metadata.uid}/${dsStatus(ds).observedGeneration ?? 0}/${name}`;
          if (this.failedPodsBackoff.isInBackOffSinceUpdate(bk, ctx.now)) {
            const d = this.failedPodsBackoff.get(bk);
            requeueAfter = requeueAfter === null ? d : Math.min(requeueAfter, d);
            continue;
          }
          this.failedPodsBackoff.next(bk, ctx.now);
          ctx.event({ regarding: ref, type: 'Warning', reason: 'FailedDaemonPod', message: `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${name}, will try to kill it` });
          podsToDelete.push(pod.metadata.name!);
        } else if (phase === 'Succeeded') {
          ctx.event({ regarding: ref, type: 'Normal', reason: 'SucceededDaemonPod', message: `Found succeeded daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${name}, will try to delete it` });
          podsToDelete.push(pod.metadata.name!);
        } else running.push(pod);
      }
      running.sort(byCreationAndPhase);
      if (!allowsSurge(ds)) {
        // More than one running pod on a node: all but the oldest go.
        for (const p of running.slice(1)) podsToDelete.push(p.metadata.name!);
        continue;
      }
      if (running.length <= 1) {
        if (running.length === 0 && shouldRun) nodesNeeding.push(name);
        continue;
      }
      // Surging: an old and a new pod may share the node until the new one is available.
      let oldestNew: KObject | null = null;
      let oldestOld: KObject | null = null;
      for (const p of running) {
        if (p.metadata.labels?.[HASH_LABEL] === hash) {
          if (!oldestNew) {
            oldestNew = p;
            continue;
          }
        } else if (!oldestOld) {
          oldestOld = p;
          continue;
        }
        podsToDelete.push(p.metadata.name!);
      }
      if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady, ctx.now))) podsToDelete.push(oldestOld.metadata.name!);
    }
    // Unscheduled pods pinned to nodes that no longer exist (podgc never sees them).
    const names = new Set(nodes.map((n) => n.metadata.name!));
    for (const [node, pods] of nodeToPods) {
      if (names.has(node)) continue;
      for (const p of pods) if (!(p.spec as { nodeName?: string } | undefined)?.nodeName) podsToDelete.push(p.metadata.name!);
    }
    return { nodesNeeding, podsToDelete, requeueAfter };
  }

  /** syncNodes: creations in slow-start batches (pods pinned by node affinity), then deletions, under expectations. */
  private syncNodes(ds: KObject, podsToDelete: string[], nodesNeeding: string[], hash: string, ctx: ControllerContext): { steps: PlannedStep[]; issued: boolean } {
    const key = keyOfObject(ds);
    const createDiff = Math.min(nodesNeeding.length, BURST_REPLICAS);
    const deleteDiff = Math.min(podsToDelete.length, BURST_REPLICAS);
    const ns = ds.metadata.namespace!;
    const toDelete = podsToDelete.slice(0, deleteDiff);
    this.expectations.setExpectations(key, createDiff, toDelete.map((n) => `${ns}/${n}`), ctx.now);
    if (createDiff === 0 && deleteDiff === 0) return { steps: [], issued: false };
    const ref = refObject(ds);
    const template = createPodTemplate(ds, hash);
    const steps: PlannedStep[] = [];
    for (let pos = 0, batch = Math.min(createDiff, SLOW_START_INITIAL_BATCH_SIZE); pos < createDiff; pos += batch, batch = Math.min(2 * batch, createDiff - pos)) {
      const writes: PlannedWrite[] = [];
      for (let i = pos; i < pos + batch; i++) {
        const spec = JSON.parse(JSON.stringify(template.spec)) as Record<string, unknown>;
        pinToNode(spec, nodesNeeding[i]!);
        // GetPodFromTemplate (controller_utils.go): only the template's labels, annotations and finalizers carry over.
        const m = template.metadata as { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
        const metadata: KObject['metadata'] = { generateName: `${ds.metadata.name}-`, namespace: ns, ownerReferences: [newControllerRef(ds, KIND.DaemonSet)] };
        if (m.labels) metadata.labels = { ...m.labels };
        if (m.annotations) metadata.annotations = { ...m.annotations };
        if (m.finalizers) metadata.finalizers = [...m.finalizers];
        const pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec };
        writes.push({
          call: { method: 'POST', path: `/api/v1/namespaces/${ns}/pods`, body: pod },
          observe: 'pods',
          ok: { regarding: ref, type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: ' },
          okNamed: true,
          fail: { regarding: ref, type: 'Warning', reason: 'FailedCreate', prefix: 'Error creating: ' },
          meta: { op: 'create' } satisfies Meta,
        });
      }
      steps.push({ writes });
    }
    if (toDelete.length) {
      steps.push({
        always: true,
        writes: toDelete.map((name) => ({
          call: { method: 'DELETE', path: `/api/v1/namespaces/${ns}/pods/${name}` },
          observe: 'pods',
          ok: { regarding: ref, type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted pod: ${name}` } satisfies EventSpec,
          fail: { regarding: ref, type: 'Warning', reason: 'FailedDelete', prefix: 'Error deleting: ' },
          tolerate: [404],
          meta: { op: 'delete', podKey: `${ns}/${name}` } satisfies Meta,
        })),
      });
    }
    if (createDiff) pushRecent(this.recent, ctx.now, key, `create ${createDiff} pod(s)`);
    if (toDelete.length) pushRecent(this.recent, ctx.now, key, `delete ${toDelete.join(', ')}`);
    return { steps, issued: true };
  }

  /** Whether the last status computed had ready pods not yet available (minReadySeconds). */
  private lastReadyNotAvailable = false;

  /** updateDaemonSetStatus: a status write when a count (or the observed generation) changed. */
  private status(ds: KObject, nodes: KObject[], nodeToPods: Map<string, KObject[]>, hash: string, updateObservedGen: boolean, ctx: ControllerContext): PlannedWrite | null {
    const minReady = dsSpec(ds).minReadySeconds ?? 0;
    const gen = templateGeneration(ds);
    const s: DaemonSetStatus = { desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 0, numberAvailable: 0 };
    for (const node of nodes) {
      const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
      const pods = nodeToPods.get(node.metadata.name!) ?? [];
      const scheduled = pods.length > 0;
      if (!shouldRun) {
        if (scheduled) s.numberMisscheduled++;
        continue;
      }
      s.desiredNumberScheduled++;
      if (!scheduled) continue;
      s.currentNumberScheduled++;
      const pod = [...pods].sort(byCreationAndPhase)[0]!;
      if (isPodReady(pod)) {
        s.numberReady++;
        if (isPodAvailable(pod, minReady, ctx.now)) s.numberAvailable!++;
      }
      if (isPodUpdated(pod, hash, gen)) s.updatedNumberScheduled!++;
    }
    s.numberUnavailable = s.desiredNumberScheduled - s.numberAvailable!;
    this.lastReadyNotAvailable = s.numberReady !== s.numberAvailable;
    const cur = dsStatus(ds);
    const generation = ds.metadata.generation ?? 0;
    const same =
      (cur.desiredNumberScheduled ?? 0) === s.desiredNumberScheduled &&
      (cur.currentNumberScheduled ?? 0) === s.currentNumberScheduled &&
      (cur.numberMisscheduled ?? 0) === s.numberMisscheduled &&
      (cur.numberReady ?? 0) === s.numberReady &&
      (cur.updatedNumberScheduled ?? 0) === s.updatedNumberScheduled &&
      (cur.numberAvailable ?? 0) === s.numberAvailable &&
      (cur.numberUnavailable ?? 0) === s.numberUnavailable &&
      (cur.observedGeneration ?? 0) >= generation;
    if (same) return null;
    const next: DaemonSetStatus = { ...s, ...(cur.collisionCount !== undefined ? { collisionCount: cur.collisionCount } : {}), ...(cur.conditions ? { conditions: cur.conditions } : {}) };
    next.observedGeneration = updateObservedGen ? generation : cur.observedGeneration;
    const body = { ...JSON.parse(JSON.stringify(ds)), status: statusJson(next) };
    return { call: { method: 'PUT', path: `/apis/apps/v1/namespaces/${ds.metadata.namespace}/daemonsets/${ds.metadata.name}/status`, body }, observe: 'daemonsets' };
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const r = this.writes.onResponse(tag as WriteTag, status, body, ctx);
    if (!r) return;
    // Writes that failed or never ran will never be observed.
    for (const m of [...r.failed, ...r.skipped] as Meta[]) {
      if (m.op === 'create') this.expectations.creationObserved(r.owner);
      else this.expectations.deletionObserved(r.owner, m.podKey);
    }
    if (r.ok) this.queue.add(r.owner, ctx.now);
    else this.queue.addRateLimited(r.owner, ctx.now);
  }
}

registerClass('DaemonSetsController', DaemonSetsController);
