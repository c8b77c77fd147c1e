// kubectl run, expose, set image, cordon/uncordon, taint, top (rollout is in rollout.ts, logs and exec in logs.ts, drain in drain.ts)
// (staging/src/k8s.io/kubectl/pkg/cmd/{run,expose,set/set_image.go,drain,taint,top}).
import type { JsonObject } from '../../apimachinery/types';
import { createTwoWayMergePatch, patchMetaFor } from '../../apimachinery/patch';
import type { Ctx } from '../cli/context';
import type { CommandSpec } from '../cli/root';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, getStrings, parseGoDuration } from '../cli/flags';
import { errs, fail, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { goJsonCompact } from '../printers/goJson';
import { nameLine } from '../printers/output';
import { DESCRIBE_TABWRITER, TabWriter } from '../printers/tabWriter';
import { aggregate, kindString, resolveArgs, resourcePath, type Ref } from '../resource/builder';
import { rfc3339 } from '../util/duration';
import { statusFromResponse } from '../client/rest';
import { describePodTemplateRaw } from '../describe/describers';
import { finished, handleAttachPod, podExit, removePod, waitForPod } from './attach';
import { DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, OUTPUT_FLAGS, ResultPrinter, VALIDATE_FLAG, validationDirective } from './common';

type Obj = Record<string, any>;

const GEN: FlagDef[] = [...OUTPUT_FLAGS, DRY_RUN_FLAG, VALIDATE_FLAG, { name: 'field-manager', kind: 'string' }];

export async function fetchTargets(ctx: Ctx, args: string[]): Promise<{ ref: Ref; ns?: string; obj: Obj }[]> {
  const r = await resolveArgs(ctx, args);
  const out: { ref: Ref; ns?: string; obj: Obj }[] = [];
  const errors: KubectlErr[] = [];
  for (const ref of r.refs) {
    const ns = ref.mapping.namespaced ? ctx.namespace : undefined;
    const g = await ctx.client.tryJson<Obj>('GET', resourcePath(ref.mapping, ns, ref.name));
    if (!g.ok) {
      errors.push(errs.status(g.status));
      continue;
    }
    if (ref.name === undefined) for (const i of (g.value.items as Obj[]) ?? []) out.push({ ref: { mapping: ref.mapping, name: i.metadata.name }, ns, obj: { apiVersion: g.value.apiVersion, kind: ref.mapping.kind, ...i } });
    else out.push({ ref, ns, obj: g.value });
  }
  const e = aggregate(errors);
  if (e) fail(e);
  return out;
}

export async function patchObject(ctx: Ctx, m: Mapping, ns: string | undefined, name: string, body: string, contentType: string, query: Record<string, string>): Promise<Obj> {
  const r = await ctx.client.tryJson<Obj>('PATCH', resourcePath(m, ns, name), { body, contentType, query });
  if (!r.ok) fail(errs.status(r.status));
  return r.value;
}

function twoWay(m: Mapping, before: Obj, after: Obj): string {
  const meta = patchMetaFor(m.group, m.version, m.kind);
  const p = createTwoWayMergePatch(before as JsonObject, after as JsonObject, meta);
  if (!p.ok) fail(errs.plain(p.error));
  return goJsonCompact(p.value);
}

// ---------- run

/** --env NAME=value pairs as EnvVars. */
export function parseEnvPairs(pairs: string[]): Obj[] {
  return pairs.map((p) => {
    const i = p.indexOf('=');
    if (i <= 0) fail(errs.plain(`invalid env: ${p}`));
    return { name: p.slice(0, i), value: p.slice(i + 1) };
  });
}

function parseLabelPairs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of s.split(',').filter(Boolean)) {
    const i = kv.indexOf('=');
    if (i <= 0) fail(errs.plain(`invalid label spec: ${kv}`));
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

export const RUN_FLAGS: FlagDef[] = [
  ...GEN,
  { name: 'image', kind: 'string' },
  { name: 'port', kind: 'string' },
  { name: 'labels', shorthand: 'l', kind: 'string' },
  { name: 'env', kind: 'stringArray' },
  { name: 'restart', kind: 'string', default: 'Always' },
  { name: 'command', kind: 'bool' },
  { name: 'image-pull-policy', kind: 'string' },
  { name: 'annotations', kind: 'stringArray' },
  { name: 'rm', kind: 'bool' },
  { name: 'stdin', shorthand: 'i', kind: 'bool' },
  { name: 'tty', shorthand: 't', kind: 'bool' },
  { name: 'attach', kind: 'bool' },
  { name: 'leave-stdin-open', kind: 'bool' },
  { name: 'quiet', shorthand: 'q', kind: 'bool' },
  { name: 'pod-running-timeout', kind: 'duration', default: '1m0s' },
  { name: 'privileged', kind: 'bool' },
  { name: 'overrides', kind: 'string' },
  { name: 'expose', kind: 'bool' },
];

export async function runRun(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const dash = f.argsLenAtDash;
  const names = dash >= 0 ? args.slice(0, dash) : args.slice(0, 1);
  const rest = dash >= 0 ? args.slice(dash) : args.slice(1);
  const name = names[0];
  if (!name) fail(errs.usage('NAME is required for run', ctx.commandPath));
  const image = getString(f, 'image');
  if (!image) fail(errs.plain('--image is required'));
  // RunOptions.Validate, in its order. -i attaches unless --attach=false says otherwise.
  const stdin = getBool(f, 'stdin');
  const tty = getBool(f, 'tty');
  const attach = f.changed.has('attach') ? getBool(f, 'attach') : stdin;
  if (tty && !stdin) fail(errs.usage('-i/--stdin is required for containers with -t/--tty=true', ctx.commandPath));
  const restart = getString(f, 'restart');
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) fail(errs.plain(`invalid restart policy: ${restart}`));
  if (!attach && getBool(f, 'rm')) fail(errs.usage('--rm should only be used for attached containers', ctx.commandPath));
  if (attach && dryRunStrategy(ctx) !== 'none') fail(errs.usage("--dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)", ctx.commandPath));
  const labels = getString(f, 'labels') ? parseLabelPairs(getString(f, 'labels')) : { run: name };
  const c: Obj = { image, name };
  if (rest.length > 0) {
    if (getBool(f, 'command')) c.command = rest;
    else c.args = rest;
  }
  const env = getStrings(f, 'env');
  if (env.length > 0) c.env = parseEnvPairs(env);
  const pull = getString(f, 'image-pull-policy');
  if (pull) c.imagePullPolicy = pull;
  const port = getString(f, 'port');
  if (port) c.ports = [{ containerPort: Number(port) }];
  c.resources = {};
  if (stdin) {
    c.stdin = true;
    // The first attach's end closes stdin unless asked to leave it open.
    if (!getBool(f, 'leave-stdin-open')) c.stdinOnce = true;
  }
  if (tty) c.tty = true;
  const meta: Obj = { creationTimestamp: null, labels, name };
  const annotations = getStrings(f, 'annotations');
  if (annotations.length > 0) meta.annotations = parseLabelPairs(annotations.join(','));
  const pod: Obj = { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: [c], dnsPolicy: 'ClusterFirst', restartPolicy: restart }, status: {} };
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  if (dryRun === 'client') return printer.print(pod, 'created');
  const r = await ctx.client.tryJson<Obj>('POST', `/api/v1/namespaces/${ctx.namespace}/pods`, { body: `${goJsonCompact(pod)}\n`, query: { fieldManager: getString(f, 'field-manager') || 'kubectl-run', ...dryRunQuery(dryRun) } });
  if (!r.ok) fail(errs.status(r.status));
  if (!attach) return printer.print(r.value, 'created');
  await attachRun(ctx, r.value, { stdin, tty, restart });
}

