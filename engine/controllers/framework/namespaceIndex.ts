// The informers' namespace index (cache.NamespaceIndex, which every shared
// informer carries): a lister's Pods(ns).List() reads one namespace's objects
// without walking the others.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import { registerClass } from '../../sim/serial';

function keyOf(o: KObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
}

export class NamespaceIndex {
  /** resource → namespace → key → object, each in the order the keys entered the store (as the store keeps them). */
  private readonly byResource = new Map<string, Map<string, Map<string, KObject>>>();

  /** Follows one informer event (the store has already applied it). */
  apply(resource: string, ev: ReflectorEvent): void {
    let byNs = this.byResource.get(resource);
    if (!byNs) this.byResource.set(resource, (byNs = new Map()));
    const ns = ev.object.metadata.namespace ?? '';
    let m = byNs.get(ns);
    if (ev.type === 'DELETED') {
      m?.delete(keyOf(ev.object));
      if (m && m.size === 0) byNs.delete(ns);
      return;
    }
    if (!m) byNs.set(ns, (m = new Map()));
    m.set(keyOf(ev.object), ev.object);
  }

  list(resource: string, namespace: string): KObject[] {
    const m = this.byResource.get(resource)?.get(namespace);
    return m ? [...m.values()] : [];
  }
}

registerClass('NamespaceIndex', NamespaceIndex);
