// kubectl delete, scale, label, annotate, patch (staging/src/k8s.io/kubectl/pkg/cmd/
// delete/delete.go, scale/scale.go, label/label.go, annotate/annotate.go, patch/patch.go).
import type { JsonValue } from '../../apimachinery/types';
import { createMergePatch } from '../../apimachinery/patch';
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, getStrings } from '../cli/flags';
import { errs, fail, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { goJsonCompact } from '../printers/goJson';
import { parseManifests } from '../yaml/parse';
import { aggregate, kindString, namespaceForObject, readFileObjects, resolveArgs, resourcePath, resourceString } from '../resource/builder';
import { addSourceToErr, DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, FILENAME_FLAGS, OUTPUT_FLAGS, ResultPrinter, VALIDATE_FLAG, withDryRun } from './common';

type Obj = Record<string, any>;

interface Target {
  mapping: Mapping;
  namespace?: string;
  name: string;
  source?: string;
  object?: Obj;
}

/** Resolves args/-f/-l/--all into named targets (listing collections), collecting per-object errors. */
export async function targets(ctx: Ctx, args: string[], opts: { selector?: string; all?: boolean; allNamespaces?: boolean; fetch?: boolean }): Promise<{ targets: Target[]; errors: KubectlErr[]; listed: boolean }> {
  const files = getStrings(ctx.flags, 'filename');
  const out: Target[] = [];
  const errors: KubectlErr[] = [];
  let listed = false;
  if (files.length > 0) {
    for (const fo of await readFileObjects(ctx, files, { recursive: getBool(ctx.flags, 'recursive') })) {
      out.push({ mapping: fo.mapping, namespace: namespaceForObject(ctx, fo), name: fo.object.metadata.name!, source: fo.source, object: fo.object as Obj });
    }
  } else {
    const r = await resolveArgs(ctx, args);
    for (const ref of r.refs) {
      const ns = ref.mapping.namespaced ? (opts.allNamespaces ? undefined : ctx.namespace) : undefined;
      if (ref.name !== undefined) {
        out.push({ mapping: ref.mapping, namespace: ns, name: ref.name });
        continue;
      }
      listed = true;
      const query: Record<string, string> = { limit: '500' };
      if (opts.selector) query.labelSelector = opts.selector;
      const l = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns), { query });
      if (!l.ok) {
        errors.push(errs.status(l.status));
        continue;
      }
      for (const item of (l.value.items as Obj[]) ?? []) out.push({ mapping: ref.mapping, namespace: item.metadata?.namespace ?? ns, name: item.metadata.name, object: { apiVersion: l.value.apiVersion, kind: ref.mapping.kind, ...item } });
    }
  }
  if (opts.fetch) {
    for (const t of out) {
      if (t.object && t.object.metadata?.resourceVersion) continue;
      const g = await ctx.client.tryJson<Obj>('GET', resourcePath(t.mapping, t.namespace, t.name));
      if (g.ok) t.object = g.value;
      else {
        errors.push(addSourceToErr('retrieving', undefined, errs.status(g.status)));
        t.object = undefined;
      }
    }
  }
  return { targets: opts.fetch ? out.filter((t) => t.object) : out, errors, listed };
}

// ---------- delete

export const DELETE_FLAGS: FlagDef[] = [
  ...FILENAME_FLAGS,
  { name: 'output', shorthand: 'o', kind: 'string' },
  DRY_RUN_FLAG,
  { name: 'all', kind: 'bool' },
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'field-selector', kind: 'string' },
  { name: 'ignore-not-found', kind: 'bool' },
  { name: 'cascade', kind: 'string', default: 'background', noOptDefVal: 'background' },
  { name: 'force', kind: 'bool' },
  { name: 'grace-period', kind: 'int', default: -1 },
  { name: 'now', kind: 'bool' },
  { name: 'timeout', kind: 'duration', default: '0s' },
  { name: 'wait', kind: 'bool', default: true },
  { name: 'interactive', shorthand: 'i', kind: 'bool' },
  { name: 'raw', kind: 'string' },
];

export const NO_RESOURCES = "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

