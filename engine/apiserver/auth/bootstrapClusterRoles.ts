// The default ClusterRoles and ClusterRoleBindings of a v1.32 API server
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go, with the
// feature gates at their v1.32 defaults). Facts transcribed as our own data.
import type { KObject } from '../../apimachinery/types';
import {
  READ,
  READ_UPDATE,
  READ_WRITE,
  WRITE,
  clusterRole,
  clusterRoleBinding,
  eventsRule,
  group,
  rule,
  serviceAccount,
  urlRule,
  user,
} from './bootstrapBuilders';
import type { PolicyRule } from './rbacTypes';
import { ALL_AUTHENTICATED, ALL_SERVICE_ACCOUNTS_GROUP, ALL_UNAUTHENTICATED, KUBE_CONTROLLER_MANAGER, KUBE_PROXY, KUBE_SCHEDULER, MONITORING_GROUP, SYSTEM_PRIVILEGED_GROUP } from './user';

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const core = '';
const apps = 'apps';
const authn = 'authentication.k8s.io';
const authz = 'authorization.k8s.io';
const autoscaling = 'autoscaling';
const batch = 'batch';
const certificates = 'certificates.k8s.io';
const coordination = 'coordination.k8s.io';
const discovery = 'discovery.k8s.io';
const events = 'events.k8s.io';
const extensions = 'extensions';
const networking = 'networking.k8s.io';
const policy = 'policy';
const rbac = 'rbac.authorization.k8s.io';
const storage = 'storage.k8s.io';

/** NodeRules(): what a kubelet may do; also the Node authorizer's static rules. */
export function nodeRules(): PolicyRule[] {
  return [
    // Non-mutating checks of API access.
    rule(['create'], [authn], ['tokenreviews']),
    rule(['create'], [authz], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    // Service env vars for containers.
    rule(READ, [core], ['services']),
    // Register the Node and report its status (NodeRestriction keeps a node to its own object).
    rule(['create', 'get', 'list', 'watch'], [core], ['nodes']),
    rule(['update', 'patch'], [core], ['nodes/status']),
    rule(['update', 'patch'], [core], ['nodes']),
    rule(['create', 'update', 'patch'], [core], ['events']),
    rule(READ, [core], ['pods']),
    // Mirror pods, pod status and evictions, restricted to the node's own pods by NodeRestriction.
    rule(['create', 'delete'], [core], ['pods']),
    rule(['update', 'patch'], [core], ['pods/status']),
    rule(['create'], [core], ['pods/eviction']),
    // Secrets and ConfigMaps: the Node authorizer limits these to what the node's pods reference.
    rule(READ, [core], ['secrets', 'configmaps']),
    rule(['get'], [core], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [core], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [coordination], ['leases']),
    rule(['get'], [storage], ['volumeattachments']),
    rule(['create'], [core], ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], [core], ['persistentvolumeclaims/status']),
    rule(READ, [storage], ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [storage], ['csinodes']),
    rule(READ, ['node.k8s.io'], ['runtimeclasses']),
  ];
}

function aggregateToAdminRules(): PolicyRule[] {
  return [rule(['create'], [authz], ['localsubjectaccessreviews']), rule(READ_WRITE, [rbac], ['roles', 'rolebindings'])];
}

