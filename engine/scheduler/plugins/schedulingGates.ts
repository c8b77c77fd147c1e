// SchedulingGates (pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go, v1.32):
// a PreEnqueue plugin keeping pods with spec.schedulingGates out of the
// activeQ. Upstream answers UnschedulableAndUnresolvable (the queue then
// parks the pod as gated) with `waiting for scheduling gates: [a b]`, Go's %v
// of the gate names.
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import type { Pod } from '../framework/api';
import type { ClusterEvent, EnqueueExtensions, PluginDefinition, PreEnqueuePlugin, QueueingHint } from '../framework/interface';
import { unresolvable, type MaybeStatus } from '../framework/status';

export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = 'SchedulingGates';

  preEnqueue(pod: Pod): MaybeStatus {
    const gates = pod.spec.schedulingGates;
    if (!gates || gates.length === 0) return null;
    return unresolvable(`waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
  }

  // SchedulerQueueingHints is on in v1.32: only the removal of the pod's own
  // gates brings it back.
  eventsToRegister(): ClusterEvent[] {
    return [{ resource: 'Pod', actions: ['UpdatePodSchedulingGatesEliminated'] }];
  }

  /** isSchedulableAfterUpdatePodSchedulingGatesEliminated: only the pod's own update matters. */
  isSchedulableAfter(_event: ClusterEvent, pod: Pod, _oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    if (!newObj) return 'Queue';
    return newObj.metadata.uid !== pod.metadata.uid ? 'QueueSkip' : 'Queue';
  }
}

registerClass('PluginSchedulingGates', SchedulingGates);

export const schedulingGatesDefinition: PluginDefinition = {
  name: 'SchedulingGates',
  factory: () => new SchedulingGates(),
};
