// Ports of the essential cases of upstream's scheduling_queue_test.go
// (pkg/scheduler/backend/queue), on virtual time.
import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import { podKey, type Pod } from '../framework/api';
import type { ClusterEvent, Plugin, PreEnqueuePlugin, QueuedPodInfo } from '../framework/interface';
import { PodInfo } from '../framework/podInfo';
import { calculateBackoffDuration } from './backoff';
import { EventAssignedPodAdd, EventUnschedulableTimeout } from './events';
import { PriorityQueue, type PriorityQueueOptions, type QueueName } from './schedulingQueue';
import { FakeHintPlugin, FakeHoldGate, FakeNoHintPlugin, FakePlainPlugin, FakePrioritySort, FakeSchedulingGates, pod } from './testFakes';

const nodeAdd: ClusterEvent = { resource: 'Node', actions: ['Add'] };
const pvAdd: ClusterEvent = { resource: 'PersistentVolume', actions: ['Add'] };
const pvUpdate: ClusterEvent = { resource: 'PersistentVolume', actions: ['Update'] };
const pvcAdd: ClusterEvent = { resource: 'PersistentVolumeClaim', actions: ['Add'] };

function newQueue(plugins: Plugin[] = [], o: Partial<PriorityQueueOptions> & { gates?: PreEnqueuePlugin[] } = {}): PriorityQueue {
  return new PriorityQueue({
    queueSort: new FakePrioritySort(),
    preEnqueue: new Map([['default-scheduler', o.gates ?? []]]),
    enqueueExtensions: new Map(plugins.map((p) => [p.name, p])),
    ...o,
  });
}

function where(q: PriorityQueue, p: Pod): QueueName | undefined {
  return q.get(podKey(p))?.queue;
}

/** Pops the pod and fails it with the given rejecting plugins. */
function failWith(q: PriorityQueue, now: number, plugins: string[], pending: string[] = []): QueuedPodInfo {
  const qpi = q.pop(now)!;
  qpi.unschedulablePlugins = [...plugins];
  qpi.pendingPlugins = [...pending];
  expect(q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle, now)).toBeNull();
  return qpi;
}

const high = pod('hpp', { namespace: 'ns1', uid: 'hppns1', priority: 1000 });
const med = pod('mpp', { namespace: 'ns2', uid: 'mppns2', priority: 500, nominatedNodeName: 'node1' });
const low = pod('up', { namespace: 'ns1', uid: 'upns1', priority: 0, nominatedNodeName: 'node1' });

describe('PriorityQueue: Add and Pop (TestPriorityQueue_Add)', () => {
  it('pops by priority and nominates pods that carry a nominatedNodeName', () => {
    const q = newQueue();
    q.add(med, 0);
    q.add(low, 0);
    q.add(high, 0);
    expect(q.nominatedPodsForNode('node1').map((p) => p.pod.metadata.name)).toEqual(['mpp', 'up']);
    expect(q.pop(0)!.podInfo.pod).toBe(high);
    expect(q.pop(0)!.podInfo.pod).toBe(med);
    expect(q.pop(0)!.podInfo.pod).toBe(low);
    expect(q.pop(0)).toBeUndefined();
    // Popping does not clear nominations.
    expect(q.nominatedPodsForNode('node1')).toHaveLength(2);
  });

  it('equal priorities come out in timestamp order; pop counts attempts and cycles', () => {
    const q = newQueue();
    q.add(pod('b'), 20);
    q.add(pod('a'), 10);
    q.add(pod('c'), 30);
    const first = q.pop(40)!;
    expect(first.podInfo.pod.metadata.name).toBe('a');
    expect(first.attempts).toBe(1);
    expect(first.initialAttemptTimestamp).toBe(10);
    expect(first.schedulingCycle).toBe(1);
    expect(q.pop(40)!.podInfo.pod.metadata.name).toBe('b');
    expect(q.schedulingCycle).toBe(2);
  });
});

