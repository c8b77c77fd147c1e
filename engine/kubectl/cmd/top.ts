// kubectl top node|pod (staging/src/k8s.io/kubectl/pkg/cmd/top and
// pkg/metricsutil/metrics_printer.go, v1.32): the Metrics API must be in
// discovery ("Metrics API not available"); nodes show CPU in millicores and
// memory in Mi with their share of allocatable (or capacity), nodes without
// metrics as <unknown>; pods show their containers' sums (or each container),
// optionally with a total line. Quantities are rounded up as MilliValue and
// Value do, then truncated to Mi.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString } from '../cli/flags';
import { errs, fail } from '../client/errors';
import { parseQuantityExact } from '../util/quantityFormat';
import { KUBECTL_TABWRITER, TabWriter } from '../printers/tabWriter';
import { goDurationString } from '../../apimachinery/duration';
import { parseTime } from '../util/duration';
import { goSortArray } from '../util/goSort';

type Obj = Record<string, any>;

const COMMON: FlagDef[] = [
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'sort-by', kind: 'string' },
  { name: 'no-headers', kind: 'bool' },
  { name: 'use-protocol-buffers', kind: 'bool', default: true },
];
export const TOP_NODE_FLAGS: FlagDef[] = [...COMMON, { name: 'show-capacity', kind: 'bool' }];
export const TOP_POD_FLAGS: FlagDef[] = [
  ...COMMON,
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'containers', kind: 'bool' },
  { name: 'field-selector', kind: 'string' },
  { name: 'sum', kind: 'bool' },
];

/** metricsCreationDelay: a pod younger than this may just not have metrics yet. */
const METRICS_CREATION_DELAY_MS = 2 * 60_000;
const METRICS = '/apis/metrics.k8s.io/v1beta1';

/** Quantity.MilliValue (rounded up). */
function milli(q: unknown): bigint {
  const p = typeof q === 'string' ? parseQuantityExact(q) : undefined;
  if (!p) return 0n;
  return p.nano >= 0n ? (p.nano + 999_999n) / 1_000_000n : p.nano / 1_000_000n;
}

/** Quantity.Value (rounded up). */
function value(q: unknown): bigint {
  const p = typeof q === 'string' ? parseQuantityExact(q) : undefined;
  if (!p) return 0n;
  return p.nano >= 0n ? (p.nano + 999_999_999n) / 1_000_000_000n : p.nano / 1_000_000_000n;
}

/** How a resource's usage prints: millicores, or whole Mi. */
function usageCell(resource: 'cpu' | 'memory', nano: bigint): string {
  return resource === 'cpu' ? `${(nano + 999_999n) / 1_000_000n}m` : `${(nano + 999_999_999n) / 1_000_000_000n / (1024n * 1024n)}Mi`;
}

function nanoOf(q: unknown): bigint {
  const p = typeof q === 'string' ? parseQuantityExact(q) : undefined;
  return p ? p.nano : 0n;
}

/** SupportedMetricsAPIVersionAvailable: metrics.k8s.io/v1beta1 among the server's groups. */
async function requireMetricsApi(ctx: Ctx): Promise<void> {
  await ctx.discovery.load();
  const g = ctx.discovery.groups.find((x) => x.name === 'metrics.k8s.io');
  if (!g || !g.versions.includes('v1beta1')) fail(errs.plain('Metrics API not available'));
}

