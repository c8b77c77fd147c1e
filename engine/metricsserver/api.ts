// The metrics.k8s.io/v1beta1 API metrics-server serves
// (pkg/api/{node,pod,table}.go, v0.7): NodeMetrics and PodMetrics, got and
// listed (label and field selectors), as JSON or as a meta.k8s.io Table
// (Name, cpu, memory, Window), with the discovery document the aggregator
// reads. Requests reach it through kube-apiserver's aggregation layer, which
// has already authenticated and authorized the caller.
import type { KObject } from '../apimachinery/types';
import { status } from '../apimachinery/status';
import * as labels from '../apimachinery/selectors/labels';
import { goDurationString } from '../apimachinery/duration';
import type { ApiRequest, ApiResponse } from '../apiserver/types';
import { jsonResponse, queryValue } from '../apiserver/http/messages';
import { rfc3339, epochMs } from '../apiserver/http/time';
import { formatQuantity } from '../apiserver/validation/quantity';
import type { MetricsStorage, TimeInfo, Usage } from './storage';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
const GV = `${METRICS_GROUP}/${METRICS_VERSION}`;

/** The extension server's discovery document for metrics.k8s.io/v1beta1. */
export const METRICS_RESOURCE_LIST = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: GV,
  resources: [
    { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
    { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
  ],
};

export interface MetricsApiSource {
  readonly storage: MetricsStorage;
  nodes(): ReadonlyMap<string, KObject>;
  pods(): ReadonlyMap<string, KObject>;
}

const toTime = (wallMs: number) => rfc3339(wallMs - epochMs());

/** uint64Quantity: nanocores as DecimalSI, bytes as BinarySI, canonical text. */
function usageJson(u: Usage): Record<string, string> {
  return {
    cpu: formatQuantity({ nanos: BigInt(u.cpuNanos), format: 'DecimalSI' }),
    memory: formatQuantity({ nanos: BigInt(u.memoryBytes) * 1_000_000_000n, format: 'BinarySI' }),
  };
}

function meta(o: KObject, now: number): Record<string, unknown> {
  const m: Record<string, unknown> = { name: o.metadata.name };
  if (o.metadata.namespace) m.namespace = o.metadata.namespace;
  m.creationTimestamp = rfc3339(now);
  if (o.metadata.labels && Object.keys(o.metadata.labels).length) m.labels = { ...o.metadata.labels };
  return m;
}

function timeJson(t: TimeInfo): { timestamp: string; window: string } {
  return { timestamp: toTime(t.timestamp), window: goDurationString(t.windowMs) };
}

const byName = (a: KObject, b: KObject) => {
  const x = `${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`;
  const y = `${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`;
  return x < y ? -1 : x > y ? 1 : 0;
};

type Item = { kind: string; metadata: Record<string, unknown>; timestamp: string; window: string; usage?: Record<string, string>; containers?: { name: string; usage: Record<string, string> }[] };
/** An item and its usage as numbers (a pod's containers summed), for tables. */
type Row = { item: Item; total: Usage };

function nodeItem(src: MetricsApiSource, node: KObject, now: number): Row | null {
  const m = src.storage.nodeMetrics(node.metadata.name!);
  return m ? { item: { kind: 'NodeMetrics', metadata: meta(node, now), ...timeJson(m.time), usage: usageJson(m.usage) }, total: m.usage } : null;
}

function podItem(src: MetricsApiSource, pod: KObject, now: number): Row | null {
  // Only Running pods have metrics.
  if ((pod.status as { phase?: string } | undefined)?.phase !== 'Running') return null;
  const m = src.storage.podMetrics(`${pod.metadata.namespace}/${pod.metadata.name}`);
  if (!m) return null;
  const total = m.containers.reduce((t, c) => ({ cpuNanos: t.cpuNanos + c.usage.cpuNanos, memoryBytes: t.memoryBytes + c.usage.memoryBytes }), { cpuNanos: 0, memoryBytes: 0 });
  return { item: { kind: 'PodMetrics', metadata: meta(pod, now), ...timeJson(m.time), containers: m.containers.map((c) => ({ name: c.name, usage: usageJson(c.usage) })) }, total };
}

const wantsTable = (req: ApiRequest) => (req.headers['accept'] ?? '').split(',').some((p) => p.includes('as=Table') && p.includes('g=meta.k8s.io'));

/** addNodeMetricsToTable / addPodMetricsToTable (a pod's containers summed). */
function table(items: Row[], includeObject: string): unknown {
  const rows = items.map(({ item: it, total }) => {
    const usage = usageJson(total);
    const object = includeObject === 'None' ? null : includeObject === 'Object' ? { ...it, apiVersion: GV } : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: it.metadata };
    return { cells: [it.metadata.name, usage.cpu, usage.memory, it.window], object };
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {},
    columnDefinitions: items.length
      ? [
          { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
          { name: 'cpu', type: 'string', format: 'quantity', description: '', priority: 0 },
          { name: 'memory', type: 'string', format: 'quantity', description: '', priority: 0 },
          { name: 'Window', type: 'string', format: 'duration', description: '', priority: 0 },
        ]
      : null,
    rows,
  };
}

/** The field selectors the metrics lists accept (AddObjectMetaFieldsSet): metadata.name and metadata.namespace. */
function fieldMatcher(sel: string | undefined): ((o: KObject) => boolean) | string {
  if (!sel) return () => true;
  const reqs: { key: string; value: string; neg: boolean }[] = [];
  for (const part of sel.split(',')) {
    const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(part.trim());
    if (!m) return `invalid selector: '${sel}'; can't understand '${part}'`;
    reqs.push({ key: m[1]!, value: m[3]!, neg: m[2] === '!=' });
  }
  return (o) =>
    reqs.every((r) => {
      const v = r.key === 'metadata.name' ? o.metadata.name : r.key === 'metadata.namespace' ? o.metadata.namespace : undefined;
      return r.neg ? v !== r.value : v === r.value;
    });
}

/** Serves one request; `now` is virtual ms. */
export function serveMetricsApi(src: MetricsApiSource, req: ApiRequest, now: number): ApiResponse {
  const path = req.path.replace(/\/+$/, '');
  if (req.method !== 'GET') return jsonResponse(405, status.methodNotSupported({ group: METRICS_GROUP, resource: 'nodes' }, req.method.toLowerCase()));
  if (path === `/apis/${GV}`) return jsonResponse(200, METRICS_RESOURCE_LIST);
  const parts = path.split('/').filter(Boolean).slice(3); // after apis/metrics.k8s.io/v1beta1
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    namespace = parts[1]!;
    parts.splice(0, 2);
  }
  const [resource, name] = parts as [string | undefined, string | undefined];
  if ((resource !== 'nodes' && resource !== 'pods') || parts.length > 2 || (resource === 'nodes' && namespace)) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' };
  const asTable = wantsTable(req);
  const include = queryValue(req.query, 'includeObject') ?? 'Metadata';
  const one = (row: Row | null, notFound: () => ApiResponse): ApiResponse => {
    if (!row) return notFound();
    return jsonResponse(200, asTable ? table([row], include) : { ...row.item, apiVersion: GV });
  };
  if (resource === 'nodes') {
    if (name) {
      const node = src.nodes().get(name);
      if (!node) return jsonResponse(404, status.notFound({ group: '', resource: 'node' }, name));
      return one(nodeItem(src, node, now), () => jsonResponse(404, status.notFound({ group: METRICS_GROUP, resource: 'nodemetrics' }, name)));
    }
  } else if (name) {
    const pod = src.pods().get(`${namespace}/${name}`);
    if (!pod) return jsonResponse(404, status.notFound({ group: '', resource: 'pod' }, name));
    return one(podItem(src, pod, now), () => jsonResponse(404, status.notFound({ group: METRICS_GROUP, resource: 'podmetrics' }, `${namespace}/${name}`)));
  }
  const ls = queryValue(req.query, 'labelSelector');
  const parsed = ls ? labels.parse(ls) : null;
  if (parsed && !parsed.ok) return jsonResponse(400, status.badRequest(parsed.error));
  const fields = fieldMatcher(queryValue(req.query, 'fieldSelector'));
  if (typeof fields === 'string') return jsonResponse(400, status.badRequest(fields));
  const selected = (objs: Iterable<KObject>) =>
    [...objs].filter((o) => (!namespace || o.metadata.namespace === namespace) && (!parsed || labels.matches(parsed.selector, o.metadata.labels ?? {})) && fields(o)).sort(byName);
  const rows = (resource === 'nodes' ? selected(src.nodes().values()).map((n) => nodeItem(src, n, now)) : selected(src.pods().values()).map((p) => podItem(src, p, now))).filter((x): x is Row => x !== null);
  if (asTable) return jsonResponse(200, table(rows, include));
  return jsonResponse(200, { kind: resource === 'nodes' ? 'NodeMetricsList' : 'PodMetricsList', apiVersion: GV, metadata: {}, items: rows.map(({ item: { kind: _k, ...rest } }) => rest) });
}
