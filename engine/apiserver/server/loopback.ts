// kube-apiserver's loopback client: what the server asks of itself (the
// kubernetes Service's endpoints, its identity Lease) goes through its own
// handler chain as system:apiserver (group system:masters), with the server's
// user agent, so kube-apiserver is the field manager and the requests are in
// the records like any other. The answers take no network (ApiServer.finish).
import { CLIENT_CERT_HEADER } from '../auth/authn';
import type { ActorContext } from '../../sim/kernel';
import type { ApiRequest } from '../types';

/** Who in the server made a loopback request (its answer goes back there). */
export type LoopbackOwner = 'endpoints' | 'identity';

/** The server as its loopback users see it: a request answered to the owner's `onResponse`; returns its id. */
export interface LoopbackHost {
  loopback(ctx: ActorContext, owner: LoopbackOwner, req: ApiRequest): number;
}

const LOOPBACK_HEADERS: Readonly<Record<string, string>> = {
  [CLIENT_CERT_HEADER]: 'CN=system:apiserver,O=system:masters',
  accept: 'application/json',
  'user-agent': 'kube-apiserver/v1.32.0 (linux/amd64) kubernetes/70d3cc9',
};

export function loopbackRequest(method: ApiRequest['method'], path: string, body?: unknown, query: Record<string, string> = {}): ApiRequest {
  if (body === undefined) return { method, path, query, headers: { ...LOOPBACK_HEADERS } };
  return { method, path, query, headers: { ...LOOPBACK_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