describe('backoff', () => {
  it('calculateBackoffDuration doubles from the initial value up to the maximum', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 100].map((a) => calculateBackoffDuration(a, 1000, 10_000))).toEqual([1000, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    // TestPriorityQueue_calculateBackoffDuration: 1ns initial, 32ns max.
    expect([1, 2, 6, 100].map((a) => calculateBackoffDuration(a, 1, 32))).toEqual([1, 2, 32, 32]);
  });

  it('TestBackOffFlow: 1, 2, 4, 8, 10, 10, 10 s, and the pod leaves backoffQ exactly at expiry', () => {
    const q = newQueue([new FakeHintPlugin('fooPlugin', [nodeAdd])]);
    const p = pod('test-pod', { namespace: 'test-ns' });
    let now = 1_000_000;
    q.add(p, now);
    const want = [1000, 2000, 4000, 8000, 10_000, 10_000, 10_000];
    want.forEach((w, i) => {
      const timestamp = now;
      const qpi = q.pop(now)!;
      expect(qpi.attempts).toBe(i + 1);
      // No rejecting plugin (an error): back to backoffQ.
      expect(q.addUnschedulableIfNotPresent(qpi, i, now)).toBeNull();
      expect(where(q, p)).toBe('Backoff');
      expect(q.getBackoffTime(qpi) - timestamp).toBe(w);
      now += w - 1;
      q.flushBackoffQCompleted(now);
      expect(where(q, p)).toBe('Backoff');
      now += 1;
      q.flushBackoffQCompleted(now);
      expect(where(q, p)).toBe('Active');
    });
  });

  it('an Error (isError) always backs off, whatever plugins were recorded', () => {
    const q = newQueue([new FakeHintPlugin('fooPlugin', [nodeAdd])]);
    const p = pod('p');
    q.add(p, 0);
    const qpi = q.pop(0)!;
    qpi.unschedulablePlugins = ['fooPlugin'];
    q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle, 0, 'boom', true);
    expect(where(q, p)).toBe('Backoff');
    expect(q.view(0).backoff[0]).toMatchObject({ pod: 'default/p', message: 'boom', backoffExpiresAt: 1000, unschedulablePlugins: [] });
  });

  it('backoffQ is ordered by expiry', () => {
    const q = newQueue();
    const a = pod('a');
    const b = pod('b');
    q.add(a, 0);
    q.add(b, 0);
    const qa = q.pop(0)!;
    const qb = q.pop(0)!;
    qa.attempts = 3; // expires at 100 + 4000
    q.addUnschedulableIfNotPresent(qa, q.schedulingCycle, 100);
    q.addUnschedulableIfNotPresent(qb, q.schedulingCycle, 200); // 200 + 1000
    expect(q.view(200).backoff.map((e) => [e.pod, e.backoffExpiresAt])).toEqual([
      ['default/b', 1200],
      ['default/a', 4100],
    ]);
    q.flushBackoffQCompleted(1200);
    expect(where(q, b)).toBe('Active');
    expect(where(q, a)).toBe('Backoff');
  });
});

describe('AddUnschedulableIfNotPresent (TestPriorityQueue_AddUnschedulableIfNotPresent)', () => {
  it('refuses a pod that is already queued, and keeps a rejected one in unschedulablePods', () => {
    const q = newQueue([new FakeHintPlugin('fooPlugin', [nodeAdd])]);
    q.add(high, 0);
    const dup: QueuedPodInfo = { podInfo: new PodInfo(high), timestamp: 0, attempts: 1, unschedulablePlugins: ['fooPlugin'], pendingPlugins: [], gated: false };
    expect(q.addUnschedulableIfNotPresent(dup, q.schedulingCycle, 0)).toBe('Pod ns1/hpp is already present in the active queue');
    q.add(low, 0);
    failWith(q, 0, ['fooPlugin']); // pops high
    expect(where(q, high)).toBe('Unschedulable');
    expect(q.addUnschedulableIfNotPresent(dup, q.schedulingCycle, 0)).toBe('Pod ns1/hpp is already present in unschedulable queue');
    expect(q.pop(0)!.podInfo.pod).toBe(low);
  });
});

describe('moveRequestCycle, queueing hints off (TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff)', () => {
  it('pods whose attempt started before a move request go to backoffQ', () => {
    const q = newQueue([new FakeHintPlugin('fooPlugin', [nodeAdd], 'QueueSkip')], { queueingHints: false });
    const pods = Array.from({ length: 10 }, (_, i) => pod(`pod${i}`, { namespace: `ns${i}`, priority: i }));
    for (const p of pods) q.add(p, 0);
    const popped: QueuedPodInfo[] = [];
    for (let i = 9; i > 0; i--) {
      const qpi = q.pop(0)!;
      expect(qpi.podInfo.pod).toBe(pods[i]);
      popped.push(qpi);
    }
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 0);
    const oldCycle = q.schedulingCycle;
    expect(q.pop(0)!.podInfo.pod).toBe(pods[0]);
    for (const qpi of popped) {
      qpi.unschedulablePlugins = ['fooPlugin'];
      expect(q.addUnschedulableIfNotPresent(qpi, oldCycle, 0)).toBeNull();
    }
    for (let i = 1; i < 10; i++) expect(where(q, pods[i]!)).toBe('Backoff');
    // A later cycle than the move request: unschedulable (the QueueSkip hint is ignored when hints are off).
    const last = pod('late');
    q.add(last, 0);
    const qpi = q.pop(0)!;
    qpi.unschedulablePlugins = ['fooPlugin'];
    q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle, 0);
    expect(where(q, last)).toBe('Unschedulable');
    expect(q.inFlightPods()).toEqual([]);
  });
});

