// The node lease controller (pkg/kubelet/nodelease, component-helpers'
// lease controller): renews kube-node-lease/<node> every 10 s with a 40 s
// duration, creating it first when it does not exist. The kubelet's
// post-processing (pkg/kubelet/util/nodelease.go SetNodeOwnerFunc) makes the
// Node the Lease's owner (apiVersion v1, kind Node, name, uid): the Node is
// read for its uid whenever the Lease has no owner yet, on creation and then
// on each renewal until one succeeds, so a node's Lease goes with its Node.
import type { ActorContext } from '../../sim/kernel';
import type { KObject, OwnerReference } from '../../apimachinery/types';
import { rfc3339Micro } from '../../apiserver/http/time';
import { apiRequest } from '../client';
import { LEASE_DURATION_S } from '../config';
import type { Kubelet } from '../kubelet';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

/** The node lease controller's sync: update the cached lease, or get / create it first. */
export function renewLease(k: Kubelet, ctx: ActorContext, attempt = 0): void {
  if (k.leaseInFlight) return;
  k.leaseInFlight = true;
  if (!k.lease) {
    apiRequest(k, ctx, { method: 'GET', path: `${LEASES}/${k.nodeName}`, query: {} }, { kind: 'leaseGet' });
    return;
  }
  if (!k.lease.metadata.ownerReferences?.length) return getNodeFor(k, ctx, 'renew', attempt);
  writeRenewal(k, ctx, attempt, null);
}

/** The Lease is missing: read the Node for its uid, then create the Lease. */
export function createLease(k: Kubelet, ctx: ActorContext): void {
  k.leaseInFlight = true;
  getNodeFor(k, ctx, 'create', 0);
}

function getNodeFor(k: Kubelet, ctx: ActorContext, then: 'create' | 'renew', attempt: number): void {
  apiRequest(k, ctx, { method: 'GET', path: `/api/v1/nodes/${k.nodeName}`, query: {} }, { kind: 'leaseNode', then, attempt });
}

/** The Node's answer (null when the GET failed): go on with what it was read for. */
export function onLeaseNode(k: Kubelet, ctx: ActorContext, then: 'create' | 'renew', attempt: number, node: KObject | null): void {
  const owner = node?.metadata.uid ? nodeOwner(k, node.metadata.uid) : null;
  if (then === 'renew') return writeRenewal(k, ctx, attempt, owner);
  // ensureLease: a new Lease whose owner could not be set is not created this time; the next sync tries again.
  if (!owner) {
    k.leaseInFlight = false;
    return;
  }
  const lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: k.nodeName, namespace: 'kube-node-lease', ownerReferences: [owner] },
    spec: {
      holderIdentity: k.nodeName,
      leaseDurationSeconds: LEASE_DURATION_S,
      renewTime: rfc3339Micro(ctx.now),
    },
  };
  apiRequest(k, ctx, { method: 'POST', path: LEASES, query: {}, body: JSON.stringify(lease) }, { kind: 'leaseWrite', attempt: 0 });
}

function nodeOwner(k: Kubelet, uid: string): OwnerReference {
  return { apiVersion: 'v1', kind: 'Node', name: k.nodeName, uid };
}

function writeRenewal(k: Kubelet, ctx: ActorContext, attempt: number, owner: OwnerReference | null): void {
  const base = k.lease!;
  const lease = {
    ...base,
    metadata: owner && !base.metadata.ownerReferences?.length ? { ...base.metadata, ownerReferences: [owner] } : base.metadata,
    spec: {
      ...(base.spec as object),
      holderIdentity: k.nodeName,
      leaseDurationSeconds: LEASE_DURATION_S,
      renewTime: rfc3339Micro(ctx.now),
    },
  };
  apiRequest(k, ctx, { method: 'PUT', path: `${LEASES}/${k.nodeName}`, query: {}, body: JSON.stringify(lease) }, { kind: 'leaseWrite', attempt });
}
