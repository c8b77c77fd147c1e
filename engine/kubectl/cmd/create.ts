// kubectl create: -f manifests, and the generators (staging/src/k8s.io/kubectl/pkg/cmd/create/:
// create_namespace.go, create_configmap.go, create_secret.go, create_deployment.go,
// create_service.go, create_serviceaccount.go, create_role.go,
// create_rolebinding.go, create_clusterrole.go, create_clusterrolebinding.go, create_job.go).
import type { Ctx } from '../cli/context';
import type { CommandSpec } from '../cli/root';
import { CREATE_TOKEN } from './createToken';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, getStrings } from '../cli/flags';
import { errs, fail, KubectlFailure, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { goJsonCompact } from '../printers/goJson';
import { formatQuantity, parseQuantityExact } from '../util/quantityFormat';
import { parse as parseLabelSelector } from '../../apimachinery/selectors/labels';
import { aggregate, namespaceForObject, readFileObjects, resourcePath } from '../resource/builder';
import { LAST_APPLIED, modifiedConfiguration } from './apply';
import { addSourceToErr, DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, FILENAME_FLAGS, OUTPUT_FLAGS, ResultPrinter, VALIDATE_FLAG, validationDirective } from './common';

type Obj = Record<string, any>;

const GEN_FLAGS: FlagDef[] = [...OUTPUT_FLAGS, DRY_RUN_FLAG, VALIDATE_FLAG, { name: 'save-config', kind: 'bool' }, { name: 'field-manager', kind: 'string', default: 'kubectl-create' }];

export const CREATE_FLAGS: FlagDef[] = [...GEN_FLAGS, ...FILENAME_FLAGS, { name: 'edit', kind: 'bool' }, { name: 'windows-line-endings', kind: 'bool' }, { name: 'raw', kind: 'string' }, { name: 'selector', shorthand: 'l', kind: 'string' }];

export async function runCreateFiles(ctx: Ctx, args: string[]): Promise<void> {
  const files = getStrings(ctx.flags, 'filename');
  if (files.length === 0) fail(errs.plain('must specify one of -f and -k'));
  void args;
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const query = { fieldManager: getString(ctx.flags, 'field-manager') || 'kubectl-create', fieldValidation: validationDirective(ctx), ...dryRunQuery(dryRun) };
  const errors: KubectlErr[] = [];
  let count = 0;
  const objs = await readFileObjects(ctx, files, { recursive: getBool(ctx.flags, 'recursive'), errors });
  const fileErrors = errors.splice(0);
  for (const fo of objs) {
    const ns = namespaceForObject(ctx, fo);
    const obj = fo.object as Obj;
    if (ns) obj.metadata.namespace = ns;
    if (getBool(ctx.flags, 'save-config')) obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED]: modifiedConfiguration(obj, false) };
    count++;
    if (dryRun === 'client') {
      printer.print(obj, 'created');
      continue;
    }
    const r = await ctx.client.tryJson<Obj>('POST', resourcePath(fo.mapping, ns), { body: `${goJsonCompact(obj)}\n`, query });
    if (!r.ok) {
      errors.push(addSourceToErr('creating', fo.source, errs.status(r.status)));
      continue;
    }
    printer.print(r.value, 'created');
  }
  if (count === 0 && errors.length === 0 && fileErrors.length === 0) fail(errs.plain('no objects passed to create'));
  const e = aggregate([...fileErrors, ...errors]);
  if (e) fail(e);
}

// ---------- generators

const NULL_META = (name: string, extra: Obj = {}): Obj => ({ creationTimestamp: null, ...extra, name });

/**
 * How each generator reports a failed create (checked against real kubectl v1.32):
 * most wrap the server's error with fmt.Errorf (so kubectl prints `error: failed to create
 * configmap: ...`; secret's has no colon), namespace/role/clusterrole return it as it is.
 */
const CREATE_ERROR_PREFIX: Record<string, string | null> = {
  configmap: 'failed to create configmap: ',
  secret: 'failed to create secret ',
  namespace: null,
  deployment: 'failed to create deployment: ',
  serviceaccount: 'failed to create serviceaccount: ',
  role: null,
  clusterrole: null,
  rolebinding: 'failed to create rolebinding: ',
  clusterrolebinding: 'failed to create clusterrolebinding: ',
  job: 'failed to create job: ',
  cronjob: 'failed to create cronjob: ',
  priorityclass: 'failed to create priorityclass: ',
  quota: 'failed to create quota: ',
  poddisruptionbudget: 'failed to create poddisruptionbudgets: ',
  ingress: 'failed to create ingress: ',
};

