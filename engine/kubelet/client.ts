// The kubelet's requests to kube-apiserver, as system:node:<name> with its
// client certificate: each remembers what it was for, so the answer goes back
// to the part of the kubelet that asked.
//
// The kubelet builds three clients on one dialer (cmd/kubelet/app/server.go):
// the main one (kubeAPIQPS 50, kubeAPIBurst 100), the event client
// (eventRecordQPS 50, eventBurst 100) and the heartbeat client for node status
// and the node Lease: unthrottled, with a request timeout of
// min(nodeStatusUpdateFrequency, nodeLeaseDurationSeconds) = 10 s. They share
// the kubelet's connection (Transport): a heartbeat that fails again closes it
// (OnHeartbeatFailure = closeAllConns).
import type { EventWrite } from './events';
import type { ActorContext } from '../sim/kernel';
import type { ApiRequest } from '../apiserver/types';
import { httpMsg } from '../apiserver/http/messages';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';
import type { RateLimit } from '../client/transport';
import { KUBELET_VERSION, LEASE_DURATION_S, NODE_STATUS_UPDATE_MS } from './config';
import type { Kubelet } from './kubelet';

/** What a request in flight was for. */
export type Purpose =
  | { kind: 'list' | 'watch' | 'nodeList' | 'nodeWatch' | 'svcList' | 'svcWatch' }
  | { kind: 'object'; key: string }
  | { kind: 'register' }
  /** kubeadm join's wait for the control plane (join.ts). */
  | { kind: 'join' }
  | { kind: 'nodeStatus'; attempt: number }
  | { kind: 'nodeStatusGet'; attempt: number }
  | { kind: 'leaseGet' }
  | { kind: 'leaseNode'; then: 'create' | 'renew'; attempt: number }
  | { kind: 'leaseWrite'; attempt: number }
  | { kind: 'podStatus'; uid: string; body: string }
  | { kind: 'podDelete'; uid: string }
  /** A write of an Event (events.ts): a new one, or a count bump of the one the correlator remembers. */
  | { kind: 'event'; write: EventWrite };

/** The kubelet's clients' rate limits (v1beta1 defaults). */
export const KUBELET_RATE_LIMITS: Record<string, RateLimit> = {
  main: { qps: 50, burst: 100 },
  events: { qps: 50, burst: 100 },
};

/** The heartbeat client's timeout. */
export const HEARTBEAT_TIMEOUT_MS = Math.min(NODE_STATUS_UPDATE_MS, LEASE_DURATION_S * 1000);

const HEARTBEAT: ReadonlySet<Purpose['kind']> = new Set(['nodeStatus', 'nodeStatusGet', 'leaseGet', 'leaseNode', 'leaseWrite']);

export function isHeartbeat(p: Purpose): boolean {
  return HEARTBEAT.has(p.kind);
}

/** The rate limiter a request waits on: none for heartbeats and for watches (client-go never throttles a watch). */
function clientOf(p: Purpose): string | undefined {
  if (isHeartbeat(p) || p.kind === 'watch' || p.kind === 'nodeWatch' || p.kind === 'svcWatch') return undefined;
  return p.kind === 'event' ? 'events' : 'main';
}

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
  const heartbeat = isHeartbeat(purpose);
  k.transport.send(ctx, httpMsg.request(reqId, full), clientOf(purpose));
  if (heartbeat) ctx.setTimer(HEARTBEAT_TIMEOUT_MS, 'requestTimeout', reqId);
  return reqId;
}
