// kubectl attach, and the attaching half of kubectl run -i
// (staging/src/k8s.io/kubectl/pkg/cmd/attach/attach.go, cmd/run/run.go):
// the container's main process over pods/attach — its output from now on and,
// with -i, the terminal's keys as its stdin — then, for run, the wait for the
// pod to finish (its exit code becomes kubectl's) and --rm's deletion.
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString, parseGoDuration } from '../cli/flags';
import { errs, fail } from '../client/errors';
import { resolveArgs, resourcePath } from '../resource/builder';
import { defaultContainer, EXEC_FLAGS, podFor, streamLog } from './logs';
import { remoteStream } from './stream';
import { Clock, untilWithSync, type Info } from './wait';

type Obj = Record<string, any>;

/** exec's flags but -f (attach names its pod as an argument). */
export const ATTACH_FLAGS: FlagDef[] = EXEC_FLAGS.filter((f) => f.name !== 'filename');

export interface AttachOptions {
  stdin: boolean;
  tty: boolean;
  quiet: boolean;
  container: string;
  /** What the resume hint calls this command ("kubectl attach"). */
  commandName: string;
}

const containersOf = (pod: Obj): Obj[] => [...((pod.spec?.containers as Obj[]) ?? []), ...((pod.spec?.initContainers as Obj[]) ?? []), ...((pod.spec?.ephemeralContainers as Obj[]) ?? [])];

/** AttachOptions.Run with its pod found: the TTY decided, the hint printed, the stream run to its end. */
export async function attachToPod(ctx: Ctx, pod: Obj, o: AttachOptions): Promise<void> {
  const name = o.container || defaultContainer(ctx, pod, o.quiet);
  const container = containersOf(pod).find((c) => c.name === name);
  if (!container) fail(errs.plain(`cannot attach to the container: container ${name} not found in pod ${pod.metadata.name}`));
  let tty = o.tty;
  if (tty && !container.tty) {
    tty = false;
    if (!o.quiet) ctx.io.err(`error: Unable to use a TTY - container ${name} did not allocate one\n`);
  } else if (!tty && container.tty) tty = true; // a container with a TTY speaks only to one
  // SetupTTY: a raw terminal only for stdin that is a terminal.
  if (!o.stdin) tty = false;
  else if (tty && !(ctx.env.tty && ctx.env.input)) {
    tty = false;
    if (!o.quiet) ctx.io.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
  }
  // The process printed its prompt before anyone was attached.
  if (!o.quiet) ctx.io.err("If you don't see a command prompt, try pressing enter.\n");
  const path = `/api/v1/namespaces/${pod.metadata.namespace ?? ctx.namespace}/pods/${pod.metadata.name}/attach`;
  const query: Record<string, string> = { container: name, stdout: 'true', ...(o.stdin ? { stdin: 'true' } : {}), ...(tty ? { tty: 'true' } : { stderr: 'true' }) };
  const end = await remoteStream(ctx, path, query, tty);
  if (end === 'unsupported') fail(errs.plain('unable to upgrade connection: this transport cannot stream'));
  if (end === 'interrupt') return;
  // reattachMessage: only a pod that restarts its containers can be attached to again; an ephemeral container never restarts.
  if (o.quiet || !o.stdin || !tty || pod.spec?.restartPolicy !== 'Always') return;
  if (((pod.spec?.ephemeralContainers as Obj[]) ?? []).some((c) => c.name === name))
    ctx.io.out(`Session ended, the ephemeral container will not be restarted but may be reattached using '${o.commandName} ${pod.metadata.name} -c ${name} -i -t' if it is still running\n`);
  else ctx.io.out(`Session ended, resume using '${o.commandName} ${pod.metadata.name} -c ${name} -i -t' command when the pod is running\n`);
}

export async function runAttach(ctx: Ctx, args: string[]): Promise<void> {
  if (args.length === 0) fail(errs.usage('at least 1 argument is required for attach', ctx.commandPath));
  if (args.length > 2) fail(errs.usage(`expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw ${args.length}: [${args.join(' ')}]`, ctx.commandPath));
  const timeout = parseGoDuration(getString(ctx.flags, 'pod-running-timeout')) ?? 0;
  if (timeout <= 0) fail(errs.plain('--pod-running-timeout must be higher than zero'));
  const pod = await podFor(ctx, args.length === 2 ? `${args[0]}/${args[1]}` : args[0]!, false);
  const phase = pod.status?.phase as string | undefined;
  if (phase === 'Succeeded' || phase === 'Failed') fail(errs.plain(`cannot attach a container in a completed pod; current phase is ${phase}`));
  await attachToPod(ctx, pod, {
    stdin: getBool(ctx.flags, 'stdin'),
    tty: getBool(ctx.flags, 'tty'),
    quiet: getBool(ctx.flags, 'quiet'),
    container: getString(ctx.flags, 'container'),
    commandName: 'kubectl attach',
  });
}

