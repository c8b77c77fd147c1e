// The differential harness: one sequence of gateway requests, run against a
// real etcd and against the simulation's gateway, each producing a normalized
// transcript; the transcripts must be equal.
//
// Normalization drops what legitimately differs between two clusters
// (cluster_id, member_id, raft_term), makes revisions relative to the
// revision at the start of the sequence (so one divergence does not cascade
// into every later sequence), sorts lease lists (Go map order), and flattens
// watch streams into control responses + events (how events of consecutive
// revisions are batched into responses depends on timing).
import { b64, JsonStream, post } from '../testkit';

export interface Ctx {
  /** base64 of prefix + name: every sequence has its own key prefix. */
  key(name: string): string;
  /** Raw (not base64) prefixed key. */
  raw(name: string): string;
  /** An absolute revision: the sequence's base revision + n. */
  rev(n: number): number;
  /** A lease ID unique to this sequence. */
  lease(n: number): number;
}

type Body = unknown | ((c: Ctx) => unknown);

export type Step =
  | { op: 'call'; path: string; body: Body; label?: string }
  | { op: 'raw'; path: string; text: string }
  /**
   * Opens a watch stream whose request body is these requests (then closed:
   * over HTTP/1.1 etcd's gateway answers nothing until the body ends).
   * `responses`: how many answers the requests produce at once (default: one each).
   */
  | { op: 'watch'; name: string; body: Body | Body[]; responses?: number }
  | { op: 'settle' }
  | { op: 'sleep'; ms: number }
  | { op: 'keepalive'; ids: (c: Ctx) => number[] };

export interface Sequence {
  name: string;
  steps: Step[];
}

export interface Entry {
  step: number;
  what: string;
  request?: unknown;
  status?: number;
  body: unknown;
}

export interface Target {
  name: 'etcd' | 'ours';
  url: string;
}

const REV_KEYS = new Set(['revision', 'create_revision', 'mod_revision', 'compact_revision']);
const DROP_KEYS = new Set(['cluster_id', 'member_id', 'raft_term']);

/** Drops per-cluster fields and rebases revisions (recursively). */
export function normalize(v: unknown, base: number): unknown {
  if (Array.isArray(v)) return v.map((x) => normalize(x, base));
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (DROP_KEYS.has(k)) continue;
    if (REV_KEYS.has(k) && typeof x === 'string' && /^-?\d+$/.test(x)) {
      const n = Number(x);
      out[k] = n > 0 ? `base+${n - base}` : x;
      continue;
    }
    if (k === 'keys' && Array.isArray(x)) {
      out[k] = [...x].sort(); // a lease's keys come from a Go map
      continue;
    }
    if (k === 'leases' && Array.isArray(x)) {
      out[k] = [...x].sort((a, b) => Number((a as { ID: string }).ID) - Number((b as { ID: string }).ID));
      continue;
    }
    out[k] = normalize(x, base);
  }
  return out;
}

/** Flattens a watch stream's responses: controls in order, then events with their watch id. */
export function flattenWatch(messages: unknown[], base: number): { controls: unknown[]; events: unknown[]; errors: unknown[] } {
  const controls: unknown[] = [];
  const events: unknown[] = [];
  const errors: unknown[] = [];
  for (const m of messages) {
    const msg = m as { result?: Record<string, unknown>; error?: unknown };
    if (msg.error !== undefined) {
      errors.push(msg.error);
      continue;
    }
    const r = normalize(msg.result ?? m, base) as Record<string, unknown>;
    const evs = (r.events as unknown[] | undefined) ?? [];
    const { events: _e, header, ...rest } = r;
    const id = (r.watch_id as string | undefined) ?? '0';
    if (evs.length === 0) controls.push({ ...rest, header });
    // Event responses: the header revision is that of the last event in the batch; only events compare.
    for (const e of evs) events.push({ watch_id: id, ...(e as object) });
  }
  // Watchers of one stream get a revision's events in Go map order (random
  // upstream): group by watch id, keeping each watcher's own order.
  events.sort((a, b) => Number((a as { watch_id: string }).watch_id) - Number((b as { watch_id: string }).watch_id));
  return { controls, events, errors };
}

function resolve(b: Body, c: Ctx): unknown {
  return typeof b === 'function' ? (b as (c: Ctx) => unknown)(c) : b;
}

async function currentRevision(url: string): Promise<number> {
  const r = await post(url, '/v3/kv/range', { key: b64('\u0000marker') });
  const rev = (r.json as { header?: { revision?: string } } | undefined)?.header?.revision;
  if (rev === undefined) throw new Error(`cannot read the revision of ${url}: ${r.status} ${r.text}`);
  return Number(rev);
}

