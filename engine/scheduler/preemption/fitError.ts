// framework.FitError.Error (pkg/scheduler/framework/types.go, v1.32) as the
// preemption evaluator uses it: "0/N nodes are available: <histogram>."
// Each node's reasons are counted; nodes absent from the map count under the
// absent status's reasons; entries print as "<count> <reason>", sorted as
// strings (so "10 x" sorts before "2 y", as in Go).
import type { NodeToStatus } from '../framework/interface';
import type { Status } from '../framework/status';

export function fitErrorMessage(numAllNodes: number, statuses: NodeToStatus, absent: Status): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  const counts = new Map<string, number>();
  for (const s of statuses.values()) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  if (statuses.size < numAllNodes) {
    for (const r of absent.reasons) counts.set(r, (counts.get(r) ?? 0) + numAllNodes - statuses.size);
  }
  const entries: string[] = [];
  for (const [reason, n] of counts) entries.push(`${n} ${reason}`);
  entries.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length > 0) msg += ` ${entries.join(', ')}.`;
  return msg;
}
