// kubectl api-resources, api-versions, version, cluster-info, auth can-i /
// whoami, and events (staging/src/k8s.io/kubectl/pkg/cmd/apiresources/,
// version/, clusterinfo/, auth/cani.go, auth/whoami.go, events/).
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString, getStrings } from '../cli/flags';
import { errs, fail } from '../client/errors';
import { CLIENT_VERSION, GIT_COMMIT, KUSTOMIZE_VERSION, statusFromResponse } from '../client/rest';
import { gvString, partialResource } from '../client/discovery';
import { GenericPrinter, parseOutputFormat } from '../printers/output';
import { goJsonIndentOrdered } from '../printers/goJson';
import { toYaml } from '../yaml/emit';
import { KUBECTL_TABWRITER, TabWriter } from '../printers/tabWriter';
import { parseTime, timestampSince } from '../util/duration';
import { goSortArray } from '../util/goSort';
import { breakdownRule, combineResourceGroup, compactSortedRules, goSliceV, type Rule } from '../util/rbac';
import { resolveArgs } from '../resource/builder';

type Obj = Record<string, any>;

// ---------- api-resources

export const API_RESOURCES_FLAGS: FlagDef[] = [
  { name: 'output', shorthand: 'o', kind: 'string' },
  { name: 'no-headers', kind: 'bool' },
  { name: 'api-group', kind: 'string' },
  { name: 'namespaced', kind: 'bool', default: true },
  { name: 'verbs', kind: 'stringSlice' },
  { name: 'sort-by', kind: 'string' },
  { name: 'cached', kind: 'bool' },
  { name: 'categories', kind: 'stringSlice' },
];

