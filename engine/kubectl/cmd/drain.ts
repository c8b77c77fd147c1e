// kubectl drain (staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go and
// pkg/drain/{drain,filters}.go): cordon the node, list its pods, filter them
// (mirror pods skipped; DaemonSet pods an error unless --ignore-daemonsets,
// then a warning; emptyDir pods an error unless --delete-emptydir-data;
// pods without a controller an error unless --force), then evict each one
// through the policy/v1 Eviction subresource — a 429 (a PodDisruptionBudget
// says no) is retried every 5 s, saying so — and wait, polling every second,
// until each is gone: "pod/x evicted", then "node/x drained". --timeout bounds
// the whole drain; --disable-eviction deletes instead.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, parseGoDuration } from '../cli/flags';
import { errs, fail, type KubectlErr } from '../client/errors';
import { DRY_RUN_FLAG, dryRunStrategy, type DryRun } from './common';
import { runCordon } from './workloads';
import { sleep } from './logs';

type Obj = Record<string, any>;

export const DRAIN_FLAGS: FlagDef[] = [
  { name: 'chunk-size', kind: 'int', default: 500 },
  { name: 'delete-emptydir-data', kind: 'bool' },
  { name: 'delete-local-data', kind: 'bool', hidden: true },
  { name: 'disable-eviction', kind: 'bool' },
  DRY_RUN_FLAG,
  { name: 'force', kind: 'bool' },
  { name: 'grace-period', kind: 'int', default: -1 },
  { name: 'ignore-daemonsets', kind: 'bool' },
  { name: 'pod-selector', kind: 'string' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'skip-wait-for-delete-timeout', kind: 'int', default: 0 },
  { name: 'timeout', kind: 'duration', default: '0s' },
];

const DAEMONSET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const DAEMONSET_WARNING = 'ignoring DaemonSet-managed Pods';
const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';
const UNMANAGED_FATAL = 'cannot delete Pods that declare no controller (use --force to override)';
const UNMANAGED_WARNING = 'deleting Pods that declare no controller';

type Verdict = { delete: boolean; reason: 'Okay' | 'Skip' | 'Warning' | 'Error'; message?: string };

interface Options {
  force: boolean;
  ignoreDaemonSets: boolean;
  deleteEmptyDir: boolean;
  gracePeriod: number;
  disableEviction: boolean;
  podSelector: string;
  /** ms; 0 = no limit. */
  timeout: number;
  skipWaitForDeleteSeconds: number;
  dryRun: DryRun;
}

const finished = (p: Obj) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const controllerOf = (p: Obj) => ((p.metadata?.ownerReferences as Obj[]) ?? []).find((r) => r.controller === true);
const key = (p: Obj) => `${p.metadata.namespace}/${p.metadata.name}`;

/** The filters in upstream's order; the first that says "do not delete" decides. */
async function verdictFor(ctx: Ctx, o: Options, pod: Obj, now: number): Promise<Verdict> {
  const okay: Verdict = { delete: true, reason: 'Okay' };
  let v: Verdict = okay;
  // skipDeletedFilter
  if (o.skipWaitForDeleteSeconds > 0 && pod.metadata.deletionTimestamp && Math.floor((now - Date.parse(pod.metadata.deletionTimestamp)) / 1000) > o.skipWaitForDeleteSeconds)
    return { delete: false, reason: 'Skip' };
  // daemonSetFilter
  const ref = controllerOf(pod);
  if (ref?.kind === 'DaemonSet' && !finished(pod)) {
    const ds = await ctx.client.tryJson('GET', `/apis/apps/v1/namespaces/${pod.metadata.namespace}/daemonsets/${ref.name}`);
    if (!ds.ok) {
      if (ds.status.code === 404 && o.force) v = { delete: true, reason: 'Warning', message: ds.status.message ?? '' };
      else return { delete: false, reason: 'Error', message: ds.status.message ?? '' };
    } else if (!o.ignoreDaemonSets) return { delete: false, reason: 'Error', message: DAEMONSET_FATAL };
    else return { delete: false, reason: 'Warning', message: DAEMONSET_WARNING };
  }
  // mirrorPodFilter
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return { delete: false, reason: 'Skip' };
  // localStorageFilter
  if (((pod.spec?.volumes as Obj[]) ?? []).some((vol) => vol.emptyDir) && !finished(pod)) {
    if (!o.deleteEmptyDir) return { delete: false, reason: 'Error', message: LOCAL_STORAGE_FATAL };
    v = { delete: true, reason: 'Warning', message: LOCAL_STORAGE_WARNING };
  }
  // unreplicatedFilter
  if (!finished(pod) && !ref) {
    if (!o.force) return { delete: false, reason: 'Error', message: UNMANAGED_FATAL };
    v = { delete: true, reason: 'Warning', message: UNMANAGED_WARNING };
  }
  return v;
}

interface DeleteList {
  items: { pod: Obj; v: Verdict }[];
}

const pods = (l: DeleteList) => l.items.filter((i) => i.v.delete).map((i) => i.pod);

