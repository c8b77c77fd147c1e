// kubectl set env and set resources (staging/src/k8s.io/kubectl/pkg/cmd/set/
// {set_env.go,set_resources.go,helper.go,env/env_parse.go,env/env_resolve.go}):
// each selected pod template is changed locally, the change becomes a
// strategic-merge patch (nothing is sent when it is empty), and errors of one
// object are collected while the others go on.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString, getStrings } from '../cli/flags';
import { errorString, errs, fail, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { createTwoWayMergePatch, patchMetaFor } from '../../apimachinery/patch';
import type { JsonObject } from '../../apimachinery/types';
import { goJsonCompact } from '../printers/goJson';
import { aggregate, namespaceForObject, readFileObjects, resolveArgs, resourcePath } from '../resource/builder';
import { canonicalQuantity, parseQuantityExact } from '../util/quantityFormat';
import { NO_RESOURCES } from './mutate';
import { DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, OUTPUT_FLAGS, ResultPrinter } from './common';

type Obj = Record<string, any>;

interface Target {
  mapping: Mapping;
  ns: string | undefined;
  obj: Obj;
}

const TARGET_FLAGS: FlagDef[] = [
  ...OUTPUT_FLAGS,
  DRY_RUN_FLAG,
  { name: 'all', kind: 'bool' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'local', kind: 'bool' },
  { name: 'field-manager', kind: 'string' },
  { name: 'filename', shorthand: 'f', kind: 'stringSlice' },
  { name: 'recursive', shorthand: 'R', kind: 'bool' },
  { name: 'containers', shorthand: 'c', kind: 'string', default: '*' },
];

export const SET_ENV_FLAGS: FlagDef[] = [
  ...TARGET_FLAGS,
  { name: 'from', kind: 'string' },
  { name: 'prefix', kind: 'string' },
  { name: 'env', shorthand: 'e', kind: 'stringArray' },
  { name: 'keys', kind: 'stringSlice' },
  { name: 'list', kind: 'bool' },
  { name: 'resolve', kind: 'bool' },
  { name: 'overwrite', kind: 'bool', default: 'true' },
];

export const SET_RESOURCES_FLAGS: FlagDef[] = [...TARGET_FLAGS, { name: 'limits', kind: 'string' }, { name: 'requests', kind: 'string' }];

// ---------- objects

/** The builder's view of the arguments: TYPE NAME, TYPE/NAME, TYPE with --all or -l, or -f files (then the live objects unless --local). */
async function targets(ctx: Ctx, resources: string[], opts: { localRefusesArgs?: boolean } = {}): Promise<Target[]> {
  const f = ctx.flags;
  const all = getBool(f, 'all');
  const selector = getString(f, 'selector');
  const local = getBool(f, 'local');
  if (all && selector) fail(errs.plain('cannot set --all and --selector at the same time'));
  if (local && dryRunStrategy(ctx) === 'server') fail(errs.plain('cannot specify --local and --dry-run=server - did you mean --dry-run=client?'));
  const files = getStrings(f, 'filename');
  if (local && resources.length > 0 && opts.localRefusesArgs) fail(errs.plain('error: you must specify resources by --filename when --local is set.\nExample resource specifications include:\n   \'-f rsrc.yaml\'\n   \'--filename=rsrc.json\''));
  // The builder with neither files nor (contacted) arguments.
  if (files.length === 0 && (local || resources.length === 0)) fail(errs.plain(NO_RESOURCES));
  const out: Target[] = [];
  const errors: KubectlErr[] = [];
  for (const fo of await readFileObjects(ctx, files, { recursive: getBool(f, 'recursive') })) {
    const ns = namespaceForObject(ctx, fo);
    if (local) {
      out.push({ mapping: fo.mapping, ns, obj: fo.object });
      continue;
    }
    const g = await ctx.client.tryJson<Obj>('GET', resourcePath(fo.mapping, ns, fo.object.metadata.name));
    if (g.ok) out.push({ mapping: fo.mapping, ns, obj: g.value });
    else errors.push(errs.status(g.status));
  }
  if (!local) {
    const r = await resolveArgs(ctx, resources);
    for (const ref of r.refs) {
      const ns = ref.mapping.namespaced ? ctx.namespace : undefined;
      if (ref.name !== undefined && selector) fail(errs.plain('name cannot be provided when a selector is specified'));
      if (ref.name === undefined && !all && !selector) fail(errs.plain('resource(s) were provided, but no name was specified'));
      const g = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns, ref.name), selector ? { query: { labelSelector: selector } } : {});
      if (!g.ok) {
        errors.push(errs.status(g.status));
        continue;
      }
      if (ref.name !== undefined) out.push({ mapping: ref.mapping, ns, obj: g.value });
      else for (const i of (g.value.items as Obj[]) ?? []) out.push({ mapping: ref.mapping, ns, obj: { apiVersion: g.value.apiVersion?.replace(/List$/, '') ?? '', kind: ref.mapping.kind, ...i } });
    }
  }
  const e = aggregate(errors);
  if (e) fail(e);
  return out;
}

