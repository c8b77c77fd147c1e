import { describe, it, expect } from 'vitest';
import { Reflector, type ReflectorEvent, type ReflectorRequest } from './reflector';
import type { KObject } from '../apimachinery/types';
import { cloneState } from '../sim/serial';

const ns = (name: string, rv: number): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, resourceVersion: String(rv) } });

/** A list endpoint paging like the apiserver: continue tokens pin the revision; compaction expires them. */
class FakeListServer {
  objects: KObject[];
  rv: number;
  /** Continue tokens for revisions below this answer 410 Expired. */
  compactedBelow = 0;
  failNext: number | null = null;
  readonly seen: ReflectorRequest[] = [];

  constructor(n: number, rv = 1000) {
    this.rv = rv;
    this.objects = Array.from({ length: n }, (_, i) => ns(`ns-${String(i).padStart(5, '0')}`, i + 1));
  }

  serve(req: ReflectorRequest): { status: number; body: string } {
    this.seen.push(req);
    if (this.failNext !== null) {
      const status = this.failNext;
      this.failNext = null;
      return { status, body: JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: status }) };
    }
    const limit = Number(req.query.limit ?? '0');
    let start = 0;
    let rv = this.rv;
    if (req.query.continue) {
      const c = JSON.parse(req.query.continue) as { rv: number; start: number };
      if (c.rv < this.compactedBelow) {
        return { status: 410, body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'The provided continue parameter is too old' }) };
      }
      start = c.start;
      rv = c.rv;
    }
    const end = limit > 0 ? Math.min(start + limit, this.objects.length) : this.objects.length;
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (end < this.objects.length) {
      metadata.continue = JSON.stringify({ rv, start: end });
      metadata.remainingItemCount = this.objects.length - end;
    }
    return { status: 200, body: JSON.stringify({ kind: 'NamespaceList', apiVersion: 'v1', metadata, items: this.objects.slice(start, end) }) };
  }
}

/** The owner's loop of the protocol documented in reflector.ts. */
function runList(r: Reflector, server: FakeListServer): { out: ReflectorEvent[] | 'retry'; requests: number } {
  let req: ReflectorRequest | null = r.listRequest();
  let requests = 0;
  for (;;) {
    requests++;
    const res = server.serve(req);
    const out = r.onList(res.status, res.body);
    if (out === 'retry') return { out, requests };
    req = r.nextRequest();
    if (!req) return { out, requests };
  }
}

