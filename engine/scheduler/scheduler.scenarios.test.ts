import { describe, expect, it } from 'vitest';
import { call, controlPlane, createNode, createPod, getPod, nodeOf, runUntil, scheduler } from './testing/cluster';
import { DirectScheduler } from './testing/direct';
import type { Pod } from './framework/api';

describe('scheduler scenarios on the simulated control plane', () => {
  it('avoids a tainted node and says why in the decision', () => {
    const e = controlPlane(11);
    createNode(e, { name: 'tainted', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
    createNode(e, { name: 'plain' });
    for (let i = 0; i < 4; i++) createPod(e, { name: `p${i}` });
    runUntil(e, () => [0, 1, 2, 3].every((i) => !!nodeOf(e, `p${i}`)), 'all bound');
    for (let i = 0; i < 4; i++) expect(nodeOf(e, `p${i}`)).toBe('plain');
    const d = e.schedulerDecisions('default/p0').decisions[0]!;
    expect(d.nodes.tainted!.filters.TaintToleration).toBe('node(s) had untolerated taint {dedicated: gpu}');
    expect(d.scoringSkipped).toBe('only one node passed the filters');
  });

  it('preempts a lower-priority pod for a higher-priority one', () => {
    const e = controlPlane(12);
    expect(call(e, 'POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 }).status).toBe(201);
    createNode(e, { name: 'only', cpu: '2' });
    createPod(e, { name: 'low', cpu: '1500m', spec: { terminationGracePeriodSeconds: 0 } });
    runUntil(e, () => nodeOf(e, 'low') === 'only', 'low bound');
    createPod(e, { name: 'high', cpu: '1500m', priorityClassName: 'high' });
    runUntil(e, () => getPod(e, 'high')?.status?.nominatedNodeName === 'only' || nodeOf(e, 'high') === 'only', 'high nominated');
    const first = e.schedulerDecisions('default/high').decisions[0]!;
    expect(first.postFilter?.nominatedNodeName).toBe('only');
    expect(first.postFilter?.victims).toEqual(['default/low']);
    // The victim is deleted (gracefully: its DisruptionTarget condition first), then high lands where it was.
    runUntil(e, () => call(e, 'GET', '/api/v1/namespaces/default/pods/low').status === 404 || !!getPod(e, 'low')?.metadata?.deletionTimestamp, 'low deleted');
    const events = call(e, 'GET', '/api/v1/namespaces/default/events').body.items;
    expect(events.some((ev: any) => ev.reason === 'Preempted' && ev.involvedObject.name === 'low')).toBe(true);
    // Written by the profile's recorder: reported by this scheduler instance, related to the preemptor.
    const ev = call(e, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events').body.items.find((x: any) => x.reason === 'Preempted');
    expect(ev).toMatchObject({
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-kube-scheduler-0',
      action: 'Preempting',
      type: 'Normal',
      regarding: { kind: 'Pod', name: 'low', namespace: 'default' },
      related: { kind: 'Pod', name: 'high', namespace: 'default', uid: getPod(e, 'high').metadata.uid },
      note: `Preempted by pod ${getPod(e, 'high').metadata.uid} on node only`,
    });
    expect(ev.metadata.name).toMatch(/^low\.[0-9a-f]+$/);
  });

  it('a pending pod being deleted (held by a finalizer) stays queued and is skipped with an event', () => {
    const e = controlPlane(15);
    createNode(e, { name: 'small', cpu: '1' });
    createPod(e, { name: 'held', cpu: '2', spec: {} });
    expect(call(e, 'PATCH', '/api/v1/namespaces/default/pods/held', { metadata: { finalizers: ['example.com/hold'] } }, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => e.schedulerQueue()!.unschedulable.some((q) => q.pod === 'default/held'), 'held unschedulable');
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/pods/held').status).toBe(200);
    expect(getPod(e, 'held').metadata.deletionTimestamp).toBeTruthy();
    const skipped = () => call(e, 'GET', '/api/v1/namespaces/default/events').body.items.some((ev: any) => ev.reason === 'FailedScheduling' && ev.message === 'skip schedule deleting pod: default/held');
    // Still queued: the leftover flush (5 minutes unschedulable) pops it, and the cycle skips it.
    expect(e.schedulerQueue()!.unschedulable.some((q) => q.pod === 'default/held')).toBe(true);
    runUntil(e, skipped, 'the skip event', 7 * 60_000, 1000);
    expect(nodeOf(e, 'held')).toBeUndefined();
  });

  it('a lease holder that crashes is replaced within leaseDuration + retryPeriod', () => {
    const e = controlPlane(13, { schedulers: 2 });
    runUntil(e, () => scheduler(e, 0).elector.isLeader || scheduler(e, 1).elector.isLeader, 'a leader');
    const leader = scheduler(e, 0).elector.isLeader ? 0 : 1;
    const other = 1 - leader;
    const crashAt = e.sim.now;
    e.exec({ type: 'fault', fault: { action: 'crash', target: `kube-scheduler-${leader}` } });
    runUntil(e, () => scheduler(e, other).elector.isLeader, 'failover', 30_000, 100);
    expect(e.sim.now - crashAt).toBeLessThanOrEqual(15_000 + 2_000 + 2_000);
    createNode(e, { name: 'n1' });
    createPod(e, { name: 'after-failover' });
    runUntil(e, () => nodeOf(e, 'after-failover') === 'n1', 'scheduled by the new leader');
  });

  it('applies a new profile live: MostAllocated packs pods onto one node', () => {
    const e = controlPlane(14);
    createNode(e, { name: 'a' });
    createNode(e, { name: 'b' });
    const cfg = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
  plugins:
    score:
      disabled:
      - name: NodeResourcesBalancedAllocation
      - name: PodTopologySpread
`;
    expect(e.exec({ type: 'schedulerConfig', text: cfg })).toEqual({ ok: true });
    expect(e.schedulerConfig()).toContain('type: MostAllocated');
    for (let i = 0; i < 4; i++) createPod(e, { name: `m${i}`, cpu: '500m' });
    runUntil(e, () => [0, 1, 2, 3].every((i) => !!nodeOf(e, `m${i}`)), 'all bound');
    const nodes = new Set([0, 1, 2, 3].map((i) => nodeOf(e, `m${i}`)));
    expect(nodes.size).toBe(1);
    const bad = e.exec({ type: 'schedulerConfig', text: 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 150\n' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toContain('percentageOfNodesToScore');
  });
});

describe('profiles and fake nodes', () => {
  it('pods choose a profile by schedulerName; a name no profile has is left to another scheduler', () => {
    const e = controlPlane(16);
    const cfg = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packer
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
  plugins:
    score:
      disabled: [{name: NodeResourcesBalancedAllocation}, {name: PodTopologySpread}]
`;
    expect(e.exec({ type: 'schedulerConfig', text: cfg })).toEqual({ ok: true });
    createNode(e, { name: 'a' });
    createNode(e, { name: 'b' });
    for (let i = 0; i < 3; i++) createPod(e, { name: `packed-${i}`, cpu: '500m', spec: { schedulerName: 'bin-packer' } });
    createPod(e, { name: 'elsewhere', cpu: '500m', spec: { schedulerName: 'someone-else' } });
    runUntil(e, () => [0, 1, 2].every((i) => !!nodeOf(e, `packed-${i}`)), 'packed pods bound');
    expect(new Set([0, 1, 2].map((i) => nodeOf(e, `packed-${i}`))).size).toBe(1);
    const d = e.schedulerDecisions('default/packed-2').decisions[0]!;
    expect(d.profile).toBe('bin-packer');
    expect(Object.values(d.nodes).find((n) => n.inputs?.NodeResourcesFit)!.inputs!.NodeResourcesFit).toMatchObject({ kind: 'resources', scorer: 'MostAllocated' });
    // The Scheduled event comes from the profile's own reporter.
    const ev = call(e, 'GET', '/api/v1/namespaces/default/events').body.items.find((x: any) => x.reason === 'Scheduled' && x.involvedObject.name === 'packed-0');
    expect(ev.reportingComponent).toBe('bin-packer');
    e.advance(3000);
    expect(nodeOf(e, 'elsewhere')).toBeUndefined();
    expect(e.schedulerDecisions('default/elsewhere').decisions).toEqual([]);
    expect(JSON.stringify(e.schedulerQueue())).not.toContain('default/elsewhere');
  });

  it('schedules onto a node created with status.capacity only (allocatable defaulted from it), as scheduler_perf creates them', () => {
    const e = controlPlane(17);
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'perf-node', labels: { 'kubernetes.io/hostname': 'perf-node' } }, spec: {}, status: { capacity: { pods: '110', cpu: '4', memory: '32Gi' }, conditions: [{ type: 'Ready', status: 'True' }], phase: 'Running' } };
    expect(call(e, 'POST', '/api/v1/nodes', node).status).toBe(201);
    createPod(e, { name: 'fits', cpu: '3' });
    createPod(e, { name: 'too-big', cpu: '5' });
    runUntil(e, () => nodeOf(e, 'fits') === 'perf-node', 'fits bound');
    runUntil(e, () => getPod(e, 'too-big').status?.conditions?.some((c: any) => c.reason === 'Unschedulable'), 'too-big unschedulable');
    expect(getPod(e, 'too-big').status.conditions.find((c: any) => c.type === 'PodScheduled').message).toMatch(/^0\/1 nodes are available: 1 Insufficient cpu\./);
  });
});

describe('determinism', () => {
  const shape = (seed: number): string[] => {
    const s = new DirectScheduler(seed);
    for (let i = 0; i < 300; i++) {
      const allocatable = { cpu: '4', memory: '32Gi', pods: '110' };
      s.addNode({ apiVersion: 'v1', kind: 'Node', metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}`, 'topology.kubernetes.io/zone': `z${i % 3}` } }, spec: {}, status: { allocatable, capacity: allocatable } });
    }
    const out: string[] = [];
    for (let i = 0; i < 500; i++) {
      const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: 'default', uid: `u${i}`, labels: { app: `a${i % 7}` } }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m', memory: '200Mi' } } }] } };
      out.push(s.schedule(pod).selected);
    }
    return out;
  };
  it('same seed ⇒ same placements; another seed breaks ties differently', () => {
    const a = shape(42);
    expect(shape(42)).toEqual(a);
    expect(shape(43)).not.toEqual(a);
    expect(a.every((n) => n !== '')).toBe(true);
  });
});
