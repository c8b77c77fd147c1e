// The admission plugins of our kube-apiserver v1.32, in the order of
// pkg/kubeapiserver/options/plugins.go (AllOrderedPlugins), restricted to the
// ones enabled by default that this simulation models. A plugin appears in a
// phase when it implements that phase's interface, as upstream splits them.
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { runMutatingChain, runValidatingChain, type AdmissionChainResult } from './chain';
import { defaultStorageClass } from './defaultStorageClass';
import { defaultTolerationSeconds } from './defaultTolerationSeconds';
import { limitRanger } from './limitRanger';
import { mutatingAdmissionWebhook } from './mutatingAdmissionWebhook';
import { namespaceLifecycle } from './namespaceLifecycle';
import { podSecurity } from './podSecurity';
import { priority } from './priority';
import { resourceQuota } from './resourceQuota';
import { serviceAccount } from './serviceAccount';
import { storageObjectInUseProtection } from './storageObjectInUseProtection';
import { validatingAdmissionPolicy } from './validatingAdmissionPolicy';
import { validatingAdmissionWebhook } from './validatingAdmissionWebhook';

/** Every modelled plugin in upstream order (NamespaceLifecycle ... ResourceQuota). */
export const ORDERED_PLUGINS: readonly AdmissionPlugin[] = [
  namespaceLifecycle,
  limitRanger,
  serviceAccount,
  podSecurity,
  priority,
  defaultTolerationSeconds,
  defaultStorageClass,
  storageObjectInUseProtection,
  mutatingAdmissionWebhook,
  validatingAdmissionPolicy,
  validatingAdmissionWebhook,
  resourceQuota,
];

/** NamespaceLifecycle, LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, MutatingAdmissionWebhook. */
export const MUTATING_PLUGINS: readonly AdmissionPlugin[] = ORDERED_PLUGINS.filter((p) => p.admit);

/** LimitRanger, ServiceAccount, PodSecurity, Priority, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota. */
export const VALIDATING_PLUGINS: readonly AdmissionPlugin[] = ORDERED_PLUGINS.filter((p) => p.validate);

/** Runs the mutating phase; plugins change attrs.object in place. */
export function runMutating(attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  return runMutatingChain(MUTATING_PLUGINS, attrs, cluster);
}

/** Runs the validating phase (after schema validation). */
export function runValidating(attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  return runValidatingChain(VALIDATING_PLUGINS, attrs, cluster);
}

export type { AdmissionChainResult, AdmissionPhase, AdmissionRecord } from './chain';
export { runMutatingChain, runValidatingChain } from './chain';
export { namespaceLifecycle } from './namespaceLifecycle';
export { limitRanger } from './limitRanger';
export { serviceAccount, RANDOM_SUFFIX_OPTION } from './serviceAccount';
export { podSecurity } from './podSecurity';
export { priority } from './priority';
export { defaultTolerationSeconds } from './defaultTolerationSeconds';
export { defaultStorageClass } from './defaultStorageClass';
export { storageObjectInUseProtection } from './storageObjectInUseProtection';
export { mutatingAdmissionWebhook } from './mutatingAdmissionWebhook';
export { validatingAdmissionPolicy } from './validatingAdmissionPolicy';
export { validatingAdmissionWebhook } from './validatingAdmissionWebhook';
export { resourceQuota } from './resourceQuota';
export { PLAYGROUND_ANNOTATION_PREFIX, PLAYGROUND_URL_PREFIX } from './webhook';
