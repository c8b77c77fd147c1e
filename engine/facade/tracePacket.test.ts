// Engine.tracePacket: a packet through a node's live iptables as TRACE logs
// it (kube-proxy's rules for a Service, from a pod, the node, or outside), on
// a copy with a PRNG of its own: the simulation is the same after as before.
import { describe, expect, it } from 'vitest';
import { call } from '../apiserver/testing/harness';
import { networkCluster, runningPod } from '../kubelet/network/testCluster';
import { runUntil } from '../scheduler/testing/cluster';
import type { Engine, PacketTraceRequest, PacketTraceView } from './engine';

function service(e: Engine, name: string, selector: Record<string, string>, port: number, targetPort: number): string {
  const r = call(e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector, ports: [{ port, targetPort }] } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.spec.clusterIP;
}

function traced(e: Engine, node: string, req: PacketTraceRequest): PacketTraceView {
  const t = e.tracePacket(node, req);
  if (!t || 'error' in t) throw new Error(`no trace: ${JSON.stringify(t)}`);
  return t;
}

const where = (t: PacketTraceView) => t.steps.map((s) => `${s.table}:${s.chain.replace(/-[A-Z2-7]{16}$/, '')}:${s.type}`);

describe('Engine.tracePacket', () => {
  it('traces a pod’s connection to a Service through its node’s rules to an endpoint, and leaves the simulation untouched', { timeout: 120_000 }, () => {
    const c = networkCluster(91);
    const eps = [runningPod(c.e, 'hello-1', 'node-1', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } }), runningPod(c.e, 'hello-2', 'node-2', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } })];
    const client = runningPod(c.e, 'client', 'node-1', 'busybox:1.36', { command: ['sleep', '3600'] });
    const ip = service(c.e, 'hello', { app: 'hello' }, 80, 8080);
    runUntil(c.e, () => (c.e.nodeMachine('node-1')!.iptables.match(/"default\/hello -> /g) ?? []).length === 2, 'both endpoints on node-1', 30_000, 100);

    const m = c.e.nodeMachine('node-1')!;
    expect(m.internalIP).toBe('10.0.1.2');
    expect(m.podCIDR).toBe('10.244.1.0/24');
    expect(m.pods.map((p) => `${p.namespace}/${p.name} ${p.ip}`)).toEqual([`default/client ${client}`, `default/hello-1 ${eps[0]}`]);

    const before = JSON.stringify(c.e.snapshot());
    const req: PacketTraceRequest = { from: 'pod', src: client, dst: ip, proto: 'tcp', dport: 80 };
    const t = traced(c.e, 'node-1', req);
    expect(JSON.stringify(c.e.snapshot())).toBe(before);
    expect(t).toMatchObject({ node: 'node-1', at: c.e.sim.now, path: 'forward', verdict: 'ACCEPT', dnat: true, masquerade: false, dport: 8080 });
    expect(eps).toContain(t.dst);
    expect(t.packet).toMatchObject({ src: client, dst: ip, proto: 'tcp', dport: 80 });
    expect(t.packet.sport).toBeGreaterThanOrEqual(32768);
    expect(t.packet.sport).toBeLessThanOrEqual(60999);
    expect(where(t).slice(0, 4)).toEqual(['nat:PREROUTING:rule', 'nat:KUBE-SERVICES:rule', 'nat:KUBE-SVC:rule', 'nat:KUBE-SEP:rule']);
    expect(t.steps[3]!.rule).toMatch(/-j DNAT --to-destination 10\.244\.\d+\.\d+:8080$/);
    expect(t.steps[3]!.dnat).toEqual({ dst: t.dst, dport: 8080 });
    // The same request draws the same; other seeds reach both endpoints.
    expect(traced(c.e, 'node-1', req)).toEqual(t);
    const dsts = new Set(Array.from({ length: 16 }, (_, seed) => traced(c.e, 'node-1', { ...req, seed }).dst));
    expect([...dsts].sort()).toEqual([...eps].sort());

    // A port the Service lacks: nat passes it by, nothing DNATs, the policies accept it.
    const miss = traced(c.e, 'node-1', { ...req, dport: 81 });
    expect(miss).toMatchObject({ verdict: 'ACCEPT', dnat: false, dst: ip, dport: 81 });
    expect(where(miss).slice(0, 3)).toEqual(['nat:PREROUTING:rule', 'nat:KUBE-SERVICES:return', 'nat:PREROUTING:policy']);
    expect(miss.steps.at(-1)).toMatchObject({ table: 'nat', chain: 'POSTROUTING', type: 'policy' });

    // From the node itself (OUTPUT): outside the pod range, so marked and masqueraded.
    const host = traced(c.e, 'node-1', { from: 'host', dst: ip, proto: 'tcp', dport: 80 });
    expect(host).toMatchObject({ path: 'output', verdict: 'ACCEPT', dnat: true, masquerade: true, packet: { src: '10.0.1.2' } });
    expect(where(host)[0]).toBe('nat:OUTPUT:rule');
    expect(host.steps.some((s) => s.mark === 0x4000)).toBe(true);
    // From outside, to a pod here: no Service, so only the policies and the jumps that return.
    const out = traced(c.e, 'node-1', { from: 'outside', src: '192.168.5.5', dst: eps[0]!, proto: 'udp', dport: 53 });
    expect(out).toMatchObject({ verdict: 'ACCEPT', dnat: false, masquerade: false });
    expect(out.steps.filter((s) => s.type === 'policy').map((s) => s.chain)).toEqual(['PREROUTING', 'FORWARD', 'POSTROUTING']);
    // ping: ICMP, never DNATed by kube-proxy's tcp rules.
    expect(traced(c.e, 'node-1', { from: 'pod', src: client, dst: ip, proto: 'icmp' })).toMatchObject({ dnat: false, packet: { sport: 0, dport: 0 } });
    expect(JSON.stringify(c.e.snapshot())).toBe(before);
  });

  it('is null for a node without a machine, and says what is wrong with a request it cannot trace', { timeout: 60_000 }, () => {
    const c = networkCluster(92, 1);
    const ok: PacketTraceRequest = { from: 'pod', src: '10.244.1.9', dst: '10.96.0.1', proto: 'tcp', dport: 443 };
    expect(c.e.tracePacket('node-9', ok)).toBeNull();
    expect(c.e.tracePacket('kube-apiserver-0', ok)).toBeNull();
    const err = (over: Partial<PacketTraceRequest>) => c.e.tracePacket('node-1', { ...ok, ...over } as PacketTraceRequest);
    expect(err({})).not.toHaveProperty('error');
    expect(err({ dst: '10.96.0.300' })).toEqual({ error: 'destination "10.96.0.300" is not an IPv4 address' });
    expect(err({ dst: '' })).toEqual({ error: 'destination IP address is required' });
    expect(err({ src: 'a.b.c.d' })).toEqual({ error: 'source "a.b.c.d" is not an IPv4 address' });
    expect(err({ dport: 0 })).toEqual({ error: 'port must be between 1 and 65535 (got 0)' });
    expect(err({ dport: 65536 })).toEqual({ error: 'port must be between 1 and 65535 (got 65536)' });
    expect(err({ dport: undefined })).toEqual({ error: 'port must be between 1 and 65535 (got none)' });
    expect(err({ dport: 1.5 })).toEqual({ error: 'port must be between 1 and 65535 (got 1.5)' });
    expect(err({ proto: 'sctp' as 'tcp' })).toEqual({ error: 'protocol must be one of tcp, udp, icmp (got "sctp")' });
    expect(err({ from: 'moon' as 'pod' })).toEqual({ error: 'from must be one of pod, host, outside (got "moon")' });
    expect(err({ src: '10.244.2.9' })).toEqual({ error: '10.244.2.9 is not a pod address on node-1 (its pods are in 10.244.1.0/24)' });
    expect(err({ src: '10.244.1.1' })).toEqual({ error: '10.244.1.1 is not a pod address on node-1 (its pods are in 10.244.1.0/24)' });
    expect(err({ from: 'host', src: '10.0.9.9' })).toEqual({ error: '10.0.9.9 is not an address of node-1 (127.0.0.0/8, 10.0.1.2, 10.244.1.1)' });
    expect(err({ from: 'host', src: '127.0.0.1' })).not.toHaveProperty('error');
    expect(err({ from: 'outside', src: '10.0.1.2' })).toEqual({ error: '10.0.1.2 is an address of node-1: trace from the node instead' });
    expect(err({ from: 'outside', src: '10.244.1.9' })).toEqual({ error: "10.244.1.9 is in node-1's pod range 10.244.1.0/24: trace from a pod instead" });
    expect(err({ from: 'outside', src: undefined })).toEqual({ error: 'source IP address is required' });
  });
});
