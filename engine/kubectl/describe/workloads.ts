// Describers of the workload controllers' kinds (staging/src/k8s.io/kubectl/pkg/describe/describe.go
// v1.32: describeStatefulSet with describeVolumeClaimTemplates, describeDaemonSet,
// describeCronJob with describeJobTemplate and printActiveJobs).
import { describePodTemplate, formatLabelsPlain, podStatusCounts, selectorString, type DescribeDeps } from './describers';
import { describeEvents, PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, timeRfc1123z } from './writer';

type Obj = Record<string, any>;

function writePodsStatus(w: PrefixWriter, counts: [number, number, number, number] | string): void {
  if (typeof counts === 'string') w.write(0, `Pods Status:\terror in fetching pods: ${counts}\n`);
  else w.write(0, `Pods Status:\t${counts[0]} Running / ${counts[1]} Waiting / ${counts[2]} Succeeded / ${counts[3]} Failed\n`);
}

/** intstr.IntOrString.String(). */
const intOrString = (v: unknown): string => String(v);

/** storageutil.GetPersistentVolumeClaimClass: the beta annotation, else storageClassName. */
function claimClass(pvc: Obj): string {
  return pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? '';
}

function describeVolumeClaimTemplates(templates: Obj[] | undefined, w: PrefixWriter): void {
  if (!templates || templates.length === 0) {
    w.write(0, 'Volume Claims:\t<none>\n');
    return;
  }
  w.write(0, 'Volume Claims:\n');
  for (const pvc of templates) {
    w.write(1, `Name:\t${pvc.metadata?.name ?? ''}\n`);
    w.write(1, `StorageClass:\t${claimClass(pvc)}\n`);
    printLabelsMultiline(w, 'Labels', pvc.metadata?.labels, '  ');
    printLabelsMultiline(w, 'Annotations', pvc.metadata?.annotations, '  ');
    const storage = pvc.spec?.resources?.requests?.storage;
    w.write(1, `Capacity:\t${storage ?? '<default>'}\n`);
    w.write(1, `Access Modes:\t[${((pvc.spec?.accessModes as string[]) ?? []).join(' ')}]\n`);
  }
}

export async function describeStatefulSet(d: DescribeDeps, sts: Obj, events: Obj[] | null): Promise<string> {
  const spec = sts.spec ?? {};
  const counts = await podStatusCounts(d, sts.metadata.namespace, spec.selector, null);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${sts.metadata.name}\n`);
  w.write(0, `Namespace:\t${sts.metadata.namespace}\n`);
  w.write(0, `CreationTimestamp:\t${timeRfc1123z(sts.metadata.creationTimestamp)}\n`);
  w.write(0, `Selector:\t${selectorString(spec.selector)}\n`);
  printLabelsMultiline(w, 'Labels', sts.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', sts.metadata.annotations);
  w.write(0, `Replicas:\t${spec.replicas ?? 1} desired | ${sts.status?.replicas ?? 0} total\n`);
  w.write(0, `Update Strategy:\t${spec.updateStrategy?.type ?? ''}\n`);
  const ru = spec.updateStrategy?.rollingUpdate;
  if (ru && ru.partition !== undefined && ru.partition !== null) {
    w.write(1, `Partition:\t${ru.partition}\n`);
    if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) w.write(1, `MaxUnavailable:\t${intOrString(ru.maxUnavailable)}\n`);
  }
  writePodsStatus(w, counts);
  describePodTemplate(spec.template, w);
  describeVolumeClaimTemplates(spec.volumeClaimTemplates, w);
  describeEvents(events, w, d.now);
  return w.done();
}

export async function describeDaemonSet(d: DescribeDeps, ds: Obj, events: Obj[] | null): Promise<string> {
  const spec = ds.spec ?? {};
  const st = ds.status ?? {};
  const counts = await podStatusCounts(d, ds.metadata.namespace, spec.selector, null);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ds.metadata.name}\n`);
  w.write(0, `Selector:\t${selectorString(spec.selector)}\n`);
  w.write(0, `Node-Selector:\t${formatLabelsPlain(spec.template?.spec?.nodeSelector)}\n`);
  printLabelsMultiline(w, 'Labels', ds.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
  w.write(0, `Desired Number of Nodes Scheduled: ${st.desiredNumberScheduled ?? 0}\n`);
  w.write(0, `Current Number of Nodes Scheduled: ${st.currentNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Up-to-date Pods: ${st.updatedNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Available Pods: ${st.numberAvailable ?? 0}\n`);
  w.write(0, `Number of Nodes Misscheduled: ${st.numberMisscheduled ?? 0}\n`);
  writePodsStatus(w, counts);
  describePodTemplate(spec.template, w);
  describeEvents(events, w, d.now);
  return w.done();
}

const unset = (v: unknown, f: (x: any) => string = String): string => (v === undefined || v === null ? '<unset>' : f(v));

export function describeCronJob(cj: Obj, events: Obj[] | null, now: number): string {
  const spec = cj.spec ?? {};
  const jt = spec.jobTemplate?.spec ?? {};
  const w = new PrefixWriter();
  w.write(0, `Name:\t${cj.metadata.name}\n`);
  w.write(0, `Namespace:\t${cj.metadata.namespace}\n`);
  printLabelsMultiline(w, 'Labels', cj.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', cj.metadata.annotations);
  w.write(0, `Schedule:\t${spec.schedule ?? ''}\n`);
  w.write(0, `Concurrency Policy:\t${spec.concurrencyPolicy ?? ''}\n`);
  w.write(0, `Suspend:\t${unset(spec.suspend, (b) => (b ? 'True' : 'False'))}\n`);
  w.write(0, `Successful Job History Limit:\t${unset(spec.successfulJobsHistoryLimit)}\n`);
  w.write(0, `Failed Job History Limit:\t${unset(spec.failedJobsHistoryLimit)}\n`);
  w.write(0, `Starting Deadline Seconds:\t${unset(spec.startingDeadlineSeconds, (s) => `${s}s`)}\n`);
  // describeJobTemplate
  w.write(0, `Selector:\t${jt.selector ? selectorString(jt.selector) : '<unset>'}\n`);
  w.write(0, `Parallelism:\t${unset(jt.parallelism)}\n`);
  w.write(0, `Completions:\t${unset(jt.completions)}\n`);
  if (jt.activeDeadlineSeconds !== undefined && jt.activeDeadlineSeconds !== null) w.write(0, `Active Deadline Seconds:\t${jt.activeDeadlineSeconds}s\n`);
  describePodTemplate(jt.template, w);
  w.write(0, `Last Schedule Time:\t${cj.status?.lastScheduleTime ? timeRfc1123z(cj.status.lastScheduleTime) : '<unset>'}\n`);
  // printActiveJobs
  const active = (cj.status?.active as Obj[]) ?? [];
  w.write(0, `Active Jobs:\t${active.length === 0 ? '<none>' : active.map((j) => j.name).join(', ')}\n`);
  describeEvents(events, w, now);
  return w.done();
}
