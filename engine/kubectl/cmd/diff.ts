// kubectl diff (staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go): each object
// of the files as it is live and as it would be after `kubectl apply` (the
// apply patch, or a create, sent as a server dry run), both as YAML without
// managedFields and with a Secret's data masked, compared as `diff -u -N
// LIVE-<n>/<file> MERGED-<n>/<file>` would print them, in file-name order.
// Exit status 0: no differences; 1: differences; 2: an error.
import type { JsonObject } from '../../apimachinery/types';
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getStrings } from '../cli/flags';
import { errs, fail, formatError, KubectlFailure } from '../client/errors';
import { goJsonCompact } from '../printers/goJson';
import { stripManagedFields } from '../printers/output';
import { namespaceForObject, readFileObjects, resourcePath, type FileObject } from '../resource/builder';
import { toYaml } from '../yaml/emit';
import { unifiedHunks } from '../util/unifiedDiff';
import { applyPatch, modifiedConfiguration } from './apply';
import { FILENAME_FLAGS } from './common';

type Obj = Record<string, any>;

export const DIFF_FLAGS: FlagDef[] = [
  ...FILENAME_FLAGS,
  { name: 'server-side', kind: 'bool' },
  { name: 'field-manager', kind: 'string', default: 'kubectl-client-side-apply' },
  { name: 'force-conflicts', kind: 'bool' },
  { name: 'prune', kind: 'bool' },
  { name: 'prune-allowlist', kind: 'stringArray' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'concurrency', kind: 'int', default: 1 },
  { name: 'show-managed-fields', kind: 'bool' },
];

/** InfoObject.Name(): [group.]version.kind.namespace.name. */
function fileName(fo: FileObject, ns: string | undefined): string {
  const m = fo.mapping;
  return `${m.group ? `${m.group}.` : ''}${m.version}.${m.kind}.${ns ?? ''}.${fo.object.metadata.name ?? ''}`;
}

/** The Masker: a Secret's values become *** (or *** (before) / *** (after) where they differ). */
function maskSecrets(live: Obj | null, merged: Obj | null): void {
  const isSecret = (o: Obj | null) => o?.kind === 'Secret' && (o.apiVersion === 'v1' || o.apiVersion === undefined);
  if (!isSecret(live) && !isSecret(merged)) return;
  const from: Record<string, unknown> = live?.data ?? {};
  const to: Record<string, unknown> = merged?.data ?? {};
  for (const k of Object.keys(from)) {
    if (k in to && from[k] !== to[k]) {
      from[k] = '*** (before)';
      to[k] = '*** (after)';
      continue;
    }
    if (k in to) to[k] = '***';
    from[k] = '***';
  }
  for (const k of Object.keys(to)) if (!(k in from)) to[k] = '***';
}

/** The live object (null when absent) and what apply would make of it, by a server dry run. */
async function liveAndMerged(ctx: Ctx, fo: FileObject): Promise<{ ns: string | undefined; live: Obj | null; merged: Obj }> {
  const ns = namespaceForObject(ctx, fo);
  const obj = fo.object as Obj;
  if (ns) obj.metadata.namespace = ns;
  // The patcher diff builds sets no field validation: the server's default applies.
  const query = { fieldManager: 'kubectl-client-side-apply', dryRun: 'All' };
  const name = obj.metadata.name ?? '';
  const g = await ctx.client.tryJson<Obj>('GET', resourcePath(fo.mapping, ns, name));
  if (!g.ok && g.status.reason !== 'NotFound') fail(errs.status(g.status));
  if (!g.ok) {
    const r = await ctx.client.tryJson<Obj>('POST', resourcePath(fo.mapping, ns), { body: `${goJsonCompact(obj)}\n`, query });
    if (!r.ok) fail(errs.status(r.status));
    return { ns, live: null, merged: r.value };
  }
  // The apply patch without recording the configuration (GetModifiedConfiguration with annotate=false).
  const { body, contentType } = applyPatch(fo, g.value, JSON.parse(modifiedConfiguration(obj, false)) as JsonObject, true);
  if (body === '{}') return { ns, live: g.value, merged: g.value };
  const r = await ctx.client.tryJson<Obj>('PATCH', resourcePath(fo.mapping, ns, name), { body, contentType, query });
  if (!r.ok) fail(errs.status(r.status));
  return { ns, live: g.value, merged: r.value };
}

/** A directory name as os.MkdirTemp makes one (its random part from the clock here). */
const tempDir = (prefix: string, seed: number) => `/tmp/${prefix}-${(Math.imul(Math.floor(seed) ^ 0x9e3779b9, 2654435761) >>> 0).toString()}`;

/** A file's modification time as GNU diff prints it. */
function mtime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23)}000000 +0000`;
}

export async function runDiff(ctx: Ctx): Promise<void> {
  let differ: boolean;
  try {
    differ = await diff(ctx);
  } catch (e) {
    // CheckDiffErr: kubectl's own failures exit 2 (1 is "differences found").
    if (e instanceof KubectlFailure && e.err.type !== 'Exit') {
      const { text, exitCode } = formatError(e.err);
      fail(errs.raw(text, exitCode + 1));
    }
    throw e;
  }
  if (differ) fail(errs.raw('', 1));
}

/** Prints the differences; whether there were any. */
async function diff(ctx: Ctx): Promise<boolean> {
  const f = ctx.flags;
  const files = getStrings(f, 'filename');
  if (files.length === 0) fail(errs.plain('must specify one of -f and -k'));
  if (getBool(f, 'server-side')) fail(errs.plain('server-side apply is not available in this simulation; use client-side apply'));
  const objs = await readFileObjects(ctx, files, { recursive: getBool(f, 'recursive') });
  const now = ctx.now();
  const liveDir = tempDir('LIVE', now);
  const mergedDir = tempDir('MERGED', now + 1);
  const pairs: { name: string; before: string; after: string }[] = [];
  const yaml = (o: Obj | null) => (o ? toYaml(getBool(f, 'show-managed-fields') ? o : stripManagedFields(o)) : '');
  for (const fo of objs) {
    const { ns, live, merged } = await liveAndMerged(ctx, fo);
    const before = live ? (JSON.parse(JSON.stringify(live)) as Obj) : null;
    const after = JSON.parse(JSON.stringify(merged)) as Obj;
    maskSecrets(before, after);
    pairs.push({ name: fileName(fo, ns), before: yaml(before), after: yaml(after) });
  }
  pairs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let differ = false;
  const stamp = mtime(now);
  for (const p of pairs) {
    const hunks = unifiedHunks(p.before, p.after);
    if (!hunks) continue;
    differ = true;
    const a = `${liveDir}/${p.name}`;
    const b = `${mergedDir}/${p.name}`;
    ctx.io.out(`diff -u -N ${a} ${b}\n--- ${a}\t${stamp}\n+++ ${b}\t${stamp}\n${hunks}`);
  }
  return differ;
}
