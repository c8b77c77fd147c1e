// Taint helpers as upstream's pkg/util/taints and controller_utils'
// SwapNodeControllerTaint: taints match on key and effect; added taints get
// timeAdded; the result replaces spec.taints (which has no merge key).
import { rfc3339 } from '../../apiserver/http/time';
import type { KObject } from '../../apimachinery/types';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';

export const UNREACHABLE_TAINT: Taint = { key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' };
export const NOT_READY_TAINT: Taint = { key: TAINT_NODE_NOT_READY, effect: 'NoExecute' };

export function matchTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

export function taintExists(taints: readonly Taint[], t: Taint): boolean {
  return taints.some((x) => matchTaint(x, t));
}

/** The taints after adding (stamped with timeAdded = now) and removing, as AddOrUpdateTaintOnNode then RemoveTaintOffNode. */
export function swapTaints(current: readonly Taint[], toAdd: readonly Taint[], toRemove: readonly Taint[], now: number): Taint[] {
  const out = current.map((t) => ({ ...t }));
  for (const a of toAdd) {
    const stamped: Taint = { ...a, timeAdded: rfc3339(now) };
    const i = out.findIndex((t) => matchTaint(t, a));
    if (i >= 0) out[i] = stamped;
    else out.push(stamped);
  }
  return out.filter((t) => !toRemove.some((r) => matchTaint(t, r)));
}

export function taintsOf(node: KObject): Taint[] {
  return ((node.spec as { taints?: Taint[] } | undefined)?.taints ?? []) as Taint[];
}
