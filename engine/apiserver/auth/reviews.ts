// The review APIs, answered as their registries answer them
// (pkg/registry/authorization/{selfsubjectaccessreview,subjectaccessreview,
// localsubjectaccessreview,selfsubjectrulesreview}/rest.go,
// pkg/registry/authentication/{selfsubjectreview,tokenreview}/): nothing is
// stored; the request object comes back with its status filled in.
import { fieldErr, type FieldError } from '../../apimachinery/fieldErrors';
import { status } from '../../apimachinery/status';
import type { KObject, Status } from '../../apimachinery/types';
import { rfc3339 } from '../http/time';
import type { AuthorizationAttributes, ClusterReader, UserInfo } from '../types';
import { authenticateToken, type AuthnConfig } from './authn';
import { authorize, rulesFor } from './authorizer';
import type { AttributesWithSelectors } from './node';

export type ReviewResult = { ok: true; object: KObject } | { ok: false; status: Status };

const AUTHZ_API_VERSION = 'authorization.k8s.io/v1';
const AUTHN_API_VERSION = 'authentication.k8s.io/v1';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const s = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** authorizationv1.ResourceAttributes in JSON field order, empty fields dropped. */
function resourceAttributes(v: Obj): Obj {
  const out: Obj = {};
  for (const k of ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name', 'fieldSelector', 'labelSelector']) {
    if (v[k] !== undefined && v[k] !== '') out[k] = v[k];
  }
  return out;
}

function nonResourceAttributes(v: Obj): Obj {
  const out: Obj = {};
  for (const k of ['path', 'verb']) if (v[k] !== undefined && v[k] !== '') out[k] = v[k];
  return out;
}

interface ParsedSpec {
  resource?: Obj;
  nonResource?: Obj;
  user: string;
  groups: string[];
  extra: Record<string, string[]>;
  uid: string;
}

function parseSpec(body: KObject): ParsedSpec {
  const spec = obj(body.spec) ?? {};
  const ra = obj(spec.resourceAttributes);
  const nra = obj(spec.nonResourceAttributes);
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(obj(spec.extra) ?? {})) extra[k] = strs(v);
  return {
    ...(ra ? { resource: resourceAttributes(ra) } : {}),
    ...(nra ? { nonResource: nonResourceAttributes(nra) } : {}),
    user: s(spec.user),
    groups: strs(spec.groups),
    extra,
    uid: s(spec.uid),
  };
}

/** The spec as it echoes back (SubjectAccessReviewSpec field order). */
function echoSpec(p: ParsedSpec, withSubject: boolean): Obj {
  const out: Obj = {};
  if (p.resource) out.resourceAttributes = p.resource;
  if (p.nonResource) out.nonResourceAttributes = p.nonResource;
  if (withSubject) {
    if (p.user) out.user = p.user;
    if (p.groups.length) out.groups = p.groups;
    if (Object.keys(p.extra).length) out.extra = p.extra;
    if (p.uid) out.uid = p.uid;
  }
  return out;
}

