// Test builders for the InterPodAffinity tables (the shapes of upstream's
// st.MakePod().PodAffinityIn(...) wrappers). Test-only.
import type { LabelSelector } from '../../../apimachinery/selectors/labels';
import type { KObject } from '../../../apimachinery/types';
import type { Affinity, Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../../framework/api';
import { NodeInfo } from '../../framework/nodeInfo';
import { fakeHandle } from '../../testing/fixtures';

/** A node with exactly these labels. */
export function node(name: string, labels: Record<string, string> = {}): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}`, labels }, spec: {}, status: {} };
}

let seq = 0;

export interface PodOpts {
  name?: string;
  ns?: string;
  node?: string;
  labels?: Record<string, string>;
  affinity?: Affinity;
  uid?: string;
}

/** Namespace "" by default, as st.MakePod(). */
export function pod(o: PodOpts = {}): Pod {
  const name = o.name ?? `pod-${++seq}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.ns ?? '', uid: o.uid ?? `uid-${name}`, ...(o.labels ? { labels: o.labels } : {}) },
    spec: { containers: [{ name: 'c' }], ...(o.node ? { nodeName: o.node } : {}), ...(o.affinity ? { affinity: o.affinity } : {}) },
  };
}

export const term = (sel: LabelSelector | null, topologyKey: string, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm => ({
  ...(sel ? { labelSelector: sel } : {}),
  topologyKey,
  ...extra,
});
export const inSel = (key: string, values: string[]): LabelSelector => ({ matchExpressions: [{ key, operator: 'In', values }] });
export const notInSel = (key: string, values: string[]): LabelSelector => ({ matchExpressions: [{ key, operator: 'NotIn', values }] });
export const existsSel = (key: string): LabelSelector => ({ matchExpressions: [{ key, operator: 'Exists' }] });

/** Required (anti-)affinity terms. */
export function required(affinity: PodAffinityTerm[] = [], anti: PodAffinityTerm[] = []): Affinity {
  return {
    ...(affinity.length ? { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: affinity } } : {}),
    ...(anti.length ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: anti } } : {}),
  };
}

/** Preferred (anti-)affinity terms. */
export function preferred(affinity: WeightedPodAffinityTerm[] = [], anti: WeightedPodAffinityTerm[] = []): Affinity {
  return {
    ...(affinity.length ? { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: affinity } } : {}),
    ...(anti.length ? { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: anti } } : {}),
  };
}

export const weighted = (weight: number, t: PodAffinityTerm): WeightedPodAffinityTerm => ({ weight, podAffinityTerm: t });

export function namespace(name: string, labels: Record<string, string> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

/** The namespaces of upstream's scoring_test.go. */
export const namespaces: KObject[] = [
  namespace('subteam1.team1', { team: 'team1' }),
  namespace('subteam2.team1', { team: 'team1' }),
  namespace('subteam1.team2', { team: 'team2' }),
  namespace('subteam2.team2', { team: 'team2' }),
];

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

export function handleFor(infos: NodeInfo[], ns: KObject[] = namespaces) {
  return fakeHandle(infos, { namespaces: ns });
}
