import { describe, expect, it } from 'vitest';
import { call, controlPlane, watch } from './testing/harness';

const cm = (name: string, data: Record<string, string> = { a: '1' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('kube-apiserver over etcd', () => {
  const e = controlPlane(7);

  it('serves version and discovery', () => {
    expect(call(e, 'GET', '/version').body.gitVersion).toBe('v1.32.0');
    expect(call(e, 'GET', '/api').body.versions).toEqual(['v1']);
    const core = call(e, 'GET', '/api/v1').body;
    expect(core.resources.find((r: { name: string }) => r.name === 'pods').shortNames).toEqual(['po']);
    expect(call(e, 'GET', '/apis').body.groups.map((g: { name: string }) => g.name)).toContain('apps');
  });

  it('serves aggregated discovery when asked (apidiscovery.k8s.io/v2)', () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const r = call(e, 'GET', '/apis', undefined, { headers: { accept } });
    expect(r.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(r.body.items.map((g: { metadata: { name: string } }) => g.metadata.name).slice(0, 4)).toEqual(['apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io']);
    const apps = r.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'apps');
    const deploy = apps.versions[0].resources.find((x: { resource: string }) => x.resource === 'deployments');
    expect(deploy).toMatchObject({ scope: 'Namespaced', singularResource: 'deployment', shortNames: ['deploy'], categories: ['all'] });
    expect(deploy.subresources.find((x: { subresource: string }) => x.subresource === 'scale').responseKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(call(e, 'GET', '/api', undefined, { headers: { accept } }).body.items[0].versions[0].version).toBe('v1');
  });

  it('bootstraps the system namespaces and the kubernetes service', () => {
    const ns = call(e, 'GET', '/api/v1/namespaces').body;
    expect(ns.items.map((n: { metadata: { name: string } }) => n.metadata.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(call(e, 'GET', '/api/v1/namespaces/default/services/kubernetes').body.spec.clusterIP).toBe('10.96.0.1');
  });

  it('creates, reads, conflicts on stale writes, and deletes, storing in etcd under /registry', () => {
    const created = call(e, 'POST', '/api/v1/namespaces/default/configmaps', cm('one'));
    expect(created.status).toBe(201);
    expect(created.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.metadata.creationTimestamp).toMatch(/^2025-01-01T/);
    const rv = created.body.metadata.resourceVersion;
    const kv = e.etcdView().kv.keys.find((k) => k.key === '/registry/configmaps/default/one');
    expect(kv && String(kv.modRevision)).toBe(rv);

    const again = call(e, 'POST', '/api/v1/namespaces/default/configmaps', cm('one'));
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('AlreadyExists');
    expect(again.body.message).toBe('configmaps "one" already exists');

    const upd = call(e, 'PUT', '/api/v1/namespaces/default/configmaps/one', { ...created.body, data: { a: '2' } });
    expect(upd.status).toBe(200);
    expect(Number(upd.body.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
    const stale = call(e, 'PUT', '/api/v1/namespaces/default/configmaps/one', { ...created.body, data: { a: '3' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Operation cannot be fulfilled on configmaps "one": the object has been modified; please apply your changes to the latest version and try again');

    const del = call(e, 'DELETE', '/api/v1/namespaces/default/configmaps/one');
    expect(del.status).toBe(200);
    const gone = call(e, 'GET', '/api/v1/namespaces/default/configmaps/one');
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('configmaps "one" not found');
  });

  it('lists with label selectors and pages with limit/continue', () => {
    for (let i = 0; i < 5; i++) call(e, 'POST', '/api/v1/namespaces/default/configmaps', { ...cm(`page-${i}`), metadata: { name: `page-${i}`, labels: { tier: i % 2 ? 'odd' : 'even' } } });
    const odd = call(e, 'GET', '/api/v1/namespaces/default/configmaps', undefined, { query: { labelSelector: 'tier=odd' } }).body;
    expect(odd.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual(['page-1', 'page-3']);
    const p1 = call(e, 'GET', '/api/v1/namespaces/default/configmaps', undefined, { query: { labelSelector: 'tier', limit: '2' } }).body;
    expect(p1.items).toHaveLength(2);
    expect(p1.metadata.continue).toBeTruthy();
    const p2 = call(e, 'GET', '/api/v1/namespaces/default/configmaps', undefined, { query: { labelSelector: 'tier', limit: '2', continue: p1.metadata.continue } }).body;
    const p3 = call(e, 'GET', '/api/v1/namespaces/default/configmaps', undefined, { query: { labelSelector: 'tier', limit: '2', continue: p2.metadata.continue } }).body;
    expect([...p1.items, ...p2.items, ...p3.items].map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
    const bad = call(e, 'GET', '/api/v1/namespaces/default/configmaps', undefined, { query: { labelSelector: 'a in (' } });
    expect(bad.status).toBe(400);
  });

  it('watches from a resourceVersion and sees changes in order', () => {
    const start = call(e, 'GET', '/api/v1/namespaces/default/configmaps').body.metadata.resourceVersion;
    const w = watch(e, '/api/v1/namespaces/default/configmaps', { resourceVersion: start });
    call(e, 'POST', '/api/v1/namespaces/default/configmaps', cm('watched'));
    call(e, 'DELETE', '/api/v1/namespaces/default/configmaps/watched');
    e.advance(50);
    expect(w.read().map((ev) => `${ev.type} ${ev.object.metadata.name}`)).toEqual(['ADDED watched', 'DELETED watched']);
  });

  it('answers 401 for a bad token and 403 with upstream text for an unprivileged user', () => {
    expect(call(e, 'GET', '/api/v1/pods', undefined, { token: 'nope' }).status).toBe(401);
    const f = call(e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, { token: 'alice-token' });
    expect(f.status).toBe(403);
    expect(f.body.message).toBe('pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "default"');
  });

  it('records every request stage by stage', () => {
    const recs = e.requests();
    const last = recs.filter((r) => r.verb === 'create' && r.resource === 'configmaps').at(-1)!;
    expect(last.stages.map((s) => s.kind)).toEqual(expect.arrayContaining(['authentication', 'authorization', 'mutating', 'validation', 'validating', 'storage']));
    expect(last.etcdKey).toMatch(/^\/registry\/configmaps\/default\//);
  });
});

describe('several kube-apiserver replicas on one etcd', () => {
  it('a write through one replica is seen by a watch on another; bootstrap runs once', () => {
    const e = controlPlane(9, { apiServers: 2 });
    const w = (() => {
      const r = e.exec({ type: 'api', client: 'kubectl-0', request: { method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: { watch: 'true', resourceVersion: '0' }, headers: { authorization: 'Bearer kubeglass-admin-token' } } });
      return r.ok ? (r.result as number) : -1;
    })();
    // kubectl-0 talks to kube-apiserver-0; write through kube-apiserver-1 with a second client.
    e.sim.spawn('kubectl-1', 'api-client', { server: 'kube-apiserver-1', timeoutMs: 60_000 });
    const r = e.exec({ type: 'api', client: 'kubectl-1', request: { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: { authorization: 'Bearer kubeglass-admin-token', 'content-type': 'application/json' }, body: JSON.stringify(cm('via-replica-1')) } });
    expect(r.ok).toBe(true);
    e.advance(200);
    expect(e.apiCall(r.ok ? (r.result as number) : -1, 'kubectl-1')?.response?.status).toBe(201);
    const lines = e.apiDrain(w).lines.join('');
    expect(lines).toContain('"via-replica-1"');
    const ns = call(e, 'GET', '/api/v1/namespaces').body.items.map((n: { metadata: { name: string } }) => n.metadata.name);
    expect(ns.filter((n: string) => n === 'default')).toHaveLength(1);
    expect(e.requests().length).toBeGreaterThan(0);
  });
});

describe('determinism and snapshots with the control plane', () => {
  const script = (e: ReturnType<typeof controlPlane>) => {
    for (let i = 0; i < 5; i++) e.exec({ type: 'api', request: { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: { authorization: 'Bearer kubeglass-admin-token', 'content-type': 'application/json' }, body: JSON.stringify(cm(`snap-${i}`)) } });
  };

  it('same seed, same commands: same trace digest', () => {
    const a = controlPlane(13);
    const b = controlPlane(13);
    script(a);
    script(b);
    a.advance(2000);
    b.advance(2000);
    expect(a.state().traceDigest).toBe(b.state().traceDigest);
  });

  it('a clone taken with requests and watches in flight continues identically', () => {
    const e = controlPlane(17);
    e.exec({ type: 'api', request: { method: 'GET', path: '/api/v1/configmaps', query: { watch: 'true' }, headers: { authorization: 'Bearer kubeglass-admin-token' } } });
    script(e);
    e.advance(1); // mid-flight
    const c = e.clone();
    for (const x of [e, c]) {
      x.exec({ type: 'api', request: { method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/snap-0', query: {}, headers: { authorization: 'Bearer kubeglass-admin-token' } } });
      x.advance(3000);
    }
    expect(c.state().traceDigest).toBe(e.state().traceDigest);
    expect(c.requests().map((r) => [r.id, r.code])).toEqual(e.requests().map((r) => [r.id, r.code]));
  });
});

describe('max-requests-inflight', () => {
  it('answers 429 with Retry-After once the in-flight limit is reached, and serves again after', () => {
    const e = controlPlane(19, { maxRequestsInflight: 2, maxMutatingRequestsInflight: 1 });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = e.exec({ type: 'api', request: { method: 'GET', path: '/api/v1/namespaces', query: {}, headers: { authorization: 'Bearer kubeglass-admin-token' } } });
      ids.push(r.ok ? (r.result as number) : -1);
    }
    e.advance(100);
    const codes = ids.map((id) => e.apiCall(id)?.response?.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    const limited = ids.map((id) => e.apiCall(id)!.response!).filter((r) => r.status === 429);
    expect(limited).toHaveLength(2);
    expect(limited[0]!.headers['retry-after']).toBe('1');
    expect(JSON.parse(limited[0]!.body)).toMatchObject({ reason: 'TooManyRequests', message: 'Too many requests, please try again later.', details: { retryAfterSeconds: 1 } });
    expect(call(e, 'GET', '/api/v1/namespaces').status).toBe(200);
    const rec = e.requests().find((r) => r.code === 429)!;
    expect(rec.stages.at(-1)).toMatchObject({ kind: 'limit', name: 'max-requests-inflight', decision: 'denied' });
  });
});

describe('managedFields', () => {
  it("never records the object's identity or system fields as owned (stripmeta.go)", () => {
    const e = controlPlane(31);
    const plain = call(e, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' }, data: { a: 'b' } }, { headers: { 'user-agent': 'kubectl-create/v1.32.4 (linux/amd64)' } });
    expect(plain.status).toBe(201);
    expect(plain.body.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'kubectl-create', operation: 'Update', fieldsV1: { 'f:data': { 'f:a': {} } } })]);
    const labelled = call(e, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'labelled', namespace: 'default', labels: { app: 'x' }, generation: 3 }, data: { a: 'b' } });
    expect(labelled.body.metadata.managedFields[0].fieldsV1).toEqual({ 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
  });
});