describe('Reflector list pagination', () => {
  it('a list within one page behaves as before', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(3);
    const req = r.listRequest();
    // relistResourceVersion: the first list asks for "0", which the watch cache may answer.
    expect(req).toEqual({ path: '/api/v1/namespaces', query: { limit: '500', resourceVersion: '0' } });
    const res = server.serve(req);
    const out = r.onList(res.status, res.body);
    expect(out).not.toBe('retry');
    expect((out as ReflectorEvent[]).map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
    expect(r.nextRequest()).toBeNull();
    expect(r.rv).toBe('1000');
    expect(r.synced).toBe(true);
    expect(r.paginatedResult).toBe(false);
  });

  it('follows continue until done, then replaces the store once at the first page version', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(1234);
    const first = r.listRequest();
    let res = server.serve(first);
    expect(r.onList(res.status, res.body)).toEqual([]);
    expect(r.store.size).toBe(0); // nothing applied before the list is whole
    expect(r.synced).toBe(false);
    expect(r.remainingItemCount).toBe(734);
    const second = r.nextRequest()!;
    expect(second.query.continue).toBeTruthy();
    expect(second.query.limit).toBe('500');
    expect(second.query.resourceVersion).toBeUndefined();
    expect(r.nextRequest()).toEqual(second); // pure
    server.rv = 2000; // later writes do not move the list's version
    res = server.serve(second);
    expect(r.onList(res.status, res.body)).toEqual([]);
    const third = r.nextRequest()!;
    res = server.serve(third);
    const out = r.onList(res.status, res.body) as ReflectorEvent[];
    expect(out).toHaveLength(1234);
    expect(out.every((e) => e.type === 'ADDED')).toBe(true);
    expect(r.nextRequest()).toBeNull();
    expect(r.store.size).toBe(1234);
    expect(r.rv).toBe('1000');
    expect(r.listPages).toBe(3);
    expect(r.paginatedResult).toBe(true);
    expect(r.synced).toBe(true);
  });

  it('a relist replaces the store: deletions and updates come out as events', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(1100);
    runList(r, server);
    server.objects.splice(10, 5);
    server.objects[0] = ns('ns-00000', 99999);
    server.rv = 3000;
    const { out, requests } = runList(r, server);
    expect(requests).toBe(3);
    const evs = out as ReflectorEvent[];
    expect(evs.filter((e) => e.type === 'DELETED')).toHaveLength(5);
    expect(evs.filter((e) => e.type === 'MODIFIED')).toHaveLength(1095);
    expect(r.store.size).toBe(1095);
    expect(r.store.get('ns-00000')!.metadata.resourceVersion).toBe('99999');
    expect(r.rv).toBe('3000');
  });

  it('a continue answered 410 Expired falls back to one full, unpaged list', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(1200);
    let res = server.serve(r.listRequest());
    r.onList(res.status, res.body);
    // The list's revision is compacted before the second page is asked.
    server.compactedBelow = 1500;
    server.rv = 1600;
    server.objects.push(ns('zz-late', 1600));
    res = server.serve(r.nextRequest()!);
    expect(res.status).toBe(410);
    expect(r.onList(res.status, res.body)).toEqual([]);
    const fallback = r.nextRequest()!;
    expect(fallback.query).toEqual({ resourceVersion: '' });
    res = server.serve(fallback);
    const out = r.onList(res.status, res.body) as ReflectorEvent[];
    expect(out).toHaveLength(1201);
    expect(r.nextRequest()).toBeNull();
    expect(r.store.size).toBe(1201);
    expect(r.rv).toBe('1600');
    expect(r.paginatedResult).toBe(false);
  });

  it('a 410 on the first page, or any other failure mid-list, is a retry from scratch', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(1200);
    server.failNext = 410;
    expect(runList(r, server).out).toBe('retry');
    expect(r.nextRequest()).toBeNull();

    let res = server.serve(r.listRequest());
    r.onList(res.status, res.body);
    server.failNext = 500;
    res = server.serve(r.nextRequest()!);
    expect(r.onList(res.status, res.body)).toBe('retry');
    expect(r.nextRequest()).toBeNull();
    expect(r.store.size).toBe(0);
    // The retry starts over and gets everything, without leftovers from the failed attempt.
    const { out, requests } = runList(r, server);
    expect(requests).toBe(3);
    expect((out as ReflectorEvent[]).length).toBe(1200);
    expect(r.store.size).toBe(1200);
  });

  it('listRequest mid-list drops the pages gathered so far', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(1200);
    const res = server.serve(r.listRequest());
    r.onList(res.status, res.body);
    const { out } = runList(r, server);
    expect((out as ReflectorEvent[]).length).toBe(1200);
    expect(r.listPages).toBe(3);
  });

  it('pageSize 0 asks for everything at once', () => {
    const r = new Reflector('/api/v1/namespaces');
    r.pageSize = 0;
    const server = new FakeListServer(1200);
    expect(runList(r, server).requests).toBe(1);
    expect(server.seen[0]!.query.limit).toBeUndefined();
    expect(r.store.size).toBe(1200);
  });

  it('a clone taken mid-list finishes the list identically', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(1300);
    const res = server.serve(r.listRequest());
    r.onList(res.status, res.body);
    const copy = cloneState(r);
    expect(copy).toBeInstanceOf(Reflector);
    const finish = (x: Reflector) => {
      let req = x.nextRequest();
      let out: ReflectorEvent[] | 'retry' = [];
      while (req) {
        const a = server.serve(req);
        out = x.onList(a.status, a.body);
        req = out === 'retry' ? null : x.nextRequest();
      }
      return out;
    };
    const a = finish(r);
    const b = finish(copy);
    expect(b).toEqual(a);
    expect([...copy.store.keys()]).toEqual([...r.store.keys()]);
    expect(copy.rv).toBe(r.rv);
    expect(copy.store.size).toBe(1300);
  });

  it('watching after the list still applies events', () => {
    const r = new Reflector('/api/v1/namespaces');
    const server = new FakeListServer(600);
    runList(r, server);
    const w = r.watchRequest();
    expect(w.query.resourceVersion).toBe('1000');
    const evs = r.onChunk(JSON.stringify({ type: 'DELETED', object: ns('ns-00001', 1001) }) + '\n');
    expect(evs).not.toBe('relist');
    expect(r.store.size).toBe(599);
    expect(r.rv).toBe('1001');
  });
});

describe('Reflector objects are shared and read-only', () => {
  it('informers that receive the same watch event decode it once and share the frozen object', () => {
    const a = new Reflector('/api/v1/namespaces');
    const b = new Reflector('/api/v1/namespaces');
    const c = new Reflector('/api/v1/namespaces');
    for (const r of [a, b, c]) runList(r, new FakeListServer(3));
    // One event's bytes, sent alike to the watchers; a third gets them split across two chunks.
    const line = JSON.stringify({ type: 'MODIFIED', object: { ...ns('ns-00001', 1001), metadata: { name: 'ns-00001', resourceVersion: '1001', labels: { team: 'a' } } } }) + '\n';
    const ea = a.onChunk(line) as ReflectorEvent[];
    const eb = b.onChunk(line) as ReflectorEvent[];
    expect(ea[0]!.object).toBe(eb[0]!.object);
    expect(c.onChunk(line.slice(0, 20))).toEqual([]);
    const ec = c.onChunk(line.slice(20)) as ReflectorEvent[];
    expect(ec[0]!.object).toEqual(ea[0]!.object);
    expect(Object.isFrozen(ec[0]!.object)).toBe(true);
    expect(a.store.get('ns-00001')).toBe(b.store.get('ns-00001'));
    const o = a.store.get('ns-00001')!;
    expect(Object.isFrozen(o.metadata.labels)).toBe(true);
    expect(() => {
      o.metadata.labels!.team = 'b';
    }).toThrow(TypeError);
    expect(b.store.get('ns-00001')!.metadata.labels).toEqual({ team: 'a' });
    // A different event is its own object.
    const other = a.onChunk(JSON.stringify({ type: 'MODIFIED', object: ns('ns-00001', 1002) }) + '\n') as ReflectorEvent[];
    expect(other[0]!.object).not.toBe(o);
    expect(other[0]!.old).toBe(o);
  });

  it('listed objects are frozen too', () => {
    const r = new Reflector('/api/v1/namespaces');
    runList(r, new FakeListServer(2));
    const o = r.store.get('ns-00000')!;
    expect(Object.isFrozen(o) && Object.isFrozen(o.metadata)).toBe(true);
    expect(() => {
      o.metadata.name = 'x';
    }).toThrow(TypeError);
  });
});
