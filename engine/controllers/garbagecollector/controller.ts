// The garbage collector ("generic-garbage-collector",
// pkg/controller/garbagecollector, v1.32), on the manager's informers:
// - the graph: every watched object by uid, and each owner uid's dependents;
// - attemptToDelete: a dependent whose owners are all gone (by uid; confirmed
//   by a live GET, as isDangling does) is deleted with the propagation its
//   finalizers ask for (Background by default); owners that are gone or being
//   deleted in the foreground are dropped from a dependent that keeps a live
//   owner;
// - foreground deletion: an owner with deletionTimestamp and the
//   foregroundDeletion finalizer has its dependents deleted, and loses the
//   finalizer once no dependent with blockOwnerDeletion remains;
// - orphan: an owner with the orphan finalizer has its ownerReference removed
//   from every dependent, then loses the finalizer.
import type { KObject, OwnerReference } from '../../apimachinery/types';
import { Reflector, type ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { registerClass } from '../../sim/serial';
import { assertNever } from '../../sim/assert';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { GC_INFORMERS, objectPath, resourceForInformer, resourceForKind } from './resources';

export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';
export const FINALIZER_ORPHAN = 'orphan';

type Tag =
  | { op: 'lookup'; uid: string }
  | { op: 'delete'; item: string }
  | { op: 'patchRefs'; item: string }
  | { op: 'finalizer'; item: string }
  | { op: 'orphanDep'; owner: string; ownerUid: string; dep: string };

const DELETE = 'attemptToDelete|';
const ORPHAN = 'attemptToOrphan|';
const ABSENT_CACHE = 500;
const RECENT = 50;

function refsOf(o: KObject | undefined): OwnerReference[] {
  return (o?.metadata.ownerReferences ?? []) as OwnerReference[];
}

function refWithUid(refs: readonly OwnerReference[], uid: string): OwnerReference | undefined {
  for (let i = 0; i < refs.length; i++) if (refs[i]!.uid === uid) return refs[i];
  return undefined;
}

function deletingDependents(o: KObject): boolean {
  return !!o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(FINALIZER_DELETE_DEPENDENTS);
}

function orphaning(o: KObject): boolean {
  return !!o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(FINALIZER_ORPHAN);
}

/** Same object, both live, the same owners by uid with the same blockOwnerDeletion, in order. */
function graphUnchanged(old: KObject, o: KObject): boolean {
  if (old.metadata.uid !== o.metadata.uid || old.metadata.deletionTimestamp || o.metadata.deletionTimestamp) return false;
  const a = refsOf(old);
  const b = refsOf(o);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.uid !== b[i]!.uid || !a[i]!.blockOwnerDeletion !== !b[i]!.blockOwnerDeletion) return false;
  return true;
}

