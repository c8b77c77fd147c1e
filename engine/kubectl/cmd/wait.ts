// kubectl wait (staging/src/k8s.io/kubectl/pkg/cmd/wait, v1.32): the
// builder's objects in order, each checked with a list and then a watch from
// the list's resourceVersion until its condition holds, within one deadline
// for the whole run (--timeout, 30s; 0 checks once; negative is a week).
// --for=delete|create|condition=NAME[=VALUE]|jsonpath=EXPR[=VALUE].
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getString, getStrings, parseGoDuration } from '../cli/flags';
import { errs, fail, KubectlFailure, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { JsonPath, JsonPathError, relaxedJsonPathExpression } from '../jsonpath/jsonpath';
import { status } from '../../apimachinery/status';
import { aggregate, namespaceForObject, readFileObjects, resolveArgs, resourcePath } from '../resource/builder';
import { OUTPUT_FLAGS, ResultPrinter } from './common';

type Obj = Record<string, any>;

export const WAIT_FLAGS: FlagDef[] = [
  ...OUTPUT_FLAGS,
  { name: 'filename', shorthand: 'f', kind: 'stringSlice' },
  { name: 'recursive', shorthand: 'R', kind: 'bool', default: true },
  { name: 'all', kind: 'bool' },
  { name: 'all-namespaces', shorthand: 'A', kind: 'bool' },
  { name: 'selector', shorthand: 'l', kind: 'string' },
  { name: 'field-selector', kind: 'string' },
  { name: 'local', kind: 'bool' },
  { name: 'timeout', kind: 'duration', default: '30s' },
  { name: 'for', kind: 'string' },
];

const WEEK_MS = 168 * 3600_000;
const NO_RESOURCES = "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/** resource.Info: what the builder hands the condition. */
export interface Info {
  mapping: Mapping;
  namespace?: string;
  name: string;
  object: Obj;
}

type Check = (obj: Obj) => boolean;

type Condition = { type: 'delete' } | { type: 'create' } | { type: 'check'; check: Check };

// ---------- --for

/** splitJSONPathInput: split on single '=', keeping '=='. */
function splitJsonPathInput(input: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < input.length; i++) {
    if (input[i] === '=') {
      if (input[i + 1] === '=') {
        cur += '==';
        i++;
        continue;
      }
      out.push(cur);
      cur = '';
      continue;
    }
    cur += input[i];
  }
  out.push(cur);
  return out;
}

