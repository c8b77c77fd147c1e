// Issue 5's StatefulSet timeline: a node is cut off from the API server while
// it runs db-1. The node goes Unknown, is tainted, and 300 s later its pods are
// marked for deletion (the pods tolerate the taint for 10 s here, not the
// default 300 s, to keep the run short), but the kubelet cannot confirm it, so db-1 stays
// (Terminating) and the controller never starts a second db-1. Only when the
// node is lost for good and an operator force-deletes the pod is db-1 created
// elsewhere. At every 100 ms of virtual time, no ordinal runs twice.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';
import type { Kubelet } from '../../kubelet/kubelet';

const NODES = ['node-1', 'node-2', 'node-3'];
const TOLERATIONS = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'].map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }));
const pod = (e: Engine, name: string) => call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`);

/** Containers actually running, per pod name, over every kubelet that is up. */
function runningByPod(e: Engine): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of NODES) {
    const k = e.sim.actor<Kubelet>(n);
    if (!k) continue;
    for (const w of k.workers.values()) {
      if (!k.runtime.podContainers(w.uid).some((c) => c.state === 'running')) continue;
      const name = w.pod.metadata.name!;
      out.set(name, [...(out.get(name) ?? []), n]);
    }
  }
  return out;
}

describe('StatefulSet across a partition', () => {
  it('never runs two pods of one ordinal: db-1 is replaced only after the lost node’s pod is force-deleted', { timeout: 120_000 }, () => {
    const e = controlPlane(31, { nodes: 3, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 3, 'three Ready nodes', 60_000, 500);
    const labels = { app: 'db' };
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'db', image: 'redis:7' }], tolerations: TOLERATIONS } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/statefulsets', sts).status).toBe(201);
    runUntil(e, () => (call(e, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/db').body.status?.readyReplicas ?? 0) === 2, 'two ready replicas', 60_000, 200);
    const original = pod(e, 'db-1').body;
    const victim = original.spec.nodeName as string;

    let maxPerOrdinal = 0;
    const step = (ms: number) => {
      for (let t = 0; t < ms; t += 100) {
        e.advance(100);
        for (const [, nodes] of runningByPod(e)) maxPerOrdinal = Math.max(maxPerOrdinal, nodes.length);
      }
    };
    expect(runningByPod(e).get('db-1')).toEqual([victim]);

    // Cut the node off from the API server (both ways); its containers keep running.
    expect(e.exec({ type: 'fault', fault: { action: 'block', from: victim, to: 'kube-apiserver-0' } }).ok).toBe(true);
    expect(e.exec({ type: 'fault', fault: { action: 'block', from: 'kube-apiserver-0', to: victim } }).ok).toBe(true);
    // Unknown after 50 s, tainted, evicted 10 s later, and well past that.
    step(150_000);
    const during = pod(e, 'db-1').body;
    expect(during.metadata.uid).toBe(original.metadata.uid);
    expect(during.metadata.deletionTimestamp).toBeTruthy();
    expect(runningByPod(e).get('db-1')).toEqual([victim]);
    const node = call(e, 'GET', `/api/v1/nodes/${victim}`).body;
    expect(node.spec.taints.map((t: any) => t.key)).toContain('node.kubernetes.io/unreachable');

    // The node is lost for good; an operator force-deletes what was on it.
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: victim } }).ok).toBe(true);
    const onVictim = (call(e, 'GET', '/api/v1/namespaces/default/pods').body.items as any[]).filter((p) => p.spec.nodeName === victim).map((p) => p.metadata.name);
    for (const name of onVictim) expect(call(e, 'DELETE', `/api/v1/namespaces/default/pods/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 }).status).toBe(200);
    let replacedAt = -1;
    for (let t = 0; t < 60_000 && replacedAt < 0; t += 100) {
      step(100);
      const p = pod(e, 'db-1');
      if (p.status === 200 && p.body.metadata.uid !== original.metadata.uid && p.body.status?.phase === 'Running') replacedAt = e.sim.now;
    }
    expect(replacedAt).toBeGreaterThan(0);
    const replacement = pod(e, 'db-1').body;
    expect(replacement.spec.nodeName).not.toBe(victim);
    step(2_000);
    expect(runningByPod(e).get('db-1')).toEqual([replacement.spec.nodeName]);
    expect(maxPerOrdinal).toBe(1);
  });
});
