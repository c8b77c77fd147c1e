// The stages of a request, bound to the modules that implement them
// (authentication, impersonation, RBAC, decoding, defaulting, admission,
// validation, selectors, printing). The REST handlers call only this module.
import { servedShape, storedShape } from '../registry/conversion';
import type { ActorContext } from '../../sim/kernel';
import type { Rng } from '../../sim/rng';
import type { JsonObject, JsonValue, KObject, Status } from '../../apimachinery/types';
import { apiVersionOf, parseApiVersion } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import { type FieldError } from '../../apimachinery/fieldErrors';
import * as labels from '../../apimachinery/selectors/labels';
import * as fields from '../../apimachinery/selectors/fields';
import type { ResourceInfo } from '../registry/resources';
import type { AdmissionAttributes, AdmissionOperation, ApiRequest, ApiResponse, AuthorizationAttributes, AuthorizationResult, ClusterReader, UserInfo } from '../types';
import type { ResourceRequestInfo, RequestInfo } from '../http/requestInfo';
import { jsonResponse, queryValue } from '../http/messages';
import { rfc3339 } from '../http/time';
import { encodeObject } from '../storage/codec';
import * as auth from '../auth';
import { RANDOM_SUFFIX_OPTION, runMutating, runValidating } from '../admission';
import { allocateServiceFields, applyDefaults } from '../defaults';
import { validateCreate, validateEphemeralContainersUpdate, validateStatusUpdate, validateUpdate } from '../validation';
import { prepareForCreate as strategyCreate, prepareForUpdate as strategyUpdate, prepareForEphemeralContainersUpdate, prepareForStatusUpdate } from '../validation/strategy';
import { canonicaliseQuantities } from '../validation/quantity';
import { toTable } from '../printers';
import { applyPatch as applyPatchOf, createJsonPatch, patchMetaFor } from '../../apimachinery/patch';
import { checkFields } from '../openapi/fieldCheck';
import { openApiDocument, openApiIndex, openApiV2, openApiV2Protobuf } from '../openapi/documents';
import type { ApiServer } from './apiserver';
import { stage } from './apiserver';
import type { RestOp } from './rest';
import { generateName as genName, newUid as genUid } from './ids';
import { parseBody, parseJsonValue } from './decode';
import { base64Encode } from '../../sim/base64';
import { jsonRoundTrip } from '../../sim/jsonClone';

export type AuthnConfig = auth.AuthnConfig;

// ---- authentication, impersonation, authorization -----------------------------------

export function authenticate(req: ApiRequest, config: AuthnConfig, cluster: ClusterReader, now: number, tokens?: auth.TokenCache): { ok: true; user: UserInfo; authenticator: string } | { ok: false; status: Status; authenticator: string; reason: string } {
  const r = auth.authenticate(req.headers, config, cluster, now, tokens);
  return r.ok ? { ok: true, user: r.user, authenticator: r.authenticator } : { ok: false, status: r.status, authenticator: 'authentication', reason: r.reason };
}

export function impersonate(req: ApiRequest, user: UserInfo, cluster: ClusterReader): { type: 'none' } | { type: 'impersonated'; user: UserInfo } | { type: 'forbidden'; status: Status } {
  const r = auth.impersonate(req.headers, user, cluster, req.path);
  // Groups or extras without a user: upstream answers 500.
  if (r.type === 'error') return { type: 'forbidden', status: r.status };
  return r;
}

export function attributesOf(info: RequestInfo, user: UserInfo, req?: ApiRequest): AuthorizationAttributes & { fieldSelector?: string } {
  if (!info.isResourceRequest) return { user, verb: info.verb, isResourceRequest: false, path: info.path };
  const fs = req ? queryValue(req.query, 'fieldSelector') : undefined;
  // requestinfo.go: a list or watch with fieldSelector metadata.name=X is authorized as a request for X
  // (how a kubelet may list and watch its own Node only).
  const byName = !info.name && (info.verb === 'list' || info.verb === 'watch') ? fieldSelectorName(fs) : undefined;
  return {
    ...(fs ? { fieldSelector: fs } : {}),
    user,
    verb: info.verb,
    isResourceRequest: true,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: byName ?? info.name,
    path: info.path,
  };
}

