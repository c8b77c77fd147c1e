import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import type { PlannedStep } from '../framework/writes';
import { controllerRevisionName, hashControllerRevision, newControllerRevision, templatePatch } from '../history/history';
import { KIND } from '../replicaset/podUtil';
import { planStatefulSet } from './control';
import { claimOwnerMatchesSetAndPod, newStatefulSetPod, parentAndOrdinal, updateClaimOwnerRefs } from './utils';

const NOW = 100_000;

function sts(spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}, image = 'nginx:1'): KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', generation: 1, resourceVersion: '5', creationTimestamp: rfc3339(0) },
    spec: {
      replicas: 3,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' }, creationTimestamp: null }, spec: { containers: [{ name: 'nginx', image }] } },
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      revisionHistoryLimit: 10,
      ...spec,
    },
    status: { replicas: 0, availableReplicas: 0, ...status },
  };
}

function revisionOf(set: KObject, revision: number): KObject {
  const cr = newControllerRevision(set, KIND.StatefulSet, { app: 'web' }, templatePatch(set), revision, 0);
  cr.metadata.uid = `uid-${cr.metadata.name}`;
  cr.metadata.creationTimestamp = rfc3339(revision * 1000);
  return cr;
}

/** A pod of the set as the API would hold it, at a phase and readiness. */
function pod(set: KObject, ordinal: number, revision: string, state: 'Pending' | 'Running' | 'Ready' | 'Failed' | 'Succeeded', extra: Partial<KObject['metadata']> = {}): KObject {
  const p = newStatefulSetPod(set, ordinal);
  p.metadata.uid = `uid-pod-${ordinal}`;
  p.metadata.labels = { ...p.metadata.labels, 'controller-revision-hash': revision };
  Object.assign(p.metadata, extra);
  const phase = state === 'Ready' ? 'Running' : state;
  p.status = { phase, conditions: [{ type: 'Ready', status: state === 'Ready' ? 'True' : 'False', lastTransitionTime: rfc3339(0) }] };
  return p;
}

const writes = (steps: PlannedStep[]) => steps.flatMap((s) => s.writes.map((w) => `${w.call.method} ${w.call.path.replace('/api/v1/namespaces/default/', '').replace('/apis/apps/v1/namespaces/default/', '')}${w.call.method === 'POST' ? ` ${(w.call.body as KObject).metadata.name}` : ''}`));

function plan(set: KObject, pods: KObject[], revisions: KObject[], claims: KObject[] = []) {
  return planStatefulSet({
    set,
    pods,
    revisions,
    claims: new Map(claims.map((c) => [`default/${c.metadata.name}`, c])),
    allRevisions: new Map(revisions.map((r) => [`default/${r.metadata.name}`, r])),
    now: NOW,
  });
}

describe('StatefulSet identities', () => {
  it('parses <set>-<ordinal> names', () => {
    expect(parentAndOrdinal('web-12')).toEqual({ parent: 'web', ordinal: 12 });
    expect(parentAndOrdinal('my-db-0')).toEqual({ parent: 'my-db', ordinal: 0 });
    expect(parentAndOrdinal('web')).toEqual({ parent: '', ordinal: -1 });
    expect(parentAndOrdinal('web-99999999999')).toEqual({ parent: 'web', ordinal: -1 });
  });

  it('pods get hostname, subdomain, the pod-name and pod-index labels and their claims', () => {
    const set = sts({ volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] });
    const p = newStatefulSetPod(set, 2);
    expect(p.metadata).toMatchObject({ name: 'web-2', generateName: 'web-', labels: { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-2', 'apps.kubernetes.io/pod-index': '2' } });
    expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }]);
    expect((p.spec as any).hostname).toBe('web-2');
    expect((p.spec as any).subdomain).toBe('web');
    expect((p.spec as any).volumes).toEqual([{ name: 'www', persistentVolumeClaim: { claimName: 'www-web-2' } }]);
  });
});

