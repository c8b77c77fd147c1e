// A small stand-in for kube-apiserver, for kubectl's tests: it answers the REST
// paths kubectl uses with bodies shaped like the real server's (discovery
// v2 and legacy, Tables with PartialObjectMetadata rows, Status errors,
// watch streams, access reviews, /openapi/v3). Not a model of the real
// server: no validation, no defaulting, naive patching. The same instance can
// be served over HTTP to real kubectl to record reference outputs.
import type { ApiRequest, ApiResponse } from '../../apiserver/types';
import { RESOURCES, resourceFor, resourceForKind, type ResourceInfo } from '../../apiserver/registry/resources';
import type { KObject, Status } from '../../apimachinery/types';
import { parseApiVersion } from '../../apimachinery/types';
import { status as st } from '../../apimachinery/status';
import { humanDuration, parseTime, rfc3339 } from '../util/duration';
import type { KubectlTransport } from '../types';

type Json = Record<string, unknown>;

interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}
const col = (name: string, type = 'string', priority = 0, format = ''): Column => ({ name, type, format, description: `${name} column`, priority });

export interface FakeOptions {
  now: () => number;
  /** Users RBAC denies everything to (SelfSubjectAccessReview answers no). */
  deniedUsers?: string[];
  openapi?: Record<string, unknown>;
  /** Serve aggregated discovery (v2) when asked; otherwise only legacy. */
  aggregated?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body?: string;
  contentType?: string;
}

interface Watcher {
  info: ResourceInfo;
  namespace?: string;
  table: boolean;
  onLine: (line: string) => void;
  resolve: (r: ApiResponse | null) => void;
}

function q1(query: Record<string, string | string[]>, k: string): string | undefined {
  const v = query[k];
  return Array.isArray(v) ? v[0] : v;
}

function json(status: number, body: unknown, contentType = 'application/json'): ApiResponse {
  return { status, headers: { 'content-type': contentType }, body: JSON.stringify(body) };
}
function fail(s: Status): ApiResponse {
  return json(s.code, s);
}

// ---------- tiny selectors (labels: =, ==, !=, in, notin, exists, !; fields: =, ==, !=)

function matchLabels(sel: string | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel) return true;
  const l = labels ?? {};
  const parts = sel.match(/(?:[^,(]|\([^)]*\))+/g) ?? [];
  return parts.every((raw) => {
    const p = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^(\S+)\s+(in|notin)\s+\((.*)\)$/.exec(p))) {
      const vals = m[3]!.split(',').map((s) => s.trim());
      const has = m[1]! in l && vals.includes(l[m[1]!]!);
      return m[2] === 'in' ? has : !has;
    }
    if ((m = /^(\S+?)\s*!=\s*(\S*)$/.exec(p))) return l[m[1]!] !== m[2];
    if ((m = /^(\S+?)\s*==?\s*(\S*)$/.exec(p))) return l[m[1]!] === m[2];
    if ((m = /^!(\S+)$/.exec(p))) return !(m[1]! in l);
    return p in l;
  });
}

function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const k of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[k];
  }
  return cur;
}

function matchFields(sel: string | undefined, obj: KObject): boolean {
  if (!sel) return true;
  return sel.split(',').every((p) => {
    const m = /^([^!=]+?)\s*(!=|==|=)\s*(.*)$/.exec(p.trim());
    if (!m) return true;
    const v = getPath(obj, m[1]!);
    const s = v === undefined || v === null ? '' : String(v);
    return m[2] === '!=' ? s !== m[3] : s === m[3];
  });
}