/** RequiresExactMatch("metadata.name"): the X of a metadata.name=X term, when X is a valid path segment. */
function fieldSelectorName(fs: string | undefined): string | undefined {
  for (const part of (fs ?? '').split(',')) {
    const name = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(part)?.[1];
    if (name && name !== '.' && name !== '..' && !/[/%]/.test(name)) return name;
  }
  return undefined;
}

export function authorize(attrs: AuthorizationAttributes, cluster: ClusterReader): AuthorizationResult {
  return auth.authorize(attrs, cluster);
}

export function forbiddenStatus(attrs: AuthorizationAttributes, result: AuthorizationResult): Status {
  return auth.forbiddenStatus(attrs, result);
}

// ---- selectors ------------------------------------------------------------------------

export interface Selectors {
  ok: true;
  label?: labels.Selector;
  field?: fields.FieldSelector;
}

export function parseSelectors(req: ApiRequest, r: ResourceInfo): Selectors | { ok: false; status: Status } {
  const out: Selectors = { ok: true };
  const ls = queryValue(req.query, 'labelSelector');
  if (ls) {
    const p = labels.parse(ls);
    if (!p.ok) return { ok: false, status: status.badRequest(p.error) };
    out.label = p.selector;
  }
  const fsel = queryValue(req.query, 'fieldSelector');
  if (fsel) {
    const p = fields.parseFieldSelectorFor(r.group, r.resource, fsel);
    if (!p.ok) return { ok: false, status: status.badRequest(p.error) };
    out.field = p.selector;
  }
  return out;
}

/** `objFields`: the object's field set, when the caller already has it (fields.fieldsOf). */
export function matches(r: ResourceInfo, obj: KObject, sel: Selectors, objFields?: fields.Fields): boolean {
  if (sel.label && !labels.matches(sel.label, obj.metadata.labels ?? {})) return false;
  if (sel.field && !fields.matchesFields(sel.field, objFields ?? fields.fieldsOf(r.group, r.resource, obj))) return false;
  return true;
}

// ---- rendering: objects, lists, Tables ---------------------------------------------------

/** Does the client want a meta.k8s.io Table (kubectl get)? */
export function wantsTable(req: ApiRequest): boolean {
  const accept = req.headers['accept'] ?? '';
  if (!accept.includes('as=Table')) return false;
  return accept.split(',').some((part) => part.includes('as=Table') && part.includes('g=meta.k8s.io'));
}

