// kubectl edit (staging/src/k8s.io/kubectl/pkg/cmd/util/editor/editoptions.go):
// the objects as YAML under kubectl's header; the edited text becomes a
// two-way strategic merge patch (JSON merge patch without patch metadata);
// invalid edits reopen the buffer with the reasons in the header.
import type { JsonObject } from '../../apimachinery/types';
import { createMergePatch, createTwoWayMergePatch, patchMetaFor } from '../../apimachinery/patch';
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getString, getStrings } from '../cli/flags';
import { errs, fail } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { goJsonCompact, goJsonIndent } from '../printers/goJson';
import { nameLine } from '../printers/output';
import { toYaml } from '../yaml/emit';
import { parseManifests } from '../yaml/parse';
import { namespaceForObject, readFileObjects, resolveArgs, resourcePath } from '../resource/builder';
import type { EditRequest, KubectlResult } from '../types';
import { FILENAME_FLAGS, VALIDATE_FLAG, validationDirective } from './common';

type Obj = Record<string, any>;

export const EDIT_FLAGS: FlagDef[] = [
  ...FILENAME_FLAGS,
  VALIDATE_FLAG,
  { name: 'output', shorthand: 'o', kind: 'string' },
  { name: 'output-patch', kind: 'bool' },
  { name: 'windows-line-endings', kind: 'bool' },
  { name: 'save-config', kind: 'bool' },
  { name: 'field-manager', kind: 'string', default: 'kubectl-edit' },
  { name: 'subresource', kind: 'string' },
  { name: 'show-managed-fields', kind: 'bool' },
  { name: 'allow-missing-template-keys', kind: 'bool', default: true },
  { name: 'template', kind: 'string' },
];

const HEADER = "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n";

interface EditTarget {
  mapping: Mapping;
  namespace?: string;
  name: string;
  original: Obj;
}

interface Reason {
  head: string;
  other: string[];
}

function stripManaged(o: Obj): Obj {
  const c = JSON.parse(JSON.stringify(o)) as Obj;
  if (c.metadata) delete c.metadata.managedFields;
  return c;
}

function header(reasons: Reason[]): string {
  let s = HEADER;
  for (const r of reasons) {
    s += r.other.length > 0 ? `# ${r.head.replace(/\n/g, '\n# ')}:\n` : `# ${r.head.replace(/\n/g, '\n# ')}\n`;
    for (const o of r.other) s += `# * ${o.replace(/\n/g, '\n# ')}\n`;
    s += '#\n';
  }
  return s;
}

function render(targets: EditTarget[], json: boolean): string {
  const objs = targets.map((t) => stripManaged(t.original));
  const body = objs.length === 1 ? objs[0]! : { apiVersion: 'v1', items: objs, kind: 'List', metadata: {} };
  return HEADER + (json ? `${goJsonIndent(body)}\n` : toYaml(body));
}

/** cmdutil.ManualStrip: drop comment lines (not #! lines). */
function manualStrip(text: string): string {
  return text
    .split('\n')
    .filter((l) => {
      const t = l.trim();
      return !(t.startsWith('#') && !t.startsWith('#!'));
    })
    .join('\n');
}

/** cmdutil.StripComments: the JSON of the YAML when it parses, else the text without comment lines. */
function stripComments(text: string): string {
  const p = parseManifests(text);
  return p.ok ? JSON.stringify(p.docs) : manualStrip(text);
}

/** A stable temp file name, as kubectl's editor would use one per session. */
function tempPath(now: number, json: boolean): string {
  return `/tmp/kubectl-edit-${String(Math.abs(Math.floor(now)) % 10_000_000_000).padStart(10, '0')}.${json ? 'json' : 'yaml'}`;
}

export async function runEdit(ctx: Ctx, args: string[]): Promise<{ edit: EditRequest }> {
  const f = ctx.flags;
  const output = getString(f, 'output') || 'yaml';
  if (output !== 'yaml' && output !== 'json') fail(errs.plain(`the edit mode doesn't support output format ${output}`));
  const json = output === 'json';
  const targets: EditTarget[] = [];
  const files = getStrings(f, 'filename');
  if (args.length === 0 && files.length === 0) fail(errs.plain("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"));
  const refs: { mapping: Mapping; namespace?: string; name?: string }[] = [];
  if (files.length > 0) for (const fo of await readFileObjects(ctx, files)) refs.push({ mapping: fo.mapping, namespace: namespaceForObject(ctx, fo), name: fo.object.metadata.name });
  else for (const r of (await resolveArgs(ctx, args)).refs) refs.push({ mapping: r.mapping, namespace: r.mapping.namespaced ? ctx.namespace : undefined, name: r.name });
  for (const ref of refs) {
    if (ref.name === undefined) {
      const l = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ref.namespace));
      if (!l.ok) fail(errs.status(l.status));
      const kind = ref.mapping.kind;
      for (const i of (l.value.items as Obj[]) ?? []) targets.push({ mapping: ref.mapping, namespace: i.metadata?.namespace, name: i.metadata.name, original: { apiVersion: l.value.apiVersion, kind, ...i } });
      continue;
    }
    const g = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ref.namespace, ref.name));
    if (!g.ok) fail(errs.status(g.status));
    targets.push({ mapping: ref.mapping, namespace: ref.namespace, name: ref.name, original: g.value });
  }
  if (targets.length === 0) fail(errs.plain('edit cancelled, no objects found'));
  const path = tempPath(ctx.now(), json);
  return { edit: makeRequest(ctx, targets, render(targets, json), path, json, false) };
}

