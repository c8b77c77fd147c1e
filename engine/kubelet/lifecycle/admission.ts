// Pod admission (pkg/kubelet/lifecycle/predicate.go canAdmitPod /
// generalFilter): the scheduler's own AdmissionCheck run by the kubelet
// against its node and the pods it already runs — noderesources.Fits (pods,
// cpu, memory, ephemeral-storage, extended resources, against allocatable),
// node affinity / nodeSelector, nodeName, host ports — then the taints, of
// which the kubelet minds only NoExecute. The first failure names the
// rejection: `OutOfcpu` "Node didn't have enough resource: cpu, requested:
// 8000, used: 0, capacity: 4000", or the predicate's name with
// "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector".
import type { Node, Pod } from '../../scheduler/framework/api';
import { NodeInfo } from '../../scheduler/framework/nodeInfo';
import { fits } from '../../scheduler/plugins/nodeResourcesFit';
import { requiredNodeAffinity } from '../../scheduler/plugins/helper/nodeSelector';
import { ERR_REASON_POD } from '../../scheduler/plugins/nodeAffinity';
import { ERR_REASON_NODE_NAME, nodeNameFits } from '../../scheduler/plugins/nodeName';
import { ERR_REASON_NODE_PORTS, nodePortsFit } from '../../scheduler/plugins/nodePorts';
import { findMatchingUntoleratedTaint } from '../../scheduler/plugins/helper/taints';
import { ERR_REASON_NOT_MATCH } from '../../scheduler/plugins/taintToleration';

export interface AdmitResult {
  admit: boolean;
  reason: string;
  message: string;
}

/** The pod against the node and the pods already admitted there. */
export function canAdmitPod(pod: Pod, node: Node, admitted: readonly Pod[]): AdmitResult {
  const info = new NodeInfo(node.metadata.name!);
  info.setNode(node);
  for (const p of admitted) info.addPod(p);
  const insufficient = fits(pod, info);
  if (insufficient.length > 0) {
    const r = insufficient[0]!;
    return { admit: false, reason: `OutOf${r.resourceName}`, message: `Node didn't have enough resource: ${r.resourceName}, requested: ${r.requested}, used: ${r.used}, capacity: ${r.capacity}` };
  }
  const predicate = (name: string, desc: string): AdmitResult => ({ admit: false, reason: name, message: `Predicate ${name} failed: ${desc}` });
  if (!requiredNodeAffinity(pod).match(node)) return predicate('NodeAffinity', ERR_REASON_POD);
  if (!nodeNameFits(pod, node)) return predicate('NodeName', ERR_REASON_NODE_NAME);
  if (!nodePortsFit(pod, info)) return predicate('NodePorts', ERR_REASON_NODE_PORTS);
  if (findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, (t) => t.effect === 'NoExecute')) return predicate('TaintToleration', ERR_REASON_NOT_MATCH);
  return { admit: true, reason: '', message: '' };
}