function includeObject(req: ApiRequest): 'None' | 'Object' | 'Metadata' {
  const v = queryValue(req.query, 'includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

/** The answer to a read: the object, the list, or a Table of them. `listMeta` null = a single object. */
export function render(r: ResourceInfo, req: ApiRequest, shapedObjs: KObject[], now: number, listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } | null): unknown {
  const objs = shapedObjs.map((o) => servedShape(r, o));
  if (wantsTable(req) && req.method === 'GET') {
    return toTable(r, objs.map((o) => ({ ...o, apiVersion: apiVersionOf(r.group, r.version), kind: r.kind })), { now, includeObject: includeObject(req), listMeta: listMeta ?? undefined });
  }
  if (!listMeta) return objs[0];
  // Items of a typed list carry no apiVersion/kind of their own.
  const items = objs.map((o) => {
    const { apiVersion: _a, kind: _k, ...rest } = o;
    return rest;
  });
  const meta: Record<string, unknown> = { resourceVersion: listMeta.resourceVersion };
  if (listMeta.continue) meta.continue = listMeta.continue;
  if (listMeta.remainingItemCount !== undefined) meta.remainingItemCount = listMeta.remainingItemCount;
  return { kind: r.listKind, apiVersion: apiVersionOf(r.group, r.version), metadata: meta, items };
}

export function renderWatchObject(r: ResourceInfo, req: ApiRequest, obj: KObject, now: number, withHeaders: boolean): unknown {
  if (!wantsTable(req)) return obj;
  const t = toTable(r, [obj], { now, includeObject: includeObject(req) }) as { columnDefinitions?: unknown };
  if (!withHeaders) t.columnDefinitions = null;
  return t;
}

// ---- decoding ----------------------------------------------------------------------------

/** Decodes a request body into an object of the endpoint's kind, with upstream's errors. */
export function decodeBody(req: ApiRequest, r: Pick<ResourceInfo, 'group' | 'version' | 'kind'>, _mode: 'create' | 'update'): { ok: true; obj: KObject; warnings: string[] } | { ok: false; status: Status } {
  const parsed = parseBody(req);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, status: status.badRequest(`Object 'Kind' is missing in '${parsed.text.slice(0, 200)}'`) };
  }
  const obj = value as unknown as KObject;
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  // A body without type meta is decoded as the endpoint's kind (the request scope's default GVK).
  if (obj.kind === undefined || obj.kind === '') obj.kind = r.kind;
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = apiVersionOf(r.group, r.version);
  if (typeof obj.kind !== 'string' || typeof obj.apiVersion !== 'string') {
    return { ok: false, status: status.badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeName(typeof obj.kind !== 'string' ? obj.kind : obj.apiVersion)} into Go struct field .${typeof obj.kind !== 'string' ? 'kind' : 'apiVersion'} of type string`) };
  }
  const sent = parseApiVersion(obj.apiVersion);
  if (sent.group !== r.group || sent.version !== r.version || obj.kind !== r.kind) {
    if (sent.group === r.group && obj.kind === r.kind) {
      return { ok: false, status: status.badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${apiVersionOf(r.group, r.version)})`) };
    }
    return { ok: false, status: status.badRequest(`the object provided is unrecognized (must be of type ${r.kind}): ${obj.kind} in version "${obj.apiVersion}" cannot be handled as a ${r.kind}`) };
  }
  const mode = (queryValue(req.query, 'fieldValidation') ?? 'Warn') as 'Ignore' | 'Warn' | 'Strict';
  if (!['Ignore', 'Warn', 'Strict'].includes(mode)) return { ok: false, status: status.badRequest(`fieldValidation invalid value: ${mode}`) };
  // A JSON body was parsed for this request alone: decoded in place.
  const checked = checkFields(gvk, obj, mode, parsed.duplicates, { owned: parsed.unshared === true });
  if (!checked.ok) return { ok: false, status: checked.status };
  checked.obj.metadata ??= {};
  // From here on the object is in the shape it is stored (and defaulted, validated, admitted) in.
  const out = storedShape(r, checked.obj);
  const stored = { group: r.group, version: parseApiVersion(out.apiVersion).version, kind: r.kind };
  applyDefaults(stored, out);
  const qErr = canonicaliseQuantities(stored, out);
  if (qErr) return { ok: false, status: status.badRequest(`${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${qErr}`) };
  return { ok: true, obj: out, warnings: checked.warnings };
}

function goTypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** The object's storage encoding, once: etcd refuses requests over --max-request-bytes (1.5 MiB), reported with etcd's text. */
export function encodeChecked(obj: KObject): { ok: true; value: string } | { ok: false; status: Status } {
  const value = encodeObject(obj);
  if (value.length > 1.5 * 1024 * 1024) return { ok: false, status: status.storage('etcdserver: request is too large') };
  return { ok: true, value };
}

// ---- patches -------------------------------------------------------------------------