export async function runApiResources(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  if (args.length > 0) fail(errs.usage(`unexpected arguments: [${args.join(' ')}]`, ctx.commandPath));
  const output = getString(f, 'output');
  if (output !== '' && output !== 'wide' && output !== 'name') fail(errs.plain(`--output ${output} is not available`));
  const sortBy = getString(f, 'sort-by');
  if (sortBy !== '' && sortBy !== 'name' && sortBy !== 'kind') fail(errs.plain(`--sort-by accepts only name or kind`));
  await ctx.discovery.load();
  const pref = new Map(ctx.discovery.groups.map((g) => [g.name, g.preferredVersion]));
  const group = getString(f, 'api-group');
  const verbs = getStrings(f, 'verbs');
  const cats = getStrings(f, 'categories');
  let rs = ctx.discovery.resources.filter((r) => !r.name.includes('/') && pref.get(r.group) === r.version);
  if (f.changed.has('api-group')) rs = rs.filter((r) => r.group === group);
  if (f.changed.has('namespaced')) rs = rs.filter((r) => r.namespaced === getBool(f, 'namespaced'));
  if (verbs.length > 0) rs = rs.filter((r) => verbs.every((v) => r.verbs.includes(v)));
  if (cats.length > 0) rs = rs.filter((r) => cats.every((c) => r.categories.includes(c)));
  const key = (r: (typeof rs)[number]) => (sortBy === 'name' ? r.name : sortBy === 'kind' ? r.kind : r.group);
  rs = [...rs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (output === 'name') {
    for (const r of rs) ctx.io.out(r.group ? `${r.name}.${r.group}\n` : `${r.name}\n`);
    return;
  }
  const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
  if (!getBool(f, 'no-headers')) tw.write(output === 'wide' ? 'NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\tVERBS\tCATEGORIES\n' : 'NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\n');
  for (const r of rs) {
    const cols = [r.name, r.shortNames.join(','), gvString(r.group, r.version), String(r.namespaced), r.kind];
    if (output === 'wide') cols.push([...r.verbs].sort().join(','), r.categories.join(','));
    tw.write(`${cols.join('\t')}\n`);
  }
  tw.flush();
}

export async function runApiVersions(ctx: Ctx, args: string[]): Promise<void> {
  if (args.length > 0) fail({ type: 'Raw', message: `error: unexpected arguments: [${args.join(' ')}]\nSee 'kubectl api-versions -h' for help and examples` });
  await ctx.discovery.load();
  const gvs = ctx.discovery.groups.flatMap((g) => g.versions.map((v) => gvString(g.name, v))).sort();
  ctx.io.out(gvs.map((g) => `${g}\n`).join(''));
}

// ---------- version

export const VERSION_FLAGS: FlagDef[] = [
  { name: 'client', kind: 'bool' },
  { name: 'output', shorthand: 'o', kind: 'string' },
];

export async function runVersion(ctx: Ctx): Promise<void> {
  const f = ctx.flags;
  const output = getString(f, 'output');
  if (output !== '' && output !== 'yaml' && output !== 'json') fail(errs.plain('--output must be \'yaml\' or \'json\''));
  const client = { major: '1', minor: '32', gitVersion: CLIENT_VERSION, gitCommit: GIT_COMMIT, gitTreeState: 'clean', buildDate: '2025-05-15T09:12:10Z', goVersion: 'go1.23.8', compiler: 'gc', platform: 'linux/amd64' };
  let server: Obj | undefined;
  let serverErr: ReturnType<typeof statusFromResponse> | undefined;
  if (!getBool(f, 'client')) {
    const r = await ctx.client.raw('GET', '/version');
    if (r.status >= 200 && r.status < 300) {
      const s = JSON.parse(r.body) as Obj;
      server = {};
      for (const k of ['major', 'minor', 'emulationMajor', 'emulationMinor', 'minCompatibilityMajor', 'minCompatibilityMinor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']) if (s[k] !== undefined) server[k] = s[k];
    }
    else serverErr = statusFromResponse(r, 'GET');
  }
  if (output === 'json' || output === 'yaml') {
    const v: Obj = { clientVersion: client, kustomizeVersion: KUSTOMIZE_VERSION };
    if (server) v.serverVersion = server;
    ctx.io.out(output === 'json' ? `${goJsonIndentOrdered(v, '  ')}\n` : `${toYaml(v)}\n`);
  } else {
    ctx.io.out(`Client Version: ${CLIENT_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`);
    if (server) ctx.io.out(`Server Version: ${server.gitVersion}\n`);
  }
  if (server) {
    const minor = Number(String(server.minor).replace(/\D.*$/, ''));
    if (Math.abs(minor - 32) > 1) ctx.io.err(`WARNING: version difference between client (1.32) and server (${server.major}.${minor}) exceeds the supported minor version skew of +/-1\n`);
  }
  if (serverErr) fail(errs.status(serverErr));
}

// ---------- cluster-info

export async function runClusterInfo(ctx: Ctx, args: string[]): Promise<void> {
  if (args[0] === 'dump') fail(errs.plain('"kubectl cluster-info dump" is not available in this simulation'));
  const server = ctx.env.server ?? 'https://127.0.0.1:6443';
  ctx.io.out(`Kubernetes control plane is running at ${server}\n`);
  const r = await ctx.client.tryJson<Obj>('GET', '/api/v1/namespaces/kube-system/services', { query: { labelSelector: 'kubernetes.io/cluster-service=true' } });
  if (!r.ok) fail(errs.status(r.status));
  for (const svc of (r.value.items as Obj[]) ?? []) {
    const name = svc.metadata?.labels?.['kubernetes.io/name'] ?? svc.metadata.name;
    const port = (svc.spec?.ports as Obj[] | undefined)?.[0];
    const proto = port?.name?.startsWith('https') || port?.port === 443 ? 'https:' : '';
    const portPart = port?.name ? `${port.name}` : String(port?.port ?? '');
    ctx.io.out(`${name} is running at ${server}/api/v1/namespaces/kube-system/services/${proto}${svc.metadata.name}:${portPart}/proxy\n`);
  }
  ctx.io.out("\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n");
}

// ---------- auth

export const CANI_FLAGS: FlagDef[] = [
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'quiet', shorthand: 'q', kind: 'bool' },
  { name: 'list', kind: 'bool' },
  { name: 'no-headers', kind: 'bool' },
  { name: 'subresource', kind: 'string' },
];

const NON_STANDARD = new Set(['users', 'groups', 'userextras', 'uids', 'serviceaccounts/token']);

