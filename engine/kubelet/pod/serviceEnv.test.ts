// Service environment variables (kubelet getServiceEnvVarMap and
// envvars.FromServices): the pod's namespace's Services when
// enableServiceLinks (the default), the default namespace's `kubernetes`
// Service in every namespace. host/serviceEnv.exec.test.ts reads them in a
// container through kubectl exec.
import { describe, expect, it } from 'vitest';
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
