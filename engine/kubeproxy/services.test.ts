// Services reached by their cluster IP, as a pod reaches them in a real
// cluster: each node's kube-proxy writes the Service's chains into its
// machine's iptables, and a connection to the cluster IP is DNATed there, by
// those rules, to one of the endpoints (picked at random, as -m statistic
// does). A Service without endpoints is REJECTed: "Connection refused".
import { describe, expect, it } from 'vitest';
import { call } from '../apiserver/testing/harness';
import { networkCluster as cluster, runningPod } from '../kubelet/network/testCluster';
import { runUntil } from '../scheduler/testing/cluster';
import type { Engine } from '../facade/engine';
import { kubeProxyOf, type KubeProxy } from './proxier';

function service(e: Engine, name: string, selector: Record<string, string>, port: number, targetPort: number): string {
  const r = call(e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector, ports: [{ port, targetPort }] } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.spec.clusterIP;
}

const iptables = (e: Engine, node: string) => e.nodeMachine(node)!.iptables;

describe('Services through kube-proxy and iptables', () => {
  it('spreads connections to a cluster IP over the endpoints, on any node, and stops sending to a deleted one', { timeout: 180_000 }, async () => {
    const c = cluster(81);
    runningPod(c.e, 'hello-1', 'node-1', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } });
    runningPod(c.e, 'hello-2', 'node-2', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } });
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    const ip = service(c.e, 'hello', { app: 'hello' }, 80, 8080);
    // The endpoints reach both kube-proxies (EndpointSlice controller, then their informers, then a sync).
    runUntil(c.e, () => ['node-1', 'node-2'].every((n) => iptables(c.e, n).includes('"default/hello -> 10.244.2.')), 'rules on both nodes', 30_000, 100);
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const r = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', ip);
      expect(r.stderr).toBe('');
      seen.add(/Hostname: (\S+)/.exec(r.stdout)?.[1] ?? r.stdout);
    }
    expect([...seen].sort()).toEqual(['hello-1', 'hello-2']);
    // The rules, as iptables-save prints them on node-1.
    const save = iptables(c.e, 'node-1');
    expect(save).toMatch(new RegExp(`^\\[\\d+:\\d+\\] -A KUBE-SERVICES -d ${ip.replace(/\./g, '\\.')}/32 -p tcp -m comment --comment "default/hello cluster IP" -m tcp --dport 80 -j KUBE-SVC-[A-Z2-7]{16}$`, 'm'));
    expect(save).toMatch(/-m statistic --mode random --probability 0\.50000000000 -j KUBE-SEP-/);
    // The kubelet's and kube-proxy's canary chains, in both tables, as on a kubeadm node.
    for (const table of ['*filter', '*nat']) {
      const start = save.indexOf(table);
      const part = save.slice(start, save.indexOf('COMMIT', start));
      expect(part).toMatch(/^:KUBE-KUBELET-CANARY - \[0:0\]$/m);
      expect(part).toMatch(/^:KUBE-PROXY-CANARY - \[0:0\]$/m);
    }
    // xtables_save_string quotes any comment with characters other than letters, digits, _ and -.
    expect(save).toMatch(/-A KUBE-SEP-[A-Z2-7]{16} -p tcp -m comment --comment "default\/hello" -m tcp -j DNAT --to-destination 10\.244\.\d+\.\d+:8080/);
    // The client's node counted the twelve connections (their first packets) on the Service's rule.
    expect(iptables(c.e, 'node-2')).toMatch(/^\[12:720\] -A KUBE-SERVICES -d .* --comment "default\/hello cluster IP"/m);
    // hello-1 goes: its endpoint leaves the slice and both nodes' chains.
    call(c.e, 'DELETE', '/api/v1/namespaces/default/pods/hello-1', { gracePeriodSeconds: 0 });
    runUntil(c.e, () => ['node-1', 'node-2'].every((n) => (iptables(c.e, n).match(/-j DNAT --to-destination 10\.244\.\d+\.\d+:8080/g) ?? []).length === 1), 'one endpoint left', 60_000, 100);
    for (let i = 0; i < 4; i++) expect((await c.kubectl('exec', 'client', '--', 'wget', '-qO-', ip)).stdout).toContain('Hostname: hello-2');
    // kube-proxy worked as itself: its lists and watches were allowed (system:node-proxier).
    expect(c.e.sim.actor<KubeProxy>(kubeProxyOf('node-1'))?.syncs.every((s) => s.ok)).toBe(true);
  });

  it('rejects a connection to a Service without endpoints (busybox: Connection refused), and a port it does not have times out', { timeout: 120_000 }, async () => {
    const c = cluster(82);
    runningPod(c.e, 'client', 'node-1', 'busybox:1.36', { command: ['sleep', '3600'] });
    const ip = service(c.e, 'nothing', { app: 'none' }, 80, 8080);
    runUntil(c.e, () => iptables(c.e, 'node-1').includes('default/nothing has no endpoints'), 'REJECT rule', 30_000, 100);
    expect(iptables(c.e, 'node-1')).toMatch(new RegExp(`-A KUBE-SERVICES -d ${ip.replace(/\./g, '\\.')}/32 -p tcp -m comment --comment "default/nothing has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable`));
    const r = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', ip);
    expect(r.stderr).toBe(`wget: can't connect to remote host (${ip}): Connection refused\ncommand terminated with exit code 1\n`);
    // Nothing matches port 81 of the cluster IP: no route answers, and wget's own timeout ends it.
    const t0 = c.e.sim.now;
    const silent = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', '-T', '3', `${ip}:81`);
    expect(silent.stderr).toContain('wget: download timed out');
    expect(c.e.sim.now - t0).toBeGreaterThanOrEqual(3000);
  });

  it('leaves the rules in the kernel while kube-proxy is down, and a lost machine boots with none until they are written again', { timeout: 180_000 }, async () => {
    const c = cluster(83);
    runningPod(c.e, 'hello-1', 'node-1', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } });
    const ip = service(c.e, 'hello', { app: 'hello' }, 80, 8080);
    runUntil(c.e, () => iptables(c.e, 'node-2').includes('"default/hello cluster IP"'), 'rules on node-2', 30_000, 100);
    c.e.exec({ type: 'fault', fault: { action: 'crash', target: kubeProxyOf('node-2') } });
    c.e.advance(2000);
    expect(iptables(c.e, 'node-2')).toContain(`-d ${ip}/32`);
    c.e.exec({ type: 'fault', fault: { action: 'heal-all' } });
    c.e.exec({ type: 'fault', fault: { action: 'node-loss', target: 'node-2' } });
    c.e.advance(1000);
    expect(iptables(c.e, 'node-2')).not.toContain('KUBE-SERVICES');
    c.e.exec({ type: 'fault', fault: { action: 'heal-all' } });
    runUntil(c.e, () => iptables(c.e, 'node-2').includes('"default/hello cluster IP"'), 'rules written again', 60_000, 100);
    expect(c.e.sim.isUp(kubeProxyOf('node-2'))).toBe(true);
  });
});

