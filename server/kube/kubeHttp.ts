// The Kubernetes API over real HTTP: requests to /api, /apis, /version,
// /openapi and the health endpoints become API calls inside the simulation
// (from kubectl-0 to kube-apiserver-0) and their answers, streamed for
// watches, go back to the real client (kubectl, client-go, curl).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest } from '../../engine/apiserver/types';
import { CLIENT_CERT_HEADER } from '../../engine/apiserver/auth/authn';
import { readBodyBytes, BodyTooLarge } from '../httpUtil';
import type { ApiCalls } from './apiCalls';

const KUBE_PREFIXES = ['/api', '/apis', '/version', '/openapi', '/healthz', '/livez', '/readyz'];

export function isKubePath(path: string): boolean {
  return KUBE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

export async function serveKube(calls: ApiCalls, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  let raw: Buffer;
  try {
    raw = await readBodyBytes(req, 4 * 1024 * 1024);
  } catch (e) {
    const status = e instanceof BodyTooLarge ? 413 : 400;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: String((e as Error).message), reason: status === 413 ? 'RequestEntityTooLarge' : 'BadRequest', code: status }));
    return;
  }
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  // Client certificates exist only inside the simulation: a real client cannot claim one.
  delete headers[CLIENT_CERT_HEADER];
  // Protobuf bodies (typed clients) travel as base64 text inside the simulation.
  const binary = (headers['content-type'] ?? '').includes('protobuf');
  const request: ApiRequest = { method: (req.method ?? 'GET') as ApiRequest['method'], path: url.pathname, query, headers };
  if (raw.length > 0) {
    request.body = binary ? raw.toString('base64') : raw.toString('utf8');
    if (binary) request.binaryBody = true;
  }
  const out = await calls.request(request);
  if (!out.ok) {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `the simulated API server did not answer: ${out.error}`, reason: 'ServiceUnavailable', code: 503 }));
    return;
  }
  const { response } = out;
  const hdrs: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(response.headers)) {
    // Several warnings travel as one header per warning.
    hdrs[k] = k === 'warning' ? v.split('\n') : v;
  }
  if (!out.streaming) {
    res.writeHead(response.status, hdrs);
    res.end(req.method === 'HEAD' ? undefined : response.binary ? Buffer.from(response.body, 'base64') : response.body);
    return;
  }
  delete hdrs['transfer-encoding'];
  res.writeHead(response.status, hdrs);
  res.flushHeaders();
  const stop = calls.follow(
    out.id,
    (line) => res.write(line),
    () => res.end(),
  );
  res.on('close', stop);
}
