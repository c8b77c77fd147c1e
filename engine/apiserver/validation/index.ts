// The API server's validation step for every stored kind, shaped as the registry
// runs it (k8s.io/apiserver/pkg/registry/rest/create.go BeforeCreate and
// update.go BeforeUpdate): the kind's strategy validation, plus the generic
// ObjectMeta checks every resource gets.
import type { FieldError } from '../../apimachinery/fieldErrors';
import type { KObject } from '../../apimachinery/types';
import { groupKindKey, resourceForKind } from '../registry/resources';
import * as adm from './admissionregistration';
import * as apps from './apps';
import * as hpa from './autoscaling';
import * as batch from './batch';
import * as misc from './core/misc';
import * as pod from './core/pod';
import * as svc from './core/service';
import { validatePathSegmentName } from './names';
import * as net from './networking';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectMeta';
import * as pol from './policy';
import * as rbac from './rbac';
import type { Loose } from './util';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

type Create = (obj: Loose) => FieldError[];
type Update = (obj: Loose, old: Loose) => FieldError[];

interface KindValidation {
  create: Create;
  update: Update;
  status?: Update;
}

const metaOnly = (namespaced: boolean): KindValidation => ({
  create: (o) => validateObjectMeta(o.metadata, namespaced, validatePathSegmentName),
  update: (o, old) => validateObjectMetaUpdate(o.metadata, old.metadata),
});
const statusMeta: Update = (o, old) => validateObjectMetaUpdate(o.metadata, old.metadata);

const KINDS: Record<string, KindValidation> = {
  '/Pod': { create: pod.validatePodCreate, update: pod.validatePodUpdate, status: pod.validatePodStatusUpdate },
  '/PodTemplate': { create: misc.validatePodTemplate, update: (o, old) => [...misc.validatePodTemplate(o), ...validateObjectMetaUpdate(o.metadata, old.metadata)] },
  '/ReplicationController': {
    create: misc.validateReplicationController,
    update: (o, old) => [...validateObjectMetaUpdate(o.metadata, old.metadata), ...misc.validateReplicationControllerSpec(o.spec)],
    status: (o, old) => [...validateObjectMetaUpdate(o.metadata, old.metadata), ...misc.validateReplicationControllerStatus(o)],
  },
  '/Service': { create: svc.validateService, update: svc.validateServiceUpdate, status: svc.validateServiceStatusUpdate },
  '/ConfigMap': { create: misc.validateConfigMap, update: misc.validateConfigMapUpdate },
  '/Secret': { create: misc.validateSecret, update: misc.validateSecretUpdate },
  '/Namespace': { create: misc.validateNamespace, update: misc.validateNamespaceUpdate, status: misc.validateNamespaceStatusUpdate },
  '/Node': { create: misc.validateNode, update: misc.validateNodeUpdate, status: misc.validateNodeUpdate },
  '/ServiceAccount': { create: misc.validateServiceAccount, update: (o, old) => [...misc.validateServiceAccount(o), ...validateObjectMetaUpdate(o.metadata, old.metadata)] },
  '/LimitRange': { create: misc.validateLimitRange, update: (o, old) => [...validateObjectMetaUpdate(o.metadata, old.metadata), ...misc.validateLimitRange(o)] },
  '/ResourceQuota': { create: misc.validateResourceQuota, update: misc.validateResourceQuotaUpdate, status: misc.validateResourceQuotaStatusUpdate },
  '/PersistentVolume': { create: misc.validatePersistentVolume, update: misc.validatePersistentVolumeUpdate },
  '/PersistentVolumeClaim': { create: misc.validatePersistentVolumeClaim, update: misc.validatePersistentVolumeClaimUpdate },
  '/Event': { create: (o) => misc.validateEvent(o, ''), update: (o) => misc.validateEvent(o, '') },
  'events.k8s.io/Event': { create: (o) => misc.validateEvent(o, 'events.k8s.io'), update: (o, old) => [...misc.validateEvent(o, 'events.k8s.io'), ...validateObjectMetaUpdate(o.metadata, old.metadata)] },
  '/Endpoints': { create: misc.validateEndpoints, update: (o, old) => [...validateObjectMetaUpdate(o.metadata, old.metadata), ...misc.validateEndpoints(o)] },
  'apps/Deployment': { create: apps.validateDeployment, update: apps.validateDeploymentUpdate, status: apps.validateDeploymentStatusUpdate },
  'apps/ReplicaSet': { create: apps.validateReplicaSet, update: apps.validateReplicaSetUpdate, status: apps.validateReplicaSetStatusUpdate },
  'apps/StatefulSet': { create: apps.validateStatefulSet, update: apps.validateStatefulSetUpdate, status: apps.validateStatefulSetStatusUpdate },
  'apps/DaemonSet': { create: apps.validateDaemonSet, update: apps.validateDaemonSetUpdate, status: apps.validateDaemonSetStatusUpdate },
  'apps/ControllerRevision': { create: apps.validateControllerRevision, update: apps.validateControllerRevisionUpdate },
  'batch/Job': { create: batch.validateJob, update: batch.validateJobUpdate, status: batch.validateJobStatusUpdate },
  'batch/CronJob': { create: batch.validateCronJob, update: batch.validateCronJobUpdate },
  'autoscaling/HorizontalPodAutoscaler': { create: hpa.validateHPA, update: hpa.validateHPAUpdate, status: hpa.validateHPAStatusUpdate },
  'coordination.k8s.io/Lease': { create: pol.validateLease, update: pol.validateLeaseUpdate },
  'discovery.k8s.io/EndpointSlice': { create: pol.validateEndpointSlice, update: pol.validateEndpointSliceUpdate },
  'networking.k8s.io/NetworkPolicy': { create: net.validateNetworkPolicy, update: net.validateNetworkPolicyUpdate },
  'networking.k8s.io/Ingress': { create: net.validateIngress, update: net.validateIngressUpdate, status: net.validateIngressStatusUpdate },
  'networking.k8s.io/IngressClass': { create: net.validateIngressClass, update: net.validateIngressClassUpdate },
  'policy/PodDisruptionBudget': {
    create: pol.validatePodDisruptionBudget,
    update: (o) => pol.validatePodDisruptionBudget(o),
    status: pol.validatePodDisruptionBudgetStatusUpdate,
  },
  'rbac.authorization.k8s.io/Role': { create: (o) => rbac.validateRole(o, true), update: (o, old) => rbac.validateRoleUpdate(o, old, true) },
  'rbac.authorization.k8s.io/ClusterRole': { create: (o) => rbac.validateRole(o, false), update: (o, old) => rbac.validateRoleUpdate(o, old, false) },
  'rbac.authorization.k8s.io/RoleBinding': { create: (o) => rbac.validateBinding(o, true), update: (o, old) => rbac.validateBindingUpdate(o, old, true) },
  'rbac.authorization.k8s.io/ClusterRoleBinding': { create: (o) => rbac.validateBinding(o, false), update: (o, old) => rbac.validateBindingUpdate(o, old, false) },
  'scheduling.k8s.io/PriorityClass': { create: pol.validatePriorityClass, update: pol.validatePriorityClassUpdate },
  'storage.k8s.io/StorageClass': { create: pol.validateStorageClass, update: pol.validateStorageClassUpdate },
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': {
    create: (o) => adm.validateWebhookConfiguration(o, false),
    update: (o, old) => adm.validateWebhookConfigurationUpdate(o, old, false),
  },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': {
    create: (o) => adm.validateWebhookConfiguration(o, true),
    update: (o, old) => adm.validateWebhookConfigurationUpdate(o, old, true),
  },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': { create: adm.validateValidatingAdmissionPolicy, update: adm.validateValidatingAdmissionPolicyUpdate },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': {
    create: adm.validateValidatingAdmissionPolicyBinding,
    update: adm.validateValidatingAdmissionPolicyBindingUpdate,
  },
};