async function createGenerated(ctx: Ctx, obj: Obj, mapping: Mapping, what: string): Promise<void> {
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  const ns = mapping.namespaced ? ctx.namespace : undefined;
  if (ns && ctx.explicitNamespace) obj.metadata.namespace = ns;
  if (getBool(ctx.flags, 'save-config')) obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED]: modifiedConfiguration(obj, false) };
  // The generators build Go structs, and decode the answer into one.
  if (dryRun === 'client') {
    printer.print(obj, 'created', true);
    return;
  }
  await ctx.discovery.load();
  const query = { fieldManager: getString(ctx.flags, 'field-manager') || 'kubectl-create', fieldValidation: validationDirective(ctx), ...dryRunQuery(dryRun) };
  const r = await ctx.client.tryJson<Obj>('POST', resourcePath(mapping, ns), { body: `${goJsonCompact(obj)}\n`, query });
  if (!r.ok) {
    const st = r.status;
    const prefix = what === 'service' ? `failed to create ${(obj.spec as { type?: string } | undefined)?.type ?? 'ClusterIP'} service: ` : CREATE_ERROR_PREFIX[what];
    if (prefix === null || prefix === undefined) fail(errs.status(st));
    fail(errs.plain(`${prefix}${st.message ?? ''}`));
  }
  printer.print(r.value, 'created', true);
}

/**
 * kubectl create ingress (create_ingress.go): each --rule is host/path=service:port with an
 * optional ,tls[=secret]; a path ending in * is a Prefix path (else Exact); rules of one host
 * share its HTTP paths; a host is listed under TLS once, grouped by secret.
 */
const INGRESS_RULE = /^([\w*\-.]*)(\/.*)=([\w-]+):([\w-]+)(,(tls)=?([\w-]+)?)?/;

