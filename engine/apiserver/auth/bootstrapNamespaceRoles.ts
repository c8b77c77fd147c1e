// Roles and RoleBindings bootstrapped into kube-system and kube-public
// (bootstrappolicy/namespace_policy.go).
import type { KObject } from '../../apimachinery/types';
import { READ, eventsRule, role, roleBinding, rule, serviceAccount, user } from './bootstrapBuilders';
import { CONTROLLER_ROLE_PREFIX } from './bootstrapControllerRoles';
import { KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER } from './user';

const SYSTEM = 'kube-system';
const PUBLIC = 'kube-public';
const leaderLocking = [
  rule(['get', 'watch', 'list', 'create', 'update'], ['coordination.k8s.io'], ['leases']),
  rule(['get', 'watch', 'list', 'create', 'update'], ['coordination.k8s.io'], ['leasecandidates']),
];

export function bootstrapNamespaceRoles(): KObject[] {
  return [
    // The configmap holding the front-proxy / client-CA configuration extension API servers need.
    role(SYSTEM, 'extension-apiserver-authentication-reader', [rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication'])]),
    role(SYSTEM, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [rule(READ, [''], ['secrets'])]),
    // Deprecated since 1.10, still created.
    role(SYSTEM, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [rule(['create', 'get', 'list', 'watch'], [''], ['configmaps'])]),
    role(SYSTEM, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [rule(['get', 'list', 'watch', 'delete'], [''], ['secrets']), eventsRule()]),
    role(SYSTEM, 'system::leader-locking-kube-controller-manager', leaderLocking),
    role(SYSTEM, 'system::leader-locking-kube-scheduler', leaderLocking),
    role(PUBLIC, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [
      rule(READ, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      eventsRule(),
    ]),
  ];
}

export function bootstrapNamespaceRoleBindings(): KObject[] {
  return [
    roleBinding(SYSTEM, 'extension-apiserver-authentication-reader', [user(KUBE_CONTROLLER_MANAGER), user(KUBE_SCHEDULER)], 'system::extension-apiserver-authentication-reader'),
    roleBinding(SYSTEM, 'system::leader-locking-kube-controller-manager', [
      user(KUBE_CONTROLLER_MANAGER),
      serviceAccount(SYSTEM, 'kube-controller-manager'),
      serviceAccount(SYSTEM, 'leader-election-controller'),
    ]),
    roleBinding(SYSTEM, 'system::leader-locking-kube-scheduler', [user(KUBE_SCHEDULER), serviceAccount(SYSTEM, 'kube-scheduler')]),
    roleBinding(SYSTEM, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [serviceAccount(SYSTEM, 'bootstrap-signer')]),
    roleBinding(SYSTEM, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [serviceAccount(SYSTEM, 'cloud-provider')]),
    roleBinding(SYSTEM, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [serviceAccount(SYSTEM, 'token-cleaner')]),
    roleBinding(PUBLIC, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [serviceAccount(SYSTEM, 'bootstrap-signer')]),
  ];
}
