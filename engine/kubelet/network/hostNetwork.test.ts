// hostNetwork pods: no network namespace of their own. The pod's IP is its
// node's, its hostname the node's, its servers listen on the node's address
// (other pods reach them there, and through a Service whose endpoint is the
// node's address), and its own connections leave from the host, through nat
// and filter OUTPUT.
import { describe, expect, it } from 'vitest';
import { call } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { networkCluster, runningPod } from './testCluster';

describe('hostNetwork pods', () => {
  it("have the node's address and hostname, serve on it, and reach Services from the host", { timeout: 180_000 }, async () => {
    const { e, kubectl } = networkCluster(91, 2);
    const nodeIP = (n: string) => call(e, 'GET', `/api/v1/nodes/${n}`).body.status.addresses.find((a: { type: string }) => a.type === 'InternalIP').address as string;
    runningPod(e, 'web', 'node-1', 'nginx:1.27.3', { labels: { app: 'web' }, hostNetwork: true });
    const pod = call(e, 'GET', '/api/v1/namespaces/default/pods/web').body;
    expect(pod.status.podIP).toBe(nodeIP('node-1'));
    expect(pod.status.podIPs).toEqual([{ ip: nodeIP('node-1') }]);
    expect((await kubectl('exec', 'web', '--', 'hostname')).stdout).toBe('node-1\n');
    // The node's /etc/hosts under the kubelet's host-network header, and the node's hostname.
    const hosts = (await kubectl('exec', 'web', '--', 'cat', '/etc/hosts')).stdout;
    expect(hosts).toMatch(/^# Kubernetes-managed hosts file \(host network\)\.\n127\.0\.0\.1\tlocalhost\n/);
    expect(hosts).toContain(`${nodeIP('node-1')}\tnode-1\n`);
    expect((await kubectl('exec', 'web', '--', 'cat', '/etc/hostname')).stdout).toBe('node-1\n');
    // Another node's pod reaches nginx on node-1's address; a port nothing on the host listens on is refused.
    const client = runningPod(e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    expect(client).toMatch(/^10\.244\./);
    expect((await kubectl('exec', 'client', '--', 'wget', '-qO-', nodeIP('node-1'))).stdout).toContain('<title>Welcome to nginx!</title>');
    expect((await kubectl('exec', 'client', '--', 'wget', '-qO-', `${nodeIP('node-1')}:81`)).stderr).toContain('Connection refused');
    // A Service whose endpoint is the node's address.
    const svc = call(e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 8080, targetPort: 80 }] } });
    const ip = svc.body.spec.clusterIP as string;
    runUntil(e, () => (e.nodeMachine('node-2')!.iptables.includes(`--to-destination ${nodeIP('node-1')}:80`)), 'the endpoint on node-2', 30_000, 100);
    expect((await kubectl('exec', 'client', '--', 'wget', '-qO-', `${ip}:8080`)).stdout).toContain('Welcome to nginx!');
    // A hostNetwork client's connection to the cluster IP goes through nat OUTPUT.
    runningPod(e, 'hostclient', 'node-1', 'busybox:1.36', { command: ['sleep', '3600'], hostNetwork: true });
    expect((await kubectl('exec', 'hostclient', '--', 'wget', '-qO-', `${ip}:8080`)).stdout).toContain('Welcome to nginx!');
    expect(e.nodeMachine('node-1')!.iptables).toMatch(/^\[[1-9]\d*:\d+\] -A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES$/m);
    // Sharing the host's network, it reaches the other hostNetwork pod's nginx on 127.0.0.1 and on the node's address.
    expect((await kubectl('exec', 'hostclient', '--', 'wget', '-qO-', '127.0.0.1')).stdout).toContain('Welcome to nginx!');
    expect((await kubectl('exec', 'hostclient', '--', 'wget', '-qO-', nodeIP('node-1'))).stdout).toContain('Welcome to nginx!');
  });
});
