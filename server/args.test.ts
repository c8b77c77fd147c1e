import { describe, expect, it } from 'vitest';
import { parseArgs } from './args';

describe('parseArgs', () => {
  it('reads every option, with = or a separate value', () => {
    expect(parseArgs(['--port', '8080', '--seed=42', '--etcd-members', '5', '--speed', '2.5'])).toEqual({
      ok: true,
      value: { port: 8080, seed: 42, etcdMembers: 5, speed: 2.5, tlsPort: 0 },
    });
  });
  it('defaults seed 1, 3 members, speed 1', () => {
    expect(parseArgs(['--port', '0'])).toEqual({ ok: true, value: { port: 0, seed: 1, etcdMembers: 3, speed: 1, tlsPort: 0 } });
    expect(parseArgs(['--port', '0', '--no-control-plane'])).toEqual({ ok: true, value: { port: 0, seed: 1, etcdMembers: 3, speed: 1, controlPlane: false } });
    expect(parseArgs(['--port', '0', '--max-requests-inflight', '3', '--max-mutating-requests-inflight=2'])).toEqual({ ok: true, value: { port: 0, seed: 1, etcdMembers: 3, speed: 1, tlsPort: 0, maxRequestsInflight: 3, maxMutatingRequestsInflight: 2 } });
    expect(parseArgs(['--port', '0', '--max-requests-inflight', '0']).ok).toBe(false);
    expect(parseArgs(['--port', '0', '--tls-port', '9443', '--kubeconfig', '/tmp/k'])).toEqual({ ok: true, value: { port: 0, seed: 1, etcdMembers: 3, speed: 1, tlsPort: 9443, kubeconfig: '/tmp/k' } });
  });
  it('refuses bad input with a message', () => {
    expect(parseArgs([]).ok).toBe(false);
    expect(parseArgs(['--port', '70000']).ok).toBe(false);
    expect(parseArgs(['--port']).ok).toBe(false);
    expect(parseArgs(['--port', '1', '--etcd-members', '2']).ok).toBe(false);
    expect(parseArgs(['--port', '1', '--speed', '-1']).ok).toBe(false);
    expect(parseArgs(['--port', '1', '--bogus']).ok).toBe(false);
    const r = parseArgs(['--port', '1', '--seed', 'x']);
    expect(!r.ok && r.error).toContain('--seed');
  });
});
