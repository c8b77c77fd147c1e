// The playground's control API (/playground/v1/...): the clock, faults and
// views of the simulated cluster. JSON in, JSON out; validation failures are
// 400s with {"error": "..."}.
import type { EtcdMemberView, Fault } from '../engine/facade/types';
import { parseDurationValue } from './duration';
import type { EngineHost } from './host';

export interface ControlAnswer {
  status: number;
  body: unknown;
}

const bad = (error: string): ControlAnswer => ({ status: 400, body: { error } });

/** Largest single clock advance through the API (a day of virtual time). */
export const MAX_ADVANCE_MS = 24 * 3_600_000;
/** Largest `step` count per request. */
export const MAX_STEPS = 1_000_000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class ControlApi {
  constructor(private readonly host: EngineHost) {}

  state(): ControlAnswer {
    return { status: 200, body: this.host.state() };
  }

  /** kube-apiserver's request records, oldest first: ?since=ID (exclusive), ?limit=N (default 500). */
  requests(query: URLSearchParams): ControlAnswer {
    const since = Number(query.get('since') ?? '0');
    const limit = Number(query.get('limit') ?? '500');
    if (!Number.isInteger(since) || since < 0) return { status: 400, body: { error: 'since must be a non-negative integer' } };
    if (!Number.isInteger(limit) || limit < 1 || limit > 2000) return { status: 400, body: { error: 'limit must be an integer between 1 and 2000' } };
    const filters = ['user', 'verb', 'resource', 'namespace'] as const;
    let recs = this.host.engine.requests(since, 2000);
    for (const f of filters) {
      const v = query.get(f);
      if (v) recs = recs.filter((r) => r[f] === v);
    }
    const code = query.get('code');
    if (code) recs = recs.filter((r) => String(r.code) === code || (code.endsWith('xx') && String(r.code)[0] === code[0]));
    return { status: 200, body: { requests: recs.slice(-limit) } };
  }

  commands(): ControlAnswer {
    return { status: 200, body: { commands: this.host.engine.commands() } };
  }

  etcd(): ControlAnswer {
    const view = this.host.engine.etcdView();
    const members = view.members.map((m: EtcdMemberView) => ({
      name: m.name,
      memberId: m.memberId,
      up: m.up,
      role: m.role,
      term: m.term,
      vote: m.vote,
      leader: m.leader,
      commitIndex: m.commitIndex,
      appliedIndex: m.appliedIndex,
      lastLogIndex: m.lastLogIndex,
      revision: m.revision,
      fsyncMs: m.fsyncMs,
    }));
    return {
      status: 200,
      body: {
        virtualTime: this.host.engine.sim.now,
        leader: this.host.engine.leader(),
        members,
        revision: view.kv.revision,
        compactRevision: view.kv.compactRevision,
        partition: view.partition,
        blocked: view.blocked,
      },
    };
  }

  /** POST /clock: exactly one of advance, speed, step. */
  async clock(body: unknown): Promise<ControlAnswer> {
    if (!isObject(body)) return bad('expected a JSON object like {"advance":"30s"}, {"speed":2} or {"step":1}');
    const keys = Object.keys(body).filter((k) => ['advance', 'speed', 'step'].includes(k));
    const unknown = Object.keys(body).filter((k) => !['advance', 'speed', 'step'].includes(k));
    if (unknown.length > 0) return bad(`unknown field(s): ${unknown.join(', ')}`);
    if (keys.length !== 1) return bad('give exactly one of "advance", "speed" or "step"');
    if ('advance' in body) {
      const d = parseDurationValue(body.advance);
      if (!d.ok) return bad(d.error);
      if (d.ms > MAX_ADVANCE_MS) return bad(`advance at most 24h at a time (got ${d.ms} ms)`);
      await this.host.advanceBy(d.ms);
      return this.state();
    }
    if ('speed' in body) {
      const sp = body.speed;
      if (typeof sp !== 'number' || !Number.isFinite(sp)) return bad('speed must be a number (0 pauses)');
      const r = this.host.setSpeed(sp);
      if (!r.ok) return bad(r.error);
      return this.state();
    }
    const n = body.step;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_STEPS) return bad(`step must be an integer between 1 and ${MAX_STEPS}`);
    const done = this.host.step(n);
    return { status: 200, body: { ...this.host.state(), stepped: done } };
  }

  /** POST /load: client load from the in-simulation load generator (etcd-benchmark-0). */
  load(body: unknown): ControlAnswer {
    const l = parseLoad(body);
    if (typeof l === 'string') return bad(l);
    const r = this.host.exec({ type: 'load', ...l });
    if (!r.ok) return bad(r.error);
    return { status: 200, body: { ok: true, load: this.host.engine.loadStats(), state: this.host.state() } };
  }

  /** POST /faults: a Fault object, checked here for shape and by the engine for names; answers with the faults now in effect. */
  faults(body: unknown): ControlAnswer {
    const f = parseFault(body);
    if (typeof f === 'string') return bad(f);
    const r = this.host.exec({ type: 'fault', fault: f });
    if (!r.ok) return r.error.startsWith('no active fault') ? { status: 404, body: { error: r.error } } : bad(r.error);
    return { status: 200, body: { ok: true, fault: f, active: this.host.engine.activeFaults(), state: this.host.state() } };
  }

  /** GET /faults: the faults in effect, oldest first. */
  activeFaults(): ControlAnswer {
    return { status: 200, body: { virtualTime: this.host.engine.sim.now, faults: this.host.engine.activeFaults() } };
  }
}

