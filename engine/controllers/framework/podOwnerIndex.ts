// The pod informer's owner index (controller.AddPodControllerUIDIndexer and
// FilterPodsByOwner, pkg/controller/controller_utils.go): pods by the UID of
// their controlling owner, orphans by namespace, so a controller's sync reads
// the pods it may own or adopt without walking every pod of the namespace.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { registerClass } from '../../sim/serial';

function keyOf(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
}

/** The index slot of a pod: its controller's UID, or the orphan slot of its namespace. */
function slotOf(pod: KObject): string {
  const ref = pod.metadata.ownerReferences?.find((r) => r.controller === true);
  return ref ? `uid:${ref.uid}` : `orphan:${pod.metadata.namespace ?? ''}`;
}

export class PodOwnerIndex {
  private readonly slots = new Map<string, Map<string, KObject>>();
  /** Each pod's slot. */
  private readonly slotByKey = new Map<string, string>();

  /** Follows one informer event (the store has already applied it). */
  apply(ev: ReflectorEvent): void {
    const key = keyOf(ev.object);
    const was = this.slotByKey.get(key);
    if (was !== undefined) {
      const m = this.slots.get(was)!;
      m.delete(key);
      if (m.size === 0) this.slots.delete(was);
    }
    if (ev.type === 'DELETED') {
      this.slotByKey.delete(key);
      return;
    }
    const slot = slotOf(ev.object);
    this.slotByKey.set(key, slot);
    let m = this.slots.get(slot);
    if (!m) this.slots.set(slot, (m = new Map()));
    m.set(key, ev.object);
  }

  /**
   * FilterPodsByOwner: pods controlled by `ownerUid`, then the orphans of
   * `namespace` (each in the order they entered the slot; upstream's order is
   * the indexer's, which promises none).
   */
  owned(namespace: string, ownerUid: string): KObject[] {
    const out: KObject[] = [];
    const mine = this.slots.get(`uid:${ownerUid}`);
    if (mine) for (const p of mine.values()) if ((p.metadata.namespace ?? '') === namespace) out.push(p);
    const orphans = this.slots.get(`orphan:${namespace}`);
    if (orphans) for (const p of orphans.values()) out.push(p);
    return out;
  }
}

/** The same pods from a plain store walk, in store order (controllers' unit tests, and the index's own test). */
export function podsOwnedByScan(pods: ReadonlyMap<string, KObject>, namespace: string, ownerUid: string): KObject[] {
  const out: KObject[] = [];
  for (const p of pods.values()) {
    if ((p.metadata.namespace ?? '') !== namespace) continue;
    const ref = p.metadata.ownerReferences?.find((r) => r.controller === true);
    if (!ref || ref.uid === ownerUid) out.push(p);
  }
  return out;
}

registerClass('PodOwnerIndex', PodOwnerIndex);