export async function runDelete(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const files = getStrings(f, 'filename');
  const selector = getString(f, 'selector');
  const all = getBool(f, 'all');
  if (args.length === 0 && files.length === 0) fail(errs.plain(NO_RESOURCES));
  if (all && selector) fail(errs.plain('cannot set --all and --selector at the same time'));
  let grace = getInt(f, 'grace-period');
  const force = getBool(f, 'force');
  if (getBool(f, 'now')) {
    if (grace !== -1) fail(errs.plain('--now and --grace-period cannot be specified together'));
    grace = 1;
  }
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  const cascade = getString(f, 'cascade');
  const propagation = cascade === 'orphan' || cascade === 'false' ? 'Orphan' : cascade === 'foreground' ? 'Foreground' : 'Background';
  const dryRun = dryRunStrategy(ctx);
  if (files.length === 0 && args.length === 1 && !args[0]!.includes('/') && !selector && !all && !getString(f, 'field-selector')) {
    fail(errs.plain('resource(s) were provided, but no name was specified'));
  }
  const r = await targets(ctx, args, { selector, all, allNamespaces: getBool(f, 'all-namespaces') });
  if (grace === 0 && force) ctx.io.err('Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n');
  const errors = [...r.errors];
  const deleted: { t: Target; uid?: string }[] = [];
  const ignoreNotFound = getBool(f, 'ignore-not-found') || (all && !f.changed.has('ignore-not-found'));
  for (const t of r.targets) {
    const body: Obj = {};
    if (grace >= 0) body.gracePeriodSeconds = grace;
    body.propagationPolicy = propagation;
    let uid: string | undefined;
    if (dryRun !== 'client') {
      const res = await ctx.client.tryJson<Obj>('DELETE', resourcePath(t.mapping, t.namespace, t.name), { body: `${goJsonCompact(body)}\n`, query: dryRunQuery(dryRun) });
      if (!res.ok) {
        if (res.status.reason === 'NotFound' && ignoreNotFound) continue;
        errors.push(addSourceToErr('deleting', t.source, errs.status(res.status)));
        continue;
      }
      uid = res.value.kind === 'Status' ? res.value.details?.uid : res.value.metadata?.uid;
    }
    deleted.push({ t, uid });
    const op = withDryRun(grace === 0 ? 'force deleted' : 'deleted', dryRun);
    if (getString(f, 'output') === 'name') ctx.io.out(`${kindString(t.mapping)}/${t.name}\n`);
    else ctx.io.out(`${kindString(t.mapping)} "${t.name}" ${op}\n`);
  }
  if (r.targets.length === 0 && errors.length === 0) ctx.io.out('No resources found\n');
  if (getBool(f, 'wait') && dryRun === 'none' && deleted.length > 0) {
    for (const d of deleted) await waitForDeletion(ctx, d.t, d.uid);
  }
  const e = aggregate(errors);
  if (e) fail(e);
}

/** kubectl delete --wait: block until the object is gone (or replaced by one with another uid). */
async function waitForDeletion(ctx: Ctx, t: Target, uid: string | undefined): Promise<void> {
  const g = await ctx.client.tryJson<Obj>('GET', resourcePath(t.mapping, t.namespace, t.name));
  if (!g.ok || (uid && g.value.metadata?.uid !== uid)) return;
  let gone = false;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const w = ctx.client.watch(resourcePath(t.mapping, t.namespace), { query: { fieldSelector: `metadata.name=${t.name}`, watch: 'true', resourceVersion: String(g.value.metadata?.resourceVersion ?? '0') } }, (line) => {
    try {
      const ev = JSON.parse(line) as Obj;
      if (ev.type === 'DELETED' && (!uid || ev.object?.metadata?.uid === uid)) {
        gone = true;
        finish();
      }
    } catch {
      // ignore malformed lines
    }
  });
  const stop = ctx.env.interrupt ? ctx.env.interrupt.then(() => undefined) : new Promise<void>(() => undefined);
  await Promise.race([done, w.done.then(() => undefined), stop]);
  w.cancel();
  void gone;
}

// ---------- scale

export const SCALE_FLAGS: FlagDef[] = [
  ...FILENAME_FLAGS,
  ...OUTPUT_FLAGS,
  DRY_RUN_FLAG,
  { name: 'replicas', kind: 'int', default: 0, required: true },
  { name: 'current-replicas', kind: 'int', default: -1 },
  { name: 'resource-version', kind: 'string' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'all', kind: 'bool' },
  { name: 'timeout', kind: 'duration', default: '0s' },
];

