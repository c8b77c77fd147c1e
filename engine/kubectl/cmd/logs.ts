// kubectl logs and kubectl exec (staging/src/k8s.io/kubectl/pkg/cmd/logs,
// cmd/exec, polymorphichelpers logsforobject.go / attachablepodforobject.go,
// util/podcmd): the pod behind POD or TYPE/NAME (the first by ByLogging for a
// workload, "Found 3 pods, using pod/web-…"), the default container
// ("Defaulted container "a" out of: a, b"), PodLogOptions from the flags, and
// the server's answer streamed as it comes with -f. Exec posts pods/exec and
// prints the command's output; a non-zero exit is "command terminated with
// exit code N" with that exit status. Without -i the simulation's pods/exec
// answers once the command has run; with -i it is a stream both ways, framed
// by channel as upstream's WebSocket (v5.channel.k8s.io) is, and the
// terminal's keys are its stdin (raw with -t: Ctrl-C and Ctrl-D go to the
// container's terminal).
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, parseGoDuration } from '../cli/flags';
import { errs, fail } from '../client/errors';
import { statusFromResponse } from '../client/rest';
import { resolveArgs, resourcePath } from '../resource/builder';
import { exitWith, remoteStream } from './stream';

type Obj = Record<string, any>;

export const LOGS_FLAGS: FlagDef[] = [
  { name: 'all-containers', kind: 'bool' },
  { name: 'all-pods', kind: 'bool' },
  { name: 'container', shorthand: 'c', kind: 'string' },
  { name: 'follow', shorthand: 'f', kind: 'bool' },
  { name: 'ignore-errors', kind: 'bool' },
  { name: 'insecure-skip-tls-verify-backend', kind: 'bool' },
  { name: 'limit-bytes', kind: 'int' },
  { name: 'max-log-requests', kind: 'int', default: 5 },
  { name: 'pod-running-timeout', kind: 'duration', default: '20s' },
  { name: 'prefix', kind: 'bool' },
  { name: 'previous', shorthand: 'p', kind: 'bool' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'since', kind: 'duration', default: '0s' },
  { name: 'since-time', kind: 'string' },
  { name: 'tail', kind: 'int', default: -1 },
  { name: 'timestamps', kind: 'bool' },
];

export const EXEC_FLAGS: FlagDef[] = [
  { name: 'container', shorthand: 'c', kind: 'string' },
  { name: 'filename', shorthand: 'f', kind: 'stringSlice' },
  { name: 'pod-running-timeout', kind: 'duration', default: '1m0s' },
  { name: 'quiet', shorthand: 'q', kind: 'bool' },
  { name: 'stdin', shorthand: 'i', kind: 'bool' },
  { name: 'tty', shorthand: 't', kind: 'bool' },
];

const LOGS_USAGE = "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command";

/** podcmd.AllContainerNames: containers, then ephemeral (ephem), then init (init). */
function allContainerNames(pod: Obj): string {
  const names = [
    ...((pod.spec?.containers as Obj[]) ?? []).map((c) => c.name as string),
    ...((pod.spec?.ephemeralContainers as Obj[]) ?? []).map((c) => `${c.name} (ephem)`),
    ...((pod.spec?.initContainers as Obj[]) ?? []).map((c) => `${c.name} (init)`),
  ];
  return names.join(', ');
}

export function findContainer(pod: Obj, name: string): boolean {
  return ['containers', 'initContainers', 'ephemeralContainers'].some((k) => ((pod.spec?.[k] as Obj[]) ?? []).some((c) => c.name === name));
}

