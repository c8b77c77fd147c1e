// Affinity-term helpers InterPodAffinity's halves share: parsing the incoming
// pod's terms (framework.NewPodInfo's parse errors, v1.32), unrolling a
// namespaceSelector into namespaces (mergeAffinityTermNamespacesIfNotEmpty),
// the namespace-labels snapshot, and podMatchesAllAffinityTerms
// (pkg/scheduler/framework/plugins/interpodaffinity/{plugin,filtering}.go).
import { aggregateMessage } from '../../../apimachinery/fieldErrors';
import { isEmpty, matches, nothing, type Labels } from '../../../apimachinery/selectors/labels';
import type { Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../../framework/api';
import type { Handle } from '../../framework/interface';
import { affinityTermMatches, newAffinityTerm, type AffinityTerm, type WeightedAffinityTerm } from '../../framework/podInfo';
// The allocation-free selector matcher the two spreading/affinity plugins share.
import { labelValue, selectorMatches } from '../podTopologySpread/common';

export { labelValue };

export const NAME = 'InterPodAffinity';

/** labels.Set(nil): matching a term "with nil namespace labels" means an empty set (an Everything namespaceSelector still matches). */
export const EMPTY_LABELS: Labels = Object.freeze({});

export function labelsOf(o: { metadata: { labels?: Record<string, string> } } | null | undefined): Labels {
  return o?.metadata.labels ?? EMPTY_LABELS;
}

export interface PodTerms {
  requiredAffinityTerms: AffinityTerm[];
  requiredAntiAffinityTerms: AffinityTerm[];
  preferredAffinityTerms: WeightedAffinityTerm[];
  preferredAntiAffinityTerms: WeightedAffinityTerm[];
}

/** getAffinityTerms: the first bad selector fails the whole list. */
function affinityTerms(pod: Pod, list: readonly PodAffinityTerm[] | undefined): AffinityTerm[] | string {
  const out: AffinityTerm[] = [];
  for (const t of list ?? []) {
    const r = newAffinityTerm(pod, t);
    if (typeof r === 'string') return r;
    out.push(r);
  }
  return out;
}

function weightedAffinityTerms(pod: Pod, list: readonly WeightedPodAffinityTerm[] | undefined): WeightedAffinityTerm[] | string {
  const out: WeightedAffinityTerm[] = [];
  for (const w of list ?? []) {
    const r = newAffinityTerm(pod, w.podAffinityTerm);
    if (typeof r === 'string') return r;
    out.push({ ...r, weight: w.weight });
  }
  return out;
}

/** The pod's parsed terms, or NewPodInfo's aggregated error ("requiredAffinityTerms: …"). */
export function parsePodTerms(pod: Pod): PodTerms | { error: string } {
  const a = pod.spec.affinity;
  const ra = affinityTerms(pod, a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
  const rn = affinityTerms(pod, a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
  const pa = weightedAffinityTerms(pod, a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution);
  const pn = weightedAffinityTerms(pod, a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution);
  const errs: string[] = [];
  if (typeof ra === 'string') errs.push(`requiredAffinityTerms: ${ra}`);
  if (typeof rn === 'string') errs.push(`requiredAntiAffinityTerms: ${rn}`);
  if (typeof pa === 'string') errs.push(`preferredAffinityTerms: ${pa}`);
  if (typeof pn === 'string') errs.push(`preferredAntiAffinityTerms: ${pn}`);
  if (errs.length > 0) return { error: aggregateMessage(errs) };
  return {
    requiredAffinityTerms: ra as AffinityTerm[],
    requiredAntiAffinityTerms: rn as AffinityTerm[],
    preferredAffinityTerms: pa as WeightedAffinityTerm[],
    preferredAntiAffinityTerms: pn as WeightedAffinityTerm[],
  };
}

/**
 * mergeAffinityTermNamespacesIfNotEmpty, on a copy: the namespaces the
 * incoming pod's namespaceSelector selects join `namespaces`, and the selector
 * becomes Nothing; an Everything selector stays. Existing pods' namespace
 * labels then never need looking up when matching these terms.
 */
export function mergeAffinityTermNamespaces<T extends AffinityTerm>(term: T, handle: Handle): T {
  if (isEmpty(term.namespaceSelector) || term.namespaceSelector.type === 'Nothing') return term;
  const namespaces = [...term.namespaces];
  for (const ns of handle.lister('namespaces').list()) {
    const name = ns.metadata.name ?? '';
    if (matches(term.namespaceSelector, labelsOf(ns)) && !namespaces.includes(name)) namespaces.push(name);
  }
  return { ...term, namespaces, namespaceSelector: nothing() };
}

/** GetNamespaceLabelsSnapshot: the namespace's labels, empty when it is not known. */
export function getNamespaceLabelsSnapshot(ns: string, handle: Handle): Labels {
  const obj = handle.lister('namespaces').get(ns);
  return obj ? { ...labelsOf(obj) } : EMPTY_LABELS;
}

/**
 * AffinityTerm.Matches (framework's affinityTermMatches) with nil namespace
 * labels as an empty set, without allocating: PreFilter and PreScore call it
 * for every pod with terms on every node. Property-tested against affinityTermMatches.
 */
export function termMatches(term: AffinityTerm, pod: Pod, nsLabels: Labels): boolean {
  const ns = pod.metadata.namespace ?? '';
  const namespaces = term.namespaces;
  let inNamespace = false;
  for (let i = 0; i < namespaces.length; i++) {
    if (namespaces[i] === ns) {
      inNamespace = true;
      break;
    }
  }
  if (inNamespace || selectorMatches(term.namespaceSelector, nsLabels)) return selectorMatches(term.selector, labelsOf(pod));
  return false;
}

/** podMatchesAllAffinityTerms: false without terms. The incoming pod's terms are merged, so nil labels suffice. */
export function podMatchesAllAffinityTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (let i = 0; i < terms.length; i++) if (!termMatches(terms[i]!, pod, EMPTY_LABELS)) return false;
  return true;
}

/** The framework's matcher, for the property test's reference. */
export const referenceTermMatches = affinityTermMatches;