/** polymorphichelpers.UpdatePodSpecForObject: where the kind keeps its pod spec. */
function podSpecOf(t: Target): Obj | Error {
  const o = t.obj;
  switch (t.mapping.kind) {
    case 'Pod':
      return (o.spec ??= {});
    case 'ReplicationController':
    case 'Deployment':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'Job':
      return (((o.spec ??= {}).template ??= {}).spec ??= {});
    case 'CronJob':
      return (((((o.spec ??= {}).jobTemplate ??= {}).spec ??= {}).template ??= {}).spec ??= {});
  }
  // %T of the decoded object: a built-in type, or unstructured for a custom resource.
  const g = t.mapping.group;
  const goPackage = g === '' || !g.includes('.') || g.endsWith('.k8s.io') ? `*${t.mapping.version}.${t.mapping.kind}` : '*unstructured.Unstructured';
  return new Error(`the object is not a pod or does not have a pod template: ${goPackage}`);
}

/** selectString: a spec with non-greedy `*` wildcards (helper.go's loop, kept as it is, quirks included). */
export function selectString(s: string, spec: string): boolean {
  if (spec === '*') return true;
  if (!spec.includes('*')) return s === spec;
  let pos = 0;
  const parts = spec.split('*');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.length === 0) continue;
    const next = s.slice(pos).indexOf(part);
    if (next < pos || (i === 0 && pos !== 0) || (i === parts.length - 1 && s.length !== part.length + next)) return false;
    pos = next;
  }
  return true;
}

/** Containers, then init containers, whose names the selector matches. */
function selectContainers(spec: Obj, selector: string): Obj[] {
  const pick = (xs: Obj[] | undefined) => (xs ?? []).filter((c) => selectString(String(c.name ?? ''), selector));
  return [...pick(spec.containers), ...pick(spec.initContainers)];
}

/** info.ObjectName(): the plural resource and the name. */
const objectName = (t: Target) => `${t.mapping.resource}/${t.obj.metadata?.name ?? ''}`;

function patchFor(t: Target, before: Obj): string {
  const p = createTwoWayMergePatch(before as JsonObject, t.obj as JsonObject, patchMetaFor(t.mapping.group, t.mapping.version, t.mapping.kind));
  if (!p.ok) fail(errs.plain(p.error));
  return goJsonCompact(p.value);
}

/** The patch loop both commands share: print locally, or PATCH and print the answer; errors collected. */
async function applyChanges(ctx: Ctx, changed: { t: Target; patch: string }[], operation: string, failedVerb: string, allErrs: KubectlErr[]): Promise<void> {
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const local = getBool(ctx.flags, 'local');
  for (const { t, patch } of changed) {
    if (patch === '{}' || patch === '') continue;
    if (local || dryRun === 'client') {
      printer.print(t.obj, operation);
      continue;
    }
    const r = await ctx.client.tryJson<Obj>('PATCH', resourcePath(t.mapping, t.ns, t.obj.metadata.name), {
      body: patch,
      contentType: 'application/strategic-merge-patch+json',
      query: { fieldManager: getString(ctx.flags, 'field-manager') || 'kubectl-set', ...dryRunQuery(dryRun) },
    });
    if (!r.ok) {
      allErrs.push(errs.plain(`failed to patch ${failedVerb} update to pod template${failedVerb === 'env' ? ':' : ''} ${errorString(errs.status(r.status))}`));
      continue;
    }
    printer.print(r.value, operation);
  }
}

function finish(allErrs: KubectlErr[]): void {
  const e = aggregate(allErrs);
  if (e) fail(e);
}

// ---------- set env

const ENV_NAME_RE = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const ENV_NAME_ERR = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

