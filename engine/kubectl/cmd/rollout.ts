// kubectl rollout status|history|undo|restart|pause|resume
// (staging/src/k8s.io/kubectl/pkg/cmd/rollout, and polymorphichelpers
// rollout_status.go, history.go, rollback.go, objectrestarter.go,
// objectpauser.go, objectresumer.go, v1.32): Deployments through their
// ReplicaSets' revisions, DaemonSets and StatefulSets through their
// ControllerRevisions.
import type { Ctx } from '../cli/context';
import type { CommandSpec } from '../cli/root';
import { getBool, getInt, getString, parseGoDuration } from '../cli/flags';
import { errs, fail, KubectlFailure, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { goJsonCompact } from '../printers/goJson';
import { nameLine } from '../printers/output';
import { DESCRIBE_TABWRITER, TabWriter } from '../printers/tabWriter';
import { aggregate, resolveArgs, resourcePath, resourceString } from '../resource/builder';
import { rfc3339 } from '../util/duration';
import { describePodTemplateRaw, selectorString } from '../describe/describers';
import { rawData, revisionTemplate, templatePatch } from '../../controllers/history/history';
import { DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, OUTPUT_FLAGS, ResultPrinter, type DryRun } from './common';
import { fetchTargets, patchObject } from './workloads';

type Obj = Record<string, any>;

const CHANGE_CAUSE = 'kubernetes.io/change-cause';
const REVISION = 'deployment.kubernetes.io/revision';
/** Annotations a Deployment keeps, not taken from the ReplicaSet, on rollback (rollback.go annotationsToSkip). */
const ANNOTATIONS_TO_SKIP = ['kubectl.kubernetes.io/last-applied-configuration', REVISION, 'deployment.kubernetes.io/revision-history', 'deployment.kubernetes.io/desired-replicas', 'deployment.kubernetes.io/max-replicas', 'deprecated.deployment.rollback.to'];

/** GroupKind.String(): `CronJob.batch`. */
const groupKind = (m: Mapping): string => (m.group ? `${m.kind}.${m.group}` : m.kind);
const isKind = (m: Mapping, kind: 'Deployment' | 'DaemonSet' | 'StatefulSet'): boolean => m.group === 'apps' && m.kind === kind;

function revisionOf(o: Obj): number {
  const v = o.metadata?.annotations?.[REVISION];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : -1;
}

async function ownedReplicaSets(ctx: Ctx, dep: Obj): Promise<Obj[]> {
  const sel = selectorString(dep.spec?.selector);
  const r = await ctx.client.tryJson<Obj>('GET', `/apis/apps/v1/namespaces/${dep.metadata.namespace}/replicasets`, { query: sel ? { labelSelector: sel } : {} });
  if (!r.ok) fail(errs.status(r.status));
  return ((r.value.items as Obj[]) ?? []).filter((rs) => ((rs.metadata?.ownerReferences as Obj[]) ?? []).some((o) => o.controller && o.uid === dep.metadata.uid));
}

/** controlledHistory: the ControllerRevisions the selector matches that the object controls. */
async function controlledHistory(ctx: Ctx, obj: Obj): Promise<Obj[]> {
  const sel = selectorString(obj.spec?.selector);
  const r = await ctx.client.tryJson<Obj>('GET', `/apis/apps/v1/namespaces/${obj.metadata.namespace}/controllerrevisions`, { query: sel ? { labelSelector: sel } : {} });
  if (!r.ok) fail(errs.status(r.status));
  return ((r.value.items as Obj[]) ?? []).filter((cr) => ((cr.metadata?.ownerReferences as Obj[]) ?? []).some((o) => o.controller && o.uid === obj.metadata.uid));
}

/** tabbedString(REVISION CHANGE-CAUSE) over revisions in order. */
function historyTable(rows: [number, Obj | undefined][]): string {
  const w = new TabWriter(DESCRIBE_TABWRITER);
  w.write('REVISION\tCHANGE-CAUSE\n');
  for (const [rev, annotations] of rows.sort((a, b) => a[0] - b[0])) w.write(`${rev}\t${annotations?.[CHANGE_CAUSE] || '<none>'}\n`);
  w.flush();
  return w.take();
}

// ---------- status

function statusMessage(m: Mapping, o: Obj, revision: number): { msg: string; done: boolean } {
  const st = o.status ?? {};
  const spec = o.spec ?? {};
  const name = o.metadata.name;
  const gen = o.metadata.generation ?? 0;
  if (m.kind === 'Deployment') {
    if (revision > 0) {
      const r = revisionOf(o);
      if (r < 0) fail(errs.plain(`cannot get the revision of deployment "${name}": strconv.ParseInt: parsing "": invalid syntax`));
      if (revision !== r) fail(errs.plain(`desired revision (${revision}) is different from the running revision (${r})`));
    }
    if (gen <= (st.observedGeneration ?? 0)) {
      const prog = ((st.conditions as Obj[]) ?? []).find((c) => c.type === 'Progressing');
      if (prog?.reason === 'ProgressDeadlineExceeded') fail(errs.plain(`deployment "${name}" exceeded its progress deadline`));
      const want = spec.replicas ?? 1;
      if ((st.updatedReplicas ?? 0) < want) return { msg: `Waiting for deployment "${name}" rollout to finish: ${st.updatedReplicas ?? 0} out of ${want} new replicas have been updated...\n`, done: false };
      if ((st.replicas ?? 0) > (st.updatedReplicas ?? 0)) return { msg: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - (st.updatedReplicas ?? 0)} old replicas are pending termination...\n`, done: false };
      if ((st.availableReplicas ?? 0) < (st.updatedReplicas ?? 0)) return { msg: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${st.updatedReplicas ?? 0} updated replicas are available...\n`, done: false };
      return { msg: `deployment "${name}" successfully rolled out\n`, done: true };
    }
    return { msg: 'Waiting for deployment spec update to be observed...\n', done: false };
  }
  if (m.kind === 'DaemonSet') {
    if ((spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') fail(errs.plain('rollout status is only available for RollingUpdate strategy type'));
    if (gen <= (st.observedGeneration ?? 0)) {
      if ((st.updatedNumberScheduled ?? 0) < (st.desiredNumberScheduled ?? 0)) return { msg: `Waiting for daemon set "${name}" rollout to finish: ${st.updatedNumberScheduled ?? 0} out of ${st.desiredNumberScheduled ?? 0} new pods have been updated...\n`, done: false };
      if ((st.numberAvailable ?? 0) < (st.desiredNumberScheduled ?? 0)) return { msg: `Waiting for daemon set "${name}" rollout to finish: ${st.numberAvailable ?? 0} of ${st.desiredNumberScheduled ?? 0} updated pods are available...\n`, done: false };
      return { msg: `daemon set "${name}" successfully rolled out\n`, done: true };
    }
    return { msg: 'Waiting for daemon set spec update to be observed...\n', done: false };
  }
  if ((spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') fail(errs.plain('rollout status is only available for RollingUpdate strategy type'));
  if (!st.observedGeneration || gen > st.observedGeneration) return { msg: 'Waiting for statefulset spec update to be observed...\n', done: false };
  const want = spec.replicas ?? 1;
  if ((st.readyReplicas ?? 0) < want) return { msg: `Waiting for ${want - (st.readyReplicas ?? 0)} pods to be ready...\n`, done: false };
  const ru = spec.updateStrategy?.rollingUpdate;
  if (ru) {
    if (ru.partition !== undefined && ru.partition !== null && (st.updatedReplicas ?? 0) < want - ru.partition) return { msg: `Waiting for partitioned roll out to finish: ${st.updatedReplicas ?? 0} out of ${want - ru.partition} new pods have been updated...\n`, done: false };
    return { msg: `partitioned roll out complete: ${st.updatedReplicas ?? 0} new pods have been updated...\n`, done: true };
  }
  if (st.updateRevision !== st.currentRevision) return { msg: `waiting for statefulset rolling update to complete ${st.updatedReplicas ?? 0} pods at revision ${st.updateRevision}...\n`, done: false };
  return { msg: `statefulset rolling update complete ${st.currentReplicas ?? 0} pods at revision ${st.currentRevision}...\n`, done: true };
}

const STATUS_KINDS = ['Deployment', 'DaemonSet', 'StatefulSet'] as const;

/**
 * RolloutStatusOptions.Run: the builder's objects in argument order, each
 * watched until its rollout is done (or --timeout passes: "timed out waiting
 * for the condition"); errors do not stop the others (ContinueOnError) and are
 * reported together at the end, in order; nothing found is said on stderr.
 */
async function rolloutStatus(ctx: Ctx, args: string[]): Promise<void> {
  if (args.length === 0) fail(errs.plain('required resource not specified'));
  const revision = getInt(ctx.flags, 'revision');
  if (revision < 0) fail(errs.plain(`revision must be a positive integer: ${revision}`));
  const watch = getBool(ctx.flags, 'watch');
  const timeoutMs = parseGoDuration(getString(ctx.flags, 'timeout')) ?? 0;
  const selector = getString(ctx.flags, 'selector');
  const errors: KubectlErr[] = [];
  let found = 0;
  for (const ref of (await resolveArgs(ctx, args)).refs) {
    const ns = ref.mapping.namespaced ? ctx.namespace : undefined;
    const g = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns, ref.name), { query: ref.name === undefined && selector ? { labelSelector: selector } : {} });
    if (!g.ok) {
      errors.push(errs.status(g.status));
      continue;
    }
    const objs = ref.name === undefined ? ((g.value.items as Obj[]) ?? []).map((i) => ({ apiVersion: g.value.apiVersion, kind: ref.mapping.kind, ...i })) : [g.value];
    for (const obj of objs) {
      found++;
      try {
        await watchRollout(ctx, ref.mapping, ns, obj, revision, watch, timeoutMs);
      } catch (e) {
        if (!(e instanceof KubectlFailure)) throw e;
        errors.push(e.err);
      }
    }
  }
  if (found === 0 && errors.length === 0) ctx.io.err(`No resources found in ${ctx.namespace} namespace.\n`);
  const e = aggregate(errors);
  if (e) fail(e);
}

/** One object: its status now, then from a watch until done, deleted, interrupted or timed out. */
async function watchRollout(ctx: Ctx, m: Mapping, ns: string | undefined, obj: Obj, revision: number, watch: boolean, timeoutMs: number): Promise<void> {
  if (!STATUS_KINDS.some((k) => isKind(m, k))) fail(errs.plain(`no status viewer has been implemented for ${groupKind(m)}`));
  let first = statusMessage(m, obj, revision);
  ctx.io.out(first.msg);
  if (first.done || !watch) return;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  let failure: unknown = null;
  const w = ctx.client.watch(resourcePath(m, ns), { query: { fieldSelector: `metadata.name=${obj.metadata.name}`, resourceVersion: String(obj.metadata.resourceVersion ?? '0'), watch: 'true' } }, (line) => {
    try {
      const ev = JSON.parse(line) as Obj;
      if (ev.type === 'DELETED') {
        failure = errs.plain('object has been deleted');
        finish();
        return;
      }
      if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') return;
      first = statusMessage(m, ev.object as Obj, revision);
      ctx.io.out(first.msg);
      if (first.done) finish();
    } catch (e) {
      failure = (e as { err?: unknown }).err ?? errs.plain(String(e));
      finish();
    }
  });
  const stop = ctx.env.interrupt ? ctx.env.interrupt : new Promise<void>(() => undefined);
  // watchtools.ContextWithOptionalTimeout: 0 waits for ever.
  let timedOut = false;
  const timeout = timeoutMs > 0 && ctx.env.sleep ? ctx.env.sleep(timeoutMs).then(() => void (timedOut = true)) : new Promise<void>(() => undefined);
  await Promise.race([done, w.done.then(() => undefined), stop, timeout]);
  w.cancel();
  if (failure) fail(failure as KubectlErr);
  if (timedOut && !first.done) fail(errs.plain('timed out waiting for the condition'));
}

// ---------- history

async function viewHistory(ctx: Ctx, m: Mapping, obj: Obj, revision: number): Promise<string> {
  if (isKind(m, 'Deployment')) {
    const byRev = new Map<number, Obj>();
    for (const rs of await ownedReplicaSets(ctx, obj)) {
      const v = revisionOf(rs);
      if (v < 0) continue;
      // The change cause of a revision lives on its ReplicaSet.
      const template = JSON.parse(JSON.stringify(rs.spec?.template ?? {})) as Obj;
      const cause = rs.metadata?.annotations?.[CHANGE_CAUSE];
      if (cause) (template.metadata ??= {}).annotations = { ...(template.metadata.annotations ?? {}), [CHANGE_CAUSE]: cause };
      byRev.set(v, template);
    }
    if (byRev.size === 0) return 'No rollout history found.';
    if (revision > 0) {
      const t = byRev.get(revision);
      if (!t) fail(errs.plain('unable to find the specified revision'));
      return describePodTemplateRaw(t);
    }
    return historyTable([...byRev].map(([r, t]) => [r, t.metadata?.annotations]));
  }
  const history = await controlledHistory(ctx, obj);
  const byRev = new Map(history.map((cr) => [cr.revision as number, cr]));
  if (byRev.size === 0) return 'No rollout history found.';
  if (revision > 0) {
    const cr = byRev.get(revision);
    if (!cr) fail(errs.plain('unable to find the specified revision'));
    return describePodTemplateRaw(revisionTemplate(cr));
  }
  return historyTable([...byRev].map(([r, cr]) => [r, cr.metadata?.annotations]));
}

async function rolloutHistory(ctx: Ctx, args: string[]): Promise<void> {
  if (args.length === 0) fail(errs.plain('required resource not specified'));
  const revision = getInt(ctx.flags, 'revision');
  if (revision < 0) fail(errs.plain(`revision must be a positive integer: ${revision}`));
  for (const { ref, obj } of await fetchTargets(ctx, args)) {
    if (!STATUS_KINDS.some((k) => isKind(ref.mapping, k))) fail(errs.plain(`no history viewer has been implemented for "${groupKind(ref.mapping)}"`));
    const info = await viewHistory(ctx, ref.mapping, obj, revision);
    // The name printer with the operation "<with revision>\n<history>".
    ctx.io.out(nameLine(obj, `${revision > 0 ? `with revision #${revision}` : ''}\n${info}`));
  }
}

// ---------- undo

const revisionNotFound = (r: number) => errs.plain(`unable to find specified revision ${r} in history`);

/** DeploymentRollbacker: the previous (or given) revision's template and annotations, as a JSON patch. */
async function rollbackDeployment(ctx: Ctx, m: Mapping, dep: Obj, toRevision: number, dryRun: DryRun): Promise<string> {
  let latest: Obj | null = null;
  let latestRev = -1;
  let previous: Obj | null = null;
  let previousRev = -1;
  let target: Obj | null = null;
  for (const rs of await ownedReplicaSets(ctx, dep)) {
    const v = revisionOf(rs);
    if (v < 0) continue;
    if (toRevision === 0) {
      if (latestRev < v) {
        previousRev = latestRev;
        previous = latest;
        latestRev = v;
        latest = rs;
      } else if (previousRev < v) {
        previousRev = v;
        previous = rs;
      }
    } else if (toRevision === v) target = rs;
  }
  if (toRevision > 0 && !target) fail(revisionNotFound(toRevision));
  if (toRevision === 0) {
    if (!previous) fail(errs.plain(`no rollout history found for deployment "${dep.metadata.name}"`));
    target = previous;
  }
  const rs = target!;
  if (dryRun === 'client') return describePodTemplateRaw(rs.spec?.template);
  if (dep.spec?.paused) fail(errs.plain(`you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/${dep.metadata.name}' and try again`));
  const template = JSON.parse(JSON.stringify(rs.spec?.template ?? {})) as Obj;
  if (template.metadata?.labels) delete template.metadata.labels['pod-template-hash'];
  const current = JSON.parse(JSON.stringify(dep.spec?.template ?? {})) as Obj;
  if (current.metadata?.labels) delete current.metadata.labels['pod-template-hash'];
  if (goJsonCompact(template) === goJsonCompact(current)) return `skipped rollback (current template already matches revision ${toRevision})`;
  const annotations: Record<string, string> = {};
  for (const k of ANNOTATIONS_TO_SKIP) if (dep.metadata.annotations?.[k] !== undefined) annotations[k] = dep.metadata.annotations[k];
  for (const [k, v] of Object.entries((rs.metadata?.annotations as Record<string, string>) ?? {})) if (!ANNOTATIONS_TO_SKIP.includes(k)) annotations[k] = v;
  const patch = [
    { op: 'replace', path: '/spec/template', value: template },
    { op: 'replace', path: '/metadata/annotations', value: annotations },
  ];
  const r = await ctx.client.tryJson<Obj>('PATCH', resourcePath(m, dep.metadata.namespace, dep.metadata.name), { body: JSON.stringify(patch), contentType: 'application/json-patch+json', query: dryRunQuery(dryRun) });
  if (!r.ok) fail(errs.plain(`failed restoring revision ${toRevision}: ${r.status.message ?? ''}`));
  return 'rolled back';
}

/** DaemonSetRollbacker / StatefulSetRollbacker: the revision's own patch, applied as a strategic merge patch. */
async function rollbackWithHistory(ctx: Ctx, m: Mapping, obj: Obj, toRevision: number, dryRun: DryRun): Promise<string> {
  const history = await controlledHistory(ctx, obj);
  if (toRevision === 0 && history.length <= 1) fail(errs.plain('no last revision to roll back to'));
  let to: Obj | undefined;
  if (toRevision === 0) to = [...history].sort((a, b) => a.revision - b.revision)[history.length - 2];
  else to = history.find((h) => h.revision === toRevision);
  if (!to) fail(revisionNotFound(toRevision));
  if (dryRun === 'client') return `will roll back to ${describePodTemplateRaw(revisionTemplate(to))}`;
  if (templatePatch(obj) === rawData(to)) return `skipped rollback (current template already matches revision ${toRevision})`;
  const r = await ctx.client.tryJson<Obj>('PATCH', resourcePath(m, obj.metadata.namespace, obj.metadata.name), { body: rawData(to), contentType: 'application/strategic-merge-patch+json', query: dryRunQuery(dryRun) });
  if (!r.ok) fail(errs.plain(`failed restoring revision ${toRevision}: ${r.status.message ?? ''}`));
  return 'rolled back';
}

async function rolloutUndo(ctx: Ctx, args: string[]): Promise<void> {
  if (args.length === 0) fail(errs.plain('required resource not specified'));
  const to = getInt(ctx.flags, 'to-revision');
  const dryRun = dryRunStrategy(ctx);
  for (const { ref, obj } of await fetchTargets(ctx, args)) {
    const m = ref.mapping;
    if (!STATUS_KINDS.some((k) => isKind(m, k))) fail(errs.plain(`no rollbacker has been implemented for "${groupKind(m)}"`));
    if (to < 0) fail(revisionNotFound(to));
    const result = isKind(m, 'Deployment') ? await rollbackDeployment(ctx, m, obj, to, dryRun) : await rollbackWithHistory(ctx, m, obj, to, dryRun);
    ctx.io.out(nameLine(obj, dryRun === 'none' ? result : `${result} (${dryRun === 'client' ? 'dry run' : 'server dry run'})`));
  }
}

// ---------- restart / pause / resume

type PatchVerb = 'restart' | 'pause' | 'resume';
const VERB: Record<PatchVerb, { ing: string; done: string }> = { restart: { ing: 'restarting', done: 'restarted' }, pause: { ing: 'pausing', done: 'paused' }, resume: { ing: 'resuming', done: 'resumed' } };

async function rolloutPatch(ctx: Ctx, args: string[], verb: PatchVerb): Promise<void> {
  if (args.length === 0) fail(errs.plain(`You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'`));
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const errors: string[] = [];
  for (const { ref, ns, obj } of await fetchTargets(ctx, args)) {
    const m = ref.mapping;
    const which = `${resourceString(m)} "${obj.metadata.name}"`;
    const supported = verb === 'restart' ? STATUS_KINDS.some((k) => isKind(m, k)) : isKind(m, 'Deployment');
    if (!supported) {
      errors.push(`error: ${which} ${VERB[verb].ing} is not supported`);
      continue;
    }
    let body: Obj;
    if (verb === 'restart') {
      if (isKind(m, 'Deployment') && obj.spec?.paused) {
        errors.push(`error: ${which} can't restart paused deployment (run rollout resume first)`);
        continue;
      }
      body = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': rfc3339(ctx.now()) } } } } };
    } else if (verb === 'pause') {
      if (obj.spec?.paused) {
        errors.push(`error: ${which} is already paused`);
        continue;
      }
      body = { spec: { paused: true } };
    } else {
      if (!obj.spec?.paused) {
        errors.push(`error: ${which} is not paused`);
        continue;
      }
      body = { spec: { paused: null } };
    }
    let res = obj;
    if (dryRun !== 'client') res = await patchObject(ctx, m, ns, obj.metadata.name, goJsonCompact(body), 'application/strategic-merge-patch+json', { fieldManager: getString(ctx.flags, 'field-manager') || 'kubectl-rollout', ...dryRunQuery(dryRun) });
    printer.print(res, VERB[verb].done);
  }
  if (errors.length === 1) fail(errs.plain(errors[0]!.replace(/^error: /, '')));
  if (errors.length > 1) fail(errs.plain(`[${errors.join(', ')}]`));
}

export function rolloutSubcommands(): CommandSpec[] {
  const common = [...OUTPUT_FLAGS, DRY_RUN_FLAG, { name: 'field-manager', kind: 'string' as const }, { name: 'filename', shorthand: 'f', kind: 'stringSlice' as const }, { name: 'selector', shorthand: 'l', kind: 'string' as const }];
  return [
    { name: 'status', short: 'Show the status of the rollout', use: '(TYPE NAME | TYPE/NAME) [flags] [options]', flags: [{ name: 'watch', shorthand: 'w', kind: 'bool', default: true }, { name: 'revision', kind: 'int' }, { name: 'timeout', kind: 'duration', default: '0s' }, { name: 'filename', shorthand: 'f', kind: 'stringSlice' }, { name: 'selector', shorthand: 'l', kind: 'string' }], run: rolloutStatus },
    { name: 'history', short: 'View rollout history', use: '(TYPE NAME | TYPE/NAME) [flags] [options]', flags: [...OUTPUT_FLAGS, { name: 'revision', kind: 'int' }, { name: 'filename', shorthand: 'f', kind: 'stringSlice' }, { name: 'selector', shorthand: 'l', kind: 'string' }], run: rolloutHistory },
    { name: 'undo', short: 'Undo a previous rollout', use: '(TYPE NAME | TYPE/NAME) [flags] [options]', flags: [...common, { name: 'to-revision', kind: 'int' }], run: rolloutUndo },
    { name: 'restart', short: 'Restart a resource', use: 'RESOURCE [options]', flags: common, run: (ctx, a) => rolloutPatch(ctx, a, 'restart') },
    { name: 'pause', short: 'Mark the provided resource as paused', use: 'RESOURCE [options]', flags: common, run: (ctx, a) => rolloutPatch(ctx, a, 'pause') },
    { name: 'resume', short: 'Resume a paused resource', use: 'RESOURCE [options]', flags: common, run: (ctx, a) => rolloutPatch(ctx, a, 'resume') },
  ];
}
