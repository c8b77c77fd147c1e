// batch/v1 validation (pkg/apis/batch/validation/validation.go v1.32).
import { parseCronStandard } from '../../apimachinery/cron/cron';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../../apimachinery/validation/names';
import { OMIT_VALUE } from '../../apimachinery/fieldErrors';
import { nameIsDNSSubdomain } from './names';
import { selectorMatches, selectorParseFails, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { validatePodTemplateSpec } from './core/pod';
import { goTimeString, parseRFC3339 } from '../protobuf/goTime';
import { deepEqual, fieldErr, FieldPath, goInvalid, goStringMap, has, immutable, isObj, n, nonNegative, o, root, s, type Errs, type Loose } from './util';

const MAX_PARALLELISM_INDEXED = 100000;
const MAX_FAILED_INDEXES_INDEXED = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_ON_EXIT_CODES_VALUES = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES = 20;
const POLICY_ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_CODE_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
/** Go's %q of a []string: ["a" "b"]. */
const goQuotedList = (l: readonly string[]) => `[${l.map((x) => JSON.stringify(x)).join(' ')}]`;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/** apimachinery IsDomainPrefixedPath: `acme.io/foo`. */
function domainPrefixedPath(p: FieldPath, v: string): Errs {
  if (v.length === 0) return [fieldErr.required(p, '')];
  const i = v.indexOf('/');
  if (i <= 0 || i === v.length - 1) return [fieldErr.invalid(p, v, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = v.slice(0, i);
  const path = v.slice(i + 1);
  const errs = isDNS1123Subdomain(host).map((m) => fieldErr.invalid(p, host, m));
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(path)) errs.push(fieldErr.invalid(p, path, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

/** parseIndexInterval: one "x" or "x-y" fragment of an index list, within completions. */
export function parseIndexInterval(part: string, completions: number): { x: number; y: number } | { error: string } {
  const atoi = (x: string) => (/^[+-]?\d+$/.test(x) ? Number(x) : NaN);
  const limits = part.split('-');
  if (limits.length > 2) return { error: `the fragment ${JSON.stringify(part)} violates the requirement that an index interval can have at most two parts separated by '-'` };
  const x = atoi(limits[0]!);
  if (!Number.isFinite(x)) return { error: `cannot convert string to integer for index: ${JSON.stringify(limits[0])}` };
  if (x >= completions) return { error: `too large index: ${JSON.stringify(limits[0])}` };
  if (limits.length === 1) return { x, y: x };
  const y = atoi(limits[1]!);
  if (!Number.isFinite(y)) return { error: `cannot convert string to integer for index: ${JSON.stringify(limits[1])}` };
  if (y >= completions) return { error: `too large index: ${JSON.stringify(limits[1])}` };
  if (x >= y) return { error: `non-increasing order, previous: ${x}, current: ${y}` };
  return { x, y };
}

/** validateIndexesFormat: "1,3-5" within completions, increasing; the count of indexes. */
export function validateIndexesFormat(str: string, completions: number): { total: number } | { error: string } {
  if (str.length === 0) return { total: 0 };
  let last: number | null = null;
  let total = 0;
  for (const part of str.split(',')) {
    const r = parseIndexInterval(part, completions);
    if ('error' in r) return r;
    if (last !== null && last >= r.x) return { error: `non-increasing order, previous: ${last}, current: ${r.x}` };
    total += r.y - r.x + 1;
    last = r.y;
  }
  return { total };
}

/** Go's %#v of an []int32. */
const goInt32s = (v: unknown[]) => `[]int32{${v.join(', ')}}`;

function validatePodFailurePolicy(sp: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const rules = Array.isArray(sp.podFailurePolicy?.rules) ? (sp.podFailurePolicy.rules as Loose[]) : [];
  const rulesPath = p.child('rules');
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) errs.push(fieldErr.tooMany(rulesPath, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const tspec = o(o(sp.template).spec);
  const names = new Set([...(Array.isArray(tspec.containers) ? tspec.containers : []), ...(Array.isArray(tspec.initContainers) ? tspec.initContainers : [])].map((c: Loose) => s(o(c).name)));
  rules.forEach((raw, i) => {
    const rule = o(raw);
    const rp = rulesPath.index(i);
    const action = s(rule.action);
    if (action === '') errs.push(fieldErr.required(rp.child('action'), `valid values: ${goQuotedList(POLICY_ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (!has(sp.backoffLimitPerIndex)) errs.push(fieldErr.invalid(rp.child('action'), action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!POLICY_ACTIONS.includes(action)) errs.push(fieldErr.notSupported(rp.child('action'), action, POLICY_ACTIONS));
    const onExit = isObj(rule.onExitCodes) ? (rule.onExitCodes as Loose) : null;
    const onConds = Array.isArray(rule.onPodConditions) ? (rule.onPodConditions as Loose[]) : [];
    if (onExit) {
      const ep = rp.child('onExitCodes');
      const op = s(onExit.operator);
      if (op === '') errs.push(fieldErr.required(ep.child('operator'), `valid values: ${goQuotedList(EXIT_CODE_OPERATORS)}`));
      else if (!EXIT_CODE_OPERATORS.includes(op)) errs.push(fieldErr.notSupported(ep.child('operator'), op, EXIT_CODE_OPERATORS));
      if (has(onExit.containerName) && !names.has(s(onExit.containerName))) errs.push(fieldErr.invalid(ep.child('containerName'), s(onExit.containerName), 'must be one of the container or initContainer names in the pod template'));
      const values = Array.isArray(onExit.values) ? (onExit.values as unknown[]) : [];
      const vp = ep.child('values');
      if (values.length === 0) errs.push(goInvalid(vp, goInt32s(values), 'at least one value is required'));
      else if (values.length > MAX_ON_EXIT_CODES_VALUES) errs.push(fieldErr.tooMany(vp, values.length, MAX_ON_EXIT_CODES_VALUES));
      const seen = new Set<unknown>();
      let ordered = true;
      values.forEach((v, j) => {
        if (op === 'In' && v === 0) errs.push(fieldErr.invalid(vp.index(j), v, 'must not be 0 for the In operator'));
        if (seen.has(v)) errs.push(fieldErr.duplicate(vp.index(j), v));
        else seen.add(v);
        if (j > 0 && n(values[j - 1]) > n(v)) ordered = false;
      });
      if (!ordered) errs.push(goInvalid(vp, goInt32s(values), 'must be ordered'));
    }
    if (onConds.length > 0) {
      const cp = rp.child('onPodConditions');
      if (onConds.length > MAX_ON_POD_CONDITIONS_PATTERNS) errs.push(fieldErr.tooMany(cp, onConds.length, MAX_ON_POD_CONDITIONS_PATTERNS));
      onConds.forEach((c, j) => {
        const pp = cp.index(j);
        const type = s(o(c).type);
        errs.push(...isQualifiedName(type).map((m) => fieldErr.invalid(pp.child('type'), type, m)));
        const st = s(o(c).status);
        if (st === '') errs.push(fieldErr.required(pp.child('status'), `valid values: ${goQuotedList(CONDITION_STATUSES)}`));
        else if (!CONDITION_STATUSES.includes(st)) errs.push(fieldErr.notSupported(pp.child('status'), st, CONDITION_STATUSES));
      });
    }
    if (onExit && onConds.length > 0) errs.push(fieldErr.invalid(rp, OMIT_VALUE, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!onExit && onConds.length === 0) errs.push(fieldErr.invalid(rp, OMIT_VALUE, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

/** Go's %#v of a SuccessPolicy (pointer fields shown by value: Go prints their addresses). */
function goSuccessPolicy(sp: Loose): string {
  const rules = (Array.isArray(sp?.rules) ? sp.rules : []).map((r: Loose) => `batch.SuccessPolicyRule{SucceededIndexes:${has(o(r).succeededIndexes) ? JSON.stringify(o(r).succeededIndexes) : '(*string)(nil)'}, SucceededCount:${has(o(r).succeededCount) ? o(r).succeededCount : '(*int32)(nil)'}}`);
  return `batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{${rules.join(', ')}}}`;
}

function validateSuccessPolicy(sp: Loose, p: FieldPath): Errs {
  const errs: Errs = [];
  const rules = Array.isArray(sp.successPolicy?.rules) ? (sp.successPolicy.rules as Loose[]) : [];
  const rulesPath = p.child('rules');
  if (rules.length === 0) errs.push(fieldErr.required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errs.push(fieldErr.tooMany(rulesPath, rules.length, MAX_SUCCESS_POLICY_RULES));
  const completions = n(sp.completions);
  rules.forEach((raw, i) => {
    const rule = o(raw);
    const rp = rulesPath.index(i);
    if (!has(rule.succeededCount) && !has(rule.succeededIndexes)) errs.push(fieldErr.required(rp, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (has(rule.succeededIndexes)) {
      const ip = rp.child('succeededIndexes');
      const str = s(rule.succeededIndexes);
      if (str.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(fieldErr.tooLong(ip, str, MAX_SUCCEEDED_INDEXES_LENGTH));
      const r = validateIndexesFormat(str, completions);
      if ('error' in r) errs.push(fieldErr.invalid(ip, str, `error parsing succeededIndexes: ${r.error}`));
      else total = r.total;
    }
    if (has(rule.succeededCount)) {
      const cp = rp.child('succeededCount');
      const c = n(rule.succeededCount);
      errs.push(...nonNegative(c, cp));
      if (c > completions) errs.push(fieldErr.invalid(cp, c, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (has(rule.succeededIndexes) && c > total) errs.push(fieldErr.invalid(cp, c, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  });
  return errs;
}

function validateJobSpecBody(spec: unknown, p: FieldPath): Errs {
  const sp = o(spec);
  const errs: Errs = [];
  for (const k of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes']) {
    if (has(sp[k])) errs.push(...nonNegative(sp[k], p.child(k)));
  }
  if (has(sp.maxFailedIndexes) && !has(sp.backoffLimitPerIndex)) errs.push(fieldErr.required(p.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  if (has(sp.managedBy)) {
    const mb = s(sp.managedBy);
    errs.push(...domainPrefixedPath(p.child('managedBy'), mb));
    if (mb.length > MAX_MANAGED_BY_LENGTH) errs.push(fieldErr.tooLong(p.child('managedBy'), mb, MAX_MANAGED_BY_LENGTH));
  }
  if (has(sp.completionMode)) {
    const cm = s(sp.completionMode);
    if (cm !== 'NonIndexed' && cm !== 'Indexed') errs.push(fieldErr.notSupported(p.child('completionMode'), cm, ['NonIndexed', 'Indexed']));
    if (cm === 'Indexed') {
      if (!has(sp.completions)) errs.push(fieldErr.required(p.child('completions'), 'when completion mode is Indexed'));
      if (has(sp.parallelism) && n(sp.parallelism) > MAX_PARALLELISM_INDEXED) {
        errs.push(fieldErr.invalid(p.child('parallelism'), n(sp.parallelism), `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
      }
      const mfi = p.child('maxFailedIndexes');
      if (has(sp.completions) && has(sp.maxFailedIndexes) && n(sp.maxFailedIndexes) > n(sp.completions)) errs.push(fieldErr.invalid(mfi, n(sp.maxFailedIndexes), 'must be less than or equal to completions'));
      if (has(sp.maxFailedIndexes) && n(sp.maxFailedIndexes) > MAX_FAILED_INDEXES_INDEXED) errs.push(fieldErr.invalid(mfi, n(sp.maxFailedIndexes), `must be less than or equal to ${MAX_FAILED_INDEXES_INDEXED}`));
      if (has(sp.completions) && n(sp.completions) > COMPLETIONS_SOFT_LIMIT && has(sp.backoffLimitPerIndex)) {
        const tail = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (!has(sp.maxFailedIndexes)) errs.push(fieldErr.required(mfi, `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
        if (has(sp.parallelism) && n(sp.parallelism) > PARALLELISM_LIMIT_HIGH_COMPLETIONS) errs.push(fieldErr.invalid(p.child('parallelism'), n(sp.parallelism), `must be less than or equal to ${PARALLELISM_LIMIT_HIGH_COMPLETIONS} ${tail}`));
        if (has(sp.maxFailedIndexes) && n(sp.maxFailedIndexes) > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) errs.push(fieldErr.invalid(mfi, n(sp.maxFailedIndexes), `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} ${tail}`));
      }
    }
  }
  if (s(sp.completionMode) !== 'Indexed' && (!has(sp.completionMode) || s(sp.completionMode) === 'NonIndexed')) {
    if (has(sp.backoffLimitPerIndex)) errs.push(fieldErr.invalid(p.child('backoffLimitPerIndex'), n(sp.backoffLimitPerIndex), 'requires indexed completion mode'));
    if (has(sp.maxFailedIndexes)) errs.push(fieldErr.invalid(p.child('maxFailedIndexes'), n(sp.maxFailedIndexes), 'requires indexed completion mode'));
  }
  if (isObj(sp.podFailurePolicy)) errs.push(...validatePodFailurePolicy(sp, p.child('podFailurePolicy')));
  if (isObj(sp.successPolicy)) {
    if (s(sp.completionMode) !== 'Indexed') errs.push(goInvalid(p.child('successPolicy'), goSuccessPolicy(sp.successPolicy), 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(sp, p.child('successPolicy')));
  }
  if (has(sp.podReplacementPolicy)) {
    const prp = s(sp.podReplacementPolicy);
    if (prp !== 'TerminatingOrFailed' && prp !== 'Failed') errs.push(fieldErr.notSupported(p.child('podReplacementPolicy'), prp, ['TerminatingOrFailed', 'Failed']));
    else if (has(sp.podFailurePolicy) && prp !== 'Failed') errs.push(fieldErr.notSupported(p.child('podReplacementPolicy'), prp, ['Failed']));
  }
  errs.push(...validatePodTemplateSpec(sp.template, p.child('template')));
  const rp = s(o(o(sp.template).spec).restartPolicy);
  const rpPath = p.child('template', 'spec', 'restartPolicy');
  if (rp === 'Always' || rp === '') errs.push(fieldErr.required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(fieldErr.notSupported(rpPath, rp, ['OnFailure', 'Never']));
  else if (has(sp.podFailurePolicy) && rp !== 'Never') errs.push(fieldErr.invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

function validateJobSpec(spec: unknown, p: FieldPath): Errs {
  const sp = o(spec);
  const errs = validateJobSpecBody(spec, p);
  if (!isObj(sp.selector)) errs.push(fieldErr.required(p.child('selector'), ''));
  else errs.push(...validateLabelSelector(sp.selector, {}, p.child('selector')));
  if (isObj(sp.selector) && !selectorParseFails(sp.selector)) {
    const labels = o(o(sp.template).metadata).labels;
    if (!selectorMatches(sp.selector, labels)) errs.push(goInvalid(p.child('template', 'metadata', 'labels'), goStringMap(labels), '`selector` does not match template `labels`'));
  }
  return errs;
}

/** validateGeneratedSelector: with a generated selector, the template must carry the controller-uid labels. */
function validateGeneratedSelector(job: Loose): Errs {
  const sp = o(job.spec);
  if (sp.manualSelector === true) return [];
  const tplMeta = o(o(sp.template).metadata);
  if (!isObj(tplMeta.labels)) return [];
  const uid = s(o(job.metadata).uid);
  const errs: Errs = [];
  const lp = root('spec', 'template', 'metadata', 'labels');
  const labels = tplMeta.labels as Record<string, unknown>;
  for (const key of ['controller-uid', 'batch.kubernetes.io/controller-uid']) {
    if (!Object.hasOwn(labels, key)) errs.push(fieldErr.required(lp.key(key), `must be '${uid}'`));
    else if (labels[key] !== uid) errs.push(fieldErr.invalid(lp.key(key), labels, `must be '${uid}'`));
  }
  const sel = o(sp.selector);
  const ml = o(sel.matchLabels) as Record<string, unknown>;
  if (!isObj(sp.selector)) return errs;
  if (ml['batch.kubernetes.io/controller-uid'] !== uid && ml['controller-uid'] !== uid) {
    errs.push(fieldErr.invalid(root('spec', 'selector'), sp.selector, '`selector` not auto-generated'));
  }
  return errs;
}

export function validateJob(job: Loose): Errs {
  const errs = validateObjectMeta(job.metadata, true, nameIsDNSSubdomain);
  errs.push(...validateGeneratedSelector(job));
  errs.push(...validateJobSpec(job.spec, root('spec')));
  const sp = o(job.spec);
  if (sp.completionMode === 'Indexed' && n(sp.completions) > 0) {
    const host = `${s(o(job.metadata).name)}-${n(sp.completions) - 1}`;
    if (isDNS1123Label(host).length) errs.push(fieldErr.invalid(root('metadata', 'name'), s(o(job.metadata).name), `will not able to create pod with invalid DNS label: ${host}`));
  }
  return errs;
}

export function validateJobUpdate(job: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(job.metadata, old.metadata);
  errs.push(...validateJobSpec(job.spec, root('spec')));
  const ns = o(job.spec);
  const os = o(old.spec);
  const p = root('spec');
  const elastic = ns.completionMode === 'Indexed' && n(ns.completions) === n(ns.parallelism) && n(os.completions) === n(os.parallelism);
  if (!elastic) errs.push(...immutable(ns.completions, os.completions, p.child('completions')));
  errs.push(...immutable(ns.selector, os.selector, p.child('selector')));
  if (!(ns.suspend === true && os.suspend === true)) errs.push(...immutable(ns.template, os.template, p.child('template')));
  errs.push(...immutable(ns.completionMode, os.completionMode, p.child('completionMode')));
  errs.push(...immutable(ns.podFailurePolicy, os.podFailurePolicy, p.child('podFailurePolicy')));
  errs.push(...immutable(ns.backoffLimitPerIndex, os.backoffLimitPerIndex, p.child('backoffLimitPerIndex')));
  errs.push(...immutable(ns.managedBy, os.managedBy, p.child('managedBy')));
  errs.push(...immutable(ns.successPolicy, os.successPolicy, p.child('successPolicy')));
  return errs;
}

// ---------------------------------------------------------------- Job status

// Job status updates, as pkg/apis/batch/validation/validation.go (validateJobStatus,
// ValidateJobStatusUpdate) checks them with the options pkg/registry/batch/job/strategy.go
// (getStatusValidationOptions) picks.

/** JobStatusValidationOptions: which of the stricter status rules apply to this update. */
export interface JobStatusValidationOptions {
  rejectDecreasingSucceededCounter: boolean;
  rejectDecreasingFailedCounter: boolean;
  rejectDisablingTerminalCondition: boolean;
  rejectInvalidCompletedIndexes: boolean;
  rejectInvalidFailedIndexes: boolean;
  rejectFailedIndexesOverlappingCompleted: boolean;
  rejectCompletedIndexesForNonIndexedJob: boolean;
  rejectFailedIndexesForNoBackoffLimitPerIndex: boolean;
  rejectFailedJobWithoutFailureTarget: boolean;
  rejectCompleteJobWithoutSuccessCriteriaMet: boolean;
  rejectFinishedJobWithActivePods: boolean;
  rejectFinishedJobWithoutStartTime: boolean;
  rejectFinishedJobWithUncountedTerminatedPods: boolean;
  rejectStartTimeUpdateForUnsuspendedJob: boolean;
  rejectCompletionTimeBeforeStartTime: boolean;
  rejectMutatingCompletionTime: boolean;
  rejectCompleteJobWithoutCompletionTime: boolean;
  rejectNotCompleteJobWithCompletionTime: boolean;
  rejectCompleteJobWithFailedCondition: boolean;
  rejectCompleteJobWithFailureTargetCondition: boolean;
  allowForSuccessCriteriaMetInExtendedScope: boolean;
  rejectMoreReadyThanActivePods: boolean;
  rejectFinishedJobWithTerminatingPods: boolean;
}

/** IsConditionTrue over the JSON conditions. */
function conditionTrue(job: Loose, type: string): boolean {
  const conds = o(job.status).conditions;
  return Array.isArray(conds) && conds.some((c) => o(c).type === type && o(c).status === 'True');
}
const isComplete = (j: Loose) => conditionTrue(j, 'Complete');
const isFailed = (j: Loose) => conditionTrue(j, 'Failed');
const isFinished = (j: Loose) => isComplete(j) || isFailed(j);
const isFailureTarget = (j: Loose) => conditionTrue(j, 'FailureTarget');
const isSuccessCriteriaMet = (j: Loose) => conditionTrue(j, 'SuccessCriteriaMet');

/** A metav1.Time as Unix seconds and nanos (null when absent or malformed). */
function instant(v: unknown): { seconds: number; nanos: number } | null {
  return typeof v === 'string' ? parseRFC3339(v) : null;
}
/** ptr.Equal of two *metav1.Time: both nil, or the same instant. */
function sameTime(a: unknown, b: unknown): boolean {
  if (!has(a) || !has(b)) return !has(a) && !has(b);
  const x = instant(a);
  const y = instant(b);
  if (x === null || y === null) return a === b;
  return x.seconds === y.seconds && x.nanos === y.nanos;
}
/** time.Time.Before. */
function before(a: unknown, b: unknown): boolean {
  const x = instant(a);
  const y = instant(b);
  if (x === null || y === null) return false;
  return x.seconds < y.seconds || (x.seconds === y.seconds && x.nanos < y.nanos);
}
/** ptr.Equal of two *int32 / *string. */
const samePtr = (a: unknown, b: unknown) => (has(a) && has(b) ? a === b : !has(a) && !has(b));
/** apiequality.Semantic.DeepEqual of two *UncountedTerminatedPods (nil and empty lists equal). */
function sameUncounted(a: unknown, b: unknown): boolean {
  if (!has(a) || !has(b)) return !has(a) && !has(b);
  const list = (u: unknown, k: string) => (Array.isArray(o(u)[k]) ? (o(u)[k] as unknown[]) : []);
  return ['succeeded', 'failed'].every((k) => deepEqual(list(a, k), list(b, k)));
}

/** Go's time.Time.String() of a metav1.Time, in the API server's (UTC) zone: `2025-01-01 00:00:05 +0000 UTC`. */
function goTimeText(v: unknown): string {
  const t = instant(v);
  return t === null ? JSON.stringify(v) : goTimeString(t.seconds, t.nanos);
}
/** Go's %#v of a batch.UncountedTerminatedPods (internal type). */
function goUncounted(u: Loose): string {
  const list = (k: string) => (Array.isArray(u[k]) ? `[]types.UID{${(u[k] as unknown[]).map((x) => JSON.stringify(s(x))).join(', ')}}` : '[]types.UID(nil)');
  return `batch.UncountedTerminatedPods{Succeeded:${list('succeeded')}, Failed:${list('failed')}}`;
}

/**
 * getStatusValidationOptions in v1.32: JobManagedBy is beta and on by default
 * (JobPodReplacementPolicy, JobSuccessPolicy and JobBackoffLimitPerIndex too), so
 * the strengthened rules apply, most of them only when the fields they read changed
 * in this update, so that a status already off the rules can still be updated.
 */
export function jobStatusValidationOptions(job: Loose, old: Loose): JobStatusValidationOptions {
  const ns = o(job.status);
  const os = o(old.status);
  const sp = o(job.spec);
  const isIndexed = sp.completionMode === 'Indexed';
  const finishedChanged = isFinished(old) !== isFinished(job);
  const completeChanged = isComplete(old) !== isComplete(job);
  const failedChanged = isFailed(old) !== isFailed(job);
  const failureTargetChanged = isFailureTarget(old) !== isFailureTarget(job);
  const successCriteriaMetChanged = isSuccessCriteriaMet(old) !== isSuccessCriteriaMet(job);
  const completedIndexesChanged = s(os.completedIndexes) !== s(ns.completedIndexes);
  const failedIndexesChanged = !samePtr(os.failedIndexes, ns.failedIndexes);
  const activeChanged = n(os.active) !== n(ns.active);
  const startTimeChanged = !sameTime(os.startTime, ns.startTime);
  const completionTimeChanged = !sameTime(os.completionTime, ns.completionTime);
  const uncountedChanged = !sameUncounted(os.uncountedTerminatedPods, ns.uncountedTerminatedPods);
  const readyChanged = !samePtr(os.ready, ns.ready);
  const terminatingChanged = !samePtr(os.terminating, ns.terminating);
  return {
    // Indexed Jobs with completions == parallelism can be scaled down, losing succeeded pods.
    rejectDecreasingSucceededCounter: !isIndexed || !samePtr(sp.completions, sp.parallelism),
    rejectDecreasingFailedCounter: true,
    rejectDisablingTerminalCondition: true,
    rejectInvalidCompletedIndexes: completedIndexesChanged,
    rejectInvalidFailedIndexes: failedIndexesChanged,
    rejectCompletedIndexesForNonIndexedJob: completedIndexesChanged,
    rejectFailedIndexesForNoBackoffLimitPerIndex: failedIndexesChanged,
    rejectFailedIndexesOverlappingCompleted: failedIndexesChanged || completedIndexesChanged,
    rejectFailedJobWithoutFailureTarget: failedChanged || failedIndexesChanged,
    rejectCompleteJobWithoutSuccessCriteriaMet: completeChanged || successCriteriaMetChanged,
    rejectFinishedJobWithActivePods: finishedChanged || activeChanged,
    rejectFinishedJobWithoutStartTime: finishedChanged || startTimeChanged,
    rejectFinishedJobWithUncountedTerminatedPods: finishedChanged || uncountedChanged,
    rejectStartTimeUpdateForUnsuspendedJob: startTimeChanged,
    rejectCompletionTimeBeforeStartTime: startTimeChanged || completionTimeChanged,
    rejectMutatingCompletionTime: true,
    rejectNotCompleteJobWithCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithoutCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithFailedCondition: completeChanged || failedChanged,
    rejectCompleteJobWithFailureTargetCondition: completeChanged || failureTargetChanged,
    allowForSuccessCriteriaMetInExtendedScope: true,
    rejectMoreReadyThanActivePods: readyChanged || activeChanged,
    rejectFinishedJobWithTerminatingPods: finishedChanged || terminatingChanged,
  };
}

/** validateFailedIndexesNotOverlapCompleted: the first index in both lists (unparsable fragments are skipped). */
function failedOverlapsCompleted(completedStr: string, failedStr: string, completions: number): string | null {
  if (completedStr.length === 0 || failedStr.length === 0) return null;
  const completed = completedStr.split(',');
  const failed = failedStr.split(',');
  let ci = 0;
  let fi = 0;
  let c = parseIndexInterval(completed[0]!, completions);
  let f = parseIndexInterval(failed[0]!, completions);
  while (ci < completed.length && fi < failed.length) {
    if ('error' in c) {
      if (++ci < completed.length) c = parseIndexInterval(completed[ci]!, completions);
    } else if ('error' in f) {
      if (++fi < failed.length) f = parseIndexInterval(failed[fi]!, completions);
    } else {
      if (c.x <= f.y && f.x <= c.y) return `failedIndexes and completedIndexes overlap at index: ${Math.max(c.x, f.x)}`;
      if (c.x <= f.x) {
        if (++ci < completed.length) c = parseIndexInterval(completed[ci]!, completions);
      } else if (++fi < failed.length) f = parseIndexInterval(failed[fi]!, completions);
    }
  }
  return null;
}

/** validateJobStatus. */
function validateJobStatus(job: Loose, p: FieldPath, opts: JobStatusValidationOptions): Errs {
  const errs: Errs = [];
  const st = o(job.status);
  const sp = o(job.spec);
  for (const k of ['active', 'succeeded', 'failed', 'ready', 'terminating']) if (has(st[k])) errs.push(...nonNegative(st[k], p.child(k)));
  const uncounted = isObj(st.uncountedTerminatedPods) ? (st.uncountedTerminatedPods as Loose) : null;
  if (uncounted) {
    const up = p.child('uncountedTerminatedPods');
    const seen = new Set<string>();
    for (const k of ['succeeded', 'failed']) {
      (Array.isArray(uncounted[k]) ? (uncounted[k] as unknown[]) : []).forEach((raw, i) => {
        const uid = s(raw);
        const ip = up.child(k).index(i);
        if (uid === '') errs.push(fieldErr.invalid(ip, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(fieldErr.duplicate(ip, uid));
        else seen.add(uid);
      });
    }
  }
  const conds = p.child('conditions');
  const condErr = (detail: string) => fieldErr.invalid(conds, OMIT_VALUE, detail);
  const complete = isComplete(job);
  const failed = isFailed(job);
  const failureTarget = isFailureTarget(job);
  const successCriteriaMet = isSuccessCriteriaMet(job);
  if (opts.rejectCompleteJobWithFailedCondition && complete && failed) errs.push(condErr('cannot set Complete=True and Failed=true conditions'));
  if (opts.rejectCompleteJobWithFailureTargetCondition && complete && failureTarget) errs.push(condErr('cannot set Complete=True and FailureTarget=true conditions'));
  if (opts.rejectNotCompleteJobWithCompletionTime && has(st.completionTime) && !complete) {
    errs.push(goInvalid(p.child('completionTime'), goTimeText(st.completionTime), 'cannot set completionTime when there is no Complete=True condition'));
  }
  if (opts.rejectCompleteJobWithoutCompletionTime && !has(st.completionTime) && complete) errs.push(fieldErr.required(p.child('completionTime'), 'completionTime is required for Complete jobs'));
  if (opts.rejectCompletionTimeBeforeStartTime && has(st.startTime) && has(st.completionTime) && before(st.completionTime, st.startTime)) {
    errs.push(goInvalid(p.child('completionTime'), goTimeText(st.completionTime), 'completionTime cannot be set before startTime'));
  }
  if (opts.rejectFailedJobWithoutFailureTarget && failed && !failureTarget) errs.push(condErr('cannot set Failed=True condition without the FailureTarget=true condition'));
  if (opts.rejectCompleteJobWithoutSuccessCriteriaMet && complete && !successCriteriaMet) errs.push(condErr('cannot set Complete=True condition without the SuccessCriteriaMet=true condition'));
  const finished = complete || failed;
  if (opts.rejectFinishedJobWithActivePods && n(st.active) > 0 && finished) errs.push(fieldErr.invalid(p.child('active'), n(st.active), 'active>0 is invalid for finished job'));
  // A Job created suspended with completions 0 completes without ever starting: v1.32.0 refused that write,
  // a regression the 1.32 branch fixed (kubernetes#132144; #132614, cherry-picked as #132727).
  const neverStarts = o(job.spec).suspend === true && o(job.spec).completions === 0;
  if (opts.rejectFinishedJobWithoutStartTime && !has(st.startTime) && finished && !neverStarts) errs.push(fieldErr.required(p.child('startTime'), 'startTime is required for finished job'));
  if (opts.rejectFinishedJobWithUncountedTerminatedPods && finished && uncounted) {
    const count = ['succeeded', 'failed'].reduce((t, k) => t + (Array.isArray(uncounted[k]) ? (uncounted[k] as unknown[]).length : 0), 0);
    if (count > 0) errs.push(goInvalid(p.child('uncountedTerminatedPods'), goUncounted(uncounted), 'uncountedTerminatedPods needs to be empty for finished job'));
  }
  const completedIndexes = s(st.completedIndexes);
  if (opts.rejectInvalidCompletedIndexes && has(sp.completions)) {
    const r = validateIndexesFormat(completedIndexes, n(sp.completions));
    if ('error' in r) errs.push(fieldErr.invalid(p.child('completedIndexes'), completedIndexes, `error parsing completedIndexes: ${r.error}`));
  }
  if (opts.rejectInvalidFailedIndexes && has(sp.completions) && has(sp.backoffLimitPerIndex) && has(st.failedIndexes)) {
    const r = validateIndexesFormat(s(st.failedIndexes), n(sp.completions));
    if ('error' in r) errs.push(fieldErr.invalid(p.child('failedIndexes'), s(st.failedIndexes), `error parsing failedIndexes: ${r.error}`));
  }
  const isIndexed = sp.completionMode === 'Indexed';
  if (opts.rejectCompletedIndexesForNonIndexedJob && completedIndexes.length !== 0 && !isIndexed) {
    errs.push(fieldErr.invalid(p.child('completedIndexes'), completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  // A NonIndexed Job has no backoffLimitPerIndex, so this also keeps failedIndexes off it.
  if (opts.rejectFailedIndexesForNoBackoffLimitPerIndex && !has(sp.backoffLimitPerIndex) && has(st.failedIndexes)) {
    errs.push(fieldErr.invalid(p.child('failedIndexes'), s(st.failedIndexes), 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if (opts.rejectFailedIndexesOverlappingCompleted && has(sp.completions) && has(st.failedIndexes)) {
    const msg = failedOverlapsCompleted(completedIndexes, s(st.failedIndexes), n(sp.completions));
    if (msg !== null) errs.push(fieldErr.invalid(p.child('failedIndexes'), s(st.failedIndexes), msg));
  }
  if (opts.rejectFinishedJobWithTerminatingPods && n(st.terminating) > 0 && finished) errs.push(fieldErr.invalid(p.child('terminating'), n(st.terminating), 'terminating>0 is invalid for finished job'));
  if (opts.rejectMoreReadyThanActivePods && has(st.ready) && n(st.ready) > n(st.active)) errs.push(fieldErr.invalid(p.child('ready'), n(st.ready), 'cannot set more ready pods than active'));
  if (!opts.allowForSuccessCriteriaMetInExtendedScope && !isIndexed && successCriteriaMet) errs.push(condErr('cannot set SuccessCriteriaMet to NonIndexed Job'));
  if (successCriteriaMet && failed) errs.push(condErr('cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (successCriteriaMet && failureTarget) errs.push(condErr('cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (!opts.allowForSuccessCriteriaMetInExtendedScope && !has(sp.successPolicy) && successCriteriaMet) errs.push(condErr('cannot set SuccessCriteriaMet=True for Job without SuccessPolicy'));
  if (has(sp.successPolicy) && !successCriteriaMet && complete) errs.push(condErr('cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  return errs;
}

/** ValidateJobUpdateStatus: metadata, then validateJobStatus and the rules on the transition from the old status. */
export function validateJobStatusUpdate(job: Loose, old: Loose, opts: JobStatusValidationOptions = jobStatusValidationOptions(job, old)): Errs {
  const errs = validateObjectMetaUpdate(job.metadata, old.metadata);
  const p = root('status');
  errs.push(...validateJobStatus(job, p, opts));
  const st = o(job.status);
  const ost = o(old.status);
  const conds = p.child('conditions');
  if (opts.rejectDisablingTerminalCondition) {
    for (const type of ['Failed', 'Complete', 'FailureTarget']) {
      if (conditionTrue(old, type) && !conditionTrue(job, type)) errs.push(fieldErr.invalid(conds, OMIT_VALUE, `cannot disable the terminal ${type}=True condition`));
    }
  }
  if (opts.rejectDecreasingFailedCounter && n(st.failed) < n(ost.failed)) errs.push(fieldErr.invalid(p.child('failed'), n(st.failed), 'cannot decrease the failed counter'));
  if (opts.rejectDecreasingSucceededCounter && n(st.succeeded) < n(ost.succeeded)) errs.push(fieldErr.invalid(p.child('succeeded'), n(st.succeeded), 'cannot decrease the succeeded counter'));
  // Only a change between two set values: clearing completionTime is RejectCompleteJobWithoutCompletionTime's.
  if (opts.rejectMutatingCompletionTime && has(st.completionTime) && has(ost.completionTime) && !sameTime(st.completionTime, ost.completionTime)) {
    errs.push(goInvalid(p.child('completionTime'), goTimeText(st.completionTime), 'completionTime cannot be mutated'));
  }
  // Setting a first startTime is the normal start of a Job; changing or removing it needs a suspended Job,
  // or the write that resumes one (its stored status still Suspended=True), which resets startTime. v1.32.0
  // refused that too, so a Job suspended after it started never resumed; the 1.32 branch fixed it
  // (kubernetes#134521; #134769, cherry-picked as #135128).
  const resuming = conditionTrue(old, 'Suspended');
  if (opts.rejectStartTimeUpdateForUnsuspendedJob && has(ost.startTime) && !sameTime(ost.startTime, st.startTime) && o(job.spec).suspend !== true && !resuming) {
    errs.push(fieldErr.required(p.child('startTime'), 'startTime cannot be removed for unsuspended job'));
  }
  if (isSuccessCriteriaMet(old) && !isSuccessCriteriaMet(job)) errs.push(fieldErr.invalid(conds, OMIT_VALUE, 'cannot disable the SuccessCriteriaMet=True condition'));
  if (isComplete(old) && !isSuccessCriteriaMet(old) && isSuccessCriteriaMet(job)) errs.push(fieldErr.invalid(conds, OMIT_VALUE, 'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  return errs;
}

// ---------------------------------------------------------------- CronJob

function validateCronJobSpec(spec: unknown, oldSpec: Loose | null): Errs {
  const sp = o(spec);
  const p = root('spec');
  const errs: Errs = [];
  const schedule = s(sp.schedule);
  if (!schedule) errs.push(fieldErr.required(p.child('schedule'), ''));
  else {
    const err = parseCronStandard(schedule);
    if (err) errs.push(fieldErr.invalid(p.child('schedule'), schedule, err));
    const allowTZ = oldSpec ? s(oldSpec.schedule).includes('TZ') : false;
    if (allowTZ && schedule.includes('TZ') && has(sp.timeZone)) errs.push(fieldErr.invalid(p.child('schedule'), schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    else if (!allowTZ && schedule.includes('TZ')) errs.push(fieldErr.invalid(p.child('schedule'), schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  if (has(sp.startingDeadlineSeconds)) errs.push(...nonNegative(sp.startingDeadlineSeconds, p.child('startingDeadlineSeconds')));
  if (has(sp.timeZone) && (!oldSpec || oldSpec.timeZone !== sp.timeZone)) {
    const tz = s(sp.timeZone);
    if (tz === '') errs.push(fieldErr.invalid(p.child('timeZone'), tz, 'unknown time zone'));
    else if (tz.trim() !== tz) errs.push(fieldErr.invalid(p.child('timeZone'), tz, 'unknown time zone ' + tz));
    else if (!/^(UTC|Local|[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*)$/.test(tz) || tz === 'Local') {
      errs.push(fieldErr.invalid(p.child('timeZone'), tz, tz === 'Local' ? 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones' : `unknown time zone ${tz}`));
    }
  }
  const cp = s(sp.concurrencyPolicy);
  if (cp === '') errs.push(fieldErr.required(p.child('concurrencyPolicy'), ''));
  else if (!['Allow', 'Forbid', 'Replace'].includes(cp)) errs.push(fieldErr.notSupported(p.child('concurrencyPolicy'), cp, ['Allow', 'Forbid', 'Replace']));
  const jt = o(sp.jobTemplate);
  const jp = p.child('jobTemplate');
  errs.push(...validateJobSpecBody(jt.spec, jp.child('spec')));
  const jspec = o(jt.spec);
  if (has(jspec.selector)) errs.push(fieldErr.invalid(jp.child('spec', 'selector'), jspec.selector, '`selector` will be auto-generated'));
  if (jspec.manualSelector === true) errs.push(fieldErr.notSupported(jp.child('spec', 'manualSelector'), true, ['nil', 'false']));
  if (has(sp.successfulJobsHistoryLimit)) errs.push(...nonNegative(sp.successfulJobsHistoryLimit, p.child('successfulJobsHistoryLimit')));
  if (has(sp.failedJobsHistoryLimit)) errs.push(...nonNegative(sp.failedJobsHistoryLimit, p.child('failedJobsHistoryLimit')));
  return errs;
}

export function validateCronJob(cj: Loose): Errs {
  const errs = validateObjectMeta(cj.metadata, true, nameIsDNSSubdomain);
  errs.push(...validateCronJobSpec(cj.spec, null));
  const name = s(o(cj.metadata).name);
  if (name.length > 52) errs.push(fieldErr.invalid(root('metadata', 'name'), name, 'must be no more than 52 characters'));
  return errs;
}

export function validateCronJobUpdate(cj: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(cj.metadata, old.metadata);
  errs.push(...validateCronJobSpec(cj.spec, o(old.spec)));
  return errs;
}
