// kubectl logs, exec and drain against a simulated cluster with real
// kubelets, through the in-page host (KubectlHost over the API bridge), the
// clock running as the worker's frames run it.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { ApiBridge } from './apiBridge';
import { KubectlHost } from './kubectlHost';
import { kubectlRunner } from './testing';
import { runUntil } from '../scheduler/testing/cluster';
import type { Engine } from '../facade/engine';

function cluster(seed: number, nodes = 2) {
  const e = controlPlane(seed, { nodes, etcdMembers: 1 });
  runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === nodes, 'nodes Ready', 60_000, 500);
  const bridge = new ApiBridge(e);
  const host = new KubectlHost(bridge, () => e.sim.now);
  const kubectl = kubectlRunner(e, bridge, host, { stepMs: 20, maxFrames: 200_000 });
  return { e, kubectl };
}

const apply = (e: Engine, path: string, body: unknown) => {
  const r = call(e, 'POST', path, body);
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${r.text}`);
};
const pods = (e: Engine, selector: string) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: selector } }).body.items ?? []) as any[];
const running = (e: Engine, selector: string) => pods(e, selector).filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);

function deployment(name: string, replicas: number, container: Record<string, unknown>) {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name, ...container }] } } },
  };
}

describe('kubectl logs', () => {
  it('prints a pod’s log, picks the pod of a deployment, defaults the container, and reports what has no log yet', { timeout: 120_000 }, async () => {
    const { e, kubectl } = cluster(101);
    apply(e, '/apis/apps/v1/namespaces/default/deployments', deployment('echo', 2, { image: 'busybox:1.36', command: ['sh', '-c', 'echo hello from $HOSTNAME; sleep 3600'] }));
    apply(e, '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'two' },
      spec: {
        containers: [
          { name: 'main', image: 'busybox:1.36', command: ['sh', '-c', 'echo main says hi; sleep 3600'] },
          { name: 'side', image: 'busybox:1.36', command: ['sh', '-c', 'echo side; sleep 3600'] },
        ],
      },
    });
    apply(e, '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'never' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', imagePullPolicy: 'Never' }] } });
    runUntil(e, () => running(e, 'app=echo').length === 2 && pods(e, '').some((p) => p.metadata.name === 'two' && p.status?.phase === 'Running'), 'pods Running', 120_000, 500);
    const first = running(e, 'app=echo').sort((a, b) => a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp))[0];

    const byName = await kubectl('logs', first.metadata.name);
    expect(byName).toEqual({ stdout: `hello from ${first.metadata.name}\n`, stderr: '', exitCode: 0 });
    const byDeployment = await kubectl('logs', 'deployment/echo');
    expect(byDeployment.stderr).toMatch(/^Found 2 pods, using pod\/echo-[a-z0-9]+-[a-z0-9]+\n$/);
    expect(byDeployment.stdout).toMatch(/^hello from echo-/);
    const defaulted = await kubectl('logs', 'two');
    expect(defaulted).toEqual({ stdout: 'main says hi\n', stderr: 'Defaulted container "main" out of: main, side\n', exitCode: 0 });
    expect((await kubectl('logs', 'two', '-c', 'side')).stdout).toBe('side\n');
    expect((await kubectl('logs', 'two', '-c', 'nope')).stderr).toBe('error: container nope is not valid for pod two\n');
    expect((await kubectl('logs', 'two', '-c', 'side', '--previous')).stderr).toBe('Error from server (BadRequest): previous terminated container "side" in pod "two" not found\n');
    expect((await kubectl('logs', 'never')).stderr).toBe('Error from server (BadRequest): container "app" in pod "never" is waiting to start: ErrImageNeverPull\n');
    const stamped = await kubectl('logs', 'two', '-c', 'main', '--timestamps', '--tail=1');
    expect(stamped.stdout).toMatch(/^2025-01-01T\d\d:\d\d:\d\d(\.\d+)?Z main says hi\n$/);
    expect((await kubectl('logs')).stderr).toBe(
      "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n",
    );
  });

  it('-f follows until the container stops', { timeout: 60_000 }, async () => {
    const { e, kubectl } = cluster(102, 1);
    apply(e, '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'ticker' },
      spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'for i in 1 2 3; do echo tick $i; sleep 2; done'] }] },
    });
    runUntil(e, () => pods(e, '').some((p) => p.metadata.name === 'ticker' && p.status?.phase === 'Running'), 'Running', 60_000, 200);
    expect(await kubectl('logs', '-f', 'ticker')).toEqual({ stdout: 'tick 1\ntick 2\ntick 3\n', stderr: '', exitCode: 0 });
  });
});

describe('kubectl exec', () => {
  it('runs commands the image has, with their output and exit status', { timeout: 60_000 }, async () => {
    const { e, kubectl } = cluster(103, 1);
    apply(e, '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'box' },
      spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo ready > /tmp/state; sleep 3600'] }] },
    });
    runUntil(e, () => pods(e, '').some((p) => p.metadata.name === 'box' && p.status?.phase === 'Running'), 'Running', 60_000, 200);
    expect(await kubectl('exec', 'box', '--', 'cat', '/tmp/state')).toEqual({ stdout: 'ready\n', stderr: '', exitCode: 0 });
    expect(await kubectl('exec', 'box', '--', 'sh', '-c', 'echo $HOSTNAME; exit 3')).toEqual({ stdout: 'box\n', stderr: 'command terminated with exit code 3\n', exitCode: 3 });
    expect(await kubectl('exec', 'box', '--', 'ls', '/nope')).toEqual({ stdout: '', stderr: 'ls: /nope: No such file or directory\ncommand terminated with exit code 1\n', exitCode: 1 });
    expect((await kubectl('exec', 'box')).stderr).toBe('error: you must specify at least one command for the container\n');
    const missing = await kubectl('exec', 'box', '--', 'bash');
    expect(missing.stderr).toMatch(
      /^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]+": OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in \$PATH: unknown\n$/,
    );
  });
});

describe('kubectl drain', () => {
  it('cordons, refuses what it may not touch, evicts through PodDisruptionBudgets with retries, waits, and says drained', { timeout: 180_000 }, async () => {
    const { e, kubectl } = cluster(104, 2);
    apply(e, '/apis/apps/v1/namespaces/default/deployments', deployment('web', 2, { image: 'nginx:1.27' }));
    runUntil(e, () => running(e, 'app=web').length === 2, 'web Running', 120_000, 500);
    const node = running(e, 'app=web')[0].spec.nodeName as string;
    // A pod with no controller on the same node.
    apply(e, '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'loner' }, spec: { nodeName: node, containers: [{ name: 'app', image: 'nginx:1.27' }] } });
    runUntil(e, () => pods(e, '').some((p) => p.metadata.name === 'loner' && p.status?.phase === 'Running'), 'loner Running', 60_000, 200);

    const refused = await kubectl('drain', node);
    expect(refused.stdout).toBe(`node/${node} cordoned\n`);
    expect(refused.stderr).toBe(
      `error: unable to drain node "${node}" due to error: cannot delete Pods that declare no controller (use --force to override): default/loner, continuing command...\nThere are pending nodes to be drained:\n ${node}\ncannot delete Pods that declare no controller (use --force to override): default/loner\n`,
    );
    expect(refused.exitCode).toBe(1);
    expect(call(e, 'GET', `/api/v1/nodes/${node}`).body.spec.unschedulable).toBe(true);

    // A budget that allows no disruption: the eviction is refused (429) and retried every 5 s.
    apply(e, '/apis/policy/v1/namespaces/default/poddisruptionbudgets', {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    });
    const victims = running(e, 'app=web').filter((p) => p.spec.nodeName === node);
    const start = e.sim.now;
    const p = kubectl('drain', node, '--force', '--grace-period=5');
    // The budget opens only when a third web pod is Ready elsewhere: the user scales up after 12 s and the disruption controller does the rest.
    for (let i = 0; i < 600 && e.sim.now - start < 12_000; i++) {
      e.advance(20);
      await new Promise((r) => setImmediate(r));
    }
    expect(call(e, 'GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/web').body.status.disruptionsAllowed).toBe(0);
    const scaled = call(e, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', { spec: { replicas: 3 } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    expect(scaled.status).toBe(200);
    const drained = await p;
    expect(drained.exitCode).toBe(0);
    const lines = drained.stdout.split('\n').filter(Boolean);
    expect(lines[0]).toBe(`node/${node} already cordoned`);
    expect(lines[lines.length - 1]).toBe(`node/${node} drained`);
    for (const v of victims) {
      expect(lines).toContain(`evicting pod default/${v.metadata.name}`);
      expect(lines).toContain(`pod/${v.metadata.name} evicted`);
    }
    expect(lines).toContain('evicting pod default/loner');
    expect(lines).toContain('pod/loner evicted');
    const retries = drained.stderr.split('\n').filter((l) => l.includes('will retry after 5s'));
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(retries[0]).toBe(`error when evicting pods/"${victims[0].metadata.name}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`);
    expect(drained.stderr.startsWith('Warning: deleting Pods that declare no controller: default/loner\n')).toBe(true);
    // Everything left the node; the deployment's replacement runs elsewhere.
    runUntil(e, () => running(e, 'app=web').length === 3 && running(e, 'app=web').every((x) => x.spec.nodeName !== node), 'replacements elsewhere', 60_000, 500);
    expect(await kubectl('uncordon', node)).toEqual({ stdout: `node/${node} uncordoned\n`, stderr: '', exitCode: 0 });
  });
});
