// batch/v1 validation (pkg/apis/batch/validation/validation.go v1.32).
import { parseCronStandard } from '../../apimachinery/cron/cron';
import { isDNS1123Label } from '../../apimachinery/validation/names';
import { nameIsDNSSubdomain } from './names';
import { selectorMatches, selectorParseFails, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import { validatePodTemplateSpec } from './core/pod';
import { fieldErr, FieldPath, goInvalid, goStringMap, has, immutable, isObj, n, nonNegative, o, root, s, type Errs, type Loose } from './util';

const MAX_PARALLELISM_INDEXED = 100000;

function validateJobSpecBody(spec: unknown, p: FieldPath): Errs {
  const sp = o(spec);
  const errs: Errs = [];
  for (const k of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes']) {
    if (has(sp[k])) errs.push(...nonNegative(sp[k], p.child(k)));
  }
  if (has(sp.maxFailedIndexes) && !has(sp.backoffLimitPerIndex)) errs.push(fieldErr.required(p.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  if (has(sp.completionMode)) {
    const cm = s(sp.completionMode);
    if (cm !== 'NonIndexed' && cm !== 'Indexed') errs.push(fieldErr.notSupported(p.child('completionMode'), cm, ['NonIndexed', 'Indexed']));
    if (cm === 'Indexed') {
      if (!has(sp.completions)) errs.push(fieldErr.required(p.child('completions'), 'when completion mode is Indexed'));
      if (has(sp.parallelism) && n(sp.parallelism) > MAX_PARALLELISM_INDEXED) {
        errs.push(fieldErr.invalid(p.child('parallelism'), n(sp.parallelism), `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
      }
    }
  }
  if (has(sp.backoffLimitPerIndex) && s(sp.completionMode) !== 'Indexed') {
    errs.push(fieldErr.forbidden(p.child('backoffLimitPerIndex'), 'requires indexed completion mode'));
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

export function validateJobStatusUpdate(job: Loose, old: Loose): Errs {
  const errs = validateObjectMetaUpdate(job.metadata, old.metadata);
  const st = o(job.status);
  const p = root('status');
  for (const k of ['active', 'succeeded', 'failed', 'ready', 'terminating']) if (has(st[k])) errs.push(...nonNegative(st[k], p.child(k)));
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
