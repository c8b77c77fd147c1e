// The success policy of Indexed Jobs (pkg/controller/job/success_policy.go,
// v1.32, JobSuccessPolicy on by default): the first rule met — its
// succeededIndexes all succeeded, or succeededCount of them (or of all
// indexes) — makes the Job SuccessCriteriaMet with reason SuccessPolicy.
import type { Loose } from '../endpoint/podutil';
import { parseIndexes, intervalsTotal, type Interval } from './indexed';

/** matchSucceededIndexesRule: how many of the rule's indexes succeeded, against all of them or succeededCount. */
function matchIndexesRule(rule: readonly Interval[], succeeded: readonly Interval[], succeededCount: number | undefined): boolean {
  let contains = 0;
  let r = 0;
  let s = 0;
  while (r < rule.length && s < succeeded.length) {
    const overlap = Math.min(rule[r]!.last, succeeded[s]!.last) - Math.max(rule[r]!.first, succeeded[s]!.first) + 1;
    if (overlap > 0) contains += overlap;
    if (succeeded[s]!.last < rule[r]!.last) s++;
    else if (succeeded[s]!.last > rule[r]!.last) r++;
    else {
      s++;
      r++;
    }
  }
  return contains === intervalsTotal(rule) || (succeededCount !== undefined && contains >= succeededCount);
}

/** matchSuccessPolicy: the message of the first rule met ("Matched rules at index N"), or null. */
export function matchSuccessPolicy(job: Loose, succeeded: readonly Interval[]): string | null {
  const rules: Loose[] = job.spec?.successPolicy?.rules ?? [];
  if (rules.length === 0 || succeeded.length === 0) return null;
  const completions: number = job.spec?.completions ?? 0;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    const count = typeof rule.succeededCount === 'number' ? rule.succeededCount : undefined;
    if (typeof rule.succeededIndexes === 'string') {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      if (matchIndexesRule(required, succeeded, count)) return `Matched rules at index ${i}`;
    } else if (count !== undefined && intervalsTotal(succeeded) >= count) return `Matched rules at index ${i}`;
  }
  return null;
}
