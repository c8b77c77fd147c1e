// Job status updates against v1.32's rules: pkg/apis/batch/validation/validation.go
// (validateJobStatus, ValidateJobStatusUpdate) with the options
// pkg/registry/batch/job/strategy.go (getStatusValidationOptions) turns on while
// JobManagedBy is enabled, as it is by default in v1.32.
import { describe, expect, it } from 'vitest';
import { status } from '../../apimachinery/status';
import type { KObject } from '../../apimachinery/types';
import { jobStatusValidationOptions, validateJobStatusUpdate } from './batch';
import { validateStatusUpdate } from './index';
import { prepareForStatusUpdate } from './strategy';

const JOB = { group: 'batch', version: 'v1', kind: 'Job' };
const T0 = '2025-01-01T00:00:00Z';
const T1 = '2025-01-01T00:01:00Z';
const T2 = '2025-01-01T00:02:00Z';

type St = Record<string, unknown>;
const cond = (type: string, s = 'True') => ({ type, status: s, lastProbeTime: T1, lastTransitionTime: T1, reason: 'R', message: 'm' });
const COMPLETE = [cond('SuccessCriteriaMet'), cond('Complete')];
const FAILED = [cond('FailureTarget'), cond('Failed')];

function job(st: St, spec: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'j', namespace: 'default', uid: 'u', resourceVersion: '7' },
    spec: { completions: 1, parallelism: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } }, ...spec },
    status: st,
  } as KObject;
}

/** PUT /status from `from` to `to` (the spec is the stored one): 'ok' or the 422 message, without its prefix. */
function put(from: St, to: St, spec: Record<string, unknown> = {}): string {
  const old = job(from, spec);
  const obj = JSON.parse(JSON.stringify(job(to, spec))) as KObject;
  prepareForStatusUpdate(JOB, obj, old);
  const errs = validateStatusUpdate(JOB, obj, old);
  return errs.length ? status.invalid(JOB, 'j', errs).message!.replace('Job.batch "j" is invalid: ', '') : 'ok';
}

const RUNNING: St = { startTime: T0, active: 1, ready: 1, terminating: 0, uncountedTerminatedPods: {} };
const DONE: St = { startTime: T0, completionTime: T1, succeeded: 1, active: 0, ready: 0, terminating: 0, uncountedTerminatedPods: {}, conditions: COMPLETE };

