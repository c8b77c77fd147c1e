// kubectl debug POD (staging/src/k8s.io/kubectl/pkg/cmd/debug): an ephemeral
// container added to a running pod through pods/ephemeralcontainers — a
// strategic merge patch of spec.ephemeralContainers — shaped by a profile,
// then, with -i, attached once it runs; or, with --copy-to, a copy of the pod
// with a debug container added or one of its containers changed. Node
// debugging (node/NAME) is the upstream command's third mode.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString, getStrings } from '../cli/flags';
import { errs, fail } from '../client/errors';
import { goJsonCompact } from '../printers/goJson';
import { attachToPod, waitForPod } from './attach';
import { podFor, streamLog } from './logs';
import { parseEnvPairs } from './workloads';

type Obj = Record<string, any>;

export const DEBUG_FLAGS: FlagDef[] = [
  { name: 'arguments-only', kind: 'bool' },
  { name: 'attach', kind: 'bool' },
  { name: 'container', shorthand: 'c', kind: 'string' },
  { name: 'copy-to', kind: 'string' },
  { name: 'env', kind: 'stringArray' },
  { name: 'image', kind: 'string' },
  { name: 'image-pull-policy', kind: 'string' },
  { name: 'profile', kind: 'string', default: 'legacy' },
  { name: 'quiet', shorthand: 'q', kind: 'bool' },
  { name: 'stdin', shorthand: 'i', kind: 'bool' },
  { name: 'target', kind: 'string' },
  { name: 'tty', shorthand: 't', kind: 'bool' },
  { name: 'keep-annotations', kind: 'bool' },
  { name: 'keep-init-containers', kind: 'bool', default: true },
  { name: 'keep-labels', kind: 'bool' },
  { name: 'keep-liveness', kind: 'bool' },
  { name: 'keep-readiness', kind: 'bool' },
  { name: 'keep-startup', kind: 'bool' },
  { name: 'replace', kind: 'bool' },
  { name: 'same-node', kind: 'bool' },
  { name: 'set-image', kind: 'stringSlice' },
  { name: 'share-processes', kind: 'bool', default: true },
];

const PROFILES = ['legacy', 'general', 'baseline', 'netadmin', 'restricted', 'sysadmin'];

/** The profile's changes to an ephemeral container (profiles.go; general and baseline change nothing here). */
function applyProfile(profile: string, c: Obj): void {
  if (profile === 'restricted') {
    c.securityContext = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
  } else if (profile === 'netadmin') c.securityContext = { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } };
  else if (profile === 'sysadmin') c.securityContext = { privileged: true };
}

/** utilrand.String(5): the alphabet without vowels and look-alikes; here drawn from the clock and the pod's name (kubectl runs in the simulation). */
function suffix(ctx: Ctx, seed: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let h = 2166136261 ^ Math.floor(ctx.now());
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  let out = '';
  for (let i = 0; i < 5; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    out += alphabet[h % alphabet.length];
  }
  return out;
}

