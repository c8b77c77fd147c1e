// NodePorts (pkg/scheduler/framework/plugins/nodeports/node_ports.go, v1.32):
// a pod's host ports must be free on the node. PreFilter collects the pod's
// (containers') host ports; Filter checks them against NodeInfo.usedPorts with
// HostPortInfo.CheckConflict: 0.0.0.0 conflicts with every IP.
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import type { Pod } from '../framework/api';
import { stateKey, type CycleState } from '../framework/cycleState';
import type { ClusterEvent, EnqueueExtensions, FilterPlugin, PluginDefinition, PreFilterPlugin, PreFilterResult, QueueingHint } from '../framework/interface';
import { DEFAULT_BIND_ALL_HOST_IP, hostPortKey, type HostPortInfo, type NodeInfo } from '../framework/nodeInfo';
import { errorStatus, SKIP, unschedulable, type MaybeStatus } from '../framework/status';

export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

/** A wanted host port, sanitized once: ip ("" → 0.0.0.0) and the "PROTOCOL/port" key of usedPorts. */
export interface WantedPort {
  ip: string;
  key: string;
}

export const PRE_FILTER_STATE_KEY = stateKey<WantedPort[]>('PreFilterNodePorts');

/** getContainerPorts: the host ports (> 0) of the pod's containers. */
export function getContainerPorts(pod: Pod): WantedPort[] {
  const out: WantedPort[] = [];
  for (const c of pod.spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || DEFAULT_BIND_ALL_HOST_IP, key: hostPortKey(p.protocol, p.hostPort) });
    }
  }
  return out;
}

/** HostPortInfo.CheckConflict for a sanitized port. */
export function checkConflict(used: HostPortInfo, want: WantedPort): boolean {
  if (want.ip === DEFAULT_BIND_ALL_HOST_IP) {
    for (const set of used.values()) if (set.has(want.key)) return true;
    return false;
  }
  return !!(used.get(DEFAULT_BIND_ALL_HOST_IP)?.has(want.key) || used.get(want.ip)?.has(want.key));
}

/** fitsPorts */
export function fitsPorts(want: readonly WantedPort[], used: HostPortInfo): boolean {
  for (let i = 0; i < want.length; i++) if (checkConflict(used, want[i]!)) return false;
  return true;
}

/** nodeports.Fits */
export function nodePortsFit(pod: Pod, nodeInfo: NodeInfo): boolean {
  return fitsPorts(getContainerPorts(pod), nodeInfo.usedPorts);
}

export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = 'NodePorts';

  preFilter(state: CycleState, pod: Pod, _nodes: readonly NodeInfo[]): { result?: PreFilterResult; status: MaybeStatus } {
    const ports = getContainerPorts(pod);
    if (ports.length === 0) return { status: SKIP };
    state.write(PRE_FILTER_STATE_KEY, ports);
    return { status: null };
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const want = state.read(PRE_FILTER_STATE_KEY);
    if (want === undefined) return errorStatus(`reading "${PRE_FILTER_STATE_KEY.name}" from cycleState: not found`);
    return fitsPorts(want, nodeInfo.usedPorts) ? null : unschedulable(ERR_REASON_NODE_PORTS);
  }

  // Queueing hints on: Pod/Delete with a hint, Node/Add only (no hint: always Queue).
  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'Pod', actions: ['Delete'] },
      { resource: 'Node', actions: ['Add'] },
    ];
  }

  isSchedulableAfter(event: ClusterEvent, pod: Pod, oldObj: KObject | undefined, _newObj: KObject | undefined): QueueingHint {
    if (event.resource === 'Node') return 'Queue';
    return isSchedulableAfterPodDeleted(pod, oldObj as Pod | undefined);
  }
}

/** Queue only when the deleted pod was placed (or nominated) and held a port the pod wants. */
export function isSchedulableAfterPodDeleted(pod: Pod, deleted: Pod | undefined): QueueingHint {
  if (!deleted) return 'Queue';
  if (!deleted.spec?.nodeName && !deleted.status?.nominatedNodeName) return 'QueueSkip';
  const used: HostPortInfo = new Map();
  for (const p of getContainerPorts(deleted)) {
    let set = used.get(p.ip);
    if (!set) used.set(p.ip, (set = new Set()));
    set.add(p.key);
  }
  if (used.size === 0) return 'QueueSkip';
  // Fits on a node holding only the deleted pod's ports: no common port, deleting it cannot help.
  return fitsPorts(getContainerPorts(pod), used) ? 'QueueSkip' : 'Queue';
}

registerClass('PluginNodePorts', NodePorts);

export const nodePortsDefinition: PluginDefinition = {
  name: 'NodePorts',
  factory: () => new NodePorts(),
};
