// Test builders for the PodTopologySpread tables (the shapes of upstream's
// st.MakePod()/st.MakeNode() wrappers in pkg/scheduler/testing). Test-only.
import type { LabelSelector } from '../../../apimachinery/selectors/labels';
import type { KObject } from '../../../apimachinery/types';
import type { Affinity, Node, Pod, Taint, Toleration, TopologySpreadConstraint } from '../../framework/api';
import { NodeInfo } from '../../framework/nodeInfo';
import type { ListedResource } from '../../framework/interface';
import { fakeHandle } from '../../testing/fixtures';

export const fooSelector: LabelSelector = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
export const barSelector: LabelSelector = { matchExpressions: [{ key: 'bar', operator: 'Exists' }] };
/** v1.TaintNodeUnschedulable, NoSchedule. */
export const taints: Taint[] = [{ key: 'node.kubernetes.io/unschedulable', value: '', effect: 'NoSchedule' }];
export const HOSTNAME = 'kubernetes.io/hostname';

/** A node with exactly these labels (no implicit hostname label). */
export function node(name: string, labels: Record<string, string> = {}, nodeTaints?: Taint[]): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, labels },
    spec: nodeTaints ? { taints: nodeTaints } : {},
    status: { allocatable: { cpu: '4', memory: '32Gi', pods: '110' } },
  };
}

export function spread(
  maxSkew: number,
  topologyKey: string,
  whenUnsatisfiable: TopologySpreadConstraint['whenUnsatisfiable'],
  labelSelector: LabelSelector | null,
  minDomains?: number,
  nodeAffinityPolicy?: 'Honor' | 'Ignore',
  nodeTaintsPolicy?: 'Honor' | 'Ignore',
  matchLabelKeys?: string[],
): TopologySpreadConstraint {
  return {
    maxSkew,
    topologyKey,
    whenUnsatisfiable,
    ...(labelSelector ? { labelSelector } : {}),
    ...(minDomains !== undefined ? { minDomains } : {}),
    ...(nodeAffinityPolicy ? { nodeAffinityPolicy } : {}),
    ...(nodeTaintsPolicy ? { nodeTaintsPolicy } : {}),
    ...(matchLabelKeys ? { matchLabelKeys } : {}),
  };
}

export interface PodOpts {
  ns?: string;
  node?: string;
  labels?: Record<string, string>;
  spread?: TopologySpreadConstraint[];
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  terminating?: boolean;
  owner?: { apiVersion: string; kind: string; name: string };
  uid?: string;
}

export function pod(name: string, o: PodOpts = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.ns ?? 'default',
      uid: o.uid ?? `uid-${name}`,
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.terminating ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
      ...(o.owner ? { ownerReferences: [{ ...o.owner, uid: `uid-${o.owner.name}`, controller: true }] } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'pause' }],
      ...(o.node ? { nodeName: o.node } : {}),
      ...(o.spread ? { topologySpreadConstraints: o.spread } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.affinity ? { affinity: o.affinity } : {}),
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
    },
  };
}

/** st.NodeAffinityIn / NodeAffinityNotIn: one required term with one match expression. */
export function nodeAffinity(key: string, operator: 'In' | 'NotIn', values: string[]): Affinity {
  return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator, values }] }] } } };
}

/** st.PodWrapper.Toleration(key): Exists, NoSchedule. */
export function toleration(key: string): Toleration {
  return { key, operator: 'Exists', effect: 'NoSchedule' };
}

/** cache.NewSnapshot: NodeInfos for the nodes, pods placed by spec.nodeName (pods on unknown nodes dropped). */
export function snapshot(pods: Pod[], nodes: Node[]): NodeInfo[] {
  const infos = nodes.map((n) => {
    const ni = new NodeInfo(n.metadata.name!);
    ni.setNode(n);
    return ni;
  });
  const byName = new Map(infos.map((ni) => [ni.name, ni]));
  for (const p of pods) byName.get(p.spec.nodeName ?? '')?.addPod(p);
  return infos;
}

export function handleFor(infos: NodeInfo[], objects: Partial<Record<ListedResource, KObject[]>> = {}) {
  return fakeHandle(infos, objects);
}

export function service(ns: string, name: string, selector: Record<string, string>): KObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { selector } };
}

export function replicaSet(ns: string, name: string, selector: LabelSelector): KObject {
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: ns }, spec: { selector } };
}
