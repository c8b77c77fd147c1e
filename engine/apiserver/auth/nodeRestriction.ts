// The NodeRestriction admission plugin (plugin/pkg/admission/noderestriction/admission.go):
// what the Node authorizer lets every kubelet do (create mirror pods, update
// pod and node status, write leases), narrowed to the kubelet's own objects.
import { status } from '../../apimachinery/status';
import type { KObject, Status } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionVerdict, ClusterReader } from '../types';
import { NODE_LEASE_NAMESPACE, podReferences } from './node';
import { nodeIdentity } from './user';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const NODE_RESTRICTION_LABEL_NAMESPACE = 'node-restriction.kubernetes.io';

/** Labels a kubelet may set on its Node (k8s.io/kubelet/pkg/apis/well_known_labels.go). */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

const ok = (): AdmissionVerdict => ({ allowed: true });
const deny = (st: Status): AdmissionVerdict => ({ allowed: false, status: st });

/** admission.NewForbidden: `<resource> "<name>" is forbidden: <why>`, the name from the request or the object. */
function forbidden(a: AdmissionAttributes, why: string): AdmissionVerdict {
  const name = a.name || a.object?.metadata.name || '';
  return deny(status.forbidden({ group: a.resource.group, resource: a.resource.resource }, name, why));
}

function labelNamespace(key: string): string {
  const i = key.indexOf('/');
  return i < 0 ? '' : key.slice(0, i);
}

function isKubernetesLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return ns === 'kubernetes.io' || ns.endsWith('.kubernetes.io') || ns === 'k8s.io' || ns.endsWith('.k8s.io');
}

function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  const ns = labelNamespace(key);
  return KUBELET_LABEL_NAMESPACES.some((allowed) => ns === allowed || ns.endsWith(`.${allowed}`));
}

function modifiedLabels(a: Record<string, string>, b: Record<string, string>): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(a)) if (b[k] !== v) out.add(k);
  for (const [k, v] of Object.entries(b)) if (a[k] !== v) out.add(k);
  return [...out];
}

/** Labels a node may not add, remove or change: node-restriction ones and unknown kubernetes.io/k8s.io ones. */
export function forbiddenNodeLabels(keys: readonly string[]): string[] {
  return keys
    .filter((k) => {
      const ns = labelNamespace(k);
      if (ns === NODE_RESTRICTION_LABEL_NAMESPACE || ns.endsWith(`.${NODE_RESTRICTION_LABEL_NAMESPACE}`)) return true;
      return isKubernetesLabel(k) && !isKubeletLabel(k);
    })
    .sort();
}

function podNodeName(pod: KObject | undefined): string {
  return s(obj(pod?.spec).nodeName);
}