/** SplitEnvironmentFromResources: resources first, then KEY=VALUE and KEY- arguments. */
export function splitEnvironmentFromResources(args: string[]): { resources: string[]; envArgs: string[] } | null {
  const resources: string[] = [];
  const envArgs: string[] = [];
  for (const s of args) {
    const isEnv = /^(.+)=(.*)$/ms.test(s) || s.endsWith('-');
    if (isEnv) envArgs.push(s);
    else if (envArgs.length === 0) resources.push(s);
    else return null;
  }
  return { resources, envArgs };
}

/** ParseEnv: the variables to set (in order) and the names to remove; `-` reads KEY=VALUE lines from stdin. */
export function parseEnv(spec: string[], stdin: string | undefined): { env: Obj[]; remove: string[] } {
  const env: Obj[] = [];
  const remove: string[] = [];
  const set = new Set<string>();
  for (const s of spec) {
    if (s === '-') {
      if (stdin === undefined) fail(errs.plain("when '-' is used, STDIN must be open"));
      for (let line of stdin.split('\n')) {
        const hash = line.indexOf('#');
        if (hash >= 0) line = line.slice(0, hash);
        const eq = line.indexOf('=');
        if (eq >= 0) env.push({ name: line.slice(0, eq), value: line.slice(eq + 1) });
      }
    } else if (s.includes('=')) {
      const eq = s.indexOf('=');
      const name = s.slice(0, eq);
      if (!ENV_NAME_RE.test(name)) fail(errs.plain(`${JSON.stringify(name)} is not a valid key name: ${ENV_NAME_ERR}`));
      set.add(name);
      env.push({ name, value: s.slice(eq + 1) });
    } else if (s.endsWith('-')) remove.push(s.slice(0, -1));
    else fail(errs.plain(`unknown environment variable: ${s}`));
  }
  if (remove.some((r) => set.has(r))) fail(errs.plain('can not both modify and remove the same environment variable in the same command'));
  return { env, remove };
}

/** updateEnv: existing ones replaced in place or removed, new ones appended, each name once. */
export function updateEnv(existing: Obj[], env: Obj[], remove: string[]): Obj[] {
  const out: Obj[] = [];
  const covered = new Set(remove);
  for (const e of existing) {
    if (covered.has(e.name)) continue;
    const newer = env.find((x) => x.name === e.name);
    if (newer) {
      covered.add(e.name);
      out.push(newer);
    } else out.push(e);
  }
  for (const e of env) {
    if (covered.has(e.name)) continue;
    covered.add(e.name);
    out.push(e);
  }
  return out;
}

/** GetEnvVarRefString. */
function refString(from: Obj): string {
  if (from.configMapKeyRef) return `configmap ${from.configMapKeyRef.name ?? ''}, key ${from.configMapKeyRef.key ?? ''}`;
  if (from.secretKeyRef) return `secret ${from.secretKeyRef.name ?? ''}, key ${from.secretKeyRef.key ?? ''}`;
  if (from.fieldRef) return `field path ${from.fieldRef.fieldPath ?? ''}`;
  if (from.resourceFieldRef) return `resource field ${from.resourceFieldRef.containerName ? `${from.resourceFieldRef.containerName}/` : ''}${from.resourceFieldRef.resource ?? ''}`;
  return 'invalid valueFrom';
}

const base64Decode = (s: string): string => {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(s), (c) => c.charCodeAt(0)));
  } catch {
    return s;
  }
};

