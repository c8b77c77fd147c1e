// Pods reach each other by IP across nodes: a container's wget or curl opens
// a connection that leaves its node as a packet, the server in the other pod
// answers (and logs it), and what came back reads as busybox wget and curl
// print it. Resets, silence and cut links end as the clients end them.
import { describe, expect, it } from 'vitest';
import { call } from '../../apiserver/testing/harness';
import { networkCluster as cluster, runningPod } from './testCluster';
import { runUntil } from '../../scheduler/testing/cluster';

describe('the pod network', () => {
  it('serves nginx to a busybox wget on another node, and nginx logs the request', { timeout: 120_000 }, async () => {
    const c = cluster(71);
    const ip = runningPod(c.e, 'web', 'node-1', 'nginx:1.27.3');
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    const r = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', ip);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('<title>Welcome to nginx!</title>');
    // nginx serves its document root as it is now.
    await c.kubectl('exec', 'web', '--', 'sh', '-c', 'echo hi from the docroot > /usr/share/nginx/html/index.html');
    expect((await c.kubectl('exec', 'client', '--', 'wget', '-qO-', ip)).stdout).toBe('hi from the docroot\n');
    const logs = await c.kubectl('logs', 'web');
    expect(logs.stdout).toMatch(new RegExp(`^10\\.244\\.2\\.\\d+ - - \\[\\d\\d/[A-Z][a-z]{2}/\\d{4}:\\d\\d:\\d\\d:\\d\\d \\+0000\\] "GET / HTTP/1.1" 200 \\d+ "-" "Wget" "-"$`, 'm'));
  });

  it('answers curl with the body, and with curl 8.x wording a port nothing listens on (exit 7) and a 404 with --fail (22)', { timeout: 120_000 }, async () => {
    const c = cluster(72);
    const ip = runningPod(c.e, 'hello', 'node-1', 'gcr.io/google-samples/hello-app:1.0');
    runningPod(c.e, 'client', 'node-2', 'curlimages/curl:8.11.1', { command: ['sleep', '3600'] });
    const ok = await c.kubectl('exec', 'client', '--', 'curl', '-s', `http://${ip}:8080/`);
    expect(ok.stdout).toBe('Hello, world!\nVersion: 1.0.0\nHostname: hello\n');
    expect(ok.exitCode).toBe(0);
    const refused = await c.kubectl('exec', 'client', '--', 'curl', '-sS', `${ip}:81`);
    expect(refused.stderr).toMatch(new RegExp(`^curl: \\(7\\) Failed to connect to ${ip.replace(/\./g, '\\.')} port 81 after \\d+ ms: Couldn't connect to server\n`));
    expect(refused.stderr).toContain('command terminated with exit code 7');
    const web = runningPod(c.e, 'web', 'node-1', 'nginx:1.27.3');
    const missing = await c.kubectl('exec', 'client', '--', 'curl', '-sSf', `${web}/nope`);
    expect(missing.stderr).toBe('curl: (22) The requested URL returned error: 404\ncommand terminated with exit code 22\n');
    const head = await c.kubectl('exec', 'client', '--', 'curl', '-sI', web);
    expect(head.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.27\.3\r\n.*Content-Length: 121\r\n/s);
  });

  it("ends in busybox wget's own words: a 404, a saved file that exists already, a pipeline", { timeout: 120_000 }, async () => {
    const c = cluster(73);
    const ip = runningPod(c.e, 'web', 'node-1', 'nginx:1.27.3');
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    const missing = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', `${ip}/nope`);
    expect(missing.stderr).toContain('wget: server returned error: HTTP/1.1 404 Not Found\n');
    const saved = await c.kubectl('exec', 'client', '--', 'wget', ip);
    expect(saved.stderr).toBe(`Connecting to ${ip} (${ip}:80)\nsaving to 'index.html'\nindex.html           100% |********************************|   121  0:00:00 ETA\n'index.html' saved\n`);
    const again = await c.kubectl('exec', 'client', '--', 'wget', ip);
    expect(again.stderr).toContain("wget: can't open 'index.html': File exists\n");
    const cat = await c.kubectl('exec', 'client', '--', 'cat', 'index.html');
    expect(cat.stdout).toContain('<h1>Welcome to nginx!</h1>');
    const piped = await c.kubectl('exec', 'client', '--', 'sh', '-c', `wget -qO- ${ip} | grep title; echo done`);
    expect(piped.stdout).toBe('<title>Welcome to nginx!</title>\ndone\n');
    // A connection the command opens later (after a sleep) is opened then, not when the exec starts.
    const t0 = c.e.sim.now;
    const later = await c.kubectl('exec', 'client', '--', 'sh', '-c', `echo first; sleep 2; wget -qO- ${ip} | grep h1`);
    expect(later.stdout).toBe('first\n<h1>Welcome to nginx!</h1>\n');
    expect(c.e.sim.now - t0).toBeGreaterThanOrEqual(2000);
    const served = await c.kubectl('logs', 'web', '--timestamps', '--tail=1');
    expect(Date.parse(served.stdout.split(' ')[0]!) - c.e.sim.epochMs).toBeGreaterThanOrEqual(t0 + 2000);
  });

  it('an address no pod has is unreachable after the ARP gives up (3 s); one nothing routes times out when the kernel does (127 s), a cut link at -T', { timeout: 120_000 }, async () => {
    const c = cluster(74);
    const ip = runningPod(c.e, 'web', 'node-1', 'nginx:1.27.3');
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    for (const nobody of ['10.244.1.250', '10.244.2.250']) {
      const t0 = c.e.sim.now;
      const r = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', nobody);
      expect(r.stderr).toBe(`wget: can't connect to remote host (${nobody}): No route to host\ncommand terminated with exit code 1\n`);
      expect(c.e.sim.now - t0).toBeGreaterThanOrEqual(3000);
      expect(c.e.sim.now - t0).toBeLessThan(10_000);
    }
    // No kube-proxy: a Service's virtual IP goes to no host.
    const t0 = c.e.sim.now;
    const none = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', '10.96.0.1');
    expect(none.stderr).toContain("wget: can't connect to remote host (10.96.0.1): Connection timed out\n");
    expect(c.e.sim.now - t0).toBeGreaterThanOrEqual(127_000);
    c.e.sim.network.partition([['node-1'], ['node-2']]);
    const cut = await c.kubectl('exec', 'client', '--', 'wget', '-T', '5', '-qO-', ip);
    expect(cut.stderr).toContain('wget: download timed out\n');
  });

  it("opens a looping container's connections on time: the server logs one request every 5 s", { timeout: 120_000 }, async () => {
    const c = cluster(75);
    const ip = runningPod(c.e, 'web', 'node-1', 'nginx:1.27.3');
    runningPod(c.e, 'poller', 'node-2', 'busybox:1.36', { command: ['sh', '-c', `while true; do wget -q -O /dev/null http://${ip}/; sleep 5; done`] });
    c.e.advance(30_000);
    const logs = await c.kubectl('logs', 'web', '--timestamps');
    const times = [...logs.stdout.matchAll(/^(\S+) 10\.244\.2\.\d+ .*"Wget"/gm)].map((m) => Date.parse(m[1]!));
    expect(times.length).toBeGreaterThanOrEqual(6);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 5 s of sleep plus a round trip of a few ms.
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(5000), expect(g).toBeLessThan(5100);
    const poller = await c.kubectl('logs', 'poller');
    expect(poller.stdout).toBe('');
  });

  it("logs the kubelet's HTTP probes as nginx logs them: from the node's bridge address, as kube-probe/1.32", { timeout: 120_000 }, async () => {
    const c = cluster(76);
    const spec = { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.27.3', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 } }] };
    expect(call(c.e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec }).status).toBe(201);
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'Ready' && x.status === 'True'), 'web Ready', 120_000, 200);
    const logs = await c.kubectl('logs', 'web');
    expect(logs.stdout).toMatch(/^10\.244\.1\.1 - - \[.*\] "GET \/ HTTP\/1\.1" 200 \d+ "-" "kube-probe\/1\.32" "-"$/m);
  });

  it('a crashed kubelet stops reporting, not serving: its node still answers for its pods', { timeout: 120_000 }, async () => {
    const c = cluster(77);
    const ip = runningPod(c.e, 'web', 'node-1', 'nginx:1.27.3');
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    c.e.sim.crash('node-1');
    const r = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', ip);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('<h1>Welcome to nginx!</h1>');
    c.e.sim.restart('node-1');
    const logs = await c.kubectl('logs', 'web');
    expect(logs.stdout).toMatch(/"GET \/ HTTP\/1\.1" 200 \d+ "-" "Wget" "-"$/m);
  });

  it("names in /etc/hosts resolve: hostAliases (written as the kubelet writes them) and the pod's own name", { timeout: 120_000 }, async () => {
    const c = cluster(78);
    const ip = runningPod(c.e, 'web', 'node-1', 'nginx:1.27.3');
    const spec = { nodeName: 'node-2', hostAliases: [{ ip, hostnames: ['web.local', 'www.web.local'] }], containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] };
    expect(call(c.e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'client' }, spec }).status).toBe(201);
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/client').body.status?.phase === 'Running', 'client Running', 120_000, 200);
    const own = call(c.e, 'GET', '/api/v1/namespaces/default/pods/client').body.status.podIP as string;
    const hosts = await c.kubectl('exec', 'client', '--', 'cat', '/etc/hosts');
    expect(hosts.stdout.endsWith(`${own}\tclient\n\n# Entries added by HostAliases.\n${ip}\tweb.local\twww.web.local\n`)).toBe(true);
    const r = await c.kubectl('exec', 'client', '--', 'wget', '-O-', 'http://www.web.local/');
    expect(r.stdout).toContain('<h1>Welcome to nginx!</h1>');
    expect(r.stderr).toMatch(new RegExp(`^Connecting to www\\.web\\.local \\(${ip.replace(/\./g, '\\.')}:80\\)\nwriting to stdout\n`));
    const self = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', 'client:8080');
    expect(self.stderr).toContain(`wget: can't connect to remote host (${own}): Connection refused\n`);
    const dns = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', 'web');
    expect(dns.stderr).toContain("wget: bad address 'web'\n");
  });
});