describe('Job status: pods counted against the Job state', () => {
  it('the controller’s own transitions pass: running, SuccessCriteriaMet, then Complete; FailureTarget, then Failed', () => {
    expect(put({}, RUNNING)).toBe('ok');
    const met = { ...RUNNING, active: 0, ready: 0, succeeded: 1, conditions: [cond('SuccessCriteriaMet')] };
    expect(put(RUNNING, met)).toBe('ok');
    expect(put(met, DONE)).toBe('ok');
    const target = { ...RUNNING, active: 0, ready: 0, failed: 1, terminating: 1, conditions: [cond('FailureTarget')] };
    expect(put(RUNNING, target)).toBe('ok');
    expect(put(target, { ...target, terminating: 0, conditions: FAILED })).toBe('ok');
  });

  it('ready may not exceed active (RejectMoreReadyThanActivePods), checked only when ready or active changes', () => {
    expect(put(RUNNING, { ...RUNNING, active: 1, ready: 2 })).toBe('status.ready: Invalid value: 2: cannot set more ready pods than active');
    expect(put({ ...RUNNING, ready: 2 }, { ...RUNNING, active: 0, ready: 2 })).toBe('status.ready: Invalid value: 2: cannot set more ready pods than active');
    // Already off the rule and neither count touched: another field still updates.
    expect(put({ ...RUNNING, ready: 2 }, { ...RUNNING, ready: 2, failed: 1 })).toBe('ok');
  });

  it('a finished Job has no active or terminating pods and nothing uncounted', () => {
    expect(put(RUNNING, { ...DONE, active: 1 })).toBe('status.active: Invalid value: 1: active>0 is invalid for finished job');
    expect(put(RUNNING, { ...DONE, terminating: 2 })).toBe('status.terminating: Invalid value: 2: terminating>0 is invalid for finished job');
    expect(put(RUNNING, { ...DONE, uncountedTerminatedPods: { succeeded: ['a'] } })).toBe(
      'status.uncountedTerminatedPods: Invalid value: batch.UncountedTerminatedPods{Succeeded:[]types.UID{"a"}, Failed:[]types.UID(nil)}: uncountedTerminatedPods needs to be empty for finished job',
    );
    // Finished before, unchanged counts: not checked again.
    expect(put({ ...DONE, terminating: 2 }, { ...DONE, terminating: 2, ready: 0 })).toBe('ok');
    expect(put(DONE, { ...DONE, terminating: 1 })).toBe('status.terminating: Invalid value: 1: terminating>0 is invalid for finished job');
  });

  it('uncountedTerminatedPods lists non-empty, distinct uids', () => {
    expect(put(RUNNING, { ...RUNNING, uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } })).toBe(
      '[status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty, status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"]',
    );
  });

  it('counters never go down, except succeeded for an Indexed Job with completions == parallelism', () => {
    const st = { ...RUNNING, succeeded: 3, failed: 2 };
    expect(put(st, { ...st, failed: 1 })).toBe('status.failed: Invalid value: 1: cannot decrease the failed counter');
    expect(put(st, { ...st, succeeded: 2 })).toBe('status.succeeded: Invalid value: 2: cannot decrease the succeeded counter');
    const elastic = { completionMode: 'Indexed', completions: 4, parallelism: 4 };
    expect(put({ ...st, completedIndexes: '0-2' }, { ...st, succeeded: 2, completedIndexes: '0-1' }, elastic)).toBe('ok');
  });
});

describe('Job status: conditions', () => {
  it('Complete needs SuccessCriteriaMet and Failed needs FailureTarget', () => {
    expect(put(RUNNING, { ...DONE, conditions: [cond('Complete')] })).toBe('status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition');
    expect(put(RUNNING, { ...RUNNING, active: 0, ready: 0, conditions: [cond('Failed')] })).toBe('status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition');
  });

  it('Complete excludes Failed and FailureTarget; SuccessCriteriaMet excludes both too', () => {
    expect(put(RUNNING, { ...DONE, conditions: [...COMPLETE, cond('Failed')] })).toBe(
      '[status.conditions: Invalid value: cannot set Complete=True and Failed=true conditions, status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition, status.conditions: Invalid value: cannot set SuccessCriteriaMet=True and Failed=true conditions]',
    );
    expect(put(RUNNING, { ...DONE, conditions: [...COMPLETE, cond('FailureTarget')] })).toBe(
      '[status.conditions: Invalid value: cannot set Complete=True and FailureTarget=true conditions, status.conditions: Invalid value: cannot set SuccessCriteriaMet=True and FailureTarget=true conditions]',
    );
  });

  it('a terminal condition (and SuccessCriteriaMet) once True stays True', () => {
    const failed = { ...RUNNING, active: 0, ready: 0, conditions: FAILED };
    expect(put(failed, { ...failed, conditions: [] })).toBe(
      '[status.conditions: Invalid value: cannot disable the terminal Failed=True condition, status.conditions: Invalid value: cannot disable the terminal FailureTarget=True condition]',
    );
    expect(put(DONE, { ...DONE, conditions: [cond('SuccessCriteriaMet'), cond('Complete', 'False')] })).toBe(
      '[status.completionTime: Invalid value: 2025-01-01 00:01:00 +0000 UTC: cannot set completionTime when there is no Complete=True condition, status.conditions: Invalid value: cannot disable the terminal Complete=True condition]',
    );
    const met = { ...RUNNING, conditions: [cond('SuccessCriteriaMet')] };
    expect(put(met, { ...met, conditions: [] })).toBe('status.conditions: Invalid value: cannot disable the SuccessCriteriaMet=True condition');
  });

  it('SuccessCriteriaMet cannot be added to an already Complete Job', () => {
    const legacy = { ...DONE, conditions: [cond('Complete')] };
    expect(put(legacy, DONE)).toBe('status.conditions: Invalid value: cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions');
  });

  it('a Job with a successPolicy completes only through SuccessCriteriaMet', () => {
    const spec = { completionMode: 'Indexed', completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededCount: 1 }] } };
    const legacy = { ...DONE, completedIndexes: '0', conditions: [cond('Complete')] };
    expect(put(legacy, { ...legacy, failed: 1 }, spec)).toBe('status.conditions: Invalid value: cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True');
  });

  it('SuccessCriteriaMet is allowed on a NonIndexed Job without a successPolicy (AllowForSuccessCriteriaMetInExtendedScope)', () => {
    expect(jobStatusValidationOptions(job({}), job({})).allowForSuccessCriteriaMetInExtendedScope).toBe(true);
    expect(put(RUNNING, { ...RUNNING, active: 0, ready: 0, succeeded: 1, conditions: [cond('SuccessCriteriaMet')] })).toBe('ok');
  });
});

