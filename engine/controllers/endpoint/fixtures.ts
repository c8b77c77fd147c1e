// Object builders for the Endpoints / EndpointSlice controller tests.
import type { KObject } from '../../apimachinery/types';

export function service(name: string, opts: { ns?: string; selector?: Record<string, string> | null; ports?: unknown[]; labels?: Record<string, string>; clusterIP?: string; publishNotReadyAddresses?: boolean; type?: string } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: opts.ns ?? 'default', uid: `uid-svc-${name}`, ...(opts.labels ? { labels: opts.labels } : {}) },
    spec: {
      ...(opts.selector === null ? {} : { selector: opts.selector ?? { app: name } }),
      ports: opts.ports ?? [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
      clusterIP: opts.clusterIP ?? '10.96.0.10',
      ipFamilies: ['IPv4'],
      type: opts.type ?? 'ClusterIP',
      ...(opts.publishNotReadyAddresses ? { publishNotReadyAddresses: true } : {}),
    },
  };
}

export function pod(name: string, opts: { ns?: string; labels?: Record<string, string>; ip?: string | null; ready?: boolean; node?: string; deleting?: boolean; phase?: string; ports?: unknown[]; hostname?: string; subdomain?: string } = {}): KObject {
  const ip = opts.ip === undefined ? `10.244.0.${(name.length * 7 + name.charCodeAt(name.length - 1)) % 250}` : opts.ip;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: opts.ns ?? 'default', uid: `uid-pod-${name}`, labels: opts.labels ?? { app: 'web' }, ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: {
      nodeName: opts.node ?? 'node-1',
      containers: [{ name: 'app', image: 'nginx', ...(opts.ports ? { ports: opts.ports } : {}) }],
      ...(opts.hostname ? { hostname: opts.hostname } : {}),
      ...(opts.subdomain ? { subdomain: opts.subdomain } : {}),
    },
    status: {
      phase: opts.phase ?? 'Running',
      ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  };
}

export function node(name: string, zone?: string): KObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-node-${name}`, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} } };
}
