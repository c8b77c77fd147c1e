// Test helpers for the map feed: pods and nodes as the watch cache holds them,
// and a source over plain maps that replaces (never mutates) objects on change.
import type { KObject } from '../../apimachinery/types';
import type { MapSource } from './feed';
import type { MapComponent } from './protocol';

export function podObj(name: string, o: { node?: string; phase?: string; ready?: boolean; cpu?: string; memory?: string; reason?: string; owner?: string; deleting?: boolean; ns?: string } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.ns ?? 'default',
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.owner, uid: `u-${o.owner}`, controller: true }] } : {}),
      ...(o.deleting ? { deletionTimestamp: '2025-01-01T00:01:00Z' } : {}),
    },
    spec: { ...(o.node ? { nodeName: o.node } : {}), containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: o.cpu ?? '100m', memory: o.memory ?? '64Mi' } } }] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
      ...(o.reason ? { containerStatuses: [{ name: 'c', state: { waiting: { reason: o.reason } } }] } : {}),
    },
  };
}

export function nodeObj(name: string, o: { ready?: string; taints?: { key: string; value?: string; effect: string }[]; unschedulable?: boolean; cpu?: string } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable: { cpu: o.cpu ?? '4', memory: '16Gi', pods: '110' }, conditions: [{ type: 'Ready', status: o.ready ?? 'True' }] },
  };
}

/** A source over plain maps, replaced (not mutated) on change as the watch cache does. */
export class FakeSource implements MapSource {
  readonly podStore = new Map<string, KObject>();
  readonly nodeStore = new Map<string, KObject>();
  comps: MapComponent[] = [{ name: 'kube-apiserver-0', kind: 'kube-apiserver', up: true, leader: false }];
  pods() {
    return this.podStore;
  }
  nodes() {
    return this.nodeStore;
  }
  components() {
    return this.comps;
  }
  pod(p: KObject) {
    this.podStore.set(`/registry/pods/${p.metadata.namespace}/${p.metadata.name}`, p);
  }
  node(n: KObject) {
    this.nodeStore.set(`/registry/minions/${n.metadata.name}`, n);
  }
}

