// The gateway's streaming RPCs: /v3/watch and /v3/lease/keepalive.
//
// grpc-gateway turns a bidi stream into one HTTP exchange: the request body is
// a sequence of JSON request objects, the response a sequence of
// `{"result":{...}}` objects, one per line, written as they arrive. A request
// that cannot be decoded first gets a unary-style error; a failure after the
// stream started ends it with `{"error":{"grpc_code",...}}` (runtime.StreamError).
//
// One HTTP watch is one gRPC Watch stream to one member, with its own watch
// ids starting at 0. In the simulation all gateway watches share the
// playground client's stream to that member, so ids are mapped: the member
// assigns its id, the HTTP stream sees its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GrpcCode, HttpStatusFromGrpcCode, type EtcdError, type GrpcCodeName } from '../../engine/etcd/api/errors';
import type { ResponseHeader, WatchCreateRequest, WatchResponse } from '../../engine/etcd/api/rpc';
import type { CallOutcome } from '../../engine/etcd/client/client';
import { PLAYGROUND_CLIENT } from '../../engine/facade/engine';
import type { EngineHost } from '../host';
import { CORS_HEADERS } from '../httpUtil';
import type { EtcdCalls } from './calls';
import { decodeJson, encodeMessage, type Internal } from './codec';
import { badRequest } from './errors';
import { JsonStreamSplitter, type JsonValue } from './goJson';
import { LeaseKeepAliveRequestSpec, LeaseKeepAliveResponseSpec, WatchRequestSpec, WatchResponseSpec } from './schema';
import { toEngineRequest } from './requests';

const HTTP_STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** runtime.StreamError as grpc-gateway v1.16 writes it inside a stream. */
export function streamErrorChunk(code: GrpcCodeName, message: string) {
  const http = HttpStatusFromGrpcCode[code];
  return { error: { grpc_code: GrpcCode[code], http_code: http, message, http_status: HTTP_STATUS_TEXT[http] ?? '' } };
}

/** The response side of one streaming exchange. */
class ChunkWriter {
  private started = false;
  ended = false;

  constructor(private readonly res: ServerResponse) {}

  private head(status: number): void {
    if (this.started) return;
    this.started = true;
    this.res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json' });
  }

  result(body: unknown): void {
    if (this.ended) return;
    this.head(200);
    this.res.write(`${JSON.stringify({ result: body })}\n`);
  }

  /** Ends the stream with an error chunk (status from the code if nothing was written yet). */
  fail(code: GrpcCodeName, message: string): void {
    if (this.ended) return;
    this.head(HttpStatusFromGrpcCode[code]);
    this.res.write(`${JSON.stringify(streamErrorChunk(code, message))}\n`);
    this.end();
  }

  /** A request that failed before the stream started: a unary-style error. */
  reject(status: number, body: unknown): void {
    if (this.ended) return;
    if (!this.started) {
      this.started = true;
      const text = JSON.stringify(body);
      this.res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json' });
      this.res.end(text);
      this.ended = true;
      return;
    }
    this.end();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.head(200);
    this.res.end();
  }
}

/** A bug while serving a stream: log it, end the stream with an Internal error. */
function internalError(out: ChunkWriter, e: unknown): void {
  console.error('internal error in a gateway stream:', e);
  out.fail('Internal', `internal error: ${e instanceof Error ? e.message : String(e)}`);
}

/** Feeds a streaming request body to `onValue`, one JSON object at a time. */
function readJsonStream(
  req: IncomingMessage,
  handlers: {
    value: (v: JsonValue, first: boolean) => void;
    error: (msg: string, first: boolean) => void;
    end: (sawAny: boolean) => void;
    /** A bug in a handler: the stream ends with an Internal error. */
    crash: (e: unknown) => void;
  },
): void {
  const splitter = new JsonStreamSplitter();
  let count = 0;
  let stopped = false;
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    if (stopped) return;
    try {
      const r = splitter.push(chunk);
      for (const v of r.values) handlers.value(v, count++ === 0);
      if (r.error !== undefined) {
        stopped = true;
        handlers.error(r.error, count === 0);
      }
    } catch (e) {
      stopped = true;
      handlers.crash(e);
    }
  });
  req.on('end', () => {
    if (stopped) return;
    const e = splitter.end();
    if (e) {
      stopped = true;
      handlers.error(e, count === 0);
      return;
    }
    try {
      handlers.end(count > 0);
    } catch (err) {
      handlers.crash(err);
    }
  });
}

