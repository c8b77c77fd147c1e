// DaemonSet helpers, after upstream v1.32's pkg/controller/daemon/util/daemonset_util.go
// and the predicates of daemon_controller.go: the tolerations every daemon pod
// gets, the pod template with the revision hash and template generation, the
// node-name affinity that pins a pod to its node (the scheduler binds it),
// surge/unavailable counts, and whether a node should run the daemon pod.
import type { KObject } from '../../apimachinery/types';
import type { LabelSelector } from '../../apimachinery/selectors/labels';
import type { Node, Pod, Taint, Toleration } from '../../scheduler/framework/api';
import { requiredNodeAffinity } from '../../scheduler/plugins/helper/nodeSelector';
import { findMatchingUntoleratedTaint } from '../../scheduler/plugins/helper/taints';
import { scaledValue, type IntOrString } from '../deployment/util';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** DefaultDaemonSetUniqueLabelKey. */
export const HASH_LABEL = 'controller-revision-hash';
/** DaemonSetTemplateGenerationKey (extensions/v1beta1). */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** DeprecatedTemplateGeneration: the template generation apps/v1 keeps in an annotation. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

export interface DaemonSetSpec {
  selector?: LabelSelector;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: Loose };
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: unknown[];
}

export const dsSpec = (ds: KObject): DaemonSetSpec => (ds.spec ?? {}) as DaemonSetSpec;
export const dsStatus = (ds: KObject): Partial<DaemonSetStatus> => (ds.status ?? {}) as Partial<DaemonSetStatus>;
export const isRollingUpdate = (ds: KObject): boolean => (dsSpec(ds).updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** GetTemplateGeneration: the deprecated annotation, or null. */
export function templateGeneration(ds: KObject): number | null {
  const a = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (a === undefined || !/^-?\d+$/.test(a)) return null;
  return Number(a);
}

/** AddOrUpdateTolerationInPodSpec: replace an equal-key/effect toleration, else append. */
function addOrUpdateToleration(spec: Loose, t: Toleration): void {
  const list: Toleration[] = spec.tolerations ?? [];
  // Toleration.MatchToleration: same key, operator, value and effect.
  const i = list.findIndex((x) => (x.key ?? '') === (t.key ?? '') && (x.effect ?? '') === (t.effect ?? '') && (x.operator ?? '') === (t.operator ?? '') && (x.value ?? '') === (t.value ?? ''));
  if (i >= 0) {
    if (JSON.stringify(list[i]) === JSON.stringify(t)) return;
    list[i] = t;
  } else list.push(t);
  spec.tolerations = list;
}

/**
 * AddOrUpdateDaemonPodTolerations: daemon pods survive not-ready/unreachable
 * nodes (NoExecute, no tolerationSeconds) and the condition taints
 * (NoSchedule); network-unavailable only for hostNetwork pods.
 */
export function addDaemonPodTolerations(spec: Loose): void {
  addOrUpdateToleration(spec, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' });
  addOrUpdateToleration(spec, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' });
  addOrUpdateToleration(spec, { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' });
  addOrUpdateToleration(spec, { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' });
  addOrUpdateToleration(spec, { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' });
  addOrUpdateToleration(spec, { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' });
  if (spec.hostNetwork) addOrUpdateToleration(spec, { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
}

/** CreatePodTemplate: the template with the daemon tolerations, the template generation and the revision hash labels. */
export function createPodTemplate(ds: KObject, hash: string): { metadata: Loose; spec: Loose } {
  const t = JSON.parse(JSON.stringify(dsSpec(ds).template ?? {})) as { metadata?: Loose; spec?: Loose };
  const spec = t.spec ?? {};
  addDaemonPodTolerations(spec);
  const labels: Record<string, string> = { ...(t.metadata?.labels ?? {}) };
  const gen = templateGeneration(ds);
  if (gen !== null) labels[TEMPLATE_GENERATION_LABEL] = String(gen);
  if (hash) labels[HASH_LABEL] = hash;
  return { metadata: { ...(t.metadata ?? {}), labels }, spec };
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes `metadata.name In [node]`. */
export function pinToNode(spec: Loose, nodeName: string): void {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
  const affinity = (spec.affinity ??= {});
  const na = (affinity.nodeAffinity ??= {});
  na.requiredDuringSchedulingIgnoredDuringExecution = { ...(na.requiredDuringSchedulingIgnoredDuringExecution ?? {}), nodeSelectorTerms: [term] };
}

/** GetTargetNodeName: spec.nodeName, else the metadata.name In [x] of the required affinity. */
export function targetNodeName(pod: KObject): string | null {
  const spec = pod.spec as Loose;
  if (spec?.nodeName) return spec.nodeName as string;
  for (const term of spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    // The first metadata.name In decides: with other than one value the pod has no target node.
    for (const f of term.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In') return f.values?.length === 1 ? (f.values[0] as string) : null;
  }
  return null;
}

/** SurgeCount (DaemonSetUpdateSurge is GA): maxSurge of numberToSchedule, rounded up. */
export function surgeCount(ds: KObject, numberToSchedule: number): number {
  if (!isRollingUpdate(ds)) return 0;
  const s = dsSpec(ds).updateStrategy?.rollingUpdate?.maxSurge;
  return s === undefined || s === null ? 0 : scaledValue(s, numberToSchedule, true);
}

/** UnavailableCount: maxUnavailable of numberToSchedule, rounded up. */
export function unavailableCount(ds: KObject, numberToSchedule: number): number {
  if (!isRollingUpdate(ds)) return 0;
  const u = dsSpec(ds).updateStrategy?.rollingUpdate?.maxUnavailable;
  return u === undefined || u === null ? 0 : scaledValue(u, numberToSchedule, true);
}

export const allowsSurge = (ds: KObject): boolean => surgeCount(ds, 1) > 0;

/** IsPodUpdated: the pod carries the current hash (or the current template generation). */
export function isPodUpdated(pod: KObject, hash: string, generation: number | null): boolean {
  const labels = pod.metadata.labels ?? {};
  return (generation !== null && labels[TEMPLATE_GENERATION_LABEL] === String(generation)) || (hash !== '' && labels[HASH_LABEL] === hash);
}

/** NewPod: the pod the DaemonSet would run on the node, with its tolerations (for the predicates). */
function newPod(ds: KObject, nodeName: string): Pod {
  const t = JSON.parse(JSON.stringify(dsSpec(ds).template ?? {})) as { metadata?: Loose; spec?: Loose };
  const spec = t.spec ?? {};
  spec.nodeName = nodeName;
  addDaemonPodTolerations(spec);
  return { metadata: { ...(t.metadata ?? {}), namespace: ds.metadata.namespace }, spec } as unknown as Pod;
}

/**
 * NodeShouldRunDaemonPod: shouldRun (a pod belongs here) and
 * shouldContinueRunning (an existing one may stay: its NoExecute taints are
 * tolerated even if NoSchedule ones are not).
 */
export function nodeShouldRunDaemonPod(node: KObject, ds: KObject): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const templateNode = (dsSpec(ds).template?.spec as Loose)?.nodeName as string | undefined;
  if (templateNode && templateNode !== node.metadata.name) return { shouldRun: false, shouldContinueRunning: false };
  const pod = newPod(ds, node.metadata.name!);
  const n = node as unknown as Node;
  const fitsNodeName = !pod.spec.nodeName || pod.spec.nodeName === node.metadata.name;
  const fitsAffinity = requiredNodeAffinity(pod).match(n);
  if (!fitsNodeName || !fitsAffinity) return { shouldRun: false, shouldContinueRunning: false };
  const taints: Taint[] = (n.spec as Loose)?.taints ?? [];
  const untolerated = findMatchingUntoleratedTaint(taints, pod.spec.tolerations, (t) => t.effect === 'NoExecute' || t.effect === 'NoSchedule');
  if (untolerated) {
    const noExecute = findMatchingUntoleratedTaint(taints, pod.spec.tolerations, (t) => t.effect === 'NoExecute');
    return { shouldRun: false, shouldContinueRunning: !noExecute };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

/** podByCreationTimestampAndPhase: scheduled pods first, then older, then by name. */
export function byCreationAndPhase(a: KObject, b: KObject): number {
  const sa = !!(a.spec as Loose)?.nodeName;
  const sb = !!(b.spec as Loose)?.nodeName;
  if (sa !== sb) return sa ? -1 : 1;
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}

/** DaemonSetStatus as Go marshals it: the first four counts always, the rest omitempty. */
export function statusJson(s: DaemonSetStatus): Record<string, unknown> {
  const out: Record<string, unknown> = { currentNumberScheduled: s.currentNumberScheduled, numberMisscheduled: s.numberMisscheduled, desiredNumberScheduled: s.desiredNumberScheduled, numberReady: s.numberReady };
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  if (s.updatedNumberScheduled) out.updatedNumberScheduled = s.updatedNumberScheduled;
  if (s.numberAvailable) out.numberAvailable = s.numberAvailable;
  if (s.numberUnavailable) out.numberUnavailable = s.numberUnavailable;
  if (s.collisionCount !== undefined) out.collisionCount = s.collisionCount;
  if (s.conditions?.length) out.conditions = s.conditions;
  return out;
}