describe('MoveAllToActiveOrBackoffQueue', () => {
  it('moves only pods whose rejecting plugin registered the event; backoffQ while backing off, else activeQ', () => {
    const nodePl = new FakeHintPlugin('NodeThing', [nodeAdd]);
    const pvPl = new FakeHintPlugin('PVThing', [pvAdd]);
    const q = newQueue([nodePl, pvPl]);
    const a = pod('a', { priority: 2 });
    const b = pod('b', { priority: 1 });
    q.add(a, 0);
    q.add(b, 0);
    failWith(q, 0, ['NodeThing']);
    failWith(q, 0, ['PVThing']);
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 500);
    expect(where(q, a)).toBe('Backoff'); // 1 s back-off not over at 500 ms
    expect(where(q, b)).toBe('Unschedulable');
    expect(pvPl.calls).toBe(0);
    q.moveAllToActiveOrBackoffQueue(pvUpdate, undefined, undefined, 2000); // registered Add only
    expect(where(q, b)).toBe('Unschedulable');
    q.moveAllToActiveOrBackoffQueue(pvAdd, undefined, undefined, 2000);
    expect(where(q, b)).toBe('Active');
    expect(pvPl.calls).toBe(1);
  });

  it('QueueSkip keeps the pod; Queue from any rejecting plugin moves it', () => {
    const skip = new FakeHintPlugin('Skipper', [nodeAdd], 'QueueSkip');
    const queue = new FakeHintPlugin('Queuer', [nodeAdd], 'Queue');
    const q = newQueue([skip, queue]);
    const a = pod('a', { priority: 2 });
    const b = pod('b', { priority: 1 });
    q.add(a, 0);
    q.add(b, 0);
    failWith(q, 0, ['Skipper']);
    failWith(q, 0, ['Skipper', 'Queuer']);
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 5000);
    expect(where(q, a)).toBe('Unschedulable');
    expect(where(q, b)).toBe('Active');
  });

  it('a Pending plugin answering Queue skips back-off', () => {
    const pl = new FakeHintPlugin('Waiter', [nodeAdd]);
    const q = newQueue([pl]);
    const a = pod('a');
    q.add(a, 0);
    failWith(q, 0, [], ['Waiter']);
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 10);
    expect(where(q, a)).toBe('Active');
  });

  it('pods with no rejecting plugin move on any event of interest, never on others', () => {
    const q = newQueue([new FakeHintPlugin('NodeThing', [nodeAdd])], { queueingHints: false });
    const a = pod('a');
    q.add(a, 0);
    const qpi = q.pop(0)!;
    // Hints off, a later cycle, no plugins: straight to backoffQ (nothing to wait for).
    q.addUnschedulableIfNotPresent(qpi, 99, 0);
    expect(where(q, a)).toBe('Backoff');
  });

  it('a wildcard event (UnschedulableTimeout) moves every pod regardless of registrations', () => {
    const q = newQueue([new FakeHintPlugin('NodeThing', [nodeAdd], 'QueueSkip')]);
    const a = pod('a');
    q.add(a, 0);
    failWith(q, 0, ['NodeThing']);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined, 3000);
    expect(where(q, a)).toBe('Active');
  });

  it('preCheck filters the candidates', () => {
    const q = newQueue([new FakeHintPlugin('NodeThing', [nodeAdd])]);
    const a = pod('a', { priority: 1 });
    const b = pod('b');
    q.add(a, 0);
    q.add(b, 0);
    failWith(q, 0, ['NodeThing']);
    failWith(q, 0, ['NodeThing']);
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 5000, (p) => p.metadata.name === 'b');
    expect(where(q, a)).toBe('Unschedulable');
    expect(where(q, b)).toBe('Active');
  });

  it('a plugin registered for NodeAdd also hears UpdateNodeTaint, with the default hint', () => {
    const pl = new FakeHintPlugin('NodeThing', [nodeAdd], 'QueueSkip');
    const q = newQueue([pl]);
    const a = pod('a');
    q.add(a, 0);
    failWith(q, 0, ['NodeThing']);
    q.moveAllToActiveOrBackoffQueue({ resource: 'Node', actions: ['UpdateNodeLabel'] }, undefined, undefined, 5000);
    expect(where(q, a)).toBe('Unschedulable');
    q.moveAllToActiveOrBackoffQueue({ resource: 'Node', actions: ['UpdateNodeTaint'] }, undefined, undefined, 5000);
    expect(where(q, a)).toBe('Active');
    expect(pl.calls).toBe(0);
  });

  it('a plugin without EnqueueExtensions is requeued by any event on the unrolled resources', () => {
    const q = newQueue([new FakePlainPlugin('Plain') as unknown as Plugin]);
    const a = pod('a');
    q.add(a, 0);
    failWith(q, 0, ['Plain']);
    q.moveAllToActiveOrBackoffQueue({ resource: 'Service', actions: ['Add'] }, undefined, undefined, 5000);
    expect(where(q, a)).toBe('Unschedulable');
    q.moveAllToActiveOrBackoffQueue({ resource: 'Node', actions: ['UpdateNodeCondition'] }, undefined, undefined, 5000);
    expect(where(q, a)).toBe('Active');
  });

  it('registration on Pod matches AssignedPod events; hint-less registrations always Queue', () => {
    const q = newQueue([new FakeNoHintPlugin('PodThing', [{ resource: 'Pod', actions: ['Delete'] }])]);
    const a = pod('a');
    q.add(a, 0);
    failWith(q, 0, ['PodThing']);
    q.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, undefined, 5000);
    expect(where(q, a)).toBe('Unschedulable');
    q.moveAllToActiveOrBackoffQueue({ resource: 'AssignedPod', actions: ['Delete'] }, undefined, undefined, 5000);
    expect(where(q, a)).toBe('Active');
  });
});

