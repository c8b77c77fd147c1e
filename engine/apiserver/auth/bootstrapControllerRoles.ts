// The ClusterRoles kube-controller-manager's controllers run under
// (bootstrappolicy/controller_policy.go): `system:controller:NAME`, each bound
// to the ServiceAccount kube-system/NAME. Roles behind feature gates that are
// off by default in v1.32 (DRA, MultiCIDRServiceAllocator, VolumeAttributesClass,
// ClusterTrustBundle, StorageVersionAPI, SELinuxChangePolicy...) are left out.
import type { KObject } from '../../apimachinery/types';
import { READ, clusterRole, clusterRoleBinding, eventsRule, rule, serviceAccount } from './bootstrapBuilders';
import type { PolicyRule } from './rbacTypes';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

const core = '';
const apps = 'apps';
const extensions = 'extensions';
const batch = 'batch';
const policy = 'policy';
const storage = 'storage.k8s.io';
const discovery = 'discovery.k8s.io';
const certificates = 'certificates.k8s.io';
const autoscaling = 'autoscaling';

/** Controller name (the ServiceAccount's name) → its rules, in upstream's order. */
function controllerRules(): [string, PolicyRule[]][] {
  return [
    [
      'attachdetach-controller',
      [
        rule(['list', 'watch'], [core], ['persistentvolumes', 'persistentvolumeclaims']),
        rule(READ, [core], ['nodes']),
        rule(['patch', 'update'], [core], ['nodes/status']),
        rule(['list', 'watch'], [core], ['pods']),
        eventsRule(),
        rule(['get', 'create', 'delete', 'list', 'watch'], [storage], ['volumeattachments']),
        rule(READ, [storage], ['csidrivers']),
        rule(READ, [storage], ['csinodes']),
      ],
    ],
    // Must be able to write any rules into aggregated ClusterRoles.
    ['clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], ['rbac.authorization.k8s.io'], ['clusterroles'])]],
    [
      'cronjob-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [batch], ['cronjobs']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [batch], ['jobs']),
        rule(['update'], [batch], ['cronjobs/status']),
        rule(['update'], [batch], ['cronjobs/finalizers']),
        rule(['list', 'watch', 'delete'], [core], ['pods']),
        eventsRule(),
      ],
    ],
    [
      'daemon-set-controller',
      [
        rule(READ, [extensions, apps], ['daemonsets']),
        rule(['update'], [extensions, apps], ['daemonsets/status']),
        rule(['update'], [extensions, apps], ['daemonsets/finalizers']),
        rule(['list', 'watch'], [core], ['nodes']),
        rule(['list', 'watch', 'create', 'delete', 'patch'], [core], ['pods']),
        rule(['create'], [core], ['pods/binding']),
        rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [apps], ['controllerrevisions']),
        eventsRule(),
      ],
    ],
    [
      'deployment-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [extensions, apps], ['deployments']),
        rule(['update'], [extensions, apps], ['deployments/status']),
        rule(['update'], [extensions, apps], ['deployments/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [apps, extensions], ['replicasets']),
        // update on pods is a leftover upstream has kept (kubernetes#36897).
        rule(['get', 'list', 'watch', 'update'], [core], ['pods']),
        eventsRule(),
      ],
    ],
    [
      'disruption-controller',
      [
        rule(READ, [extensions, apps], ['deployments']),
        rule(READ, [apps, extensions], ['replicasets']),
        rule(READ, [core], ['replicationcontrollers']),
        rule(READ, [policy], ['poddisruptionbudgets']),
        rule(READ, [apps], ['statefulsets']),
        rule(['update'], [policy], ['poddisruptionbudgets/status']),
        rule(['patch', 'update'], [core], ['pods/status']),
        rule(['get'], ['*'], ['*/scale']),
        eventsRule(),
      ],
    ],
    [
      'endpoint-controller',
      [
        rule(READ, [core], ['services', 'pods']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [core], ['endpoints']),
        rule(['create'], [core], ['endpoints/restricted']),
        eventsRule(),
      ],
    ],
    [
      'endpointslice-controller',
      [
        rule(READ, [core], ['services', 'pods', 'nodes']),
        // Setting blockOwnerDeletion on an owner reference to the Service needs update on its finalizers.
        rule(['update'], [core], ['services/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [discovery], ['endpointslices']),
        eventsRule(),
      ],
    ],
    [
      'endpointslicemirroring-controller',
      [
        rule(READ, [core], ['services', 'endpoints']),
        rule(['update'], [core], ['services/finalizers']),
        rule(['update'], [core], ['endpoints/finalizers']),
        rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [discovery], ['endpointslices']),
        eventsRule(),
      ],
    ],
    [
      'expand-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'patch'], [core], ['persistentvolumes']),
        rule(['update', 'patch'], [core], ['persistentvolumeclaims/status']),
        rule(READ, [core], ['persistentvolumeclaims']),
        eventsRule(),
        rule(['get'], [core], ['services']),
      ],
    ],
    [
      'ephemeral-volume-controller',
      [
        rule(READ, [core], ['pods']),
        rule(['update'], [core], ['pods/finalizers']),
        rule(['get', 'list', 'watch', 'create'], [core], ['persistentvolumeclaims']),
        eventsRule(),
      ],
    ],
    // Needs list/watch, selective gets and updates on any resource.
    ['generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule()]],
    [
      'horizontal-pod-autoscaler',
      [
        rule(READ, [autoscaling], ['horizontalpodautoscalers']),
        rule(['update'], [autoscaling], ['horizontalpodautoscalers/status']),
        rule(['get', 'update'], ['*'], ['*/scale']),
        rule(['list', 'watch'], [core], ['pods']),
        rule(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
        rule(READ, ['custom.metrics.k8s.io'], ['*']),
        rule(READ, ['external.metrics.k8s.io'], ['*']),
        eventsRule(),
      ],
    ],
    [
      'job-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'patch'], [batch], ['jobs']),
        rule(['update'], [batch], ['jobs/status']),
        rule(['update'], [batch], ['jobs/finalizers']),
        rule(['list', 'watch', 'create', 'delete', 'patch'], [core], ['pods']),
        eventsRule(),
      ],
    ],
    [
      'namespace-controller',
      [
        rule(['get', 'list', 'watch', 'delete'], [core], ['namespaces']),
        rule(['update'], [core], ['namespaces/finalize', 'namespaces/status']),
        rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
      ],
    ],
    [
      'node-controller',
      [
        rule(['get', 'list', 'watch', 'update', 'delete', 'patch'], [core], ['nodes']),
        rule(['patch', 'update'], [core], ['nodes/status']),
        // Taint-based eviction deletes pods and marks them.
        rule(['patch', 'update'], [core], ['pods/status']),
        rule(['list', 'watch', 'get', 'delete'], [core], ['pods']),
        eventsRule(),
      ],
    ],
    [
      'persistent-volume-binder',
      [
        rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [core], ['persistentvolumes']),
        rule(['update'], [core], ['persistentvolumes/status']),
        rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumeclaims']),
        rule(['update'], [core], ['persistentvolumeclaims/status']),
        rule(['list', 'watch', 'get', 'create', 'delete'], [core], ['pods']),
        rule(READ, [storage], ['storageclasses']),
        rule(['list', 'watch'], [core], ['nodes']),
        eventsRule(),
        // The recycler watches its pod's events.
        rule(['watch'], [core], ['events']),
        rule(['get'], [core], ['services']),
      ],
    ],
    [
      'pod-garbage-collector',
      [rule(['list', 'watch', 'delete'], [core], ['pods']), rule(READ, [core], ['nodes']), rule(['patch'], [core], ['pods/status'])],
    ],
    [
      'replicaset-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [apps, extensions], ['replicasets']),
        rule(['update'], [apps, extensions], ['replicasets/status']),
        rule(['update'], [apps, extensions], ['replicasets/finalizers']),
        rule(['list', 'watch', 'patch', 'create', 'delete'], [core], ['pods']),
        eventsRule(),
      ],
    ],
    [
      'replication-controller',
      [
        rule(['get', 'list', 'watch', 'update'], [core], ['replicationcontrollers']),
        rule(['update'], [core], ['replicationcontrollers/status']),
        rule(['update'], [core], ['replicationcontrollers/finalizers']),
        rule(['list', 'watch', 'patch', 'create', 'delete'], [core], ['pods']),
        eventsRule(),
      ],
    ],
    // Quota counts anything, so it must see everything.
    ['resourcequota-controller', [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [core], ['resourcequotas/status']), eventsRule()]],
    ['route-controller', [rule(['list', 'watch'], [core], ['nodes']), rule(['patch'], [core], ['nodes/status']), eventsRule()]],
    ['service-account-controller', [rule(['create'], [core], ['serviceaccounts']), eventsRule()]],
    [
      'service-controller',
      [rule(READ, [core], ['services']), rule(['patch', 'update'], [core], ['services/status']), rule(['list', 'watch'], [core], ['nodes']), eventsRule()],
    ],
    [
      'statefulset-controller',
      [
        rule(['list', 'watch'], [core], ['pods']),
        rule(READ, [apps], ['statefulsets']),
        rule(['update'], [apps], ['statefulsets/status']),
        rule(['update'], [apps], ['statefulsets/finalizers']),
        rule(['get', 'create', 'delete', 'update', 'patch'], [core], ['pods']),
        rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [apps], ['controllerrevisions']),
        rule(['get', 'create', 'list', 'watch'], [core], ['persistentvolumeclaims']),
        rule(['update', 'delete'], [core], ['persistentvolumeclaims']),
        rule(['update'], [core], ['pods/finalizers']),
        eventsRule(),
      ],
    ],
    ['ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [core], ['nodes']), eventsRule()]],
    [
      'certificate-controller',
      [
        rule(['get', 'list', 'watch', 'delete'], [certificates], ['certificatesigningrequests']),
        rule(['update'], [certificates], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
        rule(['approve'], [certificates], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
        rule(['sign'], [certificates], ['signers'], [
          'kubernetes.io/legacy-unknown',
          'kubernetes.io/kube-apiserver-client',
          'kubernetes.io/kube-apiserver-client-kubelet',
          'kubernetes.io/kubelet-serving',
        ]),
        rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
        eventsRule(),
      ],
    ],
    ['pvc-protection-controller', [rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumeclaims']), rule(['list', 'watch', 'get'], [core], ['pods']), eventsRule()]],
    ['pv-protection-controller', [rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumes']), eventsRule()]],
    [
      // SeparateTaintEvictionController (on by default since v1.29): pods evicted for NoExecute taints.
      'taint-eviction-controller',
      [rule(['patch'], [core], ['pods/status']), rule(['list', 'watch', 'get', 'delete'], [core], ['pods']), rule(['get', 'list', 'watch'], [core], ['nodes']), eventsRule()],
    ],
    ['ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], [batch], ['jobs']), eventsRule()]],
    ['root-ca-cert-publisher', [rule(['create', 'update'], [core], ['configmaps']), eventsRule()]],
    [
      'validatingadmissionpolicy-status-controller',
      [
        rule(READ, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
        rule(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']),
        eventsRule(),
      ],
    ],
    [
      'legacy-service-account-token-cleaner',
      [rule(['get'], [core], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']), rule(['patch', 'delete'], [core], ['secrets'])],
    ],
  ];
}

export function bootstrapControllerRoles(): KObject[] {
  return controllerRules().map(([name, rules]) => clusterRole({ name: CONTROLLER_ROLE_PREFIX + name, rules }));
}

export function bootstrapControllerRoleBindings(): KObject[] {
  return controllerRules().map(([name]) => clusterRoleBinding(CONTROLLER_ROLE_PREFIX + name, [serviceAccount('kube-system', name)]));
}
