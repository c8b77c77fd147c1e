// The default RBAC policy a v1.32 kube-apiserver reconciles at start
// (pkg/registry/rbac/rest/storage_rbac.go's PostStartHook): cluster roles and
// bindings, the controllers' roles and bindings, then the namespaced ones.
import type { KObject } from '../../apimachinery/types';
import { aggregateClusterRoles } from './aggregation';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrapClusterRoles';
import { bootstrapControllerRoleBindings, bootstrapControllerRoles } from './bootstrapControllerRoles';
import { bootstrapNamespaceRoleBindings, bootstrapNamespaceRoles } from './bootstrapNamespaceRoles';

export interface BootstrapPolicyOptions {
  /**
   * Fill admin/edit/view with their aggregated rules, as the clusterrole-aggregation
   * controller does moments after start (default true). False gives the objects
   * exactly as the apiserver first writes them (empty rules).
   */
  aggregated?: boolean;
}

/** Every bootstrap RBAC object, in the order the apiserver reconciles them. Fresh objects on each call. */
export function bootstrapPolicy(options: BootstrapPolicyOptions = {}): KObject[] {
  const clusterRoles = [...bootstrapClusterRoles(), ...bootstrapControllerRoles()];
  return [
    ...(options.aggregated === false ? clusterRoles : aggregateClusterRoles(clusterRoles)),
    ...bootstrapClusterRoleBindings(),
    ...bootstrapControllerRoleBindings(),
    ...bootstrapNamespaceRoles(),
    ...bootstrapNamespaceRoleBindings(),
  ];
}