describe('AssignedPodAdded, queueing hints off (TestPriorityQueue_AssignedPodAdded)', () => {
  it('moves only pods whose required affinity matches the new pod, or PodTopologySpread rejects in its namespace', () => {
    const podEvents: ClusterEvent[] = [{ resource: 'Pod', actions: ['Add'] }];
    const q = newQueue([new FakeNoHintPlugin('InterPodAffinity', podEvents), new FakeNoHintPlugin('PodTopologySpread', podEvents)], { queueingHints: false });
    const affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'zone' }] } };
    const wantsWeb = pod('wants-web', { priority: 3, spec: { affinity } });
    const wantsWebElsewhere = pod('wants-web-ns2', { namespace: 'ns2', priority: 2, spec: { affinity } });
    const spread = pod('spread', { priority: 1 });
    for (const p of [wantsWeb, wantsWebElsewhere, spread]) q.add(p, 0);
    for (const plugin of ['InterPodAffinity', 'InterPodAffinity', 'PodTopologySpread']) {
      const qpi = q.pop(0)!;
      qpi.unschedulablePlugins = [plugin];
      q.addUnschedulableIfNotPresent(qpi, 99, 0);
    }
    q.assignedPodAdded(pod('other', { labels: { app: 'db' }, nodeName: 'n1' }), 5000);
    expect(where(q, wantsWeb)).toBe('Unschedulable');
    expect(where(q, spread)).toBe('Active');
    q.assignedPodAdded(pod('web', { labels: { app: 'web' }, nodeName: 'n1' }), 5000);
    expect(where(q, wantsWeb)).toBe('Active');
    expect(where(q, wantsWebElsewhere)).toBe('Unschedulable');
  });
});