function validateAttributes(p: ParsedSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (p.resource && p.nonResource) errs.push(fieldErr.invalid('spec.nonResourceAttributes', p.nonResource, 'cannot be specified in combination with resourceAttributes'));
  // Upstream passes the nil nonResourceAttributes as the bad value, which prints as "null".
  if (!p.resource && !p.nonResource) errs.push(fieldErr.invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  return errs;
}

function metadataIsEmpty(body: KObject, except: 'namespace' | '' = ''): boolean {
  return Object.entries(body.metadata ?? {}).every(([k, v]) => k === except || k === 'managedFields' || v === undefined || v === null || v === '' || (typeof v === 'object' && Object.keys(v).length === 0));
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. An empty version means every version. */
function attributesFrom(user: UserInfo, p: ParsedSpec): AttributesWithSelectors {
  if (p.resource) {
    const r = p.resource;
    const attrs: AttributesWithSelectors = {
      user,
      verb: s(r.verb),
      isResourceRequest: true,
      namespace: s(r.namespace),
      apiGroup: s(r.group),
      apiVersion: s(r.version) || '*',
      resource: s(r.resource),
      subresource: s(r.subresource),
      name: s(r.name),
    };
    const fs = obj(r.fieldSelector);
    if (fs && typeof fs.rawSelector === 'string') attrs.fieldSelector = fs.rawSelector;
    return attrs;
  }
  const n = p.nonResource ?? {};
  return { user, verb: s(n.verb), isResourceRequest: false, path: s(n.path) };
}

/** authorizationv1.SubjectAccessReviewStatus: allowed always, the rest when set. */
function accessStatus(attrs: AuthorizationAttributes, cluster: ClusterReader): Obj {
  const r = authorize(attrs, cluster);
  const st: Obj = { allowed: r.decision === 'Allow' };
  if (r.decision === 'Deny') st.denied = true;
  if (r.reason) st.reason = r.reason;
  return st;
}

export function selfSubjectAccessReview(body: KObject, user: UserInfo, cluster: ClusterReader): ReviewResult {
  const p = parseSpec(body);
  const errs = validateAttributes(p);
  if (!metadataIsEmpty(body)) errs.push(fieldErr.invalid('metadata', body.metadata, 'must be empty'));
  if (errs.length) return { ok: false, status: status.invalid({ group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' }, '', errs) };
  return {
    ok: true,
    object: {
      kind: 'SelfSubjectAccessReview',
      apiVersion: AUTHZ_API_VERSION,
      metadata: { creationTimestamp: null },
      spec: echoSpec(p, false),
      status: accessStatus(attributesFrom(user, p), cluster),
    },
  };
}

function subjectOf(p: ParsedSpec): UserInfo {
  // Exactly the subject described: no system:authenticated is added.
  const u: UserInfo = { username: p.user, groups: p.groups };
  if (p.uid) u.uid = p.uid;
  if (Object.keys(p.extra).length) u.extra = p.extra;
  return u;
}

function subjectErrors(p: ParsedSpec): FieldError[] {
  const errs = validateAttributes(p);
  if (!p.user && p.groups.length === 0) errs.push(fieldErr.invalid('spec.user', p.user, 'at least one of user or group must be specified'));
  return errs;
}

export function subjectAccessReview(body: KObject, cluster: ClusterReader): ReviewResult {
  const p = parseSpec(body);
  const errs = subjectErrors(p);
  if (!metadataIsEmpty(body)) errs.push(fieldErr.invalid('metadata', body.metadata, 'must be empty'));
  if (errs.length) return { ok: false, status: status.invalid({ group: 'authorization.k8s.io', kind: 'SubjectAccessReview' }, '', errs) };
  return {
    ok: true,
    object: {
      kind: 'SubjectAccessReview',
      apiVersion: AUTHZ_API_VERSION,
      metadata: { creationTimestamp: null },
      spec: echoSpec(p, true),
      status: accessStatus(attributesFrom(subjectOf(p), p), cluster),
    },
  };
}

/** `namespace` is the request path's namespace (POST /apis/authorization.k8s.io/v1/namespaces/NS/localsubjectaccessreviews). */
export function localSubjectAccessReview(body: KObject, namespace: string, cluster: ClusterReader): ReviewResult {
  const p = parseSpec(body);
  const metaNs = body.metadata?.namespace ?? '';
  const errs = subjectErrors(p);
  if (!metadataIsEmpty(body, 'namespace')) errs.push(fieldErr.invalid('metadata', body.metadata, 'must be empty except for namespace'));
  if (p.resource && s(p.resource.namespace) !== metaNs) errs.push(fieldErr.invalid('spec.resourceAttributes.namespace', s(p.resource.namespace), 'must match metadata.namespace'));
  if (p.nonResource) errs.push(fieldErr.invalid('spec.nonResourceAttributes', p.nonResource, 'disallowed on this kind of request'));
  if (errs.length) return { ok: false, status: status.invalid({ group: 'authorization.k8s.io', kind: 'LocalSubjectAccessReview' }, '', errs) };
  if (!namespace) return { ok: false, status: status.badRequest(`namespace is required on this type: ${namespace}`) };
  if (namespace !== metaNs) return { ok: false, status: status.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`) };
  return {
    ok: true,
    object: {
      kind: 'LocalSubjectAccessReview',
      apiVersion: AUTHZ_API_VERSION,
      metadata: { namespace: metaNs, creationTimestamp: null },
      spec: echoSpec(p, true),
      status: accessStatus(attributesFrom(subjectOf(p), p), cluster),
    },
  };
}

export function selfSubjectRulesReview(body: KObject, user: UserInfo, cluster: ClusterReader): ReviewResult {
  const namespace = s(obj(body.spec)?.namespace);
  if (!namespace) return { ok: false, status: status.badRequest('no namespace on request') };
  return {
    ok: true,
    // The registry builds a fresh object holding only the status.
    object: { kind: 'SelfSubjectRulesReview', apiVersion: AUTHZ_API_VERSION, metadata: { creationTimestamp: null }, spec: {}, status: { ...rulesFor(user, namespace, cluster) } },
  };
}

/** authenticationv1.UserInfo: username, then uid/groups/extra when present. */
function userInfoJson(user: UserInfo): Obj {
  const out: Obj = { username: user.username };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) out.extra = user.extra;
  return out;
}

/** `kubectl auth whoami`: the requesting user, stamped with the (virtual) time. */
export function selfSubjectReview(user: UserInfo, now: number): ReviewResult {
  return {
    ok: true,
    object: { kind: 'SelfSubjectReview', apiVersion: AUTHN_API_VERSION, metadata: { creationTimestamp: rfc3339(now) }, status: { userInfo: userInfoJson(user) } },
  };
}

export function tokenReview(body: KObject, config: AuthnConfig, cluster: ClusterReader, now: number): ReviewResult {
  const spec = obj(body.spec) ?? {};
  const token = s(spec.token);
  if (!token) return { ok: false, status: status.badRequest('token is required for TokenReview in authentication') };
  const wanted = strs(spec.audiences);
  const r = authenticateToken(token, config, cluster, now);
  const st: Obj = { authenticated: r.ok };
  if (r.ok) {
    const audiences = config.serviceAccounts.apiAudiences;
    if (wanted.length && !wanted.some((a) => audiences.includes(a))) {
      return { ok: false, status: status.internal('token audience does not match apiserver audience') };
    }
    st.user = userInfoJson(r.user);
    st.audiences = wanted.length ? wanted.filter((a) => audiences.includes(a)) : [...audiences];
  } else {
    st.user = {};
    st.error = r.reason;
  }
  const echo: Obj = { token };
  if (wanted.length) echo.audiences = wanted;
  return { ok: true, object: { kind: 'TokenReview', apiVersion: AUTHN_API_VERSION, metadata: { creationTimestamp: null }, spec: echo, status: st } };
}

export interface ReviewContext {
  /** Virtual time, ms. */
  now: number;
  authn: AuthnConfig;
}

/** Dispatches a create on one of the review resources; undefined for any other resource. */
export function review(resource: string, body: KObject, user: UserInfo, cluster: ClusterReader, namespace: string, ctx: ReviewContext): ReviewResult | undefined {
  switch (resource) {
    case 'selfsubjectaccessreviews':
      return selfSubjectAccessReview(body, user, cluster);
    case 'subjectaccessreviews':
      return subjectAccessReview(body, cluster);
    case 'localsubjectaccessreviews':
      return localSubjectAccessReview(body, namespace, cluster);
    case 'selfsubjectrulesreviews':
      return selfSubjectRulesReview(body, user, cluster);
    case 'selfsubjectreviews':
      return selfSubjectReview(user, ctx.now);
    case 'tokenreviews':
      return tokenReview(body, ctx.authn, cluster, ctx.now);
    default:
      return undefined;
  }
}