type PodCondition = (type: string, pod: Obj) => 'met' | 'completed' | 'wait';

/** The watch saw the pod go: the condition functions' NewNotFound for pods with no name. */
const deleted = (): never => fail(errs.status({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "" not found', reason: 'NotFound', details: { kind: 'pods' }, code: 404 }));

/** podRunningAndReady: Running with Ready=True; a pod that has finished says so. */
export const runningAndReady: PodCondition = (type, pod) => {
  if (type === 'DELETED') deleted();
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return 'completed';
  if (phase !== 'Running') return 'wait';
  return ((pod.status?.conditions as Obj[]) ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'met' : 'wait';
};

/** podCompleted (restartPolicy Never) and podSucceeded (OnFailure). */
export const finished =
  (succeededOnly: boolean): PodCondition =>
  (type, pod) => {
    if (type === 'DELETED') deleted();
    const phase = pod.status?.phase;
    return phase === 'Succeeded' || (!succeededOnly && phase === 'Failed') ? 'met' : 'wait';
  };

/**
 * run.go's waitForPod: watchtools.UntilWithSync over the one pod (wait.ts's)
 * until the condition holds, or `timeoutMs` of virtual time has passed (0: no deadline).
 */
export async function waitForPod(ctx: Ctx, ns: string, name: string, timeoutMs: number, cond: PodCondition): Promise<{ pod: Obj; completed: boolean }> {
  const refs = await resolveArgs(ctx, [`pods/${name}`]);
  const info: Info = { mapping: refs.refs[0]!.mapping, namespace: ns, name, object: {} };
  const r = await untilWithSync(ctx, info, new Clock(ctx, timeoutMs), () => 'wait', (type, pod) => cond(type, pod) !== 'wait', 'An error occurred while waiting for the pod');
  if (r.result === 'interrupt') fail({ type: 'Exit', code: 130 });
  if (r.result !== 'met') fail(errs.plain('timed out waiting for the condition'));
  return { pod: r.object!, completed: cond('MODIFIED', r.object!) === 'completed' };
}

/** run.go's handleAttachPod: wait for the pod to run, attach — or, for a pod already done, print its log. */
export async function handleAttachPod(ctx: Ctx, ns: string, name: string, timeoutMs: number, o: AttachOptions): Promise<void> {
  const { pod, completed } = await waitForPod(ctx, ns, name, timeoutMs, runningAndReady);
  const container = o.container || defaultContainer(ctx, pod, true);
  if (completed) return streamLog(ctx, pod, container, {}, '');
  try {
    await attachToPod(ctx, pod, { ...o, container });
  } catch (e) {
    ctx.io.err(`warning: couldn't attach to pod/${name}, falling back to streaming logs: ${e instanceof Error ? e.message : String(e)}\n`);
    await streamLog(ctx, pod, container, {}, '');
  }
}

/** The exit code run returns once the pod has finished (restartPolicy Never or OnFailure). */
export function podExit(pod: Obj): void {
  const phase = pod.status?.phase;
  const where = `${pod.metadata.namespace}/${pod.metadata.name}`;
  if (phase === 'Succeeded') return;
  if (phase !== 'Failed') fail(errs.plain(`pod ${where} left in phase ${phase}`));
  const t = ((pod.status?.containerStatuses as Obj[]) ?? [])[0]?.state?.terminated as Obj | undefined;
  if (!t || !t.exitCode) fail(errs.plain(`pod ${where} failed with unknown exit code`));
  fail(errs.raw(`pod ${where} terminated (${t.reason ?? ''})\n${t.message ?? ''}`, t.exitCode as number));
}

/** --rm: the pod goes, as `kubectl delete` would say (IgnoreNotFound, no waiting). */
export async function removePod(ctx: Ctx, ns: string, name: string, quiet: boolean): Promise<void> {
  const refs = await resolveArgs(ctx, [`pods/${name}`]);
  const res = await ctx.client.tryJson<Obj>('DELETE', resourcePath(refs.refs[0]!.mapping, ns, name), { body: '{"propagationPolicy":"Background"}\n' });
  if (!res.ok) {
    if (res.status.reason === 'NotFound') return;
    fail(errs.status(res.status));
  }
  if (!quiet) ctx.io.out(`pod "${name}" deleted\n`);
}
