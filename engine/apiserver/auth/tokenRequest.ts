// POST .../serviceaccounts/NAME/token (pkg/registry/core/serviceaccount/storage/token.go):
// validate the TokenRequest, resolve its bound object, mint the token, and
// answer with the request plus status {token, expirationTimestamp}.
import { fieldErr, type FieldError } from '../../apimachinery/fieldErrors';
import { status } from '../../apimachinery/status';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../http/time';
import type { ClusterReader } from '../types';
import type { ReviewResult } from './reviews';
import { DEFAULT_TOKEN_EXPIRATION_SECONDS, issueBoundToken, type BoundObject, type ServiceAccountTokenConfig } from './serviceAccountToken';

const GK = { group: 'authentication.k8s.io', kind: 'TokenRequest' };
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface TokenRequestContext {
  cluster: ClusterReader;
  config: ServiceAccountTokenConfig;
  /** Virtual time, ms. */
  now: number;
  /** Token id; derived from the token's contents when absent. */
  jti?: string;
}

/** Answers a TokenRequest for ServiceAccount `namespace/name` (both from the URL). */
export function tokenRequest(body: KObject, namespace: string, name: string, ctx: TokenRequestContext): ReviewResult {
  if (!namespace) return { ok: false, status: status.badRequest('namespace is required') };
  const meta = body.metadata ?? {};
  if (meta.name && meta.name !== name) {
    return { ok: false, status: status.invalid(GK, name, [fieldErr.invalid('metadata.name', meta.name, 'must match the service account name if specified')]) };
  }
  if (meta.namespace && meta.namespace !== namespace) {
    return { ok: false, status: status.invalid(GK, name, [fieldErr.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]) };
  }
  const sa = ctx.cluster.get('', 'serviceaccounts', namespace, name);
  if (!sa) return { ok: false, status: status.notFound({ group: '', resource: 'serviceaccounts' }, name) };

  const spec = obj(body.spec);
  const audiences = Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences.filter((a): a is string => typeof a === 'string') : [...ctx.config.apiAudiences];
  const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : DEFAULT_TOKEN_EXPIRATION_SECONDS;
  const errs: FieldError[] = [];
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) errs.push(fieldErr.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) errs.push(fieldErr.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  if (errs.length) return { ok: false, status: status.invalid(GK, '', errs) };

  let bound: BoundObject | undefined;
  const ref = spec.boundObjectRef === undefined || spec.boundObjectRef === null ? undefined : obj(spec.boundObjectRef);
  if (ref) {
    const kind = s(ref.kind);
    const group = s(ref.apiVersion).includes('/') ? s(ref.apiVersion).split('/')[0]! : '';
    const refName = s(ref.name);
    let uid = '';
    if (group === '' && kind === 'Pod') {
      const pod = ctx.cluster.get('', 'pods', namespace, refName);
      if (!pod) return { ok: false, status: status.notFound({ group: '', resource: 'pods' }, refName) };
      if (s(obj(pod.spec).serviceAccountName) !== name) {
        return { ok: false, status: status.badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`) };
      }
      const nodeName = s(obj(pod.spec).nodeName);
      const node = nodeName ? ctx.cluster.get('', 'nodes', undefined, nodeName) : undefined;
      bound = node ? { kind: 'Pod', pod, node } : { kind: 'Pod', pod };
      uid = pod.metadata.uid ?? '';
    } else if (group === '' && kind === 'Node') {
      const node = ctx.cluster.get('', 'nodes', undefined, refName);
      if (!node) return { ok: false, status: status.notFound({ group: '', resource: 'nodes' }, refName) };
      bound = { kind: 'Node', node };
      uid = node.metadata.uid ?? '';
    } else if (group === '' && kind === 'Secret') {
      const secret = ctx.cluster.get('', 'secrets', namespace, refName);
      if (!secret) return { ok: false, status: status.notFound({ group: '', resource: 'secrets' }, refName) };
      bound = { kind: 'Secret', secret };
      uid = secret.metadata.uid ?? '';
    } else {
      return { ok: false, status: status.badRequest(`cannot bind token for serviceaccount "${name}" to object of kind "${kind}"`) };
    }
    if (s(ref.uid) && s(ref.uid) !== uid) {
      return {
        ok: false,
        status: status.conflict({ group, resource: kind }, refName, `the UID in the bound object reference (${s(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`),
      };
    }
  }

  // The one-year extension applies only to tokens for the API server's own audiences.
  const kubeAudiences = audiences.every((a) => ctx.config.apiAudiences.includes(a));
  const config = kubeAudiences ? ctx.config : { ...ctx.config, extendExpiration: false };
  const issued = issueBoundToken(config, { serviceAccount: sa, audiences, expirationSeconds, now: ctx.now, ...(bound ? { boundObject: bound } : {}), ...(ctx.jti ? { jti: ctx.jti } : {}) });

  // TokenRequestSpec's members have no omitempty: an unbound token says boundObjectRef: null.
  const boundRef = ref ? { kind: ref.kind, apiVersion: ref.apiVersion, name: ref.name, ...(ref.uid ? { uid: ref.uid } : {}) } : null;
  const outSpec: Obj = { audiences, expirationSeconds, boundObjectRef: boundRef };
  return {
    ok: true,
    object: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace, creationTimestamp: rfc3339(ctx.now) },
      spec: outSpec,
      status: { token: issued.token, expirationTimestamp: rfc3339(issued.expirationTimestamp) },
    },
  };
}
