// PrioritySort (pkg/scheduler/framework/plugins/queuesort/priority_sort.go, v1.32):
// the activeQ order. Higher spec.priority first; equal priorities by the
// earlier queue timestamp.
import { registerClass } from '../../sim/serial';
import { podPriority } from '../framework/api';
import type { PluginDefinition, QueuedPodInfo, QueueSortPlugin } from '../framework/interface';

export class PrioritySort implements QueueSortPlugin {
  readonly name = 'PrioritySort';

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = podPriority(a.podInfo.pod);
    const p2 = podPriority(b.podInfo.pod);
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}

registerClass('PluginPrioritySort', PrioritySort);

export const prioritySortDefinition: PluginDefinition = {
  name: 'PrioritySort',
  factory: () => new PrioritySort(),
};