function admitPodCreate(nodeName: string, a: AdmissionAttributes, cluster: ClusterReader): AdmissionVerdict {
  const pod = a.object;
  if (!pod) return forbidden(a, 'unexpected type <nil>');
  if (!Object.hasOwn(pod.metadata.annotations ?? {}, MIRROR_POD_ANNOTATION)) {
    return forbidden(a, `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${nodeName}" can only create mirror pods`);
  }
  if (podNodeName(pod) !== nodeName) return forbidden(a, `node "${nodeName}" can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata.ownerReferences ?? [];
  if (owners.length > 1) return forbidden(a, `node "${nodeName}" can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (!owner || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName) {
    return forbidden(a, `node "${nodeName}" can only create pods with an owner reference set to itself`);
  }
  if (!owner.controller) return forbidden(a, `node "${nodeName}" can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion) return forbidden(a, `node "${nodeName}" must not set blockOwnerDeletion on an owner reference`);
  const node = cluster.get('', 'nodes', undefined, nodeName);
  if (!node) return deny(status.notFound({ group: '', resource: 'nodes' }, nodeName));
  if (owner.uid !== node.metadata.uid) return forbidden(a, `node ${nodeName} UID mismatch: expected ${owner.uid} got ${node.metadata.uid ?? ''}`);
  const spec = obj(pod.spec);
  if (s(spec.serviceAccountName)) return forbidden(a, `node "${nodeName}" can not create pods that reference a service account`);
  const refs = podReferences(pod);
  if (refs.secrets.size) return forbidden(a, `node "${nodeName}" can not create pods that reference secrets`);
  if (refs.configMaps.size) return forbidden(a, `node "${nodeName}" can not create pods that reference configmaps`);
  if (refs.pvcs.size) return forbidden(a, `node "${nodeName}" can not create pods that reference persistentvolumeclaims`);
  return ok();
}

function admitPod(nodeName: string, a: AdmissionAttributes, cluster: ClusterReader): AdmissionVerdict {
  switch (a.subresource) {
    case '':
      if (a.operation === 'CREATE') return admitPodCreate(nodeName, a, cluster);
      if (a.operation === 'DELETE') {
        const existing = cluster.get('', 'pods', a.namespace, a.name);
        if (!existing) return deny(status.notFound({ group: '', resource: 'pods' }, a.name));
        if (podNodeName(existing) !== nodeName) return forbidden(a, `node "${nodeName}" can only delete pods with spec.nodeName set to itself`);
        return ok();
      }
      return forbidden(a, `unexpected operation "${a.operation}", node "${nodeName}" can only create and delete mirror pods`);
    case 'status': {
      if (a.operation !== 'UPDATE') return forbidden(a, `unexpected operation "${a.operation}"`);
      if (podNodeName(a.oldObject ?? undefined) !== nodeName) return forbidden(a, `node "${nodeName}" can only update pod status for pods with spec.nodeName set to itself`);
      const before = a.oldObject?.metadata.labels ?? {};
      const after = a.object?.metadata.labels ?? {};
      if (modifiedLabels(before, after).length) return forbidden(a, `node "${nodeName}" cannot update labels through pod status`);
      return ok();
    }
    case 'eviction': {
      if (a.operation !== 'CREATE') return forbidden(a, `unexpected operation ${a.operation}`);
      const podName = a.name || a.object?.metadata.name || '';
      if (!podName) return forbidden(a, 'could not determine pod from request data');
      const existing = cluster.get('', 'pods', a.namespace, podName);
      if (!existing) return deny(status.notFound({ group: '', resource: 'pods' }, podName));
      if (podNodeName(existing) !== nodeName) return forbidden(a, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
      return ok();
    }
    default:
      return forbidden(a, `unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`);
  }
}

function admitNode(nodeName: string, a: AdmissionAttributes): AdmissionVerdict {
  const requested = a.name || a.object?.metadata.name || '';
  if (requested !== nodeName) return forbidden(a, `node "${nodeName}" is not allowed to modify node "${requested}"`);
  if (a.operation === 'CREATE' && a.object) {
    if (obj(a.object.spec).configSource) return forbidden(a, `node "${nodeName}" is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenNodeLabels(modifiedLabels(a.object.metadata.labels ?? {}, {}));
    if (bad.length) return forbidden(a, `node "${nodeName}" is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (a.operation === 'UPDATE' && a.object && a.oldObject) {
    const spec = obj(a.object.spec);
    const oldSpec = obj(a.oldObject.spec);
    if (spec.configSource && JSON.stringify(spec.configSource) !== JSON.stringify(oldSpec.configSource)) {
      return forbidden(a, `node "${nodeName}" is not allowed to update configSource to a new non-nil configSource`);
    }
    if (JSON.stringify(spec.taints ?? []) !== JSON.stringify(oldSpec.taints ?? [])) return forbidden(a, `node "${nodeName}" is not allowed to modify taints`);
    const bad = forbiddenNodeLabels(modifiedLabels(a.object.metadata.labels ?? {}, a.oldObject.metadata.labels ?? {}));
    if (bad.length) return forbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`);
  }
  return ok();
}

function admitServiceAccountToken(nodeName: string, a: AdmissionAttributes, cluster: ClusterReader): AdmissionVerdict {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return ok();
  const ref = obj(obj(a.object?.spec).boundObjectRef);
  if (s(ref.apiVersion) !== 'v1' || s(ref.kind) !== 'Pod' || !s(ref.name)) return forbidden(a, 'node requested token not bound to a pod');
  if (!s(ref.uid)) return forbidden(a, 'node requested token with a pod binding without a uid');
  const pod = cluster.get('', 'pods', a.namespace, s(ref.name));
  if (!pod) return deny(status.notFound({ group: '', resource: 'pods' }, s(ref.name)));
  if (s(ref.uid) !== pod.metadata.uid) {
    return forbidden(a, `the UID in the bound object reference (${s(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (podNodeName(pod) !== nodeName) return forbidden(a, 'node requested token bound to a pod scheduled on a different node');
  return ok();
}

function admitLease(nodeName: string, a: AdmissionAttributes): AdmissionVerdict {
  if (a.namespace !== NODE_LEASE_NAMESPACE) return forbidden(a, `can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  const name = a.operation === 'CREATE' ? a.object?.metadata.name ?? '' : a.name;
  if (name !== nodeName) return forbidden(a, 'can only access node lease with the same name as the requesting node');
  return ok();
}

function admitCSINode(nodeName: string, a: AdmissionAttributes): AdmissionVerdict {
  const name = a.operation === 'CREATE' ? a.object?.metadata.name ?? '' : a.name;
  if (name !== nodeName) return forbidden(a, 'can only access CSINode with the same name as the requesting node');
  return ok();
}

/** Status fields a kubelet may change on a PVC (RecoverVolumeExpansionFailure is on in 1.32). */
const PVC_STATUS_FIELDS = ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources'];

function comparablePVC(pvc: KObject): string {
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = pvc.metadata;
  const st = { ...obj(pvc.status) };
  for (const f of PVC_STATUS_FIELDS) delete st[f];
  return JSON.stringify({ ...pvc, metadata: meta, status: st });
}

function admitPVC(nodeName: string, a: AdmissionAttributes): AdmissionVerdict {
  if (a.subresource !== 'status') return forbidden(a, 'may only update PVC status');
  if (a.operation !== 'UPDATE') return forbidden(a, `unexpected operation "${a.operation}"`);
  if (!a.object || !a.oldObject) return forbidden(a, 'unexpected type <nil>');
  if (comparablePVC(a.object) !== comparablePVC(a.oldObject)) {
    return forbidden(a, `node "${nodeName}" is not allowed to update fields other than status.capacity and status.conditions`);
  }
  return ok();
}

export function nodeRestrictionAdmit(a: AdmissionAttributes, cluster: ClusterReader): AdmissionVerdict {
  const { isNode, nodeName } = nodeIdentity(a.userInfo);
  if (!isNode) return ok();
  if (!nodeName) return forbidden(a, `could not determine node from user "${a.userInfo.username}"`);
  switch (`${a.resource.group}/${a.resource.resource}`) {
    case '/pods':
      return admitPod(nodeName, a, cluster);
    case '/nodes':
      return admitNode(nodeName, a);
    case '/persistentvolumeclaims':
      return admitPVC(nodeName, a);
    case '/serviceaccounts':
      return admitServiceAccountToken(nodeName, a, cluster);
    case 'coordination.k8s.io/leases':
      return admitLease(nodeName, a);
    case 'storage.k8s.io/csinodes':
      return admitCSINode(nodeName, a);
    default:
      return ok();
  }
}

/** Registered like upstream: a mutating-phase plugin that only ever rejects. */
export const nodeRestrictionPlugin: AdmissionPlugin = {
  name: 'NodeRestriction',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE',
  admit: nodeRestrictionAdmit,
};
