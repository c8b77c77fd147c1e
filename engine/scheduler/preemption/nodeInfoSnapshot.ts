// NodeInfo.Snapshot (pkg/scheduler/framework/types.go): preemption's dry run
// removes and re-adds pods on a copy, never on the scheduler's snapshot.
// PodInfos and the Node object are immutable and shared; every collection that
// addPod/removePod change is copied.
import { cloneResource } from '../framework/resources';
import { NodeInfo } from '../framework/nodeInfo';

export function snapshotNodeInfo(src: NodeInfo): NodeInfo {
  const c = new NodeInfo(src.name);
  c.node = src.node;
  c.pods = src.pods.slice();
  c.podsWithAffinity = src.podsWithAffinity.slice();
  c.podsWithRequiredAntiAffinity = src.podsWithRequiredAntiAffinity.slice();
  c.usedPorts = new Map();
  for (const [ip, set] of src.usedPorts) c.usedPorts.set(ip, new Set(set));
  c.requested = cloneResource(src.requested);
  c.nonZeroRequested = cloneResource(src.nonZeroRequested);
  c.allocatable = cloneResource(src.allocatable);
  // Image states are not changed by pod additions or removals.
  c.imageStates = src.imageStates;
  c.pvcRefCounts = new Map(src.pvcRefCounts);
  c.generation = src.generation;
  return c;
}
