// metav1.LabelSelector matching for admission (webhook namespace/object
// selectors, policy binding paramRef.selector): LabelSelectorAsSelector and
// Matches from the shared selectors package, with admission's defaults.
import { labelSelectorAsSelector, matches, type LabelSelector } from '../../apimachinery/selectors/labels';
import { isRec, recs } from './json';

export type SelectorResult = { ok: true; matches: boolean } | { ok: false; error: string };

/** An empty selector (`{}`) matches everything; a missing one (undefined/null) too, as webhooks default it. */
export function matchLabelSelector(selector: unknown, labels: Record<string, string>): SelectorResult {
  if (selector === undefined || selector === null) return { ok: true, matches: true };
  if (!isRec(selector)) return { ok: false, error: 'invalid label selector' };
  const r = labelSelectorAsSelector(selector as LabelSelector);
  return r.ok ? { ok: true, matches: matches(r.selector, labels) } : r;
}

/** True when the selector is missing or has neither matchLabels nor matchExpressions. */
export function isEmptySelector(selector: unknown): boolean {
  if (!isRec(selector)) return true;
  const ml = selector['matchLabels'];
  return (!isRec(ml) || Object.keys(ml).length === 0) && recs(selector['matchExpressions']).length === 0;
}