/** Warnings(): each message with its pods, "; "-joined. */
function warnings(l: DeleteList): string {
  const by = new Map<string, string[]>();
  for (const i of l.items) if (i.v.reason === 'Warning') by.set(i.v.message ?? '', [...(by.get(i.v.message ?? '') ?? []), key(i.pod)]);
  return [...by].map(([m, ps]) => `${m}: ${ps.join(', ')}`).join('; ');
}

function listErrors(l: DeleteList): KubectlErr[] {
  const by = new Map<string, string[]>();
  for (const i of l.items) if (i.v.reason === 'Error') by.set(i.v.message || 'unexpected error', [...(by.get(i.v.message || 'unexpected error') ?? []), key(i.pod)]);
  return [...by].map(([m, ps]) => errs.plain(m.toLowerCase().startsWith('cannot delete') ? `${m}: ${ps.join(', ')}` : `cannot delete ${m}: ${ps.join(', ')}`));
}

async function podsForDeletion(ctx: Ctx, o: Options, node: string): Promise<{ list: DeleteList; errors: KubectlErr[] }> {
  const query: Record<string, string> = { fieldSelector: `spec.nodeName=${node}` };
  if (o.podSelector) query.labelSelector = o.podSelector;
  const r = await ctx.client.json<Obj>('GET', '/api/v1/pods', { query });
  const now = ctx.now();
  const list: DeleteList = { items: [] };
  for (const pod of (r.items as Obj[]) ?? []) list.items.push({ pod, v: await verdictFor(ctx, o, pod, now) });
  return { list, errors: listErrors(list) };
}

/** An error as utilerrors.NewAggregate prints it (one: itself; several: [a, b]). */
function aggregateText(es: string[]): string {
  const uniq = [...new Set(es)];
  return uniq.length === 1 ? uniq[0]! : `[${uniq.join(', ')}]`;
}

const errText = (e: KubectlErr) => (e.type === 'Error' || e.type === 'Raw' ? e.message : e.type === 'StatusError' ? (e.status.message ?? '') : '');

