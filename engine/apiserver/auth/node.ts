// The Node authorizer (plugin/pkg/auth/authorizer/node/node_authorizer.go):
// kubelets (`system:node:NAME` in system:nodes) may read only the secrets,
// configmaps, PVCs, PVs and service accounts their own pods use, and their own
// Node and Lease. Upstream keeps a graph fed by informers; we walk the same
// relations on demand through the ClusterReader:
//   node <- pod <- {secret, configmap, pvc <- pv, serviceaccount};  node <- volumeattachment
import type { KObject } from '../../apimachinery/types';
import type { AuthorizationAttributes, AuthorizationResult, ClusterReader } from '../types';
import { nodeRules } from './bootstrapClusterRoles';
import { rulesAllow } from './rbac';
import { nodeIdentity } from './user';

/** The namespace kubelets keep their heartbeat Leases in (api.NamespaceNodeLease). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/**
 * Authorization attributes plus the field selector of a list/watch, which the
 * Node authorizer consults (AuthorizeNodeWithSelectors, beta and on in 1.32).
 */
export type AttributesWithSelectors = AuthorizationAttributes & { fieldSelector?: string };

/** The static rules, built once (constant data). */
const NODE_RULES = Object.freeze(nodeRules());

type VertexType = 'secret' | 'configmap' | 'pvc' | 'pv' | 'serviceaccount' | 'pod' | 'volumeattachment';

// --- what a pod references (podutil.VisitPodSecretNames / VisitPodConfigmapNames) ---