function ingressFromFlags(name: string, ingressClass: string, rules: string[], annotations: string[], defaultBackend: string): Obj {
  if (!defaultBackend && rules.length === 0) {
    fail(errs.plain('not enough information provided: every ingress has to either specify a default-backend (which catches all traffic) or a list of rules (which catch specific paths)'));
  }
  for (const r of rules) if (!INGRESS_RULE.test(r)) fail(errs.plain(`rule ${r} is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]`));
  for (const a of annotations) if (!a.includes('=')) fail(errs.plain(`annotation ${a} is invalid and should be in format key=[value]`));
  if (defaultBackend && defaultBackend.split(':').length !== 2) fail(errs.plain('default-backend should be in format servicename:serviceport'));
  // intstr.Parse: a whole number is a port number, anything else a port name.
  const backend = (svc: string): Obj => {
    const [svcName = '', port = ''] = svc.split(':');
    return { service: { name: svcName, port: /^[+-]?\d+$/.test(port) ? { number: Number(port) } : { name: port } } };
  };
  const spec: Obj = {};
  if (ingressClass) spec.ingressClassName = ingressClass;
  if (defaultBackend) spec.defaultBackend = backend(defaultBackend);
  const tls: { hosts?: string[]; secretName?: string }[] = [];
  const tlsHosts = new Set<string>();
  for (const r of rules) {
    const parts = r.split(',');
    if (parts.length !== 2) continue;
    const host = r.split('/')[0]!;
    const secretParts = parts[1]!.split('=');
    const secret = secretParts.length > 1 ? secretParts[1]! : '';
    if (tlsHosts.has(host)) continue;
    tlsHosts.add(host);
    const same = tls.find((t) => (t.secretName ?? '') === secret);
    if (same) {
      (same.hosts ??= []).push(host);
      continue;
    }
    const t: { hosts?: string[]; secretName?: string } = {};
    if (host) t.hosts = [host];
    if (secret) t.secretName = secret;
    if (t.hosts || t.secretName) tls.push(t);
  }
  if (tls.length > 0) spec.tls = tls;
  const ingressRules: { host?: string; http: { paths: Obj[] } }[] = [];
  for (const r of rules) {
    const noTls = r.split(',')[0]!;
    const slash = noTls.indexOf('/');
    const host = noTls.slice(0, slash);
    const [pathPart = '', svc = ''] = noTls.slice(slash + 1).split('=');
    let path = `/${pathPart}`;
    let pathType = 'Exact';
    if (path.endsWith('*')) {
      pathType = 'Prefix';
      path = path.slice(0, -1);
    }
    const p = { path, pathType, backend: backend(svc) };
    const existing = ingressRules.find((x) => (x.host ?? '') === host);
    if (existing) existing.http.paths.push(p);
    else ingressRules.push({ ...(host ? { host } : {}), http: { paths: [p] } });
  }
  if (ingressRules.length > 0) spec.rules = ingressRules;
  const ann: Record<string, string> = {};
  for (const a of annotations) {
    const eq = a.indexOf('=');
    ann[a.slice(0, eq)] = a.slice(eq + 1);
  }
  const meta = NULL_META(name, Object.keys(ann).length > 0 ? { annotations: ann } : {});
  return { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', metadata: meta, spec, status: { loadBalancer: {} } };
}

/** metav1.ParseToLabelSelector: equality terms to matchLabels, the rest to matchExpressions. */
function labelSelectorFromString(text: string): Obj {
  const r = parseLabelSelector(text);
  if (!r.ok) return fail(errs.plain(r.error));
  const matchLabels: Record<string, string> = {};
  const matchExpressions: Obj[] = [];
  for (const q of r.selector.type === 'Requirements' ? r.selector.requirements : []) {
    if (q.operator === '=' || q.operator === '==') matchLabels[q.key] = q.values[0] ?? '';
    else if (q.operator === 'in') matchExpressions.push({ key: q.key, operator: 'In', values: q.values });
    else if (q.operator === 'notin') matchExpressions.push({ key: q.key, operator: 'NotIn', values: q.values });
    else if (q.operator === 'exists') matchExpressions.push({ key: q.key, operator: 'Exists' });
    else if (q.operator === '!') matchExpressions.push({ key: q.key, operator: 'DoesNotExist' });
    else if (q.operator === 'gt' || q.operator === 'lt') fail(errs.plain(`"${q.operator}" isn't supported in label selectors`));
    else fail(errs.plain(`"${q.operator}" is not a valid label selector operator`));
  }
  const sel: Obj = {};
  if (Object.keys(matchLabels).length > 0) sel.matchLabels = matchLabels;
  if (matchExpressions.length > 0) sel.matchExpressions = matchExpressions;
  return sel;
}

/** NameFromCommandArgs (create.go): the one NAME before any `--`, else a usage error. */
function requireName(ctx: Ctx, args: string[]): string {
  if (args.length !== 1) fail(errs.usage(`exactly one NAME is required, got ${args.length}`, ctx.commandPath));
  return args[0]!;
}

const M = {
  namespace: { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, singular: 'namespace' },
  configmap: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, singular: 'configmap' },
  secret: { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, singular: 'secret' },
  serviceaccount: { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, singular: 'serviceaccount' },
  service: { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true, singular: 'service' },
  deployment: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, singular: 'deployment' },
  job: { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true, singular: 'job' },
  cronjob: { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true, singular: 'cronjob' },
  resourcequota: { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, singular: 'resourcequota' },
  priorityclass: { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, singular: 'priorityclass' },
  ingress: { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', namespaced: true, singular: 'ingress' },
  poddisruptionbudget: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, singular: 'poddisruptionbudget' },
  role: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', kind: 'Role', namespaced: true, singular: 'role' },
  clusterrole: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, singular: 'clusterrole' },
  rolebinding: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, singular: 'rolebinding' },
  clusterrolebinding: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, singular: 'clusterrolebinding' },
} satisfies Record<string, Mapping>;