export function applyPatch(req: ApiRequest, r: Pick<ResourceInfo, 'group' | 'version' | 'kind'>, current: KObject): { ok: true; obj: KObject; warnings: string[]; patchType: string } | { ok: false; status: Status } {
  const ct = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  const text = req.body ?? '';
  if (ct === 'application/apply-patch+yaml') return { ok: false, status: status.unsupportedMediaType(unsupportedPatchMessage()) };
  const parsed = parseJsonValue(text);
  if (!parsed.ok) return { ok: false, status: status.badRequest(parsed.status.message!.replace("couldn't get version/kind; json parse error: ", 'error decoding patch: ')) };
  const patch = parsed.value;
  if (ct !== 'application/json-patch+json' && ct !== 'application/merge-patch+json' && ct !== 'application/strategic-merge-patch+json') {
    return { ok: false, status: status.unsupportedMediaType(unsupportedPatchMessage()) };
  }
  const result = applyPatchOf(ct, current as unknown as JsonObject, patch as JsonValue, patchMetaFor(r.group, r.version, r.kind));
  if (!result.ok) return { ok: false, status: result.status };
  const value = result.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, status: status.badRequest('the patch produced something that is not an object') };
  const obj = value as unknown as KObject;
  const mode = (queryValue(req.query, 'fieldValidation') ?? 'Warn') as 'Ignore' | 'Warn' | 'Strict';
  // A merge patch's result is a fresh copy (applyMergePatchV4 clones document and patch): decoded in place.
  // Other patch types may share members with the current object, which must stay as it is.
  const checked = checkFields({ group: r.group, version: r.version, kind: r.kind }, obj, mode, [], { owned: ct === 'application/merge-patch+json' });
  if (!checked.ok) return { ok: false, status: checked.status };
  const out = storedShape(r, checked.obj);
  const stored = { group: r.group, version: parseApiVersion(out.apiVersion).version, kind: r.kind };
  applyDefaults(stored, out);
  const qErr = canonicaliseQuantities(stored, out);
  if (qErr) return { ok: false, status: status.badRequest(`${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${qErr}`) };
  return { ok: true, obj: out, warnings: checked.warnings, patchType: ct };
}

function unsupportedPatchMessage(): string {
  return 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';
}

// ---- registry strategy -----------------------------------------------------------------

export function prepareForCreate(r: ResourceInfo, obj: KObject): void {
  strategyCreate({ group: r.group, version: r.version, kind: r.kind }, obj);
}

export function prepareForUpdate(r: ResourceInfo, subresource: string, obj: KObject, old: KObject): void {
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  // System fields are the server's: never taken from the client.
  obj.metadata.uid = old.metadata.uid;
  obj.metadata.creationTimestamp = old.metadata.creationTimestamp;
  if (old.metadata.deletionTimestamp) obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
  else delete obj.metadata.deletionTimestamp;
  if (old.metadata.deletionGracePeriodSeconds !== undefined) obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  else delete obj.metadata.deletionGracePeriodSeconds;
  if (old.metadata.generation !== undefined) obj.metadata.generation = old.metadata.generation;
  if (subresource === 'finalize') {
    // namespaces/finalize changes spec.finalizers and nothing else.
    const finalizers = (obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, jsonRoundTrip(old));
    obj.spec = { ...((old.spec as object) ?? {}), finalizers };
    if (finalizers.length === 0) delete (obj.spec as { finalizers?: string[] }).finalizers;
    return;
  }
  if (subresource === 'status') prepareForStatusUpdate(gvk, obj, old);
  else if (subresource === 'ephemeralcontainers') prepareForEphemeralContainersUpdate(obj, old);
  else strategyUpdate(gvk, obj, old);
}

export function allowUnconditionalUpdate(_r: ResourceInfo): boolean {
  // Every built-in strategy allows an update without a resourceVersion.
  return true;
}

export function specChanged(a: KObject, b: KObject): boolean {
  return JSON.stringify(a.spec) !== JSON.stringify(b.spec);
}

/**
 * Would writing `obj` store the same bytes as `current` holds (resourceVersion,
 * managedFields and type meta aside)? Compared as JSON values, key order aside.
 */
export function sameStored(obj: KObject, current: KObject): boolean {
  if (!sameMembers(obj as Record<string, unknown>, current as Record<string, unknown>, TYPE_AND_META)) return false;
  return sameMembers(obj.metadata as Record<string, unknown>, current.metadata as Record<string, unknown>, VERSION_AND_MANAGED);
}

const TYPE_AND_META = new Set(['apiVersion', 'kind', 'metadata']);
const VERSION_AND_MANAGED = new Set(['resourceVersion', 'managedFields']);

/** sameJson over the members of either object that JSON would write (not undefined), those in `skip` aside. */
function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>, skip: ReadonlySet<string>): boolean {
  for (const k in a) if (a[k] !== undefined && !skip.has(k) && !sameJson(a[k], b[k])) return false;
  // b's members that a lacks (those a has were compared).
  for (const k in b) if (b[k] !== undefined && a[k] === undefined && !skip.has(k) && !sameJson(a[k], b[k])) return false;
  return true;
}