/** The kubectl.kubernetes.io/default-container annotation, else the first container (saying so when there are others). */
export function defaultContainer(ctx: Ctx, pod: Obj, quiet: boolean): string {
  const annotated = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] as string | undefined;
  if (annotated && findContainer(pod, annotated)) return annotated;
  const containers = (pod.spec?.containers as Obj[]) ?? [];
  if (containers.length === 0) fail(errs.plain(`pod ${pod.metadata?.namespace}/${pod.metadata?.name} does not have any containers`));
  const first = containers[0]!.name as string;
  const others = containers.length > 1 || ((pod.spec?.initContainers as Obj[]) ?? []).length > 0 || ((pod.spec?.ephemeralContainers as Obj[]) ?? []).length > 0;
  if (!quiet && others) ctx.io.err(`Defaulted container "${first}" out of: ${allContainerNames(pod)}\n`);
  return first;
}

/** podutils.ByLogging: assigned, Running, ready, ready longest, most restarts, oldest. */
function byLogging(a: Obj, b: Obj): number {
  const assigned = (p: Obj) => !!p.spec?.nodeName;
  if (assigned(a) !== assigned(b)) return assigned(a) ? -1 : 1;
  const rank: Record<string, number> = { Running: 0, Unknown: 1, Pending: 2 };
  const ra = rank[a.status?.phase as string] ?? 3;
  const rb = rank[b.status?.phase as string] ?? 3;
  if (ra !== rb) return ra - rb;
  const ready = (p: Obj) => ((p.status?.conditions as Obj[]) ?? []).find((c) => c.type === 'Ready');
  const isReady = (p: Obj) => ready(p)?.status === 'True';
  if (isReady(a) !== isReady(b)) return isReady(a) ? -1 : 1;
  if (isReady(a) && isReady(b)) {
    const ta = Date.parse(ready(a)?.lastTransitionTime ?? '');
    const tb = Date.parse(ready(b)?.lastTransitionTime ?? '');
    if (ta !== tb) return ta - tb;
  }
  const restarts = (p: Obj) => Math.max(0, ...((p.status?.containerStatuses as Obj[]) ?? []).map((c) => c.restartCount as number));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return Date.parse(a.metadata?.creationTimestamp ?? '') - Date.parse(b.metadata?.creationTimestamp ?? '');
}

/** A label selector's text (matchLabels and matchExpressions), or a plain map's. */
function selectorText(sel: Obj | undefined): string {
  if (!sel) return '';
  if (!sel.matchLabels && !sel.matchExpressions) {
    return Object.entries(sel as Record<string, string>)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
  }
  const parts = Object.entries((sel.matchLabels as Record<string, string>) ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of (sel.matchExpressions as Obj[]) ?? []) {
    const vals = ((e.values as string[]) ?? []).join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${vals})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${vals})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

/**
 * The pod an argument names: the pod itself, or the first of a workload's pods.
 * For logs (not exec) it says which pod it picked and words a NotFound as logs.go does.
 */
export async function podFor(ctx: Ctx, arg: string, forLogs: boolean): Promise<Obj> {
  const target = arg.includes('/') ? arg : `pods/${arg}`;
  const r = await resolveArgs(ctx, [target]);
  const ref = r.refs[0]!;
  const ns = ref.mapping.namespaced ? ctx.namespace : undefined;
  const got = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns, ref.name));
  if (!got.ok) {
    // logs.go Complete rewraps the builder's NotFound, lower-case, with the namespace.
    if (forLogs && got.status.reason === 'NotFound') fail(errs.plain(`error from server (NotFound): ${got.status.message ?? ''} in namespace "${ctx.namespace}"`));
    fail(errs.status(got.status));
  }
  const obj = got.value;
  if (ref.mapping.kind === 'Pod') return obj;
  const sel = selectorText(obj.spec?.selector as Obj | undefined);
  if (!sel) fail(errs.plain(`cannot get the logs from ${ref.mapping.kind}: selector for ${ref.mapping.kind} not implemented`));
  const pods = await ctx.client.json<Obj>('GET', `/api/v1/namespaces/${ns ?? ctx.namespace}/pods`, { query: { labelSelector: sel } });
  const items = [...((pods.items as Obj[]) ?? [])].sort(byLogging);
  if (items.length === 0) fail(errs.plain('timed out waiting for the condition'));
  if (forLogs && items.length > 1) ctx.io.err(`Found ${items.length} pods, using pod/${items[0]!.metadata.name}\n`);
  return items[0]!;
}

