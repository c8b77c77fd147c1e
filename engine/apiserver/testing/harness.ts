// Test helpers: an engine with the control plane, and synchronous-looking API
// calls that run the simulation until the answer arrives.
import { Engine } from '../../facade/engine';
import type { ApiRequest, ApiResponse } from '../types';
import { ADMIN_TOKEN } from '../server/scenario';

/**
 * A control plane, ready. Without the DNS add-on unless asked for (`clusterDns: true`): its two
 * pods would take the first pod IPs and a share of the nodes in every scenario that counts them.
 */
export function controlPlane(seed = 1, extra: Partial<Parameters<typeof Engine.create>[0]> = {}): Engine {
  const e = Engine.create({ seed, etcdMembers: 3, controlPlane: true, clusterDns: false, ...extra });
  for (let i = 0; i < 200 && !e.apiReady(); i++) e.advance(100);
  if (!e.apiReady()) throw new Error('the API server did not become ready');
  // kube-controller-manager gives each namespace its default ServiceAccount (pods need it).
  for (let i = 0; i < 100 && call(e, 'GET', '/api/v1/namespaces/default/serviceaccounts/default').status !== 200; i++) e.advance(100);
  return e;
}

export interface Call {
  status: number;
  body: any;
  text: string;
  headers: Record<string, string>;
}

export function call(e: Engine, method: ApiRequest['method'], path: string, body?: unknown, opts: { token?: string | null; query?: Record<string, string>; headers?: Record<string, string> } = {}): Call {
  const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? ADMIN_TOKEN : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const request: ApiRequest = { method, path, query: opts.query ?? {}, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) };
  const r = e.exec({ type: 'api', request });
  if (!r.ok) throw new Error(r.error);
  const id = r.result as number;
  for (let i = 0; i < 10_000; i++) {
    const c = e.apiCall(id);
    if (c?.error) throw new Error(`call failed: ${c.error}`);
    if (c?.response) return toCall(c.response);
    e.advance(1);
  }
  throw new Error('no answer');
}

function toCall(res: ApiResponse): Call {
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text: res.body, headers: res.headers };
}

/** Starts a watch; returns a reader of the events received so far. */
export function watch(e: Engine, path: string, query: Record<string, string> = {}, token: string = ADMIN_TOKEN) {
  const r = e.exec({ type: 'api', request: { method: 'GET', path, query: { watch: 'true', ...query }, headers: { authorization: `Bearer ${token}` } } });
  if (!r.ok) throw new Error(r.error);
  const id = r.result as number;
  const events: { type: string; object: any }[] = [];
  return {
    id,
    events,
    read(): typeof events {
      const { lines } = e.apiDrain(id);
      for (const l of lines) events.push(JSON.parse(l));
      return events;
    },
    ended(): boolean {
      return e.apiCall(id)?.ended ?? true;
    },
  };
}
