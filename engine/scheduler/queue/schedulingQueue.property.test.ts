// Random operation sequences against the PriorityQueue: every pop respects
// the QueueSort order, and every known pod is in exactly one place (activeQ,
// backoffQ, unschedulablePods, or in flight), with and without queueing hints.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { podKey, type Pod } from '../framework/api';
import type { Plugin, QueuedPodInfo } from '../framework/interface';
import { EventUnschedulableTimeout, type QueueClusterEvent } from './events';
import { PriorityQueue } from './schedulingQueue';
import { FakeHintPlugin, FakeHoldGate, FakeNoHintPlugin, FakePrioritySort, pod } from './testFakes';

const EVENTS: QueueClusterEvent[] = [
  { resource: 'Node', actions: ['Add'] },
  { resource: 'PersistentVolume', actions: ['Add'] },
  { resource: 'AssignedPod', actions: ['Delete'] },
  { resource: 'Node', actions: ['UpdateNodeLabel', 'UpdateNodeTaint'] },
  EventUnschedulableTimeout,
];
const PLUGINS = ['A', 'B', 'C', 'HoldGate'];
const N = 8;

type Cmd =
  | { t: 'add'; i: number }
  | { t: 'pop' }
  | { t: 'fail'; j: number; plugins: boolean[]; pending: boolean; error: boolean }
  | { t: 'bind'; j: number }
  | { t: 'event'; e: number }
  | { t: 'tick'; ms: number }
  | { t: 'update'; i: number; priority: number; hold: boolean; label: number }
  | { t: 'delete'; i: number };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ t: fc.constant('add' as const), i: fc.nat(N - 1) }),
  fc.constant({ t: 'pop' as const }),
  fc.record({ t: fc.constant('fail' as const), j: fc.nat(3), plugins: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), pending: fc.boolean(), error: fc.boolean() }),
  fc.record({ t: fc.constant('bind' as const), j: fc.nat(3) }),
  fc.record({ t: fc.constant('event' as const), e: fc.nat(EVENTS.length - 1) }),
  fc.record({ t: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 40_000 }) }),
  fc.record({ t: fc.constant('update' as const), i: fc.nat(N - 1), priority: fc.nat(3), hold: fc.boolean(), label: fc.nat(2) }),
  fc.record({ t: fc.constant('delete' as const), i: fc.nat(N - 1) }),
);

