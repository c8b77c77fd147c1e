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
  // The path's non-empty segments, each %-decoded; read through an offset rather than sliced.
  // Cut out between slashes (a split makes the empty ones too), decoded only when the path has an escape.
  const all: string[] = [];
  const escaped = path.includes('%');
  for (let i = 0, j = 0; i < path.length; i = j + 1) {
    j = path.indexOf('/', i);
    if (j < 0) j = path.length;
    if (j > i) all.push(escaped ? safeDecode(path.slice(i, j)) : path.slice(i, j));
  }
  const methodVerb = METHOD_VERB[req.method] ?? req.method.toLowerCase();
  if (all.length < 2 || (all[0] !== 'api' && all[0] !== 'apis')) return { isResourceRequest: false, path, verb: methodVerb };
  const apiPrefix = all[0] as 'api' | 'apis';
  let at = 1;
  let apiGroup = '';
  if (apiPrefix === 'apis') {
    if (all.length - at < 2) return { isResourceRequest: false, path, verb: methodVerb }; // /apis/apps: group discovery
    apiGroup = all[at++]!;
  }
  const apiVersion = all[at++]!;
  if (all.length === at) return { isResourceRequest: false, path, verb: methodVerb }; // /api/v1: resource discovery
  let verb = methodVerb;
  // The deprecated /watch/ prefix.
  if (all[at] === 'watch') {
    verb = 'watch';
    at++;
  }
  let namespace = '';
  if (all[at] === 'namespaces') {
    if (all.length - at > 1) {
      namespace = all[at + 1]!;
      if (all.length - at > 2 && !NAMESPACE_SUBRESOURCES.has(all[at + 2]!)) at += 2;
    }
  }
  const parts = at === 0 ? all : all.slice(at);
  const resource = parts[0] ?? '';
  const name = parts.length >= 2 ? parts[1]! : '';
  const subresource = parts.length >= 3 ? parts[2]! : '';
  // A namespace is its own name: /api/v1/namespaces/foo names namespace foo.
  if (resource === 'namespaces' && parts.length >= 2) namespace = '';
  if (parts[0] === 'namespaces' && parts.length >= 2) namespace = parts[1]!;
  if (verb === 'get' && name === '') verb = 'list';
  if (verb === 'delete' && name === '') verb = 'deletecollection';
  if (verb === 'list' || verb === 'get') {
    const w = queryValue(req.query, 'watch');
    if (w === 'true' || w === '1') verb = 'watch';
  }
  return { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts };
}