/** Waits until no new watch message arrived for `quietMs` (at most `maxMs`). */
async function settle(streams: Map<string, JsonStream>, quietMs = 300, maxMs = 4000): Promise<void> {
  const start = Date.now();
  let count = -1;
  let since = Date.now();
  while (Date.now() - start < maxMs) {
    const n = [...streams.values()].reduce((s, w) => s + w.messages.length, 0);
    if (n !== count) {
      count = n;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** LeaseLeases lists every live lease: keep this sequence's own (IDs in [lo, hi)). */
function ownLeases(body: unknown, lo: number, hi: number): unknown {
  const b = body as { leases?: { ID: string }[] };
  if (!Array.isArray(b.leases)) return body;
  const leases = b.leases.filter((l) => Number(l.ID) >= lo && Number(l.ID) < hi);
  const { leases: _all, ...rest } = b as Record<string, unknown>;
  return leases.length > 0 ? { ...rest, leases } : rest;
}

export async function runSequence(t: Target, seq: Sequence, index: number): Promise<Entry[]> {
  const prefix = `d${String(index).padStart(3, '0')}/`;
  const base = await currentRevision(t.url);
  const ctx: Ctx = {
    key: (name) => b64(prefix + name),
    raw: (name) => prefix + name,
    rev: (n) => base + n,
    lease: (n) => 700_000 + index * 100 + n,
  };
  const out: Entry[] = [];
  const watches = new Map<string, JsonStream>();
  try {
    for (let i = 0; i < seq.steps.length; i++) {
      const s = seq.steps[i]!;
      switch (s.op) {
        case 'call': {
          const request = resolve(s.body, ctx);
          const r = await post(t.url, s.path, request);
          let body = normalize(r.json ?? r.text, base);
          if (s.path === '/v3/lease/leases') body = ownLeases(body, ctx.lease(0), ctx.lease(100));
          out.push({ step: i, what: `${s.path}${s.label ? ` (${s.label})` : ''}`, request, status: r.status, body });
          break;
        }
        case 'raw': {
          const r = await post(t.url, s.path, s.text);
          out.push({ step: i, what: `${s.path} raw`, request: s.text, status: r.status, body: normalize(r.json ?? r.text, base) });
          break;
        }
        case 'watch': {
          const bodies = Array.isArray(s.body) ? s.body : [s.body];
          const text = bodies.map((b) => JSON.stringify(resolve(b, ctx))).join('\n');
          const w = new JsonStream(t.url, '/v3/watch', text);
          watches.set(s.name, w);
          await w.waitFor(s.responses ?? bodies.length, 2000); // created (or canceled) answers
          break;
        }
        case 'settle': {
          await settle(watches);
          for (const [name, w] of watches) out.push({ step: i, what: `watch ${name}`, status: w.status, body: flattenWatch(w.messages, base) });
          break;
        }
        case 'sleep':
          await new Promise((r) => setTimeout(r, s.ms));
          break;
        case 'keepalive': {
          const ids = s.ids(ctx);
          const w = new JsonStream(t.url, '/v3/lease/keepalive', ids.map((ID) => JSON.stringify({ ID })).join('\n'));
          await w.waitEnd(5000);
          out.push({ step: i, what: 'keepalive', request: ids, status: w.status, body: w.messages.map((m) => normalize(m, base)) });
          break;
        }
      }
    }
  } finally {
    for (const w of watches.values()) w.close();
  }
  return out;
}

/**
 * Compares two transcripts; returns human-readable differences (empty if
 * equal). TTLs of LeaseTimeToLive may differ by one second (wall time passes
 * differently in the two clusters); HTTP statuses are compared through the
 * gRPC code (etcd 3.4's gateway maps some codes differently from 3.5's).
 */
export function compareTranscripts(real: Entry[], ours: Entry[]): string[] {
  const diffs: string[] = [];
  const n = Math.max(real.length, ours.length);
  for (let i = 0; i < n; i++) {
    const a = real[i];
    const b = ours[i];
    if (!a || !b) {
      diffs.push(`entry ${i}: present in ${a ? 'etcd' : 'ours'} only`);
      continue;
    }
    // Key order is not compared (etcd 3.4 writes error/message/code, 3.5 error/code/message).
    const ea = canonical(comparable(a));
    const eb = canonical(comparable(b));
    if (ea !== eb) diffs.push(`step ${a.step} ${a.what}\n  request:  ${JSON.stringify(a.request)}\n  expected: ${ea}\n  got:      ${eb}`);
  }
  return diffs;
}

/** etcd 3.4's gateway (grpc-gateway v1.9) status for a gRPC code, where it differs from 3.5's. */
const STATUS_34: Record<number, number> = { 9: 412, 8: 403, 4: 408 };
const STATUS_35: Record<number, number> = { 9: 400, 8: 429, 4: 504 };

function comparable(e: Entry): unknown {
  let body = e.body as Record<string, unknown> | unknown;
  let status = e.status;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const o = body as Record<string, unknown>;
    // Status via the code, so the 3.4-vs-3.5 mapping differences do not count.
    if (typeof o.code === 'number' && status !== undefined) {
      if (STATUS_34[o.code] === status || STATUS_35[o.code] === status) status = -o.code;
    }
    if ('TTL' in o && 'grantedTTL' in o) body = { ...o, TTL: ttlBucket(o.TTL, o.grantedTTL) };
  }
  return { status, body };
}

/** A remaining TTL within one second of the granted one compares equal to it. */
function ttlBucket(ttl: unknown, granted: unknown): unknown {
  const t = Number(ttl);
  const g = Number(granted);
  return t >= g - 1 && t <= g ? 'granted-1..granted' : ttl;
}

/** JSON with object keys sorted. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}