export async function runScale(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const replicas = getInt(f, 'replicas');
  if (replicas < 0) fail(errs.plain('The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0'));
  if (args.length === 0 && getStrings(f, 'filename').length === 0) fail(errs.plain(NO_RESOURCES));
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const r = await targets(ctx, args, { selector: getString(f, 'selector'), all: getBool(f, 'all'), fetch: true });
  if (r.targets.length === 0) {
    if (r.errors.length > 0) fail(errs.plain(`no objects passed to scale ${r.errors.map((e) => (e.type === 'StatusError' ? e.status.message : '')).join(', ')}`));
    fail(errs.plain('no objects passed to scale'));
  }
  const errors: KubectlErr[] = [...r.errors];
  for (const t of r.targets) {
    const current = getInt(f, 'current-replicas');
    if (current >= 0 && (t.object?.spec?.replicas ?? 0) !== current) {
      errors.push(errs.plain(`Expected replicas to be ${current}, was ${t.object?.spec?.replicas ?? 0}`));
      continue;
    }
    if (dryRun === 'client') {
      printer.print(t.object!, 'scaled');
      continue;
    }
    const patch: Obj = { spec: { replicas } };
    const rv = getString(f, 'resource-version');
    if (rv) patch.metadata = { resourceVersion: rv };
    const res = await ctx.client.tryJson<Obj>('PATCH', resourcePath(t.mapping, t.namespace, t.name, 'scale'), { body: goJsonCompact(patch), contentType: 'application/merge-patch+json', query: dryRunQuery(dryRun) });
    if (!res.ok) {
      errors.push(errs.status(res.status));
      continue;
    }
    printer.print(t.object!, 'scaled');
  }
  const e = aggregate(errors);
  if (e) fail(e);
}

// ---------- label / annotate

export const LABEL_FLAGS: FlagDef[] = [
  ...FILENAME_FLAGS,
  ...OUTPUT_FLAGS,
  DRY_RUN_FLAG,
  { name: 'overwrite', kind: 'bool' },
  { name: 'local', kind: 'bool' },
  { name: 'list', kind: 'bool' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'field-selector', kind: 'string' },
  { name: 'all', kind: 'bool' },
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'resource-version', kind: 'string' },
  { name: 'field-manager', kind: 'string' },
];

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validKey(k: string): boolean {
  const parts = k.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1]!;
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) return false;
  if (parts.length === 2 && (parts[0]!.length === 0 || parts[0]!.length > 253 || !DNS_SUBDOMAIN.test(parts[0]!))) return false;
  return true;
}

async function runMeta(ctx: Ctx, args: string[], field: 'labels' | 'annotations'): Promise<void> {
  const f = ctx.flags;
  const isLabel = field === 'labels';
  const word = isLabel ? 'label' : 'annotation';
  const resources: string[] = [];
  const pairs: string[] = [];
  let seenPair = false;
  for (const a of args) {
    if (a.includes('=') || (a.endsWith('-') && !a.includes('/'))) {
      pairs.push(a);
      seenPair = true;
    } else if (!seenPair) resources.push(a);
    else fail(errs.plain(`all resources must be specified before ${word} changes: ${a}`));
  }
  const list = getBool(f, 'list');
  if (resources.length === 0 && getStrings(f, 'filename').length === 0) fail(errs.plain(`one or more resources must be specified as <resource> <name> or <resource>/<name>`));
  if (pairs.length === 0 && !list) fail(errs.plain(`at least one ${word} update is required`));
  const adds: Record<string, string> = {};
  const removes: string[] = [];
  for (const p of pairs) {
    if (p.endsWith('-') && !p.includes('=')) {
      removes.push(p.slice(0, -1));
      continue;
    }
    const i = p.indexOf('=');
    const k = p.slice(0, i);
    const v = p.slice(i + 1);
    if (!validKey(k)) fail(errs.plain(`invalid ${word} spec: ${p}`));
    if (isLabel && v !== '' && (v.length > 63 || !QUALIFIED_NAME.test(v))) fail(errs.plain(`invalid label value: "${p}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`));
    adds[k] = v;
  }
  for (const k of removes) if (k in adds) fail(errs.plain(`can not both modify and remove ${isLabel ? 'a label' : 'an annotation'} in the same command`));
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const overwrite = getBool(f, 'overwrite');
  const r = await targets(ctx, resources, { selector: getString(f, 'selector'), all: getBool(f, 'all'), allNamespaces: getBool(f, 'all-namespaces'), fetch: true });
  const errors: KubectlErr[] = [...r.errors];
  const manager = getString(f, 'field-manager') || (isLabel ? 'kubectl-label' : 'kubectl-annotate');
  for (const t of r.targets) {
    const obj = t.object!;
    const current: Record<string, string> = { ...(obj.metadata?.[field] ?? {}) };
    if (list) {
      for (const k of Object.keys(current).sort()) ctx.io.out(`${k}=${current[k]}\n`);
      continue;
    }
    if (!overwrite) {
      const conflicts = Object.keys(adds).filter((k) => k in current && current[k] !== adds[k]);
      if (conflicts.length > 0) {
        const msgs = conflicts.map((k) => `'${k}' already has a value (${current[k]})`);
        if (isLabel) fail(conflicts.length === 1 ? errs.plain(`${msgs[0]}, and --overwrite is false`) : { type: 'Aggregate', errors: msgs.map((m) => errs.plain(`${m}, and --overwrite is false`)) });
        fail(errs.plain(`--overwrite is false but found the following declared annotation(s): ${msgs.join('; ')}`));
      }
    }
    if (dryRun === 'none') for (const k of removes) if (!(k in current)) ctx.io.out(`${word} "${k}" not found.\n`);
    const next = { ...current, ...adds };
    for (const k of removes) delete next[k];
    const before = JSON.parse(JSON.stringify(obj)) as Obj;
    const after = JSON.parse(JSON.stringify(obj)) as Obj;
    after.metadata[field] = next;
    if (Object.keys(next).length === 0 && !(field in (obj.metadata ?? {}))) delete after.metadata[field];
    const rv = getString(f, 'resource-version');
    if (rv) after.metadata.resourceVersion = rv;
    const changed = JSON.stringify(current) !== JSON.stringify(Object.keys(next).length === 0 && !(field in (obj.metadata ?? {})) ? {} : next);
    const shrank = Object.keys(next).length < Object.keys(current).length;
    const msg = isLabel ? (!changed ? 'not labeled' : !overwrite && shrank ? 'unlabeled' : 'labeled') : 'annotated';
    let result = after;
    if (dryRun !== 'client') {
      const patch = createMergePatch(before as JsonValue, after as JsonValue);
      const res = await ctx.client.tryJson<Obj>('PATCH', resourcePath(t.mapping, t.namespace, t.name), { body: goJsonCompact(patch), contentType: 'application/merge-patch+json', query: { ...dryRunQuery(dryRun), fieldManager: manager } });
      if (!res.ok) {
        errors.push(errs.status(res.status));
        continue;
      }
      result = res.value;
    }
    printer.print(result, msg);
  }
  const e = aggregate(errors);
  if (e) fail(e);
}

