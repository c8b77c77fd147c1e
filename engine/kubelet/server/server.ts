// The kubelet's HTTPS server on port 10250 (pkg/kubelet/server/server.go),
// reached over the simulated network at the node's actor id: requests are
// HttpRequest messages like the API server's. Authentication and
// authorization of callers (the kubelet's webhook authorizer) are not
// simulated.
import type { ApiRequest, ApiResponse } from '../../apiserver/types';
import type { UsageMeter } from '../runtime/meter';
import { PROMETHEUS_TEXT } from './prometheus';
import { resourceMetricsText } from './resourceMetrics';

/** What the server reads from its kubelet. */
export interface KubeletServerSource {
  readonly meter: UsageMeter;
}

const text = (status: number, body: string, contentType = 'text/plain; charset=utf-8'): ApiResponse => ({ status, headers: { 'content-type': contentType }, body });

export function serveKubelet(k: KubeletServerSource, req: ApiRequest, now: number): ApiResponse {
  const path = req.path.replace(/\/+$/, '') || '/';
  if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'Method Not Allowed\n');
  switch (path) {
    case '/healthz':
      return text(200, 'ok');
    case '/metrics/resource':
      return text(200, resourceMetricsText(k.meter, now), PROMETHEUS_TEXT);
    default:
      return text(404, '404 page not found\n');
  }
}
