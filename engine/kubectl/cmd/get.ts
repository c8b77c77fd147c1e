// kubectl get (staging/src/k8s.io/kubectl/pkg/cmd/get/get.go v1.32): server-side
// Tables printed per resource type, generic printers over a List, watch.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, getStrings } from '../cli/flags';
import { errs, fail, KubectlFailure, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { statusFromResponse, TABLE_ACCEPT } from '../client/rest';
import { isTable, TablePrinter, type Table } from '../printers/table';
import { GenericPrinter, parseOutputFormat, type OutputFormat } from '../printers/output';
import { KUBECTL_TABWRITER, TabWriter } from '../printers/tabWriter';
import { JsonPath, relaxedJsonPathExpression } from '../jsonpath/jsonpath';
import { aggregate, kindString, namespaceForObject, readFileObjects, resolveArgs, resourcePath, type Ref } from '../resource/builder';
import { isLessValue } from './sorting';
import { goSortArray } from '../util/goSort';
import { humanDuration, parseTime } from '../util/duration';

type Obj = Record<string, any>;

export const PRINT_FLAGS: FlagDef[] = [
  { name: 'output', shorthand: 'o', kind: 'string' },
  { name: 'template', kind: 'string' },
  { name: 'allow-missing-template-keys', kind: 'bool', default: true },
  { name: 'show-managed-fields', kind: 'bool' },
];

export const GET_FLAGS: FlagDef[] = [
  ...PRINT_FLAGS,
  { name: 'no-headers', kind: 'bool' },
  { name: 'show-labels', kind: 'bool' },
  { name: 'show-kind', kind: 'bool' },
  { name: 'label-columns', shorthand: 'L', kind: 'stringSlice' },
  { name: 'sort-by', kind: 'string' },
  { name: 'raw', kind: 'string' },
  { name: 'watch', shorthand: 'w', kind: 'bool' },
  { name: 'watch-only', kind: 'bool' },
  { name: 'output-watch-events', kind: 'bool' },
  { name: 'chunk-size', kind: 'int', default: 500 },
  { name: 'ignore-not-found', kind: 'bool' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'field-selector', kind: 'string' },
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'filename', shorthand: 'f', kind: 'stringSlice' },
  { name: 'recursive', shorthand: 'R', kind: 'bool' },
  { name: 'kustomize', shorthand: 'k', kind: 'string' },
  { name: 'server-print', kind: 'bool', default: true },
  { name: 'use-openapi-print-columns', kind: 'bool' },
  { name: 'subresource', kind: 'string' },
];

interface Info {
  mapping: Mapping;
  namespace?: string;
  name?: string;
  object: Obj;
}

/** A Table for something the server did not print (HumanReadablePrinter's default handler: NAME, AGE). */
function defaultTable(objs: Obj[], now: number): Table {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name' },
      { name: 'Age', type: 'string' },
    ],
    rows: objs.map((o) => {
      const t = parseTime(o.metadata?.creationTimestamp);
      return { cells: [o.metadata?.name ?? '', t === undefined ? '<unknown>' : humanDuration(now - t)], object: o };
    }),
  };
}

function listItems(list: Obj): Obj[] {
  const listKind = String(list.kind ?? '');
  const kind = listKind.endsWith('List') ? listKind.slice(0, -4) : listKind;
  return ((list.items as Obj[]) ?? []).map((i) => ({ apiVersion: i.apiVersion ?? list.apiVersion, kind: i.kind ?? kind, ...i }));
}

