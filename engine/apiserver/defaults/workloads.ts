// apps/v1 and batch/v1 defaulting (pkg/apis/apps/v1/defaults.go, pkg/apis/batch/v1/defaults.go,
// v1.32 with its default feature gates: StatefulSetAutoDeletePVC on, MaxUnavailableStatefulSet
// off, JobPodReplacementPolicy on). Pod templates get the core pod-spec defaults.
import { defaultPodTemplateSpec, defaultPVCSpec, templateMeta } from './core';
import { child, def, defStr, each, isObj, type Loose } from './util';

type Obj = Record<string, Loose>;

export function defaultDeployment(d: Obj): void {
  const spec = child(d, 'spec');
  def(spec, 'replicas', 1);
  const strategy = child(spec, 'strategy');
  defStr(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    def(ru, 'maxUnavailable', '25%');
    def(ru, 'maxSurge', '25%');
  }
  def(spec, 'revisionHistoryLimit', 10);
  def(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export function defaultReplicaSet(rs: Obj): void {
  const spec = child(rs, 'spec');
  def(spec, 'replicas', 1);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export function defaultDaemonSet(ds: Obj): void {
  const spec = child(ds, 'spec');
  const us = child(spec, 'updateStrategy');
  defStr(us, 'type', 'RollingUpdate');
  if (us.type === 'RollingUpdate') {
    const ru = child(us, 'rollingUpdate');
    def(ru, 'maxUnavailable', 1);
    def(ru, 'maxSurge', 0);
  }
  def(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export function defaultStatefulSet(sts: Obj): void {
  const spec = child(sts, 'spec');
  defStr(spec, 'podManagementPolicy', 'OrderedReady');
  const us = child(spec, 'updateStrategy');
  if (!us.type) {
    us.type = 'RollingUpdate';
    def(us, 'rollingUpdate', {});
  }
  if (us.type === 'RollingUpdate' && isObj(us.rollingUpdate)) def(us.rollingUpdate, 'partition', 0);
  const pol = child(spec, 'persistentVolumeClaimRetentionPolicy');
  defStr(pol, 'whenDeleted', 'Retain');
  defStr(pol, 'whenScaled', 'Retain');
  def(spec, 'replicas', 1);
  def(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplateSpec(child(spec, 'template'));
  each(spec, 'volumeClaimTemplates', (t) => {
    templateMeta(t);
    defaultPVCSpec(child(t, 'spec'));
    defStr(child(t, 'status'), 'phase', 'Pending');
  });
}

export function defaultJob(job: Obj): void {
  const spec = child(job, 'spec');
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  def(spec, 'parallelism', 1);
  if (spec.backoffLimit === undefined || spec.backoffLimit === null) spec.backoffLimit = spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null ? 2147483647 : 6;
  const tplLabels = isObj(spec.template) && isObj(spec.template.metadata) ? spec.template.metadata.labels : undefined;
  const meta = child(job, 'metadata');
  if (isObj(tplLabels) && (!isObj(meta.labels) || Object.keys(meta.labels).length === 0)) meta.labels = { ...tplLabels };
  def(spec, 'completionMode', 'NonIndexed');
  def(spec, 'suspend', false);
  if (isObj(spec.podFailurePolicy)) {
    each(spec.podFailurePolicy, 'rules', (r) => each(r, 'onPodConditions', (c) => defStr(c, 'status', 'True')));
  }
  def(spec, 'podReplacementPolicy', isObj(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed');
  defaultPodTemplateSpec(child(spec, 'template'));
}

export function defaultCronJob(cj: Obj): void {
  const spec = child(cj, 'spec');
  defStr(spec, 'concurrencyPolicy', 'Allow');
  def(spec, 'suspend', false);
  def(spec, 'successfulJobsHistoryLimit', 3);
  def(spec, 'failedJobsHistoryLimit', 1);
  const jt = child(spec, 'jobTemplate');
  templateMeta(jt);
  defaultPodTemplateSpec(child(child(jt, 'spec'), 'template'));
}
