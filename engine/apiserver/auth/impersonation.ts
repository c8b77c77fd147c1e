// User impersonation (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go):
// `Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid` and
// `Impersonate-Extra-<key>` each need verb `impersonate` on users / groups /
// serviceaccounts / uids / userextras; the request then runs as the new user.
import { status } from '../../apimachinery/status';
import type { Status } from '../../apimachinery/types';
import type { AuthorizationAttributes, ClusterReader, UserInfo } from '../types';
import { headerValues, type Headers } from './authn';
import { authorize } from './authorizer';
import { forbiddenStatus } from './forbidden';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, makeServiceAccountUsername, serviceAccountGroups, splitServiceAccountUsername } from './user';

export const IMPERSONATE_USER_HEADER = 'impersonate-user';
export const IMPERSONATE_GROUP_HEADER = 'impersonate-group';
export const IMPERSONATE_UID_HEADER = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

/** One thing asked for, as upstream's v1.ObjectReference list. */
export type ImpersonationRequest =
  | { kind: 'User'; name: string }
  | { kind: 'ServiceAccount'; namespace: string; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'UserExtra'; key: string; value: string }
  | { kind: 'UID'; uid: string };

export type ImpersonationResult =
  /** No impersonation headers: the request goes on as the authenticated user. */
  | { type: 'none' }
  | { type: 'impersonated'; user: UserInfo; requestor: UserInfo }
  /** 403 for the first request the requestor may not make. */
  | { type: 'forbidden'; status: Status; attributes: AuthorizationAttributes }
  /**
   * Groups, extras or a UID without a user. Upstream answers 500 in plain text
   * (responsewriters.InternalError): `text` is that body; `status` the same as a Status for callers that want one.
   */
  | { type: 'error'; status: Status; text: string };

/**
 * Multi-valued headers: arrays stay apart; a single string is split at commas,
 * as an HTTP stack that joined repeated headers would have done.
 */
function multiValues(headers: Headers, name: string): string[] {
  const out: string[] = [];
  for (const k in headers) {
    const v = headers[k];
    if (v === undefined || k.length !== name.length || (k !== name && k.toLowerCase() !== name)) continue;
    if (typeof v === 'string') out.push(...v.split(',').map((x) => x.trim()).filter((x) => x !== ''));
    else out.push(...v);
  }
  return out;
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Go's %v of the v1.ObjectReference list, for the 500 message. */
function describeRequests(reqs: readonly ImpersonationRequest[]): string {
  const one = (r: ImpersonationRequest): string => {
    // Kind Namespace Name UID APIVersion ResourceVersion FieldPath
    switch (r.kind) {
      case 'User':
      case 'Group':
        return `{${r.kind}  ${r.name}    }`;
      case 'ServiceAccount':
        return `{ServiceAccount ${r.namespace} ${r.name}    }`;
      case 'UserExtra':
        return `{UserExtra  ${r.value}  authentication.k8s.io/v1  ${r.key}}`;
      case 'UID':
        return `{UID  ${r.uid}  authentication.k8s.io/v1  }`;
    }
  };
  return `[${reqs.map(one).join(' ')}]`;
}

/** buildImpersonationRequests: groups, extras or a UID without a user is an error. */
export function buildImpersonationRequests(headers: Headers): { requests: ImpersonationRequest[] } | { error: string } {
  const requests: ImpersonationRequest[] = [];
  const requestedUser = headerValues(headers, IMPERSONATE_USER_HEADER)[0] ?? '';
  if (requestedUser) {
    const sa = splitServiceAccountUsername(requestedUser);
    requests.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name } : { kind: 'User', name: requestedUser });
  }
  const groups = multiValues(headers, IMPERSONATE_GROUP_HEADER);
  for (const g of groups) requests.push({ kind: 'Group', name: g });
  const extraHeaders = Object.keys(headers)
    .filter((k) => k.toLowerCase().startsWith(IMPERSONATE_EXTRA_PREFIX))
    .sort();
  for (const h of extraHeaders) {
    const key = unescapeExtraKey(h.toLowerCase().slice(IMPERSONATE_EXTRA_PREFIX.length));
    for (const value of multiValues(headers, h.toLowerCase())) requests.push({ kind: 'UserExtra', key, value });
  }
  const uid = headerValues(headers, IMPERSONATE_UID_HEADER)[0] ?? '';
  if (uid) requests.push({ kind: 'UID', uid });
  if ((groups.length || extraHeaders.length || uid) && !requestedUser) return { error: `requested ${describeRequests(requests)} without impersonating a user` };
  return { requests };
}

function attributesFor(requestor: UserInfo, r: ImpersonationRequest): AuthorizationAttributes {
  const base = { user: requestor, verb: 'impersonate', isResourceRequest: true };
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'serviceaccounts', namespace: r.namespace, name: r.name };
    case 'User':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'users', name: r.name };
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: '', resource: 'groups', name: r.name };
    case 'UserExtra':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'userextras', subresource: r.key, name: r.value };
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids', name: r.uid };
  }
}

/** Whether any header is an Impersonate-* one (nearly every request has none: nothing to build). */
function hasImpersonationHeader(headers: Headers): boolean {
  for (const k in headers) if (k.length > 12 && (k.charCodeAt(0) | 32) === 105 /* i */ && k.toLowerCase().startsWith('impersonate-')) return true;
  return false;
}

const NO_IMPERSONATION: ImpersonationResult = Object.freeze({ type: 'none' });

/** WithImpersonation: authorize each request in turn, then build the impersonated user. */
export function impersonate(headers: Headers, requestor: UserInfo, cluster: ClusterReader, requestURI = ''): ImpersonationResult {
  if (!hasImpersonationHeader(headers)) return NO_IMPERSONATION;
  const built = buildImpersonationRequests(headers);
  if ('error' in built) return { type: 'error', status: status.internal(built.error), text: `Internal Server Error: ${JSON.stringify(requestURI)}: ${built.error}` };
  if (built.requests.length === 0) return { type: 'none' };

  // Groups given explicitly are the authority, including system:authenticated.
  const groupsSpecified = multiValues(headers, IMPERSONATE_GROUP_HEADER).length > 0;
  let username = '';
  let groups: string[] = [];
  let uid = '';
  const extra: Record<string, string[]> = {};
  for (const r of built.requests) {
    const attrs = attributesFor(requestor, r);
    switch (r.kind) {
      case 'ServiceAccount':
        username = makeServiceAccountUsername(r.namespace, r.name);
        if (!groupsSpecified) groups = serviceAccountGroups(r.namespace);
        break;
      case 'User':
        username = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.key] ??= []).push(r.value);
        break;
      case 'UID':
        uid = r.uid;
        break;
    }
    const decision = authorize(attrs, cluster);
    if (decision.decision !== 'Allow') return { type: 'forbidden', status: forbiddenStatus(attrs, decision.reason), attributes: attrs };
  }

  if (username !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups = [...groups, ALL_AUTHENTICATED];
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups = [...groups, ALL_UNAUTHENTICATED];
  }
  const user: UserInfo = { username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return { type: 'impersonated', user, requestor };
}
