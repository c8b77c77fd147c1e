import { describe, expect, it } from 'vitest';
import { lookupPatchMetadataForSlice, lookupPatchMetadataForStruct, patchMetaFor, type StructPatchMeta } from './patchMeta';

/** Walks field names down the table, as strategic merge patch descends a document. */
function fieldAt(group: string, version: string, kind: string, path: string[]) {
  let s: StructPatchMeta | undefined = patchMetaFor(group, version, kind);
  const last = path[path.length - 1] as string;
  for (const p of path.slice(0, -1)) s = lookupPatchMetadataForStruct(s, p).schema;
  return lookupPatchMetadataForSlice(s, last);
}

const tag = (group: string, version: string, kind: string, path: string) => {
  const r = fieldAt(group, version, kind, path.split('.'));
  return `${r.strategies.join(',')}|${r.mergeKey}`;
};

describe('patchMetaFor: struct tags of v1.32', () => {
  it.each([
    ['spec.containers', 'merge|name'],
    ['spec.initContainers', 'merge|name'],
    ['spec.ephemeralContainers', 'merge|name'],
    ['spec.volumes', 'merge,retainKeys|name'],
    ['spec.imagePullSecrets', 'merge|name'],
    ['spec.hostAliases', 'merge|ip'],
    ['spec.topologySpreadConstraints', 'merge|topologyKey'],
    ['spec.schedulingGates', 'merge|name'],
    ['spec.resourceClaims', 'merge,retainKeys|name'],
    ['spec.tolerations', '|'],
    ['spec.readinessGates', '|'],
    ['status.conditions', 'merge|type'],
    ['status.podIPs', 'merge|ip'],
    ['status.hostIPs', 'merge|ip'],
    ['status.containerStatuses', '|'],
    ['status.resourceClaimStatuses', 'merge,retainKeys|name'],
    ['metadata.ownerReferences', 'merge|uid'],
    ['metadata.finalizers', 'merge|'],
    ['metadata.managedFields', '|'],
  ])('Pod %s', (path, want) => expect(tag('', 'v1', 'Pod', path)).toBe(want));

  it.each([
    ['spec.containers.ports', 'merge|containerPort'],
    ['spec.containers.env', 'merge|name'],
    ['spec.containers.volumeMounts', 'merge|mountPath'],
    ['spec.containers.volumeDevices', 'merge|devicePath'],
    ['spec.containers.envFrom', '|'],
    ['spec.containers.command', '|'],
    ['spec.ephemeralContainers.env', 'merge|name'],
  ])('Pod %s (in containers)', (path, want) => expect(tag('', 'v1', 'Pod', path)).toBe(want));

  it.each([
    ['apps', 'v1', 'Deployment', 'spec.template.spec.containers.env', 'merge|name'],
    ['apps', 'v1', 'Deployment', 'spec.strategy', 'retainKeys|'],
    ['apps', 'v1', 'Deployment', 'status.conditions', 'merge|type'],
    ['apps', 'v1', 'ReplicaSet', 'spec.template.spec.volumes', 'merge,retainKeys|name'],
    ['apps', 'v1', 'StatefulSet', 'spec.template.spec.containers', 'merge|name'],
    ['apps', 'v1', 'StatefulSet', 'spec.volumeClaimTemplates', '|'],
    ['apps', 'v1', 'DaemonSet', 'status.conditions', 'merge|type'],
    ['batch', 'v1', 'Job', 'spec.template.spec.initContainers', 'merge|name'],
    ['batch', 'v1', 'Job', 'status.conditions', 'merge|type'],
    ['batch', 'v1', 'CronJob', 'spec.jobTemplate.spec.template.spec.containers', 'merge|name'],
    ['batch', 'v1', 'CronJob', 'spec.jobTemplate.metadata.finalizers', 'merge|'],
    ['', 'v1', 'Service', 'spec.ports', 'merge|port'],
    ['', 'v1', 'Service', 'status.conditions', 'merge|type'],
    ['', 'v1', 'Node', 'spec.podCIDRs', 'merge|'],
    ['', 'v1', 'Node', 'spec.taints', '|'],
    ['', 'v1', 'Node', 'status.conditions', 'merge|type'],
    ['', 'v1', 'Node', 'status.addresses', 'merge|type'],
    ['', 'v1', 'Namespace', 'status.conditions', 'merge|type'],
    ['', 'v1', 'Namespace', 'spec.finalizers', '|'],
    ['', 'v1', 'ServiceAccount', 'secrets', 'merge|name'],
    ['', 'v1', 'ServiceAccount', 'imagePullSecrets', '|'],
    ['', 'v1', 'PersistentVolumeClaim', 'status.conditions', 'merge|type'],
    ['', 'v1', 'ReplicationController', 'status.conditions', 'merge|type'],
    ['', 'v1', 'PodTemplate', 'template.spec.containers', 'merge|name'],
    ['', 'v1', 'Endpoints', 'subsets', '|'],
    ['discovery.k8s.io', 'v1', 'EndpointSlice', 'endpoints', '|'],
    ['policy', 'v1', 'PodDisruptionBudget', 'spec.selector', 'replace|'],
    ['policy', 'v1', 'PodDisruptionBudget', 'status.conditions', 'merge|type'],
    ['autoscaling', 'v2', 'HorizontalPodAutoscaler', 'status.conditions', 'merge|type'],
    ['admissionregistration.k8s.io', 'v1', 'ValidatingWebhookConfiguration', 'webhooks', 'merge|name'],
    ['admissionregistration.k8s.io', 'v1', 'MutatingWebhookConfiguration', 'webhooks.matchConditions', 'merge|name'],
    ['admissionregistration.k8s.io', 'v1', 'ValidatingAdmissionPolicy', 'spec.variables', 'merge|name'],
    ['admissionregistration.k8s.io', 'v1', 'ValidatingAdmissionPolicy', 'status.conditions', '|'],
    ['rbac.authorization.k8s.io', 'v1', 'Role', 'rules', '|'],
    ['networking.k8s.io', 'v1', 'NetworkPolicy', 'spec.ingress', '|'],
    ['coordination.k8s.io', 'v1', 'Lease', 'metadata.ownerReferences', 'merge|uid'],
  ])('%s/%s %s %s', (group, version, kind, path, want) => expect(tag(group, version, kind, path)).toBe(want));

  it('records list types', () => {
    const p = patchMetaFor('', 'v1', 'Pod');
    const containers = lookupPatchMetadataForStruct(p, 'spec').schema;
    const ports = lookupPatchMetadataForStruct(lookupPatchMetadataForSlice(containers, 'containers').schema, 'ports');
    expect(ports.mergeKey).toBe('containerPort');
    const spec = p?.fields['spec']?.elem;
    expect(spec?.fields['topologySpreadConstraints']?.listMapKeys).toEqual(['topologyKey', 'whenUnsatisfiable']);
    expect(spec?.fields['tolerations']?.listType).toBe('atomic');
    expect(p?.fields['metadata']?.elem?.fields['finalizers']?.listType).toBe('set');
  });

  it('knows no custom resources', () => {
    expect(patchMetaFor('example.com', 'v1', 'Widget')).toBeUndefined();
    expect(patchMetaFor('apps', 'v1beta1', 'Deployment')).toBeUndefined();
  });
});
