// The real kubectl v1.32 against the headless server: discovery, OpenAPI,
// Table output, apply (create, then a changed re-apply through a strategic
// merge patch), the other verbs, watches and the error statuses.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server';
import { waitForCluster } from './testReady';
import { writeKubeconfig } from './kubeconfig';

const KUBECTL = process.env.KUBECTL_PATH ?? '/usr/bin/kubectl';
const have = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!have) {
  if (process.env.CI) throw new Error(`real kubectl not found at ${KUBECTL}: CI must have it`);
  console.warn(`SKIPPED: the real-kubectl tests need kubectl at ${KUBECTL} (set KUBECTL_PATH)`);
}

let server: RunningServer;
let kubeconfig = '';
let dir = '';

/** Runs kubectl without blocking the event loop: the server it talks to lives in this process. */
function kubectl(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    const child = spawn(KUBECTL, args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const t = setTimeout(() => child.kill(), 30_000);
    child.on('close', (code) => {
      clearTimeout(t);
      resolve({ stdout, stderr, code: code ?? -1 });
    });
  });
}

function ready(): Promise<void> {
  return waitForCluster(server);
}

describe.skipIf(!have)('real kubectl v1.32 against npm run serve', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kg-kubectl-'));
    server = await startServer({ port: 0, seed: 5, etcdMembers: 1, speed: 20, tlsPort: 0 });
    kubeconfig = writeKubeconfig(join(dir, 'kubeconfig'), server.tls!.url, undefined, server.tls!.caPem);
    await ready();
    // Let the controller-manager publish the default ServiceAccounts.
    for (let i = 0; i < 100 && (await kubectl(['get', 'sa', 'default', '-o', 'name'])).code !== 0; i++) await new Promise((r) => setTimeout(r, 50));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('version and api-resources come from discovery', async () => {
    const v = (await kubectl(['version']));
    expect(v.stdout).toContain('Server Version: v1.32.0');
    const ar = (await kubectl(['api-resources']));
    expect(ar.code).toBe(0);
    expect(ar.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
  });

  it('get prints server-side tables', async () => {
    const ns = (await kubectl(['get', 'ns']));
    expect(ns.code).toBe(0);
    expect(ns.stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+AGE$/);
    expect(ns.stdout).toMatch(/^kube-system\s+Active\s+\d+s$/m);
  });

  it('apply creates, then a changed re-apply patches (last-applied annotation)', async () => {
    const f = join(dir, 'cm.yaml');
    writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels:\n    app: web\ndata:\n  a: "1"\n  b: "2"\n');
    const c = (await kubectl(['apply', '-f', f]));
    expect(c.stderr).toBe('');
    expect(c.stdout).toBe('configmap/web created\n');
    writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels:\n    app: web\ndata:\n  a: "1"\n  c: "3"\n');
    expect((await kubectl(['apply', '-f', f])).stdout).toBe('configmap/web configured\n');
    expect((await kubectl(['apply', '-f', f])).stdout).toBe('configmap/web unchanged\n');
    const got = JSON.parse((await kubectl(['get', 'cm', 'web', '-o', 'json'])).stdout);
    expect(got.data).toEqual({ a: '1', c: '3' });
    expect(JSON.parse(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).data).toEqual({ a: '1', c: '3' });
  });

  it('get in every output format', async () => {
    expect((await kubectl(['get', 'cm', 'web', '-o', 'name'])).stdout).toBe('configmap/web\n');
    expect((await kubectl(['get', 'cm', 'web', '-o', 'jsonpath={.data.c}'])).stdout).toBe('3');
    expect((await kubectl(['get', 'cm', 'web', '-o', 'yaml'])).stdout).toMatch(/^apiVersion: v1\ndata:\n  a: "1"\n  c: "3"\nkind: ConfigMap\n/);
    expect((await kubectl(['get', 'cm', 'web', '-o', 'wide'])).stdout).toMatch(/^NAME\s+DATA\s+AGE\nweb\s+2\s+\d+s\n$/);
    expect((await kubectl(['get', 'cm', '--show-labels'])).stdout).toMatch(/^web\s+2\s+\d+s\s+app=web$/m);
    expect((await kubectl(['get', 'cm', '-l', 'app=web', '-o', 'custom-columns=N:.metadata.name'])).stdout).toBe('N\nweb\n');
  });

  it('describe, label, scale, delete', async () => {
    const d = (await kubectl(['describe', 'cm', 'web']));
    expect(d.stdout).toMatch(/^Name:\s+web\nNamespace:\s+default\nLabels:\s+app=web\n/);
    expect((await kubectl(['label', 'cm', 'web', 'tier=front'])).stdout).toBe('configmap/web labeled\n');
    expect((await kubectl(['label', 'cm', 'web', 'tier=back'])).stderr).toBe("error: 'tier' already has a value (front), and --overwrite is false\n");
    const dep = join(dir, 'dep.yaml');
    writeFileSync(dep, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n');
    expect((await kubectl(['apply', '-f', dep])).stdout).toBe('deployment.apps/web created\n');
    expect((await kubectl(['scale', 'deployment', 'web', '--replicas=3'])).stdout).toBe('deployment.apps/web scaled\n');
    expect((await kubectl(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('3');
    expect((await kubectl(['delete', 'cm', 'web'])).stdout).toBe('configmap "web" deleted\n');
  });

  it('get -w prints changes as they happen', async () => {
    const child = spawn(KUBECTL, ['get', 'cm', '-w', '--output-watch-events'], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((r) => setTimeout(r, 800));
    (await kubectl(['create', 'configmap', 'watched', '--from-literal=k=v']));
    for (let i = 0; i < 100 && !/ADDED\s+watched/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
    child.kill();
    expect(out).toMatch(/ADDED\s+watched\s+1\s+\d+s/);
  });

  it('auth can-i answers for the admin and for alice', async () => {
    expect((await kubectl(['auth', 'can-i', 'create', 'pods'])).stdout).toBe('yes\n');
    const r = (await kubectl(['auth', 'can-i', 'create', 'pods', '--as', 'alice']));
    expect(r.stdout).toBe('no\n');
    expect(r.code).toBe(1);
  });

  it('errors: 401, 403, 404, 409, 422', async () => {
    const bad = (await kubectl(['get', 'pods', '--token', 'wrong']));
    expect(bad.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
    expect((await kubectl(['get', 'secrets', '--as', 'alice'])).stderr).toBe('Error from server (Forbidden): secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"\n');
    expect((await kubectl(['get', 'cm', 'nope'])).stderr).toBe('Error from server (NotFound): configmaps "nope" not found\n');
    expect((await kubectl(['create', 'configmap', 'watched'])).stderr).toBe('error: failed to create configmap: configmaps "watched" already exists\n');
    const inv = (await kubectl(['create', 'configmap', 'Bad_Name']));
    expect(inv.stderr).toContain('ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain');
  });
});
