// busybox ping across a two-node cluster: ICMP echo over the pod network as
// TCP and UDP go, the TTL telling the routers crossed (a pod on the same
// bridge 64, another node's pod 62: its node and ours each route it once),
// the network stack answering whatever listens; a Service's cluster IP,
// which kube-proxy's -p tcp rules never DNAT for ICMP, answers nothing.
import { describe, expect, it } from 'vitest';
import { call } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { framesUntil, settle } from '../../host/testing';
import { restore } from '../../netfilter';
import type { KubeletDurable } from '../kubelet';
import { networkCluster, runningPod } from './testCluster';

const SLEEP = { command: ['sleep', '3600'] };
const re = (ip: string) => ip.replace(/\./g, '\\.');

describe('ping over the pod network', () => {
  it('reaches pods on both nodes and the nodes themselves, with their TTLs; a cluster IP and a free address stay silent', { timeout: 180_000 }, async () => {
    const { e, kubectl } = networkCluster(93, 2);
    const nodeIP = (n: string) => call(e, 'GET', `/api/v1/nodes/${n}`).body.status.addresses.find((a: { type: string }) => a.type === 'InternalIP').address as string;
    const far = runningPod(e, 'far', 'node-1', 'busybox:1.36', SLEEP);
    const near = runningPod(e, 'near', 'node-2', 'alpine:3.20', SLEEP);
    runningPod(e, 'client', 'node-2', 'busybox:1.36', SLEEP);

    // What an exec costs by itself (kubectl to the API server to the kubelet, in frames of 50 ms).
    let t0 = e.sim.now;
    await kubectl('exec', 'client', '--', 'true');
    const exec = e.sim.now - t0;
    // Another node's pod: two routers, round trips of the network's latency, one request a second.
    t0 = e.sim.now;
    const r = await kubectl('exec', 'client', '--', 'ping', '-c', '2', far);
    const took = e.sim.now - t0;
    const time = '(\\d+\\.\\d{3})';
    const m = new RegExp(
      `^PING ${re(far)} \\(${re(far)}\\): 56 data bytes\\n` +
        `64 bytes from ${re(far)}: seq=0 ttl=62 time=${time} ms\\n` +
        `64 bytes from ${re(far)}: seq=1 ttl=62 time=${time} ms\\n` +
        `\\n--- ${re(far)} ping statistics ---\\n` +
        `2 packets transmitted, 2 packets received, 0% packet loss\\n` +
        `round-trip min/avg/max = ${time}/${time}/${time} ms\\n$`,
    ).exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(r.stderr).toBe('');
    const [a, b, min, avg, max] = m!.slice(1).map(Number);
    // Two one-way trips of the links' 0.5–1.5 ms.
    for (const t of [a!, b!]) expect(t).toBeGreaterThanOrEqual(1);
    for (const t of [a!, b!]) expect(t).toBeLessThanOrEqual(3);
    expect([min, max]).toEqual([Math.min(a!, b!), Math.max(a!, b!)]);
    expect(avg).toBeCloseTo((a! + b!) / 2, 2);
    // The second reply a second after the first request, and the statistics at once.
    expect(took - exec).toBeGreaterThanOrEqual(950);
    expect(took - exec).toBeLessThanOrEqual(1050);

    // A pod on the same bridge: no router, the bridge's kernel path.
    const same = await kubectl('exec', 'client', '--', 'ping', '-c', '1', near);
    expect(same.stdout).toContain(`64 bytes from ${near}: seq=0 ttl=64 time=0.085 ms\n`);
    // The pod itself, loopback, the node it runs on, the other node.
    expect((await kubectl('exec', 'client', '--', 'ping', '-c', '1', '127.0.0.1')).stdout).toContain('64 bytes from 127.0.0.1: seq=0 ttl=64 time=0.045 ms\n');
    expect((await kubectl('exec', 'client', '--', 'ping', '-c', '1', nodeIP('node-2'))).stdout).toContain(`: seq=0 ttl=64 time=0.085 ms\n`);
    expect((await kubectl('exec', 'client', '--', 'ping', '-c', '1', nodeIP('node-1'))).stdout).toMatch(new RegExp(`64 bytes from ${re(nodeIP('node-1'))}: seq=0 ttl=63 time=`));
    // nginx's image is Debian's: no ping there.
    runningPod(e, 'web', 'node-1', 'nginx:1.27.3');
    const none = await kubectl('exec', 'web', '--', 'ping', '-c', '1', far);
    expect(none.stderr).toContain('executable file not found in $PATH');

    // A Service's cluster IP: no rule DNATs ICMP and nothing routes it. Three requests, then -W's 10 s.
    const svc = call(e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'far' }, spec: { selector: { app: 'far' }, ports: [{ port: 80 }] } });
    const ip = svc.body.spec.clusterIP as string;
    runUntil(e, () => e.nodeMachine('node-2')!.iptables.includes(`-d ${ip}/32`), 'the Service rules on node-2', 30_000, 100);
    const t1 = e.sim.now;
    const lost = await kubectl('exec', 'client', '--', 'ping', '-c', '3', ip);
    const waited = e.sim.now - t1 - exec;
    expect(lost.stdout).toBe(`PING ${ip} (${ip}): 56 data bytes\n\n--- ${ip} ping statistics ---\n3 packets transmitted, 0 packets received, 100% packet loss\n`);
    expect(lost.stderr).toBe('command terminated with exit code 1\n');
    expect(waited).toBeGreaterThanOrEqual(11_950);
    expect(waited).toBeLessThanOrEqual(12_050);
    // An address of node-1's pod network no pod has: its ARP fails, and ping ignores the ICMP error.
    const free = far.replace(/\d+$/, '250');
    const arp = await kubectl('exec', 'client', '--', 'ping', '-c', '1', '-W', '4', free);
    expect(arp.stdout).toContain('1 packets transmitted, 0 packets received, 100% packet loss\n');
  });

  it('from a hostNetwork pod (the node itself), and iptables rules for all protocols apply to ICMP', { timeout: 180_000 }, async () => {
    const { e, kubectl } = networkCluster(94, 2);
    const far = runningPod(e, 'far', 'node-1', 'busybox:1.36', SLEEP);
    const near = runningPod(e, 'near', 'node-2', 'busybox:1.36', SLEEP);
    runningPod(e, 'host', 'node-2', 'busybox:1.36', { ...SLEEP, hostNetwork: true });
    // One router: node-1's, onto its bridge; from node-2's own address the reply needs no routing here.
    expect((await kubectl('exec', 'host', '--', 'ping', '-c', '1', far)).stdout).toContain(`64 bytes from ${far}: seq=0 ttl=63 time=`);
    expect((await kubectl('exec', 'host', '--', 'ping', '-c', '1', near)).stdout).toContain(`64 bytes from ${near}: seq=0 ttl=64 time=0.085 ms\n`);
    // A DROP for everything to the far pod, in node-2's FORWARD chain: the pod's requests die there.
    expect(restore(e.sim.durable<KubeletDurable>('node-2').runtime!.netfilter, `*filter\n-A FORWARD -d ${far}/32 -j DROP\nCOMMIT\n`)).toEqual({ ok: true });
    const dropped = await kubectl('exec', 'near', '--', 'ping', '-c', '1', '-W', '2', far);
    expect(dropped.stdout).toContain('1 packets transmitted, 0 packets received, 100% packet loss\n');
    expect(e.nodeMachine('node-2')!.iptables).toMatch(new RegExp(`^\\[1:84\\] -A FORWARD -d ${re(far)}/32 -j DROP$`, 'm'));
    // A machine that is lost answers nothing.
    e.exec({ type: 'fault', fault: { action: 'node-loss', target: 'node-1' } });
    const gone = await kubectl('exec', 'host', '--', 'ping', '-c', '2', '-W', '1', far);
    expect(gone.stdout).toContain('2 packets transmitted, 0 packets received, 100% packet loss\n');
  });

  it("a container that pings: its log a line a second, and ping by a name cluster DNS resolves", { timeout: 180_000 }, async () => {
    const { e, kubectl } = networkCluster(95, 2, { clusterDns: true });
    const far = runningPod(e, 'far', 'node-1', 'busybox:1.36', SLEEP);
    runningPod(e, 'pinger', 'node-2', 'busybox:1.36', { command: ['ping', far] });
    e.advance(5_000);
    const log = (await kubectl('logs', 'pinger')).stdout.split('\n');
    expect(log[0]).toBe(`PING ${far} (${far}): 56 data bytes`);
    const seqs = log.filter((l) => l.includes('bytes from')).map((l) => new RegExp(`^64 bytes from ${re(far)}: seq=(\\d+) ttl=62 time=\\d+\\.\\d{3} ms$`).exec(l)?.[1]);
    expect(seqs.length).toBeGreaterThanOrEqual(5);
    expect(seqs.slice(0, 5)).toEqual(['0', '1', '2', '3', '4']);
    expect(call(e, 'GET', '/api/v1/namespaces/default/pods/pinger').body.status.phase).toBe('Running');
    // The API's Service by its name: resolved through the search list, and silent like any cluster IP.
    runningPod(e, 'client', 'node-2', 'busybox:1.36', SLEEP);
    const named = await kubectl('exec', 'client', '--', 'ping', '-c', '1', '-W', '1', 'kubernetes.default');
    expect(named.stdout).toMatch(/^PING kubernetes\.default \(10\.96\.0\.1\): 56 data bytes\n\n--- kubernetes\.default ping statistics ---\n1 packets transmitted, 0 packets received, 100% packet loss\n$/);
    expect((await kubectl('exec', 'client', '--', 'ping', '-c', '1', 'nothere')).stderr).toBe("ping: bad address 'nothere'\ncommand terminated with exit code 1\n");
  });

  it('kubectl exec -it: ping runs until Ctrl-C, which it catches — its statistics, its status, and the shell goes on', { timeout: 180_000 }, async () => {
    const { e, bridge, host } = networkCluster(96, 2);
    const far = runningPod(e, 'far', 'node-1', 'busybox:1.36', SLEEP);
    runningPod(e, 'client', 'node-2', 'busybox:1.36', SLEEP);
    let text = '';
    const done = host.run(['exec', '-it', 'client', '--', 'sh'], {}, (stream, t) => void (stream !== 'attach' && (text += t)));
    const until = (test: () => boolean, what: string) => framesUntil(e, bridge, test, { stepMs: 20, maxFrames: 5_000 }, `${what}; output so far: ${JSON.stringify(text)}`);
    await until(() => text.endsWith('/ # '), 'the prompt');
    host.input(`ping ${far}; echo "ping said $?"\n`);
    // A terminal: each line as it comes, one a second.
    await until(() => text.includes(': seq=2 ttl=62 '), 'three replies');
    const started = e.sim.now;
    await until(() => e.sim.now >= started + 1500, 'a while');
    expect(text).not.toContain('statistics');
    host.input('\x03');
    await until(() => text.endsWith('ping said 0\r\n/ # '), 'the statistics and the next command');
    expect(text).toMatch(/\r\n--- [\d.]+ ping statistics ---\r\n[45] packets transmitted, [45] packets received, 0% packet loss\r\nround-trip min\/avg\/max = [\d.]+\/[\d.]+\/[\d.]+ ms\r\nping said 0\r\n\/ # $/);
    host.input('exit\n');
    expect(await settle(e, bridge, done, { stepMs: 20, maxFrames: 5_000 })).toMatchObject({ exitCode: 0 });
  });
});