/** GetEnvVarRefValue for --resolve: a secret's or config map's key (each read once), or one of the object's own fields. */
async function refValue(ctx: Ctx, ns: string, store: Map<string, Obj | Error>, from: Obj, obj: Obj): Promise<string | Error> {
  const read = async (resource: 'secrets' | 'configmaps', name: string): Promise<Obj | Error> => {
    const key = `${resource}/${name}`;
    if (!store.has(key)) {
      const g = await ctx.client.tryJson<Obj>('GET', `/api/v1/namespaces/${ns}/${resource}/${name}`);
      store.set(key, g.ok ? g.value : new Error(errorString(errs.status(g.status))));
    }
    return store.get(key)!;
  };
  if (from.secretKeyRef) {
    const s = await read('secrets', from.secretKeyRef.name ?? '');
    if (s instanceof Error) return s;
    const data = s.data?.[from.secretKeyRef.key];
    return typeof data === 'string' ? base64Decode(data) : new Error(`key ${from.secretKeyRef.key} not found in secret ${from.secretKeyRef.name}`);
  }
  if (from.configMapKeyRef) {
    const c = await read('configmaps', from.configMapKeyRef.name ?? '');
    if (c instanceof Error) return c;
    const data = c.data?.[from.configMapKeyRef.key];
    return typeof data === 'string' ? data : new Error(`key ${from.configMapKeyRef.key} not found in config map ${from.configMapKeyRef.name}`);
  }
  if (from.fieldRef) {
    const path = String(from.fieldRef.fieldPath ?? '');
    const sub = /^(metadata\.(?:annotations|labels))\['(.*)'\]$/s.exec(path);
    const meta = obj.metadata ?? {};
    if (sub) return String((sub[1] === 'metadata.labels' ? meta.labels : meta.annotations)?.[sub[2]!] ?? '');
    const map = (m: Record<string, string> | undefined) =>
      Object.keys(m ?? {})
        .sort()
        .map((k) => `${k}=${JSON.stringify(m![k])}`)
        .join('\n');
    if (path === 'metadata.annotations') return map(meta.annotations);
    if (path === 'metadata.labels') return map(meta.labels);
    if (path === 'metadata.name') return String(meta.name ?? '');
    if (path === 'metadata.namespace') return String(meta.namespace ?? '');
    if (path === 'metadata.uid') return String(meta.uid ?? '');
    return new Error(`unsupported fieldPath: ${path}`);
  }
  return new Error('invalid valueFrom');
}

/** keyToEnvName: a key as a variable name (non-identifier characters to _, upper case). */
const keyToEnvName = (key: string) => key.replace(/[^a-zA-Z0-9_]/g, '_').toUpperCase();

export async function runSetEnv(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  if (getBool(f, 'all') && getString(f, 'selector')) fail(errs.plain('cannot set --all and --selector at the same time'));
  const split = splitEnvironmentFromResources(args);
  if (!split) fail(errs.plain(`all resources must be specified before environment changes: ${args.join(' ')}`));
  const { resources, envArgs } = split;
  if (getBool(f, 'local') && dryRunStrategy(ctx) === 'server') fail(errs.plain('cannot specify --local and --dry-run=server - did you mean --dry-run=client?'));
  if (getStrings(f, 'filename').length === 0 && resources.length < 1) fail(errs.plain('one or more resources must be specified as <resource> <name> or <resource>/<name>'));
  const list = getBool(f, 'list');
  if (list && getString(f, 'output')) fail(errs.plain('--list and --output may not be specified together'));
  const keys = getStrings(f, 'keys');
  const fromArg = getString(f, 'from');
  if (keys.length > 0 && !fromArg) fail(errs.plain('when specifying --keys, a configmap or secret must be provided with --from'));
  const { env, remove } = parseEnv([...getStrings(f, 'env'), ...envArgs], ctx.env.stdin);

  if (fromArg) {
    for (const src of await targets(ctx, [fromArg])) {
      const kind = src.mapping.group === '' ? src.mapping.kind : '';
      if (kind !== 'Secret' && kind !== 'ConfigMap') fail(errs.plain('unsupported resource specified in --from'));
      // Go ranges over the data map in no order; ours is the keys' byte order.
      for (const key of Object.keys((src.obj.data as Record<string, string>) ?? {}).sort()) {
        if (keys.length > 0 && !keys.includes(key)) continue;
        const name = keyToEnvName(key);
        if (name !== key) ctx.io.err(`Warning: key ${key} transferred to ${name}\n`);
        const ref = { name: src.obj.metadata.name, key };
        env.push({ name, valueFrom: kind === 'Secret' ? { secretKeyRef: ref } : { configMapKeyRef: ref } });
      }
    }
  }
  const prefix = getString(f, 'prefix');
  if (prefix) for (const e of env) e.name = `${prefix}${e.name}`;

  const selector = getString(f, 'containers') || '*';
  const overwrite = getBool(f, 'overwrite');
  const resolve = getBool(f, 'resolve');
  const allErrs: KubectlErr[] = [];
  const changed: { t: Target; patch: string }[] = [];
  for (const t of await targets(ctx, resources)) {
    const before = JSON.parse(JSON.stringify(t.obj)) as Obj;
    const spec = podSpecOf(t);
    if (spec instanceof Error) {
      allErrs.push(errs.plain(`error: ${objectName(t)} ${spec.message}\n`));
      continue;
    }
    const kind = t.obj.kind || t.mapping.kind;
    const name = t.obj.metadata?.name ?? '';
    const containers = selectContainers(spec, selector);
    if (containers.length === 0) {
      ctx.io.err(`Warning: ${kind}/${name} does not have any containers matching ${JSON.stringify(selector)}\n`);
      continue;
    }
    let failed: string | undefined;
    const store = new Map<string, Obj | Error>();
    for (const c of containers) {
      if (!overwrite) {
        const clash = env.map((e) => ({ e, cur: ((c.env as Obj[]) ?? []).find((x) => x.name === e.name) })).find(({ e, cur }) => cur && (cur.value ?? '') !== (e.value ?? ''));
        if (clash) {
          failed = `'${clash.cur!.name}' already has a value (${clash.cur!.value ?? ''}), and --overwrite is false`;
          break;
        }
      }
      const next = updateEnv((c.env as Obj[]) ?? [], env, remove);
      if (next.length > 0) c.env = next;
      else delete c.env;
      if (!list) continue;
      ctx.io.out(`# ${kind} ${name}, container ${c.name}\n`);
      const resolveErrors = new Map<string, string[]>();
      for (const e of next) {
        if (!e.valueFrom) {
          ctx.io.out(`${e.name}=${e.value ?? ''}\n`);
          continue;
        }
        if (resolve) {
          const v = await refValue(ctx, t.ns ?? ctx.namespace, store, e.valueFrom, t.obj);
          if (!(v instanceof Error)) {
            ctx.io.out(`${e.name}=${v}\n`);
            continue;
          }
          resolveErrors.set(v.message, [...(resolveErrors.get(v.message) ?? []), e.name]);
        }
        ctx.io.out(`# ${e.name} from ${refString(e.valueFrom)}\n`);
      }
      const lines = [...resolveErrors].map(([msg, vars]) => `error retrieving reference for ${[...vars].sort().join(', ')}: ${msg}`).sort();
      for (const l of lines) ctx.io.err(`${l}\n`);
      if (lines.length > 0) failed = 'failed to retrieve valueFrom references';
    }
    if (failed !== undefined) {
      allErrs.push(errs.plain(`error: ${objectName(t)} ${failed}\n`));
      continue;
    }
    changed.push({ t, patch: patchFor(t, before) });
  }
  // RunEnv returns before looking at the objects' errors when listing.
  if (list) return;
  await applyChanges(ctx, changed, 'env updated', 'env', allErrs);
  finish(allErrs);
}