export class GarbageCollector implements Controller {
  readonly name = 'generic-garbage-collector';
  readonly informers = GC_INFORMERS;
  readonly queue = new RateLimitingQueue<string>('garbage_collector');
  readonly recent: { t: number; key: string; what: string }[] = [];
  /** uid → "informer|key" (the graph's uidToNode). */
  readonly uidIndex = new Map<string, string>();
  /** owner uid → dependents ("informer|key"). */
  readonly dependents = new Map<string, Set<string>>();
  /** Owners confirmed absent by a live GET (absentOwnerCache, bounded). */
  readonly absentOwners = new Set<string>();
  /** Live GETs in flight, by owner uid, with the items waiting for them. */
  readonly lookups = new Map<string, string[]>();
  /** Writes in flight, by item. */
  readonly inFlight = new Set<string>();
  /** Orphaning owner uid → dependents already patched. */
  readonly orphaned = new Map<string, Set<string>>();

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    const o = ev.object;
    // processGraphChanges: an update that moves neither the owners nor the deletion state changes nothing
    // in the graph (most events: a Lease renewed, a status written).
    if (ev.type !== 'DELETED' && ev.old && graphUnchanged(ev.old, o)) return;
    const id = `${resource}|${Reflector.keyOf(o)}`;
    const uid = o.metadata.uid ?? '';
    if (ev.type === 'DELETED') {
      if (this.uidIndex.get(uid) === id) this.uidIndex.delete(uid);
      for (const r of refsOf(o)) {
        this.dependents.get(r.uid)?.delete(id);
        if (this.dependents.get(r.uid)?.size === 0) this.dependents.delete(r.uid);
        this.enqueueIfDeletingDependents(r.uid, ctx);
      }
      this.absentOwners.delete(uid);
      // Its dependents may now be dangling.
      for (const d of this.dependents.get(uid) ?? []) this.queue.add(DELETE + d, ctx.now);
      return;
    }
    this.uidIndex.set(uid, id);
    const before = refsOf(ev.old);
    const after = refsOf(o);
    for (const r of before) {
      const still = refWithUid(after, r.uid);
      if (!still) {
        this.dependents.get(r.uid)?.delete(id);
        if (this.dependents.get(r.uid)?.size === 0) this.dependents.delete(r.uid);
      }
      // A dependent that stopped blocking (or stopped referencing) an owner being deleted in the foreground.
      if (!still || (r.blockOwnerDeletion && !still.blockOwnerDeletion)) this.enqueueIfDeletingDependents(r.uid, ctx);
    }
    for (const r of after) {
      let s = this.dependents.get(r.uid);
      if (!s) this.dependents.set(r.uid, (s = new Set()));
      s.add(id);
    }
    if (deletingDependents(o)) {
      this.queue.add(DELETE + id, ctx.now);
      for (const d of this.dependents.get(uid) ?? []) this.queue.add(DELETE + d, ctx.now);
    }
    if (orphaning(o)) this.queue.add(ORPHAN + id, ctx.now);
    // An owner the graph does not know: maybe gone (the virtual node of upstream's graph builder).
    if (this.anyOwnerUnknownOrDeleting(after, ctx)) this.queue.add(DELETE + id, ctx.now);
  }

  /** after.some(unknown) || after.some(deleting dependents), in that order (every event of every object with owners asks). */
  private anyOwnerUnknownOrDeleting(refs: readonly OwnerReference[], ctx: ControllerContext): boolean {
    for (let i = 0; i < refs.length; i++) if (!this.uidIndex.has(refs[i]!.uid)) return true;
    for (let i = 0; i < refs.length; i++) if (this.isDeletingDependents(refs[i]!.uid, ctx)) return true;
    return false;
  }

  private isDeletingDependents(uid: string, ctx: ControllerContext): boolean {
    const owner = this.objectByUid(uid, ctx);
    return !!owner && deletingDependents(owner);
  }

  private enqueueIfDeletingDependents(uid: string, ctx: ControllerContext): void {
    const id = this.uidIndex.get(uid);
    if (id && this.isDeletingDependents(uid, ctx)) this.queue.add(DELETE + id, ctx.now);
  }

  private objectById(id: string, ctx: ControllerContext): KObject | undefined {
    const bar = id.indexOf('|');
    return ctx.store(id.slice(0, bar)).get(id.slice(bar + 1));
  }

  private objectByUid(uid: string, ctx: ControllerContext): KObject | undefined {
    const id = this.uidIndex.get(uid);
    return id ? this.objectById(id, ctx) : undefined;
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (key.startsWith(DELETE)) return this.attemptToDeleteItem(key.slice(DELETE.length), ctx);
    if (key.startsWith(ORPHAN)) return this.attemptToOrphan(key.slice(ORPHAN.length), ctx);
    return { type: 'done' };
  }

  private attemptToDeleteItem(id: string, ctx: ControllerContext): SyncResult {
    if (this.inFlight.has(id)) return { type: 'done' };
    const obj = this.objectById(id, ctx);
    if (!obj) return { type: 'done' };
    if (obj.metadata.deletionTimestamp) {
      if (!deletingDependents(obj)) return { type: 'done' };
      return this.processDeletingDependentsItem(id, obj, ctx);
    }
    const refs = refsOf(obj);
    if (refs.length === 0) return { type: 'done' };
    // classifyReferences
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    let pending = false;
    for (const r of refs) {
      const owner = this.objectByUid(r.uid, ctx);
      if (owner) {
        if (deletingDependents(owner)) waiting.push(r);
        else solid.push(r);
        continue;
      }
      if (this.absentOwners.has(r.uid)) {
        dangling.push(r);
        continue;
      }
      const res = resourceForKind(r.apiVersion, r.kind);
      if (!res) {
        // A kind we cannot look up: treated as present (never delete on a guess).
        solid.push(r);
        continue;
      }
      pending = true;
      this.lookup(r, res, obj.metadata.namespace, id, ctx);
    }
    if (pending) return { type: 'done' };

    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return { type: 'done' };
      // Keep the live owners; drop the gone ones and those waiting for their dependents.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      const keep = refs.filter((r) => !drop.has(r.uid));
      this.inFlight.add(id);
      ctx.request({ method: 'PATCH', path: this.pathOf(id, obj), body: { metadata: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion, ownerReferences: keep } } }, { op: 'patchRefs', item: id } satisfies Tag);
      this.note(ctx, id, `removed owner references ${[...drop].join(', ')}`);
      return { type: 'done' };
    }
    if (waiting.length > 0 && (this.dependents.get(obj.metadata.uid ?? '')?.size ?? 0) > 0) {
      // An owner waits for its dependents and this item has dependents of its own: delete it in the foreground too.
      this.deleteObject(id, obj, 'Foreground', ctx);
      return { type: 'done' };
    }
    const fin = obj.metadata.finalizers ?? [];
    const policy = fin.includes(FINALIZER_ORPHAN) ? 'Orphan' : fin.includes(FINALIZER_DELETE_DEPENDENTS) ? 'Foreground' : 'Background';
    this.deleteObject(id, obj, policy, ctx);
    return { type: 'done' };
  }

  /** processDeletingDependentsItem: the finalizer goes once no blocking dependent remains. */
  private processDeletingDependentsItem(id: string, obj: KObject, ctx: ControllerContext): SyncResult {
    const uid = obj.metadata.uid ?? '';
    const blocking: string[] = [];
    for (const d of this.dependents.get(uid) ?? []) {
      const dep = this.objectById(d, ctx);
      if (dep && refsOf(dep).some((r) => r.uid === uid && r.blockOwnerDeletion)) blocking.push(d);
    }
    if (blocking.length === 0) {
      this.removeFinalizer(id, obj, FINALIZER_DELETE_DEPENDENTS, ctx);
      return { type: 'done' };
    }
    for (const d of blocking) {
      const dep = this.objectById(d, ctx);
      if (dep && !dep.metadata.deletionTimestamp) this.queue.add(DELETE + d, ctx.now);
    }
    return { type: 'done' };
  }

  /** attemptToOrphan: drop the owner's reference from every dependent, then its orphan finalizer. */
  private attemptToOrphan(id: string, ctx: ControllerContext): SyncResult {
    const owner = this.objectById(id, ctx);
    if (!owner || !orphaning(owner)) return { type: 'done' };
    const uid = owner.metadata.uid ?? '';
    const done = this.orphaned.get(uid) ?? new Set<string>();
    this.orphaned.set(uid, done);
    let remaining = 0;
    for (const d of this.dependents.get(uid) ?? []) {
      const dep = this.objectById(d, ctx);
      if (!dep || !refsOf(dep).some((r) => r.uid === uid) || done.has(d)) continue;
      remaining++;
      if (this.inFlight.has(d)) continue;
      this.inFlight.add(d);
      const keep = refsOf(dep).filter((r) => r.uid !== uid);
      ctx.request({ method: 'PATCH', path: this.pathOf(d, dep), body: { metadata: { uid: dep.metadata.uid, resourceVersion: dep.metadata.resourceVersion, ownerReferences: keep } } }, { op: 'orphanDep', owner: id, ownerUid: uid, dep: d } satisfies Tag);
    }
    if (remaining === 0) {
      this.orphaned.delete(uid);
      this.removeFinalizer(id, owner, FINALIZER_ORPHAN, ctx);
      this.note(ctx, id, 'orphaned its dependents');
    }
    return { type: 'done' };
  }

  private lookup(r: OwnerReference, res: NonNullable<ReturnType<typeof resourceForKind>>, namespace: string | undefined, item: string, ctx: ControllerContext): void {
    const waiting = this.lookups.get(r.uid);
    if (waiting) {
      if (!waiting.includes(item)) waiting.push(item);
      return;
    }
    this.lookups.set(r.uid, [item]);
    ctx.request({ method: 'GET', path: objectPath(res, namespace, r.name) }, { op: 'lookup', uid: r.uid } satisfies Tag);
  }

  private deleteObject(id: string, obj: KObject, policy: 'Orphan' | 'Foreground' | 'Background', ctx: ControllerContext): void {
    this.inFlight.add(id);
    ctx.request(
      { method: 'DELETE', path: this.pathOf(id, obj), body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: policy, preconditions: { uid: obj.metadata.uid } } },
      { op: 'delete', item: id } satisfies Tag,
    );
    this.note(ctx, id, `deleted (${policy}): owners gone`);
  }

  private removeFinalizer(id: string, obj: KObject, finalizer: string, ctx: ControllerContext): void {
    if (this.inFlight.has(id)) return;
    this.inFlight.add(id);
    const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    ctx.request({ method: 'PATCH', path: this.pathOf(id, obj), body: { metadata: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion, finalizers } } }, { op: 'finalizer', item: id } satisfies Tag);
    this.note(ctx, id, `removed finalizer ${finalizer}`);
  }

  private pathOf(id: string, obj: KObject): string {
    const res = resourceForInformer(id.slice(0, id.indexOf('|')))!;
    return objectPath(res, obj.metadata.namespace, obj.metadata.name!);
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    const ok = status >= 200 && status < 300;
    switch (t.op) {
      case 'lookup': {
        const items = this.lookups.get(t.uid) ?? [];
        this.lookups.delete(t.uid);
        let absent = status === 404;
        if (status === 200) {
          try {
            absent = (JSON.parse(body) as KObject).metadata.uid !== t.uid;
          } catch {
            absent = false;
          }
        }
        if (absent) {
          this.absentOwners.add(t.uid);
          if (this.absentOwners.size > ABSENT_CACHE) this.absentOwners.delete(this.absentOwners.values().next().value!);
          for (const i of items) this.queue.add(DELETE + i, ctx.now);
        } else if (status !== 200) {
          for (const i of items) this.queue.addRateLimited(DELETE + i, ctx.now);
        }
        return;
      }
      case 'delete':
        this.inFlight.delete(t.item);
        if (!ok && status !== 404 && status !== 409) this.queue.addRateLimited(DELETE + t.item, ctx.now);
        return;
      case 'patchRefs':
      case 'finalizer':
        this.inFlight.delete(t.item);
        if (!ok && status !== 404) this.queue.addRateLimited(DELETE + t.item, ctx.now);
        return;
      case 'orphanDep': {
        this.inFlight.delete(t.dep);
        if (ok || status === 404) this.orphaned.get(t.ownerUid)?.add(t.dep);
        this.queue[ok || status === 404 ? 'add' : 'addRateLimited'](ORPHAN + t.owner, ctx.now);
        return;
      }
      default:
        assertNever(t, 'tag');
    }
  }

  private note(ctx: ControllerContext, key: string, what: string): void {
    this.recent.push({ t: ctx.now, key, what });
    if (this.recent.length > RECENT) this.recent.splice(0, this.recent.length - RECENT);
  }
}

registerClass('GarbageCollector', GarbageCollector);
