// NamespaceLifecycle (staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go):
// keeps default, kube-system and kube-public from being deleted, refuses
// content in namespaces that do not exist, and refuses creates in namespaces
// being terminated. The watch cache is our informer, so there is no
// missing-namespace wait or live lookup: the cluster reader is current.
import { status } from '../../apimachinery/status';
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { admissionForbidden, allow, deny, groupResourceOf, isResource } from './errors';
import { path, str } from './json';

export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** Creating these reveals nothing about a namespace, so they are always allowed (isAccessReview). */
const ACCESS_REVIEW_RESOURCES = new Set(['authorization.k8s.io/localsubjectaccessreviews']);

function isNamespaceRequest(a: AdmissionAttributes): boolean {
  return (a.kind.group === '' && a.kind.kind === 'Namespace') || isResource(a, '', 'namespaces');
}

export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE',
  // It only refuses, never changes the object.
  mayMutate: () => false,
  admit(a: AdmissionAttributes, cluster: ClusterReader) {
    const isNamespace = isNamespaceRequest(a);
    if (a.operation === 'DELETE' && isNamespace && IMMORTAL_NAMESPACES.includes(a.name)) {
      return deny(status.forbidden(groupResourceOf(a), a.name, 'this namespace may not be deleted'));
    }
    // Cluster-scoped objects other than namespaces, and namespaces themselves, always pass.
    if (!a.namespace && !isNamespace) return allow();
    if (isNamespace) return allow();
    if (a.operation === 'DELETE') return allow();
    if (ACCESS_REVIEW_RESOURCES.has(`${a.resource.group}/${a.resource.resource}`)) return allow();

    const ns = cluster.get('', 'namespaces', undefined, a.namespace);
    if (!ns) return deny(status.notFound({ group: '', resource: 'namespaces' }, a.namespace));

    if (a.operation === 'CREATE') {
      // The registry sets phase Terminating together with deletionTimestamp; either marks it.
      const terminating = str(path(ns, 'status', 'phase')) === 'Terminating' || !!ns.metadata.deletionTimestamp;
      if (!terminating) return allow();
      const st = admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      st.details = {
        ...(st.details ?? {}),
        causes: [
          ...(st.details?.causes ?? []),
          { reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' },
        ],
      };
      return deny(st);
    }
    return allow();
  },
};
