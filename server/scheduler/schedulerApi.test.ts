// The scheduler's playground endpoints over real HTTP: decisions and queue of
// a pod created through the Kubernetes API, and the configuration read and
// replaced as YAML or JSON.
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server';
import { get, http, post } from '../testkit';
import { ADMIN_TOKEN } from '../../engine/apiserver/server/scenario';
import { nodeObject, podObject } from '../../engine/scheduler/testing/cluster';

let srv: RunningServer;
let base = '';

function kube(method: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(`${base}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}`, 'content-length': Buffer.byteLength(text) } }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

beforeAll(async () => {
  srv = await startServer({ port: 0, seed: 21, etcdMembers: 1, speed: 1 });
  base = srv.url;
  await post(base, '/playground/v1/clock', { advance: '3s' });
  // Pods need their namespace's default ServiceAccount: wait for the controller manager (it leads first).
  for (let i = 0; i < 30 && !srv.host.engine.clusterReady(); i++) await post(base, '/playground/v1/clock', { advance: '1s' });
  expect((await kube('POST', '/api/v1/nodes', nodeObject({ name: 'node-a', cpu: '2' }))).status).toBe(201);
  expect((await kube('POST', '/api/v1/namespaces/default/pods', podObject({ name: 'fits', cpu: '500m' }))).status).toBe(201);
  expect((await kube('POST', '/api/v1/namespaces/default/pods', podObject({ name: 'too-big', cpu: '3' }))).status).toBe(201);
  await post(base, '/playground/v1/clock', { advance: '3s' });
});

afterAll(async () => {
  await srv.close();
});

describe('/playground/v1/scheduler', () => {
  it('GET decisions?pod= gives every cycle of the pod with filters and scores', async () => {
    const r = await get(base, '/playground/v1/scheduler/decisions?pod=default/fits');
    expect(r.status).toBe(200);
    const body = r.json as { pod: string; decisions: { cycle: number; selected: string; message: string; nodes: Record<string, { filters: Record<string, string> }> }[] };
    expect(body.pod).toBe('default/fits');
    expect(body.decisions).toHaveLength(1);
    expect(body.decisions[0]!.selected).toBe('node-a');
    expect(body.decisions[0]!.message).toBe('');
    expect(body.decisions[0]!.nodes['node-a']!.filters.NodeResourcesFit).toBe('Success');
    const big = (await get(base, '/playground/v1/scheduler/decisions?pod=default/too-big')).json as { decisions: { selected: string; message: string; nodes: Record<string, { filters: Record<string, string> }> }[] };
    expect(big.decisions[0]!.selected).toBe('');
    expect(big.decisions[0]!.message).toMatch(/^0\/1 nodes are available: 1 Insufficient cpu\./);
    expect(big.decisions[0]!.nodes['node-a']!.filters.NodeResourcesFit).toBe('Insufficient cpu');
  });

  it('rejects a malformed pod parameter and answers 405 for other methods', async () => {
    expect((await get(base, '/playground/v1/scheduler/decisions')).status).toBe(400);
    expect((await get(base, '/playground/v1/scheduler/decisions?pod=nonamespace')).status).toBe(400);
    expect((await post(base, '/playground/v1/scheduler/queue', {})).status).toBe(405);
  });

  it('GET queue shows the unschedulable pod and the plugin that rejected it', async () => {
    const r = await get(base, '/playground/v1/scheduler/queue');
    expect(r.status).toBe(200);
    const q = r.json as { unschedulable: { pod: string; unschedulablePlugins: string[] }[] };
    const e = q.unschedulable.find((x) => x.pod === 'default/too-big');
    expect(e?.unschedulablePlugins).toContain('NodeResourcesFit');
  });

  it('GET config as YAML or JSON; PUT replaces it; an invalid one is a 400 with the reason', async () => {
    const y = await get(base, '/playground/v1/scheduler/config');
    expect(y.status).toBe(200);
    expect(y.headers['content-type']).toBe('application/yaml');
    expect(y.text).toContain('kind: KubeSchedulerConfiguration');
    expect(y.text).toContain('schedulerName: default-scheduler');
    const j = (await get(base, '/playground/v1/scheduler/config?format=json')).json as { profiles: { schedulerName: string }[] };
    expect(j.profiles[0]!.schedulerName).toBe('default-scheduler');
    const put = await http(base, 'PUT', '/playground/v1/scheduler/config', 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 30\n');
    expect(put.status).toBe(200);
    expect(put.text).toContain('percentageOfNodesToScore: 30');
    const asJson = await http(base, 'PUT', '/playground/v1/scheduler/config', { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', profiles: [{ schedulerName: 'default-scheduler' }, { schedulerName: 'second' }] });
    expect(asJson.status).toBe(200);
    expect(asJson.text).toContain('schedulerName: second');
    const bad = await http(base, 'PUT', '/playground/v1/scheduler/config', 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled:\n      - name: NoSuchPlugin\n');
    expect(bad.status).toBe(400);
    expect((bad.json as { error: string }).error).toContain('NoSuchPlugin');
    const yamlErr = await http(base, 'PUT', '/playground/v1/scheduler/config', 'kind: [unclosed');
    expect(yamlErr.status).toBe(400);
    expect((await get(base, '/playground/v1/scheduler/config')).text).toContain('schedulerName: second');
  });
});