export async function runGet(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const outputOpt = getString(f, 'output');
  const sortBy = getString(f, 'sort-by');
  const watch = getBool(f, 'watch');
  const watchOnly = getBool(f, 'watch-only');
  const allNamespaces = getBool(f, 'all-namespaces');
  const filenames = getStrings(f, 'filename');
  const raw = getString(f, 'raw');
  if (raw) {
    if (args.length > 0) fail(errs.plain('arguments may not be passed when --raw is specified'));
    const res = await ctx.client.raw('GET', raw.split('?')[0]!, { query: Object.fromEntries(new URLSearchParams(raw.split('?')[1] ?? '')) });
    if (res.status < 200 || res.status > 299) fail(errs.status(statusFromResponse(res, 'GET')));
    ctx.io.out(res.body);
    return;
  }
  if (!watch && !watchOnly && args.length === 0 && filenames.length === 0) {
    ctx.io.err('You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\n');
    fail(errs.usage('Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).', ctx.commandPath));
  }
  if (getBool(f, 'show-labels') && outputOpt !== '' && outputOpt !== 'wide') fail(errs.plain(`--show-labels option cannot be used with ${outputOpt} printer`));
  if (getBool(f, 'output-watch-events') && !(watch || watchOnly)) fail(errs.usage('--output-watch-events option can only be used with --watch or --watch-only', ctx.commandPath));
  if ((watch || watchOnly) && sortBy) ctx.io.err('warning: --watch or --watch-only requested, --sort-by will be ignored\n');
  const format = parseOutputFormat(outputOpt, ctx.env.files, { template: getString(f, 'template') });
  const humanReadable = format.type === 'table';
  const serverPrint = getBool(f, 'server-print') && humanReadable;
  const selector = getString(f, 'selector');
  const fieldSelector = getString(f, 'field-selector');

  // resolve targets
  let refs: (Ref & { namespace?: string })[];
  let singleItemImplied: boolean;
  if (filenames.length > 0) {
    const objs = await readFileObjects(ctx, filenames, { recursive: getBool(f, 'recursive') });
    refs = objs.map((o) => ({ mapping: o.mapping, name: o.object.metadata.name, namespace: namespaceForObject(ctx, o) }));
    singleItemImplied = refs.length === 1;
  } else {
    const r = await resolveArgs(ctx, args);
    refs = r.refs;
    singleItemImplied = r.singleItemImplied;
    if (allNamespaces && r.byName) fail(errs.plain('a resource cannot be retrieved by name across all namespaces'));
  }
  const nsFor = (ref: Ref & { namespace?: string }) => (ref.mapping.namespaced ? (ref.namespace ?? (allNamespaces ? undefined : ctx.namespace)) : undefined);

  if (watch || watchOnly) return runWatch(ctx, refs, nsFor, format, serverPrint);

  const accept = serverPrint ? TABLE_ACCEPT : 'application/json';
  const infos: Info[] = [];
  const errors: KubectlErr[] = [];
  const ignoreNotFound = getBool(f, 'ignore-not-found');
  for (const ref of refs) {
    const ns = nsFor(ref);
    const query: Record<string, string> = {};
    if (ref.name === undefined) {
      if (selector) query.labelSelector = selector;
      if (fieldSelector) query.fieldSelector = fieldSelector;
      const chunk = sortBy ? 0 : getInt(f, 'chunk-size');
      if (chunk > 0) query.limit = String(chunk);
    }
    if (serverPrint && sortBy) query.includeObject = 'Object';
    const res = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns, ref.name), { accept, query });
    if (!res.ok) {
      if (ignoreNotFound && res.status.reason === 'NotFound') continue;
      errors.push(errs.status(res.status));
      continue;
    }
    let body = res.value;
    // follow continue tokens like the builder's chunked list
    while (ref.name === undefined && typeof body.metadata?.continue === 'string' && body.metadata.continue !== '') {
      const next = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns), { accept, query: { ...query, continue: body.metadata.continue } });
      if (!next.ok) {
        errors.push(errs.status(next.status));
        break;
      }
      const prev: Obj = body;
      const nv: Obj = next.value;
      if (isTable(prev) && isTable(nv)) body = { ...nv, rows: [...(prev.rows ?? []), ...(nv.rows ?? [])] };
      else body = { ...nv, items: [...((prev as Obj).items ?? []), ...((nv as Obj).items ?? [])] };
    }
    if (!humanReadable && ref.name === undefined && Array.isArray(body.items)) {
      for (const item of listItems(body)) infos.push({ mapping: ref.mapping, namespace: ns, name: item.metadata?.name, object: item });
    } else infos.push({ mapping: ref.mapping, namespace: ns, name: ref.name, object: body });
  }

  if (!humanReadable) {
    // printGeneric: a failed single-item get returns its error and prints nothing (no empty jsonpath or template).
    if (singleItemImplied && errors.length > 0) fail(aggregate(errors)!);
    if (infos.length === 0 && ignoreNotFound) {
      const e0 = aggregate(errors);
      if (e0) fail(e0);
      return;
    }
    printGeneric(ctx, format as Exclude<OutputFormat, { type: 'table' }>, infos, singleItemImplied, sortBy);
    const e = aggregate(errors);
    if (e) fail(e);
    return;
  }

  // With several infos (named objects, several kinds), get.go's RuntimeSorter
  // sorts the Table objects themselves, before any row: a path no Table has
  // (.metadata.name) fails the whole get.
  if (sortBy && infos.length > 1 && infos.every((i) => isTable(i.object))) {
    const { field, jp } = sortByPath(sortBy);
    if (!infos.some((i) => jp.findResults(i.object).some((r) => r.length > 0))) fail(errs.plain(`couldn't find any field with path "${field}" in the list of objects`));
  }

  // human-readable: one TablePrinter per resource type
  const kinds = new Set(infos.map((i) => `${i.mapping.group}/${i.mapping.version}/${i.mapping.kind}`));
  const printWithKind = (infos.length >= 2 && kinds.size > 1) || getBool(f, 'show-kind');
  let written = 0;
  let ready = false;
  const sink = (text: string) => {
    if (text.length > 0 && ready) {
      ctx.io.out('\n');
      written += 1;
      ready = false;
    }
    written += text.length;
    ctx.io.out(text);
  };
  const tw = new TabWriter(KUBECTL_TABWRITER, sink);
  let printer: TablePrinter | null = null;
  let last: Mapping | null = null;
  let allNamespaced = !allNamespaces;
  const noHeaders = getBool(f, 'no-headers');
  for (const info of infos) {
    allNamespaced = allNamespaced && info.mapping.namespaced;
    if (!printer || !last || last.resource !== info.mapping.resource || last.group !== info.mapping.group) {
      tw.flush();
      tw.setRememberedWidths(null);
      if (last && !noHeaders && written > 0) ready = true;
      printer = new TablePrinter({
        noHeaders,
        wide: format.type === 'table' && format.wide,
        withNamespace: allNamespaces && info.mapping.namespaced,
        withKind: printWithKind,
        kind: kindString(info.mapping),
        showLabels: getBool(f, 'show-labels'),
        columnLabels: getStrings(f, 'label-columns'),
      });
      last = info.mapping;
    }
    let table: Table = isTable(info.object) ? (info.object as Table) : defaultTable(info.object.items ? listItems(info.object) : [info.object], ctx.now());
    if (sortBy) table = sortTable(table, sortBy);
    printer.print(table, tw);
  }
  tw.flush();
  if (written === 0 && !ignoreNotFound && errors.length === 0) {
    ctx.io.err(allNamespaced ? `No resources found in ${ctx.namespace} namespace.\n` : 'No resources found\n');
  }
  const e = aggregate(errors);
  if (e) fail(e);
}

