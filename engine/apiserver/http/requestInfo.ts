// What a URL asks for, as k8s.io/apiserver/pkg/endpoints/request/requestinfo.go
// reads it: API prefix, group, version, namespace, resource, name, subresource
// and the verb (get/list/watch/create/update/patch/delete/deletecollection).
import type { ApiRequest } from '../types';
import { queryValue } from './messages';

export interface ResourceRequestInfo {
  isResourceRequest: true;
  path: string;
  verb: string;
  apiPrefix: 'api' | 'apis';
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
}
export interface NonResourceRequestInfo {
  isResourceRequest: false;
  path: string;
  verb: string;
}
export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

/** A path segment's %-escapes decoded; a malformed escape is kept as written (Go's mux does not decode it either). */
function safeDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const METHOD_VERB: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

export function requestInfo(req: ApiRequest): RequestInfo {
  const path = req.path;
  const nonResource = (): NonResourceRequestInfo => ({ isResourceRequest: false, path, verb: (METHOD_VERB[req.method] ?? req.method.toLowerCase()) });
  let parts = path.replace(/^\/+|\/+$/g, '').split('/').filter((p) => p !== '').map(safeDecode);
  if (parts.length < 2 || (parts[0] !== 'api' && parts[0] !== 'apis')) return nonResource();
  const apiPrefix = parts[0] as 'api' | 'apis';
  parts = parts.slice(1);
  let apiGroup = '';
  if (apiPrefix === 'apis') {
    if (parts.length < 2) return nonResource(); // /apis/apps: group discovery
    apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  const apiVersion = parts[0]!;
  parts = parts.slice(1);
  if (parts.length === 0) return nonResource(); // /api/v1: resource discovery
  let verb = METHOD_VERB[req.method] ?? req.method.toLowerCase();
  // The deprecated /watch/ prefix.
  if (parts[0] === 'watch') {
    verb = 'watch';
    parts = parts.slice(1);
  }
  let namespace = '';
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1]!;
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
    }
  }
  const resource = parts[0] ?? '';
  const name = parts.length >= 2 ? parts[1]! : '';
  const subresource = parts.length >= 3 ? parts[2]! : '';
  // A namespace is its own name: /api/v1/namespaces/foo names namespace foo.
  if (resource === 'namespaces' && parts.length >= 2) namespace = '';
  if (parts[0] === 'namespaces' && parts.length >= 2) namespace = parts[1]!;
  if (verb === 'get' && name === '') verb = 'list';
  if (verb === 'delete' && name === '') verb = 'deletecollection';
  const w = queryValue(req.query, 'watch');
  if ((verb === 'list' || verb === 'get') && (w === 'true' || w === '1')) verb = 'watch';
  return { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts };
}
