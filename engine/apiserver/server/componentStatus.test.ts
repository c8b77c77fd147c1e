// GET componentstatuses: probed at each read, as kube-apiserver does, and shown
// by kubectl as on a real cluster (with the deprecation warning).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import { ADMIN_TOKEN } from './scenario';
import { kubectlOn } from '../../host/testing/kubectl';
import { PROBE_TIMEOUT_MS } from './componentStatus';

type Cs = { metadata: { name: string; creationTimestamp: null }; conditions: { type: string; status: string; message?: string; error?: string }[] };
/** A GET that may take longer than call()'s 10 s (a probe waits up to 20 s). */
function slowGet(e: ReturnType<typeof controlPlane>, path: string): { status: number; body: any } {
  const r = e.exec({ type: 'api', request: { method: 'GET', path, query: {}, headers: { accept: 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` } } });
  if (!r.ok) throw new Error(r.error);
  for (let i = 0; i < 600; i++) {
    const c = e.apiCall(r.result as number);
    if (c?.response) return { status: c.response.status, body: JSON.parse(c.response.body) };
    e.advance(100);
  }
  throw new Error('no answer in 60 s');
}

const byName = (items: Cs[]) => Object.fromEntries(items.map((i) => [i.metadata.name, i.conditions]));

describe('componentstatuses', () => {
  it('lists the controller manager, the scheduler and etcd, each probed: healthy while they run', async () => {
    const e = controlPlane(3);
    const r = call(e, 'GET', '/api/v1/componentstatuses');
    expect(r.status).toBe(200);
    expect(r.headers['warning']).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
    expect(r.body.kind).toBe('ComponentStatusList');
    expect(r.body.metadata).toEqual({});
    expect((r.body.items as Cs[]).map((i) => i.metadata.name).sort()).toEqual(['controller-manager', 'etcd-0', 'scheduler']);
    for (const item of r.body.items as Cs[]) {
      expect(item).toEqual({ metadata: { name: item.metadata.name, creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    }
    const one = call(e, 'GET', '/api/v1/componentstatuses/etcd-0');
    expect(one.body).toEqual({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = call(e, 'GET', '/api/v1/componentstatuses/etcd-1');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ reason: 'NotFound', message: 'componentstatus "etcd-1" not found', details: { name: 'etcd-1', kind: 'componentstatus' } });
    expect(call(e, 'GET', '/api/v1/componentstatuses', undefined, { query: { watch: 'true' } }).status).toBe(405);
    expect(call(e, 'DELETE', '/api/v1/componentstatuses/scheduler').status).toBe(405);

    const out = await kubectlOn(e, ['get', 'componentstatuses']);
    expect(out.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    const rows = out.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^NAME\s+STATUS\s+MESSAGE\s+ERROR$/);
    expect(rows.slice(1).map((l) => l.trim().split(/\s+/)).sort()).toEqual([
      ['controller-manager', 'Healthy', 'ok'],
      ['etcd-0', 'Healthy', 'ok'],
      ['scheduler', 'Healthy', 'ok'],
    ]);
  });

  it('a stopped scheduler refuses the probe: Unhealthy, with the dial error as its message', async () => {
    const e = controlPlane(4);
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'kube-scheduler-0' } }).ok).toBe(true);
    const conds = byName(call(e, 'GET', '/api/v1/componentstatuses').body.items);
    expect(conds['scheduler']).toEqual([{ type: 'Healthy', status: 'False', message: 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused' }]);
    expect(conds['controller-manager']![0]!.status).toBe('True');
    const out = await kubectlOn(e, ['get', 'cs', 'scheduler']);
    expect(out.stdout).toMatch(/^scheduler\s+Unhealthy\s+Get "https:\/\/127\.0\.0\.1:10259\/healthz": dial tcp 127\.0\.0\.1:10259: connect: connection refused\s*$/m);
  });

  it('a component that does not answer times out after 20 s; etcd out of reach fails with the client error', () => {
    const e = controlPlane(5);
    expect(e.exec({ type: 'fault', fault: { action: 'cut', from: 'kube-apiserver-0', to: 'kube-controller-manager-0' } }).ok).toBe(true);
    const t0 = e.sim.now;
    const r = slowGet(e, '/api/v1/componentstatuses/controller-manager');
    expect(e.sim.now - t0).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS);
    expect(r.body.conditions).toEqual([{ type: 'Healthy', status: 'False', message: 'Get "https://127.0.0.1:10257/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' }]);

    expect(e.exec({ type: 'fault', fault: { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' } }).ok).toBe(true);
    const etcd = slowGet(e, '/api/v1/componentstatuses/etcd-0');
    expect(etcd.status).toBe(200);
    const c = etcd.body.conditions[0];
    expect(c.status).toBe('False');
    expect(c.message).toBeUndefined();
    expect(c.error).toMatch(/\S/);
  });
});
