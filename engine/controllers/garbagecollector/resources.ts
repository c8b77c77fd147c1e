// The kinds the garbage collector follows: owner references name a kind and
// an apiVersion; the collector maps them to an informer (when it watches the
// resource) and to the object's REST path.
export interface GcResource {
  /** Informer name (INFORMER_PATHS), or null when not watched (live GETs only). */
  informer: string | null;
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

const R = (informer: string | null, group: string, version: string, resource: string, kind: string, namespaced = true): GcResource => ({ informer, group, version, resource, kind, namespaced });

export const GC_RESOURCES: readonly GcResource[] = [
  R('pods', '', 'v1', 'pods', 'Pod'),
  R('configmaps', '', 'v1', 'configmaps', 'ConfigMap'),
  R('services', '', 'v1', 'services', 'Service'),
  R('endpoints', '', 'v1', 'endpoints', 'Endpoints'),
  R('serviceaccounts', '', 'v1', 'serviceaccounts', 'ServiceAccount'),
  R('persistentvolumeclaims', '', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim'),
  R('replicationcontrollers', '', 'v1', 'replicationcontrollers', 'ReplicationController'),
  R('nodes', '', 'v1', 'nodes', 'Node', false),
  R('replicasets', 'apps', 'v1', 'replicasets', 'ReplicaSet'),
  R('deployments', 'apps', 'v1', 'deployments', 'Deployment'),
  R('statefulsets', 'apps', 'v1', 'statefulsets', 'StatefulSet'),
  R('daemonsets', 'apps', 'v1', 'daemonsets', 'DaemonSet'),
  R('controllerrevisions', 'apps', 'v1', 'controllerrevisions', 'ControllerRevision'),
  R('jobs', 'batch', 'v1', 'jobs', 'Job'),
  R('cronjobs', 'batch', 'v1', 'cronjobs', 'CronJob'),
  R('endpointslices', 'discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice'),
  R('leases', 'coordination.k8s.io', 'v1', 'leases', 'Lease'),
  R('poddisruptionbudgets', 'policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'),
  R('horizontalpodautoscalers', 'autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
  // Not in the manager's informers (INFORMER_PATHS): owners of these kinds are checked by live GETs.
  R(null, '', 'v1', 'secrets', 'Secret'),
  R(null, '', 'v1', 'namespaces', 'Namespace', false),
  R(null, '', 'v1', 'persistentvolumes', 'PersistentVolume', false),
];

export const GC_INFORMERS: readonly string[] = GC_RESOURCES.flatMap((r) => (r.informer ? [r.informer] : []));

export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The resource an owner reference names (any version of the group: the collector works on metadata). */
export function resourceForKind(apiVersion: string, kind: string): GcResource | null {
  const g = groupOf(apiVersion);
  return GC_RESOURCES.find((r) => r.kind === kind && r.group === g) ?? null;
}

export function resourceForInformer(informer: string): GcResource | null {
  return GC_RESOURCES.find((r) => r.informer === informer) ?? null;
}

export function objectPath(r: GcResource, namespace: string | undefined, name: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return r.namespaced ? `${base}/namespaces/${namespace}/${r.resource}/${name}` : `${base}/${r.resource}/${name}`;
}
