// checkRegistry.EvaluatePod and AggregateCheckResults
// (pod-security-admission/policy/registry.go, checks.go): the checks of a
// level and version run in a fixed order (baseline ids sorted, then
// restricted ids sorted) so messages read the same every time.
import type { Rec } from '../json';
import { effectiveMinor, type LevelVersion } from './api';
import { CHECKS, type Check, type CheckResult } from './checks';

function versionAt(check: Check, minor: number): Check['versions'][number] | undefined {
  let found: Check['versions'][number] | undefined;
  for (const v of check.versions) if (v.minMinor <= minor) found = v;
  return found;
}

const byId = (x: Check, y: Check) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
const BASELINE = CHECKS.filter((c) => c.level === 'baseline').sort(byId);
const RESTRICTED = CHECKS.filter((c) => c.level === 'restricted').sort(byId);

/** The checks applied at a level and version, in message order. */
export function checksFor(lv: LevelVersion): { id: string; check: (meta: Rec, spec: Rec) => CheckResult }[] {
  if (lv.level === 'privileged') return [];
  const minor = effectiveMinor(lv.version);
  const restricted = lv.level === 'restricted' ? RESTRICTED.flatMap((c) => (versionAt(c, minor) ? [c] : [])) : [];
  const overridden = new Set(restricted.flatMap((c) => c.overrides ?? []));
  const out: { id: string; check: (meta: Rec, spec: Rec) => CheckResult }[] = [];
  for (const c of [...BASELINE, ...restricted]) {
    if (overridden.has(c.id)) continue;
    const v = versionAt(c, minor);
    if (v) out.push({ id: c.id, check: v.check });
  }
  return out;
}

export interface AggregateResult {
  allowed: boolean;
  forbiddenReasons: string[];
  forbiddenDetails: string[];
}

export function evaluatePod(lv: LevelVersion, meta: Rec, spec: Rec): AggregateResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const { check } of checksFor(lv)) {
    const r = check(meta, spec);
    if (r.allowed) continue;
    reasons.push(r.forbiddenReason || 'unknown forbidden reason');
    details.push(r.forbiddenDetail ?? '');
  }
  return { allowed: reasons.length === 0, forbiddenReasons: reasons, forbiddenDetails: details };
}

/** ForbiddenReason(): `host ports, privileged`. */
export function forbiddenReason(r: AggregateResult): string {
  return r.forbiddenReasons.join(', ');
}

/** ForbiddenDetail(): `hostPort (container "a" uses hostPort 80), privileged (...)`. */
export function forbiddenDetail(r: AggregateResult): string {
  return r.forbiddenReasons.map((reason, i) => (r.forbiddenDetails[i] ? `${reason} (${r.forbiddenDetails[i]})` : reason)).join(', ');
}
