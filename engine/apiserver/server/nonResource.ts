// Paths that are not resources: version, health, discovery, OpenAPI.
import type { ApiRequest, ApiResponse } from '../types';
import { jsonResponse } from '../http/messages';
import type { ApiServer } from './apiserver';
import { notFoundPage } from './apiserver';
import { AGGREGATED_DISCOVERY_CONTENT_TYPE, aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions, SERVER_VERSION, wantsAggregatedDiscovery } from './discovery';
import { openApiResponse } from './chain';
import { healthResponse } from './health';

function text(status: number, body: string): ApiResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}

export function handleNonResource(req: ApiRequest, s: ApiServer): ApiResponse {
  const path = req.path.replace(/\/+$/, '') || '/';
  if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'Method Not Allowed');
  const health = healthResponse(path, req, { bootstrapped: s.bootstrapped, cachesSynced: s.ready, etcdOk: s.etcdLastOk >= 0 && s.etcdLastOk >= s.etcdLastFail });
  if (health) return health;
  switch (path) {
    case '/version':
      return jsonResponse(200, SERVER_VERSION);
    case '/api':
    case '/apis':
      // Aggregated discovery when the client asks for it (kubectl, client-go), legacy otherwise.
      if (wantsAggregatedDiscovery(req.headers['accept'])) return jsonResponse(200, aggregatedDiscovery(path === '/api', s.aggregator.available()), { 'content-type': AGGREGATED_DISCOVERY_CONTENT_TYPE });
      return path === '/api' ? jsonResponse(200, apiVersions(s.config.serverAddress)) : jsonResponse(200, apiGroupList(s.aggregator.available()));
  }
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length === 2) {
    const doc = apiResourceList('', parts[1]!);
    return doc ? jsonResponse(200, doc) : notFoundPage();
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    // A group of an available APIService is described by the aggregator.
    const doc = apiGroup(parts[1]!) ?? s.aggregator.groupDocument(parts[1]!);
    return doc ? jsonResponse(200, doc) : notFoundPage();
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const doc = apiResourceList(parts[1]!, parts[2]!);
    return doc ? jsonResponse(200, doc) : notFoundPage();
  }
  if (parts[0] === 'openapi') {
    const res = openApiResponse(path, req);
    if (res) return res;
  }
  return text(404, '404 page not found\n');
}
