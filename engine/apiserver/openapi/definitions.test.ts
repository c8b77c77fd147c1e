import { describe, expect, it } from 'vitest';
import { definitionForKind, definitions, INT_OR_STRING, QUANTITY } from './spec';

describe('generated definitions (from @kubernetes/client-node, v1.32)', () => {
  it('has PodSpec under its upstream name, with required containers and the real description', () => {
    const podSpec = definitions['io.k8s.api.core.v1.PodSpec'];
    expect(podSpec?.required).toEqual(['containers']);
    expect(podSpec?.description).toBe('PodSpec is a description of a pod.');
    expect(podSpec?.properties?.containers?.description).toMatch(/^List of containers belonging to the pod\./);
    expect(podSpec?.properties?.containers?.items).toEqual({ $ref: '#/components/schemas/io.k8s.api.core.v1.Container' });
    expect(podSpec?.properties?.activeDeadlineSeconds).toMatchObject({ type: 'integer', format: 'int64' });
  });

  it('marks top-level kinds and lists with x-kubernetes-group-version-kind', () => {
    expect(definitions['io.k8s.api.apps.v1.Deployment']?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    expect(definitions['io.k8s.api.core.v1.PodList']?.['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'PodList', version: 'v1' }]);
    expect(definitions['io.k8s.api.apps.v1.DeploymentSpec']?.['x-kubernetes-group-version-kind']).toBeUndefined();
    expect(definitionForKind('events.k8s.io', 'v1', 'Event')).toBe('io.k8s.api.events.v1.Event');
    expect(definitionForKind('', 'v1', 'Event')).toBe('io.k8s.api.core.v1.Event');
    expect(definitionForKind('autoscaling', 'v1', 'Scale')).toBe('io.k8s.api.autoscaling.v1.Scale');
    expect(definitionForKind('policy', 'v1', 'Eviction')).toBe('io.k8s.api.policy.v1.Eviction');
    expect(definitionForKind('authentication.k8s.io', 'v1', 'TokenRequest')).toBe('io.k8s.api.authentication.v1.TokenRequest');
  });

  it('puts types in their upstream packages', () => {
    for (const name of [
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
      'io.k8s.api.core.v1.PodTemplateSpec',
      'io.k8s.api.core.v1.TopologySelectorTerm',
      'io.k8s.api.rbac.v1.Subject',
      'io.k8s.api.autoscaling.v2.MetricSpec',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
    ]) {
      expect(definitions[name], name).toBeDefined();
    }
    expect(definitions['io.k8s.api.storage.v1.TopologySelectorTerm']).toBeUndefined();
  });

  it('restores Quantity, IntOrString, Time and RawExtension references', () => {
    expect(definitions['io.k8s.api.core.v1.ResourceRequirements']?.properties?.limits?.additionalProperties).toEqual({ $ref: `#/components/schemas/${QUANTITY}` });
    expect(definitions['io.k8s.api.core.v1.ServicePort']?.properties?.targetPort).toEqual({ $ref: `#/components/schemas/${INT_OR_STRING}` });
    expect(definitions[INT_OR_STRING]).toMatchObject({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(definitions[INT_OR_STRING]?.description).toMatch(/^IntOrString is a type that can hold an int32 or a string/);
    const created = definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']?.properties?.creationTimestamp;
    expect(created?.allOf).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }]);
    expect(created?.description).toMatch(/^CreationTimestamp is a timestamp/);
    expect(definitions['io.k8s.api.apps.v1.ControllerRevision']?.properties?.data?.allOf?.[0]?.$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension');
  });

  it('carries patch metadata kubectl apply merges lists by', () => {
    const containers = definitions['io.k8s.api.core.v1.PodSpec']?.properties?.containers;
    expect(containers?.['x-kubernetes-patch-merge-key']).toBe('name');
    expect(containers?.['x-kubernetes-patch-strategy']).toBe('merge');
    expect(containers?.['x-kubernetes-list-type']).toBe('map');
    expect(definitions['io.k8s.api.core.v1.Container']?.properties?.ports?.['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
    expect(definitions['io.k8s.api.core.v1.PodSpec']?.properties?.volumes?.['x-kubernetes-patch-strategy']).toBe('merge,retainKeys');
  });

  it('lists every group-version in the GVKs of DeleteOptions', () => {
    const gvks = definitions['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']?.['x-kubernetes-group-version-kind'] ?? [];
    expect(gvks[0]).toEqual({ group: '', kind: 'DeleteOptions', version: 'v1' });
    expect(gvks).toContainEqual({ group: 'apps', kind: 'DeleteOptions', version: 'v1' });
  });
});
