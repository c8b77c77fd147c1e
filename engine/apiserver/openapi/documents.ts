// The OpenAPI documents the API server publishes
// (staging/src/k8s.io/kube-openapi/pkg/handler3, the v3 spec the route
// installer builds in staging/src/k8s.io/apiserver/pkg/endpoints/installer.go):
//  - /openapi/v3: `{"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}}}`
//  - /openapi/v3/api/v1, /openapi/v3/apis/<group>/<version>: one document per
//    group-version with every served resource's paths and the schemas they use.
// kubectl reads them for `explain` (it finds the kind from the GVK of a path's
// operation), for client-side apply (the x-kubernetes-patch-* extensions of the
// kind's schema) and to learn that the server takes `fieldValidation` (it looks
// for that parameter on the kind's PATCH operations).
// Operations, parameters and their texts come from client-node's copy of the
// v1.32 spec where it has the path; the deprecated watch paths, and
// subresources newer than the package, are built the way installer.go builds them.
import { RESOURCES, type ResourceInfo, type SubresourceInfo, type Verb } from '../registry/resources';
import { documentHash } from './hash';
import { encodeOpenApiV2, swaggerFromDocuments, type JsonObj } from './v2';
import {
  API_RESOURCE_LIST,
  DELETE_OPTIONS,
  definitionForKind,
  definitions,
  GENERATED_FINGERPRINT,
  generatedOperation,
  parameterText,
  PATCH,
  REF_PREFIX,
  refName,
  STATUS,
  WATCH_EVENT,
  type GenOp,
  type OpenApiSchema,
  type ParamType,
} from './spec';

export interface GroupVersion {
  group: string;
  version: string;
}

export interface Parameter {
  description?: string;
  in: 'path' | 'query';
  name: string;
  required?: boolean;
  schema: { type: ParamType; uniqueItems: true };
}

export interface MediaContent {
  [contentType: string]: { schema: OpenApiSchema | { type: 'string' } };
}

export interface Operation {
  description: string;
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: MediaContent; required?: true };
  responses: Record<string, { content?: MediaContent; description: string }>;
  tags: string[];
  'x-kubernetes-action'?: Action;
  'x-kubernetes-group-version-kind'?: { group: string; kind: string; version: string };
}

export type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';
export type PathItem = { parameters?: Parameter[] } & Partial<Record<Method, Operation>>;

export interface OpenApiV3Document {
  components: { schemas: Record<string, OpenApiSchema>; securitySchemes: Record<string, unknown> };
  info: { title: string; version: string };
  openapi: '3.0.0';
  paths: Record<string, PathItem>;
}

/** installer.go's action names. */
export type Action = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection' | 'watch' | 'watchlist' | 'connect';

