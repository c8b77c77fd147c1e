// kubectl replace (staging/src/k8s.io/kubectl/pkg/cmd/replace/replace.go): each
// object of the files is PUT whole, at the live object's resourceVersion when
// the file has none (the helper's Replace with overwrite); --force deletes
// them all, waits until each is gone (polling every second, 5 minutes unless
// --timeout), then creates them again.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, getStrings, parseGoDuration } from '../cli/flags';
import { errs, fail, type KubectlErr } from '../client/errors';
import { goJsonCompact } from '../printers/goJson';
import { aggregate, kindString, namespaceForObject, readFileObjects, resourcePath, type FileObject } from '../resource/builder';
import { LAST_APPLIED, modifiedConfiguration } from './apply';
import { addSourceToErr, DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, FILENAME_FLAGS, OUTPUT_FLAGS, ResultPrinter, VALIDATE_FLAG, validationDirective } from './common';

type Obj = Record<string, any>;

export const REPLACE_FLAGS: FlagDef[] = [
  ...FILENAME_FLAGS,
  ...OUTPUT_FLAGS,
  DRY_RUN_FLAG,
  VALIDATE_FLAG,
  { name: 'force', kind: 'bool' },
  { name: 'grace-period', kind: 'int', default: -1 },
  { name: 'cascade', kind: 'string', default: 'background', noOptDefVal: 'background' },
  { name: 'timeout', kind: 'duration', default: '0s' },
  { name: 'wait', kind: 'bool' },
  { name: 'save-config', kind: 'bool' },
  { name: 'field-manager', kind: 'string', default: 'kubectl-replace' },
  { name: 'subresource', kind: 'string' },
];

/** CreateOrUpdateAnnotation: --save-config records the object; otherwise a recorded configuration in the file is brought up to date. */
function annotate(ctx: Ctx, obj: Obj): void {
  if (!getBool(ctx.flags, 'save-config') && !obj.metadata?.annotations?.[LAST_APPLIED]) return;
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED]: modifiedConfiguration(obj, false) };
}

export async function runReplace(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const files = getStrings(f, 'filename');
  if (files.length === 0) fail(errs.plain('must specify one of -f and -k'));
  void args;
  const dryRun = dryRunStrategy(ctx);
  const force = getBool(f, 'force');
  if (getInt(f, 'grace-period') >= 0 && !force) fail(errs.plain('--grace-period must have --force specified'));
  if ((parseGoDuration(getString(f, 'timeout') || '0s') ?? 0) !== 0 && !force) fail(errs.plain('--timeout must have --force specified'));
  if (force && dryRun !== 'none') fail(errs.plain('--dry-run can not be used when --force is set'));
  const subresource = getString(f, 'subresource');
  if (force && subresource) fail(errs.plain('--force cannot be used with --subresource'));
  const errors: KubectlErr[] = [];
  const objs = await readFileObjects(ctx, files, { recursive: getBool(f, 'recursive'), errors });
  if (errors.length > 0) fail(aggregate(errors)!);
  if (force) return forceReplace(ctx, objs);
  const printer = new ResultPrinter(ctx, dryRun);
  const query = { fieldManager: getString(f, 'field-manager') || 'kubectl-replace', fieldValidation: validationDirective(ctx), ...dryRunQuery(dryRun) };
  for (const fo of objs) {
    const ns = namespaceForObject(ctx, fo);
    const obj = fo.object as Obj;
    if (ns) obj.metadata.namespace = ns;
    annotate(ctx, obj);
    if (dryRun === 'client') {
      printer.print(obj, 'replaced');
      continue;
    }
    const name = String(obj.metadata.name ?? '');
    const path = resourcePath(fo.mapping, ns, name) + (subresource ? `/${subresource}` : '');
    if (!obj.metadata.resourceVersion) {
      // Replace with overwrite: the live object's resourceVersion, so the PUT is unconditional.
      const live = await ctx.client.tryJson<Obj>('GET', path);
      if (!live.ok) {
        errors.push(addSourceToErr('replacing', fo.source, errs.status(live.status)));
        continue;
      }
      obj.metadata.resourceVersion = live.value.metadata?.resourceVersion;
    }
    const r = await ctx.client.tryJson<Obj>('PUT', path, { body: `${goJsonCompact(obj)}\n`, query });
    if (!r.ok) {
      errors.push(addSourceToErr('replacing', fo.source, errs.status(r.status)));
      continue;
    }
    printer.print(r.value, 'replaced');
  }
  const e = aggregate(errors);
  if (e) fail(e);
}

/** forceReplace: delete all (grace period and cascade as given), wait for each to be gone, create all. */
async function forceReplace(ctx: Ctx, objs: FileObject[]): Promise<void> {
  const f = ctx.flags;
  let grace = getInt(f, 'grace-period');
  // replace.go keeps --grace-period=0 from losing data: it becomes 1, and the wait below.
  if (grace === 0) grace = 1;
  const cascade = getString(f, 'cascade');
  const propagation = cascade === 'orphan' || cascade === 'false' ? 'Orphan' : cascade === 'foreground' ? 'Foreground' : 'Background';
  const targets = objs.map((fo) => {
    const ns = namespaceForObject(ctx, fo);
    if (ns) fo.object.metadata.namespace = ns;
    return { fo, ns, path: resourcePath(fo.mapping, ns, fo.object.metadata.name ?? '') };
  });
  for (const t of targets) {
    const body: Obj = { ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}), propagationPolicy: propagation };
    const r = await ctx.client.tryJson<Obj>('DELETE', t.path, { body: `${goJsonCompact(body)}\n` });
    // DeleteResult ignores what is already gone.
    if (!r.ok && r.status.reason !== 'NotFound') fail(addSourceToErr('deleting', t.fo.source, errs.status(r.status)));
    if (r.ok) ctx.io.out(`${kindString(t.fo.mapping)} "${t.fo.object.metadata.name}" deleted\n`);
  }
  const timeoutMs = (parseGoDuration(getString(f, 'timeout') || '0s') ?? 0) || 5 * 60_000;
  for (const t of targets) await untilGone(ctx, t.path, timeoutMs);
  const printer = new ResultPrinter(ctx, 'none');
  const query = { fieldManager: getString(f, 'field-manager') || 'kubectl-replace', fieldValidation: validationDirective(ctx) };
  for (const t of targets) {
    const obj = t.fo.object as Obj;
    annotate(ctx, obj);
    delete obj.metadata.resourceVersion;
    const r = await ctx.client.tryJson<Obj>('POST', resourcePath(t.fo.mapping, t.ns), { body: `${goJsonCompact(obj)}\n`, query });
    if (!r.ok) fail(addSourceToErr('creating', t.fo.source, errs.status(r.status)));
    printer.print(r.value, 'replaced');
  }
}

/** wait.PollImmediate(1s, timeout): GET until NotFound. */
async function untilGone(ctx: Ctx, path: string, timeoutMs: number): Promise<void> {
  for (let waited = 0; ; waited += 1000) {
    const g = await ctx.client.tryJson<Obj>('GET', path);
    if (!g.ok && g.status.reason === 'NotFound') return;
    if (!g.ok) fail(errs.status(g.status));
    if (waited >= timeoutMs || !ctx.env.sleep) fail(errs.plain('timed out waiting for the condition'));
    const interrupted = ctx.env.interrupt ? ctx.env.interrupt.then(() => 'interrupt' as const) : new Promise<'interrupt'>(() => undefined);
    if ((await Promise.race([ctx.env.sleep(1000).then(() => 'tick' as const), interrupted])) === 'interrupt') fail(errs.raw('', 130));
  }
}
