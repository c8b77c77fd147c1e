// Bad input never hurts the API server: 10,000 generated requests — malformed
// JSON and YAML, alias bombs, deep nesting, wrong types, unknown fields and
// kinds, bogus selectors and resourceVersions — each get a proper answer (a
// Status for every failure, never a 500 or a crash), and what was stored
// before is still there, unchanged, afterwards.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../facade/engine';
import { RESOURCES } from './registry/resources';
import type { ApiRequest } from './types';
import { ADMIN_TOKEN } from './server/scenario';
import { call, controlPlane } from './testing/harness';

const N = 10_000;
const BATCH = 250;

const resourcePaths = RESOURCES.filter((r) => r.storagePrefix).map((r) => {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return r.namespaced ? `${base}/namespaces/default/${r.resource}` : `${base}/${r.resource}`;
});

const validConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fuzz' }, data: { a: '1' } };
const validPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fuzz' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

const aliasBomb = (depth: number) => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i <= depth; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)}]`);
  return lines.join('\n');
};

/** Replaces one random leaf of a valid object with any JSON value (wrong types, unknown shapes). */
const mutated = (base: object) =>
  fc.tuple(fc.jsonValue(), fc.array(fc.constantFrom('metadata', 'name', 'labels', 'spec', 'containers', 'data', 'kind', 'apiVersion', 'image', 'x-unknown', '0'), { minLength: 1, maxLength: 4 })).map(([v, path]) => {
    const o = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
    let cur: Record<string, unknown> = o;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i]!;
      const next = cur[k];
      if (next && typeof next === 'object') cur = next as Record<string, unknown>;
      else break;
    }
    cur[path[path.length - 1]!] = v as never;
    return JSON.stringify(o);
  });

const bodyArb = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  mutated(validConfigMap),
  mutated(validPod),
  fc.integer({ min: 1, max: 30_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.integer({ min: 1, max: 30_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.constantFrom('{', '{"apiVersion":', '[1,2', '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"},"data":{"a":1}}', '{"kind":"Nope","apiVersion":"v9"}', 'null', '""', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"}}'),
);

const yamlArb = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.integer({ min: 1, max: 8 }).map(aliasBomb),
  fc.constantFrom('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n data: x', 'a: b: c', '- [', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "ok-y"}\ndata: {a: "1"}\n'),
);

const requestArb: fc.Arbitrary<ApiRequest> = fc.oneof(
  // Creates and updates with bad bodies.
  fc.record({ path: fc.constantFrom(...resourcePaths), body: bodyArb, method: fc.constantFrom('POST', 'PUT') }).map(({ path, body, method }) => ({
    method: method as 'POST' | 'PUT',
    path: method === 'PUT' ? `${path}/fuzz` : path,
    query: {},
    headers: { 'content-type': 'application/json' },
    body,
  })),
  fc.record({ path: fc.constantFrom(...resourcePaths), body: yamlArb }).map(({ path, body }) => ({ method: 'POST' as const, path, query: {}, headers: { 'content-type': 'application/yaml' }, body })),
  // Patches of every type with bad patches.
  fc.record({ path: fc.constantFrom(...resourcePaths), body: bodyArb, ct: fc.constantFrom('application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'text/plain') }).map(
    ({ path, body, ct }) => ({ method: 'PATCH' as const, path: `${path}/existing`, query: {}, headers: { 'content-type': ct }, body }),
  ),
  // Reads with bogus selectors, resourceVersions, limits and continue tokens.
  fc
    .record({
      path: fc.constantFrom(...resourcePaths),
      labelSelector: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
      fieldSelector: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
      resourceVersion: fc.option(fc.oneof(fc.string({ maxLength: 12 }), fc.nat().map(String)), { nil: undefined }),
      limit: fc.option(fc.oneof(fc.string({ maxLength: 5 }), fc.integer({ min: -5, max: 5 }).map(String)), { nil: undefined }),
      cont: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
    })
    .map(({ path, ...q }) => {
      const query: Record<string, string> = {};
      if (q.labelSelector !== undefined) query.labelSelector = q.labelSelector;
      if (q.fieldSelector !== undefined) query.fieldSelector = q.fieldSelector;
      if (q.resourceVersion !== undefined) query.resourceVersion = q.resourceVersion;
      if (q.limit !== undefined) query.limit = q.limit;
      if (q.cont !== undefined) query.continue = q.cont;
      return { method: 'GET' as const, path, query, headers: {} };
    }),
  // Unknown paths, names and methods.
  fc.record({ p: fc.string({ maxLength: 30 }), m: fc.constantFrom('GET', 'DELETE', 'POST') }).map(({ p, m }) => ({ method: m as 'GET', path: `/api/v1/${p}`, query: {}, headers: {} })),
);

function send(e: Engine, reqs: ApiRequest[]): number[] {
  return reqs.map((r) => {
    const x = e.exec({ type: 'api', request: { ...r, headers: { ...r.headers, authorization: `Bearer ${ADMIN_TOKEN}` } } });
    if (!x.ok) throw new Error(x.error);
    return x.result as number;
  });
}

describe('bad input (fast-check, 10,000 requests)', () => {
  it('every request gets a proper answer and nothing stored is lost', () => {
    const e = controlPlane(21, { maxRequestsInflight: 100_000, maxMutatingRequestsInflight: 100_000 });
    expect(call(e, 'POST', '/api/v1/namespaces/default/configmaps', { ...validConfigMap, metadata: { name: 'existing' } }).status).toBe(201);
    const before = call(e, 'GET', '/api/v1/namespaces/default/configmaps/existing').body;

    const inputs = fc.sample(requestArb, { numRuns: N, seed: 42 });
    let answered = 0;
    const codes = new Map<number, number>();
    for (let i = 0; i < inputs.length; i += BATCH) {
      const batch = inputs.slice(i, i + BATCH);
      const ids = send(e, batch);
      for (let step = 0; step < 10_000 && ids.some((id) => !e.apiCall(id)?.response); step++) e.advance(5);
      ids.forEach((id, j) => {
        const c = e.apiCall(id);
        const req = batch[j]!;
        expect(c?.response, `no answer to ${req.method} ${req.path}`).toBeDefined();
        const res = c!.response!;
        codes.set(res.status, (codes.get(res.status) ?? 0) + 1);
        if (res.status >= 400 && res.headers['content-type'] === 'application/json') {
          const st = JSON.parse(res.body) as { kind: string; code: number; message: string };
          expect(st.kind).toBe('Status');
          expect(st.code).toBe(res.status);
          expect(typeof st.message).toBe('string');
        }
        // A 500 is a bug, except the storage limit upstream reports that way.
        if (res.status === 500) expect(res.body).toContain('request is too large');
        e.apiForget(id);
        answered++;
      });
    }
    expect(answered).toBe(N);
    // The engine is healthy and the object stored before is untouched (the fuzz PATCHes target it).
    const after = call(e, 'GET', '/api/v1/namespaces/default/configmaps/existing');
    expect(after.status).toBe(200);
    if (after.body.metadata.resourceVersion === before.metadata.resourceVersion) expect(after.body).toEqual(before);
    expect(call(e, 'GET', '/api/v1/namespaces').body.items.length).toBeGreaterThanOrEqual(4);
    // Most inputs are refused, with client errors.
    const clientErrors = [...codes].filter(([c]) => c >= 400 && c < 500).reduce((a, [, n]) => a + n, 0);
    expect(clientErrors).toBeGreaterThan(N / 2);
  }, 240_000);
});
