// Pod Security levels, versions and the namespace policy
// (staging/src/k8s.io/pod-security-admission/api: constants.go, helpers.go).
import { fieldErr, FieldPath, type FieldError } from '../../../apimachinery/fieldErrors';

export type Level = 'privileged' | 'baseline' | 'restricted';
export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: a minor of 1.x, or latest. */
export type Version = { latest: true } | { latest: false; minor: number };
export const LATEST: Version = { latest: true };
/** The newest policy version this API server knows (v1.32). */
export const MAX_MINOR = 32;

export interface LevelVersion {
  level: Level;
  version: Version;
}

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export const ENFORCE_LEVEL_LABEL = 'pod-security.kubernetes.io/enforce';
export const ENFORCE_VERSION_LABEL = 'pod-security.kubernetes.io/enforce-version';
export const AUDIT_LEVEL_LABEL = 'pod-security.kubernetes.io/audit';
export const AUDIT_VERSION_LABEL = 'pod-security.kubernetes.io/audit-version';
export const WARN_LEVEL_LABEL = 'pod-security.kubernetes.io/warn';
export const WARN_VERSION_LABEL = 'pod-security.kubernetes.io/warn-version';
export const ENFORCED_POLICY_ANNOTATION = 'pod-security.kubernetes.io/enforce-policy';
export const AUDIT_VIOLATIONS_ANNOTATION = 'pod-security.kubernetes.io/audit-violations';

/** The admission configuration's defaults: privileged:latest for every mode. */
export const DEFAULT_POLICY: Policy = {
  enforce: { level: 'privileged', version: LATEST },
  audit: { level: 'privileged', version: LATEST },
  warn: { level: 'privileged', version: LATEST },
};

export function versionString(v: Version): string {
  return v.latest ? 'latest' : `v1.${v.minor}`;
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && versionString(a.version) === versionString(b.version);
}

export function compareLevels(a: Level, b: Level): number {
  return LEVELS.indexOf(a) - LEVELS.indexOf(b);
}

/** ParseLevel: an unknown level is treated as restricted, and reported. */
export function parseLevel(s: string): { level: Level; error?: string } {
  if ((LEVELS as readonly string[]).includes(s)) return { level: s as Level };
  return { level: 'restricted', error: `must be one of ${LEVELS.join(', ')}` };
}

/** ParseVersion: `latest` or `v1.<minor>`; anything else is treated as latest, and reported. */
export function parseVersion(s: string): { version: Version; error?: string } {
  if (s === 'latest') return { version: LATEST };
  const m = /^v1\.(0|[1-9][0-9]*)$/.exec(s);
  if (m) return { version: { latest: false, minor: Number(m[1]) } };
  return { version: LATEST, error: `must be "latest" or of the form "v1.x"` };
}

/** The minor a version evaluates at: latest and future versions use the newest checks. */
export function effectiveMinor(v: Version): number {
  return v.latest ? MAX_MINOR : Math.min(v.minor, MAX_MINOR);
}

/** PolicyToEvaluate: a namespace's labels over the defaults; warn follows a stricter enforce level. */
export function policyToEvaluate(labels: Record<string, string>, defaults: Policy = DEFAULT_POLICY): { policy: Policy; errors: FieldError[] } {
  const p: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  const labelPath = (k: string) => FieldPath.root('metadata', 'labels').key(k);
  let hasEnforceLevel = false;
  let hasWarnLevel = false;
  let hasWarnVersion = false;
  const level = (key: string, set: (l: Level) => void): boolean => {
    const v = labels[key];
    if (v === undefined) return false;
    const r = parseLevel(v);
    set(r.level);
    if (r.error) errors.push(fieldErr.invalid(labelPath(key), v, r.error));
    return r.error === undefined;
  };
  const version = (key: string, set: (x: Version) => void): boolean => {
    const v = labels[key];
    if (v === undefined) return false;
    const r = parseVersion(v);
    set(r.version);
    if (r.error) errors.push(fieldErr.invalid(labelPath(key), v, r.error));
    return true;
  };
  hasEnforceLevel = level(ENFORCE_LEVEL_LABEL, (l) => (p.enforce.level = l));
  version(ENFORCE_VERSION_LABEL, (x) => (p.enforce.version = x));
  level(AUDIT_LEVEL_LABEL, (l) => (p.audit.level = l));
  version(AUDIT_VERSION_LABEL, (x) => (p.audit.version = x));
  hasWarnLevel = labels[WARN_LEVEL_LABEL] !== undefined;
  level(WARN_LEVEL_LABEL, (l) => (p.warn.level = l));
  hasWarnVersion = version(WARN_VERSION_LABEL, (x) => (p.warn.version = x));
  if (!hasWarnLevel && hasEnforceLevel && compareLevels(p.enforce.level, p.warn.level) > 0) {
    p.warn.level = p.enforce.level;
    if (!hasWarnVersion) p.warn.version = p.enforce.version;
  }
  return { policy: p, errors };
}
