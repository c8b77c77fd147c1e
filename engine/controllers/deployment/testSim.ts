// A tiny stand-in for the API server, the ReplicaSet controller and kubelets
// around a DeploymentController in unit tests: ReplicaSet sizes turn into
// pods at once; new pods become available one tick later (when `ready`).
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { FakeContext, keyOf } from '../framework/testing';
import { cloneState } from '../../sim/serial';
import { DeploymentController } from './controller';

export function deployment(name: string, replicas: number, image: string, spec: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '1', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      ...spec,
    },
  };
}

interface Pods {
  available: number;
  notReady: number;
}

export class DeploySim {
  readonly ctx = new FakeContext();
  c = new DeploymentController();
  readonly pods = new Map<string, Pods>();
  ready = true;
  rv = 10;
  seq = 0;

  constructor(d: KObject | null) {
    if (d) this.ctx.upsert(this.c, 'deployments', d);
  }

  /** A copy whose controller went through the snapshot format (cloneState); the world is deep-copied. */
  fork(): DeploySim {
    const s = new DeploySim(null);
    s.c = cloneState(this.c);
    for (const [r, m] of this.ctx.stores) for (const [k, v] of m) (s.ctx.store(r) as Map<string, KObject>).set(k, structuredClone(v));
    for (const [k, v] of this.pods) s.pods.set(k, { ...v });
    s.ctx.now = this.ctx.now;
    s.ctx.events.push(...structuredClone(this.ctx.events));
    s.ready = this.ready;
    s.rv = this.rv;
    s.seq = this.seq;
    return s;
  }

  get d(): KObject {
    return [...this.ctx.store('deployments').values()][0]!;
  }

  rss(): KObject[] {
    return [...this.ctx.store('replicasets').values()];
  }

  /** Edits the Deployment's spec (generation + 1). */
  update(f: (spec: any) => void): void {
    const d = structuredClone(this.d);
    f(d.spec);
    d.metadata.generation = (d.metadata.generation ?? 0) + 1;
    d.metadata.resourceVersion = String(++this.rv);
    this.ctx.upsert(this.c, 'deployments', d);
  }

  /** Runs the controller and answers its calls until it is quiet. */
  settle(): void {
    for (let i = 0; i < 50; i++) {
      this.ctx.drain(this.c);
      if (!this.ctx.calls.length) return;
      while (this.ctx.calls.length) this.answer();
    }
  }

  private answer(): void {
    const { call } = this.ctx.calls[0]!;
    const body = structuredClone(call.body) as KObject;
    if (call.method === 'POST') {
      body.metadata.uid = `uid-rs-${this.seq++}`;
      body.metadata.resourceVersion = String(++this.rv);
      body.metadata.creationTimestamp = rfc3339(this.ctx.now);
      body.metadata.generation = 1;
      body.status = { replicas: 0 };
      if (this.ctx.store('replicasets').has(keyOf(body))) return void this.ctx.respond(this.c, 409, { message: 'exists' });
      this.ctx.respond(this.c, 201, body);
      this.ctx.upsert(this.c, 'replicasets', body);
      this.pods.set(body.metadata.name!, { available: 0, notReady: 0 });
    } else if (call.method === 'PUT' && call.path.includes('/replicasets/')) {
      const cur = this.ctx.store('replicasets').get(keyOf(body));
      if (!cur || cur.metadata.resourceVersion !== body.metadata.resourceVersion) return void this.ctx.respond(this.c, 409, { message: 'conflict' });
      body.status = cur.status;
      body.metadata.resourceVersion = String(++this.rv);
      if (JSON.stringify(body.spec) !== JSON.stringify(cur.spec)) body.metadata.generation = (cur.metadata.generation ?? 0) + 1;
      this.ctx.respond(this.c, 200, body);
      this.ctx.upsert(this.c, 'replicasets', body);
    } else if (call.method === 'PUT') {
      const cur = this.d;
      if (cur.metadata.resourceVersion !== body.metadata.resourceVersion) return void this.ctx.respond(this.c, 409, { message: 'conflict' });
      const next = { ...structuredClone(cur), status: body.status, metadata: { ...cur.metadata, annotations: body.metadata.annotations, resourceVersion: String(++this.rv) } };
      this.ctx.respond(this.c, 200, next);
      this.ctx.upsert(this.c, 'deployments', next);
    } else if (call.method === 'DELETE') {
      const rs = this.ctx.store('replicasets').get(call.path.split('/').slice(-2, -1)[0] === 'replicasets' ? `default/${call.path.split('/').pop()}` : '');
      this.ctx.respond(this.c, 200, {});
      if (rs) this.ctx.remove(this.c, 'replicasets', rs);
    } else this.ctx.respond(this.c, 200, {});
  }

  /** The ReplicaSet controller and kubelets: pods follow spec.replicas; not-ready pods go first; the rest become ready. */
  kubelets(): void {
    for (const rs of this.rss()) {
      const p = this.pods.get(rs.metadata.name!) ?? { available: 0, notReady: 0 };
      const want = (rs.spec as { replicas: number }).replicas;
      if (this.ready) {
        p.available += p.notReady;
        p.notReady = 0;
      }
      let have = p.available + p.notReady;
      if (have < want) p.notReady += want - have;
      while (have > want) {
        if (p.notReady > 0) p.notReady--;
        else p.available--;
        have--;
      }
      this.pods.set(rs.metadata.name!, p);
      this.syncRSStatus(rs, p);
    }
  }

  /** Pods were created/deleted for the new sizes (none became ready yet). */
  createPods(): void {
    for (const rs of this.rss()) {
      const p = this.pods.get(rs.metadata.name!) ?? { available: 0, notReady: 0 };
      const want = (rs.spec as { replicas: number }).replicas;
      let have = p.available + p.notReady;
      if (have < want) p.notReady += want - have;
      while (have > want) {
        if (p.notReady > 0) p.notReady--;
        else p.available--;
        have--;
      }
      this.pods.set(rs.metadata.name!, p);
      this.syncRSStatus(rs, p);
    }
  }

  private syncRSStatus(rs: KObject, p: Pods): void {
    const status = { replicas: p.available + p.notReady, readyReplicas: p.available, availableReplicas: p.available, observedGeneration: rs.metadata.generation };
    if (JSON.stringify(status) === JSON.stringify(rs.status)) return;
    this.ctx.upsert(this.c, 'replicasets', { ...rs, status, metadata: { ...rs.metadata, resourceVersion: String(++this.rv) } });
  }

  totalPods(): number {
    let n = 0;
    for (const p of this.pods.values()) n += p.available + p.notReady;
    return n;
  }

  totalAvailable(): number {
    let n = 0;
    for (const p of this.pods.values()) n += p.available;
    return n;
  }
}