const OBJECT_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const LIST_TYPES = [...OBJECT_TYPES, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const WATCH_TYPES = LIST_TYPES;
const LOG_TYPES = ['text/plain', ...OBJECT_TYPES];
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor'];

const ref = (def: string): OpenApiSchema => ({ $ref: `${REF_PREFIX}${def}` });

function content(types: readonly string[], schema: OpenApiSchema | { type: 'string' }): MediaContent {
  const out: MediaContent = {};
  for (const t of [...types].sort()) out[t] = { schema };
  return out;
}

/** `rbac.authorization.k8s.io` → `RbacAuthorization` (operationIds), `core` for the legacy group. */
function groupWord(group: string): string {
  const g = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
  return g
    .split('.')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function gvWord(gv: GroupVersion): string {
  return `${groupWord(gv.group)}${upperFirst(gv.version)}`;
}
function tag(gv: GroupVersion): string {
  return `${lowerFirst(groupWord(gv.group))}_${gv.version}`;
}

export function groupVersionPath(gv: GroupVersion): string {
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}

/** What one path+method serves. */
interface OpSpec {
  path: string;
  method: Method;
  action: Action;
  gvk: { group: string; kind: string; version: string };
  /** Kind word in synthesized operationIds and descriptions. */
  kind: string;
  namespaced: boolean;
  /** Subresource name in operationIds (`Status`, `Scale`), or a suffix (`List`, `ListForAllNamespaces`). */
  suffix: string;
  /** Definition of the request body (post/put), if any. */
  body?: string;
  /** Definition of the 200 result, or `string`. */
  result: string;
  /** Where to borrow parameters from when client-node lacks the path (sibling path, method). */
  paramsFrom?: { path: string; method: Method }[];
  /** Extra parameters a synthesized op needs (path params of watch paths). */
  pathParams: string[];
  subresource?: string;
}

function verbWord(action: Action, method: Method): string {
  switch (action) {
    case 'get':
      return 'read';
    case 'list':
      return 'list';
    case 'post':
      return 'create';
    case 'put':
      return 'replace';
    case 'patch':
      return 'patch';
    case 'delete':
      return 'delete';
    case 'deletecollection':
      return 'delete';
    case 'watch':
    case 'watchlist':
      return 'watch';
    case 'connect':
      return `connect${upperFirst(method)}`;
  }
}

/** installer.go's operation descriptions. */
function describe(s: OpSpec): string {
  const sub = s.subresource;
  switch (s.action) {
    case 'get':
      return sub ? `read ${sub} of the specified ${s.kind}` : `read the specified ${s.kind}`;
    case 'list':
      return `list or watch objects of kind ${s.kind}`;
    case 'post':
      return sub ? `create ${sub} of a ${s.kind}` : `create a ${s.kind}`;
    case 'put':
      return sub ? `replace ${sub} of the specified ${s.kind}` : `replace the specified ${s.kind}`;
    case 'patch':
      return sub ? `partially update ${sub} of the specified ${s.kind}` : `partially update the specified ${s.kind}`;
    case 'delete':
      return `delete a ${s.kind}`;
    case 'deletecollection':
      return `delete collection of ${s.kind}`;
    case 'watch':
      return `watch changes to an object of kind ${s.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`;
    case 'watchlist':
      return `watch individual changes to a list of ${s.kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
    case 'connect':
      return `connect ${s.method.toUpperCase()} requests to ${sub ?? ''} of ${s.kind}`;
  }
}

function synthesizedId(s: OpSpec, gv: GroupVersion): string {
  const ns = s.namespaced ? 'Namespaced' : '';
  if (s.action === 'connect') return `connect${gvWord(gv)}${upperFirst(s.method)}${ns}${s.kind}${s.suffix}`;
  const collection = s.action === 'deletecollection' ? 'Collection' : '';
  return `${verbWord(s.action, s.method)}${gvWord(gv)}${collection}${ns}${s.kind}${s.suffix}`;
}

function parametersOf(op: GenOp): Parameter[] {
  return op.parameters.map(([name, where, type, required, text]) => {
    const description = parameterText(text);
    return {
      ...(description !== undefined ? { description } : {}),
      in: where,
      name,
      ...(required ? { required: true } : {}),
      schema: { type, uniqueItems: true },
    };
  });
}

function pathParam(name: string, kind: string): Parameter {
  const description = name === 'namespace' ? 'object name and auth scope, such as for teams and projects' : `name of the ${kind}`;
  return { description, in: 'path', name, required: true, schema: { type: 'string', uniqueItems: true } };
}

/** Builds one operation object; client-node's copy of the spec supplies what it knows. */
function buildOperation(s: OpSpec, gv: GroupVersion): { op: Operation; params: Parameter[] } {
  const gen = generatedOperation(s.path, s.method);
  let params: Parameter[];
  if (gen) params = parametersOf(gen);
  else {
    const donor = s.paramsFrom?.map((p) => generatedOperation(p.path, p.method)).find((g) => g !== undefined);
    params = donor ? parametersOf(donor).filter((p) => p.in === 'query') : [];
    const have = new Set(params.map((p) => p.name));
    for (const p of s.pathParams) if (!have.has(p)) params.push(pathParam(p, s.kind));
    params.sort((a, b) => a.name.localeCompare(b.name));
  }
  const result = gen?.returns ?? s.result;
  const resultSchema = result === 'string' ? { type: 'string' as const } : ref(result);
  const responses: Operation['responses'] = {};
  const ok = (types: readonly string[]) => ({ content: content(types, resultSchema), description: 'OK' });
  switch (s.action) {
    case 'get':
      responses['200'] = ok(s.subresource === 'log' ? LOG_TYPES : OBJECT_TYPES);
      break;
    case 'list':
      responses['200'] = ok(LIST_TYPES);
      break;
    case 'watch':
    case 'watchlist':
      responses['200'] = ok(WATCH_TYPES);
      break;
    case 'post':
      responses['200'] = ok(OBJECT_TYPES);
      responses['201'] = { content: content(OBJECT_TYPES, resultSchema), description: 'Created' };
      responses['202'] = { content: content(OBJECT_TYPES, resultSchema), description: 'Accepted' };
      break;
    case 'put':
    case 'patch':
      responses['200'] = ok(OBJECT_TYPES);
      responses['201'] = { content: content(OBJECT_TYPES, resultSchema), description: 'Created' };
      break;
    case 'delete':
      responses['200'] = ok(OBJECT_TYPES);
      responses['202'] = { content: content(OBJECT_TYPES, resultSchema), description: 'Accepted' };
      break;
    case 'deletecollection':
      responses['200'] = ok(OBJECT_TYPES);
      break;
    case 'connect':
      responses['200'] = { content: content(['*/*'], { type: 'string' }), description: 'OK' };
      break;
  }
  responses['401'] = { description: 'Unauthorized' };
  let requestBody: Operation['requestBody'];
  if (s.action === 'post' || s.action === 'put') {
    const body = gen?.body ?? s.body;
    if (body) requestBody = { content: content(['*/*'], ref(body)), required: true };
  } else if (s.action === 'patch') {
    requestBody = { content: content(gen?.consumes ?? PATCH_TYPES, ref(PATCH)), required: true };
  } else if (s.action === 'delete' || s.action === 'deletecollection') {
    requestBody = { content: content(['*/*'], ref(DELETE_OPTIONS)) };
  }
  const op: Operation = {
    description: gen?.description ?? describe(s),
    operationId: gen?.operationId ?? synthesizedId(s, gv),
    ...(requestBody ? { requestBody } : {}),
    responses,
    tags: [tag(gv)],
    'x-kubernetes-action': s.action,
    'x-kubernetes-group-version-kind': s.gvk,
  };
  return { op, params };
}

/** Which path+method pairs a resource serves, from its verbs and subresources. */
function operationsOf(r: ResourceInfo): OpSpec[] {
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const nsPart = r.namespaced ? '/namespaces/{namespace}' : '';
  const collection = `${prefix}${nsPart}/${r.resource}`;
  const item = `${collection}/{name}`;
  const gvk = { group: r.group, kind: r.kind, version: r.version };
  const kindDef = definitionForKind(r.group, r.version, r.kind) ?? STATUS;
  const listDef = definitionForKind(r.group, r.version, r.listKind) ?? STATUS;
  const has = (v: Verb) => r.verbs.includes(v);
  const nsParams = r.namespaced ? ['namespace'] : [];
  const base = { gvk, kind: r.kind, namespaced: r.namespaced, suffix: '' };
  const out: OpSpec[] = [];
  if (has('list')) out.push({ ...base, path: collection, method: 'get', action: 'list', result: listDef, pathParams: nsParams });
  if (has('create')) out.push({ ...base, path: collection, method: 'post', action: 'post', body: kindDef, result: kindDef, pathParams: nsParams });
  if (has('deletecollection')) out.push({ ...base, path: collection, method: 'delete', action: 'deletecollection', result: STATUS, pathParams: nsParams });
  const itemParams = [...nsParams, 'name'];
  if (has('get')) out.push({ ...base, path: item, method: 'get', action: 'get', result: kindDef, pathParams: itemParams });
  if (has('update')) out.push({ ...base, path: item, method: 'put', action: 'put', body: kindDef, result: kindDef, pathParams: itemParams });
  if (has('patch')) out.push({ ...base, path: item, method: 'patch', action: 'patch', result: kindDef, pathParams: itemParams });
  if (has('delete')) out.push({ ...base, path: item, method: 'delete', action: 'delete', result: STATUS, pathParams: itemParams });
  if (r.namespaced && has('list')) {
    out.push({ ...base, namespaced: false, suffix: 'ForAllNamespaces', path: `${prefix}/${r.resource}`, method: 'get', action: 'list', result: listDef, pathParams: [] });
  }
  if (has('watch')) {
    const listFrom = [{ path: collection, method: 'get' as const }];
    out.push({ ...base, suffix: 'List', path: `${prefix}/watch${nsPart}/${r.resource}`, method: 'get', action: 'watchlist', result: WATCH_EVENT, paramsFrom: listFrom, pathParams: nsParams });
    out.push({ ...base, path: `${prefix}/watch${nsPart}/${r.resource}/{name}`, method: 'get', action: 'watch', result: WATCH_EVENT, paramsFrom: listFrom, pathParams: itemParams });
    if (r.namespaced) {
      out.push({ ...base, namespaced: false, suffix: 'ListForAllNamespaces', path: `${prefix}/watch/${r.resource}`, method: 'get', action: 'watchlist', result: WATCH_EVENT, paramsFrom: listFrom, pathParams: [] });
    }
  }
  for (const s of r.subresources) out.push(...subresourceOperations(r, s, item, itemParams));
  return out;
}

const VERB_METHOD: Partial<Record<Verb, { method: Method; action: Action }>> = {
  get: { method: 'get', action: 'get' },
  create: { method: 'post', action: 'post' },
  update: { method: 'put', action: 'put' },
  patch: { method: 'patch', action: 'patch' },
  delete: { method: 'delete', action: 'delete' },
};

function subresourceOperations(r: ResourceInfo, s: SubresourceInfo, item: string, itemParams: string[]): OpSpec[] {
  const group = s.group ?? r.group;
  const version = s.version ?? r.version;
  const def = definitionForKind(group, version, s.kind) ?? STATUS;
  const path = `${item}/${s.name}`;
  const suffix = upperFirst(s.name);
  const gvk = { group, kind: s.kind, version };
  const base = { gvk, kind: r.kind, namespaced: r.namespaced, suffix, subresource: s.name, pathParams: itemParams };
  const out: OpSpec[] = [];
  if (s.name === 'proxy') {
    // connect: every method, on /proxy and /proxy/{path}
    for (const method of ['delete', 'get', 'head', 'options', 'patch', 'post', 'put'] as const) {
      out.push({ ...base, path, method, action: 'connect', result: 'string' });
      out.push({ ...base, suffix: `${suffix}WithPath`, path: `${path}/{path}`, method, action: 'connect', result: 'string', pathParams: [...itemParams, 'path'] });
    }
    return out;
  }
  for (const verb of s.verbs) {
    const vm = VERB_METHOD[verb];
    if (!vm) continue;
    const result = s.name === 'log' ? 'string' : def;
    // Borrow query parameters from a sibling that client-node knows (status has get/put/patch).
    const paramsFrom = [{ path: `${item}/status`, method: vm.method }, { path: item, method: vm.method }];
    out.push({ ...base, path, method: vm.method, action: vm.action, result, ...(vm.method === 'post' || vm.method === 'put' ? { body: def } : {}), paramsFrom });
  }
  return out;
}

/** Parameters every operation of a path shares move up to the path (as kube-openapi writes them). */
function hoistParameters(ops: { method: Method; op: Operation; params: Parameter[] }[]): { shared: Parameter[]; item: PathItem } {
  const first = ops[0];
  const shared = first ? first.params.filter((p) => ops.every((o) => o.params.some((q) => q.name === p.name && q.in === p.in))) : [];
  const sharedNames = new Set(shared.map((p) => `${p.in}/${p.name}`));
  const item: PathItem = {};
  for (const { method, op, params } of [...ops].sort((a, b) => a.method.localeCompare(b.method))) {
    const own = params.filter((p) => !sharedNames.has(`${p.in}/${p.name}`));
    item[method] = own.length > 0 ? insertParameters(op, own) : op;
  }
  return { shared, item };
}

/** Operation with `parameters` placed where kube-openapi's sorted keys put it. */
function insertParameters(op: Operation, parameters: Parameter[]): Operation {
  const { description, operationId, ...rest } = op;
  return { description, operationId, parameters, ...rest };
}

/** Every definition a value refers to, transitively. */
function referencedSchemas(roots: unknown): Record<string, OpenApiSchema> {
  const seen = new Set<string>();
  const stack: unknown[] = [roots];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      for (const [k, sub] of Object.entries(v)) {
        if (k === '$ref' && typeof sub === 'string') {
          const name = refName(sub);
          if (!seen.has(name) && definitions[name]) {
            seen.add(name);
            stack.push(definitions[name]);
          }
        } else stack.push(sub);
      }
    }
  }
  const out: Record<string, OpenApiSchema> = {};
  for (const name of [...seen].sort()) out[name] = definitions[name] as OpenApiSchema;
  return out;
}

const SECURITY_SCHEMES = { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } };

/** The /openapi/v3/<api|apis/group>/<version> document of the resources served in `gv`. */
export function groupVersionDocument(gv: GroupVersion, resources: readonly ResourceInfo[] = RESOURCES): OpenApiV3Document | undefined {
  const served = resources.filter((r) => r.group === gv.group && r.version === gv.version);
  if (served.length === 0) return undefined;
  const byPath = new Map<string, { method: Method; op: Operation; params: Parameter[] }[]>();
  for (const r of served) {
    for (const s of operationsOf(r)) {
      const built = buildOperation(s, gv);
      const list = byPath.get(s.path) ?? [];
      if (!list.some((o) => o.method === s.method)) list.push({ method: s.method, ...built });
      byPath.set(s.path, list);
    }
  }
  const paths: Record<string, PathItem> = {};
  // The group-version's discovery document.
  const prefix = `/${groupVersionPath(gv)}`;
  const discovery = generatedOperation(`${prefix}/`, 'get');
  paths[`${prefix}/`] = {
    get: {
      description: discovery?.description ?? 'get available resources',
      operationId: discovery?.operationId ?? `get${gvWord(gv)}APIResources`,
      responses: { '200': { content: content(OBJECT_TYPES, ref(API_RESOURCE_LIST)), description: 'OK' }, '401': { description: 'Unauthorized' } },
      tags: [tag(gv)],
    },
  };
  for (const path of [...byPath.keys()].sort()) {
    const { shared, item } = hoistParameters(byPath.get(path) ?? []);
    const ordered: PathItem = {};
    // Keys in kube-openapi's (sorted) order: delete, get, parameters, patch, post, put.
    for (const key of ['delete', 'get', 'head', 'options', 'parameters', 'patch', 'post', 'put'] as const) {
      if (key === 'parameters') {
        if (shared.length > 0) ordered.parameters = shared;
      } else if (item[key]) ordered[key] = item[key];
    }
    paths[path] = ordered;
  }
  return {
    components: { schemas: referencedSchemas(paths), securitySchemes: SECURITY_SCHEMES },
    info: { title: 'Kubernetes', version: 'unversioned' },
    openapi: '3.0.0',
    paths,
  };
}

/** `api/v1` or `apis/apps/v1` → the group-version; undefined for anything else. */
export function parseGroupVersionPath(path: string): GroupVersion | undefined {
  const core = /^api\/(v[^/]+)$/.exec(path);
  if (core?.[1]) return { group: '', version: core[1] };
  const named = /^apis\/([^/]+)\/(v[^/]+)$/.exec(path);
  if (named?.[1] && named[2]) return { group: named[1], version: named[2] };
  return undefined;
}

/** The document served at /openapi/v3/<path> (path: `api/v1`, `apis/apps/v1`), or undefined (404). */
export function openApiDocument(path: string, resources: readonly ResourceInfo[] = RESOURCES): OpenApiV3Document | undefined {
  const gv = parseGroupVersionPath(path.replace(/^\/+|\/+$/g, ''));
  return gv ? groupVersionDocument(gv, resources) : undefined;
}

export interface OpenApiV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

/** Bump when the builder's output changes for the same inputs, so clients refetch. */
const BUILDER_VERSION = 1;

/**
 * /openapi/v3: every served group-version and a hash of its document. A
 * document is a pure function of the generated data and the group-version's
 * resources, so the hash is taken over those (cheap) rather than over the
 * document text (which would mean building every document per request);
 * `exact: true` hashes the text as upstream does.
 */
export function openApiIndex(resources: readonly ResourceInfo[] = RESOURCES, options: { exact?: boolean } = {}): OpenApiV3Index {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  const byKey = new Map<string, ResourceInfo[]>();
  for (const r of resources) {
    const key = groupVersionPath(r);
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  for (const key of [...byKey.keys()].sort()) {
    const served = byKey.get(key) ?? [];
    const first = served[0];
    if (!first) continue;
    const hash = options.exact
      ? documentHash(JSON.stringify(groupVersionDocument(first, resources)))
      : documentHash(`${BUILDER_VERSION}\n${GENERATED_FINGERPRINT}\n${JSON.stringify(served)}`);
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { paths };
}

function allDocuments(resources: readonly ResourceInfo[]): OpenApiV3Document[] {
  const gvs = new Map<string, GroupVersion>();
  for (const r of resources) gvs.set(groupVersionPath(r), { group: r.group, version: r.version });
  return [...gvs.values()].map((gv) => groupVersionDocument(gv, resources)).filter((d): d is OpenApiV3Document => d !== undefined);
}

/** /openapi/v2 as JSON (swagger 2.0): what `Accept: application/json` gets. */
export function openApiV2(resources: readonly ResourceInfo[] = RESOURCES): JsonObj {
  return swaggerFromDocuments(allDocuments(resources));
}

/**
 * /openapi/v2 as kubectl asks for it (Accept: OPENAPI_V2_PROTOBUF from ./v2):
 * gnostic's openapi_v2.Document, binary. The response body must be written as
 * these bytes (Content-Type: application/com.github.proto-openapi.spec.v2.v1.0+protobuf).
 */
export function openApiV2Protobuf(resources: readonly ResourceInfo[] = RESOURCES): Uint8Array {
  return encodeOpenApiV2(openApiV2(resources));
}