describe('in-flight pods and events (Test_InFlightPods)', () => {
  const hintMap = () => [new FakeHintPlugin('fooPlugin1', [pvAdd, nodeAdd, pvcAdd, { resource: 'CSINode', actions: ['Update'] }, { resource: 'AssignedPod', actions: ['Add'] }])];

  it('records the pod and the events of interest that arrive while it is in flight', () => {
    const q = newQueue(hintMap().map((p) => new FakeHintPlugin(p.name, [pvAdd])));
    const p1 = pod('targetpod', { uid: 'pod1' });
    q.add(p1, 0);
    q.moveAllToActiveOrBackoffQueue(pvcAdd, undefined, undefined, 0); // nothing in flight
    q.pop(0);
    q.moveAllToActiveOrBackoffQueue(pvAdd, undefined, undefined, 0);
    q.moveAllToActiveOrBackoffQueue(pvUpdate, undefined, undefined, 0); // nobody is interested
    expect(q.inFlightPods()).toEqual([p1]);
    expect(q.inFlightEvents()).toEqual([{ type: 'pod', pod: p1 }, { type: 'event', event: pvAdd, oldObj: undefined, newObj: undefined }]);
  });

  it('a pod coming back drops the events only it could see', () => {
    const q = newQueue(hintMap());
    const [p1, p2, p3] = ['targetpod', 'targetpod2', 'targetpod3'].map((n, i) => pod(n, { uid: `pod${i + 1}` }));
    [p1!, p2!, p3!].forEach((p, i) => q.add(p, i));
    const q1 = q.pop(0)!;
    q.moveAllToActiveOrBackoffQueue(pvAdd, undefined, undefined, 0);
    const q2 = q.pop(0)!;
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 0);
    q.pop(0);
    q.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, undefined, 0);
    // The intermediate pod comes back (no rejecting plugin: backoffQ).
    q.addUnschedulableIfNotPresent(q2, q.schedulingCycle, 0);
    expect(where(q, p2!)).toBe('Backoff');
    expect(q.inFlightPods()).toEqual([p1, p3]);
    expect(q.inFlightEvents().map((e) => (e.type === 'event' ? e.event : e.pod.metadata.name))).toEqual(['targetpod', pvAdd, nodeAdd, 'targetpod3', EventAssignedPodAdd]);
    // The head comes back: everything up to the next in-flight pod goes.
    q.addUnschedulableIfNotPresent(q1, q.schedulingCycle, 0);
    expect(q.inFlightEvents().map((e) => (e.type === 'event' ? e.event : e.pod.metadata.name))).toEqual(['targetpod3', EventAssignedPodAdd]);
  });

  it('events before the pop are ignored; a Skip hint sends it to unschedulablePods', () => {
    const pl = new FakeHintPlugin('fooPlugin1', [{ resource: 'AssignedPod', actions: ['Add'] }], 'QueueSkip');
    const q = newQueue([pl]);
    const p1 = pod('targetpod', { uid: 'pod1' });
    q.add(p1, 0);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined, 0);
    const qpi = q.pop(0)!;
    q.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, undefined, 0);
    qpi.unschedulablePlugins = ['fooPlugin1'];
    q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle, 0);
    expect(where(q, p1)).toBe('Unschedulable');
    expect(pl.calls).toBe(1);
    expect(q.inFlightPods()).toEqual([]);
    expect(q.inFlightEvents()).toEqual([]);
  });

  it('an event no rejecting plugin registered leaves it unschedulable; a Queue hint sends it to backoffQ', () => {
    const q = newQueue([new FakeHintPlugin('fooPlugin1', [{ resource: 'AssignedPod', actions: ['Add'] }]), new FakeHintPlugin('fooPlugin2', [{ resource: 'AssignedPod', actions: ['Add'] }], 'QueueSkip')]);
    const p1 = pod('a');
    const p2 = pod('b');
    q.add(p1, 0);
    q.add(p2, 0);
    const qa = q.pop(0)!;
    const qb = q.pop(0)!;
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 0); // of no interest at all
    q.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, undefined, 0);
    qa.unschedulablePlugins = ['fooPlugin2'];
    q.addUnschedulableIfNotPresent(qa, q.schedulingCycle, 0);
    expect(where(q, p1)).toBe('Unschedulable');
    qb.unschedulablePlugins = ['fooPlugin1', 'fooPlugin2'];
    q.addUnschedulableIfNotPresent(qb, q.schedulingCycle, 0);
    expect(where(q, p2)).toBe('Backoff');
  });

  it('a Pending plugin answering Queue for a concurrent event sends it to activeQ', () => {
    const ev = { resource: 'AssignedPod' as const, actions: ['Add' as const] };
    const q = newQueue([new FakeHintPlugin('fooPlugin3', [ev], 'QueueSkip'), new FakeHintPlugin('fooPlugin2', [ev]), new FakeHintPlugin('fooPlugin1', [ev])]);
    const p1 = pod('targetpod', { uid: 'pod1' });
    const p2 = pod('targetpod2', { uid: 'pod2' });
    q.add(p1, 0);
    q.add(p2, 0);
    const q1 = q.pop(0)!;
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 0);
    const q2 = q.pop(0)!;
    q.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, undefined, 0);
    q.addUnschedulableIfNotPresent(q1, q.schedulingCycle, 0);
    q2.unschedulablePlugins = ['fooPlugin2', 'fooPlugin3'];
    q2.pendingPlugins = ['fooPlugin1'];
    q.addUnschedulableIfNotPresent(q2, q.schedulingCycle, 0);
    expect(q.podsInActiveQ()).toEqual([p2]);
    expect(q.inFlightPods()).toEqual([]);
  });

  it('a popped pod has empty rejecting plugins', () => {
    const q = newQueue(hintMap());
    q.add(pod('a'), 0);
    failWith(q, 0, ['fooPlugin1'], ['fooPlugin1']);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined, 0);
    q.flushBackoffQCompleted(5000);
    const qpi = q.pop(5000)!;
    expect(qpi.unschedulablePlugins).toEqual([]);
    expect(qpi.pendingPlugins).toEqual([]);
  });

  it('a multi-action event is delivered as one event per action', () => {
    const q = newQueue([new FakeHintPlugin('fooPlugin1', [{ resource: 'Node', actions: ['UpdateNodeLabel', 'UpdateNodeTaint'] }])]);
    q.add(pod('a'), 0);
    q.pop(0);
    q.moveAllToActiveOrBackoffQueue({ resource: 'Node', actions: ['UpdateNodeLabel', 'UpdateNodeTaint'] }, undefined, undefined, 0);
    expect(q.inFlightEvents().slice(1).map((e) => (e.type === 'event' ? e.event.actions : []))).toEqual([['UpdateNodeLabel'], ['UpdateNodeTaint']]);
  });
});

describe('flushUnschedulablePodsLeftover', () => {
  it('retries pods unschedulable for longer than 5 minutes (strictly), not before', () => {
    const q = newQueue([new FakeHintPlugin('NodeThing', [nodeAdd])]);
    const a = pod('a');
    q.add(a, 0);
    failWith(q, 1000, ['NodeThing']);
    q.flushUnschedulablePodsLeftover(1000 + 300_000);
    expect(where(q, a)).toBe('Unschedulable');
    q.flushUnschedulablePodsLeftover(1000 + 300_001);
    expect(where(q, a)).toBe('Active');
  });

  it('leaves pods held by scheduling gates alone', () => {
    const q = newQueue([new FakeSchedulingGates()], { gates: [new FakeSchedulingGates()] });
    const g = pod('gated', { spec: { schedulingGates: [{ name: 'example.com/gate' }] } });
    q.add(g, 0);
    q.flushUnschedulablePodsLeftover(10 * 60_000);
    expect(q.view(10 * 60_000).gated.map((e) => e.pod)).toEqual(['default/gated']);
  });
});

