// A minimal metav1.LabelSelector matcher (matchLabels + matchExpressions with
// In, NotIn, Exists, DoesNotExist), as LabelSelectorAsSelector builds it.
// Kept here so admission does not wait on the shared selectors package.
import { isRec, recs, str, strs } from './json';

export type SelectorResult = { ok: true; matches: boolean } | { ok: false; error: string };

/** An empty selector (`{}`) matches everything; a missing one (undefined/null) too, as webhooks default it. */
export function matchLabelSelector(selector: unknown, labels: Record<string, string>): SelectorResult {
  if (selector === undefined || selector === null) return { ok: true, matches: true };
  if (!isRec(selector)) return { ok: false, error: 'invalid label selector' };
  let matches = true;
  const ml = selector['matchLabels'];
  if (isRec(ml)) {
    for (const [k, v] of Object.entries(ml)) if (labels[k] !== v) matches = false;
  }
  for (const expr of recs(selector['matchExpressions'])) {
    const key = str(expr['key']) ?? '';
    const op = str(expr['operator']) ?? '';
    const values = strs(expr['values']);
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (op) {
      case 'In':
        if (values.length === 0) return { ok: false, error: `values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty` };
        if (!has || !values.includes(labels[key]!)) matches = false;
        break;
      case 'NotIn':
        if (values.length === 0) return { ok: false, error: `values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty` };
        if (has && values.includes(labels[key]!)) matches = false;
        break;
      case 'Exists':
        if (!has) matches = false;
        break;
      case 'DoesNotExist':
        if (has) matches = false;
        break;
      default:
        return { ok: false, error: `"${op}" is not a valid label selector operator` };
    }
  }
  return { ok: true, matches };
}

/** True when the selector is missing or has neither matchLabels nor matchExpressions. */
export function isEmptySelector(selector: unknown): boolean {
  if (!isRec(selector)) return true;
  const ml = selector['matchLabels'];
  return (!isRec(ml) || Object.keys(ml).length === 0) && recs(selector['matchExpressions']).length === 0;
}
