// The taint eviction controller ("taint-eviction-controller",
// pkg/controller/tainteviction/taint_eviction.go, v1.32): a pod on a node with
// NoExecute taints it does not tolerate is deleted at once; one tolerating
// them for tolerationSeconds is deleted that long after the taints were seen
// (the shortest bound wins). Before deleting it marks the pod with the
// DisruptionTarget condition (DeletionByTaintManager) and records
// TaintManagerEviction events; a cancelled eviction is recorded too.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { rfc3339 } from '../../apiserver/http/time';
import { registerClass } from '../../sim/serial';
import { assertNever } from '../../sim/assert';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { taintsOf, type Taint } from '../nodelifecycle/taints';
import { getMatchingTolerations, getMinTolerationTime, type Toleration } from './tolerations';

/** A scheduled deletion (TimedWorker); fired ones stay (fired: true) so they are not added twice. */
interface Work {
  createdAt: number;
  fireAt: number;
  fired: boolean;
}

type Tag = { op: 'condition'; pod: string; name: string; namespace: string } | { op: 'delete'; pod: string };

const POD = 'pod/';
const NODE = 'node/';
const EVICT = 'evict/';
const RECENT = 50;

function noExecuteTaints(node: KObject | undefined): Taint[] {
  return node ? taintsOf(node).filter((t) => t.effect === 'NoExecute') : [];
}

function podKey(p: KObject): string {
  return `${p.metadata.namespace}/${p.metadata.name}`;
}

