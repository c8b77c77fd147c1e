// HTTP between API clients and kube-apiserver on the simulated network. A
// request is one message; an answer is one message, or, for watches and
// streamed logs, a head followed by chunks (one JSON watch event per chunk,
// as the real server writes them) and an end.
import type { ApiRequest, ApiResponse } from '../types';
import { readonlyChecks } from '../../apimachinery/readonly';
import { registerStreamTypes } from '../../sim/kernel';

// Every HTTP/2 frame kind rides the connection's TCP stream (sim/kernel.ts).
registerStreamTypes(['HttpRequest', 'HttpResponse', 'HttpChunk', 'HttpData', 'HttpEnd', 'HttpCancel', 'HttpPing', 'HttpPong']);

export interface HttpRequestMsg {
  type: 'HttpRequest';
  reqId: number;
  request: ApiRequest;
}
export interface HttpResponseMsg {
  type: 'HttpResponse';
  reqId: number;
  response: ApiResponse;
  /** More follows as HttpChunk messages until HttpEnd. */
  streaming?: boolean;
}
export interface HttpChunkMsg {
  type: 'HttpChunk';
  reqId: number;
  chunk: string;
}
/**
 * Data from the client on an open stream: the stdin of an exec session (what
 * the WebSocket upgrade of pods/exec carries upstream). Its chunk is framed
 * as the stream's chunks are (see execStream).
 */
export interface HttpDataMsg {
  type: 'HttpData';
  reqId: number;
  chunk: string;
}
export interface HttpEndMsg {
  type: 'HttpEnd';
  reqId: number;
}
/** The client hung up (a watch cancelled, a client gone). */
export interface HttpCancelMsg {
  type: 'HttpCancel';
  reqId: number;
}

/**
 * An HTTP/2 PING frame and its ACK (RFC 7540 §6.7): the server's transport
 * answers it whatever its handlers are doing; clients use it to tell a dead
 * connection from a quiet one (and, on a fresh connection, as its handshake).
 */
export interface HttpPingMsg {
  type: 'HttpPing';
  seq: number;
  /** The handshake of a new connection (a SYN): not data on a stream, so the kernel does not hold it; the dialer resends it. */
  syn?: true;
}
export interface HttpPongMsg {
  type: 'HttpPong';
  seq: number;
  syn?: true;
}

export type HttpToServer = HttpRequestMsg | HttpDataMsg | HttpCancelMsg | HttpPingMsg;
export type HttpToClient = HttpResponseMsg | HttpChunkMsg | HttpEndMsg;

export function queryValue(q: ApiRequest['query'], name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** The Warning header for these texts: `299 - "text"` (RFC 7234), one per line here. */
export function warningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length ? { warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join('\n') } : {};
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  const text = JSON.stringify(body);
  noteAnswered(body, text);
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: text };
}

/**
 * The objects lately answered that carry a uid and resourceVersion, with their
 * JSON. A write's watch event carries the object its answer carried, member
 * for member (the same values, shared, not copied), and kube-apiserver encodes
 * an object once: the watch hub takes the answer's text when the event's
 * object encodes alike (see encodedAnswer). A ring searched newest first: the
 * event follows its answer closely.
 */
const ANSWERED = 32;
const answeredObjs: (Record<string, unknown> | null)[] = new Array<Record<string, unknown> | null>(ANSWERED).fill(null);
const answeredTexts: string[] = new Array<string>(ANSWERED).fill('');
let answeredNext = 0;

function noteAnswered(body: unknown, text: string): void {
  const meta = (body as { metadata?: { uid?: unknown; resourceVersion?: unknown } } | null)?.metadata;
  if (typeof meta?.uid !== 'string' || typeof meta.resourceVersion !== 'string') return;
  answeredObjs[answeredNext] = body as Record<string, unknown>;
  answeredTexts[answeredNext] = text;
  answeredNext = (answeredNext + 1) % ANSWERED;
}

/**
 * JSON.stringify(o), when an answer lately carried an object that encodes
 * alike: the same keys in the same order, each value the same (===), metadata
 * compared the same way one level down. Shared values are read-only (the
 * watch cache's objects and what they share with the write's answer), so the
 * same value has the same encoding; under the read-only checks that is verified.
 */
export function encodedAnswer(o: { metadata: { uid?: string; resourceVersion?: string } }): string | undefined {
  const { uid, resourceVersion } = o.metadata;
  if (uid === undefined || resourceVersion === undefined) return undefined;
  for (let k = 1; k <= ANSWERED; k++) {
    const i = (answeredNext - k + ANSWERED) % ANSWERED;
    const a = answeredObjs[i];
    if (!a) return undefined;
    const meta = a.metadata as { uid: string; resourceVersion: string };
    if (meta.resourceVersion !== resourceVersion || meta.uid !== uid) continue;
    if (!sameMembers(a, o as Record<string, unknown>, true)) continue;
    const text = answeredTexts[i]!;
    if (readonlyChecks() && JSON.stringify(o) !== text) throw new Error(`answered object changed since it was encoded: ${text.slice(0, 200)}`);
    return text;
  }
  return undefined;
}

function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>, top: boolean): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i]) return false;
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (!(top && k === 'metadata' && typeof x === 'object' && x !== null && typeof y === 'object' && y !== null && !Array.isArray(x) && !Array.isArray(y))) return false;
    if (!sameMembers(x as Record<string, unknown>, y as Record<string, unknown>, false)) return false;
  }
  return true;
}

export const httpMsg = {
  request: (reqId: number, request: ApiRequest): HttpRequestMsg => ({ type: 'HttpRequest', reqId, request }),
  response: (reqId: number, response: ApiResponse, streaming = false): HttpResponseMsg => (streaming ? { type: 'HttpResponse', reqId, response, streaming } : { type: 'HttpResponse', reqId, response }),
  chunk: (reqId: number, chunk: string): HttpChunkMsg => ({ type: 'HttpChunk', reqId, chunk }),
  data: (reqId: number, chunk: string): HttpDataMsg => ({ type: 'HttpData', reqId, chunk }),
  end: (reqId: number): HttpEndMsg => ({ type: 'HttpEnd', reqId }),
  cancel: (reqId: number): HttpCancelMsg => ({ type: 'HttpCancel', reqId }),
  ping: (seq: number, syn?: boolean): HttpPingMsg => (syn ? { type: 'HttpPing', seq, syn: true } : { type: 'HttpPing', seq }),
  /** The ACK of a PING (of a SYN, itself a handshake answer). */
  pong: (ping: HttpPingMsg): HttpPongMsg => (ping.syn ? { type: 'HttpPong', seq: ping.seq, syn: true } : { type: 'HttpPong', seq: ping.seq }),
};