function namespaced(gvk: Gvk): boolean {
  return resourceForKind(gvk.group, gvk.kind)?.namespaced ?? true;
}

function kindOf(gvk: Gvk): KindValidation {
  return KINDS[groupKindKey(gvk.group, gvk.kind)] ?? metaOnly(namespaced(gvk));
}

/** Create: the strategy's Validate; when it passes, the generic ObjectMeta check (path-segment names). */
export function validateCreate(gvk: Gvk, obj: KObject): FieldError[] {
  const errs = kindOf(gvk).create(obj);
  if (errs.length) return errs;
  const generic = validateObjectMeta(obj.metadata, namespaced(gvk), validatePathSegmentName);
  if (generic.length) return generic;
  // The node-port allocator runs after validation and answers with its own Invalid error.
  if (gvk.group === '' && gvk.kind === 'Service') return svc.validateNodePortRange(obj);
  return [];
}

/** Update: the common ObjectMeta checks (validateCommonFields), then the strategy's ValidateUpdate. */
export function validateUpdate(gvk: Gvk, obj: KObject, old: KObject): FieldError[] {
  const common = [...validateObjectMeta(obj.metadata, namespaced(gvk), validatePathSegmentName), ...validateObjectMetaUpdate(obj.metadata, old.metadata)];
  const errs = [...common, ...kindOf(gvk).update(obj, old)];
  if (errs.length === 0 && gvk.group === '' && gvk.kind === 'Service') return svc.validateNodePortRange(obj);
  return errs;
}

/** Update of pods/ephemeralcontainers (ValidatePodEphemeralContainersUpdate). */
export function validateEphemeralContainersUpdate(obj: KObject, old: KObject): FieldError[] {
  return pod.validatePodEphemeralContainersUpdate(obj as Record<string, unknown>, old as Record<string, unknown>);
}

/** Update of the status subresource. */
export function validateStatusUpdate(gvk: Gvk, obj: KObject, old: KObject): FieldError[] {
  const common = [...validateObjectMeta(obj.metadata, namespaced(gvk), validatePathSegmentName), ...validateObjectMetaUpdate(obj.metadata, old.metadata)];
  return [...common, ...(kindOf(gvk).status ?? statusMeta)(obj, old)];
}

export { parseQuantity, canonicaliseQuantities, formatQuantity } from './quantity';
