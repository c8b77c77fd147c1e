// nodeTree (pkg/scheduler/backend/cache/node_tree.go): nodes grouped by zone,
// listed round-robin across zones — so when only a percentage of nodes is
// evaluated, every zone is represented.
import { registerClass } from '../../sim/serial';
import type { Node } from '../framework/api';

/** utilnode.GetZoneKey: region and zone labels (new or deprecated beta ones) joined; "" when neither. */
export function zoneKey(node: Node): string {
  const l = node.metadata.labels ?? {};
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

export class NodeTree {
  /** zone → node names, in insertion order. */
  private readonly tree = new Map<string, string[]>();
  private readonly zones: string[] = [];
  private readonly zoneOf = new Map<string, string>();
  numNodes = 0;

  addNode(node: Node): void {
    const name = node.metadata.name!;
    const zone = zoneKey(node);
    if (this.zoneOf.has(name)) return;
    let list = this.tree.get(zone);
    if (!list) {
      list = [];
      this.tree.set(zone, list);
      this.zones.push(zone);
    }
    list.push(name);
    this.zoneOf.set(name, zone);
    this.numNodes++;
  }

  removeNode(name: string): boolean {
    const zone = this.zoneOf.get(name);
    if (zone === undefined) return false;
    const list = this.tree.get(zone)!;
    const i = list.indexOf(name);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) {
      this.tree.delete(zone);
      this.zones.splice(this.zones.indexOf(zone), 1);
    }
    this.zoneOf.delete(name);
    this.numNodes--;
    return true;
  }

  /** A node moved zone (its labels changed). */
  updateNode(old: Node, node: Node): boolean {
    if (zoneKey(old) === zoneKey(node) && this.zoneOf.has(node.metadata.name!)) return false;
    this.removeNode(old.metadata.name!);
    this.addNode(node);
    return true;
  }

  /** list(): one node from each zone in turn until all are listed. */
  list(): string[] {
    const out: string[] = [];
    if (this.zones.length === 1) return [...this.tree.get(this.zones[0]!)!];
    let idx = 0;
    while (out.length < this.numNodes) {
      let progressed = false;
      for (const z of this.zones) {
        const l = this.tree.get(z)!;
        if (idx < l.length) {
          out.push(l[idx]!);
          progressed = true;
        }
      }
      if (!progressed) break;
      idx++;
    }
    return out;
  }
}

registerClass('SchedulerNodeTree', NodeTree);