/** fmt's %v of a JSON scalar. */
function goValueString(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

function jsonPathCheck(input: string): Check {
  const parts = splitJsonPathInput(input);
  if (parts.length < 1 || parts.length > 2) fail(errs.plain("jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'"));
  let expr: string;
  try {
    expr = relaxedJsonPathExpression(parts[0]!);
  } catch (e) {
    if (e instanceof JsonPathError) fail(errs.plain(e.message));
    throw e;
  }
  let value = '';
  if (parts.length === 2) {
    value = parts[1]!.replace(/^['"]+|['"]+$/g, '');
    if (value === '') fail(errs.plain("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3"));
  }
  if (expr === '') fail(errs.plain('jsonpath expression cannot be empty'));
  const jp = new JsonPath();
  jp.allowMissingKeys = true;
  try {
    jp.parse(expr);
  } catch (e) {
    if (e instanceof JsonPathError) fail(errs.plain(e.message));
    throw e;
  }
  return (obj) => {
    let results: unknown[][];
    try {
      results = jp.findResults(obj as never) as unknown[][];
    } catch (e) {
      if (e instanceof JsonPathError) fail(errs.plain(e.message));
      throw e;
    }
    if (results.length === 0 || results[0]!.length === 0) return false;
    if (results.length > 1) fail(errs.plain('given jsonpath expression matches more than one list'));
    if (results[0]!.length > 1) fail(errs.plain('given jsonpath expression matches more than one value'));
    if (value === '') return true;
    const r = results[0]![0];
    if (r !== null && typeof r === 'object') fail(errs.plain('jsonpath leads to a nested object or list which is not supported'));
    return goValueString(r).trim() === value.trim();
  };
}

/** Unicode simple case folding, near enough. */
const equalFold = (a: string, b: string) => a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();

function conditionCheck(name: string, status: string): Check {
  return (obj) => {
    const conditions = obj.status?.conditions;
    if (!Array.isArray(conditions)) return false;
    for (const c of conditions as Obj[]) {
      if (typeof c?.type !== 'string' || !equalFold(c.type, name)) continue;
      if (typeof c.status !== 'string') continue;
      const generation = obj.metadata?.generation;
      if (typeof generation === 'number') {
        // A condition observed for an older generation does not count.
        const observed = typeof c.observedGeneration === 'number' ? c.observedGeneration : obj.status?.observedGeneration;
        if (typeof observed === 'number' && observed < generation) return false;
      }
      return equalFold(c.status, status);
    }
    return false;
  };
}

/** conditionFuncFor. */
function conditionFor(forCondition: string): Condition {
  const lower = forCondition.toLowerCase();
  if (lower === 'delete') return { type: 'delete' };
  if (lower === 'create') return { type: 'create' };
  if (forCondition.startsWith('condition=')) {
    let name = forCondition.slice('condition='.length);
    let value = 'true';
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    return { type: 'check', check: conditionCheck(name, value) };
  }
  if (forCondition.startsWith('jsonpath=')) return { type: 'check', check: jsonPathCheck(forCondition.slice('jsonpath='.length)) };
  return fail(errs.plain(`unrecognized condition: ${JSON.stringify(forCondition)}`));
}

// ---------- the builder's objects, visited in order

type Source = () => Promise<Info[]>;

const withKind = (m: Mapping, apiVersion: string | undefined, o: Obj): Obj => ({ apiVersion: apiVersion ?? (m.group ? `${m.group}/${m.version}` : m.version), kind: m.kind, ...o });

async function sources(ctx: Ctx, args: string[]): Promise<Source[]> {
  const files = getStrings(ctx.flags, 'filename');
  const selector = getString(ctx.flags, 'selector');
  const fieldSelector = getString(ctx.flags, 'field-selector');
  const all = getBool(ctx.flags, 'all');
  const allNamespaces = getBool(ctx.flags, 'all-namespaces');
  if (getBool(ctx.flags, 'local') && args.length > 0) fail(errs.plain('error: you must specify resources by --filename when --local is set.'));
  if (files.length === 0 && args.length === 0) fail(errs.plain(NO_RESOURCES));
  const latest = (m: Mapping, ns: string | undefined, name: string): Source => async () => {
    const g = await ctx.client.tryJson<Obj>('GET', resourcePath(m, ns, name));
    if (!g.ok) throw new KubectlFailure(errs.status(g.status));
    return [{ mapping: m, namespace: ns, name, object: withKind(m, undefined, g.value) }];
  };
  const out: Source[] = [];
  for (const fo of await readFileObjects(ctx, files, { recursive: getBool(ctx.flags, 'recursive') })) out.push(latest(fo.mapping, fo.mapping.namespaced ? namespaceForObject(ctx, fo) : undefined, fo.object.metadata.name!));
  if (args.length === 0) return out;
  const r = await resolveArgs(ctx, args);
  const bySelector = selector !== '' || fieldSelector !== '' || all;
  if (r.byName && bySelector && (selector !== '' || fieldSelector !== '')) fail(errs.plain('name cannot be provided when a selector is specified'));
  if (!r.byName && !bySelector) fail(errs.plain('resource(s) were provided, but no name was specified'));
  for (const ref of r.refs) {
    const m = ref.mapping;
    const ns = m.namespaced ? (allNamespaces ? undefined : ctx.namespace) : undefined;
    if (ref.name !== undefined) {
      out.push(latest(m, ns, ref.name));
      continue;
    }
    out.push(async () => {
      const query: Record<string, string> = {};
      if (selector) query.labelSelector = selector;
      if (fieldSelector) query.fieldSelector = fieldSelector;
      const l = await ctx.client.tryJson<Obj>('GET', resourcePath(m, ns), { query });
      if (!l.ok) throw new KubectlFailure(errs.status(l.status));
      return ((l.value.items as Obj[]) ?? []).map((item) => ({ mapping: m, namespace: m.namespaced ? item.metadata?.namespace : undefined, name: item.metadata?.name, object: withKind(m, l.value.apiVersion, item) }));
    });
  }
  return out;
}

// ---------- waiting

/** info.ObjectName(): `pods/x`. */
const objectName = (i: Info) => `${i.mapping.resource}/${i.name}`;
const timedOut = (i: Info): KubectlErr => errs.plain(`timed out waiting for the condition on ${objectName(i)}`);

/** A wait's deadline in virtual time; 0 or less waits without one (run's and debug's waits). */
export class Clock {
  private readonly deadline: number;
  /** Settles when the run's deadline passes (never without a virtual clock). */
  readonly expired: Promise<'timeout'>;
  readonly interrupted: Promise<'interrupt'>;

  constructor(
    private readonly ctx: Ctx,
    readonly timeoutMs: number,
  ) {
    this.deadline = timeoutMs > 0 ? ctx.now() + timeoutMs : Infinity;
    this.expired = timeoutMs > 0 && ctx.env.sleep ? ctx.env.sleep(timeoutMs).then(() => 'timeout' as const) : new Promise<'timeout'>(() => undefined);
    this.interrupted = ctx.env.interrupt ? ctx.env.interrupt.then(() => 'interrupt' as const) : new Promise<'interrupt'>(() => undefined);
  }

  get passed(): boolean {
    return this.ctx.now() >= this.deadline;
  }
}

export interface WatchOutcome {
  result: 'met' | 'timeout' | 'interrupt' | 'ended';
  object?: Obj;
}

/**
 * watchtools.UntilWithSync over one object: a list by name (the informer's
 * sync), then a watch from its resourceVersion; `onEvent` decides on each
 * event. A watch the server ends is listed and watched again.
 */
export async function untilWithSync(ctx: Ctx, info: Info, clock: Clock, precondition: (listed: Obj | undefined) => 'met' | 'wait', onEvent: (type: string, obj: Obj) => boolean, errorText: string): Promise<WatchOutcome> {
  const path = resourcePath(info.mapping, info.namespace);
  const fieldSelector = `metadata.name=${info.name}`;
  for (;;) {
    const l = await ctx.client.tryJson<Obj>('GET', path, { query: { fieldSelector } });
    if (!l.ok) fail(errs.status(l.status));
    const item = ((l.value.items as Obj[]) ?? []).find((i) => i.metadata?.name === info.name);
    const listed = item ? withKind(info.mapping, l.value.apiVersion, item) : undefined;
    if (precondition(listed) === 'met') return { result: 'met', object: listed };
    if (listed && onEvent('ADDED', listed)) return { result: 'met', object: listed };
    let finish!: (o: WatchOutcome) => void;
    const done = new Promise<WatchOutcome>((r) => (finish = r));
    let failure: unknown = null;
    const w = ctx.client.watch(path, { query: { fieldSelector, resourceVersion: String(l.value.metadata?.resourceVersion ?? '0'), watch: 'true' } }, (line) => {
      try {
        const ev = JSON.parse(line) as Obj;
        if (ev.type === 'ERROR') {
          ctx.io.err(`error: ${errorText}: ${ev.object?.message ?? ''}`);
          return;
        }
        if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED' && ev.type !== 'DELETED') return;
        const obj = withKind(info.mapping, undefined, ev.object as Obj);
        if (onEvent(ev.type as string, obj)) finish({ result: 'met', object: obj });
      } catch (e) {
        failure = e;
        finish({ result: 'ended' });
      }
    });
    const outcome = await Promise.race([done, w.done.then(() => ({ result: 'ended' }) as WatchOutcome), clock.expired.then(() => ({ result: 'timeout' }) as WatchOutcome), clock.interrupted.then(() => ({ result: 'interrupt' }) as WatchOutcome)]);
    w.cancel();
    if (failure) throw failure;
    if (outcome.result !== 'ended') return outcome;
    // The reflector lists and watches again (after a pause, in virtual time).
    if (!ctx.env.sleep) return { result: 'timeout' };
    await Promise.race([ctx.env.sleep(1000), clock.expired, clock.interrupted]);
    if (clock.passed) return { result: 'timeout' };
  }
}

const interruptedExit = (): never => fail({ type: 'Exit', code: 1 });

/** IsDeleted. */
async function waitDeleted(ctx: Ctx, info: Info, clock: Clock): Promise<Obj> {
  const g = await ctx.client.tryJson<Obj>('GET', resourcePath(info.mapping, info.namespace, info.name));
  if (!g.ok) {
    if (g.status.reason === 'NotFound') return info.object;
    fail(errs.status(g.status));
  }
  const gotten = withKind(info.mapping, undefined, g.value);
  if (clock.timeoutMs === 0) fail(errs.plain(`condition not met for ${objectName(info)}`));
  if (clock.passed) fail(timedOut(info));
  const r = await untilWithSync(ctx, info, clock, (listed) => (listed ? 'wait' : 'met'), (type) => type === 'DELETED', 'An error occurred while waiting for the object to be deleted');
  if (r.result === 'interrupt') interruptedExit();
  if (r.result !== 'met') fail(timedOut(info));
  return gotten;
}

/** getObjAndCheckCondition. */
async function waitCondition(ctx: Ctx, info: Info, clock: Clock, check: Check): Promise<Obj> {
  if (clock.timeoutMs === 0) {
    const g = await ctx.client.tryJson<Obj>('GET', resourcePath(info.mapping, info.namespace, info.name));
    if (!g.ok) fail(errs.status(g.status));
    const obj = withKind(info.mapping, undefined, g.value);
    if (!check(obj)) fail(errs.plain(`condition not met for ${objectName(info)}`));
    return obj;
  }
  if (clock.passed) fail(timedOut(info));
  const notFound = (): never => fail(errs.status(status.notFound({ group: info.mapping.group, resource: info.mapping.resource }, info.name)));
  const r = await untilWithSync(ctx, info, clock, (listed) => (listed ? 'wait' : notFound()), (type, obj) => type !== 'DELETED' && check(obj), 'An error occurred while waiting for the condition to be satisfied');
  if (r.result === 'interrupt') interruptedExit();
  if (r.result !== 'met') fail(timedOut(info));
  return r.object!;
}

/** RunWait's poll for --for=create: the builder's objects every 500ms until none is missing. */
async function waitCreated(ctx: Ctx, srcs: Source[], clock: Clock): Promise<void> {
  for (;;) {
    let missing = false;
    for (const s of srcs) {
      try {
        await s();
      } catch (e) {
        if (e instanceof KubectlFailure && e.err.type === 'StatusError' && e.err.status.reason === 'NotFound') {
          missing = true;
          break;
        }
        throw e;
      }
    }
    if (!missing) return;
    if (clock.timeoutMs === 0 || clock.passed || !ctx.env.sleep) fail(errs.plain('timed out waiting for the condition'));
    const r = await Promise.race([ctx.env.sleep(500).then(() => 'tick' as const), clock.expired, clock.interrupted]);
    if (r === 'interrupt') interruptedExit();
    if (r === 'timeout') fail(errs.plain('timed out waiting for the condition'));
  }
}

export async function runWait(ctx: Ctx, args: string[]): Promise<void> {
  const printer = new ResultPrinter(ctx, 'none');
  const forCondition = getString(ctx.flags, 'for');
  const cond = conditionFor(forCondition);
  let timeoutMs = parseGoDuration(getString(ctx.flags, 'timeout')) ?? 30_000;
  if (timeoutMs < 0) timeoutMs = WEEK_MS;
  const srcs = await sources(ctx, args);
  const clock = new Clock(ctx, timeoutMs);
  if (cond.type === 'create') await waitCreated(ctx, srcs, clock);
  const errors: KubectlErr[] = [];
  let visited = 0;
  const collect = (e: unknown) => {
    if (!(e instanceof KubectlFailure) || e.err.type === 'Exit') throw e;
    errors.push(e.err);
  };
  for (const s of srcs) {
    let infos: Info[];
    try {
      infos = await s();
    } catch (e) {
      // --for=delete: what is already gone is done.
      if (cond.type === 'delete' && e instanceof KubectlFailure && e.err.type === 'StatusError' && e.err.status.reason === 'NotFound') continue;
      collect(e);
      continue;
    }
    for (const info of infos) {
      visited++;
      try {
        if (!info.name) fail(errs.plain('resource name must be provided'));
        const obj = cond.type === 'delete' ? await waitDeleted(ctx, info, clock) : cond.type === 'create' ? info.object : await waitCondition(ctx, info, clock, cond.check);
        printer.print(obj, 'condition met');
      } catch (e) {
        collect(e);
      }
    }
  }
  const e = aggregate(errors);
  if (e) fail(e);
  if (visited === 0 && cond.type !== 'delete') fail(errs.plain('no matching resources found'));
}
