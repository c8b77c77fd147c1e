// The 403 an authorization failure produces: responsewriters.Forbidden and
// forbiddenMessage (k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go)
// wrapped in apierrors.NewForbidden.
import { status } from '../../apimachinery/status';
import type { Status } from '../../apimachinery/types';
import type { AuthorizationAttributes, AuthorizationResult } from '../types';

/**
 * `User "alice" cannot create resource "pods" in API group "" in the namespace "default"`;
 * the resource carries its subresource (`pods/log`), cluster-scoped requests say
 * `at the cluster scope`, non-resource requests `cannot get path "/foo"`. The name is never printed here.
 */
export function forbiddenMessage(attrs: AuthorizationAttributes): string {
  const username = attrs.user.username;
  if (!attrs.isResourceRequest) return `User ${goQuote(username)} cannot ${attrs.verb} path ${goQuote(attrs.path ?? '')}`;
  let resource = attrs.resource ?? '';
  if (attrs.subresource) resource = `${resource}/${attrs.subresource}`;
  const group = attrs.apiGroup ?? '';
  if (attrs.namespace) {
    return `User ${goQuote(username)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(group)} in the namespace ${goQuote(attrs.namespace)}`;
  }
  return `User ${goQuote(username)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(group)} at the cluster scope`;
}

/** Go's %q; the same as JSON quoting for the printable names that reach these messages. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** The sanitizer: messages must not look like HTML. Quotes stay. */
function sanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The message plus `: <reason>` when the authorizers gave one. */
export function forbiddenText(attrs: AuthorizationAttributes, reason: string): string {
  const msg = sanitize(forbiddenMessage(attrs));
  return reason ? `${msg}: ${reason}` : msg;
}

/**
 * The Status written for a denied request: `pods "web" is forbidden: User ...`;
 * without a name `pods is forbidden: ...`; non-resource paths `forbidden: User ...`.
 */
export function forbiddenStatus(attrs: AuthorizationAttributes, result: Pick<AuthorizationResult, 'reason'> | string = ''): Status {
  const reason = typeof result === 'string' ? result : result.reason;
  const why = forbiddenText(attrs, reason);
  const resource = attrs.isResourceRequest ? attrs.resource ?? '' : '';
  const group = attrs.isResourceRequest ? attrs.apiGroup ?? '' : '';
  // apierrors.NewForbidden: an empty GroupResource means no qualifier at all.
  if (!resource && !group) return status.forbiddenPath(why);
  return status.forbidden({ group, resource }, attrs.name ?? '', why);
}
