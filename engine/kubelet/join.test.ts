// Nodes join as `kubeadm join` does: booted together with the control plane,
// a machine waits for the API server's /readyz before its kubelet starts, so
// the kubelet's start-up Events land (they used to be refused: the default
// namespace did not exist yet) and `kubectl describe node` shows them as on a
// real cluster. A restarted kubelet does not wait again.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import type { RequestRecord } from '../apiserver/records/types';
import { JOIN_RETRY_MS } from './join';

const nodeEvents = (e: ReturnType<typeof controlPlane>, node: string) =>
  (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((ev) => ev.involvedObject.kind === 'Node' && ev.involvedObject.name === node);

const fromNode = (e: ReturnType<typeof controlPlane>, node: string, since = 0): RequestRecord[] => e.requests(since, 100_000).filter((r) => r.user === `system:node:${node}`);

describe('a node joining with the control plane', () => {
  it('polls /readyz until the API server is ready, then starts its kubelet; its start-up events all land', { timeout: 60_000 }, () => {
    const e = controlPlane(7, { nodes: 2 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 2, 'two Ready nodes', 60_000, 500);
    for (const node of ['node-1', 'node-2']) {
      const reqs = fromNode(e, node);
      const firstOther = reqs.findIndex((r) => r.path !== '/readyz');
      // the polls come before anything else, every 500 ms, until one says ok
      const polls = reqs.slice(0, firstOther);
      expect(polls.length).toBeGreaterThan(1);
      // (refused at first: 403 until the RBAC policy that lets anyone read /readyz is in, then 500 until ready)
      expect(polls.slice(0, -1).every((r) => r.code === 403 || r.code === 500)).toBe(true);
      expect(polls.at(-1)!.code).toBe(200);
      for (let i = 1; i < polls.length; i++) expect(polls[i]!.at - polls[i - 1]!.at).toBeGreaterThanOrEqual(JOIN_RETRY_MS);
      expect(reqs.slice(firstOther).some((r) => r.path === '/readyz')).toBe(false);
      // no Event the kubelet sent was refused (a missing namespace used to refuse them)
      const events = reqs.filter((r) => r.resource === 'events');
      expect(events.length).toBeGreaterThanOrEqual(5);
      expect(events.filter((r) => r.code >= 300)).toEqual([]);
      runUntil(e, () => nodeEvents(e, node).some((ev) => ev.reason === 'RegisteredNode'), 'RegisteredNode', 30_000, 500);
      expect(nodeEvents(e, node).map((ev) => ev.reason).sort()).toEqual(
        // No NodeReady: ReadyCondition records one only when an existing Ready condition changes, and this node came up Ready.
        // Two Starting: the kubelet's and its kube-proxy's.
        ['NodeAllocatableEnforced', 'NodeHasNoDiskPressure', 'NodeHasSufficientMemory', 'NodeHasSufficientPID', 'RegisteredNode', 'Starting', 'Starting'].sort(),
      );
      // nodeutil.RecordNodeEvent wraps the node controller's text: "Node %s event: %s".
      expect(nodeEvents(e, node).find((ev) => ev.reason === 'RegisteredNode')).toMatchObject({ message: `Node ${node} event: Registered Node ${node} in Controller`, source: { component: 'node-controller' } });
      const starting = nodeEvents(e, node).find((ev) => ev.reason === 'Starting')!;
      expect(starting).toMatchObject({ message: 'Starting kubelet.', source: { component: 'kubelet', host: node }, type: 'Normal' });
    }
  });

  it('a restarted kubelet registers at once: the machine has joined already', { timeout: 60_000 }, () => {
    const e = controlPlane(8, { nodes: 1 });
    runUntil(e, () => e.clusterView()?.nodes[0]?.ready === 'True', 'Ready', 60_000, 500);
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'node-1' } }).ok).toBe(true);
    e.advance(5_000);
    const since = e.requests(0, 100_000).at(-1)!.id;
    expect(e.exec({ type: 'fault', fault: { action: 'restart', target: 'node-1' } }).ok).toBe(true);
    e.advance(2_000);
    const after = fromNode(e, 'node-1', since);
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((r) => r.path === '/readyz')).toBe(false);
    expect(after.some((r) => r.verb === 'create' && r.resource === 'nodes')).toBe(true);
  });
});