/** Waits `ms` of the simulation's time (the host's clock; at once where there is none). */
export async function sleep(ctx: Ctx, ms: number): Promise<void> {
  await ctx.env.sleep?.(ms);
}

export async function runLogs(ctx: Ctx, args: string[]): Promise<void> {
  const selector = getString(ctx.flags, 'selector');
  let container = getString(ctx.flags, 'container');
  if (args.length === 0 && !selector) fail(errs.usage(LOGS_USAGE, ctx.commandPath));
  if (args.length === 1 && selector) fail(errs.usage('only a selector (-l) or a POD name is allowed', ctx.commandPath));
  if (args.length > 2) fail(errs.usage(LOGS_USAGE, ctx.commandPath));
  if (args.length === 2) {
    if (ctx.flags.changed.has('container')) fail(errs.plain('only one of -c or an inline [CONTAINER] arg is allowed'));
    container = args[1]!;
  }
  const sinceTime = getString(ctx.flags, 'since-time');
  const since = parseGoDuration(getString(ctx.flags, 'since')) ?? 0;
  if (sinceTime && since !== 0) fail(errs.plain('at most one of `sinceTime` or `sinceSeconds` may be specified'));
  const all = getBool(ctx.flags, 'all-containers');
  if (all && container) fail(errs.plain(`--all-containers=true should not be specified with container name ${container}`));
  if (getInt(ctx.flags, 'limit-bytes') < 0) fail(errs.plain('--limit-bytes must be greater than 0'));
  if (since < 0) fail(errs.plain('--since must be greater than 0'));
  let tail = getInt(ctx.flags, 'tail');
  if (tail < -1) fail(errs.plain('--tail must be greater than or equal to -1'));
  if (selector && !ctx.flags.changed.has('tail')) tail = 10;

  const query: Record<string, string> = {};
  if (getBool(ctx.flags, 'follow')) query.follow = 'true';
  if (getBool(ctx.flags, 'previous')) query.previous = 'true';
  if (getBool(ctx.flags, 'timestamps')) query.timestamps = 'true';
  if (since > 0) query.sinceSeconds = String(Math.round(since / 1000));
  if (sinceTime) query.sinceTime = sinceTime;
  if (tail !== -1) query.tailLines = String(tail);
  if (getInt(ctx.flags, 'limit-bytes') > 0) query.limitBytes = String(getInt(ctx.flags, 'limit-bytes'));

  let pods: Obj[];
  if (selector) {
    const list = await ctx.client.json<Obj>('GET', `/api/v1/namespaces/${ctx.namespace}/pods`, { query: { labelSelector: selector } });
    pods = (list.items as Obj[]) ?? [];
    if (pods.length === 0) {
      ctx.io.err(`No resources found in ${ctx.namespace} namespace.\n`);
      return;
    }
  } else pods = [await podFor(ctx, args[0]!, true)];
  const prefix = getBool(ctx.flags, 'prefix') || getBool(ctx.flags, 'all-pods');
  for (const pod of pods) {
    const names = all
      ? [...((pod.spec?.initContainers as Obj[]) ?? []), ...((pod.spec?.containers as Obj[]) ?? []), ...((pod.spec?.ephemeralContainers as Obj[]) ?? [])].map((c) => c.name as string)
      : [container || defaultContainer(ctx, pod, false)];
    for (const name of names) {
      if (!findContainer(pod, name)) fail(errs.plain(`container ${name} is not valid for pod ${pod.metadata.name}`));
      await streamLog(ctx, pod, name, query, prefix ? `[pod/${pod.metadata.name}/${name}] ` : '');
    }
  }
}

