// NodeName (pkg/scheduler/framework/plugins/nodename/node_name.go, v1.32): a
// pod with spec.nodeName fits only the node of that name. (v1.32 has no
// PreFilter here: the 1.27 one was reverted.)
import { registerClass } from '../../sim/serial';
import type { Node, Pod } from '../framework/api';
import type { CycleState } from '../framework/cycleState';
import type { ClusterEvent, EnqueueExtensions, FilterPlugin, PluginDefinition } from '../framework/interface';
import type { NodeInfo } from '../framework/nodeInfo';
import { errorStatus, unresolvable, type MaybeStatus } from '../framework/status';

export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

/** nodename.Fits */
export function nodeNameFits(pod: Pod, node: Node): boolean {
  const want = pod.spec.nodeName;
  return !want || want === node.metadata.name;
}

export class NodeName implements FilterPlugin, EnqueueExtensions {
  readonly name = 'NodeName';

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const node = nodeInfo.node;
    if (!node) return errorStatus('node not found');
    return nodeNameFits(pod, node) ? null : unresolvable(ERR_REASON_NODE_NAME);
  }

  // With queueing hints preCheck is gone, so only Node/Add (no hint: always Queue).
  eventsToRegister(): ClusterEvent[] {
    return [{ resource: 'Node', actions: ['Add'] }];
  }
}

registerClass('PluginNodeName', NodeName);

export const nodeNameDefinition: PluginDefinition = {
  name: 'NodeName',
  factory: () => new NodeName(),
};