/** run.go's attach: attach once the pod runs, then wait for its exit code where the policy lets it finish; --rm deletes it either way. */
async function attachRun(ctx: Ctx, pod: Obj, o: { stdin: boolean; tty: boolean; restart: string }): Promise<void> {
  const f = ctx.flags;
  const ns = pod.metadata.namespace ?? ctx.namespace;
  const name = pod.metadata.name as string;
  const quiet = getBool(f, 'quiet');
  const timeout = parseGoDuration(getString(f, 'pod-running-timeout')) ?? 60_000;
  try {
    // The hint names kubectl attach (the command the session can be resumed with).
    await handleAttachPod(ctx, ns, name, timeout, { stdin: o.stdin, tty: o.tty, quiet, container: '', commandName: 'kubectl attach' });
    if (getBool(f, 'leave-stdin-open') || o.restart === 'Always') return;
    const done = await waitForPod(ctx, ns, name, timeout, finished(o.restart === 'OnFailure'));
    podExit(done.pod);
  } finally {
    if (getBool(f, 'rm')) await removePod(ctx, ns, name, quiet);
  }
}

// ---------- expose

export const EXPOSE_FLAGS: FlagDef[] = [
  ...GEN,
  { name: 'port', kind: 'string' },
  { name: 'target-port', kind: 'string' },
  { name: 'protocol', kind: 'string' },
  { name: 'name', kind: 'string' },
  { name: 'type', kind: 'string' },
  { name: 'selector', kind: 'string' },
  { name: 'labels', shorthand: 'l', kind: 'string' },
  { name: 'external-ip', kind: 'string' },
  { name: 'cluster-ip', kind: 'string' },
  { name: 'session-affinity', kind: 'string' },
  { name: 'filename', shorthand: 'f', kind: 'stringSlice' },
];

