// Watches for the watch checker: created through one dedicated client whose
// links are never faulted (a simulated gRPC stream cannot report that it
// broke), each with an explicit, run-unique watch id so responses map to
// their watch even across member restarts. Responses are collected after
// every kernel step from the client's inbox.
import type { Engine } from '../../facade/engine';
import type { WatchResponse as RpcWatchResponse } from '../api/rpc';
import type { RevisionEvents, WatchEvent } from '../../sim/checkers/etcdTypes';
import { keyInRange } from '../../sim/checkers/etcdTypes';
import type { WatchRecord, WatchResponse } from '../../sim/checkers/watchChecker';
import { toCheckerKv } from './workload';
import { registerClass } from '../../sim/serial';

export interface HarnessWatch {
  id: number;
  member: string;
  key: string;
  rangeEnd?: string;
  /** As requested: 0 = from the member's next revision. */
  requestedStart: number;
  prevKv: boolean;
  callId: number;
  createdAt: number;
  phase: 'start' | 'resume';
  responses: WatchResponse[];
  /** Arrival time of each response (for explanations). */
  times: number[];
}

export class WatchSet {
  readonly watches: HarnessWatch[] = [];
  private readonly byStream = new Map<string, HarnessWatch>();
  private seen = 0;
  private nextId = 101;

  constructor(
    private readonly engine: Engine,
    readonly client: string,
  ) {}

  create(member: string, key: string, rangeEnd: string | undefined, startRevision: number, prevKv: boolean, phase: HarnessWatch['phase']): void {
    const id = this.nextId++;
    const body = { key, rangeEnd, startRevision, prevKv, watchId: id };
    const r = this.engine.exec({ type: 'etcd', client: this.client, request: { type: 'WatchCreateRequest', body, endpoint: member } });
    if (!r.ok) throw new Error(`harness: watch create rejected: ${r.error}`);
    const w: HarnessWatch = { id, member, key, rangeEnd, requestedStart: startRevision, prevKv, callId: r.result as number, createdAt: this.engine.sim.now, phase, responses: [], times: [] };
    this.watches.push(w);
    this.byStream.set(`${member}/${id}`, w);
  }

  /** Call after every kernel step: takes the new watch responses from the client's inbox. */
  collect(): void {
    const inbox = this.engine.client(this.client).watchResponses;
    // The client keeps its last 10,000 responses, dropping 1,000 at a time;
    // one step delivers at most one message, so a shrink means one such drop.
    if (inbox.length < this.seen) this.seen -= 1000;
    for (; this.seen < inbox.length; this.seen++) {
      const r = inbox[this.seen]!;
      const w = this.byStream.get(`${r.from}/${r.body.watchId}`);
      if (w) {
        w.responses.push(toCheckerResponse(r.body));
        w.times.push(r.at);
      }
    }
  }

  /** The revision a watch really started at, when known: requested, or the created header + 1. */
  effectiveStart(w: HarnessWatch): number {
    if (w.requestedStart > 0) return w.requestedStart;
    const call = this.engine.call(w.callId, this.client);
    if (call?.outcome?.status !== 'ok') return 0;
    return (call.outcome.body as { header: { revision: number } }).header.revision + 1;
  }

  created(w: HarnessWatch): boolean {
    return this.engine.call(w.callId, this.client)?.outcome?.status === 'ok';
  }

  records(): WatchRecord[] {
    return this.watches.map((w) => {
      const rec: WatchRecord = { key: w.key, startRevision: this.effectiveStart(w), prevKv: w.prevKv, responses: w.responses };
      if (w.rangeEnd !== undefined) rec.rangeEnd = w.rangeEnd;
      return rec;
    });
  }

  /** The highest revision the watch delivered (0 if none). */
  static lastDelivered(w: HarnessWatch): number {
    let last = 0;
    for (const r of w.responses) for (const e of r.events) if (e.kv.modRevision > last) last = e.kv.modRevision;
    return last;
  }

  /** The highest revision ≤ upTo with an event in the watch's range, from `from` on (0 if none). */
  static lastExpected(w: HarnessWatch, history: readonly RevisionEvents[], from: number, upTo: number): number {
    let last = 0;
    for (const rec of history) {
      if (rec.revision < from || rec.revision > upTo) continue;
      if (rec.events.some((e) => keyInRange(e.kv.key, w.key, w.rangeEnd))) last = rec.revision;
    }
    return last;
  }
}

function toCheckerResponse(b: RpcWatchResponse): WatchResponse {
  const events: WatchEvent[] = b.events.map((e) => {
    const ev: WatchEvent = { type: e.type, kv: toCheckerKv(e.kv) };
    if (e.prevKv) ev.prevKv = toCheckerKv(e.prevKv);
    return ev;
  });
  const r: WatchResponse = { events };
  if (b.canceled) r.canceled = true;
  if (b.compactRevision) r.compactRevision = b.compactRevision;
  return r;
}

registerClass('harness.WatchSet', WatchSet);
