// A StatefulSet on the whole control plane with real kubelets: ordinals come
// up one at a time, a template change rolls out from the highest ordinal down
// to the partition, ControllerRevisions record each template.
import { describe, expect, it } from 'vitest';
import { call, controlPlane, watch } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const STS = '/apis/apps/v1/namespaces/default/statefulsets';
const sts = (e: Engine) => call(e, 'GET', `${STS}/web`).body;
const pods = (e: Engine) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=web' } }).body.items ?? []) as any[];
const ready = (p: any) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True') && !p.metadata.deletionTimestamp;
const imageOf = (p: any) => p.spec.containers[0].image as string;

describe('statefulset-controller with kubelets', () => {
  it('OrderedReady: web-N is created only once web-(N-1) is Running and Ready; a partitioned rolling update goes 2, 1 and stops', { timeout: 60_000 }, () => {
    const e = controlPlane(21, { nodes: 2, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 2, 'two Ready nodes', 60_000, 500);
    const w = watch(e, '/api/v1/namespaces/default/pods');
    const body = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: { replicas: 3, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
    };
    expect(call(e, 'POST', STS, body).status).toBe(201);
    runUntil(e, () => pods(e).filter(ready).length === 3, 'three ready pods', 60_000, 200);
    // Every creation came after the previous ordinal was ready (the watch saw each state in order).
    const readySeen = new Set<string>();
    for (const ev of w.read()) {
      const p = ev.object;
      if (ev.type === 'ADDED') {
        const ord = Number(p.metadata.name.split('-')[1]);
        for (let i = 0; i < ord; i++) expect(readySeen.has(`web-${i}`), `web-${ord} created before web-${i} was ready`).toBe(true);
      }
      if (ready(p)) readySeen.add(p.metadata.name);
    }
    const s = sts(e).status;
    expect(s).toMatchObject({ observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, collisionCount: 0 });
    expect(s.currentRevision).toBe(s.updateRevision);
    expect(s.currentRevision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    for (const p of pods(e)) {
      expect(p.metadata.labels['controller-revision-hash']).toBe(s.currentRevision);
      expect(p.spec.hostname).toBe(p.metadata.name);
      expect(p.spec.subdomain).toBe('web');
    }
    const rev1 = s.currentRevision;

    // New image, partition 1: web-2 then web-1 move to the new revision; web-0 stays.
    const patch = { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } };
    expect(call(e, 'PATCH', `${STS}/web`, patch, { headers: { 'content-type': 'application/strategic-merge-patch+json' } }).status).toBe(200);
    const deletedOrder: string[] = [];
    runUntil(e, () => {
      for (const ev of w.read().splice(0)) if (ev.type === 'MODIFIED' && ev.object.metadata.deletionTimestamp && !deletedOrder.includes(ev.object.metadata.name)) deletedOrder.push(ev.object.metadata.name);
      const st = sts(e).status;
      return st.updatedReplicas === 2 && st.readyReplicas === 3;
    }, 'partitioned roll out', 90_000, 200);
    expect(deletedOrder).toEqual(['web-2', 'web-1']);
    const byName = Object.fromEntries(pods(e).map((p) => [p.metadata.name, imageOf(p)]));
    expect(byName).toEqual({ 'web-0': 'nginx:1.27', 'web-1': 'nginx:1.28', 'web-2': 'nginx:1.28' });
    const st = sts(e).status;
    expect(st.currentRevision).toBe(rev1);
    expect(st.updateRevision).not.toBe(rev1);
    expect(st.currentReplicas).toBe(1);
    const revs = call(e, 'GET', '/apis/apps/v1/namespaces/default/controllerrevisions').body.items as any[];
    expect(revs.map((r) => [r.metadata.name, r.revision]).sort()).toEqual([[rev1, 1], [st.updateRevision, 2]].sort());

    // Partition 0: web-0 follows, and the update revision becomes current.
    call(e, 'PATCH', `${STS}/web`, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    runUntil(e, () => sts(e).status.currentRevision === st.updateRevision && sts(e).status.readyReplicas === 3, 'complete roll out', 90_000, 200);
    expect(pods(e).map(imageOf)).toEqual(['nginx:1.28', 'nginx:1.28', 'nginx:1.28']);
    const events = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.involvedObject.kind === 'StatefulSet');
    expect(events.every((x) => x.source.component === 'statefulset-controller')).toBe(true);
    expect(events.map((x) => x.message)).toEqual(expect.arrayContaining(['create Pod web-0 in StatefulSet web successful', 'delete Pod web-2 in StatefulSet web successful', 'delete Pod web-0 in StatefulSet web successful']));
  });

  it('creates one claim per ordinal from volumeClaimTemplates and waits with the pod Pending until they bind', { timeout: 30_000 }, () => {
    const e = controlPlane(22, { etcdMembers: 1 });
    const body = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 2,
        serviceName: 'db',
        podManagementPolicy: 'Parallel',
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'pg', image: 'postgres:17', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    };
    const created = call(e, 'POST', STS, body);
    expect(created.status).toBe(201);
    const claims = () => (call(e, 'GET', '/api/v1/namespaces/default/persistentvolumeclaims').body.items ?? []) as any[];
    runUntil(e, () => claims().length === 2 && call(e, 'GET', '/api/v1/namespaces/default/pods').body.items.length === 2, 'two claims and two pods', 20_000);
    expect(claims().map((c) => c.metadata.name).sort()).toEqual(['data-db-0', 'data-db-1']);
    for (const c of claims()) expect(c.metadata.labels).toEqual({ app: 'db' });
    const p = call(e, 'GET', '/api/v1/namespaces/default/pods/db-0').body;
    expect(p.spec.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } });
    // whenDeleted: Delete: the claims get the set as controller (the garbage collector removes them with it).
    runUntil(e, () => claims().every((c) => (c.metadata.ownerReferences ?? []).some((r: any) => r.uid === created.body.metadata.uid)), 'claims owned by the set', 20_000);
    expect(claims()[0].metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: created.body.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  });
});