describe('kube-proxy at start', () => {
  it('records a Starting event on its node (events.k8s.io/v1, StartKubeProxy), which kubectl describe node lists', { timeout: 60_000 }, async () => {
    const c = cluster(84);
    const r = await c.kubectl('describe', 'node', 'node-1');
    expect(r.stdout).toMatch(/^ {2}Normal {2}Starting +\S+ +kube-proxy *$/m);
    const ev = call(c.e, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events').body.items.find((x: { reportingController?: string; regarding?: { name?: string } }) => x.reportingController === 'kube-proxy' && x.regarding?.name === 'node-1');
    expect(ev).toMatchObject({ action: 'StartKubeProxy', reason: 'Starting', reportingInstance: 'kube-proxy-node-1', regarding: { kind: 'Node', name: 'node-1', uid: 'node-1' }, type: 'Normal' });
    expect(ev.metadata.name).toMatch(/^node-1\.[0-9a-f]+$/);
  });
});

describe('NodePort Services', () => {
  it('answer on every node’s address: DNATed there, forwarded to the endpoint’s node from that node’s address; Local policy drops traffic from outside where no endpoint runs, never a pod’s', { timeout: 180_000 }, async () => {
    const { e, kubectl } = cluster(85, 3);
    const nodeIP = (n: string) => call(e, 'GET', `/api/v1/nodes/${n}`).body.status.addresses.find((a: { type: string }) => a.type === 'InternalIP').address as string;
    runningPod(e, 'web', 'node-1', 'nginx:1.27.3', { labels: { app: 'web' } });
    runningPod(e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    const r = call(e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80, nodePort: 30080 }] } });
    expect(r.status).toBe(201);
    runUntil(e, () => ['node-1', 'node-2', 'node-3'].every((n) => iptables(e, n).includes('--dport 30080 -j KUBE-EXT-')), 'NodePort rules', 30_000, 100);
    // Through node-3, which has no endpoint: it forwards to node-1, masqueraded as itself.
    const via3 = await kubectl('exec', 'client', '--', 'wget', '-qO-', `${nodeIP('node-3')}:30080`);
    expect(via3.stdout).toContain('<title>Welcome to nginx!</title>');
    // The client's own node, and the endpoint's.
    expect((await kubectl('exec', 'client', '--', 'wget', '-qO-', `${nodeIP('node-2')}:30080`)).stdout).toContain('Welcome to nginx!');
    expect((await kubectl('exec', 'client', '--', 'wget', '-qO-', `${nodeIP('node-1')}:30080`)).stdout).toContain('Welcome to nginx!');
    const logs = (await kubectl('logs', 'web')).stdout.split('\n').filter((l) => l.includes('"Wget"'));
    expect(logs[0]).toMatch(new RegExp(`^${nodeIP('node-3').replace(/\./g, '\\.')} - - `));
    // Nothing on the host listens on another port: a reset.
    expect((await kubectl('exec', 'client', '--', 'wget', '-qO-', `${nodeIP('node-3')}:30081`)).stderr).toContain('Connection refused');
    // externalTrafficPolicy: Local — node-3 has no local endpoint: traffic from outside the cluster is dropped there...
    call(e, 'PATCH', '/api/v1/namespaces/default/services/web', { spec: { externalTrafficPolicy: 'Local' } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    runUntil(e, () => iptables(e, 'node-3').includes('"default/web has no local endpoints"'), 'Local policy rules', 30_000, 100);
    expect(iptables(e, 'node-3')).toMatch(/-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default\/web has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 30080 -j DROP/);
    // ...but a pod's connection is short-circuited to every endpoint ("pod traffic for … external destinations"), as upstream does.
    const before = (iptables(e, 'node-3').match(/^\[(\d+):\d+\] -A KUBE-EXT-\w+ -s 10\.244\.0\.0\/16 /m) ?? [])[1];
    expect((await kubectl('exec', 'client', '--', 'wget', '-qO-', `${nodeIP('node-3')}:30080`)).stdout).toContain('Welcome to nginx!');
    expect(Number(/^\[(\d+):\d+\] -A KUBE-EXT-\w+ -s 10\.244\.0\.0\/16 /m.exec(iptables(e, 'node-3'))![1])).toBe(Number(before ?? 0) + 1);
  });
});

