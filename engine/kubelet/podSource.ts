// The kubelet's sources (pkg/kubelet/config, the apiserver source, and the
// node informer): a reflector over pods with spec.nodeName=<node> feeding
// additions (oldest first, HandlePodAdditions), updates and removals to the
// pod workers, and one over the kubelet's own Node (its labels and taints are
// what admission checks), and one over every Service (the service lister the
// containers' Service environment variables come from). After each full list, pods the runtime still runs
// but the API no longer has are killed and removed (HandlePodCleanups).
import type { ActorContext } from '../sim/kernel';
import type { ReflectorEvent } from '../client/reflector';
import type { Pod } from '../scheduler/framework/api';
import { apiRequest } from './client';
import type { Kubelet } from './kubelet';
import { addPod, dispatch, removePod, updatePod } from './pod/podWorkers';
import { recordNodeEvent } from './events';
import { uuidOf } from './nodestatus/nodeStatus';

export function podQuery(k: Kubelet, q: Record<string, string>): Record<string, string> {
  return { ...q, fieldSelector: `spec.nodeName=${k.nodeName}` };
}

export function nodeQuery(k: Kubelet, q: Record<string, string>): Record<string, string> {
  return { ...q, fieldSelector: `metadata.name=${k.nodeName}` };
}

export function listPods(k: Kubelet, ctx: ActorContext): void {
  const q = k.pods.listRequest();
  k.pods.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: podQuery(k, q.query) }, { kind: 'list' });
}

export function watchPods(k: Kubelet, ctx: ActorContext): void {
  const q = k.pods.watchRequest();
  k.pods.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: podQuery(k, q.query) }, { kind: 'watch' });
}

export function listNode(k: Kubelet, ctx: ActorContext): void {
  const q = k.node.listRequest();
  k.node.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: nodeQuery(k, q.query) }, { kind: 'nodeList' });
}

export function watchNode(k: Kubelet, ctx: ActorContext): void {
  const q = k.node.watchRequest();
  k.node.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: nodeQuery(k, q.query) }, { kind: 'nodeWatch' });
}

export function listServices(k: Kubelet, ctx: ActorContext): void {
  const q = k.services.listRequest();
  k.services.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: q.query }, { kind: 'svcList' });
}

export function watchServices(k: Kubelet, ctx: ActorContext): void {
  const q = k.services.watchRequest();
  k.services.reqId = apiRequest(k, ctx, { method: 'GET', path: q.path, query: q.query }, { kind: 'svcWatch' });
}

/** Pods waiting for the Services to be read once start their containers now. */
export function onServicesListed(k: Kubelet, ctx: ActorContext, firstSync: boolean): void {
  if (!firstSync) return;
  for (const w of k.workers.values()) if (w.phase === 'sync') dispatch(k, ctx, w);
}

export function onPodEvents(k: Kubelet, ctx: ActorContext, events: ReflectorEvent[], afterList = false): void {
  const added: Pod[] = [];
  for (const ev of events) {
    const pod = ev.object as Pod;
    const uid = pod.metadata.uid!;
    const w = k.workers.get(uid);
    if (ev.type === 'DELETED') {
      if (w) removePod(k, ctx, w);
      continue;
    }
    if (w) updatePod(k, ctx, w, pod);
    else added.push(pod);
  }
  // HandlePodAdditions: oldest first.
  added.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || a.metadata.name!.localeCompare(b.metadata.name!));
  for (const pod of added) addPod(k, ctx, pod);
  if (afterList) cleanupOrphans(k);
}

/** Sandboxes of pods the API does not have any more (deleted while the kubelet was away) are torn down. */
function cleanupOrphans(k: Kubelet): void {
  const known = new Set([...k.pods.store.values()].map((p) => p.metadata.uid));
  for (const sb of [...k.runtime.sandboxes.values()]) {
    if (known.has(sb.podUid) || k.workers.has(sb.podUid)) continue;
    if (sb.state === 'ready') k.runtime.stopPodSandbox(sb.id, k.runtime.at);
    for (const c of k.runtime.podContainers(sb.podUid)) k.runtime.removeContainer(c.id);
    k.runtime.removePodSandbox(sb.id);
  }
}

export function onNodeEvents(k: Kubelet, ctx: ActorContext, events: ReflectorEvent[]): void {
  // The store is what admission reads. The first sight of the Node tells whether the machine rebooted
  // since it last reported (the MachineInfo status setter compares boot ids).
  if (k.bootChecked) return;
  const node = events.find((e) => e.type !== 'DELETED' && e.object.metadata.name === k.nodeName)?.object;
  if (!node) return;
  k.bootChecked = true;
  const reported = (node.status as { nodeInfo?: { bootID?: string } } | undefined)?.nodeInfo?.bootID ?? '';
  const now = uuidOf(k.bootId);
  if (reported !== '' && reported !== now) {
    recordNodeEvent(k, 'Warning', 'Rebooted', `Node ${k.nodeName} has been rebooted, boot id: ${now}`, ctx.now);
    k.flush(ctx);
  }
}
