// A ControllerContext for unit tests: stores you fill, the calls a controller
// made (answer them with respond), the events it recorded.
import type { KObject } from '../../apimachinery/types';
import { Rng } from '../../sim/rng';
import type { ReflectorEvent } from '../../client/reflector';
import type { ApiCall, Controller, ControllerContext, EventSpec, SyncResult } from './types';
import { podsOwnedByScan } from './podOwnerIndex';

export function keyOf(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
}

export class FakeContext implements ControllerContext {
  now = 0;
  readonly rng = new Rng(1);
  readonly stores = new Map<string, Map<string, KObject>>();
  readonly calls: { call: ApiCall; tag: unknown }[] = [];
  readonly events: EventSpec[] = [];

  store(resource: string): ReadonlyMap<string, KObject> {
    let m = this.stores.get(resource);
    if (!m) this.stores.set(resource, (m = new Map()));
    return m;
  }

  synced(): boolean {
    return true;
  }

  list(resource: string, namespace: string): KObject[] {
    return [...this.store(resource).values()].filter((o) => (o.metadata.namespace ?? '') === namespace);
  }

  podsOwnedBy(namespace: string, ownerUid: string): KObject[] {
    return podsOwnedByScan(this.store('pods'), namespace, ownerUid);
  }

  request(call: ApiCall, tag: unknown): void {
    this.calls.push({ call, tag });
  }

  event(e: EventSpec): void {
    this.events.push(e);
  }

  /** Puts an object in a store and tells the controller, as an informer would. */
  upsert(c: Controller, resource: string, o: KObject): void {
    const m = this.store(resource) as Map<string, KObject>;
    const old = m.get(keyOf(o));
    m.set(keyOf(o), o);
    const ev: ReflectorEvent = old ? { type: 'MODIFIED', object: o, old } : { type: 'ADDED', object: o };
    c.onEvent(resource, ev, this);
  }

  remove(c: Controller, resource: string, o: KObject): void {
    (this.store(resource) as Map<string, KObject>).delete(keyOf(o));
    c.onEvent(resource, { type: 'DELETED', object: o }, this);
  }

  /**
   * Runs the controller's periodic passes due now and syncs every ready key
   * of its queue, as the manager does, until nothing more is due at this instant.
   */
  drain(c: Controller): SyncResult[] {
    const out: SyncResult[] = [];
    c.queue.tick(this.now);
    for (let i = 0; i < 10_000; i++) {
      const due = (c.loops?.nextAt() ?? Infinity) <= this.now;
      if (due) c.loops!.runDue(this.now, (pass) => c.runPass!(pass, this));
      const key = c.queue.get(this.now);
      if (key === null) {
        if (due) continue;
        break;
      }
      const r = c.sync(key, this);
      c.queue.done(key, this.now);
      if (r.type === 'done') c.queue.forget(key);
      else if (r.type === 'error') c.queue.addRateLimited(key, this.now);
      else c.queue.addAfter(key, r.delayMs, this.now);
      out.push(r);
    }
    return out;
  }

  /** Answers the oldest pending call (FIFO) and returns it. */
  respond(c: Controller, status: number, body: unknown = {}): { call: ApiCall; tag: unknown } {
    const first = this.calls.shift();
    if (!first) throw new Error('no pending call');
    c.onResponse(first.tag, status, typeof body === 'string' ? body : JSON.stringify(body), this);
    return first;
  }
}
