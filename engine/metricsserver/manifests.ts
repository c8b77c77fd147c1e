// metrics-server's release manifest (components.yaml, v0.7.2): its
// ServiceAccount and RBAC, the Service the aggregator reaches it through and
// the APIService that registers metrics.k8s.io/v1beta1 with kube-apiserver.
import type { KObject } from '../apimachinery/types';

export const METRICS_SERVER_SA = { namespace: 'kube-system', name: 'metrics-server' };
export const METRICS_SERVICE = { namespace: 'kube-system', name: 'metrics-server', port: 443 };
export const METRICS_APISERVICE = 'v1beta1.metrics.k8s.io';

const labels = { 'k8s-app': 'metrics-server' };
const sa = [{ kind: 'ServiceAccount', name: METRICS_SERVER_SA.name, namespace: METRICS_SERVER_SA.namespace }];
const rule = (apiGroups: string[], resources: string[], verbs: string[]) => ({ apiGroups, resources, verbs });
const rbac = 'rbac.authorization.k8s.io';

export function metricsServerManifests(): KObject[] {
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: METRICS_SERVER_SA.name, namespace: METRICS_SERVER_SA.namespace, labels } },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'system:aggregated-metrics-reader', labels: { ...labels, 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [rule(['metrics.k8s.io'], ['pods', 'nodes'], ['get', 'list', 'watch'])],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'system:metrics-server', labels },
      rules: [rule([''], ['nodes/metrics'], ['get']), rule([''], ['pods', 'nodes'], ['get', 'list', 'watch'])],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'metrics-server-auth-reader', namespace: 'kube-system', labels },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: sa,
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'metrics-server:system:auth-delegator', labels },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:auth-delegator' },
      subjects: sa,
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:metrics-server', labels },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:metrics-server' },
      subjects: sa,
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: METRICS_SERVICE.name, namespace: METRICS_SERVICE.namespace, labels },
      spec: { ports: [{ name: 'https', port: METRICS_SERVICE.port, protocol: 'TCP', targetPort: 'https' }], selector: labels },
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: METRICS_APISERVICE, labels },
      spec: {
        group: 'metrics.k8s.io',
        groupPriorityMinimum: 100,
        insecureSkipTLSVerify: true,
        service: { name: METRICS_SERVICE.name, namespace: METRICS_SERVICE.namespace },
        version: 'v1beta1',
        versionPriority: 100,
      },
    },
  ];
}
