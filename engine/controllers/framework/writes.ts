// Writes of one reconcile, in upstream's order. Upstream's sync calls the API
// one write after another and stops at the first error (a slow-start batch
// is one step of parallel writes); ours issues a step, and the answers issue
// the next. Each successful write is then awaited in the informer (its
// resourceVersion, or its disappearance), so the next reconcile of that key
// sees its own writes, as upstream's does once the watch event that requeues
// it has arrived.
import type { KObject } from '../../apimachinery/types';
import { registerClass } from '../../sim/serial';
import { errorMessage } from '../replicaset/podUtil';
import type { ApiCall, ControllerContext, EventSpec } from './types';

export interface PlannedWrite {
  call: ApiCall;
  /** The informer holding the written object, whose store must show the write before the next reconcile. */
  observe?: string;
  /** Event once it succeeded (with the written object's name appended when okNamed: "Created pod: web-x2k"). */
  ok?: EventSpec;
  okNamed?: boolean;
  /** Plain data the controller gets back for writes that failed or were never issued. */
  meta?: unknown;
  /** Hand the answer's body back in the chain's result (a created object's uid). */
  capture?: boolean;
  /** Event when it failed: the message is prefix + the error's text + suffix. */
  fail?: { regarding: KObject; type: 'Normal' | 'Warning'; reason: string; prefix: string; suffix?: string };
  /** Statuses that are no error (404 for a delete of what is gone). */
  tolerate?: number[];
  /** Statuses that are an error without an event (409 AlreadyExists, which upstream sinks). */
  quiet?: number[];
}

/** Steps run one after another; the writes of one step run at once. */
export interface PlannedStep {
  writes: PlannedWrite[];
  /** Runs even after an earlier step failed (upstream writes status whatever happened). */
  always?: boolean;
  /** Its failures get their events but stop nothing after it (upstream records the error and goes on). */
  soft?: boolean;
}

export type WriteTag = { type: 'write'; owner: string; step: number; index: number };

interface Chain {
  steps: PlannedStep[];
  step: number;
  inflight: number;
  failed: boolean;
  errors: string[];
  failedMeta: unknown[];
  skippedMeta: unknown[];
  captured: string[];
}

interface Awaited {
  resource: string;
  key: string;
  /** resourceVersion the store must reach; null = the object must be gone. */
  rv: number | null;
  /** A creation: the object must appear (later writes may also have removed it again). */
  created: boolean;
  deadline: number;
}

/** How long a write may stay unobserved before the key is reconciled anyway (a lost watch event). */
export const OBSERVE_TIMEOUT_MS = 5_000;

export interface ChainResult {
  owner: string;
  ok: boolean;
  errors: string[];
  /** The meta of writes that failed, and of writes skipped after a failure. */
  failed: unknown[];
  skipped: unknown[];
  /** Bodies of the successful writes marked capture, in answer order. */
  captured: string[];
}

export class WriteChains {
  readonly chains = new Map<string, Chain>();
  readonly awaited = new Map<string, Awaited[]>();

  /** Issues the first step (returns false when there is nothing to write). */
  start(owner: string, steps: PlannedStep[], ctx: ControllerContext): boolean {
    const live = steps.filter((s) => s.writes.length > 0);
    if (live.length === 0) return false;
    const chain: Chain = { steps: live, step: 0, inflight: 0, failed: false, errors: [], failedMeta: [], skippedMeta: [], captured: [] };
    this.chains.set(owner, chain);
    this.issue(owner, chain, ctx);
    return true;
  }

  /**
   * Whether the key must wait: a chain is running, or a write is not in the
   * informer yet. The delay is when to look again (the observation deadline).
   */
  wait(owner: string, ctx: ControllerContext): { busy: false } | { busy: true; delayMs: number | null } {
    if (this.chains.has(owner)) return { busy: true, delayMs: null };
    const list = this.awaited.get(owner);
    if (!list) return { busy: false };
    const left = list.filter((a) => ctx.now < a.deadline && !observed(a, ctx));
    if (left.length === 0) {
      this.awaited.delete(owner);
      return { busy: false };
    }
    this.awaited.set(owner, left);
    return { busy: true, delayMs: Math.max(1, Math.min(...left.map((a) => a.deadline)) - ctx.now) };
  }

  forget(owner: string): void {
    this.chains.delete(owner);
    this.awaited.delete(owner);
  }