export async function runExpose(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  if (args.length === 0) fail(errs.plain("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"));
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  for (const { ref, ns, obj } of await fetchTargets(ctx, args)) {
    const kind = ref.mapping.kind;
    let selector: Record<string, string> | undefined;
    if (getString(f, 'selector')) selector = parseLabelPairs(getString(f, 'selector'));
    else if (kind === 'Pod') selector = obj.metadata?.labels;
    else if (kind === 'Service') selector = obj.spec?.selector;
    else if (kind === 'ReplicationController') selector = obj.spec?.selector;
    else if (['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].includes(kind)) {
      if ((obj.spec?.selector?.matchExpressions ?? []).length > 0) fail(errs.plain(`couldn't convert expressions - "${JSON.stringify(obj.spec.selector.matchExpressions)}" to map-based selector format`));
      selector = obj.spec?.selector?.matchLabels;
    } else fail(errs.plain(`cannot expose a ${kind}.${ref.mapping.group || ''}`.replace(/\.$/, '')));
    if (!selector || Object.keys(selector).length === 0) fail(errs.plain(`couldn't retrieve selectors via --selector flag or introspection: the ${kind.toLowerCase()} has no labels`));
    const protocol = getString(f, 'protocol') || 'TCP';
    let ports: Obj[];
    const port = getString(f, 'port');
    if (port) ports = [{ port: Number(port), protocol }];
    else {
      const containers = (kind === 'Pod' ? obj.spec?.containers : obj.spec?.template?.spec?.containers) as Obj[] | undefined;
      const cports = (containers ?? []).flatMap((c) => (c.ports as Obj[]) ?? []);
      if (kind === 'Service') ports = ((obj.spec?.ports as Obj[]) ?? []).map((p) => ({ port: p.port, protocol: p.protocol ?? 'TCP' }));
      else ports = cports.map((p) => ({ port: p.containerPort, protocol: p.protocol ?? protocol }));
      if (ports.length === 0) fail(errs.plain(`couldn't find port via --port flag or introspection`));
      if (ports.length > 1) ports = ports.map((p, i) => ({ name: `port-${i + 1}`, ...p }));
    }
    const target = getString(f, 'target-port');
    ports = ports.map((p) => ({ ...p, targetPort: target ? (/^\d+$/.test(target) ? Number(target) : target) : p.port }));
    const labels = getString(f, 'labels') ? parseLabelPairs(getString(f, 'labels')) : obj.metadata?.labels;
    const svc: Obj = { apiVersion: 'v1', kind: 'Service', metadata: { creationTimestamp: null, ...(labels && Object.keys(labels).length ? { labels } : {}), name: getString(f, 'name') || obj.metadata.name }, spec: { ports, selector }, status: { loadBalancer: {} } };
    const type = getString(f, 'type');
    if (type) svc.spec.type = type;
    if (getString(f, 'cluster-ip')) svc.spec.clusterIP = getString(f, 'cluster-ip');
    if (getString(f, 'external-ip')) svc.spec.externalIPs = [getString(f, 'external-ip')];
    if (getString(f, 'session-affinity')) svc.spec.sessionAffinity = getString(f, 'session-affinity');
    if (dryRun === 'client') {
      printer.print(svc, 'exposed');
      continue;
    }
    const r = await ctx.client.tryJson<Obj>('POST', `/api/v1/namespaces/${ns ?? ctx.namespace}/services`, { body: `${goJsonCompact(svc)}\n`, query: { fieldManager: getString(f, 'field-manager') || 'kubectl-expose', ...dryRunQuery(dryRun) } });
    if (!r.ok) fail(errs.status(r.status));
    printer.print(r.value, 'exposed');
  }
}

// ---------- set image

export async function runSetImage(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const resources = args.filter((a) => !a.includes('='));
  const pairs = args.filter((a) => a.includes('='));
  if (pairs.length === 0) fail(errs.plain('at least one image update is required'));
  if (resources.length === 0) fail(errs.plain("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"));
  const images = pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const);
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  for (const { ref, ns, obj } of await fetchTargets(ctx, resources)) {
    const after = JSON.parse(JSON.stringify(obj)) as Obj;
    const spec = ref.mapping.kind === 'Pod' ? after.spec : ref.mapping.kind === 'CronJob' ? after.spec?.jobTemplate?.spec?.template?.spec : after.spec?.template?.spec;
    if (!spec) fail(errs.plain(`error: ${kindString(ref.mapping)}/${obj.metadata.name} does not have a pod template`));
    for (const [name, image] of images) {
      const all = [...((spec.initContainers as Obj[]) ?? []), ...((spec.containers as Obj[]) ?? [])];
      const matches = name === '*' ? all : all.filter((c) => c.name === name);
      if (matches.length === 0) fail(errs.plain(`unable to find container named "${name}"`));
      for (const c of matches) c.image = image;
    }
    if (dryRun === 'client') {
      printer.print(after, 'image updated');
      continue;
    }
    const res = await patchObject(ctx, ref.mapping, ns, obj.metadata.name, twoWay(ref.mapping, obj, after), 'application/strategic-merge-patch+json', { fieldManager: getString(f, 'field-manager') || 'kubectl-set', ...dryRunQuery(dryRun) });
    printer.print(res, 'image updated');
  }
}

