// kubectl explain (staging/src/k8s.io/kubectl/pkg/cmd/explain/explain.go,
// pkg/explain/explain.go SplitAndParseResourceRequestWithMatchingPrefix,
// pkg/explain/v2/explain.go): resolve TYPE[.field...], fetch the group-version's
// OpenAPI v3 document, render it.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString } from '../cli/flags';
import { errs, fail } from '../client/errors';
import { ExplainError, renderExplain } from '../explain/render';

type Obj = Record<string, any>;

export const EXPLAIN_FLAGS: FlagDef[] = [
  { name: 'recursive', kind: 'bool' },
  { name: 'api-version', kind: 'string' },
  { name: 'output', shorthand: 'o', kind: 'string', default: 'plaintext' },
];

export async function runExplain(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  if (args.length === 0) fail(errs.plain('You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n'));
  if (args.length > 1) fail(errs.plain(`We accept only this format: explain RESOURCE\n`));
  const output = getString(f, 'output');
  if (output !== 'plaintext' && output !== 'plaintext-openapiv2') fail(errs.plain(`unsupported output format: ${output}. Allowed formats: plaintext, plaintext-openapiv2`));
  await ctx.discovery.load();
  const parts = args[0]!.split('.');
  let mapping;
  let fieldPath: string[] = [];
  for (let i = parts.length; i > 0; i--) {
    const m = ctx.discovery.mappingFor(parts.slice(0, i).join('.'));
    if (m) {
      mapping = m;
      fieldPath = parts.slice(i);
      break;
    }
  }
  if (!mapping) fail({ type: 'Raw', message: `the server doesn't have a resource type "${parts[0]}"` });
  let group = mapping.group;
  let version = mapping.version;
  const apiVersion = getString(f, 'api-version');
  if (apiVersion) {
    const i = apiVersion.indexOf('/');
    group = i < 0 ? '' : apiVersion.slice(0, i);
    version = i < 0 ? apiVersion : apiVersion.slice(i + 1);
  }
  const index = await ctx.client.tryJson<Obj>('GET', '/openapi/v3');
  if (!index.ok) fail(errs.plain(`failed to fetch list of groupVersions: ${index.status.message ?? ''}`));
  const key = group ? `apis/${group}/${version}` : `api/${version}`;
  const entry = index.value.paths?.[key];
  if (!entry) fail(errs.plain(`couldn't find resource for "${group ? `${group}/${version}` : version}, Resource=${mapping.resource}"`));
  const url = String(entry.serverRelativeURL ?? `/openapi/v3/${key}`);
  const [p, q] = url.split('?') as [string, string | undefined];
  const doc = await ctx.client.tryJson<Obj>('GET', p, { query: Object.fromEntries(new URLSearchParams(q ?? '')) });
  if (!doc.ok) fail(errs.plain(`failed to fetch openapi schema for ${key}: ${doc.status.message ?? ''}`));
  try {
    ctx.io.out(renderExplain(doc.value, { group, version, resource: mapping.resource }, fieldPath, getBool(f, 'recursive')));
  } catch (e) {
    if (e instanceof ExplainError) {
      ctx.io.out(e.partial);
      fail({ type: 'Raw', message: e.message });
    }
    throw e;
  }
}
