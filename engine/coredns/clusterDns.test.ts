// Cluster DNS end to end: kubeadm's CoreDNS add-on runs as two pods of the
// coredns Deployment, spread over the nodes, behind the kube-dns Service
// (10.96.0.10). Each pod's process lists and watches Services and
// EndpointSlices as system:serviceaccount:kube-system:coredns, and a pod's
// query for a Service's name goes out over UDP to 10.96.0.10:53, through
// kube-proxy's rules, to one of those pods, which answers from its caches.
import { describe, expect, it } from 'vitest';
import { call } from '../apiserver/testing/harness';
import { ADMIN_TOKEN } from '../apiserver/server/scenario';
import { networkCluster, runningPod } from '../kubelet/network/testCluster';
import { runUntil } from '../scheduler/testing/cluster';
import type { Engine } from '../facade/engine';
import { COREDNS_KIND, type Coredns } from './server';

const corednsPods = (e: Engine) =>
  (call(e, 'GET', '/api/v1/namespaces/kube-system/pods', undefined, { query: { labelSelector: 'k8s-app=kube-dns' } }).body.items as { metadata: { name: string }; spec: { nodeName?: string }; status: { podIP?: string; conditions?: { type: string; status: string }[] } }[]) ?? [];
const ready = (p: { status: { conditions?: { type: string; status: string }[] } }) => p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const corednsActors = (e: Engine) => e.sim.actorIds().filter((id) => e.sim.kindOf(id) === COREDNS_KIND);

function dnsCluster(seed: number) {
  const c = networkCluster(seed, 2, { clusterDns: true });
  runUntil(c.e, () => corednsPods(c.e).filter(ready).length === 2, 'both CoreDNS pods Ready', 120_000, 200);
  return c;
}