/** Equal as JSON texts with sorted keys would be (undefined members absent). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // Numbers and the rest as JSON writes them (NaN and null alike).
    return JSON.stringify(a) === JSON.stringify(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] === undefined ? null : a[i], b[i] === undefined ? null : b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let nx = 0;
  for (const k in x) {
    if (x[k] === undefined) continue;
    nx++;
    if (y[k] === undefined || !sameJson(x[k], y[k])) return false;
  }
  let ny = 0;
  for (const k in y) if (y[k] !== undefined) ny++;
  return nx === ny;
}

export function generateName(prefix: string, rng: Rng): string {
  return genName(prefix, rng);
}

export function newUid(rng: Rng): string {
  return genUid(rng);
}

/** managedFields: one entry per manager and operation (field sets are summarised, not tracked per field). */
export function setManagedFields(obj: KObject, op: RestOp, operation: 'Update' | 'Apply', now: number): void {
  const manager = queryValue(op.req.query, 'fieldManager') ?? managerFromUserAgent(op.req.headers['user-agent']);
  const entries = (obj.metadata.managedFields ?? []).filter((e) => !(e.manager === manager && e.operation === operation && (e.subresource ?? '') === op.info.subresource));
  const entry: NonNullable<KObject['metadata']['managedFields']>[number] = {
    manager,
    operation,
    apiVersion: apiVersionOf(op.r.group, op.r.version),
    time: rfc3339(now),
    fieldsType: 'FieldsV1',
    // The fields in the version the manager wrote (an autoscaling/v1 writer's targetCPUUtilizationPercentage).
    fieldsV1: fieldSet(servedShape(op.r, obj)),
  };
  if (op.info.subresource) entry.subresource = op.info.subresource;
  obj.metadata.managedFields = [...entries, entry];
}

function managerFromUserAgent(ua: string | undefined): string {
  // The default field manager is the user agent's first word (kubectl: "kubectl-client-side-apply" comes as fieldManager).
  if (!ua) return 'unknown';
  const slash = ua.indexOf('/');
  return (slash < 0 ? ua : ua.slice(0, slash)) || 'unknown';
}

/**
 * The fields the field manager never records as owned (managedfields/internal/
 * stripmeta.go): apiVersion, kind, and metadata's identity and system fields.
 */
const STRIPPED_META = new Set(['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']);

function fieldSet(obj: KObject): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const k of Object.keys(obj)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'status') continue;
    const x = (obj as Record<string, unknown>)[k];
    if (k === 'metadata' && x && typeof x === 'object' && !Array.isArray(x)) {
      const meta: Record<string, JsonValue> = {};
      for (const m of Object.keys(x)) if (!STRIPPED_META.has(m)) meta[`f:${m}`] = fieldsOf((x as Record<string, unknown>)[m]);
      // Nothing of metadata left (only its name, say): no f:metadata at all.
      if (Object.keys(meta).length) out['f:metadata'] = meta;
      continue;
    }
    out[`f:${k}`] = fieldsOf(x);
  }
  return out;
}

/** `f:<key>` for every key, nested through objects (lists and scalars are leaves). */
function fieldsOf(x: unknown): Record<string, JsonValue> {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return {};
  const out: Record<string, JsonValue> = {};
  for (const k of Object.keys(x)) out[`f:${k}`] = fieldsOf((x as Record<string, unknown>)[k]);
  return out;
}

// ---- Service IP and node port allocation (pkg/registry/core/service/ipallocator, portallocator) ----

/** --service-cluster-ip-range default of kubeadm. */
const SERVICE_CIDR_BASE = (10 << 24) | (96 << 16); // 10.96.0.0/12
const SERVICE_CIDR_SIZE = 1 << 20;
/** --service-node-port-range. */
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