function nodeNameOf(p: KObject): string {
  return (p.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
}

function tolerationsOf(p: KObject): Toleration[] {
  return ((p.spec as { tolerations?: Toleration[] } | undefined)?.tolerations ?? []) as Toleration[];
}

export class TaintEvictionController implements Controller {
  readonly name = 'taint-eviction-controller';
  readonly informers = ['nodes', 'pods'] as const;
  readonly queue = new RateLimitingQueue<string>('taint_eviction_controller');
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** NoExecute taints of each tainted node (taintedNodes). */
  readonly taintedNodes = new Map<string, Taint[]>();
  /** The taint eviction queue, by "namespace/name". */
  readonly work = new Map<string, Work>();

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource === 'nodes') {
      // NodeUpdated: only a change of the NoExecute taints matters.
      if (ev.type === 'MODIFIED' && ev.old && JSON.stringify(noExecuteTaints(ev.old)) === JSON.stringify(noExecuteTaints(ev.object))) return;
      this.queue.add(NODE + ev.object.metadata.name, ctx.now);
      return;
    }
    if (resource === 'pods') {
      // PodUpdated: only a change of node or tolerations matters.
      if (ev.type === 'MODIFIED' && ev.old && nodeNameOf(ev.old) === nodeNameOf(ev.object) && JSON.stringify(tolerationsOf(ev.old)) === JSON.stringify(tolerationsOf(ev.object))) return;
      this.queue.add(POD + podKey(ev.object), ctx.now);
    }
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (key.startsWith(NODE)) this.handleNodeUpdate(key.slice(NODE.length), ctx);
    else if (key.startsWith(POD)) this.handlePodUpdate(key.slice(POD.length), ctx);
    else if (key.startsWith(EVICT)) return this.fire(key.slice(EVICT.length), ctx);
    return { type: 'done' };
  }

  onResponse(tag: unknown, status: number, _body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    switch (t.op) {
      case 'condition':
        // addConditionAndDeletePod: the condition first, then the delete.
        if (status >= 200 && status < 300) this.deletePod(t.namespace, t.name, ctx);
        else if (status !== 404) this.retry(t.pod, ctx);
        return;
      case 'delete':
        if (status >= 300 && status !== 404) this.retry(t.pod, ctx);
        return;
      default:
        assertNever(t, 'tag');
    }
  }

  /** A failed deletion forgets its work, as the timed worker does on error. */
  private retry(pod: string, _ctx: ControllerContext): void {
    this.work.delete(pod);
  }

  private handleNodeUpdate(name: string, ctx: ControllerContext): void {
    const node = ctx.store('nodes').get(name);
    const taints = noExecuteTaints(node);
    if (taints.length === 0) this.taintedNodes.delete(name);
    else this.taintedNodes.set(name, taints);
    if (!node) return;
    const pods = [...ctx.store('pods').values()].filter((p) => nodeNameOf(p) === name);
    if (taints.length === 0) {
      for (const p of pods) this.cancelWorkWithEvent(podKey(p), ctx);
      return;
    }
    for (const p of pods) this.processPodOnNode(podKey(p), name, tolerationsOf(p), taints, ctx);
  }

  private handlePodUpdate(key: string, ctx: ControllerContext): void {
    const pod = ctx.store('pods').get(key);
    if (!pod) {
      this.cancelWorkWithEvent(key, ctx);
      return;
    }
    const nodeName = nodeNameOf(pod);
    if (!nodeName) return;
    const taints = this.taintedNodes.get(nodeName);
    if (!taints) return;
    this.processPodOnNode(key, nodeName, tolerationsOf(pod), taints, ctx);
  }

  private processPodOnNode(key: string, _nodeName: string, tolerations: Toleration[], taints: Taint[], ctx: ControllerContext): void {
    const now = ctx.now;
    if (taints.length === 0) this.cancelWorkWithEvent(key, ctx);
    const { all, used } = getMatchingTolerations(taints, tolerations);
    if (!all) {
      // Not tolerated: any scheduled deletion is replaced by one now.
      this.cancelWorkWithEvent(key, ctx);
      this.addWork(key, now, now, now);
      return;
    }
    const min = getMinTolerationTime(used);
    if (min < 0) {
      this.cancelWorkWithEvent(key, ctx);
      return;
    }
    let start = now;
    const trigger = now + min;
    const scheduled = this.work.get(key);
    if (scheduled && !scheduled.fired) {
      start = scheduled.createdAt;
      if (start + min < trigger) return;
      this.cancelWorkWithEvent(key, ctx);
    }
    this.addWork(key, start, trigger, now);
  }

  /** AddWork: a timed deletion (skipped when one exists, fired or not). */
  private addWork(key: string, createdAt: number, fireAt: number, now: number): void {
    if (this.work.has(key)) return;
    this.work.set(key, { createdAt, fireAt, fired: false });
    this.queue.addAfter(EVICT + key, fireAt - now, now);
  }

  private cancelWorkWithEvent(key: string, ctx: ControllerContext): void {
    const w = this.work.get(key);
    if (!w) return;
    this.work.delete(key);
    if (w.fired) return;
    const [namespace, name] = key.split('/') as [string, string];
    ctx.event({ regarding: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }, type: 'Normal', reason: 'TaintManagerEviction', message: `Cancelling deletion of Pod ${key}` });
    this.note(ctx, key, 'eviction cancelled');
  }

  private fire(key: string, ctx: ControllerContext): SyncResult {
    const w = this.work.get(key);
    if (!w || w.fired) return { type: 'done' };
    if (w.fireAt > ctx.now) return { type: 'after', delayMs: w.fireAt - ctx.now };
    w.fired = true;
    const [namespace, name] = key.split('/') as [string, string];
    ctx.event({ regarding: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }, type: 'Normal', reason: 'TaintManagerEviction', message: `Marking for deletion Pod ${key}` });
    this.note(ctx, key, 'deleting (NoExecute taint)');
    const pod = ctx.store('pods').get(key);
    if (!pod) return { type: 'done' };
    const conds = ((pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []);
    if (conds.some((c) => c.type === 'DisruptionTarget' && c.status === 'True')) {
      this.deletePod(namespace, name, ctx);
      return { type: 'done' };
    }
    ctx.request(
      {
        method: 'PATCH',
        path: `/api/v1/namespaces/${namespace}/pods/${name}/status`,
        contentType: 'application/strategic-merge-patch+json',
        body: {
          metadata: { uid: pod.metadata.uid },
          status: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: rfc3339(ctx.now) }] },
        },
      },
      { op: 'condition', pod: key, name, namespace } satisfies Tag,
    );
    return { type: 'done' };
  }

  private deletePod(namespace: string, name: string, ctx: ControllerContext): void {
    ctx.request({ method: 'DELETE', path: `/api/v1/namespaces/${namespace}/pods/${name}` }, { op: 'delete', pod: `${namespace}/${name}` } satisfies Tag);
  }

  private note(ctx: ControllerContext, key: string, what: string): void {
    this.recent.push({ t: ctx.now, key, what });
    if (this.recent.length > RECENT) this.recent.splice(0, this.recent.length - RECENT);
  }
}

registerClass('TaintEvictionController', TaintEvictionController);