// ---- lease keepalive -------------------------------------------------------

/** LeaseKeepAlive: each request renews once; the stream ends after the body does. */
export class KeepAliveStream {
  private readonly out: ChunkWriter;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly calls: EtcdCalls,
    private readonly req: IncomingMessage,
    res: ServerResponse,
  ) {
    this.out = new ChunkWriter(res);
    res.on('close', () => (this.closed = true));
  }

  run(): void {
    readJsonStream(this.req, {
      value: (v, first) => {
        const d = decodeJson(v, LeaseKeepAliveRequestSpec);
        if (!d.ok) {
          if (first) {
            const e = badRequest(d.error);
            this.out.reject(e.status, e.body);
          }
          return;
        }
        // The server renews one request at a time, answering each before reading the next.
        this.then(() => this.renew(d.value));
      },
      error: (msg, first) => {
        if (!first) return;
        const e = badRequest(msg);
        this.then(() => this.out.reject(e.status, e.body));
      },
      end: () => this.then(() => this.out.end()),
      crash: (e) => internalError(this.out, e),
    });
  }

  private then(fn: () => unknown): void {
    this.queue = this.queue
      .then(async () => {
        await fn();
      })
      .catch((e: unknown) => internalError(this.out, e));
  }

  private async renew(v: Internal): Promise<void> {
    if (this.closed || this.out.ended) return;
    const outcome = await this.calls.call('LeaseKeepAliveRequest', toEngineRequest('LeaseKeepAliveRequest', v) as { ID: number });
    if (outcome.status === 'ok') this.out.result(encodeMessage(outcome.body as Internal, LeaseKeepAliveResponseSpec));
    else if (outcome.status === 'refused') this.out.fail('InvalidArgument', outcome.error);
    else this.out.fail(outcome.error.code, outcome.error.message);
  }
}

// ---- watch -----------------------------------------------------------------

interface Binding {
  localId: number;
  /** The member's watch id once the create call answered; -1 if the member refused it. */
  engineId: number | null;
  /** Last client watch-response seq already looked at for this watch. */
  cursor: number;
  cancelRequested: boolean;
  done: boolean;
  /** Settles once the create's answer (created, or created+canceled) went out. */
  answered: () => void;
  isAnswered: boolean;
  /**
   * Virtual time by which the member's pushed answer should have arrived; a
   * lost push (a lossy link) is then replaced so the stream does not stall.
   */
  answerBy: number;
}

class WatchSession {
  readonly out: ChunkWriter;
  readonly bindings = new Map<number, Binding>();
  /** A refused create waiting for the member's created+canceled response. */
  refused: Binding | null = null;
  nextLocal = 0;
  closed = false;
  /** Requests are handled one at a time, in order, as v3rpc's recvLoop does. */
  queue: Promise<void> = Promise.resolve();

  constructor(
    /** The member this stream talks to, and its incarnation (actor object) when opened. */
    readonly member: string,
    readonly memberObj: unknown,
    res: ServerResponse,
  ) {
    this.out = new ChunkWriter(res);
  }
}

export class WatchStreams {
  private readonly sessions = new Set<WatchSession>();
  /** Seqs of "create refused" responses already matched to a refused create. */
  private readonly consumedFailures = new Set<number>();

  constructor(
    private readonly host: EngineHost,
    private readonly calls: EtcdCalls,
  ) {
    host.onAdvance(() => this.poll());
  }

  get openStreams(): number {
    return this.sessions.size;
  }

  private watchLog() {
    return this.host.engine.client(PLAYGROUND_CLIENT).watchResponses;
  }

  private lastSeq(): number {
    const log = this.watchLog();
    return log.length > 0 ? log[log.length - 1]!.seq : 0;
  }

  /** The member a new stream connects to: the leader, else the first member that is up. */
  private pickMember(): string | null {
    const e = this.host.engine;
    return e.leader() ?? e.memberNames().find((n) => e.sim.isUp(n)) ?? null;
  }

