// kubectl apply, client-side (staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go,
// patcher.go; pkg/util/apply.go): the last-applied-configuration annotation,
// create when absent, else a three-way strategic merge patch (JSON merge
// patch for kinds without patch metadata), retried on conflicts.
import type { JsonObject, JsonValue } from '../../apimachinery/types';
import { applyMergePatch, createMergePatch, createThreeWayMergePatch, patchMetaFor } from '../../apimachinery/patch';
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getStrings } from '../cli/flags';
import { errs, fail, KubectlFailure, type KubectlErr } from '../client/errors';
import { goJsonCompact } from '../printers/goJson';
import { aggregate, namespaceForObject, readFileObjects, resourcePath, type FileObject } from '../resource/builder';
import { addSourceToErr, DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, FILENAME_FLAGS, OUTPUT_FLAGS, ResultPrinter, VALIDATE_FLAG, validationDirective, type DryRun } from './common';
void 0;

type Obj = Record<string, any>;

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export const APPLY_FLAGS: FlagDef[] = [
  ...OUTPUT_FLAGS,
  ...FILENAME_FLAGS,
  DRY_RUN_FLAG,
  VALIDATE_FLAG,
  { name: 'force', kind: 'bool' },
  { name: 'grace-period', kind: 'int', default: -1 },
  { name: 'timeout', kind: 'duration', default: '0s' },
  { name: 'wait', kind: 'bool' },
  { name: 'overwrite', kind: 'bool', default: true },
  { name: 'prune', kind: 'bool' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'all', kind: 'bool' },
  { name: 'server-side', kind: 'bool' },
  { name: 'field-manager', kind: 'string', default: 'kubectl-client-side-apply' },
  { name: 'force-conflicts', kind: 'bool' },
  { name: 'cascade', kind: 'string', default: 'background', noOptDefVal: 'background' },
  { name: 'openapi-patch', kind: 'bool', default: true },
  { name: 'record', kind: 'bool' },
  { name: 'save-config', kind: 'bool' },
];

/** util.GetModifiedConfiguration: the object's JSON without the annotation (+ newline, as json.Encoder writes it). */
export function modifiedConfiguration(obj: Obj, annotate: boolean): string {
  const copy = JSON.parse(JSON.stringify(obj)) as Obj;
  copy.metadata ??= {};
  const annots: Record<string, string> = { ...(copy.metadata.annotations ?? {}) };
  delete annots[LAST_APPLIED];
  copy.metadata.annotations = annots;
  let modified = `${goJsonCompact(copy)}\n`;
  if (annotate) {
    copy.metadata.annotations = { ...annots, [LAST_APPLIED]: modified };
    modified = `${goJsonCompact(copy)}\n`;
  }
  return modified;
}

/** The last-applied configuration recorded on a live object, or null. */
function originalConfiguration(obj: Obj): JsonObject | null {
  const s = obj.metadata?.annotations?.[LAST_APPLIED];
  if (typeof s !== 'string' || s === '') return null;
  try {
    return JSON.parse(s) as JsonObject;
  } catch {
    return null;
  }
}

/** jsonmergepatch.CreateThreeWayJSONMergePatch: changes from current, deletions from original. */
function threeWayJsonMergePatch(original: JsonObject | null, modified: JsonObject, current: JsonObject): JsonValue {
  const keep = (v: JsonValue, nulls: boolean): JsonValue => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === null) {
        if (nulls) out[k] = null;
      } else if (typeof x === 'object' && !Array.isArray(x)) {
        const sub = keep(x, nulls) as JsonObject;
        if (Object.keys(sub).length > 0) out[k] = sub;
      } else if (!nulls) out[k] = x;
    }
    return out;
  };
  const addAndChange = keep(createMergePatch(current, modified), false);
  const deletions = keep(createMergePatch(original ?? {}, modified), true);
  return applyMergePatch(deletions, addAndChange);
}

/**
 * The patch apply sends (patcher.go's buildPatch): three-way strategic merge
 * from the live object's last-applied configuration, or a JSON merge patch
 * for kinds without patch metadata.
 */
export function applyPatch(fo: FileObject, live: Obj, modified: JsonObject, overwrite: boolean): { body: string; contentType: string } {
  const meta = patchMetaFor(fo.mapping.group, fo.mapping.version, fo.mapping.kind);
  const original = originalConfiguration(live);
  const current = JSON.parse(JSON.stringify(live)) as JsonObject;
  if (meta) {
    const r = createThreeWayMergePatch(original, modified, current, meta, overwrite);
    if (!r.ok) fail(errs.plain(`error when applying patch:\n${r.error}`));
    return { body: goJsonCompact(r.value), contentType: 'application/strategic-merge-patch+json' };
  }
  return { body: goJsonCompact(threeWayJsonMergePatch(original, modified, current)), contentType: 'application/merge-patch+json' };
}