function base64(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** --from-literal / --from-file / --from-env-file into a key → value map. */
function collectData(ctx: Ctx, kind: 'configmap' | 'secret'): Record<string, string> {
  const data: Record<string, string> = {};
  const put = (k: string, v: string) => {
    if (Object.prototype.hasOwnProperty.call(data, k)) fail(errs.plain(`cannot add key ${k}, another key by that name already exists in Data for ${kind === 'configmap' ? 'ConfigMap' : 'Secret'}`));
    data[k] = v;
  };
  for (const lit of getStrings(ctx.flags, 'from-literal')) {
    const i = lit.indexOf('=');
    if (i <= 0) fail(errs.plain(`invalid literal source ${lit}, expected key=value`));
    put(lit.slice(0, i), lit.slice(i + 1));
  }
  for (const src of getStrings(ctx.flags, 'from-file')) {
    const i = src.indexOf('=');
    const key = i > 0 ? src.slice(0, i) : undefined;
    const path = i > 0 ? src.slice(i + 1) : src;
    const text = ctx.env.files[path];
    if (text !== undefined) {
      put(key ?? path.split('/').pop()!, text);
      continue;
    }
    const dir = path.endsWith('/') ? path : `${path}/`;
    const inDir = Object.keys(ctx.env.files).filter((k) => k.startsWith(dir) && !k.slice(dir.length).includes('/'));
    if (inDir.length === 0) fail(errs.plain(`error reading ${path}: no such file or directory`));
    for (const k of inDir.sort()) put(k.slice(dir.length), ctx.env.files[k]!);
  }
  for (const path of getStrings(ctx.flags, 'from-env-file')) {
    const text = ctx.env.files[path];
    if (text === undefined) fail(errs.plain(`error reading ${path}: no such file or directory`));
    for (const line of text.split('\n')) {
      const l = line.trim();
      if (!l || l.startsWith('#')) continue;
      const i = l.indexOf('=');
      if (i < 0) put(l, '');
      else put(l.slice(0, i), l.slice(i + 1));
    }
  }
  return data;
}

function containerNameFromImage(image: string): string {
  let name = image.split('/').pop()!;
  if (name.includes(':')) name = name.split(':')[0]!;
  if (name.includes('@')) name = name.split('@')[0]!;
  return name.replace(/_/g, '-');
}

const VALID_VERBS = ['*', 'get', 'delete', 'list', 'create', 'update', 'patch', 'watch', 'proxy', 'deletecollection', 'use', 'bind', 'escalate', 'impersonate', 'approve', 'sign'];

async function policyRules(ctx: Ctx): Promise<Obj[]> {
  const verbs = getStrings(ctx.flags, 'verb');
  const resources = getStrings(ctx.flags, 'resource');
  const names = getStrings(ctx.flags, 'resource-name');
  const urls = getStrings(ctx.flags, 'non-resource-url');
  if (verbs.length === 0) fail(errs.plain('at least one verb must be specified'));
  if (resources.length === 0 && urls.length === 0) fail(errs.plain('at least one resource must be specified'));
  for (const v of verbs) if (!VALID_VERBS.includes(v)) fail(errs.plain(`invalid verb: '${v}'`));
  await ctx.discovery.load();
  const byGroup = new Map<string, string[]>();
  for (const r of resources) {
    const [resPart, sub] = r.split('/') as [string, string | undefined];
    const dot = resPart.indexOf('.');
    let resource = dot < 0 ? resPart : resPart.slice(0, dot);
    let group = dot < 0 ? '' : resPart.slice(dot + 1);
    const m = resource === '*' ? undefined : ctx.discovery.mappingFor(resPart);
    if (m) {
      resource = m.resource;
      group = m.group;
    } else if (resource !== '*') fail(errs.plain(`the server doesn't have a resource type "${resource}"`));
    if (sub) resource = `${resource}/${sub}`;
    const list = byGroup.get(group) ?? [];
    if (!list.includes(resource)) list.push(resource);
    byGroup.set(group, list);
  }
  const rules: Obj[] = [];
  for (const g of [...byGroup.keys()].sort()) {
    const rule: Obj = { apiGroups: [g], resources: byGroup.get(g)! };
    if (names.length > 0) rule.resourceNames = names;
    rule.verbs = verbs;
    rules.push(rule);
  }
  if (urls.length > 0) rules.push({ nonResourceURLs: urls, verbs });
  return rules;
}

function subjects(ctx: Ctx): Obj[] {
  const out: Obj[] = [];
  for (const u of getStrings(ctx.flags, 'user')) out.push({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: u });
  for (const g of getStrings(ctx.flags, 'group')) out.push({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: g });
  for (const sa of getStrings(ctx.flags, 'serviceaccount')) {
    const parts = sa.split(':');
    if (parts.length !== 2 || !parts[0] || !parts[1]) fail(errs.plain(`serviceaccount must be <namespace>:<name>`));
    out.push({ kind: 'ServiceAccount', name: parts[1], namespace: parts[0] });
  }
  return out;
}

function servicePorts(ctx: Ctx): Obj[] {
  return getStrings(ctx.flags, 'tcp').map((spec) => {
    const [p, t] = spec.split(':') as [string, string | undefined];
    const port = Number(p);
    if (!Number.isInteger(port)) fail(errs.plain(`invalid port spec: ${spec}`));
    const target = t === undefined ? port : /^\d+$/.test(t) ? Number(t) : t;
    return { name: t === undefined ? p : `${p}-${t}`, port, protocol: 'TCP', targetPort: target };
  });
}

function serviceGenerator(type: string): CommandSpec['run'] {
  return async (ctx, args) => {
    const name = requireName(ctx, args);
    const spec: Obj = {};
    if (type !== 'ExternalName') {
      spec.ports = servicePorts(ctx);
      if (type !== 'ClusterIP' && getInt(ctx.flags, 'node-port') > 0) spec.ports[0] = { ...spec.ports[0], nodePort: getInt(ctx.flags, 'node-port') };
      spec.selector = { app: name };
    }
    spec.type = type;
    const clusterIP = getString(ctx.flags, 'clusterip');
    if (clusterIP) spec.clusterIP = clusterIP;
    if (type === 'ExternalName') spec.externalName = getString(ctx.flags, 'external-name');
    const obj: Obj = { kind: 'Service', apiVersion: 'v1', metadata: NULL_META(name, { labels: { app: name } }), spec, status: { loadBalancer: {} } };
    await createGenerated(ctx, obj, M.service, 'service');
  };
}

export function createSubcommands(): CommandSpec[] {
  return [
    {
      name: 'namespace',
      aliases: ['ns'],
      short: 'Create a namespace with the specified name',
      use: 'NAME [--dry-run=server|client|none] [options]',
      flags: GEN_FLAGS,
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        await createGenerated(ctx, { kind: 'Namespace', apiVersion: 'v1', metadata: NULL_META(name), spec: {}, status: {} }, M.namespace, 'namespace');
      },
    },
    {
      name: 'configmap',
      aliases: ['cm'],
      short: 'Create a config map from a local file, directory or literal value',
      use: 'NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'from-literal', kind: 'stringArray' }, { name: 'from-file', kind: 'stringSlice' }, { name: 'from-env-file', kind: 'stringSlice' }, { name: 'append-hash', kind: 'bool' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const data = collectData(ctx, 'configmap');
        const obj: Obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: NULL_META(name) };
        if (Object.keys(data).length > 0) obj.data = data;
        await createGenerated(ctx, obj, M.configmap, 'configmap');
      },
    },
    {
      name: 'secret',
      short: 'Create a secret using a specified subcommand',
      use: '(docker-registry | generic | tls) [options]',
      subcommands: [
        {
          name: 'generic',
          short: 'Create a secret from a local file, directory, or literal value',
          use: 'NAME [--type=string] [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none] [options]',
          flags: [...GEN_FLAGS, { name: 'from-literal', kind: 'stringArray' }, { name: 'from-file', kind: 'stringSlice' }, { name: 'from-env-file', kind: 'stringSlice' }, { name: 'type', kind: 'string' }, { name: 'append-hash', kind: 'bool' }],
          run: async (ctx, args) => {
            const name = requireName(ctx, args);
            const data = collectData(ctx, 'secret');
            const obj: Obj = { kind: 'Secret', apiVersion: 'v1', metadata: NULL_META(name) };
            if (Object.keys(data).length > 0) obj.data = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, base64(v)]));
            const type = getString(ctx.flags, 'type');
            if (type) obj.type = type;
            await createGenerated(ctx, obj, M.secret, 'secret');
          },
        },
      ],
    },
    CREATE_TOKEN,
    {
      name: 'serviceaccount',
      aliases: ['sa'],
      short: 'Create a service account with the specified name',
      use: 'NAME [--dry-run=server|client|none] [options]',
      flags: GEN_FLAGS,
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        await createGenerated(ctx, { kind: 'ServiceAccount', apiVersion: 'v1', metadata: NULL_META(name) }, M.serviceaccount, 'serviceaccount');
      },
    },
    {
      name: 'deployment',
      aliases: ['deploy'],
      short: 'Create a deployment with the specified name',
      use: 'NAME --image=image -- [COMMAND] [args...] [options]',
      flags: [...GEN_FLAGS, { name: 'image', kind: 'stringSlice', required: true }, { name: 'replicas', shorthand: 'r', kind: 'int', default: 1 }, { name: 'port', kind: 'int', default: -1 }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args.slice(0, ctx.flags.argsLenAtDash >= 0 ? ctx.flags.argsLenAtDash : args.length));
        const command = ctx.flags.argsLenAtDash >= 0 ? args.slice(ctx.flags.argsLenAtDash) : [];
        const images = getStrings(ctx.flags, 'image');
        if (images.length > 1 && command.length > 0) fail(errs.plain('cannot specify multiple --image options and command'));
        const port = getInt(ctx.flags, 'port');
        const containers = images.map((image, i) => {
          const c: Obj = { image, name: containerNameFromImage(image) };
          if (i === 0 && command.length > 0) c.command = command;
          if (i === 0 && port >= 0) c.ports = [{ containerPort: port }];
          c.resources = {};
          return c;
        });
        const labels = { app: name };
        const obj: Obj = {
          kind: 'Deployment',
          apiVersion: 'apps/v1',
          metadata: NULL_META(name, { labels }),
          spec: { replicas: getInt(ctx.flags, 'replicas'), selector: { matchLabels: labels }, strategy: {}, template: { metadata: { creationTimestamp: null, labels }, spec: { containers } } },
          status: {},
        };
        await createGenerated(ctx, obj, M.deployment, 'deployment');
      },
    },
    {
      name: 'job',
      short: 'Create a job with the specified name',
      use: 'NAME --image=image [--from=cronjob/name] -- [COMMAND] [args...] [options]',
      flags: [...GEN_FLAGS, { name: 'image', kind: 'string' }, { name: 'from', kind: 'string' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args.slice(0, ctx.flags.argsLenAtDash >= 0 ? ctx.flags.argsLenAtDash : args.length));
        const image = getString(ctx.flags, 'image');
        if (!image) fail(errs.plain('either --image or --from must be specified'));
        const command = ctx.flags.argsLenAtDash >= 0 ? args.slice(ctx.flags.argsLenAtDash) : [];
        const c: Obj = { image, name };
        if (command.length > 0) c.command = command;
        c.resources = {};
        const obj: Obj = { kind: 'Job', apiVersion: 'batch/v1', metadata: NULL_META(name), spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: [c], restartPolicy: 'Never' } } }, status: {} };
        await createGenerated(ctx, obj, M.job, 'job');
      },
    },
    {
      name: 'cronjob',
      aliases: ['cj'],
      short: 'Create a cron job with the specified name',
      use: 'NAME --image=image --schedule=\'0/5 * * * ?\' -- [COMMAND] [args...] [flags] [options]',
      flags: [...GEN_FLAGS, { name: 'image', kind: 'string', required: true }, { name: 'schedule', kind: 'string', required: true }, { name: 'restart', kind: 'string' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args.slice(0, ctx.flags.argsLenAtDash >= 0 ? ctx.flags.argsLenAtDash : args.length));
        const command = ctx.flags.argsLenAtDash >= 0 ? args.slice(ctx.flags.argsLenAtDash) : [];
        const restart = getString(ctx.flags, 'restart') || 'OnFailure';
        const c: Obj = { name, image: getString(ctx.flags, 'image') };
        if (command.length > 0) c.command = command;
        c.resources = {};
        const obj: Obj = {
          kind: 'CronJob',
          apiVersion: 'batch/v1',
          metadata: NULL_META(name),
          spec: { schedule: getString(ctx.flags, 'schedule'), jobTemplate: { metadata: { name, creationTimestamp: null }, spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: [c], restartPolicy: restart } } } } },
          status: {},
        };
        await createGenerated(ctx, obj, M.cronjob, 'cronjob');
      },
    },
    {
      name: 'poddisruptionbudget',
      aliases: ['pdb'],
      short: 'Create a pod disruption budget with the specified name',
      use: 'NAME --selector=SELECTOR --min-available=N [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'selector', kind: 'string' }, { name: 'min-available', kind: 'string' }, { name: 'max-unavailable', kind: 'string' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const min = getString(ctx.flags, 'min-available');
        const max = getString(ctx.flags, 'max-unavailable');
        const selector = getString(ctx.flags, 'selector');
        if (!selector) fail(errs.plain('a selector must be specified'));
        if (!min && !max) fail(errs.plain('one of min-available or max-unavailable must be specified'));
        if (min && max) fail(errs.plain('min-available and max-unavailable cannot be both specified'));
        if (min && !/^[0-9]+%?$/.test(min)) fail(errs.plain('invalid format specified for min-available'));
        if (max && !/^[0-9]+%?$/.test(max)) fail(errs.plain('invalid format specified for max-unavailable'));
        // intstr.Parse: a whole number is an int, anything else (50%) a string.
        const intOrString = (v: string) => (/^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : v);
        const spec: Obj = {};
        if (min) spec.minAvailable = intOrString(min);
        spec.selector = labelSelectorFromString(selector);
        if (max) spec.maxUnavailable = intOrString(max);
        const obj: Obj = { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1', metadata: NULL_META(name), spec, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } };
        await createGenerated(ctx, obj, M.poddisruptionbudget, 'poddisruptionbudget');
      },
    },
    {
      name: 'quota',
      aliases: ['resourcequota'],
      short: 'Create a quota with the specified name',
      use: 'NAME [--hard=key1=value1,key2=value2] [--scopes=Scope1,Scope2] [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'hard', kind: 'string' }, { name: 'scopes', kind: 'string' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const spec: Obj = {};
        const hardText = getString(ctx.flags, 'hard');
        if (hardText) {
          const hard: Record<string, string> = {};
          for (const kv of hardText.split(',')) {
            const eq = kv.indexOf('=');
            if (eq < 0) fail(errs.plain(`Invalid argument syntax ${kv}, expected <resource>=<value>`));
            const v = kv.slice(eq + 1);
            if (parseQuantityExact(v) === undefined) fail(errs.plain("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
            hard[kv.slice(0, eq)] = formatQuantity(v);
          }
          spec.hard = hard;
        }
        const scopes = getString(ctx.flags, 'scopes');
        if (scopes) spec.scopes = scopes.split(',');
        await createGenerated(ctx, { kind: 'ResourceQuota', apiVersion: 'v1', metadata: NULL_META(name), spec, status: {} }, M.resourcequota, 'quota');
      },
    },
    {
      name: 'ingress',
      aliases: ['ing'],
      short: 'Create an ingress with the specified name',
      use: 'NAME --rule=host/path=service:port[,tls[=secret]] ',
      flags: [...GEN_FLAGS, { name: 'class', kind: 'string' }, { name: 'rule', kind: 'stringArray' }, { name: 'default-backend', kind: 'string' }, { name: 'annotation', kind: 'stringArray' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const obj = ingressFromFlags(name, getString(ctx.flags, 'class'), getStrings(ctx.flags, 'rule'), getStrings(ctx.flags, 'annotation'), getString(ctx.flags, 'default-backend'));
        await createGenerated(ctx, obj, M.ingress, 'ingress');
      },
    },
    {
      name: 'priorityclass',
      aliases: ['pc'],
      short: 'Create a priority class with the specified name',
      use: 'NAME --value=VALUE --global-default=BOOL [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'value', kind: 'int' }, { name: 'global-default', kind: 'bool' }, { name: 'description', kind: 'string' }, { name: 'preemption-policy', kind: 'string', default: 'PreemptLowerPriority' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const obj: Obj = { kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', metadata: NULL_META(name), value: getInt(ctx.flags, 'value') };
        if (getBool(ctx.flags, 'global-default')) obj.globalDefault = true;
        const description = getString(ctx.flags, 'description');
        if (description) obj.description = description;
        obj.preemptionPolicy = getString(ctx.flags, 'preemption-policy');
        await createGenerated(ctx, obj, M.priorityclass, 'priorityclass');
      },
    },
    {
      name: 'service',
      aliases: ['svc'],
      short: 'Create a service using a specified subcommand',
      use: '[flags] [options]',
      subcommands: [
        { name: 'clusterip', short: 'Create a ClusterIP service', use: 'NAME [--tcp=<port>:<targetPort>] [--dry-run=server|client|none] [options]', flags: [...GEN_FLAGS, { name: 'tcp', kind: 'stringSlice' }, { name: 'clusterip', kind: 'string' }], run: serviceGenerator('ClusterIP') },
        { name: 'nodeport', short: 'Create a NodePort service', use: 'NAME [--tcp=port:targetPort] [--dry-run=server|client|none] [options]', flags: [...GEN_FLAGS, { name: 'tcp', kind: 'stringSlice' }, { name: 'node-port', kind: 'int' }], run: serviceGenerator('NodePort') },
        { name: 'loadbalancer', short: 'Create a LoadBalancer service', use: 'NAME [--tcp=port:targetPort] [--dry-run=server|client|none] [options]', flags: [...GEN_FLAGS, { name: 'tcp', kind: 'stringSlice' }], run: serviceGenerator('LoadBalancer') },
        { name: 'externalname', short: 'Create an ExternalName service', use: 'NAME --external-name external.name [--dry-run=server|client|none] [options]', flags: [...GEN_FLAGS, { name: 'external-name', kind: 'string' }, { name: 'tcp', kind: 'stringSlice' }], run: serviceGenerator('ExternalName') },
      ],
    },
    {
      name: 'role',
      short: 'Create a role with single rule',
      use: 'NAME --verb=verb --resource=resource.group/subresource [--resource-name=resourcename] [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'verb', kind: 'stringSlice' }, { name: 'resource', kind: 'stringSlice' }, { name: 'resource-name', kind: 'stringArray' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const rules = await policyRules(ctx);
        await createGenerated(ctx, { kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: NULL_META(name), rules }, M.role, 'role');
      },
    },
    {
      name: 'clusterrole',
      short: 'Create a cluster role',
      use: 'NAME --verb=verb --resource=resource.group [--resource-name=resourcename] [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'verb', kind: 'stringSlice' }, { name: 'resource', kind: 'stringSlice' }, { name: 'resource-name', kind: 'stringArray' }, { name: 'non-resource-url', kind: 'stringSlice' }, { name: 'aggregation-rule', kind: 'string' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const rules = await policyRules(ctx);
        await createGenerated(ctx, { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: NULL_META(name), rules }, M.clusterrole, 'clusterrole');
      },
    },
    {
      name: 'rolebinding',
      short: 'Create a role binding for a particular role or cluster role',
      use: 'NAME --clusterrole=NAME|--role=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'role', kind: 'string' }, { name: 'clusterrole', kind: 'string' }, { name: 'user', kind: 'stringArray' }, { name: 'group', kind: 'stringArray' }, { name: 'serviceaccount', kind: 'stringArray' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const role = getString(ctx.flags, 'role');
        const cr = getString(ctx.flags, 'clusterrole');
        if ((role === '') === (cr === '')) fail(errs.plain('exactly one of clusterrole or role must be specified'));
        const obj: Obj = { kind: 'RoleBinding', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: NULL_META(name), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: role ? 'Role' : 'ClusterRole', name: role || cr } };
        const subs = subjects(ctx);
        if (subs.length > 0) obj.subjects = subs;
        await createGenerated(ctx, obj, M.rolebinding, 'rolebinding');
      },
    },
    {
      name: 'clusterrolebinding',
      short: 'Create a cluster role binding for a particular cluster role',
      use: 'NAME --clusterrole=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none] [options]',
      flags: [...GEN_FLAGS, { name: 'clusterrole', kind: 'string', required: true }, { name: 'user', kind: 'stringArray' }, { name: 'group', kind: 'stringArray' }, { name: 'serviceaccount', kind: 'stringArray' }],
      run: async (ctx, args) => {
        const name = requireName(ctx, args);
        const cr = getString(ctx.flags, 'clusterrole');
        const obj: Obj = { kind: 'ClusterRoleBinding', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: NULL_META(name), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: cr } };
        const subs = subjects(ctx);
        if (subs.length > 0) obj.subjects = subs;
        await createGenerated(ctx, obj, M.clusterrolebinding, 'clusterrolebinding');
      },
    },
  ];
}

export { KubectlFailure };