describe('Job status: startTime and completionTime', () => {
  it('Complete needs a completionTime, and only Complete may have one', () => {
    expect(put(RUNNING, { ...DONE, completionTime: undefined })).toBe('status.completionTime: Required value: completionTime is required for Complete jobs');
    expect(put(RUNNING, { ...RUNNING, completionTime: T1 })).toBe('status.completionTime: Invalid value: 2025-01-01 00:01:00 +0000 UTC: cannot set completionTime when there is no Complete=True condition');
  });

  it('completionTime is not before startTime and never changes once set', () => {
    expect(put({ ...RUNNING, startTime: T1 }, { ...DONE, startTime: T1, completionTime: T0 })).toBe('status.completionTime: Invalid value: 2025-01-01 00:00:00 +0000 UTC: completionTime cannot be set before startTime');
    expect(put(DONE, { ...DONE, completionTime: T2 })).toBe('status.completionTime: Invalid value: 2025-01-01 00:02:00 +0000 UTC: completionTime cannot be mutated');
    // The same instant written with an offset is the same time.
    expect(put(DONE, { ...DONE, completionTime: '2025-01-01T01:01:00+01:00' })).toBe('ok');
  });

  it('a finished Job has a startTime', () => {
    expect(put({ active: 0 }, { ...DONE, startTime: undefined })).toBe('status.startTime: Required value: startTime is required for finished job');
  });

  it('startTime, once set, changes only while the Job is suspended (RejectStartTimeUpdateForUnsuspendedJob)', () => {
    expect(put(RUNNING, { ...RUNNING, startTime: T1 })).toBe('status.startTime: Required value: startTime cannot be removed for unsuspended job');
    expect(put(RUNNING, { ...RUNNING, startTime: undefined })).toBe('status.startTime: Required value: startTime cannot be removed for unsuspended job');
    expect(put(RUNNING, { ...RUNNING, startTime: undefined }, { suspend: true })).toBe('ok');
    expect(put({ active: 0 }, RUNNING)).toBe('ok');
  });

  it('the write that resumes a suspended Job may reset its startTime (the 1.32 branch\'s fix of kubernetes#134521)', () => {
    const suspended = { ...RUNNING, active: 0, conditions: [cond('Suspended')] };
    expect(put(suspended, { ...suspended, startTime: T1, conditions: [cond('Suspended', 'False')] })).toBe('ok');
    // Once resumed, it holds again.
    const resumed = { ...RUNNING, conditions: [cond('Suspended', 'False')] };
    expect(put(resumed, { ...resumed, startTime: T2 })).toBe('status.startTime: Required value: startTime cannot be removed for unsuspended job');
  });

  it('a Job created suspended with completions 0 may complete without a startTime (the 1.32 branch\'s fix of kubernetes#132144)', () => {
    const done = { ...DONE, startTime: undefined };
    expect(put({ active: 0 }, done, { suspend: true, completions: 0, parallelism: 1 })).toBe('ok');
    expect(put({ active: 0 }, done, { suspend: true })).toBe('status.startTime: Required value: startTime is required for finished job');
  });
});