function sortTable(table: Table, sortBy: string): Table {
  let field: string;
  let jp: JsonPath;
  try {
    ({ field, jp } = sortByPath(sortBy));
  } catch (e) {
    return fail(errs.plain(`sorting error: ${(e as Error).message}`));
  }
  const rows = table.rows ?? [];
  const parsed = rows.map((r) => jp.findResults(r.object ?? {}));
  if (rows.length > 0 && !parsed.some((p) => p.length > 0 && p[0]!.length > 0)) fail(errs.plain(`couldn't find any field with path "${field}" in the list of objects`));
  const idx = rows.map((_, i) => i);
  const first = (i: number) => (parsed[i]!.length > 0 && parsed[i]![0]!.length > 0 ? parsed[i]![0]![0] : undefined);
  const has = (i: number) => parsed[i]!.length > 0 && parsed[i]![0]!.length > 0;
  // TableSorter.Less through sort.Sort: a row without the field is less than any, itself included.
  goSortArray(idx, (a, b) => (!has(a) ? true : !has(b) ? false : isLessValue(first(a), first(b))));
  return { ...table, rows: idx.map((i) => rows[i]!) };
}

/** --sort-by's path as RuntimeSorter reads it (relaxed, missing keys allowed), parsed. */
function sortByPath(sortBy: string): { field: string; jp: JsonPath } {
  let field: string;
  try {
    field = relaxedJsonPathExpression(sortBy);
  } catch {
    field = sortBy;
  }
  const jp = new JsonPath();
  jp.allowMissingKeys = true;
  jp.parse(field);
  return { field, jp };
}

function printGeneric(ctx: Ctx, format: Exclude<OutputFormat, { type: 'table' }>, infosIn: Info[], singleItemImplied: boolean, sortBy: string): void {
  const f = ctx.flags;
  let infos = infosIn;
  if (sortBy && infos.length > 1) {
    const { field, jp } = sortByPath(sortBy);
    const vals = infos.map((i) => jp.findResults(i.object));
    if (!vals.some((v) => v.length > 0 && v[0]!.length > 0)) fail(errs.plain(`couldn't find any field with path "${field}" in the list of objects`));
    const first = (i: number) => vals[i]![0]?.[0];
    const has = (i: number) => vals[i]!.length > 0 && vals[i]![0]!.length > 0;
    const order = infos.map((_, i) => i);
    goSortArray(order, (a, b) => (!has(a) ? true : !has(b) ? false : isLessValue(first(a), first(b))));
    infos = order.map((i) => infos[i]!);
  }
  const printer = new GenericPrinter(format, { noHeaders: getBool(f, 'no-headers'), showManagedFields: getBool(f, 'show-managed-fields'), allowMissingKeys: getBool(f, 'allow-missing-template-keys') });
  let obj: Obj;
  if (singleItemImplied && infos.length === 1) obj = infos[0]!.object;
  else obj = { apiVersion: 'v1', items: infos.map((i) => i.object), kind: 'List', metadata: { resourceVersion: '' } };
  ctx.io.out(printer.print(obj));
}

