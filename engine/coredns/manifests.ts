// The CoreDNS add-on as `kubeadm init` installs it (cmd/kubeadm/app/phases/
// addons/dns/manifests.go, v1.32, with kubeadm's defaults filled in: DNS IP
// 10.96.0.10 — the tenth address of the service CIDR —, domain cluster.local,
// two replicas, CoreDNS v1.11.3, the control-plane taint key).
import type { KObject } from '../apimachinery/types';

export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.11.3';
export const COREDNS_SA = { namespace: 'kube-system', name: 'coredns' };
export const KUBE_DNS_SERVICE = { namespace: 'kube-system', name: 'kube-dns', clusterIP: '10.96.0.10' };
export const CLUSTER_DOMAIN = 'cluster.local';

/** kubeadm's Corefile for domain cluster.local. */
export const COREFILE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success ${CLUSTER_DOMAIN}
       disable denial ${CLUSTER_DOMAIN}
    }
    loop
    reload
    loadbalance
}
`;

const labels = { 'k8s-app': 'kube-dns' };

/** The add-on's objects: its ServiceAccount and RBAC, its Corefile, the kube-dns Service and the Deployment. */
export function corednsManifests(replicas = 2): KObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: COREDNS_SA.name, namespace: COREDNS_SA.namespace },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns' },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: COREDNS_SA.name, namespace: COREDNS_SA.namespace }],
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'coredns', namespace: 'kube-system' },
      data: { Corefile: COREFILE },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: KUBE_DNS_SERVICE.name,
        namespace: KUBE_DNS_SERVICE.namespace,
        labels: { ...labels, 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
      },
      spec: {
        clusterIP: KUBE_DNS_SERVICE.clusterIP,
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
        selector: labels,
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'coredns', namespace: 'kube-system', labels },
      spec: {
        replicas,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: COREDNS_SA.name,
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  { weight: 100, podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] }, topologyKey: 'kubernetes.io/hostname' } },
                ],
              },
            },
            tolerations: [
              { key: 'CriticalAddonsOnly', operator: 'Exists' },
              { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            containers: [
              {
                name: 'coredns',
                image: COREDNS_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
                args: ['-conf', '/etc/coredns/Corefile'],
                volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
                ports: [
                  { containerPort: 53, name: 'dns', protocol: 'UDP' },
                  { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                  { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
                  { containerPort: 8080, name: 'liveness-probe', protocol: 'TCP' },
                  { containerPort: 8181, name: 'readiness-probe', protocol: 'TCP' },
                ],
                livenessProbe: { httpGet: { path: '/health', port: 'liveness-probe', scheme: 'HTTP' }, initialDelaySeconds: 60, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 5 },
                readinessProbe: { httpGet: { path: '/ready', port: 'readiness-probe', scheme: 'HTTP' } },
                securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true },
              },
            ],
            dnsPolicy: 'Default',
            volumes: [{ name: 'config-volume', configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] } }],
          },
        },
      },
    },
  ] as KObject[];
}
