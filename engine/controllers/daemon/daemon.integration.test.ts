// A DaemonSet on the whole control plane with kubelets and a KWOK node: one
// pod per eligible node placed by the scheduler through the node-name
// affinity, pods leave nodes that gain an untolerated NoExecute taint, a new
// node gets its pod, and a rolling update never leaves more than
// maxUnavailable (1) nodes without an available pod.
import { describe, expect, it } from 'vitest';
import { call, controlPlane, watch } from '../../apiserver/testing/harness';
import { createNode, runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const DS = '/apis/apps/v1/namespaces/default/daemonsets';
const ds = (e: Engine) => call(e, 'GET', `${DS}/agent`).body;
const pods = (e: Engine) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=agent' } }).body.items ?? []) as any[];
const available = (p: any) => !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

describe('daemon-set-controller with kubelets', () => {
  it('one pod per node, taints and new nodes, a rolling update within maxUnavailable', { timeout: 60_000 }, () => {
    const e = controlPlane(23, { nodes: 3, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 3, 'three Ready nodes', 60_000, 500);
    const body = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'nginx:1.27' }] } } } };
    expect(call(e, 'POST', DS, body).status).toBe(201);
    runUntil(e, () => ds(e).status?.numberAvailable === 3, 'three available pods', 60_000, 200);
    expect(pods(e).map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const p of pods(e)) {
      const term = p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
      expect(term).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] }]);
      expect(p.metadata.labels['pod-template-generation']).toBe('1');
      expect(p.spec.tolerations).toContainEqual({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' });
    }
    const events = () => call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[];
    // The scheduler placed them (the controller leaves nodeName empty).
    expect(events().filter((x) => x.reason === 'Scheduled' && x.involvedObject.name.startsWith('agent-')).length).toBe(3);
    expect(ds(e).status).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 1, updatedNumberScheduled: 3, numberAvailable: 3 });

    // An untolerated NoExecute taint: the pod goes; a new (KWOK) node gets one.
    const node3 = call(e, 'GET', '/api/v1/nodes/node-3').body;
    expect(call(e, 'PUT', '/api/v1/nodes/node-3', { ...node3, spec: { ...node3.spec, taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } }).status).toBe(200);
    createNode(e, { name: 'fake-1' });
    runUntil(e, () => {
      const on = pods(e).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec.nodeName).sort();
      // node-3's pod counts as misscheduled until its graceful termination ends (upstream counts pods being deleted that are not terminal).
      return JSON.stringify(on) === JSON.stringify(['fake-1', 'node-1', 'node-2']) && ds(e).status?.numberAvailable === 3 && ds(e).status?.numberMisscheduled === 0;
    }, 'pods on node-1, node-2 and fake-1', 60_000, 200);
    expect(ds(e).status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, numberMisscheduled: 0 });

    // Rolling update: at every pod event at most one of the three nodes lacks an available pod.
    const w = watch(e, '/api/v1/namespaces/default/pods', { labelSelector: 'app=agent' });
    const live = new Map<string, any>(pods(e).map((p) => [p.metadata.name, p]));
    let worst = 0;
    expect(call(e, 'PATCH', `${DS}/agent`, { spec: { template: { spec: { containers: [{ name: 'agent', image: 'nginx:1.28' }] } } } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => {
      for (const ev of w.read().splice(0)) {
        if (ev.type === 'DELETED') live.delete(ev.object.metadata.name);
        else live.set(ev.object.metadata.name, ev.object);
        const covered = new Set([...live.values()].filter(available).map((p) => p.spec.nodeName));
        worst = Math.max(worst, 3 - ['node-1', 'node-2', 'fake-1'].filter((n) => covered.has(n)).length);
      }
      const s = ds(e).status;
      return s.observedGeneration === 2 && s.updatedNumberScheduled === 3 && s.numberAvailable === 3;
    }, 'the roll out', 90_000, 100);
    expect(worst).toBe(1);
    expect(pods(e).filter((p) => !p.metadata.deletionTimestamp).every((p) => p.spec.containers[0].image === 'nginx:1.28' && p.metadata.labels['pod-template-generation'] === '2')).toBe(true);
    const revs = call(e, 'GET', '/apis/apps/v1/namespaces/default/controllerrevisions').body.items as any[];
    expect(revs.map((r) => r.revision).sort()).toEqual([1, 2]);
    const hash = revs.find((r) => r.revision === 2).metadata.labels['controller-revision-hash'];
    expect(revs.find((r) => r.revision === 2).metadata.name).toBe(`agent-${hash}`);
    expect(pods(e).filter((p) => !p.metadata.deletionTimestamp).every((p) => p.metadata.labels['controller-revision-hash'] === hash)).toBe(true);
    // A NoSchedule taint: the pod may stay (it tolerates no NoExecute taint it lacks) but is misscheduled.
    const node2 = call(e, 'GET', '/api/v1/nodes/node-2').body;
    expect(call(e, 'PUT', '/api/v1/nodes/node-2', { ...node2, spec: { ...node2.spec, taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } }).status).toBe(200);
    runUntil(e, () => ds(e).status?.numberMisscheduled === 1, 'one misscheduled pod', 20_000, 200);
    expect(ds(e).status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 1 });
    expect(pods(e).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec.nodeName).sort()).toEqual(['fake-1', 'node-1', 'node-2']);
    const msgs = events().filter((x) => x.involvedObject.kind === 'DaemonSet').map((x) => `${x.reason}: ${x.message}`);
    expect(msgs.some((m) => /^SuccessfulCreate: Created pod: agent-[a-z0-9]{5}$/.test(m))).toBe(true);
    expect(msgs.some((m) => /^SuccessfulDelete: Deleted pod: agent-[a-z0-9]{5}$/.test(m))).toBe(true);
  });

  it('updateStrategy OnDelete: a template change replaces a pod only when it is deleted', { timeout: 60_000 }, () => {
    const e = controlPlane(24, { nodes: 2, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 2, 'two Ready nodes', 60_000, 500);
    const body = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { updateStrategy: { type: 'OnDelete' }, selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'nginx:1.27' }] } } } };
    const created = call(e, 'POST', DS, body).body;
    // OnDelete has no rollingUpdate parameters (SetDefaults_DaemonSet fills them only for RollingUpdate).
    expect(created.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    runUntil(e, () => ds(e).status?.numberAvailable === 2, 'two available pods', 60_000, 200);
    const before = pods(e).map((p) => p.metadata.name).sort();
    const image = (p: any) => p.spec.containers[0].image;
    expect(call(e, 'PATCH', `${DS}/agent`, { spec: { template: { spec: { containers: [{ name: 'agent', image: 'nginx:1.28' }] } } } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => ds(e).status?.observedGeneration === 2, 'generation 2 observed', 60_000, 200);
    e.advance(30_000);
    // Nothing is replaced: same pods, old image, none counted as updated.
    expect(pods(e).map((p) => p.metadata.name).sort()).toEqual(before);
    expect(pods(e).map(image)).toEqual(['nginx:1.27', 'nginx:1.27']);
    expect(ds(e).status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberAvailable: 2 });
    expect(ds(e).status).not.toHaveProperty('updatedNumberScheduled'); // 0, omitempty
    // Deleting one: its replacement has the new template, the other stays as it was.
    const victim = pods(e).find((p) => p.spec.nodeName === 'node-1');
    expect(call(e, 'DELETE', `/api/v1/namespaces/default/pods/${victim.metadata.name}`).status).toBe(200);
    runUntil(e, () => {
      const live = pods(e).filter((p) => !p.metadata.deletionTimestamp);
      return live.length === 2 && live.some((p) => p.spec.nodeName === 'node-1' && image(p) === 'nginx:1.28' && available(p)) && ds(e).status?.updatedNumberScheduled === 1;
    }, 'node-1 replaced with the new template', 60_000, 200);
    e.advance(30_000);
    const onNode2 = pods(e).filter((p) => p.spec.nodeName === 'node-2');
    expect(onNode2.map((p) => [p.metadata.name, image(p)])).toEqual([[before.find((n) => onNode2[0].metadata.name === n), 'nginx:1.27']]);
    expect(ds(e).status).toMatchObject({ updatedNumberScheduled: 1, numberAvailable: 2 });
    expect(onNode2[0].metadata.labels['pod-template-generation']).toBe('1');
    expect(pods(e).find((p) => p.spec.nodeName === 'node-1').metadata.labels['pod-template-generation']).toBe('2');
  });
});

