// kubectl set env and set resources against the simulated control plane: a
// change is a patch of the pod template that rolls the Deployment out (the new
// pods carry it), no change sends nothing, and local files are changed without
// the server. Expected texts are what kubectl v1.32 printed for the same
// commands against `npm run serve` (the parity suite compares more of them).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';
import { engineKubectl } from '../testing/engineKubectl';
import { selectString, splitEnvironmentFromResources, updateEnv } from './set';

const kubectl = (e: Engine, files: Record<string, string> = {}, stdin?: string) => engineKubectl(e, { files, ...(stdin !== undefined ? { stdin } : {}) });

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', env: [{ name: 'A', value: '1' }] }, { name: 'side', image: 'busybox:1.36', command: ['sleep', '3600'] }] } } },
};

const podsOfWeb = (e: Engine) => (call(e, 'GET', '/api/v1/namespaces/default/pods', undefined, { query: { labelSelector: 'app=web' } }).body.items as any[]).filter((p) => !p.metadata.deletionTimestamp);

describe('kubectl set env and set resources', () => {
  it('roll a Deployment out with the new environment and resources; an unchanged one sends nothing', { timeout: 60_000 }, async () => {
    const e = controlPlane(71, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment).status).toBe(201);
    expect(call(e, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { 'log-level': 'debug' } }).status).toBe(201);
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body.status?.readyReplicas === 1, 'web ready', 60_000, 500);
    const k = kubectl(e);

    expect(await k('set', 'env', 'deploy/web', '-c', 'app', 'B=2', 'A-')).toMatchObject({ stdout: 'deployment.apps/web env updated\n', exitCode: 0 });
    const r = await k('set', 'env', 'deploy/web', '-c', 'app', '--from=configmap/cfg');
    expect(r.stderr).toBe('Warning: key log-level transferred to LOG_LEVEL\n');
    expect((await k('set', 'env', 'deploy/web', '--list')).stdout).toBe('# Deployment web, container app\nB=2\n# LOG_LEVEL from configmap cfg, key log-level\n# Deployment web, container side\n');
    expect((await k('set', 'env', 'deploy/web', '-c', 'app', '--list', '--resolve')).stdout).toBe('# Deployment web, container app\nB=2\nLOG_LEVEL=debug\n');
    // The same values again: an empty patch, nothing sent, nothing printed.
    const before = e.requests(0, 100_000).length;
    expect(await k('set', 'env', 'deploy/web', '-c', 'app', 'B=2')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(e.requests(0, 100_000).filter((x) => x.verb === 'patch').length).toBe(e.requests(0, before).filter((x) => x.verb === 'patch').length);
    expect(await k('set', 'resources', 'deploy/web', '-c', 'app', '--limits=memory=0.5Gi,cpu=500m', '--requests=cpu=100m')).toMatchObject({ stdout: 'deployment.apps/web resource requirements updated\n', exitCode: 0 });

    // The Deployment controller rolls it out: the one pod left runs the new template.
    runUntil(
      e,
      () => {
        const d = call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body;
        const pods = podsOfWeb(e);
        return d.status?.updatedReplicas === 1 && d.status?.replicas === 1 && pods.length === 1 && pods[0].status?.phase === 'Running';
      },
      'rolled out',
      120_000,
      500,
    );
    const app = podsOfWeb(e)[0].spec.containers[0];
    expect(app.env).toEqual([{ name: 'B', value: '2' }, { name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'log-level' } } }]);
    // (a pod's requests default to its limits where it sets none)
    expect(app.resources).toEqual({ limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '512Mi' } });
    expect(call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body.metadata.annotations['deployment.kubernetes.io/revision']).toBe('4');
    // Removing the last variable removes the field.
    expect((await k('set', 'env', 'deploy/web', '-c', 'app', 'B-', 'LOG_LEVEL-')).exitCode).toBe(0);
    expect(call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body.spec.template.spec.containers[0].env).toBeUndefined();
  });

  it('change local files without the server, read variables from stdin, and refuse what upstream refuses', { timeout: 60_000 }, async () => {
    const e = controlPlane(72, { nodes: 0, etcdMembers: 1 });
    const files = { 'web.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: app\n        image: nginx\n' };
    const k = kubectl(e, files, 'X=1 # a comment\n\nY=two\n');
    const out = await k('set', 'env', '-f', 'web.yaml', '--local', '-e', '-', '-o', 'jsonpath={.spec.template.spec.containers[0].env}');
    expect(out).toMatchObject({ stdout: '[{"name":"X","value":"1 "},{"name":"Y","value":"two"}]', exitCode: 0 });
    expect(e.requests(0, 100_000).some((r) => r.resource === 'deployments' && r.name === 'web')).toBe(false);
    expect((await k('set', 'resources', '-f', 'web.yaml', '--local', '--limits=cpu=2', '-o', 'jsonpath={.spec.template.spec.containers[0].resources}')).stdout).toBe('{"limits":{"cpu":"2"}}');
    expect((await k('set', 'resources', 'deploy/web', '--local', '--limits=cpu=1')).stderr).toBe("error: you must specify resources by --filename when --local is set.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n");
    expect((await k('set', 'env', 'deploy', '--all', '-l', 'a=b', 'X=1')).stderr).toBe('error: cannot set --all and --selector at the same time\n');
    expect((await k('set', 'env', 'deploy', 'X=1')).stderr).toBe('error: resource(s) were provided, but no name was specified\n');
    expect((await k('set', 'env', 'deploy/web', 'X=1', 'deploy/other')).stderr).toBe('error: all resources must be specified before environment changes: deploy/web X=1 deploy/other\n');
  });

  it('select containers as helper.go does, and update variables in place', () => {
    expect(selectString('web', '*')).toBe(true);
    expect(selectString('web', 'w*')).toBe(true);
    expect(selectString('web', '*b')).toBe(true);
    expect(selectString('side', 'w*')).toBe(false);
    expect(selectString('sidecar', 'si*car')).toBe(true);
    expect(selectString('web', 'web')).toBe(true);
    expect(selectString('web2', 'web')).toBe(false);
    expect(splitEnvironmentFromResources(['deploy/a', 'deploy/b', 'X=1', 'Y-'])).toEqual({ resources: ['deploy/a', 'deploy/b'], envArgs: ['X=1', 'Y-'] });
    expect(splitEnvironmentFromResources(['X=1', 'deploy/a'])).toBeNull();
    expect(updateEnv([{ name: 'A', value: '1' }, { name: 'B', value: '2' }, { name: 'C', value: '3' }], [{ name: 'B', value: '9' }, { name: 'D', value: '4' }], ['A'])).toEqual([
      { name: 'B', value: '9' },
      { name: 'C', value: '3' },
      { name: 'D', value: '4' },
    ]);
  });
});
