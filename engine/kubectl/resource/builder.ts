// The part of cli-runtime's resource.Builder kubectl commands share: turning
// `TYPE[,TYPE] [NAME...]`, `TYPE/NAME...` and `-f FILE` into API targets
// (builder.go ResourceTypeOrNameArgs, normalizeMultipleResourcesArgs,
// hasCombinedTypeArgs, splitResourceTypeName, SplitResourceArgument,
// ReplaceAliases; visitor.go FileVisitor).
import type { KObject } from '../../apimachinery/types';
import { parseApiVersion } from '../../apimachinery/types';
import type { Ctx } from '../cli/context';
import { errs, fail, type KubectlErr } from '../client/errors';
import { gvString, partialResource, type Mapping } from '../client/discovery';
import { parseManifests } from '../yaml/parse';
import { goJsonCompact } from '../printers/goJson';

export interface Ref {
  mapping: Mapping;
  /** Absent: the whole collection. */
  name?: string;
}

export interface ResolvedArgs {
  refs: Ref[];
  /** One TYPE NAME or TYPE/NAME: print the object itself, not a List (IntoSingleItemImplied). */
  singleItemImplied: boolean;
  /** Names were given (not a collection request). */
  byName: boolean;
}

/** SplitResourceArgument: comma list, empties dropped, duplicates removed. */
export function splitResourceArgument(arg: string): string[] {
  const out: string[] = [];
  for (const s of arg.split(',')) if (s && !out.includes(s)) out.push(s);
  return out;
}

/** A URL path for a resource (client-go rest.Request). */
export function resourcePath(m: Mapping, namespace: string | undefined, name?: string, sub?: string): string {
  let p = m.group ? `/apis/${m.group}/${m.version}` : `/api/${m.version}`;
  if (m.namespaced && namespace) p += `/namespaces/${namespace}`;
  p += `/${m.resource}`;
  if (name !== undefined) p += `/${encodeURIComponent(name).replace(/%3A/gi, ':').replace(/%40/g, '@')}`;
  if (sub) p += `/${sub}`;
  return p;
}

/** `deployment.apps` / `pod`: GroupKind.String() lower-cased, as names are printed. */
export function kindString(m: Mapping): string {
  return m.group ? `${m.kind.toLowerCase()}.${m.group}` : m.kind.toLowerCase();
}

/** `deployments.apps` / `pods`: GroupResource.String(), as errors name resources. */
export function resourceString(m: Mapping): string {
  return m.group ? `${m.resource}.${m.group}` : m.resource;
}

async function mappingOrFail(ctx: Ctx, arg: string): Promise<Mapping> {
  await ctx.discovery.load();
  const m = ctx.discovery.mappingFor(arg);
  if (m) return m;
  const pr = partialResource(arg);
  return fail({ type: 'NoResourceMatch', resource: pr.resource, group: '', version: '' });
}

/** Expands categories (`all`) in a comma list of types (Builder.ReplaceAliases). */
async function replaceAliases(ctx: Ctx, input: string): Promise<string> {
  await ctx.discovery.load();
  return input
    .split(',')
    .map((arg) => {
      const rs = ctx.discovery.expandCategory(arg);
      return rs ? rs.map((r) => (r.group ? `${r.resource}.${r.group}` : r.resource)).join(',') : arg;
    })
    .join(',');
}

export async function resolveArgs(ctx: Ctx, argsIn: string[]): Promise<ResolvedArgs> {
  let args = [...argsIn];
  // normalizeMultipleResourcesArgs: `pods,svc a b` → pods/a pods/b svc/a svc/b
  if (args.length >= 2) {
    const types = splitResourceArgument(args[0]!);
    if (types.length > 1) {
      const names = args.slice(1);
      args = types.flatMap((t) => names.map((n) => `${t}/${n}`));
    }
  }
  const slashes = args.filter((a) => a.includes('/')).length;
  if (slashes > 0) {
    if (slashes !== args.length) {
      fail(errs.plain("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'"));
    }
    const refs: Ref[] = [];
    for (const s of args) {
      const seg = s.split('/');
      if (seg.length !== 2) fail(errs.plain('arguments in resource/name form may not have more than one slash'));
      const [t, n] = seg as [string, string];
      if (!t || !n || splitResourceArgument(t).length !== 1) fail(errs.plain('arguments in resource/name form must have a single resource and name'));
      refs.push({ mapping: await mappingOrFail(ctx, t), name: n });
    }
    return { refs, singleItemImplied: refs.length === 1, byName: true };
  }
  if (args.length === 0) return { refs: [], singleItemImplied: false, byName: false };
  const typeArg = await replaceAliases(ctx, args[0]!);
  const mappings: Mapping[] = [];
  for (const t of splitResourceArgument(typeArg)) {
    const m = await mappingOrFail(ctx, t);
    if (!mappings.some((x) => x.group === m.group && x.resource === m.resource)) mappings.push(m);
  }
  const names = args.slice(1);
  if (names.length === 0) return { refs: mappings.map((mapping) => ({ mapping })), singleItemImplied: false, byName: false };
  return { refs: mappings.flatMap((mapping) => names.map((name) => ({ mapping, name }))), singleItemImplied: mappings.length === 1 && names.length === 1, byName: true };
}

