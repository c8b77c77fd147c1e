// framework.PodInfo: a pod with what the scheduler derives from it once —
// its requests (and the "non-zero" requests scoring uses), its host ports and
// its parsed inter-pod (anti-)affinity terms.
import { labelSelectorAsSelector, matches, nothing, type Labels, type Selector } from '../../apimachinery/selectors/labels';
import { registerClass } from '../../sim/serial';
import type { Pod, PodAffinityTerm, WeightedPodAffinityTerm } from './api';
import { podRequests, type Resource } from './resources';

/** framework.AffinityTerm */
export interface AffinityTerm {
  namespaces: string[];
  selector: Selector;
  topologyKey: string;
  namespaceSelector: Selector;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** AffinityTerm.Matches: the pod is in one of the term's namespaces (listed or selected) and its labels match. */
export function affinityTermMatches(term: AffinityTerm, pod: Pod, nsLabels: Labels | undefined): boolean {
  const ns = pod.metadata.namespace ?? '';
  // Unknown namespace labels are an empty set: an empty namespaceSelector ({}) still selects every namespace.
  if (term.namespaces.includes(ns) || matches(term.namespaceSelector, nsLabels ?? {})) {
    return matches(term.selector, pod.metadata.labels ?? {});
  }
  return false;
}

/** newAffinityTerm: no namespaces and no namespaceSelector means the pod's own namespace. */
export function newAffinityTerm(pod: Pod, term: PodAffinityTerm): AffinityTerm | string {
  const sel = labelSelectorAsSelector(term.labelSelector);
  if (!sel.ok) return sel.error;
  const nsSel = term.namespaceSelector === undefined || term.namespaceSelector === null ? { ok: true as const, selector: nothing() } : labelSelectorAsSelector(term.namespaceSelector);
  if (!nsSel.ok) return nsSel.error;
  const namespaces = (term.namespaces?.length ?? 0) === 0 && (term.namespaceSelector === undefined || term.namespaceSelector === null) ? [pod.metadata.namespace ?? ''] : [...(term.namespaces ?? [])];
  return { namespaces, selector: sel.selector, topologyKey: term.topologyKey, namespaceSelector: nsSel.selector };
}

function terms(pod: Pod, list: PodAffinityTerm[] | undefined, errors: string[]): AffinityTerm[] {
  const out: AffinityTerm[] = [];
  for (const t of list ?? []) {
    const r = newAffinityTerm(pod, t);
    if (typeof r === 'string') errors.push(r);
    else out.push(r);
  }
  return out;
}

function weighted(pod: Pod, list: WeightedPodAffinityTerm[] | undefined, errors: string[]): WeightedAffinityTerm[] {
  const out: WeightedAffinityTerm[] = [];
  for (const w of list ?? []) {
    const r = newAffinityTerm(pod, w.podAffinityTerm);
    if (typeof r === 'string') errors.push(r);
    else out.push({ ...r, weight: w.weight });
  }
  return out;
}

export class PodInfo {
  readonly requiredAffinityTerms: AffinityTerm[];
  readonly requiredAntiAffinityTerms: AffinityTerm[];
  readonly preferredAffinityTerms: WeightedAffinityTerm[];
  readonly preferredAntiAffinityTerms: WeightedAffinityTerm[];
  /** Selector errors found while parsing the terms (upstream's parseErr). */
  readonly parseErrors: string[] = [];
  /** PodRequests (overhead included). */
  readonly requests: Resource;
  /** PodRequests with the defaults for missing cpu/memory requests: only milliCPU and memory are used. */
  readonly nonZero: Resource;

  constructor(readonly pod: Pod) {
    const a = pod.spec.affinity;
    this.requiredAffinityTerms = terms(pod, a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
    this.requiredAntiAffinityTerms = terms(pod, a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
    this.preferredAffinityTerms = weighted(pod, a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
    this.preferredAntiAffinityTerms = weighted(pod, a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
    this.requests = podRequests(pod, false);
    this.nonZero = podRequests(pod, true);
  }

  get hasAffinity(): boolean {
    const a = this.pod.spec.affinity;
    return !!(a && (a.podAffinity || a.podAntiAffinity));
  }

  get hasRequiredAntiAffinity(): boolean {
    return this.requiredAntiAffinityTerms.length > 0;
  }
}

registerClass('SchedulerPodInfo', PodInfo);
