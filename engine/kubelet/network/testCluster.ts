// Test scaffolding for the pod network's scenarios: a small cluster whose
// nodes are Ready, with kubectl, and pods pinned to nodes, waited for.
import { call, controlPlane } from '../../apiserver/testing/harness';
import { ApiBridge } from '../../host/apiBridge';
import { KubectlHost } from '../../host/kubectlHost';
import { kubectlRunner } from '../../host/testing';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';

const FRAMES = { stepMs: 50, maxFrames: 100_000 };

/** A cluster of `nodes` kubelet nodes, all Ready, and a kubectl for it (its host and bridge, for sessions). */
export function networkCluster(seed: number, nodes = 2, extra: Parameters<typeof controlPlane>[1] = {}) {
  const e = controlPlane(seed, { nodes, etcdMembers: 1, ...extra });
  runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === nodes, 'nodes Ready', 60_000, 500);
  const bridge = new ApiBridge(e);
  const host = new KubectlHost(bridge, () => e.sim.now);
  return { e, bridge, host, kubectl: kubectlRunner(e, bridge, host, FRAMES) };
}

/** A pod of one container on `node` (in the node's network with hostNetwork), Running; its IP. */
export function runningPod(e: Engine, name: string, node: string, image: string, opts: { command?: string[]; labels?: Record<string, string>; hostNetwork?: boolean } = {}): string {
  const spec = { nodeName: node, ...(opts.hostNetwork ? { hostNetwork: true } : {}), containers: [{ name: 'app', image, ...(opts.command ? { command: opts.command } : {}) }] };
  const r = call(e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}) }, spec });
  if (r.status !== 201) throw new Error(r.text);
  runUntil(e, () => call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`).body.status?.phase === 'Running', `${name} Running`, 120_000, 200);
  return call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`).body.status.podIP;
}