describe('cluster DNS (CoreDNS)', () => {
  it('runs kubeadm’s add-on: two Ready pods on different nodes, each with its own process, behind kube-dns', { timeout: 180_000 }, () => {
    const { e } = dnsCluster(91);
    const pods = corednsPods(e);
    expect(new Set(pods.map((p) => p.spec.nodeName))).toEqual(new Set(['node-1', 'node-2']));
    const svc = call(e, 'GET', '/api/v1/namespaces/kube-system/services/kube-dns').body;
    expect(svc.spec.clusterIP).toBe('10.96.0.10');
    const slices = call(e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/kube-system/endpointslices', undefined, { query: { labelSelector: 'kubernetes.io/service-name=kube-dns' } }).body.items;
    expect(slices.flatMap((s: { endpoints: { addresses: string[] }[] }) => s.endpoints.flatMap((x) => x.addresses)).sort()).toEqual(pods.map((p) => p.status.podIP).sort());
    // One actor per running CoreDNS container, synced through the ServiceAccount's RBAC (system:coredns).
    const actors = corednsActors(e);
    expect(actors).toHaveLength(2);
    for (const id of actors) expect(e.sim.actor<Coredns>(id)?.synced).toBe(true);
    // Every node's kube-proxy programs the UDP port as well as the TCP ones.
    expect(e.nodeMachine('node-1')!.iptables).toMatch(/-A KUBE-SERVICES -d 10\.96\.0\.10\/32 -p udp -m comment --comment "kube-system\/kube-dns:dns cluster IP" -m udp --dport 53 -j KUBE-SVC-TCOU7JCQXEZGVUNU/);
  });

  it('resolves a Service’s short name through the search list, and forgets it once the Service is gone', { timeout: 240_000 }, async () => {
    const c = dnsCluster(92);
    runningPod(c.e, 'hello-1', 'node-1', 'gcr.io/google-samples/hello-app:1.0', { labels: { app: 'hello' } });
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    const r = call(c.e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hello' }, spec: { selector: { app: 'hello' }, ports: [{ port: 80, targetPort: 8080 }] } });
    expect(r.status).toBe(201);
    const ip = r.body.spec.clusterIP as string;
    runUntil(c.e, () => c.e.nodeMachine('node-2')!.iptables.includes('"default/hello -> 10.244.'), 'hello routed', 30_000, 100);
    // `hello` has fewer dots than ndots:5: hello.default.svc.cluster.local is asked first, and answered.
    const got = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', 'http://hello');
    expect(got.stderr).toBe('');
    expect(got.stdout).toContain('Hostname: hello-1');
    const ns = await c.kubectl('exec', 'client', '--', 'nslookup', 'hello.default.svc.cluster.local');
    expect(ns.stdout).toContain(`Address: ${ip}`);
    expect(ns.stdout).toContain('Server:\t\t10.96.0.10');
    // busybox 1.28, the tag the DNS tutorials pin: its old nslookup goes through the libc (search list, reverse names).
    runningPod(c.e, 'bb128', 'node-1', 'busybox:1.28', { command: ['sleep', '3600'] });
    const old = await c.kubectl('exec', 'bb128', '--', 'nslookup', 'kubernetes.default');
    expect(old.stdout).toBe('Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      kubernetes.default\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n');
    const nope = await c.kubectl('exec', 'bb128', '--', 'nslookup', 'nope');
    expect(nope.stdout).toBe('Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\n');
    expect(nope.stderr).toBe("nslookup: can't resolve 'nope'\ncommand terminated with exit code 1\n");
    // The Service goes: CoreDNS's watch hears it, and the name no longer resolves.
    call(c.e, 'DELETE', '/api/v1/namespaces/default/services/hello');
    c.e.advance(2000);
    const gone = await c.kubectl('exec', 'client', '--', 'wget', '-qO-', 'http://hello');
    expect(gone.stderr).toContain("wget: bad address 'hello'");
  });

  it('names a headless Service’s pods by hostname (a StatefulSet’s web-0.nginx), through glibc’s resolver in a Debian image', { timeout: 240_000 }, async () => {
    const c = dnsCluster(94);
    expect(call(c.e, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'nginx' }, spec: { clusterIP: 'None', selector: { app: 'web' }, ports: [{ port: 80 }] } }).status).toBe(201);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', labels: { app: 'web' } }, spec: { hostname: 'web-0', subdomain: 'nginx', nodeName: 'node-1', containers: [{ name: 'nginx', image: 'nginx:1.27' }] } };
    expect(call(c.e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
    runningPod(c.e, 'client', 'node-2', 'nginx:1.27');
    const podIP = () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/web-0').body.status?.podIP as string | undefined;
    runUntil(c.e, () => (call(c.e, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', undefined, { query: { labelSelector: 'kubernetes.io/service-name=nginx' } }).body.items[0]?.endpoints?.[0]?.conditions?.ready ?? false) === true, 'web-0 ready in the slice', 60_000, 200);
    c.e.advance(1000);
    const byHost = await c.kubectl('exec', 'client', '--', 'getent', 'hosts', 'web-0.nginx');
    expect(byHost.stdout).toMatch(new RegExp(`^${podIP()!.replace(/\./g, '\\.')}\\s+web-0\\.nginx\\.default\\.svc\\.cluster\\.local\n$`));
    // The headless Service's own name gives its ready endpoints' addresses.
    expect((await c.kubectl('exec', 'client', '--', 'getent', 'hosts', 'nginx')).stdout).toContain(podIP()!);
    // A name nobody has: NXDOMAIN down the search list, and getent exits 2.
    const none = await c.kubectl('exec', 'client', '--', 'getent', 'hosts', 'nope');
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('exit code 2');
  });

  it('gives a replaced CoreDNS pod a new process, and a lost node takes its process with it', { timeout: 240_000 }, () => {
    const { e } = dnsCluster(93);
    const [first] = corednsPods(e).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const before = corednsActors(e);
    expect(before).toContain(`${first!.metadata.name}.coredns`);
    call(e, 'DELETE', `/api/v1/namespaces/kube-system/pods/${first!.metadata.name}`);
    runUntil(e, () => !corednsActors(e).includes(`${first!.metadata.name}.coredns`), 'the deleted pod’s process ends', 60_000, 200);
    runUntil(e, () => corednsPods(e).filter(ready).length === 2 && corednsActors(e).length === 2, 'a replacement, Ready, with its process', 120_000, 200);
    // node-2 is lost: its CoreDNS pod's process goes with the machine.
    const onNode2 = corednsPods(e).filter((p) => p.spec.nodeName === 'node-2').map((p) => `${p.metadata.name}.coredns`);
    expect(onNode2.length).toBeGreaterThan(0);
    e.exec({ type: 'fault', fault: { action: 'node-loss', target: 'node-2' } });
    for (const id of onNode2) expect(e.sim.has(id)).toBe(false);
  });
});

describe('the Corefile', () => {
  it('turned to `log` and rolled out: the new CoreDNS pods log each query; a directive CoreDNS lacks crashes them', { timeout: 240_000 }, async () => {
    const c = dnsCluster(97);
    runningPod(c.e, 'client', 'node-2', 'busybox:1.36', { command: ['sleep', '3600'] });
    const cm = call(c.e, 'GET', '/api/v1/namespaces/kube-system/configmaps/coredns').body;
    const corefile = cm.data.Corefile as string;
    const setCorefile = (text: string) => {
      const now = call(c.e, 'GET', '/api/v1/namespaces/kube-system/configmaps/coredns').body;
      expect(call(c.e, 'PUT', '/api/v1/namespaces/kube-system/configmaps/coredns', { ...now, data: { Corefile: text } }).status).toBe(200);
    };
    setCorefile(corefile.replace('    errors\n', '    errors\n    log\n'));
    expect((await c.kubectl('rollout', 'restart', 'deployment/coredns', '-n', 'kube-system')).stderr).toBe('');
    expect((await c.kubectl('rollout', 'status', 'deployment/coredns', '-n', 'kube-system', '--timeout=120s')).stdout).toContain('successfully rolled out');
    runUntil(c.e, () => corednsPods(c.e).length === 2 && corednsPods(c.e).every(ready) && corednsActors(c.e).length === 2, 'the new pods Ready', 60_000, 200);
    const clientIP = call(c.e, 'GET', '/api/v1/namespaces/default/pods/client').body.status.podIP as string;
    expect((await c.kubectl('exec', 'client', '--', 'nslookup', 'kubernetes.default.svc.cluster.local')).stdout).toContain('Address: 10.96.0.1');
    const logs = (await Promise.all(corednsPods(c.e).map((p) => c.kubectl('logs', '-n', 'kube-system', p.metadata.name)))).map((r) => r.stdout).join('');
    expect(logs).toMatch(new RegExp(`^\\[INFO\\] ${clientIP.replace(/\./g, '\\.')}:\\d+ - \\d+ "A IN kubernetes\\.default\\.svc\\.cluster\\.local\\. udp \\d+ false 512" NOERROR qr,aa,rd \\d+ [\\d.]+s$`, 'm'));
    // A typo: the next pods exit at start with caddy's message, and back off.
    setCorefile(corefile.replace('    errors\n', '    errros\n'));
    await c.kubectl('rollout', 'restart', 'deployment/coredns', '-n', 'kube-system');
    runUntil(c.e, () => corednsPods(c.e).some((p) => (p as { status: { containerStatuses?: { restartCount: number }[] } }).status.containerStatuses?.[0]?.restartCount), 'a new pod restarted', 120_000, 500);
    const broken = corednsPods(c.e).find((p) => (p as { status: { containerStatuses?: { restartCount: number }[] } }).status.containerStatuses?.[0]?.restartCount)!;
    expect((await c.kubectl('logs', '-n', 'kube-system', broken.metadata.name)).stdout + (await c.kubectl('logs', '-n', 'kube-system', broken.metadata.name)).stderr).toContain("/etc/coredns/Corefile:2 - Error during parsing: Unknown directive 'errros'");
    // maxUnavailable 1: one old pod still answers.
    expect((await c.kubectl('exec', 'client', '--', 'nslookup', 'kubernetes.default.svc.cluster.local')).stdout).toContain('Address: 10.96.0.1');
  });
});

describe("the pod's resolver configuration", () => {
  it('is cut to three nameservers, with the kubelet’s DNSConfigForming warning on the pod', { timeout: 120_000 }, async () => {
    const c = networkCluster(96, 1);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'many' }, spec: { nodeName: 'node-1', dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9'] }, containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] } };
    expect(call(c.e, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/many').body.status?.phase === 'Running', 'many Running', 60_000, 200);
    expect((await c.kubectl('exec', 'many', '--', 'cat', '/etc/resolv.conf')).stdout).toBe('search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\nnameserver 1.1.1.1\nnameserver 8.8.8.8\noptions ndots:5\n');
    const events = (await c.kubectl('get', 'events', '--field-selector', 'reason=DNSConfigForming', '-o', 'jsonpath={.items[*].message}')).stdout;
    expect(events).toBe('Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 10.96.0.10 1.1.1.1 8.8.8.8');
  });
});

describe('cluster DNS is part of the deterministic run', () => {
  it('a snapshot taken while CoreDNS processes run restores to the same trace, and a replay of the commands reproduces it', { timeout: 240_000 }, async () => {
    const { Engine } = await import('../facade/engine');
    const opts = { seed: 95, etcdMembers: 1 as const, controlPlane: true, nodes: 2, clusterDns: true };
    const e = Engine.create(opts);
    runUntil(e, () => corednsActors(e).length === 2, 'two CoreDNS processes', 120_000, 500);
    // (Reading the pods is an API call through the simulation: done before the snapshot, so both runs start alike.)
    const victim = corednsPods(e)[0]!.metadata.name;
    const snap = JSON.parse(JSON.stringify(e.snapshot()));
    // A pod deleted after the snapshot: its process ends, a replacement's starts, in both runs alike.
    const del = { type: 'api' as const, request: { method: 'DELETE' as const, path: `/api/v1/namespaces/kube-system/pods/${victim}`, query: {}, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'application/json' } } };
    e.exec(del);
    e.advance(20_000);
    const restored = Engine.restore(snap);
    restored.exec(del);
    restored.advance(20_000);
    expect(restored.state().traceDigest).toBe(e.state().traceDigest);
    expect(corednsActors(restored).sort()).toEqual(corednsActors(e).sort());
    expect(corednsActors(e)).not.toContain(`${victim}.coredns`);
    const replayed = Engine.replay(opts, e.commands(), e.state().virtualTime);
    expect(replayed.state().traceDigest).toBe(e.state().traceDigest);
  });
});