  /** An answer to a write; returns the chain's result once it has ended. */
  onResponse(tag: WriteTag, status: number, body: string, ctx: ControllerContext): ChainResult | null {
    const chain = this.chains.get(tag.owner);
    if (!chain || chain.step !== tag.step) return null;
    const w = chain.steps[tag.step]!.writes[tag.index]!;
    chain.inflight--;
    const ok = status >= 200 && status < 300;
    if (ok || w.tolerate?.includes(status)) {
      if (ok && w.ok) ctx.event(w.okNamed ? { ...w.ok, message: w.ok.message + nameOf(body) } : w.ok);
      if (w.observe) this.expect(tag.owner, w, body, ctx);
      if (ok && w.capture) chain.captured.push(body);
    } else {
      const msg = errorMessage(status, body);
      if (!chain.steps[tag.step]!.soft) {
        chain.failed = true;
        chain.errors.push(msg);
        if (w.meta !== undefined) chain.failedMeta.push(w.meta);
      }
      if (w.fail && !w.quiet?.includes(status)) ctx.event({ regarding: w.fail.regarding, type: w.fail.type, reason: w.fail.reason, message: `${w.fail.prefix}${msg}${w.fail.suffix ?? ''}` });
    }
    if (chain.inflight > 0) return null;
    chain.step++;
    while (chain.step < chain.steps.length && chain.failed && !chain.steps[chain.step]!.always) {
      for (const x of chain.steps[chain.step]!.writes) if (x.meta !== undefined) chain.skippedMeta.push(x.meta);
      chain.step++;
    }
    if (chain.step < chain.steps.length) {
      this.issue(tag.owner, chain, ctx);
      return null;
    }
    this.chains.delete(tag.owner);
    return { owner: tag.owner, ok: !chain.failed, errors: chain.errors, failed: chain.failedMeta, skipped: chain.skippedMeta, captured: chain.captured };
  }

  private issue(owner: string, chain: Chain, ctx: ControllerContext): void {
    const step = chain.steps[chain.step]!;
    chain.inflight = step.writes.length;
    step.writes.forEach((w, index) => ctx.request(w.call, { type: 'write', owner, step: chain.step, index } satisfies WriteTag));
  }

  /** Awaits the written object in its informer: its new resourceVersion, or its absence after a delete that removed it. */
  private expect(owner: string, w: PlannedWrite, body: string, ctx: ControllerContext): void {
    let obj: KObject | null = null;
    try {
      obj = JSON.parse(body) as KObject;
    } catch {
      obj = null;
    }
    const list = this.awaited.get(owner) ?? [];
    const deadline = ctx.now + OBSERVE_TIMEOUT_MS;
    const meta = obj?.kind === 'Status' ? null : obj?.metadata;
    if (meta?.name && meta.resourceVersion) {
      const key = meta.namespace ? `${meta.namespace}/${meta.name}` : meta.name;
      list.push({ resource: w.observe!, key, rv: Number(meta.resourceVersion), created: w.call.method === 'POST', deadline });
    } else if (w.call.method === 'DELETE') {
      // A delete answered with a Status: the object is gone.
      const parts = w.call.path.split('/');
      const name = parts[parts.length - 1]!;
      const nsAt = parts.indexOf('namespaces');
      const key = nsAt >= 0 && parts[nsAt + 2] !== undefined ? `${parts[nsAt + 1]}/${name}` : name;
      list.push({ resource: w.observe!, key, rv: null, created: false, deadline });
    }
    if (list.length) this.awaited.set(owner, list);
  }
}

function nameOf(body: string): string {
  try {
    return (JSON.parse(body) as KObject).metadata?.name ?? '';
  } catch {
    return '';
  }
}

function observed(a: Awaited, ctx: ControllerContext): boolean {
  const o = ctx.store(a.resource).get(a.key);
  if (a.rv === null) return !o;
  // An update's object may be gone since (deleted); a created one must have been seen.
  if (!o) return !a.created;
  return Number(o.metadata.resourceVersion ?? 0) >= a.rv;
}

/** Builds the event upstream records about `regarding`. */
export const eventOf = (regarding: KObject, type: 'Normal' | 'Warning', reason: string, message: string): EventSpec => ({ regarding, type, reason, message });

registerClass('WriteChains', WriteChains);