describe('sessionAffinity: ClientIP', () => {
  it('sends every connection of one client to the endpoint its first one reached (-m recent), until the timeout passes', { timeout: 180_000 }, async () => {
    const c = cluster(86);
    runningPod(c.e, 'hello-1', 'node-1', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } });
    runningPod(c.e, 'hello-2', 'node-2', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } });
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    const r = call(c.e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hello' }, spec: { selector: { app: 'hello' }, sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } }, ports: [{ port: 80, targetPort: 8080 }] } });
    expect(r.status).toBe(201);
    const ip = r.body.spec.clusterIP as string;
    runUntil(c.e, () => (iptables(c.e, 'node-2').match(/-j DNAT --to-destination 10\.244\.\d+\.\d+:8080/g) ?? []).length === 2, 'both endpoints', 30_000, 100);
    expect(iptables(c.e, 'node-2')).toMatch(/-m recent --rcheck --seconds 60 --reap --name KUBE-SEP-\w+ --mask 255\.255\.255\.255 --rsource -j KUBE-SEP-/);
    const host = async () => /Hostname: (\S+)/.exec((await c.kubectl('exec', 'client', '--', 'wget', '-qO-', ip)).stdout)?.[1];
    const first = await host();
    expect(first).toMatch(/^hello-[12]$/);
    for (let i = 0; i < 8; i++) expect(await host()).toBe(first);
    // Once the client has been quiet for longer than the timeout, the choice is random again: over a few
    // quiet spells both endpoints answer.
    const seen = new Set([first]);
    for (let i = 0; i < 12 && seen.size < 2; i++) {
      c.e.advance(61_000);
      seen.add(await host());
    }
    expect(seen.size).toBe(2);
  });
});