function durationText(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s - m * 60}s`;
  const h = Math.floor(m / 60);
  return `${h}h${m - h * 60}m${s - m * 60}s`;
}

/** evictPods / deletePods, then waitForDelete: one error message per pod that did not go. */
async function deleteOrEvict(ctx: Ctx, o: Options, list: Obj[]): Promise<string[]> {
  if (list.length === 0) return [];
  const start = ctx.now();
  const deadline = o.timeout > 0 ? start + o.timeout : Infinity;
  const globalTimeout = o.timeout > 0 ? durationText(o.timeout) : '2562047h47m16.854775807s';
  const deleteOptions = o.gracePeriod >= 0 ? { gracePeriodSeconds: o.gracePeriod } : {};
  const errors: string[] = [];
  const waiting: Obj[] = [];
  if (o.disableEviction) {
    for (const pod of list) {
      const r = await ctx.client.tryJson('DELETE', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, { body: deleteOptions });
      if (!r.ok && r.status.code !== 404) return [r.status.message ?? ''];
      waiting.push(pod);
    }
  } else {
    // Each pod's eviction loop runs side by side upstream; here they take turns, each retry after the 5 s sleep.
    const pending = [...list];
    while (pending.length > 0) {
      const retry: Obj[] = [];
      for (const pod of pending) {
        ctx.io.out(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name}${o.dryRun === 'server' ? ' (server dry run)' : ''}\n`);
        if (ctx.now() >= deadline) {
          errors.push(`error when evicting pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}": global timeout reached: ${globalTimeout}`);
          continue;
        }
        const body = {
          kind: 'Eviction',
          apiVersion: 'policy/v1',
          metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace },
          deleteOptions: { ...deleteOptions, ...(o.dryRun === 'server' ? { dryRun: ['All'] } : {}) },
        };
        const r = await ctx.client.tryJson('POST', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/eviction`, { body });
        if (r.ok) {
          if (o.dryRun !== 'server') waiting.push(pod);
          continue;
        }
        if (r.status.code === 404) continue;
        if (r.status.code === 429) {
          ctx.io.err(`error when evicting pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}" (will retry after 5s): ${r.status.message ?? ''}\n`);
          retry.push(pod);
          continue;
        }
        errors.push(`error when evicting pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}": ${r.status.message ?? ''}`);
      }
      if (retry.length === 0) break;
      await sleep(ctx, 5000);
      pending.splice(0, pending.length, ...retry);
    }
  }
  // waitForDelete: a GET per pod every second until it is gone (or replaced by a pod of the same name).
  let left = waiting;
  for (;;) {
    const still: Obj[] = [];
    for (const pod of left) {
      const r = await ctx.client.tryJson<Obj>('GET', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`);
      if ((!r.ok && r.status.code === 404) || (r.ok && r.value.metadata?.uid !== pod.metadata.uid)) {
        ctx.io.out(`pod/${pod.metadata.name} ${o.disableEviction ? 'deleted' : 'evicted'}\n`);
        continue;
      }
      if (!r.ok) {
        errors.push(r.status.message ?? '');
        continue;
      }
      if (o.skipWaitForDeleteSeconds > 0 && r.value.metadata?.deletionTimestamp && Math.floor((ctx.now() - Date.parse(r.value.metadata.deletionTimestamp)) / 1000) > o.skipWaitForDeleteSeconds) {
        ctx.io.out(`pod "${pod.metadata.name}" has DeletionTimestamp older than ${o.skipWaitForDeleteSeconds} seconds, skipping\n`);
        continue;
      }
      still.push(pod);
    }
    left = still;
    if (left.length === 0) break;
    if (ctx.now() >= deadline) {
      for (const pod of left)
        errors.push(
          o.disableEviction
            ? `global timeout reached: ${globalTimeout}`
            : `error when waiting for pod "${pod.metadata.name}" in namespace "${pod.metadata.namespace}" to terminate: global timeout reached: ${globalTimeout}`,
        );
      break;
    }
    await sleep(ctx, 1000);
  }
  return errors;
}

export async function runDrain(ctx: Ctx, args: string[]): Promise<void> {
  const selector = getString(ctx.flags, 'selector');
  if (args.length === 0 && !ctx.flags.changed.has('selector')) fail(errs.usage('USAGE: drain NODE [flags]', ctx.commandPath));
  if (args.length > 0 && selector) fail(errs.usage('error: cannot specify both a node name and a --selector option', ctx.commandPath));
  const podSelector = getString(ctx.flags, 'pod-selector');
  if (podSelector && !/^[\w./-]+(\s*(=|==|!=)\s*[\w.-]*)?(,\s*[\w./-]+(\s*(=|==|!=)\s*[\w.-]*)?)*$/.test(podSelector)) fail(errs.plain('--pod-selector=<pod_selector> must be a valid label selector'));
  const o: Options = {
    force: getBool(ctx.flags, 'force'),
    ignoreDaemonSets: getBool(ctx.flags, 'ignore-daemonsets'),
    deleteEmptyDir: getBool(ctx.flags, 'delete-emptydir-data') || getBool(ctx.flags, 'delete-local-data'),
    gracePeriod: getInt(ctx.flags, 'grace-period'),
    disableEviction: getBool(ctx.flags, 'disable-eviction'),
    podSelector,
    timeout: parseGoDuration(getString(ctx.flags, 'timeout')) ?? 0,
    skipWaitForDeleteSeconds: getInt(ctx.flags, 'skip-wait-for-delete-timeout'),
    dryRun: dryRunStrategy(ctx),
  };
  if (getBool(ctx.flags, 'delete-local-data')) ctx.io.err('Flag --delete-local-data has been deprecated, This option is deprecated and will be deleted. Use --delete-emptydir-data.\n');
  // RunCordonOrUncordon(true): "node/x cordoned" (or "already cordoned").
  await runCordon(ctx, args, true);
  const nodes = args.length > 0 ? args : ((await ctx.client.json<Obj>('GET', '/api/v1/nodes', { query: { labelSelector: selector } })).items as Obj[]).map((n) => n.metadata.name as string);
  const fatal: string[][] = [];
  const remaining: string[] = [];
  const suffix = o.dryRun === 'client' ? ' (dry run)' : o.dryRun === 'server' ? ' (server dry run)' : '';
  for (const node of nodes) {
    const { list, errors } = await podsForDeletion(ctx, o, node);
    let err = '';
    let nodeErrors: string[] = [];
    if (errors.length > 0) {
      nodeErrors = errors.map(errText);
      err = aggregateText(nodeErrors);
    } else {
      const w = warnings(list);
      if (w) ctx.io.err(`Warning: ${w}\n`);
      if (o.dryRun === 'client') {
        for (const pod of pods(list)) ctx.io.out(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name} (dry run)\n`);
      } else {
        const failures = await deleteOrEvict(ctx, o, pods(list));
        if (failures.length > 0) {
          nodeErrors = failures;
          err = aggregateText(failures);
          const after = await podsForDeletion(ctx, o, node);
          const pendingPods = pods(after.list);
          if (pendingPods.length > 0) {
            ctx.io.err(`There are pending pods in node "${node}" when an error occurred: ${err}\n`);
            for (const p of pendingPods) ctx.io.err(`pod/${p.metadata.name}\n`);
          }
          if (after.errors.length > 0) ctx.io.err(`Following errors occurred while getting the list of pods to delete:\n${aggregateText(after.errors.map(errText))}`);
        }
      }
    }
    if (!err) {
      ctx.io.out(`node/${node} drained${suffix}\n`);
      continue;
    }
    ctx.io.err(`error: unable to drain node "${node}" due to error: ${err}, continuing command...\n`);
    fatal.push([...new Set(nodeErrors)]);
    remaining.push(node);
  }
  if (remaining.length > 0) ctx.io.err(`There are pending nodes to be drained:\n${remaining.map((n) => ` ${n}\n`).join('')}`);
  // checkErr prints each error of the aggregate on its own line, without "error: ".
  if (fatal.length > 0) fail({ type: 'Aggregate', errors: fatal.map((list) => ({ type: 'Aggregate', errors: list.map((m) => errs.raw(m)) })) });
}
