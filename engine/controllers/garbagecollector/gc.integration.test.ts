// The garbage collector on the whole control plane: a ReplicaSet's pods
// (created by the replicaset-controller) follow it on deletion — background,
// foreground (the ReplicaSet waits for them) and orphan (they stay, unowned).
import { describe, it, expect } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const RS = '/apis/apps/v1/namespaces/default/replicasets';

function makeRs(e: Engine, name: string): string {
  const rs = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
  };
  const r = call(e, 'POST', RS, rs);
  expect(r.status).toBe(201);
  const uid = r.body.metadata.uid as string;
  runUntil(e, () => podsOf(e, name).filter((p) => p.metadata.ownerReferences?.some((o: any) => o.uid === uid)).length === 2, `2 pods of ${name}`);
  return uid;
}

function podsOf(e: Engine, app: string): any[] {
  return (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: `app=${app}` } }).body.items as any[]).filter((p) => !p.metadata.deletionTimestamp);
}

describe('generic-garbage-collector in the control plane', () => {
  it('background: deleting a ReplicaSet deletes its pods', () => {
    const e = controlPlane(11);
    makeRs(e, 'bg');
    expect(call(e, 'DELETE', `${RS}/bg`).status).toBe(200);
    runUntil(e, () => podsOf(e, 'bg').length === 0, 'pods collected', 30_000);
  });

  it('foreground: the ReplicaSet stays with its finalizer until its pods are gone', () => {
    const e = controlPlane(12);
    makeRs(e, 'fg');
    expect(call(e, 'DELETE', `${RS}/fg`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' }).status).toBe(200);
    const r = call(e, 'GET', `${RS}/fg`);
    expect(r.status).toBe(200);
    expect(r.body.metadata.finalizers).toContain('foregroundDeletion');
    runUntil(e, () => call(e, 'GET', `${RS}/fg`).status === 404, 'ReplicaSet gone', 30_000);
    expect(podsOf(e, 'fg')).toEqual([]);
  });

  it('orphan: the pods stay, without the owner reference', () => {
    const e = controlPlane(13);
    makeRs(e, 'or');
    expect(call(e, 'DELETE', `${RS}/or`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' }).status).toBe(200);
    runUntil(e, () => call(e, 'GET', `${RS}/or`).status === 404, 'ReplicaSet gone', 30_000);
    e.advance(5_000);
    const pods = podsOf(e, 'or');
    expect(pods.length).toBe(2);
    for (const p of pods) expect(p.metadata.ownerReferences ?? []).toEqual([]);
  });
});
