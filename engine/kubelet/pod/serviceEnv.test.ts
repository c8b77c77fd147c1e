// Service environment variables (kubelet getServiceEnvVarMap and
// envvars.FromServices), as `kubectl exec POD -- env` shows them in a
// container: the pod's namespace's Services when enableServiceLinks (the
// default), the default namespace's `kubernetes` Service in every namespace.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { ApiBridge } from '../../host/apiBridge';
import { KubectlHost } from '../../host/kubectlHost';
import { runUntil } from '../../scheduler/testing/cluster';
import type { KObject } from '../../apimachinery/types';
import { serviceEnv } from './serviceEnv';

const svc = (ns: string, name: string, clusterIP: string, ports: unknown[]): KObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { clusterIP, ports } }) as KObject;

describe('serviceEnv', () => {
  const kubernetes = svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]);
  it('gives every variable of envvars.FromServices, first port unnamed or named', () => {
    const web = svc('shop', 'web-front', '10.96.7.7', [
      { name: 'http', port: 80 },
      { name: 'dns-udp', port: 53, protocol: 'UDP' },
    ]);
    expect(serviceEnv([kubernetes, web], 'shop', true)).toEqual({
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBERNETES_SERVICE_PORT_HTTPS: '443',
      KUBERNETES_PORT: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
      KUBERNETES_PORT_443_TCP_PORT: '443',
      KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
      WEB_FRONT_SERVICE_HOST: '10.96.7.7',
      WEB_FRONT_SERVICE_PORT: '80',
      WEB_FRONT_SERVICE_PORT_HTTP: '80',
      WEB_FRONT_SERVICE_PORT_DNS_UDP: '53',
      WEB_FRONT_PORT: 'tcp://10.96.7.7:80',
      WEB_FRONT_PORT_80_TCP: 'tcp://10.96.7.7:80',
      WEB_FRONT_PORT_80_TCP_PROTO: 'tcp',
      WEB_FRONT_PORT_80_TCP_PORT: '80',
      WEB_FRONT_PORT_80_TCP_ADDR: '10.96.7.7',
      WEB_FRONT_PORT_53_UDP: 'udp://10.96.7.7:53',
      WEB_FRONT_PORT_53_UDP_PROTO: 'udp',
      WEB_FRONT_PORT_53_UDP_PORT: '53',
      WEB_FRONT_PORT_53_UDP_ADDR: '10.96.7.7',
    });
  });

  it('other namespaces, headless Services and enableServiceLinks=false give nothing; the master service always', () => {
    const elsewhere = svc('other', 'db', '10.96.1.1', [{ port: 5432 }]);
    const headless = svc('shop', 'peers', 'None', [{ port: 7000 }]);
    expect(Object.keys(serviceEnv([kubernetes, elsewhere, headless], 'shop', true)).every((k) => k.startsWith('KUBERNETES_'))).toBe(true);
    const own = svc('shop', 'db', '10.96.2.2', [{ port: 5432 }]);
    expect(Object.keys(serviceEnv([kubernetes, own], 'shop', false)).every((k) => k.startsWith('KUBERNETES_'))).toBe(true);
    // A `kubernetes` Service of the pod's own namespace takes the name's place.
    const mine = svc('shop', 'kubernetes', '10.96.3.3', [{ port: 8080 }]);
    expect(serviceEnv([mine, kubernetes], 'shop', true).KUBERNETES_SERVICE_HOST).toBe('10.96.3.3');
    expect(serviceEnv([kubernetes, mine], 'shop', true).KUBERNETES_SERVICE_HOST).toBe('10.96.3.3');
  });
});

describe('Service variables in a container', () => {
  it('kubectl exec … env shows them; $(VAR) sees them; the pod’s own env wins', { timeout: 120_000 }, async () => {
    const e = controlPlane(13, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => e.clusterView()?.nodes[0]?.ready === 'True', 'a Ready node', 60_000, 500);
    const bridge = new ApiBridge(e);
    const host = new KubectlHost(bridge, () => e.sim.now);
    const kubectl = async (...args: string[]) => {
      const p = host.run(args);
      let done = false;
      let value!: Awaited<typeof p>;
      p.then((v) => ((done = true), (value = v)));
      for (let i = 0; i < 200_000 && !done; i++) {
        e.advance(20);
        bridge.poll();
        await new Promise((r) => setImmediate(r));
      }
      if (!done) throw new Error(`kubectl ${args.join(' ')} did not finish`);
      return value;
    };
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'redis-primary', namespace: 'default' }, spec: { selector: { app: 'redis' }, ports: [{ name: 'redis', port: 6379 }] } };
    const created = call(e, 'POST', '/api/v1/namespaces/default/services', service);
    expect(created.status).toBe(201);
    const ip = created.body.spec.clusterIP as string;
    const kip = call(e, 'GET', '/api/v1/namespaces/default/services/kubernetes').body.spec.clusterIP as string;
    const pod = (name: string, extra: Record<string, unknown> = {}, env: unknown[] = []) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { ...extra, containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 3600'], env }] },
    });
    const env = [
      { name: 'REDIS_URL', value: 'redis://$(REDIS_PRIMARY_SERVICE_HOST):$(REDIS_PRIMARY_SERVICE_PORT)' },
      { name: 'REDIS_PRIMARY_SERVICE_PORT', value: '1234' },
    ];
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod('linked', {}, env)).status).toBe(201);
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod('unlinked', { enableServiceLinks: false })).status).toBe(201);
    for (const n of ['linked', 'unlinked']) runUntil(e, () => call(e, 'GET', `/api/v1/namespaces/default/pods/${n}`).body.status?.phase === 'Running', `${n} Running`, 60_000, 200);

    const vars = (out: string) => new Map(out.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]));
    const linked = await kubectl('exec', 'linked', '--', 'env');
    expect(linked.exitCode).toBe(0);
    const l = vars(linked.stdout);
    expect(l.get('REDIS_PRIMARY_SERVICE_HOST')).toBe(ip);
    expect(l.get('REDIS_PRIMARY_SERVICE_PORT')).toBe('1234'); // the container's own value wins
    expect(l.get('REDIS_PRIMARY_SERVICE_PORT_REDIS')).toBe('6379');
    expect(l.get('REDIS_PRIMARY_PORT_6379_TCP')).toBe(`tcp://${ip}:6379`);
    expect(l.get('REDIS_PRIMARY_PORT_6379_TCP_ADDR')).toBe(ip);
    // Defined before REDIS_PRIMARY_SERVICE_PORT, so $(…) of it reads the service's value.
    expect(l.get('REDIS_URL')).toBe(`redis://${ip}:6379`);
    expect(l.get('KUBERNETES_SERVICE_HOST')).toBe(kip);
    expect(l.get('KUBERNETES_SERVICE_PORT_HTTPS')).toBe('443');
    expect(l.get('KUBERNETES_PORT')).toBe(`tcp://${kip}:443`);

    const u = vars((await kubectl('exec', 'unlinked', '--', 'env')).stdout);
    expect(u.get('KUBERNETES_SERVICE_HOST')).toBe(kip);
    expect([...u.keys()].some((k) => k.startsWith('REDIS_'))).toBe(false);
  });
});
