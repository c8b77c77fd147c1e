// Well-known users and groups (k8s.io/apiserver/pkg/authentication/user/user.go)
// and the service-account naming scheme (.../authentication/serviceaccount/util.go).
import type { UserInfo } from '../types';

export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const NODES_GROUP = 'system:nodes';
export const MONITORING_GROUP = 'system:monitoring';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ANONYMOUS = 'system:anonymous';
export const API_SERVER_USER = 'system:apiserver';
export const KUBE_PROXY = 'system:kube-proxy';
export const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
export const KUBE_SCHEDULER = 'system:kube-scheduler';
export const NODE_USER_PREFIX = 'system:node:';

export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';

/** Extra keys a bound service-account token puts on the user (serviceaccount/util.go). */
export const EXTRA_POD_NAME = 'authentication.kubernetes.io/pod-name';
export const EXTRA_POD_UID = 'authentication.kubernetes.io/pod-uid';
export const EXTRA_NODE_NAME = 'authentication.kubernetes.io/node-name';
export const EXTRA_NODE_UID = 'authentication.kubernetes.io/node-uid';
export const EXTRA_CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

export function makeServiceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;
}

/** serviceaccount.SplitUsername: undefined unless `system:serviceaccount:NS:NAME` with both parts non-empty. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

export function serviceAccountGroups(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNT_GROUP_PREFIX}${namespace}`];
}

/** nodeidentifier.NodeIdentity: a node is `system:node:NAME` in group system:nodes. */
export function nodeIdentity(user: UserInfo): { isNode: boolean; nodeName: string } {
  if (!user.username.startsWith(NODE_USER_PREFIX)) return { isNode: false, nodeName: '' };
  if (!user.groups.includes(NODES_GROUP)) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.username.slice(NODE_USER_PREFIX.length) };
}

export function anonymousUser(): UserInfo {
  return { username: ANONYMOUS, groups: [ALL_UNAUTHENTICATED] };
}