export async function runApply(ctx: Ctx): Promise<void> {
  const f = ctx.flags;
  const files = getStrings(f, 'filename');
  if (files.length === 0) fail(errs.plain('must specify one of -f and -k'));
  if (getBool(f, 'server-side')) fail(errs.plain('server-side apply is not available in this simulation; use client-side apply'));
  const dryRun = dryRunStrategy(ctx);
  const validation = validationDirective(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const errors: KubectlErr[] = [];
  const objs = await readFileObjects(ctx, files, { recursive: getBool(f, 'recursive'), errors });
  const fileErrors = errors.splice(0);
  const printed: Obj[] = [];
  for (const fo of objs) {
    try {
      const r = await applyOne(ctx, fo, dryRun, validation);
      if (printer.printsObjects) printed.push(r.obj);
      else printer.print(r.obj, r.op);
    } catch (e) {
      if (e instanceof KubectlFailure) errors.push(e.err);
      else throw e;
    }
  }
  if (printer.printsObjects && printed.length > 0) {
    printer.print(printed.length === 1 ? printed[0]! : { apiVersion: 'v1', items: printed, kind: 'List', metadata: {} }, '');
  }
  const e = aggregate([...fileErrors, ...errors]);
  if (e) fail(e);
}

async function applyOne(ctx: Ctx, fo: FileObject, dryRun: DryRun, validation: string): Promise<{ obj: Obj; op: string }> {
  const ns = namespaceForObject(ctx, fo);
  const obj = fo.object as Obj;
  if (ns) obj.metadata.namespace = ns;
  const name = obj.metadata.name;
  if (!name) fail(errs.plain(`error when retrieving current configuration of:\nResource: "${fo.mapping.group ? `${fo.mapping.group}/${fo.mapping.version}` : fo.mapping.version}, Resource=${fo.mapping.resource}", GroupVersionKind: "${obj.apiVersion}, Kind=${obj.kind}"\nName: "", Namespace: "${ns ?? ''}"\nfrom server for: "${fo.source}": resource name may not be empty`));
  const query = { fieldManager: 'kubectl-client-side-apply', fieldValidation: validation, ...dryRunQuery(dryRun) };
  const modified = modifiedConfiguration(obj, true);
  const current = await ctx.client.tryJson<Obj>('GET', resourcePath(fo.mapping, ns, name));
  if (!current.ok) {
    if (current.status.reason !== 'NotFound') fail(addSourceToErr(`retrieving current configuration of:\nResource: "${fo.mapping.group}/${fo.mapping.version}, Resource=${fo.mapping.resource}", GroupVersionKind: "${obj.apiVersion}, Kind=${obj.kind}"\nName: "${name}", Namespace: "${ns ?? ''}"\nfrom server for:`, fo.source, errs.status(current.status)));
    // create with the annotation set to the object itself
    const toCreate = JSON.parse(JSON.stringify(obj)) as Obj;
    toCreate.metadata.annotations = { ...(toCreate.metadata.annotations ?? {}), [LAST_APPLIED]: modifiedConfiguration(obj, false) };
    let result: Obj = toCreate;
    if (dryRun !== 'client') {
      const r = await ctx.client.tryJson<Obj>('POST', resourcePath(fo.mapping, ns), { body: `${goJsonCompact(toCreate)}\n`, query });
      if (!r.ok) fail(addSourceToErr('creating', fo.source, errs.status(r.status)));
      result = r.value;
    }
    return { obj: result, op: 'created' };
  }
  if (dryRun === 'client') return { obj, op: 'configured' };
  let live = current.value;
  if (!live.metadata?.annotations?.[LAST_APPLIED]) {
    ctx.io.err(
      `Warning: resource ${fo.mapping.resource}/${name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`,
    );
  }
  const modifiedObj = JSON.parse(modified) as JsonObject;
  // patcher.Patch: retry on conflicts with a fresh copy
  for (let attempt = 0; ; attempt++) {
    const { body, contentType } = applyPatch(fo, live, modifiedObj, getBool(ctx.flags, 'overwrite'));
    if (body === '{}') return { obj: live, op: 'unchanged' };
    const r = await ctx.client.tryJson<Obj>('PATCH', resourcePath(fo.mapping, ns, name), { body, contentType, query });
    if (r.ok) return { obj: r.value, op: 'configured' };
    if (r.status.reason === 'Conflict' && attempt < 4) {
      const again = await ctx.client.tryJson<Obj>('GET', resourcePath(fo.mapping, ns, name));
      if (again.ok) {
        live = again.value;
        continue;
      }
    }
    fail(addSourceToErr(`applying patch:\n${body}\nto:\n${fo.mapping.resource}/${name}\nfor:`, fo.source, errs.status(r.status)));
  }
}