// ---------- naive patches (enough for tests; the real ones live in apimachinery/patch)

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Json = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [k, v] of Object.entries(patch as Json)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function strategicPatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null) return patch;
  if (Array.isArray(patch)) {
    if (Array.isArray(target) && patch.every((p) => typeof p === 'object' && p !== null && 'name' in (p as Json))) {
      const out = [...target] as Json[];
      for (const p of patch as Json[]) {
        const i = out.findIndex((t) => t.name === p.name);
        if (p.$patch === 'delete') {
          if (i >= 0) out.splice(i, 1);
        } else if (i >= 0) out[i] = strategicPatch(out[i], p) as Json;
        else out.push(p);
      }
      return out;
    }
    return patch;
  }
  const out: Json = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [k, v] of Object.entries(patch as Json)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else out[k] = strategicPatch(out[k], v);
  }
  return out;
}

function jsonPatch(target: unknown, ops: Json[]): unknown {
  const doc = JSON.parse(JSON.stringify(target)) as Json;
  for (const op of ops) {
    const parts = String(op.path)
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    let parent: unknown = doc;
    for (const p of parts) parent = (parent as Json)[p];
    const container = parent as Json | unknown[];
    if (op.op === 'remove') {
      if (Array.isArray(container)) container.splice(Number(last), 1);
      else delete container[last];
    } else if (op.op === 'add' || op.op === 'replace') {
      if (Array.isArray(container)) {
        if (last === '-') container.push(op.value);
        else if (op.op === 'add') container.splice(Number(last), 0, op.value);
        else container[Number(last)] = op.value;
      } else container[last] = op.value;
    }
  }
  return doc;
}

// ---------- Table converters (shape of pkg/printers/internalversion)

function age(obj: KObject, now: number): string {
  const t = parseTime(obj.metadata.creationTimestamp);
  return t === undefined ? '<unknown>' : humanDuration(now - t);
}

type Converter = { columns: Column[]; row: (o: any, now: number) => unknown[] };

