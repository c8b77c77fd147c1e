// kubectl describe (staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go):
// each object through its describer, separated by a blank line; a NotFound
// for `TYPE NAME` falls back to describing every object whose name starts with NAME.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, getStrings } from '../cli/flags';
import { errs, fail, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { describeObject, type DescribeDeps } from '../describe/describers';
import { aggregate, namespaceForObject, readFileObjects, resolveArgs, resourcePath } from '../resource/builder';

type Obj = Record<string, any>;

export const DESCRIBE_FLAGS: FlagDef[] = [
  { name: 'filename', shorthand: 'f', kind: 'stringSlice' },
  { name: 'recursive', shorthand: 'R', kind: 'bool' },
  { name: 'kustomize', shorthand: 'k', kind: 'string' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'show-events', kind: 'bool', default: true },
  { name: 'chunk-size', kind: 'int', default: 500 },
];

interface Target {
  mapping: Mapping;
  namespace?: string;
  name: string;
}

export async function runDescribe(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const files = getStrings(f, 'filename');
  const allNs = getBool(f, 'all-namespaces');
  if (args.length === 0 && files.length === 0) fail(errs.plain('You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.'));
  const deps: DescribeDeps = { client: ctx.client, now: ctx.now(), showEvents: getBool(f, 'show-events'), chunkSize: getInt(f, 'chunk-size') };
  const selector = getString(f, 'selector');
  const targets: Target[] = [];
  const errors: KubectlErr[] = [];
  if (files.length > 0) {
    for (const o of await readFileObjects(ctx, files, { recursive: getBool(f, 'recursive') })) {
      const ns = namespaceForObject(ctx, o);
      const r = await ctx.client.tryJson<Obj>('GET', resourcePath(o.mapping, ns, o.object.metadata.name));
      if (!r.ok) errors.push(errs.status(r.status));
      else targets.push({ mapping: o.mapping, namespace: ns, name: o.object.metadata.name! });
    }
  } else {
    const resolved = await resolveArgs(ctx, args);
    for (const ref of resolved.refs) {
      const ns = ref.mapping.namespaced ? (allNs ? undefined : ctx.namespace) : undefined;
      if (ref.name !== undefined) {
        const r = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns, ref.name));
        if (!r.ok) errors.push(errs.status(r.status));
        else targets.push({ mapping: ref.mapping, namespace: ns, name: ref.name });
        continue;
      }
      const query: Record<string, string> = { limit: String(getInt(f, 'chunk-size')) };
      if (selector) query.labelSelector = selector;
      const r = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns), { query });
      if (!r.ok) {
        errors.push(errs.status(r.status));
        continue;
      }
      for (const item of (r.value.items as Obj[]) ?? []) targets.push({ mapping: ref.mapping, namespace: item.metadata?.namespace, name: item.metadata.name });
    }
    // DescribeMatchingResources: `describe TYPE PREFIX`
    if (errors.length > 0 && errors.every((e) => e.type === 'StatusError' && e.status.reason === 'NotFound') && args.length === 2 && resolved.refs.length === 1) {
      const ref = resolved.refs[0]!;
      const ns = ref.mapping.namespaced ? (allNs ? undefined : ctx.namespace) : undefined;
      const r = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns), { query: { limit: String(getInt(f, 'chunk-size')) } });
      const matches = r.ok ? ((r.value.items as Obj[]) ?? []).filter((i) => String(i.metadata?.name ?? '').startsWith(ref.name!)) : [];
      if (matches.length === 0) fail(errors[0]!);
      const deps2 = deps;
      for (const i of matches) {
        const d = await describeObject(deps2, ref.mapping, i.metadata?.namespace, i.metadata.name);
        if (!d.ok) fail(errs.status(d.status));
        ctx.io.out(`${d.text}\n`);
      }
      return;
    }
  }
  let first = true;
  const seen = new Set<string>();
  for (const t of targets) {
    const r = await describeObject(deps, t.mapping, t.namespace, t.name);
    if (!r.ok) {
      const e = errs.status(r.status);
      if (!seen.has(r.status.message ?? '')) errors.push(e);
      seen.add(r.status.message ?? '');
      continue;
    }
    ctx.io.out(first ? r.text : `\n\n${r.text}`);
    first = false;
  }
  if (targets.length === 0 && errors.length === 0) ctx.io.err(allNs ? 'No resources found\n' : `No resources found in ${ctx.namespace} namespace.\n`);
  const e = aggregate(errors);
  if (e) fail(e);
}
