// HTTP between API clients and kube-apiserver on the simulated network. A
// request is one message; an answer is one message, or, for watches and
// streamed logs, a head followed by chunks (one JSON watch event per chunk,
// as the real server writes them) and an end.
import type { ApiRequest, ApiResponse } from '../types';

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
}
export interface HttpPongMsg {
  type: 'HttpPong';
  seq: number;
}

export type HttpToServer = HttpRequestMsg | HttpCancelMsg | HttpPingMsg;
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
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export const httpMsg = {
  request: (reqId: number, request: ApiRequest): HttpRequestMsg => ({ type: 'HttpRequest', reqId, request }),
  response: (reqId: number, response: ApiResponse, streaming = false): HttpResponseMsg => (streaming ? { type: 'HttpResponse', reqId, response, streaming } : { type: 'HttpResponse', reqId, response }),
  chunk: (reqId: number, chunk: string): HttpChunkMsg => ({ type: 'HttpChunk', reqId, chunk }),
  end: (reqId: number): HttpEndMsg => ({ type: 'HttpEnd', reqId }),
  cancel: (reqId: number): HttpCancelMsg => ({ type: 'HttpCancel', reqId }),
  ping: (seq: number): HttpPingMsg => ({ type: 'HttpPing', seq }),
  pong: (seq: number): HttpPongMsg => ({ type: 'HttpPong', seq }),
};