// ---------- files

export interface FileObject {
  source: string;
  object: KObject;
  mapping: Mapping;
}

/** The files `-f NAME` denotes: a file, or every .yaml/.yml/.json under a directory (-R for nested ones). */
function expandFilename(ctx: Ctx, name: string, recursive: boolean): string[] | undefined {
  if (name === '-') return ['-'];
  if (Object.prototype.hasOwnProperty.call(ctx.env.files, name)) return [name];
  const dir = name.endsWith('/') ? name : `${name}/`;
  const under = Object.keys(ctx.env.files)
    .filter((k) => k.startsWith(dir))
    .filter((k) => recursive || !k.slice(dir.length).includes('/'))
    .filter((k) => /\.(ya?ml|json)$/.test(k))
    .sort();
  if (under.length === 0 && !Object.keys(ctx.env.files).some((k) => k.startsWith(dir))) return undefined;
  return under;
}

export interface ReadOptions {
  recursive?: boolean;
  /** Collects per-file failures and goes on (the builder's ContinueOnError); without it the first failure throws. */
  errors?: KubectlErr[];
  /** --validate=false: decoding errors instead of validation errors. */
  validate?: boolean;
}

/** Reads -f sources into objects with their mappings. */
export async function readFileObjects(ctx: Ctx, filenames: string[], opts: ReadOptions = {}): Promise<FileObject[]> {
  const out: FileObject[] = [];
  const report = (e: KubectlErr) => {
    if (!opts.errors) fail(e);
    opts.errors.push(e);
  };
  const validate = opts.validate ?? !['false', 'ignore'].includes(String(ctx.flags.values.get('validate') ?? 'strict').toLowerCase());
  for (const fname of filenames) {
    const files = expandFilename(ctx, fname, opts.recursive ?? false);
    if (!files) fail(errs.plain(`the path "${fname}" does not exist`));
    for (const f of files) {
      const text = f === '-' ? (ctx.env.stdin ?? '') : ctx.env.files[f]!;
      const label = f === '-' ? 'STDIN' : f;
      const parsed = parseManifests(text);
      if (!parsed.ok) {
        report(errs.plain(`error parsing ${label}: ${parsed.message}`));
        continue;
      }
      for (const doc of parsed.docs) {
        for (const obj of flattenList(doc)) {
          const problems = validateBasic(obj);
          if (problems) {
            if (validate) report(errs.plain(`error validating "${label}": error validating data: ${problems}; if you choose to ignore these errors, turn validation off with --validate=false`));
            else if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) report(errs.plain(`unable to decode "${label}": json: cannot unmarshal ${Array.isArray(obj) ? 'array' : typeof obj === 'string' ? 'string' : 'number'} into Go value of type unstructured.detector`));
            else report(errs.plain(`unable to decode "${label}": Object 'Kind' is missing in '${goJsonCompact(obj)}'`));
            continue;
          }
          const o = obj as KObject;
          o.metadata ??= {};
          await ctx.discovery.load();
          const { group, version } = parseApiVersion(o.apiVersion);
          const mapping = ctx.discovery.mappingForKind(group, version, o.kind);
          if (!mapping) {
            report(errs.plain(`resource mapping not found for name: "${o.metadata.name ?? ''}" namespace: "${o.metadata.namespace ?? ''}" from "${label}": no matches for kind "${o.kind}" in version "${gvString(group, version)}"\nensure CRDs are installed first`));
            continue;
          }
          out.push({ source: label, object: o, mapping });
        }
      }
    }
  }
  return out;
}

function flattenList(doc: unknown): unknown[] {
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
    const d = doc as Record<string, unknown>;
    if (typeof d.kind === 'string' && d.kind.endsWith('List') && Array.isArray(d.items)) return d.items.flatMap(flattenList);
  }
  return [doc];
}

function validateBasic(obj: unknown): string | undefined {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return 'invalid object to validate';
  const o = obj as Record<string, unknown>;
  const missing: string[] = [];
  if (typeof o.apiVersion !== 'string' || o.apiVersion === '') missing.push('apiVersion not set');
  if (typeof o.kind !== 'string' || o.kind === '') missing.push('kind not set');
  if (missing.length === 0) return undefined;
  return missing.length === 1 ? missing[0] : `[${missing.join(', ')}]`;
}

/** The namespace an object from a file goes to, with kubectl's mismatch error. */
export function namespaceForObject(ctx: Ctx, f: FileObject): string | undefined {
  if (!f.mapping.namespaced) return undefined;
  const objNs = f.object.metadata.namespace;
  if (objNs && ctx.explicitNamespace && objNs !== ctx.namespace) {
    fail(errs.plain(`the namespace from the provided object "${objNs}" does not match the namespace "${ctx.namespace}". You must pass '--namespace=${objNs}' to perform this operation.`));
  }
  return objNs || ctx.namespace;
}

export function aggregate(errors: KubectlErr[]): KubectlErr | undefined {
  if (errors.length === 0) return undefined;
  return errors.length === 1 ? errors[0] : { type: 'Aggregate', errors };
}