describe('gated pods (PreEnqueue)', () => {
  it('are kept in unschedulablePods with gated=true and released by the gates’ removal', () => {
    const gates = new FakeSchedulingGates();
    const q = newQueue([gates, new FakeHintPlugin('NodeThing', [nodeAdd])], { gates: [gates] });
    const g = pod('gated', { spec: { schedulingGates: [{ name: 'example.com/gate' }] } });
    q.add(g, 5);
    expect(q.pop(5)).toBeUndefined();
    const v = q.view(5);
    expect(v.gated).toEqual([{ pod: 'default/gated', priority: 0, attempts: 0, timestamp: 5, unschedulablePlugins: ['SchedulingGates'], pendingPlugins: [], message: 'waiting for scheduling gates: [example.com/gate]', enqueuedAt: 5 }]);
    expect(v.unschedulable).toEqual([]);
    // Events do not release it.
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 10);
    expect(q.get('default/gated')!.pInfo.gated).toBe(true);
    // Removing the gates does, straight to activeQ (a gated pod is never backing off).
    const open = { ...g, spec: { ...g.spec, schedulingGates: [] } };
    q.update(g, open, 20);
    expect(where(q, g)).toBe('Active');
    expect(q.get('default/gated')!.pInfo.gated).toBe(false);
    expect(q.view(20).active[0]!.message).toBeUndefined();
    expect(q.pop(20)!.podInfo.pod).toBe(open);
  });

  it('with hints off, any spec change re-runs PreEnqueue', () => {
    const gates = new FakeSchedulingGates();
    const q = newQueue([gates], { gates: [gates], queueingHints: false });
    const g = pod('gated', { spec: { schedulingGates: [{ name: 'x' }] } });
    q.add(g, 0);
    const open = { ...g, spec: { ...g.spec, schedulingGates: [] } };
    q.update(g, open, 1);
    expect(where(q, g)).toBe('Active');
  });

  it('a pod gated by another PreEnqueue plugin is re-checked on the events that plugin registered', () => {
    const hold = new FakeHoldGate();
    const q = newQueue([hold], { gates: [hold] });
    const h = pod('h', { labels: { hold: 'true' } });
    q.add(h, 0);
    expect(q.view(0).gated).toHaveLength(1);
    // Still held: PreEnqueue runs again and keeps it gated.
    q.moveAllToActiveOrBackoffQueue({ resource: 'AssignedPod', actions: ['UpdatePodLabel'] }, undefined, undefined, 1);
    expect(q.view(1).gated).toHaveLength(1);
    const released = { ...h, metadata: { ...h.metadata, labels: {} } };
    q.update(h, released, 2);
    expect(where(q, h)).toBe('Active');
  });
});