function aggregateToEditRules(): PolicyRule[] {
  return [
    // Read on escalating resources.
    rule(READ, [core], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
    rule(['impersonate'], [core], ['serviceaccounts']),
    rule(WRITE, [core], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
    rule(['create'], [core], ['pods/eviction']),
    rule(WRITE, [core], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
    rule(['create'], [core], ['serviceaccounts/token']),
    rule(WRITE, [apps], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
    rule(WRITE, [autoscaling], ['horizontalpodautoscalers']),
    rule(WRITE, [batch], ['jobs', 'cronjobs']),
    rule(WRITE, [extensions], ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies']),
    rule(WRITE, [policy], ['poddisruptionbudgets']),
    rule(WRITE, [networking], ['networkpolicies', 'ingresses']),
    rule(READ_WRITE, [coordination], ['leases']),
  ];
}

function aggregateToViewRules(): PolicyRule[] {
  return [
    rule(READ, [core], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
    rule(READ, [core], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
    // Read on namespaces at namespace scope shows which namespaces one may use.
    rule(READ, [core], ['namespaces']),
    rule(READ, [discovery], ['endpointslices']),
    rule(READ, [apps], [
      'controllerrevisions',
      'statefulsets', 'statefulsets/status', 'statefulsets/scale',
      'daemonsets', 'daemonsets/status',
      'deployments', 'deployments/status', 'deployments/scale',
      'replicasets', 'replicasets/status', 'replicasets/scale',
    ]),
    rule(READ, [autoscaling], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    rule(READ, [batch], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
    rule(READ, [extensions], [
      'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
      'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status',
      'replicationcontrollers/scale', 'networkpolicies',
    ]),
    rule(READ, [policy], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    rule(READ, [networking], ['ingresses', 'ingresses/status', 'networkpolicies']),
  ];
}

function kubeSchedulerRules(): PolicyRule[] {
  return [
    eventsRule(),
    // Leader election.
    rule(['create'], [coordination], ['leases']),
    rule(['get', 'update'], [coordination], ['leases'], ['kube-scheduler']),
    // Fundamental resources.
    rule(READ, [core], ['nodes']),
    rule(['get', 'list', 'watch', 'delete'], [core], ['pods']),
    rule(['create'], [core], ['pods/binding', 'bindings']),
    rule(['patch', 'update'], [core], ['pods/status']),
    // Things that select pods.
    rule(READ, [core], ['services', 'replicationcontrollers']),
    rule(READ, [apps, extensions], ['replicasets']),
    rule(READ, [apps], ['statefulsets']),
    // Things pods use or that apply to them.
    rule(READ, [policy], ['poddisruptionbudgets']),
    rule(READ, [core], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['create'], [authn], ['tokenreviews']),
    rule(['create'], [authz], ['subjectaccessreviews']),
    rule(READ, [storage], ['csinodes']),
    rule(READ, [core], ['namespaces']),
    rule(READ, [storage], ['csidrivers']),
    rule(READ, [storage], ['csistoragecapacities']),
  ];
}

function kubeControllerManagerRules(): PolicyRule[] {
  return [
    eventsRule(),
    rule(['create'], [coordination], ['leases']),
    rule(['get', 'update'], [coordination], ['leases'], ['kube-controller-manager']),
    // Enough to create each controller's own ServiceAccount identity and its token.
    rule(['create'], [core], ['secrets', 'serviceaccounts']),
    rule(['delete'], [core], ['secrets']),
    rule(['get'], [core], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
    rule(['update'], [core], ['secrets', 'serviceaccounts']),
    rule(['create'], [authn], ['tokenreviews']),
    rule(['create'], [authz], ['subjectaccessreviews']),
    // Shared informers over everything.
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['create'], [core], ['serviceaccounts/token']),
  ];
}

const approver = (signer: string) => [rule(['approve'], [certificates], ['signers'], [signer])];

export function bootstrapClusterRoles(): KObject[] {
  return [
    // A root role that can do absolutely anything.
    clusterRole({ name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])] }),
    // Just enough to learn whether the server is ready and which API versions it serves.
    clusterRole({
      name: 'system:discovery',
      rules: [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])],
    }),
    clusterRole({
      name: 'system:monitoring',
      rules: [urlRule(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])],
    }),
    // What a "normal" user needs to learn about themselves.
    clusterRole({
      name: 'system:basic-user',
      rules: [rule(['create'], [authz], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']), rule(['create'], [authn], ['selfsubjectreviews'])],
    }),
    clusterRole({ name: 'system:public-info-viewer', rules: [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])] }),
    // admin = edit + granting permissions; edit = all user-level actions; view = read-only on non-escalating resources.
    clusterRole({ name: 'admin', aggregateFrom: AGGREGATE_TO_ADMIN }),
    clusterRole({ name: 'edit', aggregateFrom: AGGREGATE_TO_EDIT, labels: { [AGGREGATE_TO_ADMIN]: 'true' } }),
    clusterRole({ name: 'view', aggregateFrom: AGGREGATE_TO_VIEW, labels: { [AGGREGATE_TO_EDIT]: 'true' } }),
    clusterRole({ name: 'system:aggregate-to-admin', labels: { [AGGREGATE_TO_ADMIN]: 'true' }, rules: aggregateToAdminRules() }),
    clusterRole({ name: 'system:aggregate-to-edit', labels: { [AGGREGATE_TO_EDIT]: 'true' }, rules: aggregateToEditRules() }),
    clusterRole({ name: 'system:aggregate-to-view', labels: { [AGGREGATE_TO_VIEW]: 'true' }, rules: aggregateToViewRules() }),
    clusterRole({
      name: 'system:heapster',
      rules: [rule(READ, [core], ['events', 'pods', 'nodes', 'namespaces']), rule(READ, [extensions], ['deployments'])],
    }),
    clusterRole({ name: 'system:node', rules: nodeRules() }),
    clusterRole({
      name: 'system:node-problem-detector',
      rules: [rule(['get'], [core], ['nodes']), rule(['patch'], [core], ['nodes/status']), eventsRule()],
    }),
    clusterRole({
      name: 'system:kubelet-api-admin',
      rules: [
        // The kubelet API is authorized through subresources of nodes.
        rule(READ, [core], ['nodes']),
        rule(['proxy'], [core], ['nodes']),
        rule(['*'], [core], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
      ],
    }),
    clusterRole({ name: 'system:node-bootstrapper', rules: [rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests'])] }),
    clusterRole({
      name: 'system:auth-delegator',
      rules: [rule(['create'], [authn], ['tokenreviews']), rule(['create'], [authz], ['subjectaccessreviews'])],
    }),
    clusterRole({ name: 'system:kube-aggregator', rules: [rule(READ, [core], ['services', 'endpoints'])] }),
    clusterRole({ name: 'system:kube-controller-manager', rules: kubeControllerManagerRules() }),
    clusterRole({ name: 'system:kube-dns', rules: [rule(['list', 'watch'], [core], ['endpoints', 'services'])] }),
    clusterRole({
      name: 'system:persistent-volume-provisioner',
      rules: [
        rule(['get', 'list', 'watch', 'create', 'delete'], [core], ['persistentvolumes']),
        // update lets a provisioner annotate the claim it works on.
        rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumeclaims']),
        rule(READ, [storage], ['storageclasses']),
        // Watching events tells a provisioner whether its PV was rejected.
        rule(['watch'], [core], ['events']),
        eventsRule(),
      ],
    }),
    clusterRole({ name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [rule(['create'], [certificates], ['certificatesigningrequests/nodeclient'])] }),
    clusterRole({ name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [rule(['create'], [certificates], ['certificatesigningrequests/selfnodeclient'])] }),
    clusterRole({ name: 'system:certificates.k8s.io:legacy-unknown-approver', rules: approver('kubernetes.io/legacy-unknown') }),
    clusterRole({ name: 'system:certificates.k8s.io:kubelet-serving-approver', rules: approver('kubernetes.io/kubelet-serving') }),
    clusterRole({ name: 'system:certificates.k8s.io:kube-apiserver-client-approver', rules: approver('kubernetes.io/kube-apiserver-client') }),
    clusterRole({ name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', rules: approver('kubernetes.io/kube-apiserver-client-kubelet') }),
    clusterRole({ name: 'system:service-account-issuer-discovery', rules: [urlRule(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])] }),
    clusterRole({
      name: 'system:node-proxier',
      rules: [
        rule(['list', 'watch'], [core], ['services', 'endpoints']),
        rule(READ, [core], ['nodes']),
        eventsRule(),
        rule(['list', 'watch'], [discovery], ['endpointslices']),
      ],
    }),
    clusterRole({ name: 'system:kube-scheduler', rules: kubeSchedulerRules() }),
    clusterRole({
      name: 'system:volume-scheduler',
      rules: [
        rule(READ_UPDATE, [core], ['persistentvolumes']),
        rule(READ, [storage], ['storageclasses']),
        rule(READ_UPDATE, [core], ['persistentvolumeclaims']),
      ],
    }),
  ];
}

export function bootstrapClusterRoleBindings(): KObject[] {
  return [
    clusterRoleBinding('cluster-admin', [group(SYSTEM_PRIVILEGED_GROUP)]),
    clusterRoleBinding('system:monitoring', [group(MONITORING_GROUP)]),
    clusterRoleBinding('system:discovery', [group(ALL_AUTHENTICATED)]),
    clusterRoleBinding('system:basic-user', [group(ALL_AUTHENTICATED)]),
    clusterRoleBinding('system:public-info-viewer', [group(ALL_AUTHENTICATED), group(ALL_UNAUTHENTICATED)]),
    clusterRoleBinding('system:node-proxier', [user(KUBE_PROXY)]),
    clusterRoleBinding('system:kube-controller-manager', [user(KUBE_CONTROLLER_MANAGER)]),
    clusterRoleBinding('system:kube-dns', [serviceAccount('kube-system', 'kube-dns')]),
    clusterRoleBinding('system:kube-scheduler', [user(KUBE_SCHEDULER)]),
    clusterRoleBinding('system:volume-scheduler', [user(KUBE_SCHEDULER)]),
    // Deprecated since the Node authorizer (1.7): kept, with no subjects, so reconciliation can tighten it.
    clusterRoleBinding('system:node', []),
    // Every in-cluster workload may read the OIDC discovery documents.
    clusterRoleBinding('system:service-account-issuer-discovery', [group(ALL_SERVICE_ACCOUNTS_GROUP)]),
  ];
}