describe('StatefulSet control loop', () => {
  it('creates the first revision, then web-0 only (OrderedReady)', () => {
    const set = sts();
    const r = plan(set, [], []);
    const name = controllerRevisionName('web', hashControllerRevision(templatePatch(set), 0));
    expect(writes(r.steps)).toEqual([`POST controllerrevisions ${name}`, 'POST pods web-0', 'PUT statefulsets/web/status']);
    const cr = r.steps[0]!.writes[0]!.call.body as any;
    expect(cr.revision).toBe(1);
    expect(cr.metadata.labels).toEqual({ app: 'web', 'controller.kubernetes.io/hash': name.slice(4) });
    expect(cr.data.spec.template.$patch).toBe('replace');
    const p = r.steps[1]!.writes[0]!;
    expect((p.call.body as KObject).metadata.labels!['controller-revision-hash']).toBe(name);
    expect(p.ok?.message).toBe('create Pod web-0 in StatefulSet web successful');
    expect(r.status).toMatchObject({ observedGeneration: 1, replicas: 0, currentRevision: name, updateRevision: name, collisionCount: 0, availableReplicas: 0 });
  });

  it('a revision name taken by other data bumps collisionCount; the hash label stays the first hash (history CreateControllerRevision)', () => {
    const set = sts();
    const h0 = hashControllerRevision(templatePatch(set), 0);
    const h1 = hashControllerRevision(templatePatch(set), 1);
    const other = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: `web-${h0}`, namespace: 'default', uid: 'x', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'other', uid: 'u-other', controller: true }] }, data: { other: true }, revision: 1 } as KObject;
    const r = planStatefulSet({ set, pods: [], revisions: [], claims: new Map(), allRevisions: new Map([[`default/web-${h0}`, other]]), now: NOW });
    const cr = r.steps[0]!.writes[0]!.call.body as any;
    expect(cr.metadata.name).toBe(`web-${h1}`);
    expect(cr.metadata.labels['controller.kubernetes.io/hash']).toBe(h0);
    expect(r.status).toMatchObject({ collisionCount: 1, updateRevision: `web-${h1}` });
  });

  it('waits for each ordinal to be Running and Ready before the next', () => {
    const set = sts();
    const cr = revisionOf(set, 1);
    const rev = cr.metadata.name!;
    expect(writes(plan(set, [pod(set, 0, rev, 'Running')], [cr]).steps)).toEqual(['PUT statefulsets/web/status']);
    expect(writes(plan(set, [pod(set, 0, rev, 'Ready')], [cr]).steps)).toEqual(['POST pods web-1', 'PUT statefulsets/web/status']);
    const r = plan(set, [pod(set, 0, rev, 'Ready'), pod(set, 1, rev, 'Ready'), pod(set, 2, rev, 'Ready')], [cr]);
    expect(r.status).toMatchObject({ replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3 });
  });

  it('Parallel creates every missing ordinal in slow-start batches', () => {
    const set = sts({ replicas: 5, podManagementPolicy: 'Parallel' });
    const cr = revisionOf(set, 1);
    const r = plan(set, [], [cr]);
    expect(r.steps.map((s) => s.writes.map((w) => (w.call.body as KObject | undefined)?.metadata?.name ?? w.call.path.split('/').pop()))).toEqual([['web-0'], ['web-1', 'web-2'], ['web-3', 'web-4'], ['web']]);
  });

  it('scales down from the highest ordinal, one at a time, once the rest are healthy', () => {
    const set = sts({ replicas: 1 });
    const cr = revisionOf(set, 1);
    const rev = cr.metadata.name!;
    const pods = [0, 1, 2].map((i) => pod(set, i, rev, 'Ready'));
    const r = plan(set, pods, [cr]);
    expect(writes(r.steps)).toEqual(['DELETE pods/web-2', 'PUT statefulsets/web/status']);
    expect(r.steps[0]!.writes[0]!.ok?.message).toBe('delete Pod web-2 in StatefulSet web successful');
    // web-2 terminating: web-1 waits.
    pods[2]!.metadata.deletionTimestamp = rfc3339(NOW);
    expect(writes(plan(set, pods, [cr]).steps)).toEqual(['PUT statefulsets/web/status']);
  });

  it('rolls out in reverse ordinal order down to the partition', () => {
    const old = sts();
    const cur = revisionOf(old, 1);
    const set = sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, { currentRevision: cur.metadata.name, updateRevision: cur.metadata.name, replicas: 3, currentReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 }, 'nginx:2');
    set.metadata.generation = 2;
    const upd = revisionOf(set, 2);
    const pods = [0, 1, 2].map((i) => pod(old, i, cur.metadata.name!, 'Ready'));
    // The update revision exists: the highest ordinal goes first.
    let r = plan(set, pods, [cur, upd]);
    expect(writes(r.steps)).toEqual(['DELETE pods/web-2', 'PUT statefulsets/web/status']);
    expect(r.status).toMatchObject({ currentRevision: cur.metadata.name, updateRevision: upd.metadata.name, currentReplicas: 2 });
    // web-2 gone: recreated at the update revision with the new image.
    r = plan(set, pods.slice(0, 2), [cur, upd]);
    const created = r.steps[0]!.writes[0]!.call.body as any;
    expect(created.metadata.name).toBe('web-2');
    expect(created.metadata.labels['controller-revision-hash']).toBe(upd.metadata.name);
    expect(created.spec.containers[0].image).toBe('nginx:2');
    // web-2 updated and ready: web-1 is next; web-0 is below the partition and stays.
    const web2 = pod(set, 2, upd.metadata.name!, 'Ready');
    expect(writes(plan(set, [pods[0]!, pods[1]!, web2], [cur, upd]).steps)).toEqual(['DELETE pods/web-1', 'PUT statefulsets/web/status']);
    const web1 = pod(set, 1, upd.metadata.name!, 'Ready');
    r = plan(set, [pods[0]!, web1, web2], [cur, upd]);
    expect(writes(r.steps)).toEqual(['PUT statefulsets/web/status']);
    expect(r.status).toMatchObject({ updatedReplicas: 2, currentReplicas: 1 });
    // A recreated web-0 (below the partition) stays at the current revision.
    r = plan(set, [web1, web2], [cur, upd]);
    const web0 = r.steps[0]!.writes[0]!.call.body as any;
    expect(web0.metadata.labels['controller-revision-hash']).toBe(cur.metadata.name);
    expect(web0.spec.containers[0].image).toBe('nginx:1');
  });

  it('OnDelete leaves old pods; a deleted one comes back at the update revision', () => {
    const old = sts();
    const cur = revisionOf(old, 1);
    const set = sts({ updateStrategy: { type: 'OnDelete' } }, { currentRevision: cur.metadata.name }, 'nginx:2');
    const upd = revisionOf(set, 2);
    const pods = [0, 1, 2].map((i) => pod(old, i, cur.metadata.name!, 'Ready'));
    expect(writes(plan(set, pods, [cur, upd]).steps)).toEqual(['PUT statefulsets/web/status']);
    const r = plan(set, [pods[0]!, pods[2]!], [cur, upd]);
    const web1 = r.steps[0]!.writes[0]!.call.body as any;
    expect(web1.metadata.name).toBe('web-1');
    expect(web1.metadata.labels['controller-revision-hash']).toBe(upd.metadata.name);
  });

  it('a rollback to an earlier template renumbers that revision instead of creating one', () => {
    const v1 = sts();
    const r1 = revisionOf(v1, 1);
    const r2 = revisionOf(sts({}, {}, 'nginx:2'), 2);
    const r = plan(v1, [], [r1, r2]);
    expect(writes(r.steps)[0]).toBe(`PUT controllerrevisions/${r1.metadata.name}`);
    expect((r.steps[0]!.writes[0]!.call.body as any).revision).toBe(3);
  });

  it('a failed pod is deleted and its ordinal recreated only once it is gone', () => {
    const set = sts();
    const cr = revisionOf(set, 1);
    const rev = cr.metadata.name!;
    const pods = [pod(set, 0, rev, 'Failed'), pod(set, 1, rev, 'Ready')];
    expect(writes(plan(set, pods, [cr]).steps)).toEqual(['DELETE pods/web-0', 'PUT statefulsets/web/status']);
    pods[0]!.metadata.deletionTimestamp = rfc3339(NOW);
    expect(writes(plan(set, pods, [cr]).steps)).toEqual(['PUT statefulsets/web/status']);
    expect(writes(plan(set, pods.slice(1), [cr]).steps)).toEqual(['POST pods web-0', 'PUT statefulsets/web/status']);
  });

  it('never creates a second pod for an ordinal whose pod is terminating', () => {
    const set = sts({ podManagementPolicy: 'Parallel' });
    const cr = revisionOf(set, 1);
    const rev = cr.metadata.name!;
    const pods = [0, 1, 2].map((i) => pod(set, i, rev, 'Ready'));
    pods[1]!.metadata.deletionTimestamp = rfc3339(NOW);
    expect(writes(plan(set, pods, [cr]).steps).filter((w) => w.startsWith('POST pods'))).toEqual([]);
  });

  it('creates the claims <template>-<set>-<ordinal> before the pod, labelled with matchLabels', () => {
    const set = sts({ volumeClaimTemplates: [{ metadata: { name: 'www', creationTimestamp: null }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } }] });
    const cr = revisionOf(set, 1);
    const r = plan(set, [], [cr]);
    expect(writes(r.steps)).toEqual(['POST persistentvolumeclaims www-web-0', 'POST pods web-0', 'PUT statefulsets/web/status']);
    const claim = r.steps[0]!.writes[0]!;
    expect(claim.call.body).toEqual({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'www-web-0', namespace: 'default', labels: { app: 'web' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    expect(claim.ok?.message).toBe('create Claim www-web-0 Pod web-0 in StatefulSet web success');
    // An existing claim is not created again.
    const existing = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'www-web-0', namespace: 'default', uid: 'c0' } };
    expect(writes(plan(set, [], [cr], [existing]).steps)).toEqual(['POST pods web-0', 'PUT statefulsets/web/status']);
  });

  it('a claim being deleted fails the pod creation (stateful_pod_control.go createPersistentVolumeClaims); missing claims are still created', () => {
    const tpl = (name: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    const set = sts({ volumeClaimTemplates: [tpl('www'), tpl('logs')] });
    const cr = revisionOf(set, 1);
    const deleting = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'www-web-0', namespace: 'default', uid: 'c0', deletionTimestamp: rfc3339(NOW), finalizers: ['kubernetes.io/pvc-protection'] } };
    const r = plan(set, [], [cr], [deleting]);
    expect(writes(r.steps)).toEqual(['POST persistentvolumeclaims logs-web-0', 'PUT statefulsets/web/status']);
    expect(r.failed).toBe(true);
    expect(r.events.map((e) => [e.type, e.reason, e.message])).toEqual([['Warning', 'FailedCreate', 'create Pod web-0 in StatefulSet web failed error: pvc www-web-0 is being deleted']]);
    // A pending pod whose claim is being deleted: the error, without an event.
    const p0 = pod(set, 0, cr.metadata.name!, 'Pending');
    const logs = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'logs-web-0', namespace: 'default', uid: 'c1' } };
    const r2 = plan(set, [p0], [cr], [deleting, logs]);
    expect(r2.failed).toBe(true);
    expect(r2.events).toEqual([]);
  });

  it('persistentVolumeClaimRetentionPolicy puts the owner references on the claims', () => {
    const claim = (refs: any[]) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'www-web-2', namespace: 'default', ownerReferences: refs } }) as KObject;
    const set = sts({ replicas: 2, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } });
    const p2 = pod(set, 2, 'r', 'Ready');
    const setRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true };
    const podRef = { apiVersion: 'v1', kind: 'Pod', name: 'web-2', uid: 'uid-pod-2', controller: true, blockOwnerDeletion: true };
    // web-2 is beyond 2 replicas (scaled down): the claim belongs to the pod, not the set.
    expect(claimOwnerMatchesSetAndPod(claim([podRef]), set, p2)).toBe(true);
    expect(claimOwnerMatchesSetAndPod(claim([setRef]), set, p2)).toBe(false);
    const kept = sts({ replicas: 3, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    expect(claimOwnerMatchesSetAndPod(claim([setRef]), kept, p2)).toBe(true);
    expect(claimOwnerMatchesSetAndPod(claim([]), sts(), p2)).toBe(true);
  });

  it('claims get the policy owner references at pod creation and while the pod is pending; a foreign controller is a ConflictingController warning', () => {
    const tpl = { metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    const set = sts({ replicas: 1, volumeClaimTemplates: [tpl], persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    const cr = revisionOf(set, 1);
    const setRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true };
    const bare = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'www-web-0', namespace: 'default', uid: 'c0', resourceVersion: '7' } };
    // CreateStatefulPod: the pod, then its existing claim's owner references.
    let r = plan(set, [], [cr], [bare]);
    expect(writes(r.steps)).toEqual(['POST pods web-0', 'PUT persistentvolumeclaims/www-web-0', 'PUT statefulsets/web/status']);
    expect((r.steps[1]!.writes[0]!.call.body as KObject).metadata.ownerReferences).toEqual([setRef]);
    expect(r.steps[1]!.writes[0]!.fail?.prefix).toBe('update Pod web-0 in StatefulSet web failed error: could not update claim www-web-0 for delete policy ownerRefs: ');
    // createMissingPersistentVolumeClaims for a pending pod does the same.
    const p0 = pod(set, 0, cr.metadata.name!, 'Pending');
    r = plan(set, [p0], [cr], [bare]);
    expect(writes(r.steps)).toEqual(['PUT persistentvolumeclaims/www-web-0', 'PUT statefulsets/web/status']);
    // Another controller owns the claim: left alone, with a warning.
    const foreign = { ...bare, metadata: { ...bare.metadata, ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Backup', name: 'b', uid: 'u-b', controller: true }] } };
    r = plan(set, [p0], [cr], [foreign]);
    expect(writes(r.steps)).toEqual(['PUT statefulsets/web/status']);
    expect(r.events.map((e) => [e.type, e.reason, e.message])).toEqual([['Warning', 'ConflictingController', 'PersistentVolumeClaim www-web-0 has a conflicting OwnerReference that acts as a managing controller, the retention policy is ignored for this claim']]);
    // A running pod whose identity is fixed: its claims count as up to date (no retention update, no warning).
    const ready = pod(set, 0, cr.metadata.name!, 'Ready');
    delete ready.metadata.labels!['statefulset.kubernetes.io/pod-name'];
    r = plan(set, [ready], [cr], [foreign]);
    expect(writes(r.steps)).toEqual(['PUT pods/web-0', 'PUT statefulsets/web/status']);
    expect(r.events).toEqual([]);
  });

  it('the owner references set on claims name a v1 Pod and an apps/v1 StatefulSet (updateClaimOwnerRefForSetAndPod)', () => {
    const claim = (refs: any[]) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'www-web-2', namespace: 'default', ownerReferences: refs } }) as KObject;
    const policy = { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } };
    const podRef = { apiVersion: 'v1', kind: 'Pod', name: 'web-2', uid: 'uid-pod-2', controller: true, blockOwnerDeletion: true };
    const setRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true };
    // Scaled down (2 replicas): the pod owns the claim, the set's reference goes.
    const down = sts({ replicas: 2, ...policy });
    const p2 = pod(down, 2, 'r', 'Ready');
    const c1 = claim([setRef]);
    expect(updateClaimOwnerRefs(c1, down, p2)).toBe(true);
    expect(c1.metadata.ownerReferences).toEqual([podRef]);
    expect(claimOwnerMatchesSetAndPod(c1, down, p2)).toBe(true);
    // In range, and the set as a list item without apiVersion/kind: still an apps/v1 StatefulSet reference.
    const up = sts({ replicas: 3, ...policy });
    delete (up as any).apiVersion;
    delete (up as any).kind;
    const c2 = claim([podRef]);
    expect(updateClaimOwnerRefs(c2, up, p2)).toBe(true);
    expect(c2.metadata.ownerReferences).toEqual([setRef]);
    expect(claimOwnerMatchesSetAndPod(c2, up, p2)).toBe(true);
  });

  it('truncates history beyond revisionHistoryLimit, keeping revisions in use', () => {
    const revs = [1, 2, 3, 4].map((i) => revisionOf(sts({}, {}, `nginx:${i}`), i));
    const set = sts({ revisionHistoryLimit: 1, replicas: 1 }, { currentRevision: revs[3]!.metadata.name }, 'nginx:4');
    const pods = [pod(set, 0, revs[3]!.metadata.name!, 'Ready')];
    const r = plan(set, pods, revs);
    expect(writes(r.steps).filter((w) => w.startsWith('DELETE'))).toEqual([`DELETE controllerrevisions/${revs[0]!.metadata.name}`, `DELETE controllerrevisions/${revs[1]!.metadata.name}`]);
  });

  it('starts at spec.ordinals.start', () => {
    const set = sts({ replicas: 2, ordinals: { start: 5 }, podManagementPolicy: 'Parallel' });
    const cr = revisionOf(set, 1);
    expect(writes(plan(set, [], [cr]).steps)).toEqual(['POST pods web-5', 'POST pods web-6', 'PUT statefulsets/web/status']);
  });
});

describe('StatefulSet minReadySeconds', () => {
  it('a ready pod counts as available only minReadySeconds after it turned ready; OrderedReady waits for that', () => {
    const set = sts({ minReadySeconds: 30 });
    const cr = revisionOf(set, 1);
    const p0 = pod(set, 0, cr.metadata.name!, 'Ready');
    (p0.status as any).conditions[0].lastTransitionTime = rfc3339(NOW - 10_000);
    let r = plan(set, [p0], [cr]);
    expect(writes(r.steps)).toEqual(['PUT statefulsets/web/status']);
    expect(r.status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
    (p0.status as any).conditions[0].lastTransitionTime = rfc3339(NOW - 31_000);
    r = plan(set, [p0], [cr]);
    expect(writes(r.steps)).toEqual(['POST pods web-1', 'PUT statefulsets/web/status']);
    expect(r.status).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });
});