/** One container's log: printed as it arrives (a followed log until the server ends it or Ctrl-C). */
export async function streamLog(ctx: Ctx, pod: Obj, container: string, query: Record<string, string>, prefix: string): Promise<void> {
  const path = `/api/v1/namespaces/${pod.metadata.namespace ?? ctx.namespace}/pods/${pod.metadata.name}/log`;
  const q: Record<string, string> = { ...query, container };
  const print = (text: string) => ctx.io.out(prefix ? text.replace(/^(?=.)/gm, prefix) : text);
  if (!q.follow) {
    const r = await ctx.client.raw('GET', path, { query: q, accept: 'application/json, */*' });
    if (r.status < 200 || r.status > 299) fail(errs.status(statusFromResponse(r, 'GET')));
    print(r.body);
    return;
  }
  const w = ctx.client.watch(path, { query: q, accept: 'application/json, */*' }, print);
  const interrupted = ctx.env.interrupt?.then(() => 'interrupt' as const);
  const end = await Promise.race([w.done, ...(interrupted ? [interrupted] : [])]);
  if (end === 'interrupt') {
    w.cancel();
    return;
  }
  if (end && (end.status < 200 || end.status > 299)) fail(errs.status(statusFromResponse(end, 'GET')));
}

// ---------- exec

export async function runExec(ctx: Ctx, args: string[]): Promise<void> {
  const dash = ctx.flags.argsLenAtDash;
  const resource = args.length > 0 && dash !== 0 ? args[0]! : '';
  let command: string[] = [];
  if (dash > -1) command = args.slice(dash);
  else if (args.length > 1) {
    if (!getBool(ctx.flags, 'quiet')) ctx.io.err('kubectl exec [POD] [COMMAND] is DEPRECATED and will be removed in a future version. Use kubectl exec [POD] -- [COMMAND] instead.\n');
    command = args.slice(1);
  }
  if (!resource) fail(errs.plain('pod, type/name or --filename must be specified'));
  if (command.length === 0) fail(errs.plain('you must specify at least one command for the container'));
  const pod = await podFor(ctx, resource, false);
  const phase = pod.status?.phase as string | undefined;
  if (phase === 'Succeeded' || phase === 'Failed') fail(errs.plain(`cannot exec into a container in a completed pod; current phase is ${phase}`));
  let container = getString(ctx.flags, 'container');
  if (container) {
    if (!findContainer(pod, container)) fail(errs.plain(`container ${container} not found in pod ${pod.metadata.name}`));
  } else container = defaultContainer(ctx, pod, getBool(ctx.flags, 'quiet'));
  const path = `/api/v1/namespaces/${pod.metadata.namespace ?? ctx.namespace}/pods/${pod.metadata.name}/exec`;
  // StreamOptions.SetupTTY: a TTY only for stdin, and only when stdin is a terminal.
  const stdin = getBool(ctx.flags, 'stdin');
  let tty = stdin && getBool(ctx.flags, 'tty');
  if (tty && !(ctx.env.tty && ctx.env.input)) {
    tty = false;
    if (!getBool(ctx.flags, 'quiet')) ctx.io.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
  }
  if (stdin) {
    const end = await remoteStream(ctx, path, { command, container, stdin: 'true', stdout: 'true', ...(tty ? { tty: 'true' } : { stderr: 'true' }) }, tty);
    if (end !== 'unsupported') return exitWith(end);
  }
  const query: Record<string, string | string[]> = { command, container, stdout: 'true', stderr: 'true' };
  const r = await ctx.client.raw('POST', path, { query: query as Record<string, string> });
  if (r.status < 200 || r.status > 299) {
    const st = statusFromResponse(r, 'POST');
    // The stream never opened: the upgrade failed with the kubelet's words; an exec that failed to start reports through the stream.
    if (st.code === 500) fail(errs.plain(st.message ?? ''));
    fail(errs.plain(`unable to upgrade connection: ${st.message ?? ''}`));
  }
  const out = JSON.parse(r.body) as { stdout: string; stderr: string; exitCode: number };
  ctx.io.out(out.stdout);
  ctx.io.err(out.stderr);
  if (out.exitCode !== 0) fail(errs.raw(`command terminated with exit code ${out.exitCode}`, out.exitCode));
}
