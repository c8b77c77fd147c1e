// kube-apiserver's health endpoints: /healthz, /livez, /readyz, verbose and
// exclude, single checks, and what an API server cut off from etcd reports.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';
import { healthResponse } from './health';

const get = (e: ReturnType<typeof controlPlane>, path: string, query: Record<string, string> = {}) => call(e, 'GET', path, undefined, { query });

describe('health endpoints', () => {
  it('say ok, or with ?verbose every check and "<endpoint> check passed"', () => {
    const e = controlPlane(51);
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = get(e, p);
      expect([r.status, r.text]).toEqual([200, 'ok']);
    }
    const ready = get(e, '/readyz', { verbose: '' }).text.split('\n');
    expect(ready.slice(0, 6)).toEqual(['[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]etcd-readiness ok', '[+]informer-sync ok', '[+]poststarthook/start-apiserver-admission-initializer ok']);
    expect(ready).toContain('[+]poststarthook/rbac/bootstrap-roles ok');
    expect(ready).toContain('[+]poststarthook/start-kube-apiserver-identity-lease-controller ok');
    expect(ready.slice(-3)).toEqual(['[+]shutdown ok', 'readyz check passed', '']);
    const live = get(e, '/livez', { verbose: '' }).text.split('\n');
    expect(live).not.toContain('[+]informer-sync ok');
    expect(live.slice(-2)).toEqual(['livez check passed', '']);
  });

  it('skips an excluded check, warns of one that does not exist, and answers one check alone', () => {
    const e = controlPlane(52);
    const r = healthResponse('/readyz', { method: 'GET', path: '/readyz', query: { verbose: '', exclude: ['etcd', 'nope'] }, headers: {} }, { bootstrapped: true, cachesSynced: true, etcdOk: false });
    expect(r!.status).toBe(500); // etcd-readiness still fails
    expect(r!.body).toContain('[+]etcd excluded: ok\n');
    expect(r!.body).toContain('[-]etcd-readiness failed: reason withheld\n');
    expect(r!.body).toContain('warn: some health checks cannot be excluded: no matches for "nope"\n');
    expect(r!.body.endsWith('readyz check failed\n')).toBe(true);
    expect([get(e, '/readyz/etcd').status, get(e, '/readyz/etcd').text]).toEqual([200, 'ok']);
    expect(get(e, '/livez/poststarthook/rbac/bootstrap-roles').text).toBe('ok');
    expect(get(e, '/readyz/nope').status).toBe(404);
  });

  it('an API server cut off from etcd fails its etcd checks (and is ready again once healed)', () => {
    const e = controlPlane(53);
    expect(e.exec({ type: 'fault', fault: { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' } }).ok).toBe(true);
    // The next etcd calls (the endpoint reconciler's, every 10 s) time out.
    let r = get(e, '/readyz');
    for (let i = 0; i < 60 && r.status === 200; i++) {
      e.advance(1_000);
      r = get(e, '/readyz');
    }
    expect(r.status).toBe(500);
    expect(r.text).toContain('[-]etcd failed: reason withheld\n');
    expect(r.text).toContain('[-]etcd-readiness failed: reason withheld\n');
    expect(r.text).toContain('[+]ping ok\n');
    expect(get(e, '/livez').status).toBe(500);
    expect(e.exec({ type: 'fault', fault: { action: 'heal' } }).ok).toBe(true);
    for (let i = 0; i < 60 && r.status !== 200; i++) {
      e.advance(1_000);
      r = get(e, '/readyz');
    }
    expect([r.status, r.text]).toEqual([200, 'ok']);
  });
});