// ---------- set resources

const sortedKeys = (m: Record<string, string>): Record<string, string> => Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]!]));

/** HandleResourceRequirementsV1's parse of `cpu=100m,memory=256Mi`. */
function resourceList(spec: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!spec) return out;
  for (const item of spec.split(',')) {
    const eq = item.indexOf('=');
    const parts = item.split('=');
    if (parts.length !== 2 || eq <= 0) fail(errs.plain(`Invalid argument syntax ${item}, expected <resource>=<value>`));
    const q = parseQuantityExact(parts[1]!);
    if (!q) fail(errs.plain("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    out[parts[0]!] = canonicalQuantity(q.nano, q.format);
  }
  return out;
}

export async function runSetResources(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const limitsArg = getString(f, 'limits');
  const requestsArg = getString(f, 'requests');
  const list = await targets(ctx, args, { localRefusesArgs: true });
  if (!limitsArg && !requestsArg) fail(errs.plain('you must specify an update to requests or limits (in the form of --requests/--limits)'));
  const limits = resourceList(limitsArg);
  const requests = resourceList(requestsArg);
  const selector = getString(f, 'containers') || '*';
  const allErrs: KubectlErr[] = [];
  const changed: { t: Target; patch: string }[] = [];
  for (const t of list) {
    const before = JSON.parse(JSON.stringify(t.obj)) as Obj;
    const spec = podSpecOf(t);
    if (spec instanceof Error) {
      allErrs.push(errs.plain(`error: ${objectName(t)} ${spec.message}\n`));
      continue;
    }
    const containers = selectContainers(spec, selector);
    if (containers.length === 0) {
      allErrs.push(errs.plain(`error: unable to find container named ${selector}`));
      continue;
    }
    for (const c of containers) {
      const r = (c.resources ??= {});
      // A ResourceList is a Go map: encoded in key order.
      if (limitsArg) r.limits = sortedKeys({ ...(r.limits ?? {}), ...limits });
      if (requestsArg) r.requests = sortedKeys({ ...(r.requests ?? {}), ...requests });
    }
    changed.push({ t, patch: patchFor(t, before) });
  }
  await applyChanges(ctx, changed, 'resource requirements updated', 'resources', allErrs);
  finish(allErrs);
}
