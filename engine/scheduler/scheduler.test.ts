import { describe, expect, it } from 'vitest';
import { Engine } from '../facade/engine';
import { call, controlPlane, createNode, createPod, getPod, nodeOf, runUntil, scheduler } from './testing/cluster';

describe('kube-scheduler on the simulated control plane', () => {
  it('binds a pod to a fitting node, with a Scheduled event and a decision record', () => {
    const e = controlPlane(1);
    for (const n of ['node-a', 'node-b', 'node-c']) createNode(e, { name: n });
    createPod(e, { name: 'web', cpu: '500m', memory: '1Gi' });
    runUntil(e, () => !!nodeOf(e, 'web'), 'web to be bound');
    const node = nodeOf(e, 'web')!;
    expect(['node-a', 'node-b', 'node-c']).toContain(node);
    const pod = getPod(e, 'web');
    expect(pod.status.conditions.find((c: any) => c.type === 'PodScheduled').status).toBe('True');
    runUntil(e, () => call(e, 'GET', '/api/v1/namespaces/default/events').body.items.some((ev: any) => ev.reason === 'Scheduled'), 'the Scheduled event');
    const ev = call(e, 'GET', '/api/v1/namespaces/default/events').body.items.find((x: any) => x.reason === 'Scheduled');
    expect(ev.message).toBe(`Successfully assigned default/web to ${node}`);
    const d = e.schedulerDecisions('default/web');
    expect(d.decisions).toHaveLength(1);
    const dec = d.decisions[0]!;
    expect(dec.selected).toBe(node);
    expect(dec.outcome).toBe('Scheduled');
    expect(Object.keys(dec.nodes).sort()).toEqual(['node-a', 'node-b', 'node-c']);
    expect(dec.nodes[node]!.filters.NodeResourcesFit).toBe('Success');
    const fit = dec.nodes[node]!.scores!.NodeResourcesFit!;
    // LeastAllocated: cpu (4000-500)*100/4000 = 87, memory (32Gi-1Gi)*100/32Gi = 96 → (87+96)/2 = 91.
    expect(fit.raw).toBe(91);
    expect(fit.weight).toBe(1);
    expect(dec.nodes[node]!.scores!.TaintToleration).toEqual({ raw: 0, normalized: 100, weight: 3, weighted: 300 });
    // The inputs behind those numbers: the node before this pod, and the pod's requests.
    expect(dec.nodes[node]!.inputs!.NodeResourcesFit).toEqual({
      kind: 'resources',
      scorer: 'LeastAllocated',
      resources: [
        { name: 'cpu', weight: 1, nodeRequested: 0, podRequest: 500, allocatable: 4000, score: 87 },
        { name: 'memory', weight: 1, nodeRequested: 0, podRequest: 1024 ** 3, allocatable: 32 * 1024 ** 3, score: 96 },
      ],
    });
    // No PreferNoSchedule taint: TaintToleration's raw 0 needs no inputs.
    expect(dec.nodes[node]!.inputs!.TaintToleration).toBeUndefined();
    expect(dec.nodes[node]!.scores!.NodeResourcesBalancedAllocation!.raw).toBe(95);
  });

  it('reports Insufficient cpu, then schedules once a node is added', () => {
    const e = controlPlane(2);
    createNode(e, { name: 'small-1', cpu: '1' });
    createNode(e, { name: 'small-2', cpu: '1' });
    createPod(e, { name: 'big', cpu: '2' });
    runUntil(e, () => getPod(e, 'big').status?.conditions?.some((c: any) => c.type === 'PodScheduled' && c.reason === 'Unschedulable'), 'the Unschedulable condition');
    const cond = getPod(e, 'big').status.conditions.find((c: any) => c.type === 'PodScheduled');
    expect(cond.status).toBe('False');
    expect(cond.message).toBe('0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
    runUntil(e, () => call(e, 'GET', '/api/v1/namespaces/default/events').body.items.some((ev: any) => ev.reason === 'FailedScheduling'), 'FailedScheduling');
    expect(e.schedulerQueue()!.unschedulable.map((p: any) => p.pod)).toContain('default/big');
    createNode(e, { name: 'large', cpu: '8' });
    runUntil(e, () => nodeOf(e, 'big') === 'large', 'big to land on the new node');
  });

  it('keeps to one leader holding the kube-scheduler lease', () => {
    const e = controlPlane(3, { schedulers: 2 });
    runUntil(e, () => scheduler(e, 0).elector.isLeader || scheduler(e, 1).elector.isLeader, 'a leader');
    const lease = call(e, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler').body;
    const leader = [0, 1].find((i) => scheduler(e, i).elector.isLeader)!;
    expect(lease.spec.holderIdentity).toBe(scheduler(e, leader).elector.config.identity);
    expect(scheduler(e, 1 - leader).elector.isLeader).toBe(false);
    createNode(e, { name: 'n1' });
    createPod(e, { name: 'p' });
    // The binding is visible through the API a moment before its answer reaches the scheduler.
    runUntil(e, () => nodeOf(e, 'p') === 'n1' && scheduler(e, leader).stats.bindings > 0, 'p bound, the answer back');
    expect(scheduler(e, leader).stats.bindings).toBe(1);
    expect(scheduler(e, 1 - leader).stats.cycles).toBe(0);
    // "<identity> became leader", a core/v1 Event from the first profile's scheduler (the legacy recorder).
    const events = call(e, 'GET', '/api/v1/namespaces/kube-system/events').body.items.filter((x: { reason: string; involvedObject: { name: string } }) => x.reason === 'LeaderElection' && x.involvedObject.name === 'kube-scheduler');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'Normal', message: `${lease.spec.holderIdentity} became leader`, source: { component: 'default-scheduler' }, involvedObject: { kind: 'Lease', namespace: 'kube-system' } });
    expect(lease.spec.holderIdentity).toMatch(/^kube-scheduler-[01]_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('snapshots', () => {
  it('a snapshot taken mid-run restores to a scheduler that continues identically', () => {
    const e = controlPlane(4);
    for (const n of ['n1', 'n2', 'n3']) createNode(e, { name: n });
    for (let i = 0; i < 5; i++) createPod(e, { name: `a${i}`, cpu: '300m' });
    e.advance(30);
    const plain = JSON.parse(JSON.stringify(e.snapshot()));
    const copy = Engine.restore(plain);
    for (const x of [e, copy]) {
      for (let i = 0; i < 5; i++) createPod(x, { name: `b${i}`, cpu: '300m' });
      x.advance(3000);
    }
    const placements = (x: Engine) => [0, 1, 2, 3, 4].flatMap((i) => [nodeOf(x, `a${i}`), nodeOf(x, `b${i}`)]);
    // Reading placements makes API calls (events): compare the traces first, then read each once.
    expect(copy.state().traceDigest).toBe(e.state().traceDigest);
    const mine = placements(e);
    expect(placements(copy)).toEqual(mine);
    expect(mine.every((n) => !!n)).toBe(true);
  });
});
