// The official JavaScript client (@kubernetes/client-node, generated from the
// v1.32 API) lists, creates and watches against the headless server.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server';
import { waitForCluster } from './testReady';
import { kubeconfigYaml } from './kubeconfig';

let server: RunningServer;
let kc: k8s.KubeConfig;

describe('@kubernetes/client-node against npm run serve', () => {
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 3, etcdMembers: 1, speed: 5, tlsPort: 0 });
    await waitForCluster(server);
    kc = new k8s.KubeConfig();
    kc.loadFromString(kubeconfigYaml(server.tls!.url, undefined, server.tls!.caPem));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('lists namespaces and creates a ConfigMap', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const ns = await core.listNamespace();
    expect(ns.items.map((n) => n.metadata?.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'from-client-node' }, data: { a: '1' } } });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const got = await core.readNamespacedConfigMap({ name: 'from-client-node', namespace: 'default' });
    expect(got.data).toEqual({ a: '1' });
  });

  it('surfaces a 409 as an ApiException with the Status', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await expect(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'from-client-node' } } })).rejects.toMatchObject({ code: 409 });
  });

  it('watches and sees an ADDED event', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const rv = (await core.listNamespacedConfigMap({ namespace: 'default' })).metadata?.resourceVersion;
    const watch = new k8s.Watch(kc);
    const seen: string[] = [];
    const req = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: rv },
      (type: string, obj: k8s.V1ConfigMap) => seen.push(`${type} ${obj.metadata?.name}`),
      () => undefined,
    );
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'watched-by-client' } } });
    for (let i = 0; i < 200 && !seen.includes('ADDED watched-by-client'); i++) await new Promise((r) => setTimeout(r, 20));
    req.abort();
    expect(seen).toContain('ADDED watched-by-client');
  });
});
