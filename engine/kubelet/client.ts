// The kubelet's requests to kube-apiserver, as system:node:<name> with its
// client certificate: each remembers what it was for, so the answer goes back
// to the part of the kubelet that asked.
import type { ActorContext } from '../sim/kernel';
import type { ApiRequest } from '../apiserver/types';
import { httpMsg } from '../apiserver/http/messages';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import { KUBELET_VERSION } from './config';
import type { Kubelet } from './kubelet';

/** What a request in flight was for. */
export type Purpose =
  | { kind: 'list' | 'watch' }
  | { kind: 'register' }
  | { kind: 'nodeStatus'; body: string }
  | { kind: 'leaseGet' | 'leaseWrite' }
  | { kind: 'podStatus'; uid: string; body: string }
  | { kind: 'podDelete'; uid: string }
  | { kind: 'event' };

export function apiRequest(k: Kubelet, ctx: ActorContext, req: Omit<ApiRequest, 'headers'>, purpose: Purpose, contentType?: string): number {
  const reqId = k.nextReq++;
  k.requests.set(reqId, purpose);
  const full: ApiRequest = {
    ...req,
    headers: {
      [CLIENT_CERT_HEADER]: `CN=system:node:${k.nodeName},O=system:nodes`,
      accept: 'application/json',
      'user-agent': `kubelet/${KUBELET_VERSION} (linux/amd64) kubernetes/70d3cc9`,
      ...(req.body !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
    },
  };
  ctx.send(k.config.server, httpMsg.request(reqId, full));
  return reqId;
}