describe('Job status: completed and failed indexes', () => {
  const indexed = { completionMode: 'Indexed', completions: 3, parallelism: 3 };
  const perIndex = { ...indexed, backoffLimitPerIndex: 1 };

  it('completedIndexes parse within completions, and only for Indexed Jobs', () => {
    expect(put(RUNNING, { ...RUNNING, completedIndexes: '0-5' }, indexed)).toBe('status.completedIndexes: Invalid value: "0-5": error parsing completedIndexes: too large index: "5"');
    expect(put(RUNNING, { ...RUNNING, completedIndexes: '2,1' }, indexed)).toBe('status.completedIndexes: Invalid value: "2,1": error parsing completedIndexes: non-increasing order, previous: 2, current: 1');
    expect(put(RUNNING, { ...RUNNING, completedIndexes: '0' })).toBe('status.completedIndexes: Invalid value: "0": cannot set non-empty completedIndexes when non-indexed completion mode');
    // Out of range after a scale-down, but unchanged by this update: accepted.
    expect(put({ ...RUNNING, completedIndexes: '0-5' }, { ...RUNNING, completedIndexes: '0-5', failed: 1 }, indexed)).toBe('ok');
  });

  it('failedIndexes need backoffLimitPerIndex, parse, and do not overlap completedIndexes', () => {
    expect(put(RUNNING, { ...RUNNING, failedIndexes: '1' }, indexed)).toBe('status.failedIndexes: Invalid value: "1": cannot set non-null failedIndexes when backoffLimitPerIndex is null');
    expect(put(RUNNING, { ...RUNNING, failedIndexes: '1-x' }, perIndex)).toBe('status.failedIndexes: Invalid value: "1-x": error parsing failedIndexes: cannot convert string to integer for index: "x"');
    expect(put(RUNNING, { ...RUNNING, completedIndexes: '0-1', failedIndexes: '1-2' }, perIndex)).toBe('status.failedIndexes: Invalid value: "1-2": failedIndexes and completedIndexes overlap at index: 1');
    expect(put(RUNNING, { ...RUNNING, completedIndexes: '0,2', failedIndexes: '1' }, perIndex)).toBe('ok');
    expect(put(RUNNING, { ...RUNNING, failedIndexes: '' }, perIndex)).toBe('ok');
  });
});

describe('getStatusValidationOptions (v1.32, JobManagedBy on)', () => {
  it('the always-on rules and the ones gated on a changed field', () => {
    const a = job(RUNNING);
    const o = jobStatusValidationOptions(a, a);
    expect([o.rejectDecreasingFailedCounter, o.rejectDecreasingSucceededCounter, o.rejectDisablingTerminalCondition, o.rejectMutatingCompletionTime]).toEqual([true, true, true, true]);
    expect(Object.entries(o).filter(([k, v]) => v && !['rejectDecreasingFailedCounter', 'rejectDecreasingSucceededCounter', 'rejectDisablingTerminalCondition', 'rejectMutatingCompletionTime', 'allowForSuccessCriteriaMetInExtendedScope'].includes(k))).toEqual([]);
    const b = jobStatusValidationOptions(job({ ...RUNNING, ready: 2 }), a);
    expect([b.rejectMoreReadyThanActivePods, b.rejectFinishedJobWithActivePods]).toEqual([true, false]);
  });

  it('validateJobStatusUpdate takes the options explicitly too', () => {
    const opts = { ...jobStatusValidationOptions(job(RUNNING), job(RUNNING)), rejectMoreReadyThanActivePods: true };
    expect(validateJobStatusUpdate(job({ ...RUNNING, ready: 5 }), job({ ...RUNNING, ready: 5 }), opts).map((e) => e.field)).toEqual(['status.ready']);
  });
});
