// Containers whose program has connections of its own to the API server run
// that part as an actor of its own, started and stopped with the container:
// CoreDNS, whose kubernetes plugin lists and watches the cluster as its pod's
// ServiceAccount (engine/coredns/server.ts). The actor hands what its caches
// hold back to the machine (CorednsView), where the container answers DNS
// queries from it; the machine keeps the actors' ids with its runtime, so a
// restarted kubelet finds them, and a lost machine takes them with it.
import type { ActorContext } from '../../sim/kernel';
import type { FakeRuntime } from '../runtime/runtime';
import type { Kubelet } from '../kubelet';
import { COREDNS_KIND, type CorednsConfig, type CorednsViewMsg } from '../../coredns/server';

/** After each event: a CoreDNS container that started gets its actor; one that stopped loses it. */
export function reconcileProcesses(k: Kubelet, ctx: ActorContext): void {
  const rt = k.runtime;
  if (!rt.mayRunCoredns) return;
  const running = new Map(rt.corednsContainers().map((c) => [c.id, c]));
  for (const [container, actor] of rt.processes) {
    if (running.has(container)) continue;
    ctx.endProcess(actor);
    rt.processes.delete(container);
    rt.dnsCaches.delete(container);
  }
  for (const [container, c] of running) {
    if (rt.processes.has(container)) continue;
    const pod = k.podsByUid(c.podUid);
    const id = `${c.podName}.${c.name}`;
    const config: CorednsConfig = { server: k.config.server, node: ctx.id, container, namespace: c.namespace, serviceAccount: (pod?.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName ?? 'default' };
    if (ctx.spawnProcess(id, COREDNS_KIND, config)) rt.processes.set(container, id);
  }
}

/** A CoreDNS process's caches changed: its container answers from them (the kubelet process need not be up). */
export function onCorednsView(rt: FakeRuntime | null, m: CorednsViewMsg): void {
  // A view still on its way when the container stopped (its process already ended) is dropped.
  if (!rt || rt.poweredOff || !rt.processes.has(m.container)) return;
  rt.dnsCaches.set(m.container, { view: m.view, synced: m.synced });
}