export const runLabel = (ctx: Ctx, args: string[]) => runMeta(ctx, args, 'labels');
export const runAnnotate = (ctx: Ctx, args: string[]) => runMeta(ctx, args, 'annotations');

// ---------- patch

export const PATCH_FLAGS: FlagDef[] = [
  ...FILENAME_FLAGS,
  ...OUTPUT_FLAGS,
  DRY_RUN_FLAG,
  VALIDATE_FLAG,
  { name: 'patch', shorthand: 'p', kind: 'string' },
  { name: 'patch-file', kind: 'string' },
  { name: 'type', kind: 'string', default: 'strategic' },
  { name: 'local', kind: 'bool' },
  { name: 'subresource', kind: 'string' },
  { name: 'field-manager', kind: 'string', default: 'kubectl-patch' },
];

const PATCH_TYPES: Record<string, string> = { json: 'application/json-patch+json', merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json' };

export async function runPatch(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const type = getString(f, 'type');
  const ct = PATCH_TYPES[type];
  if (!ct) fail(errs.plain(`--type must be one of [json merge strategic], not "${type}"`));
  let text = getString(f, 'patch');
  const pf = getString(f, 'patch-file');
  if (pf) {
    if (text) fail(errs.plain('--patch and --patch-file are mutually exclusive'));
    const t = ctx.env.files[pf];
    if (t === undefined) fail(errs.plain(`unable to read patch file: open ${pf}: no such file or directory`));
    text = t;
  }
  if (!text) fail(errs.plain('must specify --patch or --patch-file containing the contents of the patch'));
  // yaml.ToJSON: text that already looks like JSON is sent as is
  let body = text;
  if (!/^\s*[{[]/.test(text)) {
    const parsed = parseManifests(text);
    if (!parsed.ok || parsed.docs.length !== 1) fail(errs.plain(`unable to parse "${text}": ${parsed.ok ? 'yaml: invalid document' : parsed.message}`));
    body = goJsonCompact(parsed.docs[0]);
  }
  if (args.length === 0 && getStrings(f, 'filename').length === 0) fail(errs.plain(NO_RESOURCES));
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const r = await targets(ctx, args, { fetch: true });
  const errors: KubectlErr[] = [...r.errors];
  const sub = getString(f, 'subresource');
  for (const t of r.targets) {
    if (dryRun === 'client') {
      printer.print(t.object!, 'patched');
      continue;
    }
    const res = await ctx.client.tryJson<Obj>('PATCH', resourcePath(t.mapping, t.namespace, t.name, sub || undefined), { body, contentType: ct, query: { ...dryRunQuery(dryRun), fieldManager: getString(f, 'field-manager') } });
    if (!res.ok) {
      errors.push(errs.status(res.status));
      continue;
    }
    const didPatch = JSON.stringify(sortDeep(res.value)) !== JSON.stringify(sortDeep(t.object));
    printer.print(res.value, didPatch ? 'patched' : 'patched (no change)');
  }
  const e = aggregate(errors);
  if (e) fail(e);
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object') {
    const o = v as Obj;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortDeep(o[k])]),
    );
  }
  return v;
}

export { resourceString };