/** A metrics call; an error without a Status names what was asked for, as client-go's generic errors do. */
async function metricsGet(ctx: Ctx, path: string, what: string, query: Record<string, string> = {}): Promise<Obj> {
  const res = await ctx.client.raw('GET', path, { query, accept: 'application/json, */*' });
  if (res.status >= 200 && res.status < 300) return JSON.parse(res.body) as Obj;
  let st: Obj | undefined;
  try {
    const v = JSON.parse(res.body) as Obj;
    if (v && v.kind === 'Status') st = v;
  } catch {
    // not a Status
  }
  if (st) fail(errs.status(st as never));
  const generic: Record<number, [string, string]> = {
    403: ['Forbidden', 'the server does not allow access to the requested resource'],
    404: ['NotFound', 'the server could not find the requested resource'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  };
  const [reason, message] = generic[res.status] ?? ['InternalError', `an error on the server (${JSON.stringify(res.body.trim().slice(0, 100))}) has prevented the request from succeeding`];
  return fail(errs.status({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${message} (get ${what})`, reason, code: res.status } as never));
}

function selectorQuery(ctx: Ctx, withFields: boolean): Record<string, string> {
  const q: Record<string, string> = {};
  const l = getString(ctx.flags, 'selector');
  if (l) q.labelSelector = l;
  if (withFields) {
    const f = getString(ctx.flags, 'field-selector');
    if (f) q.fieldSelector = f;
  }
  return q;
}

function validateSortBy(ctx: Ctx): string {
  const s = getString(ctx.flags, 'sort-by');
  if (s && s !== 'cpu' && s !== 'memory') fail(errs.plain('--sort-by accepts only cpu or memory'));
  return s;
}

/** printValue: every cell tab-terminated, the line then ends. */
const line = (cells: string[]) => `${cells.join('\t')}\t\n`;

export async function runTopNode(ctx: Ctx, args: string[]): Promise<void> {
  if (args.length > 1) fail(errs.usage('kubectl top node [NAME | -l label]', ctx.commandPath));
  const name = args[0] ?? '';
  const sortBy = validateSortBy(ctx);
  if (name && getString(ctx.flags, 'selector')) fail(errs.plain('only one of NAME or --selector can be provided'));
  await requireMetricsApi(ctx);
  const metrics = name ? [await metricsGet(ctx, `${METRICS}/nodes/${name}`, `nodes.metrics.k8s.io ${name}`)] : (((await metricsGet(ctx, `${METRICS}/nodes`, 'nodes.metrics.k8s.io', selectorQuery(ctx, false))).items as Obj[]) ?? []);
  if (metrics.length === 0) fail(errs.plain('metrics not available yet'));
  const nodes = name ? [await ctx.client.json<Obj>('GET', `/api/v1/nodes/${name}`)] : (((await ctx.client.json<Obj>('GET', '/api/v1/nodes', { query: selectorQuery(ctx, false) })).items as Obj[]) ?? []);
  const field = getBool(ctx.flags, 'show-capacity') ? 'capacity' : 'allocatable';
  const available = new Map<string, Obj>(nodes.map((n) => [n.metadata.name as string, (n.status?.[field] ?? {}) as Obj]));
  // sort.Sort (not stable: nodes with equal usage come out in Go's order).
  goSortArray(metrics, (a, b) => {
    if (sortBy === 'cpu') return milli(a.usage?.cpu) > milli(b.usage?.cpu);
    if (sortBy === 'memory') return value(a.usage?.memory) > value(b.usage?.memory);
    return a.metadata.name < b.metadata.name;
  });
  const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
  if (!getBool(ctx.flags, 'no-headers')) tw.write(line(['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']));
  const pct = (used: unknown, avail: unknown) => {
    const a = milli(avail);
    return `${a === 0n ? 0 : Math.trunc((Number(milli(used)) / Number(a)) * 100)}%`;
  };
  for (const m of metrics) {
    const avail = available.get(m.metadata.name) ?? {};
    const cells = [m.metadata.name as string, usageCell('cpu', nanoOf(m.usage?.cpu))];
    if ('cpu' in avail) cells.push(pct(m.usage?.cpu, avail.cpu));
    cells.push(usageCell('memory', nanoOf(m.usage?.memory)));
    if ('memory' in avail) cells.push(pct(m.usage?.memory, avail.memory));
    tw.write(line(cells));
    available.delete(m.metadata.name);
  }
  // Nodes the Metrics API had nothing for.
  for (const n of [...available.keys()].sort()) tw.write(line([n, '<unknown>', '<unknown>', '<unknown>', '<unknown>']));
  tw.flush();
}

export async function runTopPod(ctx: Ctx, args: string[]): Promise<void> {
  if (args.length > 1) fail(errs.usage('kubectl top pod [NAME | -l label]', ctx.commandPath));
  const name = args[0] ?? '';
  const sortBy = validateSortBy(ctx);
  if (name && (getString(ctx.flags, 'selector') || getString(ctx.flags, 'field-selector'))) fail(errs.plain('only one of NAME or selector can be provided'));
  const all = getBool(ctx.flags, 'all-namespaces');
  await requireMetricsApi(ctx);
  const base = all ? METRICS : `${METRICS}/namespaces/${ctx.namespace}`;
  const metrics = name ? [await metricsGet(ctx, `${base}/pods/${name}`, `pods.metrics.k8s.io ${name}`)] : (((await metricsGet(ctx, `${base}/pods`, 'pods.metrics.k8s.io', selectorQuery(ctx, true))).items as Obj[]) ?? []);
  if (metrics.length === 0) {
    await verifyEmptyMetrics(ctx, name);
    ctx.io.err(all ? 'No resources found\n' : `No resources found in ${ctx.namespace} namespace.\n`);
    return;
  }
  const containers = getBool(ctx.flags, 'containers');
  const podSum = (m: Obj, r: 'cpu' | 'memory') => ((m.containers as Obj[]) ?? []).reduce((s, c) => s + nanoOf(c.usage?.[r]), 0n);
  goSortArray(metrics, (a, b) => {
    if (sortBy === 'cpu') return milli(`${podSum(a, 'cpu')}n`) > milli(`${podSum(b, 'cpu')}n`);
    if (sortBy === 'memory') return value(`${podSum(a, 'memory')}n`) > value(`${podSum(b, 'memory')}n`);
    if (all && a.metadata.namespace !== b.metadata.namespace) return a.metadata.namespace < b.metadata.namespace;
    return a.metadata.name < b.metadata.name;
  });
  const tw = new TabWriter(KUBECTL_TABWRITER, (t) => ctx.io.out(t));
  const columns = ['NAME', 'CPU(cores)', 'MEMORY(bytes)'];
  let width = columns.length;
  if (!getBool(ctx.flags, 'no-headers')) {
    const head: string[] = [];
    if (all) head.push('NAMESPACE');
    if (containers) head.push('POD');
    tw.write(line([...head, ...columns]));
  }
  if (all) width++;
  if (containers) width++;
  let cpuTotal = 0n;
  let memTotal = 0n;
  for (const m of metrics) {
    const ns = all ? [m.metadata.namespace as string] : [];
    if (containers) {
      const cs = [...((m.containers as Obj[]) ?? [])];
      if (sortBy === 'cpu') goSortArray(cs, (a, b) => milli(a.usage?.cpu) > milli(b.usage?.cpu));
      else if (sortBy === 'memory') goSortArray(cs, (a, b) => value(a.usage?.memory) > value(b.usage?.memory));
      for (const c of cs) tw.write(line([...ns, m.metadata.name, c.name, usageCell('cpu', nanoOf(c.usage?.cpu)), usageCell('memory', nanoOf(c.usage?.memory))]));
    } else tw.write(line([...ns, m.metadata.name, usageCell('cpu', podSum(m, 'cpu')), usageCell('memory', podSum(m, 'memory'))]));
    cpuTotal += podSum(m, 'cpu');
    memTotal += podSum(m, 'memory');
  }
  if (getBool(ctx.flags, 'sum')) {
    tw.write(line([...Array(width - 2).fill(''), '________', '________']));
    tw.write(line([...Array(width - 3).fill(''), '', usageCell('cpu', cpuTotal), usageCell('memory', memTotal)]));
  }
  tw.flush();
}

/** Why nothing came back: pods older than two minutes should have had metrics by now. */
async function verifyEmptyMetrics(ctx: Ctx, name: string): Promise<void> {
  const pods = name ? [await ctx.client.json<Obj>('GET', `/api/v1/namespaces/${ctx.namespace}/pods/${name}`)] : (((await ctx.client.json<Obj>('GET', `/api/v1/namespaces/${ctx.namespace}/pods`, { query: selectorQuery(ctx, true) })).items as Obj[]) ?? []);
  if (!name && pods.length === 0) return;
  for (const p of pods) {
    const created = parseTime(p.metadata?.creationTimestamp);
    const age = created === undefined ? 0 : ctx.now() - created;
    if (age > METRICS_CREATION_DELAY_MS) fail(errs.plain(`Metrics not available for pod ${p.metadata.namespace}/${p.metadata.name}, age: ${goDurationString(age)}`));
  }
  fail(errs.plain('metrics not available yet'));
}

