// Which printer serves which resource: the TableHandler registrations of
// pkg/printers/internalversion/printers.go AddHandlers, keyed by the served
// group/resource. Resources absent here get rest.defaultTableConvertor.
import {
  clusterRoleBindingPrinter,
  componentStatusPrinter,
  configMapPrinter,
  eventPrinter,
  leasePrinter,
  namespacePrinter,
  nodePrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  priorityClassPrinter,
  resourceQuotaPrinter,
  roleBindingPrinter,
  secretPrinter,
  serviceAccountPrinter,
  storageClassPrinter,
  csiNodePrinter,
  csiDriverPrinter,
  csiStorageCapacityPrinter,
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
  webhookConfigurationPrinter,
  apiServicePrinter,
} from './cluster';
import { endpointSlicePrinter, endpointsPrinter, ingressClassPrinter, ingressPrinter, networkPolicyPrinter, servicePrinter } from './network';
import { podPrinter, podTemplatePrinter } from './pods';
import type { Printer } from './types';
import {
  controllerRevisionPrinter,
  cronJobPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  hpaPrinter,
  jobPrinter,
  podDisruptionBudgetPrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './workloads';

const PRINTERS: Readonly<Record<string, Printer>> = {
  '/pods': podPrinter,
  '/podtemplates': podTemplatePrinter,
  '/replicationcontrollers': replicationControllerPrinter,
  '/services': servicePrinter,
  '/endpoints': endpointsPrinter,
  '/nodes': nodePrinter,
  '/events': eventPrinter,
  '/namespaces': namespacePrinter,
  '/secrets': secretPrinter,
  '/serviceaccounts': serviceAccountPrinter,
  '/persistentvolumes': persistentVolumePrinter,
  '/persistentvolumeclaims': persistentVolumeClaimPrinter,
  '/configmaps': configMapPrinter,
  '/componentstatuses': componentStatusPrinter,
  '/resourcequotas': resourceQuotaPrinter,
  'apiregistration.k8s.io/apiservices': apiServicePrinter,
  'apps/deployments': deploymentPrinter,
  'apps/replicasets': replicaSetPrinter,
  'apps/statefulsets': statefulSetPrinter,
  'apps/daemonsets': daemonSetPrinter,
  'apps/controllerrevisions': controllerRevisionPrinter,
  'batch/jobs': jobPrinter,
  'batch/cronjobs': cronJobPrinter,
  'autoscaling/horizontalpodautoscalers': hpaPrinter,
  'policy/poddisruptionbudgets': podDisruptionBudgetPrinter,
  'coordination.k8s.io/leases': leasePrinter,
  'discovery.k8s.io/endpointslices': endpointSlicePrinter,
  // events.k8s.io shares the core Event storage and its printer.
  'events.k8s.io/events': eventPrinter,
  'networking.k8s.io/ingresses': ingressPrinter,
  'networking.k8s.io/ingressclasses': ingressClassPrinter,
  'networking.k8s.io/networkpolicies': networkPolicyPrinter,
  'rbac.authorization.k8s.io/rolebindings': roleBindingPrinter,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingPrinter,
  'scheduling.k8s.io/priorityclasses': priorityClassPrinter,
  'storage.k8s.io/storageclasses': storageClassPrinter,
  'storage.k8s.io/csinodes': csiNodePrinter,
  'storage.k8s.io/csidrivers': csiDriverPrinter,
  'storage.k8s.io/csistoragecapacities': csiStorageCapacityPrinter,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/validatingadmissionpolicies': validatingAdmissionPolicyPrinter,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': validatingAdmissionPolicyBindingPrinter,
};

/** The printer registered for a resource, if any (Roles, ClusterRoles, LimitRanges have none upstream). */
export function printerFor(group: string, resource: string): Printer | undefined {
  return PRINTERS[`${group}/${resource}`];
}
