// A reflector and its store, as client-go's (tools/cache/reflector.go): list
// a resource, then watch from the list's resourceVersion; a watch that ends
// resumes from the last seen version, one answered with 410 Gone lists again.
// It is plain data embedded in a component actor, which routes the HTTP
// answers of its requests here.
import { registerClass } from '../sim/serial';
import type { KObject } from '../apimachinery/types';

export type ReflectorEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KObject; old?: KObject };

export class Reflector {
  readonly store = new Map<string, KObject>();
  rv = '';
  /** HTTP request in flight (list or watch), 0 = none. */
  reqId = 0;
  phase: 'idle' | 'listing' | 'watching' = 'idle';
  synced = false;
  /** Partial watch line carried between chunks. */
  private partial = '';

  constructor(
    /** Collection path: `/api/v1/namespaces`, `/api/v1/serviceaccounts`. */
    readonly path: string,
  ) {}

  static keyOf(o: KObject): string {
    return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!;
  }

  listRequest(): { path: string; query: Record<string, string> } {
    this.phase = 'listing';
    return { path: this.path, query: { limit: '500', resourceVersion: '' } };
  }

  watchRequest(): { path: string; query: Record<string, string> } {
    this.phase = 'watching';
    this.partial = '';
    return { path: this.path, query: { watch: 'true', resourceVersion: this.rv, allowWatchBookmarks: 'true', timeoutSeconds: String(300 + 0) } };
  }

  /** A list answer: replace the store; returns the changes it implies. */
  onList(status: number, body: string): ReflectorEvent[] | 'retry' {
    if (status !== 200) return 'retry';
    const list = JSON.parse(body) as { metadata: { resourceVersion: string }; items: KObject[] };
    const events: ReflectorEvent[] = [];
    const seen = new Set<string>();
    for (const o of list.items) {
      const k = Reflector.keyOf(o);
      seen.add(k);
      const old = this.store.get(k);
      this.store.set(k, o);
      events.push(old ? { type: 'MODIFIED', object: o, old } : { type: 'ADDED', object: o });
    }
    for (const [k, o] of [...this.store]) {
      if (!seen.has(k)) {
        this.store.delete(k);
        events.push({ type: 'DELETED', object: o });
      }
    }
    this.rv = list.metadata.resourceVersion;
    this.synced = true;
    return events;
  }

  /** Watch lines: apply them; 'relist' when the server says the version is gone. */
  onChunk(chunk: string): ReflectorEvent[] | 'relist' {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    const events: ReflectorEvent[] = [];
    for (const line of lines) {
      if (!line.trim()) continue;
      const ev = JSON.parse(line) as { type: string; object: KObject & { code?: number } };
      if (ev.type === 'ERROR') {
        if (ev.object.code === 410) return 'relist';
        continue;
      }
      this.rv = ev.object.metadata.resourceVersion ?? this.rv;
      if (ev.type === 'BOOKMARK') continue;
      const k = Reflector.keyOf(ev.object);
      const old = this.store.get(k);
      if (ev.type === 'DELETED') {
        this.store.delete(k);
        events.push({ type: 'DELETED', object: ev.object });
      } else {
        this.store.set(k, ev.object);
        events.push(old ? { type: 'MODIFIED', object: ev.object, old } : { type: 'ADDED', object: ev.object });
      }
    }
    return events;
  }

  list(): KObject[] {
    return [...this.store.values()];
  }
}

registerClass('Reflector', Reflector);