function ipString(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/**
 * Gives a new Service its ClusterIP(s) and node ports. Dynamic IPs come from the
 * upper band of the range (the first min(max(16, size/16), 256) addresses are kept
 * for static assignment), at a random offset as the bitmap allocator picks them.
 */
export function allocateService(s: ApiServer, obj: KObject, rng: Rng): Status | null {
  if (obj.kind !== 'Service') return null;
  const usedIps = new Set<string>();
  const usedPorts = new Set<number>();
  for (const svc of s.cluster.list('', 'services')) {
    const spec = (svc.spec ?? {}) as { clusterIPs?: string[]; ports?: { nodePort?: number }[]; healthCheckNodePort?: number };
    for (const ip of spec.clusterIPs ?? []) usedIps.add(ip);
    for (const p of spec.ports ?? []) if (p.nodePort) usedPorts.add(p.nodePort);
    if (spec.healthCheckNodePort) usedPorts.add(spec.healthCheckNodePort);
  }
  const staticBand = Math.min(Math.max(16, Math.floor(SERVICE_CIDR_SIZE / 16)), 256);
  const r = allocateServiceFields(obj, {
    families: ['IPv4'],
    allocateIP: (_family, wanted) => {
      if (wanted) {
        if (usedIps.has(wanted)) return null;
        usedIps.add(wanted);
        return wanted;
      }
      for (let i = 0; i < 64; i++) {
        const ip = ipString(SERVICE_CIDR_BASE + rng.int(staticBand, SERVICE_CIDR_SIZE - 1));
        if (!usedIps.has(ip)) {
          usedIps.add(ip);
          return ip;
        }
      }
      return null;
    },
    allocateNodePort: (wanted) => {
      if (wanted) {
        if (usedPorts.has(wanted)) return null;
        usedPorts.add(wanted);
        return wanted;
      }
      for (let i = 0; i < 64; i++) {
        const p = rng.int(NODE_PORT_MIN, NODE_PORT_MAX + 1);
        if (!usedPorts.has(p)) {
          usedPorts.add(p);
          return p;
        }
      }
      return null;
    },
  });
  if (r.ok) return null;
  return status.invalid({ group: '', kind: 'Service' }, obj.metadata.name ?? '', [{ type: 'FieldValueInvalid', field: r.field, badValue: r.value, detail: r.detail }]);
}

// ---- validation and admission -----------------------------------------------------------

export function validate(s: ApiServer, ctx: ActorContext, op: RestOp, mode: 'create' | 'update' | 'status' | 'ephemeralcontainers', obj: KObject, old: KObject | null): Status | null {
  const gvk = { group: op.r.group, version: op.r.version, kind: op.r.kind };
  const errs: FieldError[] =
    mode === 'create' ? validateCreate(gvk, obj) : mode === 'status' ? validateStatusUpdate(gvk, obj, old!) : mode === 'ephemeralcontainers' ? validateEphemeralContainersUpdate(obj, old!) : validateUpdate(gvk, obj, old!);
  const rec = s.record(op.recordId);
  if (errs.length) {
    const st = status.invalid({ group: op.r.group, kind: op.r.kind }, obj.metadata.name ?? '', errs);
    stage(rec, 'validation', 'validation', 'denied', ctx.now, ctx.now, st.message);
    return st;
  }
  stage(rec, 'validation', 'validation', 'ok', ctx.now, ctx.now);
  return null;
}

/** Runs one admission phase over the object, recording each plugin's decision and patch. */
export function admit(s: ApiServer, ctx: ActorContext, op: RestOp, operation: AdmissionOperation, obj: KObject | null, old: KObject | null, phase: 'mutating' | 'validating'): Status | null {
  const attrs: AdmissionAttributes = {
    operation,
    resource: op.r,
    subresource: op.info.subresource,
    namespace: op.info.namespace || obj?.metadata.namespace || '',
    name: op.info.name || obj?.metadata.name || '',
    kind: { group: op.r.group, version: op.r.version, kind: op.r.kind },
    object: obj,
    oldObject: old,
    userInfo: op.user,
    dryRun: op.dryRun,
    // The ServiceAccount plugin names the token volume with a random suffix (kube-api-access-XXXXX).
    options: phase === 'mutating' && operation === 'CREATE' ? { [RANDOM_SUFFIX_OPTION]: genName('', ctx.rng) } : {},
    now: ctx.now,
  };
  const reader = op.fresh.length ? freshReader(s.cluster, op.fresh) : s.cluster;
  const result = phase === 'mutating' ? runMutating(attrs, reader) : runValidating(attrs, reader);
  if (phase === 'validating') op.sideWrites = result.allowed ? result.storageWrites : [];
  const records = result.records;
  const rec = s.record(op.recordId);
  for (const pr of records) {
    // Most steps have neither a patch nor warnings: no extra fields to record.
    let extra: Record<string, unknown> | undefined;
    // The same copy before and after: the step changed nothing (no patch to compute).
    if (pr.before !== undefined && pr.after !== undefined && pr.before !== pr.after && pr.decision === 'allowed') {
      const patch = createJsonPatch(pr.before as JsonValue, pr.after as JsonValue) as unknown as JsonValue[];
      if (patch.length) (extra ??= {}).patch = patch;
    }
    if (pr.warnings?.length) {
      (extra ??= {}).warnings = pr.warnings;
      op.warnings.push(...pr.warnings);
    }
    stage(rec, phase, pr.plugin, pr.decision, ctx.now, ctx.now, pr.status?.message, extra);
    if (pr.decision === 'denied' && pr.status) return pr.status;
  }
  return null;
}

/**
 * The cluster as admission reads it, with objects newer than the watch cache
 * (read back from etcd when a transaction found them changed) in place of theirs.
 */
function freshReader(cluster: ClusterReader, fresh: readonly KObject[]): ClusterReader {
  const newer = (o: KObject) => fresh.find((f) => f.kind === o.kind && f.metadata.namespace === o.metadata.namespace && f.metadata.name === o.metadata.name) ?? o;
  return {
    get: (g, r, ns, name) => {
      const o = cluster.get(g, r, ns, name);
      return o ? newer(o) : undefined;
    },
    list: (g, r, ns) => cluster.list(g, r, ns).map(newer),
  };
}

// ---- delete -------------------------------------------------------------------------------

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

export function deleteOptions(req: ApiRequest): { ok: true; options: DeleteOptions } | { ok: false; status: Status } {
  let opts: DeleteOptions = {};
  if (req.body && req.body.trim() !== '') {
    const p = parseBody(req);
    if (!p.ok) return p;
    opts = (p.value ?? {}) as DeleteOptions;
  }
  const gp = queryValue(req.query, 'gracePeriodSeconds');
  if (gp !== undefined) {
    if (!/^-?\d+$/.test(gp)) return { ok: false, status: status.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(gp)}: invalid syntax`) };
    opts.gracePeriodSeconds = Number(gp);
  }
  const pp = queryValue(req.query, 'propagationPolicy');
  if (pp !== undefined) opts.propagationPolicy = pp as DeleteOptions['propagationPolicy'];
  if (opts.propagationPolicy && !['Orphan', 'Background', 'Foreground'].includes(opts.propagationPolicy)) {
    return { ok: false, status: status.invalid({ group: '', kind: 'DeleteOptions' }, '', [{ type: 'FieldValueNotSupported', field: 'propagationPolicy', badValue: opts.propagationPolicy, detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' }]) };
  }
  return { ok: true, options: opts };
}

/** Delete at once, or mark for deletion (graceful pods, finalizers, foreground/orphan propagation). */
export function planDelete(r: ResourceInfo, obj: KObject, opts: DeleteOptions, now: number): { type: 'immediate' } | { type: 'update'; obj: KObject } {
  const next = jsonRoundTrip(obj);
  const finalizers = [...(next.metadata.finalizers ?? [])];
  if (opts.propagationPolicy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
  if (opts.propagationPolicy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
  if (r.resource === 'namespaces') {
    const spec = (next.spec ?? {}) as { finalizers?: string[] };
    if ((spec.finalizers ?? []).length > 0 || finalizers.length > 0) {
      next.metadata.deletionTimestamp ??= rfc3339(now);
      next.metadata.deletionGracePeriodSeconds ??= 0;
      next.status = { ...((next.status as object) ?? {}), phase: 'Terminating' };
      if (finalizers.length) next.metadata.finalizers = finalizers;
      return { type: 'update', obj: next };
    }
  }
  // Graceful deletion of pods bound to a node: the kubelet finishes it (pkg/registry/core/pod/strategy.go CheckGracefulDelete).
  if (r.resource === 'pods') {
    const spec = (next.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
    const phase = (next.status as { phase?: string } | undefined)?.phase;
    let grace = opts.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') grace = 0;
    if (grace > 0) {
      const prev = next.metadata.deletionGracePeriodSeconds;
      if (prev === undefined || grace < prev) {
        next.metadata.deletionTimestamp = rfc3339(now + grace * 1000);
        next.metadata.deletionGracePeriodSeconds = grace;
      }
      if (finalizers.length) next.metadata.finalizers = finalizers;
      return { type: 'update', obj: next };
    }
  }
  if (finalizers.length > 0) {
    next.metadata.deletionTimestamp ??= rfc3339(now);
    next.metadata.deletionGracePeriodSeconds ??= 0;
    next.metadata.finalizers = finalizers;
    return { type: 'update', obj: next };
  }
  return { type: 'immediate' };
}

// ---- virtual resources ---------------------------------------------------------------------

/** Creates on resources without storage (reviews, tokens) or on subresources (binding, eviction). */
export function createVirtual(s: ApiServer, ctx: ActorContext, op: RestOp): { type: 'answer'; response: ApiResponse } | { type: 'write' } {
  const { r, info } = op;
  const sub = info.subresource;
  const kind = sub ? r.subresources.find((x) => x.name === sub)! : null;
  const gvk = kind ? { group: kind.group ?? r.group, version: kind.version ?? r.version, kind: kind.kind } : { group: r.group, version: r.version, kind: r.kind };
  const dec = decodeBody(op.req, gvk, 'create');
  if (!dec.ok) return { type: 'answer', response: jsonResponse(dec.status.code, dec.status) };
  op.body = dec.obj;
  if (r.resource === 'pods' && (sub === 'binding' || sub === 'eviction')) {
    if (dec.obj.metadata.name && dec.obj.metadata.name !== info.name) {
      return { type: 'answer', response: jsonResponse(400, status.badRequest(`name in URL does not match name in ${gvk.kind} object`)) };
    }
    return { type: 'write' };
  }
  if (r.resource === 'bindings') return { type: 'answer', response: jsonResponse(405, status.methodNotSupported({ group: '', resource: 'bindings' }, 'create')) };
  if (r.resource === 'serviceaccounts' && sub === 'token') {
    const tr = auth.tokenRequest(dec.obj, info.namespace, info.name, { cluster: s.cluster, config: s.config.authn.serviceAccounts, now: ctx.now });
    return { type: 'answer', response: tr.ok ? jsonResponse(201, tr.object) : jsonResponse(tr.status.code, tr.status) };
  }
  const review = auth.review(r.resource, dec.obj, op.user, s.cluster, info.namespace, { now: ctx.now, authn: s.config.authn });
  if (!review) return { type: 'answer', response: jsonResponse(405, status.methodNotSupported({ group: r.group, resource: r.resource }, 'create')) };
  if (!review.ok) return { type: 'answer', response: jsonResponse(review.status.code, review.status) };
  stage(s.record(op.recordId), 'storage', r.resource, 'ok', ctx.now, ctx.now, 'answered by the authorizer (not stored)');
  return { type: 'answer', response: jsonResponse(201, review.object) };
}

// ---- OpenAPI -------------------------------------------------------------------------------

/**
 * Built OpenAPI documents, by path. They are pure functions of the served
 * resources (never of cluster state), so a memo is safe and keeps repeated
 * discovery by clients cheap.
 */
const openApiMemo = new Map<string, ApiResponse>();

export function openApiResponse(path: string, req: ApiRequest): ApiResponse | null {
  const proto = (req.headers['accept'] ?? '').includes('protobuf');
  const key = `${path}|${proto}`;
  const hit = openApiMemo.get(key);
  if (hit) return hit;
  let res: ApiResponse | null = null;
  if (path === '/openapi/v3') res = jsonResponse(200, openApiIndex());
  else if (path === '/openapi/v2') {
    // kubectl reads the v2 document only as protobuf.
    res = proto
      ? { status: 200, headers: { 'content-type': 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' }, body: base64Encode(openApiV2Protobuf()), binary: true }
      : jsonResponse(200, openApiV2());
  } else {
    const m = /^\/openapi\/v3\/(apis?\/.+)$/.exec(path);
    if (m) {
      const doc = openApiDocument(m[1]!);
      if (doc) res = jsonResponse(200, doc);
    }
  }
  if (res) openApiMemo.set(key, res);
  return res;
}

export type { ResourceRequestInfo };