/** The JSON shape of POST /load. */
export function parseLoad(body: unknown): { rate: number; keySpace?: number; valueSize?: number } | string {
  if (!isObject(body) || !num(body.rate)) return 'expected a JSON object like {"rate":1000,"keySpace":1000,"valueSize":8} (rate in puts per second; 0 stops)';
  const out: { rate: number; keySpace?: number; valueSize?: number } = { rate: body.rate };
  if (body.keySpace !== undefined) {
    if (!num(body.keySpace)) return '"keySpace" must be a number';
    out.keySpace = body.keySpace;
  }
  if (body.valueSize !== undefined) {
    if (!num(body.valueSize)) return '"valueSize" must be a number';
    out.valueSize = body.valueSize;
  }
  return out;
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export const FAULT_ACTIONS = ['crash', 'restart', 'partition', 'block', 'heal', 'heal-all', 'slow-disk', 'link', 'node-loss', 'partition-node', 'kubelet-restart', 'cut'] as const;

/** Checks the JSON shape of a fault; returns the Fault or an error text. */
export function parseFault(body: unknown): Fault | string {
  if (!isObject(body)) return 'expected a JSON object like {"action":"crash","target":"etcd-1"}';
  const a = body.action;
  switch (a) {
    case 'crash':
    case 'restart':
      if (!str(body.target)) return `"${a}" needs a "target" component name`;
      return { action: a, target: body.target };
    case 'partition': {
      const g = body.groups;
      if (!Array.isArray(g) || !g.every((x) => Array.isArray(x) && x.every(str))) return '"partition" needs "groups": a list of lists of component names';
      return { action: 'partition', groups: g as string[][] };
    }
    case 'block':
      if (!str(body.from) || !str(body.to)) return '"block" needs "from" and "to" component names';
      return { action: 'block', from: body.from, to: body.to };
    case 'heal': {
      const extra = Object.keys(body).filter((k) => k !== 'action' && k !== 'id');
      if (extra.length > 0) return `"heal" takes only "id" (an active fault's number from GET faults), not ${extra.map((k) => JSON.stringify(k)).join(', ')}`;
      if (body.id === undefined) return { action: 'heal' };
      if (typeof body.id !== 'number' || !Number.isInteger(body.id) || body.id < 1) return '"id" must be the number of an active fault (GET /playground/v1/faults lists them)';
      return { action: 'heal', id: body.id };
    }
    case 'heal-all':
      return { action: 'heal-all' };
    case 'node-loss':
    case 'partition-node':
    case 'kubelet-restart':
      if (!str(body.target)) return `"${a}" needs a "target" node name, like {"action":"${a}","target":"node-1"}`;
      return { action: a, target: body.target };
    case 'cut':
      if (!str(body.from) || !str(body.to)) return '"cut" needs "from" and "to": component names or kinds, like {"action":"cut","from":"kube-apiserver-0","to":"etcd"}';
      return { action: 'cut', from: body.from, to: body.to };
    case 'slow-disk':
      if (!str(body.target)) return '"slow-disk" needs a "target" component name';
      if (!num(body.fsyncMs)) return '"slow-disk" needs "fsyncMs": a number of milliseconds';
      return { action: 'slow-disk', target: body.target, fsyncMs: body.fsyncMs };
    case 'link': {
      const f: Extract<Fault, { action: 'link' }> = { action: 'link' };
      for (const k of ['from', 'to'] as const) {
        if (body[k] === undefined) continue;
        if (!str(body[k])) return `"${k}" must be a component name`;
        f[k] = body[k];
      }
      for (const k of ['loss', 'duplicate', 'minMs', 'maxMs'] as const) {
        if (body[k] === undefined) continue;
        if (!num(body[k])) return `"${k}" must be a number`;
        f[k] = body[k];
      }
      if (body.reorder !== undefined) {
        if (typeof body.reorder !== 'boolean') return '"reorder" must be true or false';
        f.reorder = body.reorder;
      }
      return f;
    }
    default:
      return `unknown fault action ${JSON.stringify(a)} (${FAULT_ACTIONS.join(', ')})`;
  }
}