function makeRequest(ctx: Ctx, targets: EditTarget[], content: string, path: string, json: boolean, retried: boolean): EditRequest {
  return { path, content, resume: (edited: string) => resume(ctx, targets, content, edited, path, json, retried) };
}

async function resume(ctx: Ctx, targets: EditTarget[], shown: string, edited: string, path: string, json: boolean, retried: boolean): Promise<KubectlResult> {
  const io = ctx.io;
  io.stdout = '';
  io.stderr = '';
  const done = (exitCode: number, edit?: EditRequest): KubectlResult => ({ stdout: io.stdout, stderr: io.stderr, exitCode, ...(edit ? { edit } : {}) });
  const reopen = (reasons: Reason[]) => done(0, makeRequest(ctx, targets, header(reasons) + manualStrip(edited), path, json, true));
  if (stripComments(shown) === stripComments(edited)) {
    if (retried) {
      io.err(`A copy of your changes has been stored to "${path}"\nerror: Edit cancelled, no valid changes were saved.\n`);
      return done(1);
    }
    io.err('Edit cancelled, no changes made.\n');
    return done(0);
  }
  if (manualStrip(edited).trim() === '') {
    io.err('Edit cancelled, saved file was empty.\n');
    return done(0);
  }
  const parsed = parseManifests(edited);
  if (!parsed.ok) return reopen([{ head: `The edited file had a syntax error: error parsing edited-file: ${parsed.message}`, other: [] }]);
  const doc = (parsed.docs[0] ?? {}) as Obj;
  if (typeof doc.kind !== 'string' || doc.kind === '') return reopen([{ head: `The edited file had a syntax error: unable to decode "edited-file": Object 'Kind' is missing in '${goJsonCompact(doc)}'`, other: [] }]);
  const editedObjs: Obj[] = doc.kind === 'List' ? ((doc.items as Obj[]) ?? []) : [doc];
  await ctx.discovery.load();
  for (const e of editedObjs) {
    const gv = String(e.apiVersion ?? '');
    const g = gv.includes('/') ? gv.slice(0, gv.indexOf('/')) : '';
    const v = gv.includes('/') ? gv.slice(gv.indexOf('/') + 1) : gv;
    if (!ctx.discovery.mappingForKind(g, v, String(e.kind))) {
      return reopen([{ head: `The edited file had a syntax error: resource mapping not found for name: "${e.metadata?.name ?? ''}" namespace: "${e.metadata?.namespace ?? ''}" from "edited-file": no matches for kind "${e.kind}" in version "${gv}"\nensure CRDs are installed first`, other: [] }]);
    }
  }
  const reasons: Reason[] = [];
  let retryable = 0;
  let notFound = 0;
  for (let i = 0; i < editedObjs.length; i++) {
    const e = editedObjs[i]!;
    const t = targets.find((x) => x.name === e.metadata?.name && x.original.kind === e.kind) ?? (editedObjs.length === targets.length ? targets[i] : undefined);
    if (!t) continue;
    const orig = stripManaged(t.original) as JsonObject;
    const mod = e as JsonObject;
    const resString = t.mapping.group ? `${t.mapping.resource}.${t.mapping.group}` : t.mapping.resource;
    if (mod.apiVersion !== orig.apiVersion || mod.kind !== orig.kind || (mod.metadata as Obj | undefined)?.name !== (orig.metadata as Obj).name) {
      io.err(`A copy of your changes has been stored to "${path}"\nerror: At least one of apiVersion, kind and name was changed\n`);
      return done(1);
    }
    if (goJsonCompact(orig) === goJsonCompact(mod)) {
      io.out(nameLine(t.original, 'skipped'));
      continue;
    }
    const meta = patchMetaFor(t.mapping.group, t.mapping.version, t.mapping.kind);
    let body: string;
    let contentType: string;
    if (meta) {
      const p = createTwoWayMergePatch(orig, mod, meta);
      if (!p.ok) {
        io.err(`A copy of your changes has been stored to "${path}"\nerror: ${p.error}\n`);
        return done(1);
      }
      body = goJsonCompact(p.value);
      contentType = 'application/strategic-merge-patch+json';
    } else {
      body = goJsonCompact(createMergePatch(orig, mod));
      contentType = 'application/merge-patch+json';
    }
    const r = await ctx.client.tryJson<Obj>('PATCH', resourcePath(t.mapping, t.namespace, t.name), { body, contentType, query: { fieldManager: getString(ctx.flags, 'field-manager') || 'kubectl-edit', fieldValidation: validationDirective(ctx) } });
    if (!r.ok) {
      if (r.status.reason === 'Invalid') {
        reasons.push({ head: `${resString} "${t.name}" was not valid`, other: (r.status.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) });
        io.err(`error: ${resString} "${t.name}" is invalid\n`);
      } else if (r.status.reason === 'NotFound') {
        notFound++;
        io.err(`error: ${resString} "${t.name}" could not be found on the server\n`);
      } else {
        retryable++;
        io.err(`error: ${resString} "${t.name}" could not be patched: ${r.status.message ?? ''}\n`);
      }
      continue;
    }
    t.original = r.value;
    io.out(nameLine(r.value, 'edited'));
  }
  if (retryable > 0) {
    io.err(`You can run \`kubectl replace -f ${path}\` to try this update again.\n`);
    return done(1);
  }
  if (notFound > 0) {
    io.err(`The edits you made on deleted resources have been saved to "${path}"\n`);
    return done(1);
  }
  if (reasons.length > 0) return reopen(reasons);
  return done(0);
}