// ---------- watch

async function runWatch(ctx: Ctx, refs: (Ref & { namespace?: string })[], nsFor: (r: Ref & { namespace?: string }) => string | undefined, format: OutputFormat, serverPrint: boolean): Promise<void> {
  const f = ctx.flags;
  if (refs.length === 0) fail(errs.plain('you must provide one or more resources by argument or filename'));
  const kinds = new Set(refs.map((r) => `${r.mapping.group}/${r.mapping.resource}`));
  if (kinds.size > 1) fail(errs.plain('you may only specify a single resource type'));
  if (refs.filter((r) => r.name !== undefined).length > 1) fail(errs.plain('watch is only supported on individual resources and resource collections - more than 1 resource was found'));
  const ref = refs[0]!;
  const ns = nsFor(ref);
  const accept = serverPrint ? TABLE_ACCEPT : 'application/json';
  const selector = getString(f, 'selector');
  const fieldSelector = getString(f, 'field-selector');
  const query: Record<string, string> = {};
  if (ref.name === undefined) {
    if (selector) query.labelSelector = selector;
    if (fieldSelector) query.fieldSelector = fieldSelector;
  } else query.fieldSelector = `metadata.name=${ref.name}`;
  const first = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns, ref.name), { accept, query: ref.name === undefined ? query : {} });
  if (!first.ok) fail(errs.status(first.status));
  const outputEvents = getBool(f, 'output-watch-events');
  const watchOnly = getBool(f, 'watch-only');
  const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
  const tablePrinter = format.type === 'table' ? new TablePrinter({ noHeaders: getBool(f, 'no-headers'), wide: format.wide, withNamespace: ref.mapping.namespaced && ns === undefined, withKind: false, kind: kindString(ref.mapping), showLabels: getBool(f, 'show-labels'), columnLabels: getStrings(f, 'label-columns') }) : null;
  const generic = format.type === 'table' ? null : new GenericPrinter(format, { noHeaders: getBool(f, 'no-headers'), showManagedFields: getBool(f, 'show-managed-fields') });
  const printOne = (o: Obj, eventType?: string) => {
    if (tablePrinter) {
      const table = isTable(o) ? (o as Table) : defaultTable([o], ctx.now());
      tablePrinter.print(table, tw, eventType);
      tw.flush();
    } else ctx.io.out(generic!.print(eventType !== undefined ? { type: eventType, object: o } : o));
  };
  const isList = ref.name === undefined;
  let rv = '0';
  let output = !watchOnly;
  // skipPrinter: suppressed tables still pass their columns on (rows dropped)
  if (!output && tablePrinter && isTable(first.value)) tablePrinter.print({ ...(first.value as Table), rows: [] }, tw);
  if (output) {
    const body = first.value;
    if (isList) {
      if (isTable(body)) {
        const rows = body.rows ?? [];
        if (outputEvents) for (const r of rows) printOne({ ...body, rows: [r] }, 'ADDED');
        else printOne(body);
      } else for (const item of listItems(body)) printOne(item, outputEvents ? 'ADDED' : undefined);
    } else printOne(body, outputEvents ? 'ADDED' : undefined);
  }
  if (isList) {
    rv = String(first.value.metadata?.resourceVersion ?? '0');
    output = true;
  } else output = false;
  const wquery: Record<string, string> = { ...query, watch: 'true', resourceVersion: rv };
  let failure: KubectlFailure | null = null;
  const handle = ctx.client.watch(resourcePath(ref.mapping, ns), { accept, query: wquery }, (line) => {
    if (failure) return;
    let ev: Obj;
    try {
      ev = JSON.parse(line) as Obj;
    } catch {
      return;
    }
    if (ev.type === 'BOOKMARK') return;
    if (ev.type === 'ERROR') {
      failure = new KubectlFailure(errs.status(ev.object));
      return;
    }
    const evType = outputEvents ? String(ev.type) : undefined;
    if (output) printOne(ev.object as Obj, evType);
    else if (tablePrinter && isTable(ev.object)) {
      tablePrinter.print({ ...(ev.object as Table), rows: [] }, tw, evType);
      tw.flush();
    }
    output = true;
  });
  const interrupted = ctx.env.interrupt ? ctx.env.interrupt.then(() => 'interrupt' as const) : new Promise<never>(() => undefined);
  const result = await Promise.race([handle.done, interrupted]);
  if (result === 'interrupt') handle.cancel();
  if (failure) throw failure;
  if (result && result !== 'interrupt' && result.status >= 300) fail(errs.status(statusFromResponse(result, 'GET')));
}