describe('Update (TestPriorityQueue_Update)', () => {
  it('adds unknown pods, updates pods in activeQ and backoffQ in place', () => {
    const q = newQueue([new FakeHintPlugin('LabelThing', [{ resource: 'Pod', actions: ['UpdatePodLabel'] }])]);
    q.update(undefined, high, 0);
    expect(where(q, high)).toBe('Active');
    expect(q.nominatedPodsForNode('node1')).toEqual([]);
    const highNominated = { ...high, status: { nominatedNodeName: 'node1' } };
    q.update(high, highNominated, 0);
    expect(q.podsInActiveQ()).toEqual([highNominated]);
    expect(q.nominatedPodsForNode('node1').map((p) => p.pod)).toEqual([highNominated]);

    // In backoffQ: stays there with the new pod.
    q.add(med, 0);
    const qpi = q.pop(0)!; // highNominated
    q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle, 0);
    expect(where(q, highNominated)).toBe('Backoff');
    const updated = { ...highNominated, metadata: { ...highNominated.metadata, annotations: { foo: 'test' } } };
    q.update(highNominated, updated, 10);
    expect(where(q, updated)).toBe('Backoff');
    expect(q.podsInBackoffQ()).toEqual([updated]);
  });

  it('an unschedulable pod moves when a rejecting plugin’s hint likes the update: backoffQ, then activeQ after back-off', () => {
    const q = newQueue([new FakeHintPlugin('LabelThing', [{ resource: 'Pod', actions: ['UpdatePodLabel'] }])]);
    const a = pod('a', { labels: { v: '1' } });
    q.add(a, 0);
    failWith(q, 0, ['LabelThing']);
    // An annotation change (UpdatePodOther) does not interest LabelThing.
    const annotated = { ...a, metadata: { ...a.metadata, annotations: { x: 'y' } } };
    q.update(a, annotated, 100);
    expect(where(q, a)).toBe('Unschedulable');
    expect(q.get('default/a')!.pInfo.podInfo.pod).toBe(annotated);
    const relabelled = { ...annotated, metadata: { ...annotated.metadata, labels: { v: '2' } } };
    q.update(annotated, relabelled, 200);
    expect(where(q, a)).toBe('Backoff');
    // Once more after the back-off ended: activeQ.
    q.flushBackoffQCompleted(1000);
    const again = failWith(q, 1000, ['LabelThing']);
    expect(again.attempts).toBe(2);
    const relabelled2 = { ...relabelled, metadata: { ...relabelled.metadata, labels: { v: '3' } } };
    q.update(relabelled, relabelled2, 3000);
    expect(where(q, a)).toBe('Active');
  });

  it('hints off: isPodUpdated ignores status and resourceVersion', () => {
    const q = newQueue([new FakeHintPlugin('LabelThing', [nodeAdd])], { queueingHints: false });
    const a = pod('a');
    q.add(a, 0);
    const qpi = q.pop(0)!;
    qpi.unschedulablePlugins = ['LabelThing'];
    q.addUnschedulableIfNotPresent(qpi, 99, 0);
    expect(where(q, a)).toBe('Unschedulable');
    const statusOnly = { ...a, metadata: { ...a.metadata, resourceVersion: '42' }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False' as const }] } };
    q.update(a, statusOnly, 100);
    expect(where(q, a)).toBe('Unschedulable');
    const annotated = { ...statusOnly, metadata: { ...statusOnly.metadata, annotations: { foo: 'test' } } };
    q.update(statusOnly, annotated, 100);
    expect(where(q, a)).toBe('Backoff');
  });

  it('an update of an in-flight pod is only recorded, and counts when the pod comes back', () => {
    const q = newQueue([new FakeHintPlugin('LabelThing', [{ resource: 'Pod', actions: ['UpdatePodLabel'] }])]);
    const a = pod('a');
    q.add(a, 0);
    const qpi = q.pop(0)!;
    const relabelled = { ...a, metadata: { ...a.metadata, labels: { x: '1' } } };
    q.update(a, relabelled, 10);
    expect(q.get('default/a')).toBeUndefined();
    qpi.unschedulablePlugins = ['LabelThing'];
    q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle, 20);
    expect(where(q, a)).toBe('Backoff');
  });
});

describe('Delete (TestPriorityQueue_Delete)', () => {
  it('removes the pod from whichever sub-queue holds it, and its nomination', () => {
    const q = newQueue([new FakeHintPlugin('NodeThing', [nodeAdd])]);
    q.add(med, 0);
    q.add(low, 0);
    q.delete(med);
    expect(q.get(podKey(med))).toBeUndefined();
    expect(q.nominatedPodsForNode('node1').map((p) => p.pod)).toEqual([low]);
    failWith(q, 0, ['NodeThing']);
    q.delete(low);
    expect(q.pendingPods()).toEqual({ pods: [], summary: 'activeQ:0; backoffQ:0; unschedulablePods:0' });
    expect(q.nominatedPodsForNode('node1')).toEqual([]);
  });
});

describe('nominator (TestPriorityQueue_NominatedPodsForNode, TestPriorityQueue_UpdateNominatedPodForNode)', () => {
  it('adds, overrides, keeps nominations across updates that do not touch them, and deletes', () => {
    const q = newQueue();
    const a = pod('a', { priority: 1 });
    q.add(a, 0);
    q.addNominatedPod(new PodInfo(a), { nominatingMode: 'Override', nominatedNodeName: 'node5' });
    expect(q.nominatedPodsForNode('node5').map((p) => p.pod)).toEqual([a]);
    // Override moves it.
    q.addNominatedPod(new PodInfo(a), 'node2');
    expect(q.nominatedPodsForNode('node5')).toEqual([]);
    expect(q.nominatedPodsForNode('node2').map((p) => p.pod)).toEqual([a]);
    // An update with no nominatedNodeName on either side keeps the in-memory nomination.
    const a2 = { ...a, metadata: { ...a.metadata, annotations: { k: 'v' } } };
    q.update(a, a2, 1);
    expect(q.nominatedPodsForNode('node2').map((p) => p.pod)).toEqual([a2]);
    // An update that sets one wins.
    const a3 = { ...a2, status: { nominatedNodeName: 'node3' } };
    q.update(a2, a3, 2);
    expect(q.nominatedPodsForNode('node2')).toEqual([]);
    expect(q.nominatedPodsForNode('node3').map((p) => p.pod)).toEqual([a3]);
    // Noop without a status nomination nominates nothing.
    const b = pod('b');
    q.addNominatedPod(new PodInfo(b));
    expect(q.nominator.nominatedPodToNode.has('uid-b')).toBe(false);
    // A bound or deleted live pod is not nominated.
    q.addNominatedPod(new PodInfo(b), 'node3', { ...b, spec: { ...b.spec, nodeName: 'node9' } });
    q.addNominatedPod(new PodInfo(b), 'node3', null);
    expect(q.nominatedPodsForNode('node3')).toHaveLength(1);
    q.deleteNominatedPodIfExists(a3);
    expect(q.nominatedPodsForNode('node3')).toEqual([]);
  });

  it('resolves nominated pods to the queue’s current PodInfo, else the last nominated', () => {
    const q = newQueue();
    const a = pod('a');
    q.add(a, 0);
    const pi = new PodInfo(a);
    q.addNominatedPod(pi, 'n1');
    expect(q.nominatedPodsForNode('n1')[0]).toBe(q.get('default/a')!.pInfo.podInfo);
    q.pop(0); // in flight: in no sub-queue
    expect(q.nominatedPodsForNode('n1')[0]).toBe(pi);
  });
});