const CONVERTERS: Record<string, Converter> = {
  pods: {
    columns: [col('Name', 'string', 0, 'name'), col('Ready'), col('Status'), col('Restarts'), col('Age'), col('IP', 'string', 1), col('Node', 'string', 1), col('Nominated Node', 'string', 1), col('Readiness Gates', 'string', 1)],
    row: (o, now) => {
      const cs = (o.status?.containerStatuses ?? []) as Json[];
      const total = (o.spec?.containers ?? []).length;
      const ready = cs.filter((c) => c.ready).length;
      const restarts = cs.reduce((n, c) => n + Number(c.restartCount ?? 0), 0);
      return [o.metadata.name, `${ready}/${total}`, o.status?.phase ?? 'Pending', String(restarts), age(o, now), o.status?.podIP ?? '<none>', o.spec?.nodeName ?? '<none>', '<none>', '<none>'];
    },
  },
  deployments: {
    columns: [col('Name', 'string', 0, 'name'), col('Ready'), col('Up-to-date', 'integer'), col('Available', 'integer'), col('Age'), col('Containers', 'string', 1), col('Images', 'string', 1), col('Selector', 'string', 1)],
    row: (o, now) => {
      const cs = (o.spec?.template?.spec?.containers ?? []) as Json[];
      const sel = o.spec?.selector?.matchLabels ?? {};
      return [
        o.metadata.name,
        `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
        o.status?.updatedReplicas ?? 0,
        o.status?.availableReplicas ?? 0,
        age(o, now),
        cs.map((c) => c.name).join(','),
        cs.map((c) => c.image).join(','),
        Object.entries(sel)
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      ];
    },
  },
  services: {
    columns: [col('Name', 'string', 0, 'name'), col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), col('Age'), col('Selector', 'string', 1)],
    row: (o, now) => [
      o.metadata.name,
      o.spec?.type ?? 'ClusterIP',
      o.spec?.clusterIP ?? '<none>',
      '<none>',
      ((o.spec?.ports ?? []) as Json[]).map((p) => `${p.port}/${p.protocol ?? 'TCP'}`).join(',') || '<none>',
      age(o, now),
      Object.entries(o.spec?.selector ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(',') || '<none>',
    ],
  },
  namespaces: {
    columns: [col('Name', 'string', 0, 'name'), col('Status'), col('Age')],
    row: (o, now) => [o.metadata.name, o.status?.phase ?? 'Active', age(o, now)],
  },
  nodes: {
    columns: [col('Name', 'string', 0, 'name'), col('Status'), col('Roles'), col('Age'), col('Version'), col('Internal-IP', 'string', 1), col('External-IP', 'string', 1), col('OS-Image', 'string', 1), col('Kernel-Version', 'string', 1), col('Container-Runtime', 'string', 1)],
    row: (o, now) => {
      const ready = ((o.status?.conditions ?? []) as Json[]).find((c) => c.type === 'Ready');
      const roles = Object.keys(o.metadata.labels ?? {})
        .filter((k) => k.startsWith('node-role.kubernetes.io/'))
        .map((k) => k.slice('node-role.kubernetes.io/'.length));
      const addr = (t: string) => ((o.status?.addresses ?? []) as Json[]).find((a) => a.type === t)?.address ?? '<none>';
      const ni = o.status?.nodeInfo ?? {};
      return [o.metadata.name, ready?.status === 'True' ? 'Ready' : 'NotReady', roles.join(',') || '<none>', age(o, now), ni.kubeletVersion ?? '', addr('InternalIP'), addr('ExternalIP'), ni.osImage ?? '<unknown>', ni.kernelVersion ?? '<unknown>', ni.containerRuntimeVersion ?? '<unknown>'];
    },
  },
  configmaps: {
    columns: [col('Name', 'string', 0, 'name'), col('Data', 'integer'), col('Age')],
    row: (o, now) => [o.metadata.name, Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length, age(o, now)],
  },
  secrets: {
    columns: [col('Name', 'string', 0, 'name'), col('Type'), col('Data', 'integer'), col('Age')],
    row: (o, now) => [o.metadata.name, o.type ?? 'Opaque', Object.keys(o.data ?? {}).length, age(o, now)],
  },
  serviceaccounts: {
    columns: [col('Name', 'string', 0, 'name'), col('Secrets', 'integer'), col('Age')],
    row: (o, now) => [o.metadata.name, (o.secrets ?? []).length, age(o, now)],
  },
  replicasets: {
    columns: [col('Name', 'string', 0, 'name'), col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), col('Age'), col('Containers', 'string', 1), col('Images', 'string', 1), col('Selector', 'string', 1)],
    row: (o, now) => {
      const cs = (o.spec?.template?.spec?.containers ?? []) as Json[];
      return [
        o.metadata.name,
        o.spec?.replicas ?? 0,
        o.status?.replicas ?? 0,
        o.status?.readyReplicas ?? 0,
        age(o, now),
        cs.map((c) => c.name).join(','),
        cs.map((c) => c.image).join(','),
        Object.entries(o.spec?.selector?.matchLabels ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      ];
    },
  },
  events: {
    columns: [col('Last Seen'), col('Type'), col('Reason'), col('Object'), col('Subobject', 'string', 1), col('Source', 'string', 1), col('Message'), col('First Seen', 'string', 1), col('Count', 'string', 1), col('Name', 'string', 1, 'name')],
    row: (o, now) => {
      const last = parseTime(o.lastTimestamp) ?? parseTime(o.eventTime) ?? now;
      const first = parseTime(o.firstTimestamp) ?? last;
      const io = o.involvedObject ?? {};
      return [humanDuration(now - last), o.type ?? '', o.reason ?? '', `${String(io.kind ?? '').toLowerCase()}/${io.name ?? ''}`, io.fieldPath ?? '', o.source?.component ?? '', o.message ?? '', humanDuration(now - first), String(o.count ?? 1), o.metadata.name];
    },
  },
};

const DEFAULT_CONVERTER: Converter = {
  columns: [col('Name', 'string', 0, 'name'), { ...col('Created At', 'date'), format: '' }],
  row: (o) => [o.metadata.name, o.metadata.creationTimestamp ?? null],
};

function partialMetadata(o: KObject): Json {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
}

export class FakeApiserver {
  readonly objects = new Map<string, KObject>();
  readonly requests: RecordedRequest[] = [];
  private rv = 1000;
  private uid = 0;
  private watchers: Watcher[] = [];

  constructor(private readonly opts: FakeOptions) {}

  private key(info: ResourceInfo, ns: string | undefined, name: string): string {
    return `${info.group}/${info.resource}/${info.namespaced ? ns : ''}/${name}`;
  }

  /** Stores an object as-is (filling uid, resourceVersion, creationTimestamp when absent). */
  add(obj: KObject): KObject {
    const { group } = parseApiVersion(obj.apiVersion);
    const info = resourceForKind(group, obj.kind);
    if (!info) throw new Error(`fake: no resource for ${obj.apiVersion} ${obj.kind}`);
    const o = JSON.parse(JSON.stringify(obj)) as KObject;
    o.metadata.uid ??= `uid-${++this.uid}`;
    o.metadata.resourceVersion = String(++this.rv);
    o.metadata.creationTimestamp ??= rfc3339(this.opts.now());
    if (info.namespaced) o.metadata.namespace ??= 'default';
    this.objects.set(this.key(info, o.metadata.namespace, o.metadata.name!), o);
    this.notify(info, 'ADDED', o);
    return o;
  }

  private notify(info: ResourceInfo, type: string, o: KObject): void {
    for (const w of this.watchers) {
      if (w.info !== info) continue;
      if (w.namespace && w.namespace !== o.metadata.namespace) continue;
      const object = w.table ? this.table(info, [o], 'Metadata', false) : o;
      w.onLine(JSON.stringify({ type, object }));
    }
  }

  /** Ends every open watch, as a server timeout would. */
  closeWatches(): void {
    const ws = this.watchers;
    this.watchers = [];
    for (const w of ws) w.resolve(null);
  }

  transport(): KubectlTransport {
    return {
      request: async (req) => this.handle(req),
      watch: (req, onLine) => {
        let resolve!: (r: ApiResponse | null) => void;
        const done = new Promise<ApiResponse | null>((r) => (resolve = r));
        const res = this.handle(req, { onLine, resolve });
        if (res.status !== 200) resolve(res);
        return {
          cancel: () => {
            this.watchers = this.watchers.filter((w) => w.onLine !== onLine);
            resolve(null);
          },
          done,
        };
      },
    };
  }

  private table(info: ResourceInfo, items: KObject[], include: string, withHeaders = true): Json {
    const conv = CONVERTERS[info.group === '' || info.group === 'apps' ? info.resource : ''] ?? DEFAULT_CONVERTER;
    const now = this.opts.now();
    return {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: String(this.rv) },
      ...(withHeaders ? { columnDefinitions: conv.columns } : { columnDefinitions: null }),
      rows: items.map((o) => ({
        cells: conv.row(o, now),
        object: include === 'None' ? undefined : include === 'Object' ? o : partialMetadata(o),
      })),
    };
  }

  handle(req: ApiRequest, watch?: { onLine: (l: string) => void; resolve: (r: ApiResponse | null) => void }): ApiResponse {
    this.requests.push({ method: req.method, path: req.path, query: req.query, body: req.body, contentType: req.headers['content-type'] });
    const accept = req.headers['accept'] ?? '';
    const p = req.path;
    if (p === '/version') {
      return json(200, { major: '1', minor: '32', gitVersion: 'v1.32.0', gitCommit: '70d3cc986aa8221cd1dfb1121852688902d3bf53', gitTreeState: 'clean', buildDate: '2024-12-11T17:59:15Z', goVersion: 'go1.23.3', compiler: 'gc', platform: 'linux/amd64' });
    }
    if (p === '/api' || p === '/apis') return this.discoveryRoot(p, accept);
    if (p.startsWith('/openapi/v3')) return this.openapi(p);
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(?:\/(.*))?$/.exec(p);
    if (!m) return fail(st.notFound({ group: '', resource: '' }, ''));
    const group = m[2] ?? '';
    const version = m[1] ?? m[3]!;
    const rest = m[4] ? m[4].split('/') : [];
    if (rest.length === 0) return this.resourceList(group, version);
    let ns: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      ns = rest[1];
      rest.splice(0, 2);
    }
    const info = resourceFor(group, rest[0]!);
    if (!info || info.version !== version) return fail({ ...st.notFound({ group: '', resource: '' }, ''), message: 'the server could not find the requested resource', details: {} });
    const name = rest[1];
    const sub = rest[2];
    const user = req.headers['impersonate-user'] ?? 'kubernetes-admin';
    if (info.resource === 'selfsubjectaccessreviews' || info.resource === 'selfsubjectrulesreviews') return this.review(info, req, user);
    if (this.opts.deniedUsers?.includes(user)) {
      const verb = req.method === 'GET' ? (name ? 'get' : 'list') : req.method.toLowerCase();
      return fail(st.forbidden(info, name ?? '', `User "${user}" cannot ${verb} resource "${info.resource}" in API group "${info.group}"${info.namespaced && ns ? ` in the namespace "${ns}"` : ''}`));
    }
    switch (req.method) {
      case 'GET':
        if (q1(req.query, 'watch') === 'true' || q1(req.query, 'watch') === '1') {
          if (!watch) return fail(st.badRequest('watch needs the watch transport'));
          this.watchers.push({ info, namespace: ns, table: accept.includes('as=Table'), onLine: watch.onLine, resolve: watch.resolve });
          if (q1(req.query, 'resourceVersion') === '0' || q1(req.query, 'resourceVersion') === undefined) {
            for (const o of this.list(info, ns)) {
              if (name === undefined && !matchFields(q1(req.query, 'fieldSelector'), o)) continue;
              watch.onLine(JSON.stringify({ type: 'ADDED', object: accept.includes('as=Table') ? this.table(info, [o], 'Metadata') : o }));
            }
          }
          return { status: 200, headers: { 'content-type': 'application/json' }, body: '' };
        }
        if (name) {
          const o = this.objects.get(this.key(info, ns, name));
          if (!o) return fail(st.notFound(info, name));
          if (sub === 'scale') return json(200, this.scaleOf(o));
          if (accept.includes('as=Table')) return json(200, this.table(info, [o], q1(req.query, 'includeObject') ?? 'Metadata'));
          return json(200, o);
        }
        {
          const items = this.list(info, ns).filter((o) => matchLabels(q1(req.query, 'labelSelector'), o.metadata.labels) && matchFields(q1(req.query, 'fieldSelector'), o));
          if (accept.includes('as=Table')) return json(200, this.table(info, items, q1(req.query, 'includeObject') ?? 'Metadata'));
          return json(200, { kind: info.listKind, apiVersion: info.group ? `${info.group}/${info.version}` : info.version, metadata: { resourceVersion: String(this.rv) }, items: items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) });
        }
      case 'POST': {
        const body = JSON.parse(req.body ?? '{}') as KObject;
        const n = body.metadata?.name ?? (body.metadata?.generateName ? `${body.metadata.generateName}x7k2p` : undefined);
        if (!n) return fail(st.invalid({ group: info.group, kind: info.kind }, '', [{ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' } as never]));
        if (this.objects.has(this.key(info, ns, n))) return fail(st.alreadyExists(info, n));
        body.metadata.name = n;
        if (info.namespaced) body.metadata.namespace = ns ?? body.metadata.namespace;
        if (q1(req.query, 'dryRun') === 'All') return json(201, { ...body, metadata: { ...body.metadata, uid: 'dry-run-uid', creationTimestamp: rfc3339(this.opts.now()) } });
        return json(201, this.add(body));
      }
      case 'PUT': {
        const k = this.key(info, ns, name ?? '');
        const old = this.objects.get(k);
        if (!old) return fail(st.notFound(info, name ?? ''));
        const body = JSON.parse(req.body ?? '{}') as KObject;
        if (sub === 'scale') return this.store(info, k, { ...old, spec: { ...(old.spec as Json), replicas: (body.spec as Json)?.replicas } } as KObject, q1(req.query, 'dryRun'), 200);
        if (body.metadata.resourceVersion && body.metadata.resourceVersion !== old.metadata.resourceVersion) return fail(st.optimisticLock(info, name!));
        return this.store(info, k, { ...body, metadata: { ...body.metadata, uid: old.metadata.uid, creationTimestamp: old.metadata.creationTimestamp } }, q1(req.query, 'dryRun'), 200);
      }
      case 'PATCH': {
        const k = this.key(info, ns, name ?? '');
        const old = this.objects.get(k);
        if (!old) return fail(st.notFound(info, name ?? ''));
        const ct = req.headers['content-type'] ?? '';
        const patch = JSON.parse(req.body ?? '{}') as unknown;
        const base = sub === 'scale' ? this.scaleOf(old) : old;
        let next: unknown;
        if (ct.startsWith('application/json-patch+json')) next = jsonPatch(base, patch as Json[]);
        else if (ct.startsWith('application/merge-patch+json')) next = mergePatch(base, patch);
        else next = strategicPatch(base, patch);
        if (sub === 'scale') next = { ...old, spec: { ...(old.spec as Json), replicas: ((next as Json).spec as Json).replicas } };
        const out = this.store(info, k, next as KObject, q1(req.query, 'dryRun'), 200);
        return sub === 'scale' ? json(200, this.scaleOf(JSON.parse(out.body) as KObject)) : out;
      }
      case 'DELETE': {
        if (!name) {
          const items = this.list(info, ns).filter((o) => matchLabels(q1(req.query, 'labelSelector'), o.metadata.labels));
          for (const o of items) this.remove(info, o);
          return json(200, { kind: info.listKind, apiVersion: info.group ? `${info.group}/${info.version}` : info.version, metadata: {}, items });
        }
        const k = this.key(info, ns, name);
        const o = this.objects.get(k);
        if (!o) return fail(st.notFound(info, name));
        if (q1(req.query, 'dryRun') !== 'All') this.remove(info, o);
        return json(200, info.resource === 'pods' ? { ...o, metadata: { ...o.metadata, deletionTimestamp: rfc3339(this.opts.now()) } } : st.success({ gr: info, name, uid: o.metadata.uid }));
      }
      default:
        return fail(st.methodNotSupported(info, req.method));
    }
  }

  private remove(info: ResourceInfo, o: KObject): void {
    this.objects.delete(this.key(info, o.metadata.namespace, o.metadata.name!));
    this.notify(info, 'DELETED', o);
  }

  private store(info: ResourceInfo, k: string, o: KObject, dryRun: string | undefined, code: number): ApiResponse {
    if (dryRun === 'All') return json(code, o);
    const old = this.objects.get(k);
    const changed = JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } }) !== JSON.stringify({ ...old, metadata: { ...old?.metadata, resourceVersion: undefined } });
    if (changed) {
      o.metadata.resourceVersion = String(++this.rv);
      if (o.metadata.generation !== undefined && JSON.stringify(o.spec) !== JSON.stringify(old?.spec)) o.metadata.generation++;
    } else o.metadata.resourceVersion = old?.metadata.resourceVersion;
    this.objects.set(k, o);
    if (changed) this.notify(info, 'MODIFIED', o);
    return json(code, o);
  }

  private scaleOf(o: KObject): Json {
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
      spec: { replicas: (o.spec as Json)?.replicas ?? 0 },
      status: { replicas: (o.status as Json)?.replicas ?? 0, selector: '' },
    };
  }

  private list(info: ResourceInfo, ns: string | undefined): KObject[] {
    const prefix = `${info.group}/${info.resource}/`;
    return [...this.objects.entries()]
      .filter(([k, o]) => k.startsWith(prefix) && (!info.namespaced || ns === undefined || o.metadata.namespace === ns))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, o]) => o);
  }

  private review(info: ResourceInfo, req: ApiRequest, user: string): ApiResponse {
    const body = JSON.parse(req.body ?? '{}') as Json;
    const denied = this.opts.deniedUsers?.includes(user) ?? false;
    if (info.resource === 'selfsubjectaccessreviews') {
      const status = denied ? { allowed: false } : { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"' };
      return json(201, { ...body, metadata: { creationTimestamp: null }, status });
    }
    const status = denied
      ? { resourceRules: [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] }], incomplete: false }
      : { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false };
    return json(201, { ...body, metadata: { creationTimestamp: null }, status });
  }

  private openapi(p: string): ApiResponse {
    const docs = this.opts.openapi ?? {};
    if (p === '/openapi/v3' || p === '/openapi/v3/') {
      const paths: Json = {};
      for (const k of Object.keys(docs)) paths[k] = { serverRelativeURL: `/openapi/v3/${k}?hash=0123456789ABCDEF` };
      return json(200, { paths });
    }
    const doc = docs[p.slice('/openapi/v3/'.length)];
    return doc === undefined ? fail({ ...st.notFound({ group: '', resource: '' }, ''), message: 'the server could not find the requested resource', details: {} }) : json(200, doc);
  }

  private discoveryRoot(p: string, accept: string): ApiResponse {
    const groups = new Map<string, Map<string, ResourceInfo[]>>();
    for (const r of RESOURCES) {
      if ((p === '/api') !== (r.group === '')) continue;
      const g = groups.get(r.group) ?? new Map<string, ResourceInfo[]>();
      groups.set(r.group, g);
      const list = g.get(r.version) ?? [];
      g.set(r.version, list);
      list.push(r);
    }
    if (this.opts.aggregated && accept.includes('as=APIGroupDiscoveryList')) {
      const items = [...groups.entries()].map(([g, versions]) => ({
        metadata: g === '' ? { creationTimestamp: null } : { name: g, creationTimestamp: null },
        versions: [...versions.entries()].map(([v, rs]) => ({
          version: v,
          resources: rs.map((r) => ({
            resource: r.resource,
            responseKind: { group: r.group, version: r.version, kind: r.kind },
            scope: r.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: r.singularName,
            verbs: r.verbs,
            ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
            ...(r.categories.length ? { categories: r.categories } : {}),
            ...(r.subresources.length
              ? { subresources: r.subresources.map((s) => ({ subresource: s.name, responseKind: { group: s.group ?? r.group, version: s.version ?? r.version, kind: s.kind }, verbs: s.verbs })) }
              : {}),
          })),
          freshness: 'Current',
        })),
      }));
      return json(200, { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items }, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    }
    if (p === '/api') return json(200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }] });
    return json(200, {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [...groups.entries()].map(([g, versions]) => {
        const vs = [...versions.keys()].map((v) => ({ groupVersion: `${g}/${v}`, version: v }));
        return { name: g, versions: vs, preferredVersion: vs[0] };
      }),
    });
  }

  private resourceList(group: string, version: string): ApiResponse {
    const rs = RESOURCES.filter((r) => r.group === group && r.version === version);
    if (rs.length === 0) return fail({ ...st.notFound({ group: '', resource: '' }, ''), message: 'the server could not find the requested resource', details: {} });
    const resources: Json[] = [];
    for (const r of rs) {
      resources.push({ name: r.resource, singularName: r.singularName, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs, ...(r.shortNames.length ? { shortNames: r.shortNames } : {}), ...(r.categories.length ? { categories: r.categories } : {}) });
      for (const s of r.subresources) resources.push({ name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced, ...(s.group ? { group: s.group, version: s.version } : {}), kind: s.kind, verbs: s.verbs });
    }
    return json(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources });
  }
}
