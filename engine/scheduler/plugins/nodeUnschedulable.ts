// NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go, v1.32):
// a cordoned node (spec.unschedulable) takes only pods tolerating the
// node.kubernetes.io/unschedulable:NoSchedule taint.
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import type { Node, Pod, Taint } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { ClusterEvent, EnqueueExtensions, FilterPlugin, PluginDefinition, QueueingHint } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { errorStatus, unresolvable, type MaybeStatus } from '../framework/status';
import { tolerationsTolerateTaint } from './helper/taints';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
/** ErrReasonUnknownCondition: declared upstream, unused by the plugin. */
export const ERR_REASON_UNKNOWN_CONDITION = 'node(s) had unknown conditions';

/** v1.TaintNodeUnschedulable with effect NoSchedule. */
export const UNSCHEDULABLE_TAINT: Readonly<Taint> = Object.freeze({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });

export class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {
  readonly name = 'NodeUnschedulable';

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const node = nodeInfo.node;
    if (!node) return errorStatus('node not found');
    if (!node.spec?.unschedulable) return null;
    // Tolerating the unschedulable taint also tolerates spec.unschedulable.
    if (tolerationsTolerateTaint(pod.spec.tolerations, UNSCHEDULABLE_TAINT)) return null;
    return unresolvable(ERR_REASON_UNSCHEDULABLE);
  }

  // Queueing hints on (v1.32 default): no UpdateNodeLabel (preCheck is gone).
  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'Node', actions: ['Add', 'UpdateNodeTaint'] },
      { resource: 'Pod', actions: ['UpdatePodTolerations'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, newObj: KObject | undefined): QueueingHint {
    if (event.resource === 'Node') return this.isSchedulableAfterNodeChange(oldObj as Node | undefined, newObj as Node | undefined);
    return this.isSchedulableAfterPodTolerationChange(pod, newObj as Pod | undefined);
  }

  /** Queue when a node turns schedulable, or a schedulable node is added. */
  private isSchedulableAfterNodeChange(original: Node | undefined, modified: Node | undefined): QueueingHint {
    if (!modified) return 'Queue';
    const nowUnschedulable = !!modified.spec?.unschedulable;
    if (original !== undefined && original.spec?.unschedulable && !nowUnschedulable) return 'Queue';
    if (original === undefined && !nowUnschedulable) return 'Queue';
    return 'QueueSkip';
  }

  /** Tolerations can only be added: queue when this pod now tolerates the unschedulable taint. */
  private isSchedulableAfterPodTolerationChange(pod: Pod, modified: Pod | undefined): QueueingHint {
    if (!modified) return 'Queue';
    if (pod.metadata.uid === modified.metadata.uid) {
      return tolerationsTolerateTaint(modified.spec?.tolerations, UNSCHEDULABLE_TAINT) ? 'Queue' : 'QueueSkip';
    }
    return 'QueueSkip';
  }
}

registerClass('PluginNodeUnschedulable', NodeUnschedulable);

export const nodeUnschedulableDefinition: PluginDefinition = {
  name: 'NodeUnschedulable',
  factory: () => new NodeUnschedulable(),
};
