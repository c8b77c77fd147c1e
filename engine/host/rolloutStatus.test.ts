// kubectl rollout status over several objects and with --timeout, against the
// simulated control plane through the worker's kubectl host (watches and
// sleeps in virtual time). The expected texts, order and exit codes are what
// kubectl v1.32 printed against `npm run serve` for the same objects. (In
// engine/host: the host runs kubectl's promises between the frames it advances.)
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { ApiBridge } from './apiBridge';
import { KubectlHost } from './kubectlHost';
import { settle as settleFrames } from './testing';
import type { Engine } from '../facade/engine';

const FRAMES = { stepMs: 5, maxFrames: 20_000 };
const settle = <T>(e: Engine, bridge: ApiBridge, p: Promise<T>) => settleFrames(e, bridge, p, FRAMES);

const deployment = (name: string, nodeSelector?: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: name } },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { ...(nodeSelector ? { nodeSelector } : {}), containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
});

describe('kubectl rollout status, several objects and --timeout', () => {
  it('visits every object, reports errors at the end in order, times out per object', { timeout: 120_000 }, async () => {
    const e = controlPlane(71, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    for (const d of [deployment('good'), deployment('bad'), deployment('bad2')]) expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', d).status).toBe(201);
    runUntil(e, () => (call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments').body.items as any[]).every((d) => d.status?.availableReplicas === 1), 'three available', 60_000, 500);
    // bad and bad2 roll to a template no node fits: the old pod stays, the new one is Pending.
    for (const n of ['bad', 'bad2']) expect(call(e, 'PATCH', `/apis/apps/v1/namespaces/default/deployments/${n}`, { spec: { template: { spec: { nodeSelector: { nope: 'x' } } } } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => (call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments').body.items as any[]).filter((d) => d.status?.updatedReplicas === 1 && d.status?.replicas === 2).length === 2, 'bad and bad2 stuck', 60_000, 500);
    const bridge = new ApiBridge(e);
    const host = new KubectlHost(bridge, () => e.sim.now);
    const k = (...args: string[]) => settle(e, bridge, host.run(['kubectl', 'rollout', 'status', ...args]));
    const waiting = (n: string) => `Waiting for deployment "${n}" rollout to finish: 1 old replicas are pending termination...\n`;

    expect(await k('deploy/missing', 'deploy/good')).toMatchObject({ stdout: 'deployment "good" successfully rolled out\n', stderr: 'Error from server (NotFound): deployments.apps "missing" not found\n', exitCode: 1 });
    const t0 = e.sim.now;
    expect(await k('deploy/bad', '--timeout=2s')).toMatchObject({ stdout: waiting('bad'), stderr: 'error: timed out waiting for the condition\n', exitCode: 1 });
    expect(e.sim.now - t0).toBeGreaterThanOrEqual(2000);
    expect(e.sim.now - t0).toBeLessThan(3000);
    // Two timeouts are an aggregate: one line each, without "error: ".
    expect(await k('deploy/bad', 'deploy/bad2', '--timeout=1s')).toMatchObject({ stdout: waiting('bad') + waiting('bad2'), stderr: 'timed out waiting for the condition\ntimed out waiting for the condition\n', exitCode: 1 });
    expect(await k('deploy/missing', 'deploy/bad', '--timeout=1s')).toMatchObject({ stdout: waiting('bad'), stderr: 'Error from server (NotFound): deployments.apps "missing" not found\ntimed out waiting for the condition\n', exitCode: 1 });
    // A type: every object of it, by name.
    expect(await k('deployments', '--timeout=1s')).toMatchObject({ stdout: waiting('bad') + waiting('bad2') + 'deployment "good" successfully rolled out\n', exitCode: 1 });
    expect(await k('deploy', '-l', 'app=good')).toMatchObject({ stdout: 'deployment "good" successfully rolled out\n', stderr: '', exitCode: 0 });
    expect(await k('deploy', '-l', 'app=none')).toMatchObject({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect(await k('deploy/bad', '--watch=false')).toMatchObject({ stdout: waiting('bad'), stderr: '', exitCode: 0 });
    expect(await k('deploy/good', 'pod/x')).toMatchObject({ stdout: 'deployment "good" successfully rolled out\n', stderr: 'Error from server (NotFound): pods "x" not found\n', exitCode: 1 });
  });
});