function printRules(ctx: Ctx, status: Obj): void {
  if (status.incomplete) ctx.io.err(`warning: the list may be incomplete: ${status.evaluationError ?? ''}\n`);
  const broken: Rule[] = [];
  for (const rr of (status.resourceRules as Obj[]) ?? []) broken.push(...breakdownRule({ ...rr, nonResourceURLs: [] }));
  for (const nr of (status.nonResourceRules as Obj[]) ?? []) broken.push(...breakdownRule({ verbs: nr.verbs, nonResourceURLs: nr.nonResourceURLs }));
  const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
  if (!getBool(ctx.flags, 'no-headers')) tw.write('Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  for (const r of compactSortedRules(broken)) tw.write(`${combineResourceGroup(r)}\t${goSliceV(r.nonResourceURLs)}\t${goSliceV(r.resourceNames)}\t${goSliceV(r.verbs)}\n`);
  tw.flush();
}

export async function runCanI(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const allNs = getBool(f, 'all-namespaces');
  const namespace = allNs ? '' : ctx.namespace;
  if (getBool(f, 'list')) {
    const body = { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { namespace }, status: { resourceRules: null, nonResourceRules: null, incomplete: false } };
    const r = await ctx.client.tryJson<Obj>('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { body: `${JSON.stringify(body)}\n` });
    if (!r.ok) fail(errs.status(r.status));
    printRules(ctx, r.value.status ?? {});
    return;
  }
  let verb: string;
  let resourceArg = '';
  let nonResourceURL = '';
  if (args.length === 2 && args[1]!.startsWith('/')) {
    verb = args[0]!;
    nonResourceURL = args[1]!;
  } else if (args.length === 2) {
    verb = args[0]!;
    resourceArg = args[1]!;
  } else fail({ type: 'Raw', message: `error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee '${ctx.commandPath} -h' for help and examples.` });
  const sub = getString(f, 'subresource');
  const quiet = getBool(f, 'quiet');
  let body: Obj;
  if (nonResourceURL) {
    body = { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { nonResourceAttributes: { path: nonResourceURL, verb } }, status: { allowed: false } };
  } else {
    const slash = resourceArg.indexOf('/');
    const resPart = slash < 0 ? resourceArg : resourceArg.slice(0, slash);
    const name = slash < 0 ? '' : resourceArg.slice(slash + 1);
    let group = '';
    let resource = resPart;
    let namespaced = true;
    if (resPart !== '*') {
      await ctx.discovery.load();
      const lower = resPart.toLowerCase();
      const m = ctx.discovery.mappingFor(lower);
      if (m) {
        group = m.group;
        resource = m.resource;
        namespaced = m.namespaced;
      } else {
        const pr = partialResource(lower);
        if (!NON_STANDARD.has(pr.group ? `${pr.resource}.${pr.group}` : pr.resource) && !quiet) {
          ctx.io.err(pr.group ? `Warning: the server doesn't have a resource type '${pr.resource}' in group '${pr.group}'\n\n` : `Warning: the server doesn't have a resource type '${pr.resource}'\n\n`);
        }
        resource = resPart;
      }
      if (!namespaced && namespace !== '' && !quiet) ctx.io.err(`Warning: resource '${resource}' is not namespace scoped\n\n`);
    }
    const attrs: Obj = {};
    if (namespace) attrs.namespace = namespace;
    attrs.verb = verb;
    if (group) attrs.group = group;
    attrs.resource = resource;
    if (sub) attrs.subresource = sub;
    if (name) attrs.name = name;
    body = { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { resourceAttributes: attrs }, status: { allowed: false } };
  }
  const r = await ctx.client.tryJson<Obj>('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { body: `${JSON.stringify(body)}\n` });
  if (!r.ok) fail(errs.status(r.status));
  const st = r.value.status ?? {};
  if (!quiet) {
    if (st.allowed) ctx.io.out('yes\n');
    else {
      let line = 'no';
      if (st.reason) line += ` - ${st.reason}`;
      if (st.evaluationError) line += ` - ${st.evaluationError}`;
      ctx.io.out(`${line}\n`);
    }
  }
  if (!st.allowed) fail({ type: 'Exit', code: 1 });
}

export async function runWhoAmI(ctx: Ctx): Promise<void> {
  const body = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: {} } };
  const r = await ctx.client.tryJson<Obj>('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: `${JSON.stringify(body)}\n` });
  if (!r.ok) {
    if (r.status.reason === 'NotFound') fail(errs.plain('the selfsubjectreviews API is not enabled in the cluster\nenable APISelfSubjectReview feature gate and authentication.k8s.io/v1alpha1 or authentication.k8s.io/v1beta1 API'));
    fail(errs.status(r.status));
  }
  const o = getString(ctx.flags, 'output');
  if (o) {
    ctx.io.out(new GenericPrinter(parseOutputFormat(o, ctx.env.files) as never).print(r.value));
    return;
  }
  const ui = r.value.status?.userInfo ?? {};
  const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
  tw.write('ATTRIBUTE\tVALUE\n');
  if (ui.username) tw.write(`Username\t${ui.username}\n`);
  if (ui.uid) tw.write(`UID\t${ui.uid}\n`);
  if ((ui.groups ?? []).length > 0) tw.write(`Groups\t${goSliceV(ui.groups)}\n`);
  for (const k of Object.keys(ui.extra ?? {}).sort()) tw.write(`Extra: ${k}\t${goSliceV(ui.extra[k])}\n`);
  tw.flush();
}

// ---------- events

export const EVENTS_FLAGS: FlagDef[] = [
  { name: 'output', shorthand: 'o', kind: 'string' },
  { name: 'template', kind: 'string' },
  { name: 'allow-missing-template-keys', kind: 'bool', default: true },
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'chunk-size', kind: 'int', default: 500 },
  { name: 'for', kind: 'string' },
  { name: 'no-headers', kind: 'bool' },
  { name: 'types', kind: 'stringSlice' },
  { name: 'watch', shorthand: 'w', kind: 'bool' },
];

function eventTime(e: Obj): number {
  return parseTime(e.series?.lastObservedTime) ?? parseTime(e.lastTimestamp) ?? parseTime(e.eventTime) ?? -62135596800000;
}

function interval(e: Obj, now: number): string {
  let first = timestampSince(e.eventTime, now);
  if (!parseTime(e.eventTime)) first = timestampSince(e.firstTimestamp, now);
  if (e.series) return `${timestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${timestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return first;
}

export async function runEvents(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  if (args.length > 0) fail(errs.usage(`unexpected arguments: [${args.join(' ')}]`, ctx.commandPath));
  const types = getStrings(f, 'types');
  for (const t of types) if (t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning') fail(errs.plain('valid --types are Normal or Warning'));
  const allNs = getBool(f, 'all-namespaces');
  const query: Record<string, string> = { limit: String(f.values.get('chunk-size') ?? 500) };
  const forArg = getString(f, 'for');
  if (forArg) {
    const r = await resolveArgs(ctx, [forArg.includes('/') ? forArg : forArg]);
    const ref = r.refs[0];
    if (!ref || ref.name === undefined) fail(errs.plain('--for must be in resource/name form'));
    query.fieldSelector = `involvedObject.kind=${ref.mapping.kind},involvedObject.apiVersion=${gvString(ref.mapping.group, ref.mapping.version)},involvedObject.name=${ref.name}`;
  }
  const path = allNs ? '/api/v1/events' : `/api/v1/namespaces/${ctx.namespace}/events`;
  const r = await ctx.client.tryJson<Obj>('GET', path, { query });
  if (!r.ok) fail(errs.status(r.status));
  // typed corev1.Event: these fields are always encoded (null / "" when unset)
  let items: Obj[] = ((r.value.items as Obj[]) ?? []).map((i) => ({ apiVersion: 'v1', kind: 'Event', eventTime: null, firstTimestamp: null, lastTimestamp: null, reportingComponent: '', reportingInstance: '', source: {}, ...i }));
  if (types.length > 0) items = items.filter((e) => types.some((t) => t.toLowerCase() === String(e.type ?? '').toLowerCase()));
  const output = getString(f, 'output');
  if (output) {
    const p = new GenericPrinter(parseOutputFormat(output, ctx.env.files, { template: getString(f, 'template') }) as never);
    ctx.io.out(p.print({ apiVersion: 'v1', items, kind: 'EventList', metadata: {} }));
    return;
  }
  if (items.length === 0) {
    ctx.io.err(allNs ? 'No events found.\n' : `No events found in ${ctx.namespace} namespace.\n`);
    return;
  }
  goSortArray(items, (a, b) => eventTime(a) < eventTime(b));
  const now = ctx.now();
  const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
  if (!getBool(f, 'no-headers')) tw.write(`${allNs ? 'NAMESPACE\t' : ''}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`);
  const esc = (s: unknown) => String(s ?? '').replace(/\x1b/g, '^[').replace(/\r/g, '\\r');
  for (const e of items) {
    tw.write(`${allNs ? `${e.metadata?.namespace ?? ''}\t` : ''}${interval(e, now)}\t${esc(e.type)}\t${esc(e.reason)}\t${esc(e.involvedObject?.kind)}/${esc(e.involvedObject?.name)}\t${esc(String(e.message ?? '').trim())}\n`);
  }
  tw.flush();
}
