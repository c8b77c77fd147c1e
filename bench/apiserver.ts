// kube-apiserver figures: requests per wall second through the whole chain
// (authn → RBAC → admission → validation → etcd Raft commit → answer), a
// 10,000-pod list, and watch fan-out of one change to 1,000 watchers.
import { performance } from 'node:perf_hooks';
import type { Engine } from '../engine/facade/engine';
import type { ApiRequest } from '../engine/apiserver/types';
import { ADMIN_TOKEN } from '../engine/apiserver/server/scenario';
import { controlPlane } from '../engine/apiserver/testing/harness';
import { liveHeapMiB } from './heap';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  goal?: number;
}

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

/** Sends requests `concurrency` at a time until `total` are answered; returns wall seconds. */
export function drive(e: Engine, total: number, concurrency: number, make: (i: number) => ApiRequest): number {
  const start = performance.now();
  let sent = 0;
  const open = new Set<number>();
  while (sent < total || open.size > 0) {
    while (open.size < concurrency && sent < total) {
      const r = e.exec({ type: 'api', request: make(sent++) });
      if (!r.ok) throw new Error(r.error);
      open.add(r.result as number);
    }
    e.advance(2);
    for (const id of [...open]) {
      const c = e.apiCall(id);
      if (c?.response || c?.error) {
        if (c.error || c.response!.status >= 300) throw new Error(`request failed: ${c.error ?? c.response!.body.slice(0, 200)}`);
        open.delete(id);
        e.apiForget(id);
      }
    }
  }
  return (performance.now() - start) / 1000;
}

export function apiserverBench(report: (f: Figure) => void): void {
  const e = controlPlane(5, { maxRequestsInflight: 10_000, maxMutatingRequestsInflight: 10_000 });
  const N = 2000;
  const createSecs = drive(e, N, 50, (i) => ({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: auth, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { k: 'v' } }) }));
  report({ name: 'apiserver: create ConfigMap (full chain, 3-member etcd)', value: N / createSecs, unit: 'requests/s' });
  const getSecs = drive(e, N, 50, (i) => ({ method: 'GET', path: `/api/v1/namespaces/default/configmaps/cm-${i}`, query: {}, headers: auth }));
  report({ name: 'apiserver: get ConfigMap (quorum read)', value: N / getSecs, unit: 'requests/s' });

  // 10,000 pods, created through the API (admission and all), then listed.
  const P = 10_000;
  const podSecs = drive(e, P, 100, (i) => ({ method: 'POST', path: '/api/v1/namespaces/default/pods', query: {}, headers: auth, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, labels: { app: `a${i % 10}` } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }) }));
  report({ name: 'apiserver: create Pod (10,000, with admission)', value: P / podSecs, unit: 'requests/s' });
  const L = 20;
  const listSecs = drive(e, L, 1, () => ({ method: 'GET', path: '/api/v1/namespaces/default/pods', query: {}, headers: auth }));
  report({ name: 'apiserver: list 10,000 pods', value: L / listSecs, unit: 'lists/s' });
  const tableSecs = drive(e, L, 1, () => ({ method: 'GET', path: '/api/v1/namespaces/default/pods', query: {}, headers: { ...auth, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
  report({ name: 'apiserver: list 10,000 pods as a Table (kubectl get)', value: L / tableSecs, unit: 'lists/s' });

  // Watch fan-out: 1,000 watchers of configmaps, one change.
  const W = 1000;
  const ids: number[] = [];
  for (let i = 0; i < W; i++) {
    const r = e.exec({ type: 'api', request: { method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: { watch: 'true', resourceVersion: '0' }, headers: auth } });
    ids.push(r.ok ? (r.result as number) : -1);
  }
  e.advance(50);
  for (const id of ids) e.apiDrain(id); // the initial ADDED events
  const start = performance.now();
  const r = e.exec({ type: 'api', request: { method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: {}, headers: auth, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fanout' } }) } });
  if (!r.ok) throw new Error(r.error);
  let delivered = 0;
  const got = new Set<number>();
  while (got.size < W && performance.now() - start < 60_000) {
    e.advance(1);
    for (const id of ids) {
      if (got.has(id)) continue;
      const { lines } = e.apiDrain(id);
      if (lines.some((l) => l.includes('"fanout"'))) {
        got.add(id);
        delivered++;
      }
    }
  }
  const fanSecs = (performance.now() - start) / 1000;
  report({ name: 'apiserver: one change to 1,000 watchers (wall)', value: fanSecs * 1000, unit: 'ms' });
  report({ name: 'apiserver: watch events delivered', value: delivered, unit: `of ${W}` });
  report({ name: 'apiserver: live heap after the run', value: liveHeapMiB(), unit: 'MiB' });
}
