// Tiny fake plugins for the queue's tests (registered, so queues holding them
// can be snapshot). Not the real plugins: those live in ../plugins.
import { registerClass } from '../../sim/serial';
import type { KObject } from '../../apimachinery/types';
import { podPriority, type Pod } from '../framework/api';
import type { ClusterEvent, EnqueueExtensions, PreEnqueuePlugin, QueuedPodInfo, QueueingHint, QueueSortPlugin } from '../framework/interface';
import { unresolvable, type MaybeStatus } from '../framework/status';
import { makePod, type PodOpts } from '../testing/fixtures';

/** PrioritySort's less: higher priority first, then earlier timestamp. */
export class FakePrioritySort implements QueueSortPlugin {
  readonly name = 'PrioritySort';
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = podPriority(a.podInfo.pod);
    const p2 = podPriority(b.podInfo.pod);
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}

/** A plugin with EnqueueExtensions whose hint always answers `answer` (and counts calls). */
export class FakeHintPlugin implements EnqueueExtensions {
  calls = 0;
  constructor(
    readonly name: string,
    readonly events: ClusterEvent[],
    public answer: QueueingHint = 'Queue',
  ) {}
  eventsToRegister(): ClusterEvent[] {
    return this.events;
  }
  isSchedulableAfter(_e: ClusterEvent, _pod: Pod, _o: KObject | undefined, _n: KObject | undefined): QueueingHint {
    this.calls++;
    return this.answer;
  }
}

/** EnqueueExtensions without a hint (Queue on every registered event). */
export class FakeNoHintPlugin implements EnqueueExtensions {
  constructor(
    readonly name: string,
    readonly events: ClusterEvent[],
  ) {}
  eventsToRegister(): ClusterEvent[] {
    return this.events;
  }
}

/** A plugin without EnqueueExtensions (registered for everything, as upstream's default). */
export class FakePlainPlugin {
  constructor(readonly name: string) {}
}

/** SchedulingGates: gates pods with spec.schedulingGates; requeued by the gates' removal. */
export class FakeSchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = 'SchedulingGates';
  preEnqueue(pod: Pod): MaybeStatus {
    const gates = pod.spec.schedulingGates ?? [];
    if (gates.length === 0) return null;
    return unresolvable(`waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
  }
  eventsToRegister(): ClusterEvent[] {
    return [{ resource: 'Pod', actions: ['UpdatePodSchedulingGatesEliminated'] }];
  }
  isSchedulableAfter(_e: ClusterEvent, pod: Pod, _o: KObject | undefined, n: KObject | undefined): QueueingHint {
    const p = n as Pod | undefined;
    return p && p.metadata.uid === pod.metadata.uid && (p.spec.schedulingGates?.length ?? 0) === 0 ? 'Queue' : 'QueueSkip';
  }
}

/** A PreEnqueue plugin gating pods labelled hold=true; a label update may release them. */
export class FakeHoldGate implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = 'HoldGate';
  preEnqueue(pod: Pod): MaybeStatus {
    return pod.metadata.labels?.hold === 'true' ? unresolvable('held') : null;
  }
  eventsToRegister(): ClusterEvent[] {
    return [{ resource: 'Pod', actions: ['UpdatePodLabel'] }];
  }
}

registerClass('QueueTestPrioritySort', FakePrioritySort);
registerClass('QueueTestHintPlugin', FakeHintPlugin);
registerClass('QueueTestNoHintPlugin', FakeNoHintPlugin);
registerClass('QueueTestPlainPlugin', FakePlainPlugin);
registerClass('QueueTestSchedulingGates', FakeSchedulingGates);
registerClass('QueueTestHoldGate', FakeHoldGate);

/** A pending pod in namespace ns with a uid derived from its name. */
export function pod(name: string, o: PodOpts & { nominatedNodeName?: string } = {}): Pod {
  const p = makePod(name, o);
  if (o.nominatedNodeName) p.status = { ...p.status, nominatedNodeName: o.nominatedNodeName };
  return p;
}
