// ConfigMaps, Secrets and the downward API in containers: environment and
// files, what a missing object does (CreateContainerConfigError for env, a
// FailedMount that holds the pod for a volume), and the retry that starts the
// pod once the object exists.
import { describe, expect, it } from 'vitest';
import { call } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { createPod, kubeletCall, kubeletEvents, podOf, statusOf, waitPhase, withNode } from '../testing';

const exec = (e: Parameters<typeof kubeletCall>[0], pod: string, container: string, ...command: string[]) => {
  const r = kubeletCall(e, 'node-1', { method: 'POST', path: `/exec/default/${pod}/${container}`, query: { command } });
  return JSON.parse(r.body) as { stdout: string; stderr: string; exitCode: number };
};

describe('container configuration', () => {
  it('a missing ConfigMap in env is CreateContainerConfigError until it exists; then env carries its data', { timeout: 60_000 }, () => {
    const e = withNode(61);
    createPod(
      e,
      podOf('env-demo', [
        {
          name: 'app',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'sleep 3600'],
          env: [
            { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'settings', key: 'greeting' } } },
            { name: 'MESSAGE', value: '$(GREETING), world' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'MEM_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
          ],
          envFrom: [{ prefix: 'DB_', secretRef: { name: 'db' } }],
          resources: { limits: { memory: '64Mi' } },
        },
      ]),
    );
    runUntil(e, () => statusOf(e, 'env-demo')?.containerStatuses?.[0]?.state?.waiting?.reason === 'CreateContainerConfigError', 'config error', 30_000, 200);
    expect(statusOf(e, 'env-demo').containerStatuses[0].state.waiting.message).toBe('secret "db" not found');
    expect(call(e, 'POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { USER: 'YWRtaW4=' } }).status).toBe(201);
    runUntil(e, () => statusOf(e, 'env-demo').containerStatuses[0].state.waiting?.message === 'configmap "settings" not found', 'next missing object', 30_000, 200);
    expect(kubeletEvents(e, 'env-demo')).toContain('Failed: Error: configmap "settings" not found');
    expect(call(e, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { greeting: 'hello' } }).status).toBe(201);
    waitPhase(e, 'env-demo', 'Running', 30_000);
    const env = exec(e, 'env-demo', 'app', 'env').stdout.split('\n');
    expect(env).toContain('GREETING=hello');
    expect(env).toContain('MESSAGE=hello, world');
    expect(env).toContain('POD_NAME=env-demo');
    expect(env).toContain('MEM_LIMIT=64');
    expect(env).toContain('DB_USER=admin');
    expect(env).toContain('HOSTNAME=env-demo');
  });

  it('volumes: ConfigMap and Secret files, the downward API; a missing ConfigMap volume is FailedMount and ContainerCreating', { timeout: 60_000 }, () => {
    const e = withNode(62);
    call(e, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' }, data: { 'index.html': '<h1>hi</h1>\n' } });
    createPod(
      e,
      podOf(
        'vol-demo',
        [
          {
            name: 'app',
            image: 'nginx:1.27',
            volumeMounts: [
              { name: 'html', mountPath: '/usr/share/nginx/html' },
              { name: 'info', mountPath: '/etc/podinfo' },
            ],
          },
        ],
        {
          volumes: [
            { name: 'html', configMap: { name: 'web' } },
            { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
          ],
        },
        { labels: { app: 'web', tier: 'front' } },
      ),
    );
    createPod(e, podOf('stuck', [{ name: 'app', image: 'nginx:1.27', volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }] }], { volumes: [{ name: 'cfg', configMap: { name: 'nope' } }] }));
    waitPhase(e, 'vol-demo', 'Running', 30_000);
    expect(exec(e, 'vol-demo', 'app', 'cat', '/usr/share/nginx/html/index.html').stdout).toBe('<h1>hi</h1>\n');
    expect(exec(e, 'vol-demo', 'app', 'cat', '/etc/podinfo/labels').stdout).toBe('app="web"\ntier="front"');
    expect(exec(e, 'vol-demo', 'app', 'cat', '/etc/hostname').stdout).toBe('vol-demo\n');
    e.advance(20_000);
    expect(statusOf(e, 'stuck').phase).toBe('Pending');
    expect(statusOf(e, 'stuck').containerStatuses[0].state.waiting.reason).toBe('ContainerCreating');
    expect(kubeletEvents(e, 'stuck')).toEqual(['FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap "nope" not found']);
  });
});