  /** Serves one POST /v3/watch: the HTTP exchange is the watch stream. */
  open(req: IncomingMessage, res: ServerResponse): void {
    const member = this.pickMember();
    const s = new WatchSession(member ?? '', member ? this.host.engine.member(member) : null, res);
    res.on('close', () => this.close(s));
    if (!member) {
      s.out.fail('Unavailable', 'etcdserver: no member is up to serve the watch stream');
      return;
    }
    this.sessions.add(s);
    readJsonStream(req, {
      value: (v, first) => {
        const d = decodeJson(v, WatchRequestSpec);
        if (!d.ok) {
          if (first) {
            const e = badRequest(d.error);
            s.out.reject(e.status, e.body);
            this.close(s);
          }
          return;
        }
        s.queue = s.queue
          .then(() => this.request(s, d.value))
          .catch((e: unknown) => {
            internalError(s.out, e);
            this.close(s);
          });
      },
      error: (msg, first) => {
        if (!first) return; // later garbage only stops the sending side, as grpc-gateway does
        const e = badRequest(msg);
        s.out.reject(e.status, e.body);
        this.close(s);
      },
      end: () => {
        /* the response stream stays open until the client goes away */
      },
      crash: (e) => {
        internalError(s.out, e);
        this.close(s);
      },
    });
  }

  private request(s: WatchSession, v: Internal): Promise<void> | void {
    if (s.closed) return;
    const create = v.createRequest as Internal | undefined;
    const cancel = v.cancelRequest as Internal | undefined;
    if (create) return this.create(s, create);
    if (cancel) return this.cancel(s, (cancel.watchId as number | undefined) ?? 0);
    if (v.progressRequest !== undefined) return this.progress(s);
  }

  /** progress_request: the member answers with its current revision and watch id -1 (v3rpc watch.go). */
  private progress(s: WatchSession): Promise<void> | void {
    const started = this.calls.start('WatchProgressRequest', {}, s.member);
    if (!started.ok) return s.out.fail('InvalidArgument', started.error);
    return this.calls.wait(started.id).then((outcome) => {
      if (s.closed || outcome.status !== 'ok') return;
      const header = (outcome.body as { header: ResponseHeader }).header;
      this.writeResponse(s, { ...this.emptyResponse(s), header }, -1);
    });
  }

  private header(s: WatchSession): ResponseHeader {
    const m = this.host.engine.member(s.member);
    if (!m) return { clusterId: 0, memberId: 0, revision: 0, raftTerm: 0 };
    return m.sm.header(m.node.raft.term);
  }

  private emptyResponse(s: WatchSession): WatchResponse {
    return { header: this.header(s), watchId: 0, created: false, canceled: false, compactRevision: 0, cancelReason: '', fragment: false, events: [] };
  }

  private writeResponse(s: WatchSession, r: WatchResponse, localId: number): void {
    s.out.result(encodeMessage({ ...r, watchId: localId } as unknown as Internal, WatchResponseSpec));
  }

  private create(s: WatchSession, c: Internal): Promise<void> | void {
    // Watch ids are per stream (v3rpc watchStream.Watch): given ids must be free,
    // automatic ones are the next free id, taken only if the watch is created.
    const given = (c.watchId as number | undefined) ?? 0;
    if (given !== 0 && s.bindings.has(given)) {
      const r: WatchResponse = { ...this.emptyResponse(s), created: true, canceled: true, cancelReason: 'mvcc: duplicate watch ID provided on the WatchStream' };
      return this.writeResponse(s, r, -1);
    }
    const nextBefore = s.nextLocal;
    let localId = given;
    if (localId === 0) {
      while (s.bindings.has(s.nextLocal)) s.nextLocal++;
      localId = s.nextLocal++;
    }
    const body = toEngineRequest('WatchCreateRequest', c) as WatchCreateRequest;
    delete body.watchId; // the member's id space is shared by every gateway stream
    const issueSeq = this.lastSeq();
    const started = this.calls.start('WatchCreateRequest', body, s.member);
    if (!started.ok) return s.out.fail('InvalidArgument', started.error);
    return new Promise<void>((answered) => {
      const b: Binding = { localId, engineId: null, cursor: issueSeq, cancelRequested: false, done: false, isAnswered: false, answered, answerBy: Infinity };
      s.bindings.set(localId, b);
      this.calls.wait(started.id).then((outcome) => {
        if (outcome.status === 'unknown' || (outcome.status === 'error' && ['DeadlineExceeded', 'Unavailable'].includes(outcome.error.code))) {
          // No answer from the member (timeout, unreachable): the stream fails.
          s.bindings.delete(localId);
          this.answer(b);
          s.out.fail(outcome.error.code, outcome.error.message);
          this.close(s);
          return;
        }
        // The member answers a refused create with watch id -1 (older engines: an error).
        const refused = outcome.status !== 'ok' || (outcome.body as { watchId: number }).watchId < 0;
        if (refused) {
          s.bindings.delete(localId);
          if (given === 0) s.nextLocal = nextBefore;
        }
        b.answerBy = this.host.engine.sim.now + 1000;
        if (refused) {
          b.engineId = -1;
          s.refused = b;
        } else {
          b.engineId = (outcome.body as { watchId: number }).watchId;
          if (s.closed) this.cancelInEngine(s, b);
        }
        this.poll();
      })
        .catch((e: unknown) => {
          internalError(s.out, e);
          this.answer(b);
          this.close(s);
        });
    });
  }

