// Issue 5's partition timeline: a node's kubelet cut off from the API servers
// for two minutes, then healed. A partition drops packets silently, so nothing
// tells the kubelet its connection died; client-go's HTTP/2 health check
// (PING after 30 s without a read, closed 15 s later), the heartbeat client's
// 10 s timeout and closeAllConns on a repeated heartbeat failure do. The node
// controller marks the node Unknown after the 50 s grace period; after the
// heal the kubelet's next node status update gets through and the node is
// Ready again within nodeStatusUpdateFrequency (10 s) plus one heartbeat
// timeout (10 s, a status update lost in the partition's last moments), its
// Lease renews within the same bound, and the status its pod reached while
// cut off (the container exited) reaches the API.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { HEARTBEAT_TIMEOUT_MS } from './client';
import { NODE_STATUS_UPDATE_MS } from './config';
import type { Kubelet } from './kubelet';
import type { ApiServer } from '../apiserver/server/apiserver';

describe('a node partitioned from the API servers, then healed', () => {
  it('Unknown after the grace period; Ready, Lease renewed and pod status current within 20 s of the heal', { timeout: 120_000 }, () => {
    const e = controlPlane(7, { nodes: 2 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 2, 'two Ready nodes', 60_000, 500);
    const victim = 'node-1';
    // A pod on the victim whose container exits while the node is cut off.
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'short', namespace: 'default' }, spec: { nodeName: victim, restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 60'] }] } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
    const phase = () => call(e, 'GET', '/api/v1/namespaces/default/pods/short').body.status?.phase;
    runUntil(e, () => phase() === 'Running', 'the pod Running', 60_000, 200);

    const ready = () => call(e, 'GET', `/api/v1/nodes/${victim}`).body.status.conditions.find((c: any) => c.type === 'Ready');
    const renewTime = () => Date.parse(call(e, 'GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${victim}`).body.spec.renewTime);
    const watchersBefore = [...e.sim.actor<ApiServer>('kube-apiserver-0')!.watch.watchers.values()].filter((w) => w.client === victim).length;
    expect(watchersBefore).toBeGreaterThan(0);
    expect(e.exec({ type: 'fault', fault: { action: 'partition-node', target: victim } }).ok).toBe(true);
    const cutAt = e.sim.now;
    runUntil(e, () => ready().status === 'Unknown', 'Ready=Unknown', 90_000, 500);
    // node-monitor-grace-period (50 s) after the last renewal, at a 5 s monitor tick.
    expect(e.sim.now - cutAt).toBeGreaterThan(40_000);
    expect(e.sim.now - cutAt).toBeLessThan(60_000);
    e.advance(cutAt + 120_000 - e.sim.now);
    // The kubelet's connection was found dead and closed while it was cut off.
    const k = e.sim.actor<Kubelet>(victim)!;
    expect(k.transport.closes).toBeGreaterThan(0);
    expect(phase()).toBe('Running'); // what the API last heard

    expect(e.exec({ type: 'fault', fault: { action: 'heal-all' } }).ok).toBe(true);
    const healAt = e.sim.now;
    const bound = NODE_STATUS_UPDATE_MS + HEARTBEAT_TIMEOUT_MS;
    runUntil(e, () => ready().status === 'True', 'Ready again', bound + 1000, 100);
    const readyAfter = e.sim.now - healAt;
    expect(readyAfter).toBeLessThanOrEqual(bound);
    // The kubelet's setters start from the Node as the API has it: Unknown → True is a transition, now,
    // recorded as NodeReady, and so are the pressure conditions the node controller had set Unknown.
    expect(Date.parse(ready().lastTransitionTime)).toBeGreaterThanOrEqual(Date.parse('2025-01-01T00:00:00Z') + healAt);
    const healEvents = () =>
      (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[])
        .filter((ev) => ev.involvedObject.name === victim && ev.source?.component === 'kubelet' && Date.parse(ev.lastTimestamp) >= Date.parse('2025-01-01T00:00:00Z') + healAt - 1000)
        .map((ev) => ev.reason);
    runUntil(e, () => healEvents().includes('NodeReady'), 'NodeReady recorded', 10_000, 200);
    expect(healEvents()).toEqual(expect.arrayContaining(['NodeReady', 'NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']));
    runUntil(e, () => renewTime() >= Date.parse('2025-01-01T00:00:00Z') + healAt, 'the Lease renewed', bound + 1000, 100);
    expect(e.sim.now - healAt).toBeLessThanOrEqual(bound);
    runUntil(e, () => phase() === 'Succeeded', 'the pod status caught up', bound + 1000, 100);
    // Its old watches on the server ended: the first chunk the server wrote on the dead connection after
    // the heal was answered with a reset. What is left is the kubelet's new watches, one of each.
    const watchersOf = () => [...e.sim.actor<ApiServer>('kube-apiserver-0')!.watch.watchers.values()].filter((w) => w.client === victim).length;
    expect(watchersOf()).toBe(watchersBefore);
    // The pod watch works again: a pod bound to the node now is run.
    const next = { ...pod, metadata: { name: 'after', namespace: 'default' } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', next).status).toBe(201);
    runUntil(e, () => call(e, 'GET', '/api/v1/namespaces/default/pods/after').body.status?.phase === 'Running', 'a new pod Running', 30_000, 200);
  });

  it('a 3 s cut while a pod status update is on the wire: TCP delivers it late, nothing hangs', { timeout: 120_000 }, () => {
    // A partition shorter than any health check: the kubelet never learns of it. Its writes and the
    // answers are held by TCP and arrive at the first retransmission after the heal, as on a real network.
    const e = controlPlane(8, { nodes: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'crash', namespace: 'default' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 2; exit 1'] }] } };
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
    const restarts = () => call(e, 'GET', '/api/v1/namespaces/default/pods/crash').body.status?.containerStatuses?.[0]?.restartCount ?? 0;
    runUntil(e, () => restarts() >= 1, 'a restart', 60_000, 200);
    const k = e.sim.actor<Kubelet>('node-1')! as unknown as { requests: Map<number, { kind: string }> };
    const statusInFlight = () => [...k.requests.values()].some((p) => p.kind === 'podStatus');
    for (let i = 0; i < 100_000 && !statusInFlight(); i++) e.sim.step();
    expect(statusInFlight()).toBe(true);
    expect(e.exec({ type: 'fault', fault: { action: 'partition-node', target: 'node-1' } }).ok).toBe(true);
    e.advance(3_000);
    expect(e.exec({ type: 'fault', fault: { action: 'heal-all' } }).ok).toBe(true);
    // The held write goes out at the first retransmission after the heal and is answered.
    const healAt = e.sim.now;
    runUntil(e, () => !statusInFlight(), 'the status write answered', 5_000, 50);
    expect(e.sim.now - healAt).toBeLessThan(2_000);
    expect(e.sim.trace.records().some((r) => r.kind === 'held' && r.from === 'node-1')).toBe(true);
    // Later restarts keep reaching the API (a lost write used to leave the status stuck for good).
    const at = restarts();
    e.advance(120_000);
    expect(restarts()).toBeGreaterThan(at);
    expect(e.sim.actor<Kubelet>('node-1')!.transport.closes).toBe(0);
  });
});
