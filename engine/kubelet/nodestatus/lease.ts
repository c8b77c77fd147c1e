// The node lease controller (pkg/kubelet/nodelease, component-helpers'
// lease controller): renews kube-node-lease/<node> every 10 s with a 40 s
// duration, creating it first when it does not exist.
import type { ActorContext } from '../../sim/kernel';
import { rfc3339Micro } from '../../apiserver/http/time';
import { apiRequest } from '../client';
import { LEASE_DURATION_S } from '../config';
import type { Kubelet } from '../kubelet';

/** The node lease controller's sync: update the cached lease, or get / create it first. */
export function renewLease(k: Kubelet, ctx: ActorContext, attempt = 0): void {
  if (k.leaseInFlight) return;
  k.leaseInFlight = true;
  const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${k.nodeName}`;
  if (!k.lease) {
    apiRequest(k, ctx, { method: 'GET', path, query: {} }, { kind: 'leaseGet' });
    return;
  }
  const lease = {
    ...k.lease,
    spec: {
      ...(k.lease.spec as object),
      holderIdentity: k.nodeName,
      leaseDurationSeconds: LEASE_DURATION_S,
      renewTime: rfc3339Micro(ctx.now),
    },
  };
  apiRequest(k, ctx, { method: 'PUT', path, query: {}, body: JSON.stringify(lease) }, { kind: 'leaseWrite', attempt });
}

export function createLease(k: Kubelet, ctx: ActorContext): void {
  k.leaseInFlight = true;
  const lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: k.nodeName, namespace: 'kube-node-lease' },
    spec: {
      holderIdentity: k.nodeName,
      leaseDurationSeconds: LEASE_DURATION_S,
      renewTime: rfc3339Micro(ctx.now),
    },
  };
  apiRequest(
    k,
    ctx,
    {
      method: 'POST',
      path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases',
      query: {},
      body: JSON.stringify(lease),
    },
    { kind: 'leaseWrite', attempt: 0 },
  );
}