export async function runDebug(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const image = getString(f, 'image');
  const copyTo = getString(f, 'copy-to');
  if (!image && !copyTo) fail(errs.plain('you must specify --image when not using --copy-to.'));
  if (args.length === 0) fail(errs.usage('NAME is required for debug', ctx.commandPath));
  const stdin = getBool(f, 'stdin');
  const tty = getBool(f, 'tty');
  if (tty && !stdin) fail(errs.plain('-i/--stdin is required for containers with -t/--tty=true'));
  const profile = getString(f, 'profile');
  if (!PROFILES.includes(profile)) fail(errs.plain(`unknown profile: ${profile}`));
  const quiet = getBool(f, 'quiet');
  const dash = f.argsLenAtDash;
  const target = dash >= 0 ? args.slice(0, dash) : args.slice(0, 1);
  const command = dash >= 0 ? args.slice(dash) : args.slice(1);
  const ref = target[0]!;
  if (/^(node|nodes|no)\//.test(ref)) fail(errs.plain('debugging a node (a pod in its host namespaces) is not available in this simulation: its nodes have no host file system to mount'));

  const targetContainer = getString(f, 'target');
  if (targetContainer && !quiet) ctx.io.err(`Targeting container "${targetContainer}". If you don't see processes from this container it may be because the container runtime doesn't support this feature.\n`);
  if (!f.changed.has('profile') && !quiet) ctx.io.err('--profile=legacy is deprecated and will be removed in the future. It is recommended to explicitly specify a profile, for example "--profile=general".\n');
  const pod = await podFor(ctx, ref, false);
  const ns = pod.metadata.namespace ?? ctx.namespace;
  let name = getString(f, 'container');
  if (copyTo) return debugCopy(ctx, pod, copyTo, name, command, profile);
  if (!name) {
    name = `debugger-${suffix(ctx, `${ns}/${pod.metadata.name}`)}`;
    if (!quiet) ctx.io.err(`Defaulting debug container name to ${name}.\n`);
  }
  // generateDebugContainer: the fields kubectl sets, in the order of their JSON names (the patch's order).
  const c: Obj = {};
  if (command.length > 0) c[getBool(f, 'arguments-only') ? 'args' : 'command'] = command;
  const env = parseEnvPairs(getStrings(f, 'env'));
  if (env.length) c.env = env;
  c.image = image;
  if (getString(f, 'image-pull-policy')) c.imagePullPolicy = getString(f, 'image-pull-policy');
  c.name = name;
  c.resources = {};
  applyProfile(profile, c);
  if (stdin) c.stdin = true;
  if (targetContainer) c.targetContainerName = targetContainer;
  c.terminationMessagePolicy = 'File';
  if (tty) c.tty = true;
  if (((pod.spec?.ephemeralContainers as Obj[]) ?? []).some((e) => e.name === name)) fail(errs.plain(`an ephemeral container named "${name}" already exists in pod ${pod.metadata.name}`));
  const path = `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/ephemeralcontainers`;
  // CreateTwoWayMergePatch of the pod and the pod with the container appended: with others there, the
  // $setElementOrder directive keeps the new one last (a merge alone would put it first).
  const existing = ((pod.spec?.ephemeralContainers as Obj[]) ?? []).map((e) => ({ name: e.name as string }));
  const patch = existing.length ? { spec: { '$setElementOrder/ephemeralContainers': [...existing, { name }], ephemeralContainers: [c] } } : { spec: { ephemeralContainers: [c] } };
  const r = await ctx.client.tryJson<Obj>('PATCH', path, { body: goJsonCompact(patch), contentType: 'application/strategic-merge-patch+json' });
  if (!r.ok) fail(errs.status(r.status));

  const attach = f.changed.has('attach') ? getBool(f, 'attach') : stdin;
  if (!attach) return;
  await attachWhenRunning(ctx, ns, pod.metadata.name, name, 'ephemeralContainerStatuses');
}

/** waitForContainer, then attach: once the container runs (or print its log if it has already ended). */
async function attachWhenRunning(ctx: Ctx, ns: string, podName: string, name: string, statuses: 'containerStatuses' | 'ephemeralContainerStatuses'): Promise<void> {
  const f = ctx.flags;
  const stateOf = (p: Obj) => ((p.status?.[statuses] as Obj[]) ?? []).find((s) => s.name === name)?.state as Obj | undefined;
  // kubectl debug waits without a deadline (until Ctrl-C).
  const { pod: running } = await waitForPod(ctx, ns, podName, 0, (type, p) => {
    if (type === 'DELETED') fail(errs.plain(`pod ${podName} was deleted`));
    const st = stateOf(p);
    return st?.running ? 'met' : st?.terminated ? 'completed' : 'wait';
  });
  if (stateOf(running)?.terminated) return streamLog(ctx, running, name, {}, '');
  await attachToPod(ctx, running, { stdin: getBool(f, 'stdin'), tty: getBool(f, 'tty'), quiet: getBool(f, 'quiet'), container: name, commandName: 'kubectl attach' });
}

/**
 * --copy-to (generatePodCopyWithDebugContainer): a new pod from the pod's
 * spec — without its node unless --same-node, its ephemeral containers, its
 * probes unless kept, its labels and annotations — with the debug container
 * added, or the container -c names changed (image, command, stdin, TTY), and
 * --set-image applied.
 */
async function debugCopy(ctx: Ctx, pod: Obj, copyTo: string, containerName: string, command: string[], profile: string): Promise<void> {
  const f = ctx.flags;
  const ns = pod.metadata.namespace ?? ctx.namespace;
  const spec = JSON.parse(JSON.stringify(pod.spec ?? {})) as Obj;
  if (!getBool(f, 'same-node')) delete spec.nodeName;
  delete spec.ephemeralContainers;
  if (!getBool(f, 'keep-init-containers')) delete spec.initContainers;
  for (const c of [...((spec.containers as Obj[]) ?? []), ...((spec.initContainers as Obj[]) ?? [])]) {
    if (!getBool(f, 'keep-liveness')) delete c.livenessProbe;
    if (!getBool(f, 'keep-readiness')) delete c.readinessProbe;
    if (!getBool(f, 'keep-startup')) delete c.startupProbe;
  }
  // kubectl v1.32 sets the pod's process namespace sharing only when the flag is given.
  if (f.changed.has('share-processes')) spec.shareProcessNamespace = getBool(f, 'share-processes');
  for (const pair of getStrings(f, 'set-image')) {
    const i = pair.indexOf('=');
    if (i <= 0) fail(errs.plain(`invalid image assignment: ${pair}`));
    const [who, image] = [pair.slice(0, i), pair.slice(i + 1)];
    for (const c of (spec.containers as Obj[]) ?? []) if (who === '*' || c.name === who) c.image = image;
  }
  const image = getString(f, 'image');
  const containers = (spec.containers ??= []) as Obj[];
  let name = containerName;
  let c = name ? containers.find((x) => x.name === name) : undefined;
  if (!c && (image || name)) {
    if (!name) {
      name = `debugger-${suffix(ctx, `${ns}/${copyTo}`)}`;
      if (!getBool(f, 'quiet')) ctx.io.err(`Defaulting debug container name to ${name}.\n`);
    }
    c = { name, image, resources: {}, terminationMessagePolicy: 'File' };
    applyProfile(profile, c);
    containers.push(c);
  }
  if (c) {
    if (image) c.image = image;
    if (command.length > 0) {
      if (getBool(f, 'arguments-only')) c.args = command;
      else {
        c.command = command;
        delete c.args;
      }
    }
    if (getBool(f, 'stdin')) c.stdin = true;
    if (getBool(f, 'tty')) c.tty = true;
  }
  const copy: Obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: copyTo, namespace: ns, ...(getBool(f, 'keep-annotations') && pod.metadata.annotations ? { annotations: pod.metadata.annotations } : {}) }, spec };
  if (getBool(f, 'replace')) {
    const del = await ctx.client.tryJson<Obj>('DELETE', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`, { body: '{"gracePeriodSeconds":0}\n' });
    if (!del.ok && del.status.reason !== 'NotFound') fail(errs.status(del.status));
  }
  const r = await ctx.client.tryJson<Obj>('POST', `/api/v1/namespaces/${ns}/pods`, { body: goJsonCompact(copy) });
  if (!r.ok) fail(errs.status(r.status));
  const attach = f.changed.has('attach') ? getBool(f, 'attach') : getBool(f, 'stdin');
  if (!attach || !name) return;
  await attachWhenRunning(ctx, ns, copyTo, name, 'containerStatuses');
}