interface PodRefs {
  secrets: Set<string>;
  configMaps: Set<string>;
  pvcs: Set<string>;
  serviceAccount: string;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Obj => x !== undefined) : []);
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Volume sources that carry a `secretRef: {name}`. */
const SECRET_REF_SOURCES = ['cephfs', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos'];

export function podReferences(pod: KObject): PodRefs {
  const spec = obj(pod.spec) ?? {};
  const refs: PodRefs = { secrets: new Set(), configMaps: new Set(), pvcs: new Set(), serviceAccount: s(spec.serviceAccountName) || s(spec.serviceAccount) };
  const add = (set: Set<string>, name: string) => {
    if (name) set.add(name);
  };
  for (const p of arr(spec.imagePullSecrets)) add(refs.secrets, s(p.name));
  for (const c of [...arr(spec.initContainers), ...arr(spec.containers), ...arr(spec.ephemeralContainers)]) {
    for (const e of arr(c.envFrom)) {
      add(refs.secrets, s(obj(e.secretRef)?.name));
      add(refs.configMaps, s(obj(e.configMapRef)?.name));
    }
    for (const e of arr(c.env)) {
      const from = obj(e.valueFrom);
      add(refs.secrets, s(obj(from?.secretKeyRef)?.name));
      add(refs.configMaps, s(obj(from?.configMapKeyRef)?.name));
    }
  }
  for (const v of arr(spec.volumes)) {
    add(refs.secrets, s(obj(v.secret)?.secretName));
    add(refs.configMaps, s(obj(v.configMap)?.name));
    add(refs.pvcs, s(obj(v.persistentVolumeClaim)?.claimName));
    // A generic ephemeral volume's claim is named <pod>-<volume>.
    if (obj(v.ephemeral)) add(refs.pvcs, `${pod.metadata.name ?? ''}-${s(v.name)}`);
    for (const src of arr(obj(v.projected)?.sources)) {
      add(refs.secrets, s(obj(src.secret)?.name));
      add(refs.configMaps, s(obj(src.configMap)?.name));
    }
    add(refs.secrets, s(obj(obj(v.csi)?.nodePublishSecretRef)?.name));
    for (const k of SECRET_REF_SOURCES) add(refs.secrets, s(obj(obj(v[k])?.secretRef)?.name));
    add(refs.secrets, s(obj(v.azureFile)?.secretName));
  }
  return refs;
}

function podsOnNode(cluster: ClusterReader, nodeName: string, namespace?: string): KObject[] {
  return cluster.list('', 'pods', namespace).filter((p) => s(obj(p.spec)?.nodeName) === nodeName);
}

/** hasPathFrom: is there a chain of references from this object to the node? */
export function hasPathToNode(cluster: ClusterReader, nodeName: string, type: VertexType, namespace: string, name: string): boolean {
  if (!cluster.get('', 'nodes', undefined, nodeName)) return false;
  switch (type) {
    case 'pod': {
      const pod = cluster.get('', 'pods', namespace, name);
      return pod !== undefined && s(obj(pod.spec)?.nodeName) === nodeName;
    }
    case 'secret':
      return podsOnNode(cluster, nodeName, namespace).some((p) => podReferences(p).secrets.has(name)) || pvSecretOnNode(cluster, nodeName, namespace, name);
    case 'configmap':
      return podsOnNode(cluster, nodeName, namespace).some((p) => podReferences(p).configMaps.has(name));
    case 'pvc':
      return podsOnNode(cluster, nodeName, namespace).some((p) => podReferences(p).pvcs.has(name));
    case 'serviceaccount':
      return podsOnNode(cluster, nodeName, namespace).some((p) => podReferences(p).serviceAccount === name);
    case 'pv': {
      const pv = cluster.get('', 'persistentvolumes', undefined, name);
      const claim = obj(obj(pv?.spec)?.claimRef);
      return claim !== undefined && hasPathToNode(cluster, nodeName, 'pvc', s(claim.namespace), s(claim.name));
    }
    case 'volumeattachment': {
      const va = cluster.get('storage.k8s.io', 'volumeattachments', undefined, name);
      return va !== undefined && s(obj(va.spec)?.nodeName) === nodeName;
    }
  }
}

/** node <- pv <- secret: CSI and other PV sources may name secrets the kubelet must read. */
function pvSecretOnNode(cluster: ClusterReader, nodeName: string, namespace: string, secretName: string): boolean {
  for (const pv of cluster.list('', 'persistentvolumes')) {
    const spec = obj(pv.spec) ?? {};
    const csi = obj(spec.csi);
    const refs = [obj(csi?.nodePublishSecretRef), obj(csi?.nodeStageSecretRef), obj(csi?.nodeExpandSecretRef)];
    if (!refs.some((r) => r && s(r.name) === secretName && s(r.namespace) === namespace)) continue;
    if (hasPathToNode(cluster, nodeName, 'pv', '', pv.metadata.name ?? '')) return true;
  }
  return false;
}

// --- the authorizer ---

const noOpinion = (reason = ''): AuthorizationResult => ({ decision: 'NoOpinion', reason });
const allow = (): AuthorizationResult => ({ decision: 'Allow', reason: '' });

function authorizeGraph(cluster: ClusterReader, nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
  if (!attrs.name) return noOpinion('No Object name found');
  if (!hasPathToNode(cluster, nodeName, type, attrs.namespace ?? '', attrs.name)) return noOpinion(`no relationship found between node '${nodeName}' and this object`);
  return allow();
}

function authorizeGet(cluster: ClusterReader, nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
  if (attrs.verb !== 'get') return noOpinion('can only get individual resources of this type');
  if (attrs.subresource) return noOpinion('cannot get subresource');
  return authorizeGraph(cluster, nodeName, type, attrs);
}

function authorizeReadNamespaced(cluster: ClusterReader, nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
  if (!['get', 'list', 'watch'].includes(attrs.verb)) return noOpinion('can only read resources of this type');
  if (attrs.subresource) return noOpinion('cannot read subresource');
  if (!attrs.namespace) return noOpinion('can only read namespaced object of this type');
  return authorizeGraph(cluster, nodeName, type, attrs);
}

function authorizeStatusUpdate(cluster: ClusterReader, nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
  if (attrs.verb !== 'update' && attrs.verb !== 'patch') return noOpinion('can only get/update/patch this type');
  if (attrs.subresource !== 'status') return noOpinion('can only update status subresource');
  return authorizeGraph(cluster, nodeName, type, attrs);
}

function authorizeCreateToken(cluster: ClusterReader, nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
  if (attrs.verb !== 'create' || !attrs.name) return noOpinion('can only create tokens for individual service accounts');
  if (attrs.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
  if (!hasPathToNode(cluster, nodeName, 'serviceaccount', attrs.namespace ?? '', attrs.name)) return noOpinion(`no relationship found between node '${nodeName}' and this object`);
  return allow();
}

function authorizeLease(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
  if (attrs.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  // The name is unknown on create; NodeRestriction checks it then.
  if (attrs.verb !== 'create' && attrs.name !== nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
  return allow();
}

function authorizeCSINode(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
  if (attrs.subresource) return noOpinion('cannot authorize CSINode subresources');
  if (attrs.verb !== 'create' && attrs.name !== nodeName) return noOpinion('can only access CSINode with the same name as the requesting node');
  return allow();
}

function authorizeNodeObject(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
  switch (attrs.subresource ?? '') {
    case '':
      if (['create', 'update', 'patch'].includes(attrs.verb)) return allow();
      if (['get', 'list', 'watch'].includes(attrs.verb)) {
        // By name, not through the graph, so a kubelet can look for its Node before creating it.
        if (attrs.name === nodeName) return allow();
        if (!attrs.name) return noOpinion(`node '${nodeName}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${nodeName}' cannot read '${attrs.name}', only its own Node object`);
      }
      break;
    case 'status':
      if (attrs.verb === 'update' || attrs.verb === 'patch') return allow();
      break;
  }
  return noOpinion();
}

/** `a=b,c==d,e!=f` → equality requirements (only those can scope a node's reads). */
export function fieldSelectorEquals(selector: string | undefined, field: string): string | undefined {
  for (const part of (selector ?? '').split(',')) {
    const m = /^\s*([^!=\s]+)\s*==?\s*(.*?)\s*$/.exec(part);
    if (m && m[1] === field) return m[2];
  }
  return undefined;
}

function authorizePod(cluster: ClusterReader, nodeName: string, attrs: AttributesWithSelectors): AuthorizationResult {
  switch (attrs.subresource ?? '') {
    case '':
      switch (attrs.verb) {
        case 'get':
          return authorizeGet(cluster, nodeName, 'pod', attrs);
        case 'list':
        case 'watch':
          if (fieldSelectorEquals(attrs.fieldSelector, 'spec.nodeName') === nodeName) return allow();
          if (attrs.name) return authorizeGraph(cluster, nodeName, 'pod', attrs);
          return noOpinion('can only list/watch pods with spec.nodeName field selector');
        case 'create':
        case 'delete':
          // Mirror pods; NodeRestriction keeps them to the node's own.
          return allow();
      }
      break;
    case 'status':
      if (attrs.verb === 'update' || attrs.verb === 'patch') return allow();
      break;
    case 'eviction':
      if (attrs.verb === 'create') return allow();
      break;
  }
  return noOpinion();
}

/** NodeAuthorizer.Authorize. Non-node users get NoOpinion with no reason. */
export function nodeAuthorize(attrs: AttributesWithSelectors, cluster: ClusterReader): AuthorizationResult {
  const { isNode, nodeName } = nodeIdentity(attrs.user);
  if (!isNode) return noOpinion();
  if (!nodeName) return noOpinion(`unknown node for user "${attrs.user.username}"`);
  if (attrs.isResourceRequest) {
    const group = attrs.apiGroup ?? '';
    const key = `${group}/${attrs.resource ?? ''}`;
    switch (key) {
      case '/secrets':
        return authorizeReadNamespaced(cluster, nodeName, 'secret', attrs);
      case '/configmaps':
        return authorizeReadNamespaced(cluster, nodeName, 'configmap', attrs);
      case '/persistentvolumeclaims':
        return attrs.subresource === 'status' ? authorizeStatusUpdate(cluster, nodeName, 'pvc', attrs) : authorizeGet(cluster, nodeName, 'pvc', attrs);
      case '/persistentvolumes':
        return authorizeGet(cluster, nodeName, 'pv', attrs);
      case 'storage.k8s.io/volumeattachments':
        return authorizeGet(cluster, nodeName, 'volumeattachment', attrs);
      case '/serviceaccounts':
        return authorizeCreateToken(cluster, nodeName, attrs);
      case 'coordination.k8s.io/leases':
        return authorizeLease(nodeName, attrs);
      case 'storage.k8s.io/csinodes':
        return authorizeCSINode(nodeName, attrs);
      case '/nodes':
        return authorizeNodeObject(nodeName, attrs);
      case '/pods':
        return authorizePod(cluster, nodeName, attrs);
    }
  }
  // Everything else is the same for every node: the static node rules.
  return rulesAllow(attrs, NODE_RULES) ? allow() : noOpinion();
}