describe('activate', () => {
  it('moves unschedulable and backing-off pods to activeQ; an in-flight pod is requeued when it fails', () => {
    const q = newQueue([new FakeHintPlugin('NodeThing', [nodeAdd], 'QueueSkip')]);
    const a = pod('a', { priority: 2 });
    const b = pod('b', { priority: 1 });
    q.add(a, 0);
    q.add(b, 0);
    failWith(q, 0, ['NodeThing']);
    q.activate([a], 1);
    expect(where(q, a)).toBe('Active');
    q.pop(1); // a
    const qb = q.pop(1)!;
    q.activate([b], 2);
    qb.unschedulablePlugins = ['NodeThing'];
    q.addUnschedulableIfNotPresent(qb, q.schedulingCycle, 2);
    expect(where(q, b)).toBe('Backoff');
  });
});

describe('view', () => {
  it('lists sub-queues as plain data: pop order, expiry order, enqueue times and messages', () => {
    const q = newQueue([new FakeHintPlugin('NodeThing', [nodeAdd])]);
    q.add(pod('x', { priority: 1 }), 0);
    q.add(pod('y', { priority: 5 }), 10);
    q.add(pod('z', { priority: 5 }), 5);
    const qz = q.pop(20)!;
    qz.unschedulablePlugins = ['NodeThing'];
    q.addUnschedulableIfNotPresent(qz, q.schedulingCycle, 30, '0/3 nodes are available: 3 Insufficient cpu.');
    const v = q.view(40);
    expect(v.active.map((e) => e.pod)).toEqual(['default/y', 'default/x']);
    expect(v.active[0]).toEqual({ pod: 'default/y', priority: 5, attempts: 0, timestamp: 10, unschedulablePlugins: [], pendingPlugins: [], enqueuedAt: 10 });
    expect(v.unschedulable).toEqual([
      { pod: 'default/z', priority: 5, attempts: 1, timestamp: 30, backoffExpiresAt: 1030, unschedulablePlugins: ['NodeThing'], pendingPlugins: [], message: '0/3 nodes are available: 3 Insufficient cpu.', enqueuedAt: 30 },
    ]);
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 50);
    expect(q.view(50).backoff[0]).toMatchObject({ pod: 'default/z', enqueuedAt: 50 });
    q.setMessage('default/z', undefined);
    expect(q.view(50).backoff[0]!.message).toBeUndefined();
  });
});

describe('snapshot', () => {
  it('cloneState mid-run gives a queue that continues identically', () => {
    const gates = new FakeSchedulingGates();
    const plugins: Plugin[] = [new FakeHintPlugin('NodeThing', [nodeAdd]), new FakeHintPlugin('PVThing', [pvAdd], 'QueueSkip'), gates];
    const q = newQueue(plugins, { gates: [gates] });
    for (let i = 0; i < 8; i++) q.add(pod(`p${i}`, { priority: i % 3, nominatedNodeName: i % 2 ? 'n1' : undefined }), i);
    q.add(pod('g', { spec: { schedulingGates: [{ name: 'gate' }] } }), 9);
    failWith(q, 10, ['NodeThing']);
    failWith(q, 11, ['PVThing']);
    q.pop(12); // in flight across the snapshot
    q.moveAllToActiveOrBackoffQueue(pvAdd, undefined, undefined, 13);

    const c = cloneState(q);
    const script = (x: PriorityQueue): unknown[] => {
      const out: unknown[] = [];
      x.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined, 500);
      x.flushBackoffQCompleted(2000);
      for (let qpi = x.pop(2000); qpi; qpi = x.pop(2000)) {
        out.push([qpi.podInfo.pod.metadata.name, qpi.attempts, qpi.schedulingCycle]);
        qpi.unschedulablePlugins = ['PVThing'];
        x.addUnschedulableIfNotPresent(qpi, x.schedulingCycle, 2000);
      }
      out.push(x.inFlightEvents().length, x.view(3000), x.nominatedPodsForNode('n1').map((p) => p.pod.metadata.name));
      return out;
    };
    const want = script(q);
    expect(script(c)).toEqual(want);
    expect((want[0] as unknown[])[0]).toBeDefined();
  });
});

describe('fixtures', () => {
  it('ClusterEvent types line up with the framework', () => {
    const e: ClusterEvent = { resource: 'Node', actions: ['Add'] };
    expect(e.actions).toEqual(['Add']);
  });
});
