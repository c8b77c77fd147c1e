import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server';
import { waitForCluster } from './testReady';
import { post } from '../testkit';

let server: RunningServer;

describe('POST /playground/v1/kubectl', () => {
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 8, etcdMembers: 1, speed: 5 });
    await waitForCluster(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('runs kubectl against the cluster and answers stdout, stderr and the exit code', async () => {
    const r = await post(server.url, '/playground/v1/kubectl', { args: ['get', 'ns', '-o', 'name'] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ stdout: 'namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\nnamespace/kube-system\n', stderr: '', exitCode: 0 });
    const nf = (await post(server.url, '/playground/v1/kubectl', { args: ['kubectl', 'get', 'cm', 'nope'] })).json as { stderr: string; exitCode: number };
    expect(nf).toEqual({ stdout: '', stderr: 'Error from server (NotFound): configmaps "nope" not found\n', exitCode: 1 });
  });

  it('applies a file given in the body', async () => {
    const r = await post(server.url, '/playground/v1/kubectl', { args: ['apply', '-f', 'app.yaml'], files: { 'app.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-endpoint\n' } });
    expect((r.json as { stdout: string }).stdout).toBe('configmap/from-endpoint created\n');
  });

  it('refuses a malformed body with 400', async () => {
    expect((await post(server.url, '/playground/v1/kubectl', { args: 'get pods' })).status).toBe(400);
    expect((await post(server.url, '/playground/v1/kubectl', { args: [1, 2] })).status).toBe(400);
  });
});
