// What the API server's post-start hooks create when absent: the system
// namespaces (bootstrap-controller), the RBAC bootstrap policy
// (rbac/bootstrap-roles), the system priority classes
// (scheduling/bootstrap-system-priority-classes) and the `kubernetes`
// Service in default (its ClusterIP is the first of the service CIDR).
import type { Rng } from '../../sim/rng';
import type { KObject } from '../../apimachinery/types';
import { parseApiVersion } from '../../apimachinery/types';
import { resourceForKind, type ResourceInfo } from '../registry/resources';
import { rfc3339 } from '../http/time';
import { newUid } from './ids';
import { bootstrapPolicy } from '../auth';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function namespace(name: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

function priorityClass(name: string, value: number, description: string): KObject {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description, preemptionPolicy: 'PreemptLowerPriority' };
}

export function bootstrapObjects(now: number, rng: Rng): { r: ResourceInfo; obj: KObject }[] {
  const objs: KObject[] = [
    ...SYSTEM_NAMESPACES.map(namespace),
    priorityClass('system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.'),
    priorityClass('system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: {
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
        clusterIP: '10.96.0.1',
        clusterIPs: ['10.96.0.1'],
        type: 'ClusterIP',
        sessionAffinity: 'None',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        internalTrafficPolicy: 'Cluster',
      },
      status: { loadBalancer: {} },
    },
    ...bootstrapPolicy(),
  ];
  const out: { r: ResourceInfo; obj: KObject }[] = [];
  for (const obj of objs) {
    const { group } = parseApiVersion(obj.apiVersion);
    const r = resourceForKind(group, obj.kind);
    if (!r) continue;
    const o = structuredClone(obj);
    o.metadata.uid = newUid(rng);
    o.metadata.creationTimestamp = rfc3339(now);
    out.push({ r, obj: o });
  }
  return out;
}