  private answer(b: Binding): void {
    if (b.isAnswered) return;
    b.isAnswered = true;
    b.answered();
  }

  private cancel(s: WatchSession, localId: number): void {
    const b = s.bindings.get(localId);
    if (!b || b.done || b.cancelRequested) return; // unknown id: no answer, as upstream
    b.cancelRequested = true;
    this.cancelInEngine(s, b);
  }

  private cancelInEngine(s: WatchSession, b: Binding): void {
    if (b.engineId === null || b.engineId < 0 || !this.host.engine.sim.isUp(s.member)) return;
    const r = this.calls.start('WatchCancelRequest', { watchId: b.engineId }, s.member);
    if (r.ok) this.calls.forgetWhenDone(r.id);
  }

  private close(s: WatchSession): void {
    if (s.closed) return;
    s.closed = true;
    this.sessions.delete(s);
    for (const b of s.bindings.values()) {
      if (!b.done && b.engineId !== null) this.cancelInEngine(s, b);
      this.answer(b);
    }
    if (s.refused) this.answer(s.refused);
    s.out.end();
  }

  /** Forwards new watch responses to their HTTP streams. */
  poll(): void {
    if (this.sessions.size === 0) return;
    const log = this.watchLog();
    const last = this.lastSeq();
    for (const s of [...this.sessions]) {
      if (this.host.engine.member(s.member) !== s.memberObj) {
        // The member crashed or restarted: the gRPC stream is gone.
        s.out.fail('Unavailable', 'transport is closing');
        this.close(s);
        continue;
      }
      const r = s.refused;
      if (r) {
        // The member's created+canceled answer (watch id -1) carries the reason.
        for (let i = firstAfter(log, r.cursor); i < log.length; i++) {
          const e = log[i]!;
          if (e.from !== s.member || e.body.watchId !== -1 || !e.body.canceled || this.consumedFailures.has(e.seq)) continue;
          this.consumedFailures.add(e.seq);
          if (this.consumedFailures.size > 1000) this.consumedFailures.clear();
          s.refused = null;
          this.writeResponse(s, e.body, -1);
          this.answer(r);
          break;
        }
        if (s.refused) {
          r.cursor = last;
          if (this.host.engine.sim.now > r.answerBy) {
            s.refused = null;
            this.writeResponse(s, { ...this.emptyResponse(s), created: true, canceled: true, cancelReason: 'etcdserver: watch create refused' }, -1);
            this.answer(r);
          }
        }
      }
      const pending: { seq: number; b: Binding; r: WatchResponse }[] = [];
      for (const b of s.bindings.values()) {
        if (b.engineId === null || b.engineId < 0 || b.done || b.cursor >= last) continue;
        for (let i = firstAfter(log, b.cursor); i < log.length; i++) {
          const e = log[i]!;
          if (e.from === s.member && e.body.watchId === b.engineId) pending.push({ seq: e.seq, b, r: e.body });
        }
        b.cursor = last;
      }
      for (const b of s.bindings.values()) {
        if (!b.isAnswered && b.engineId !== null && this.host.engine.sim.now > b.answerBy) {
          this.writeResponse(s, { ...this.emptyResponse(s), created: true }, b.localId);
          this.answer(b);
        }
      }
      pending.sort((x, y) => x.seq - y.seq);
      for (const p of pending) {
        if (p.b.done) continue;
        this.writeResponse(s, p.r, p.b.localId);
        if (p.r.created) this.answer(p.b);
        if (p.r.canceled) {
          p.b.done = true;
          s.bindings.delete(p.b.localId);
          this.answer(p.b);
        }
      }
    }
  }
}

/** Index of the first entry with seq > cursor (entries are in seq order). */
function firstAfter(log: readonly { seq: number }[], cursor: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log[mid]!.seq <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
