// The node joins the cluster as `kubeadm join` does: the worker's kubelet is
// started only once the control plane answers. kubeadm polls the API server
// every APICallRetryInterval (500 ms, cmd/kubeadm/app/constants); here the
// machine asks GET /readyz (system:public-info-viewer lets anyone read it)
// until the API server says ok, which it does once its post-start hooks have
// made the system namespaces and the RBAC policy. A kubelet started earlier
// would have its registration refused and its start-up Events ("Starting
// kubelet.", NodeHasSufficientMemory, ...) rejected for want of the default
// namespace, and the event sink does not retry a refusal. The machine remembers
// it joined (its kubelet config is on disk): a restarted kubelet starts at once.
import type { ActorContext } from '../sim/kernel';
import { apiRequest } from './client';
import type { Kubelet } from './kubelet';

export const JOIN_RETRY_MS = 500;

export function askToJoin(k: Kubelet, ctx: ActorContext): void {
  apiRequest(k, ctx, { method: 'GET', path: '/readyz', query: {} }, { kind: 'join' });
}

/** The answer to a /readyz poll: the kubelet starts, or the poll comes again. */
export function onJoinAnswer(k: Kubelet, ctx: ActorContext, status: number): void {
  if (status !== 200) {
    ctx.setTimer(JOIN_RETRY_MS, 'join');
    return;
  }
  k.joined(ctx);
}