function run(cmds: Cmd[], hints: boolean): void {
  const sort = new FakePrioritySort();
  const hold = new FakeHoldGate();
  const plugins: Plugin[] = [new FakeHintPlugin('A', [{ resource: 'Node', actions: ['Add'] }]), new FakeHintPlugin('B', [{ resource: 'PersistentVolume', actions: ['Add'] }], 'QueueSkip'), new FakeNoHintPlugin('C', [{ resource: 'Pod', actions: ['UpdatePodLabel', 'Delete'] }]), hold];
  const q = new PriorityQueue({ queueSort: sort, preEnqueue: new Map([['default-scheduler', [hold]]]), enqueueExtensions: new Map(plugins.map((p) => [p.name, p])), queueingHints: hints });
  let now = 0;
  const current = new Map<number, Pod>(); // pods the queue is responsible for
  const inFlight: QueuedPodInfo[] = [];

  const check = (): void => {
    const places = [q.podsInActiveQ(), q.podsInBackoffQ(), q.unschedulablePodList()].map((ps) => ps.map(podKey));
    const all = places.flat();
    // No pod in two sub-queues, nor twice in one.
    expect(new Set(all).size).toBe(all.length);
    const flying = inFlight.map((p) => podKey(p.podInfo.pod));
    for (const k of flying) expect(all).not.toContain(k);
    const expected = [...current.values()].map(podKey).filter((k) => !flying.includes(k));
    expect([...all].sort()).toEqual([...expected].sort());
    if (hints) expect(q.inFlightPods().map(podKey).sort()).toEqual([...flying].sort());
    for (const k of places[2]!) {
      const g = q.get(k)!;
      // A gated pod is held. (Not conversely: PreEnqueue runs only on the way to activeQ.)
      if (g.pInfo.gated) expect(g.pInfo.podInfo.pod.metadata.labels?.hold).toBe('true');
    }
  };

  for (const c of cmds) {
    switch (c.t) {
      case 'add':
        if (!current.has(c.i)) {
          const p = pod(`p${c.i}`, { priority: c.i % 3 });
          current.set(c.i, p);
          q.add(p, now);
        }
        break;
      case 'pop': {
        const got = q.pop(now);
        if (!got) break;
        // The head is never after any pod left in activeQ.
        for (const p of q.podsInActiveQ()) expect(sort.less(q.get(podKey(p))!.pInfo, got)).toBe(false);
        inFlight.push(got);
        break;
      }
      case 'fail': {
        const qpi = inFlight[c.j % Math.max(1, inFlight.length)];
        if (!qpi) break;
        inFlight.splice(inFlight.indexOf(qpi), 1);
        const names = PLUGINS.filter((_, k) => c.plugins[k]);
        qpi.unschedulablePlugins = c.pending ? [] : names;
        qpi.pendingPlugins = c.pending ? names : [];
        expect(q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle, now, undefined, c.error)).toBeNull();
        break;
      }
      case 'bind': {
        const qpi = inFlight[c.j % Math.max(1, inFlight.length)];
        if (!qpi) break;
        inFlight.splice(inFlight.indexOf(qpi), 1);
        q.done(qpi.podInfo.pod);
        for (const [i, p] of current) if (p.metadata.uid === qpi.podInfo.pod.metadata.uid) current.delete(i);
        break;
      }
      case 'event':
        q.moveAllToActiveOrBackoffQueue(EVENTS[c.e]!, undefined, undefined, now);
        break;
      case 'tick':
        now += c.ms;
        q.flushBackoffQCompleted(now);
        q.flushUnschedulablePodsLeftover(now);
        break;
      case 'update': {
        const old = current.get(c.i);
        if (!old) break;
        // Without hints upstream re-adds an updated in-flight pod to activeQ; the
        // owner never passes those (being bound = assumed), so neither do we.
        if (!hints && inFlight.some((x) => x.podInfo.pod.metadata.uid === old.metadata.uid)) break;
        const labels: Record<string, string> = { v: String(c.label) };
        if (c.hold) labels.hold = 'true';
        const next: Pod = { ...old, metadata: { ...old.metadata, labels }, spec: { ...old.spec, priority: c.priority } };
        current.set(c.i, next);
        q.update(old, next, now);
        // An in-flight pod keeps its popped copy; the model follows the queue's.
        const f = inFlight.find((x) => x.podInfo.pod.metadata.uid === old.metadata.uid);
        if (f) current.set(c.i, f.podInfo.pod);
        break;
      }
      case 'delete': {
        const old = current.get(c.i);
        if (!old || inFlight.some((x) => x.podInfo.pod.metadata.uid === old.metadata.uid)) break;
        q.delete(old);
        current.delete(c.i);
        break;
      }
    }
    check();
  }
  // Draining: pops come out in QueueSort order.
  now += 3_600_000;
  q.flushUnschedulablePodsLeftover(now);
  q.flushBackoffQCompleted(now);
  let prev: QueuedPodInfo | undefined;
  for (let p = q.pop(now); p; p = q.pop(now)) {
    if (prev) expect(sort.less(p, prev)).toBe(false);
    prev = p;
  }
}

describe('PriorityQueue properties', () => {
  it('pop order respects less(); no pod is ever in two places', () => {
    fc.assert(
      fc.property(fc.array(cmd, { maxLength: 80 }), fc.boolean(), (cmds, hints) => run(cmds, hints)),
      { numRuns: 300 },
    );
  });
});