// ---------- cordon / uncordon / taint

export const CORDON_FLAGS: FlagDef[] = [DRY_RUN_FLAG, { name: 'selector', shorthand: 'l', kind: 'string' }];

export async function runCordon(ctx: Ctx, args: string[], desired: boolean): Promise<void> {
  if (args.length === 0 && !getString(ctx.flags, 'selector')) fail(errs.usage('USAGE: cordon NODE [flags]', ctx.commandPath));
  const dryRun = dryRunStrategy(ctx);
  const verb = desired ? 'cordoned' : 'uncordoned';
  for (const { ref, obj } of await fetchTargets(ctx, ['nodes', ...args])) {
    if ((obj.spec?.unschedulable === true) === desired) {
      ctx.io.out(`node/${obj.metadata.name} already ${verb}\n`);
      continue;
    }
    if (dryRun !== 'client') await patchObject(ctx, ref.mapping, undefined, obj.metadata.name, goJsonCompact({ spec: { unschedulable: desired ? true : null } }), 'application/strategic-merge-patch+json', dryRunQuery(dryRun));
    ctx.io.out(`node/${obj.metadata.name} ${dryRun === 'none' ? verb : `${verb} (${dryRun === 'client' ? 'dry run' : 'server dry run'})`}\n`);
  }
}

export async function runTaint(ctx: Ctx, args: string[]): Promise<void> {
  const specs = args.filter((a) => a.includes(':') || a.includes('=') || a.endsWith('-'));
  const resources = args.filter((a) => !specs.includes(a));
  if (resources.length === 0 || specs.length === 0) fail(errs.plain('at least one taint update is required'));
  const dryRun = dryRunStrategy(ctx);
  for (const { ref, obj } of await fetchTargets(ctx, resources)) {
    if (ref.mapping.kind !== 'Node') fail(errs.plain(`invalid resource type ${ref.mapping.resource}, only node types are supported`));
    let taints = [...((obj.spec?.taints as Obj[]) ?? [])];
    let op = 'tainted';
    for (const s of specs) {
      if (s.endsWith('-')) {
        const body = s.slice(0, -1);
        const [kv, effect] = body.split(':') as [string, string | undefined];
        const key = kv.split('=')[0];
        const before = taints.length;
        taints = taints.filter((t) => !(t.key === key && (!effect || t.effect === effect)));
        if (taints.length === before) fail(errs.plain(`taint "${body}" not found`));
        op = 'untainted';
        continue;
      }
      const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(s);
      if (!m) fail(errs.plain(`invalid taint spec: ${s}, unknown taint effect`));
      const t: Obj = { effect: m[3], key: m[1] };
      if (m[2]) t.value = m[2];
      const i = taints.findIndex((x) => x.key === t.key && x.effect === t.effect);
      if (i >= 0) {
        if (!getBool(ctx.flags, 'overwrite')) fail(errs.plain(`node ${obj.metadata.name} already has ${t.key} taint(s) with same effect(s) and --overwrite is false`));
        taints[i] = t;
        op = 'modified';
      } else taints.push(t);
    }
    if (dryRun !== 'client') await patchObject(ctx, ref.mapping, undefined, obj.metadata.name, goJsonCompact({ spec: { taints: taints.length > 0 ? taints : null } }), 'application/strategic-merge-patch+json', { fieldManager: 'kubectl-taint', fieldValidation: validationDirective(ctx), ...dryRunQuery(dryRun) });
    ctx.io.out(`node/${obj.metadata.name} ${dryRun === 'none' ? op : `${op} (${dryRun === 'client' ? 'dry run' : 'server dry run'})`}\n`);
  }
}
