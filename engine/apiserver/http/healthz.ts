// The secure port's health endpoints of kube-controller-manager and
// kube-scheduler (10257 and 10259): /healthz, /livez and /readyz are always
// allowed without authentication (--authorization-always-allow-paths) and say
// "ok" while the process runs; a stopped one refuses the connection. This is
// what GET componentstatuses probes.
import type { ActorId, Payload } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { httpMsg, type HttpRequestMsg } from './messages';

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);

/** Answers an HTTP request for a component's health endpoints; false when the payload is not a request. */
export function serveComponentHealth(ctx: ActorContext, from: ActorId, p: Payload): boolean {
  if (p.type !== 'HttpRequest') return false;
  const m = p as unknown as HttpRequestMsg;
  const path = m.request.path.replace(/\/+$/, '');
  const found = m.request.method === 'GET' && HEALTH_PATHS.has(path);
  ctx.send(from, httpMsg.response(m.reqId, { status: found ? 200 : 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: found ? 'ok' : '404 page not found\n' }));
  return true;
}
