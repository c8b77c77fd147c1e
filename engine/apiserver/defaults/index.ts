// Defaulting on decode: what the API server's scheme applies to an object of
// each kind before admission and validation (the generated SetObjectDefaults_*
// of every served group, v1.32). Mutates the object.
import type { KObject } from '../../apimachinery/types';
import * as core from './core';
import * as others from './others';
import { isObj, type Loose } from './util';
import { applyGoShapes } from './goShapes';
import * as wl from './workloads';
import { groupKindKey } from '../registry/resources';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

type Defaulter = (obj: Record<string, Loose>) => void;

const DEFAULTERS: Record<string, Defaulter> = {
  '/Pod': core.defaultPod,
  '/PodTemplate': (o) => core.defaultPodTemplateSpec(isObj(o.template) ? o.template : (o.template = {})),
  '/ReplicationController': core.defaultReplicationController,
  '/Service': core.defaultService,
  '/Secret': core.defaultSecret,
  '/Namespace': core.defaultNamespace,
  '/Node': core.defaultNode,
  '/PersistentVolume': core.defaultPV,
  '/PersistentVolumeClaim': core.defaultPVC,
  '/Endpoints': core.defaultEndpoints,
  '/LimitRange': core.defaultLimitRange,
  'apps/Deployment': wl.defaultDeployment,
  'apps/ReplicaSet': wl.defaultReplicaSet,
  'apps/DaemonSet': wl.defaultDaemonSet,
  'apps/StatefulSet': wl.defaultStatefulSet,
  'batch/Job': wl.defaultJob,
  'batch/CronJob': wl.defaultCronJob,
  'autoscaling/HorizontalPodAutoscaler': others.defaultHPA,
  'networking.k8s.io/NetworkPolicy': others.defaultNetworkPolicy,
  'networking.k8s.io/IngressClass': others.defaultIngressClass,
  'rbac.authorization.k8s.io/RoleBinding': others.defaultRoleBinding,
  'rbac.authorization.k8s.io/ClusterRoleBinding': others.defaultRoleBinding,
  'scheduling.k8s.io/PriorityClass': others.defaultPriorityClass,
  'storage.k8s.io/StorageClass': others.defaultStorageClass,
  'discovery.k8s.io/EndpointSlice': others.defaultEndpointSlice,
  'apiregistration.k8s.io/APIService': others.defaultAPIService,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': (o) => others.defaultWebhookConfiguration(o, false),
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': (o) => others.defaultWebhookConfiguration(o, true),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': others.defaultValidatingAdmissionPolicy,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': others.defaultValidatingAdmissionPolicyBinding,
};

/**
 * Applies the v1.32 defaults of the kind. Kinds without defaulters (ConfigMap,
 * ServiceAccount, ResourceQuota, Event, Lease, Role, ControllerRevision, Ingress,
 * PodDisruptionBudget, ...) are left as sent. Quantity rounding and canonical
 * forms are done by canonicaliseQuantities (validation/quantity.ts).
 */
export function applyDefaults(gvk: Gvk, obj: KObject): void {
  const gk = groupKindKey(gvk.group, gvk.kind);
  const f = DEFAULTERS[gk];
  if (f) f(obj as unknown as Record<string, Loose>);
  applyGoShapes(gk, obj as unknown as Record<string, Loose>);
}

export { allocateServiceFields, type ServiceAllocators, type AllocateResult } from './service';
export { imageTag } from './core';
