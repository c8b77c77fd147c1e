import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { node, pod, service } from '../endpoint/fixtures';
import { reconcile, endpointPorts, podToEndpoint } from './reconciler';

const nodes = new Map<string, KObject>([['node-1', node('node-1', 'zone-a')], ['node-2', node('node-2')]]);
const web = () => service('web', { selector: { app: 'web' } });
const ipPod = (i: number, o: Parameters<typeof pod>[1] = {}) => pod(`p${i}`, { ip: `10.0.${Math.floor(i / 250)}.${i % 250}`, ...o });

/** An existing slice as the informer would show it, from a planned one. */
function stored(s: KObject, n: number): KObject {
  const c = JSON.parse(JSON.stringify(s)) as KObject;
  c.metadata.name ??= `${c.metadata.generateName}${n}`;
  c.metadata.uid ??= `uid-slice-${n}`;
  c.metadata.generation ??= 1;
  delete c.metadata.generateName;
  return c;
}

describe('EndpointSlice reconciler (reconciler_test.go)', () => {
  it('creates a placeholder slice for a service with no pods', () => {
    const p = reconcile(web(), [], nodes, []);
    expect(p.create).toHaveLength(1);
    expect(p.create[0]).toMatchObject({ addressType: 'IPv4', endpoints: [], ports: [], metadata: { generateName: 'web-' } });
    // ...and keeps it, not delete-and-recreate, when it already exists.
    const again = reconcile(web(), [], nodes, [stored(p.create[0]!, 1)]);
    expect(again).toMatchObject({ create: [], update: [], delete: [] });
  });

  it('builds an endpoint with conditions, nodeName, zone, targetRef and ports', () => {
    const p = reconcile(web(), [ipPod(1)], nodes, []);
    expect(p.create).toHaveLength(1);
    const s = p.create[0]!;
    expect(s.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(s.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'uid-svc-web', controller: true, blockOwnerDeletion: true }]);
    expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(s.endpoints).toEqual([
      { addresses: ['10.0.0.1'], conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod', namespace: 'default', name: 'p1', uid: 'uid-pod-p1' }, nodeName: 'node-1', zone: 'zone-a' },
    ]);
  });

  it('ready/serving/terminating as upstream, publishNotReadyAddresses forces ready', () => {
    const pods = [ipPod(1, { ready: false }), ipPod(2, { deleting: true }), ipPod(3, { deleting: true, ready: false })];
    const conds = (svc: KObject) => (reconcile(svc, pods, nodes, []).create[0]!.endpoints as any[]).map((e) => e.conditions);
    expect(conds(web())).toEqual([
      { ready: false, serving: false, terminating: false },
      { ready: false, serving: true, terminating: true },
      { ready: false, serving: false, terminating: true },
    ]);
    expect(conds(service('web', { selector: { app: 'web' }, publishNotReadyAddresses: true })).map((c) => c.ready)).toEqual([true, true, true]);
  });

  it('leaves out pods without an IP, terminal pods, and pods on unknown nodes (reporting them)', () => {
    const p = reconcile(web(), [ipPod(1, { ip: null }), ipPod(2, { phase: 'Succeeded' }), ipPod(3, { node: 'gone' }), ipPod(4)], nodes, []);
    expect((p.create[0]!.endpoints as any[]).map((e) => e.targetRef.name)).toEqual(['p4']);
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]).toContain('skipping Pod p3');
  });

  it('resolves named target ports per pod, grouping pods by port set into separate slices', () => {
    const svc = service('web', { selector: { app: 'web' }, ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'web' }] });
    const a = ipPod(1, { ports: [{ name: 'web', containerPort: 8080, protocol: 'TCP' }] });
    const b = ipPod(2, { ports: [{ name: 'web', containerPort: 9090, protocol: 'TCP' }] });
    const c = ipPod(3); // no such port: an endpoint with no ports
    expect(endpointPorts(svc, a)).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const p = reconcile(svc, [a, b, c], nodes, []);
    expect(p.create.map((s) => (s.ports as any[]).map((x) => x.port))).toEqual([[8080], [9090], []]);
  });

  it('splits 250 endpoints into slices of 100, 100, 50', () => {
    const pods = Array.from({ length: 250 }, (_, i) => ipPod(i));
    const p = reconcile(web(), pods, nodes, []);
    expect(p.create.map((s) => (s.endpoints as unknown[]).length)).toEqual([100, 100, 50]);
  });

  it('updates only the slice whose endpoint changed, and removes endpoints no longer wanted', () => {
    const pods = Array.from({ length: 150 }, (_, i) => ipPod(i));
    const first = reconcile(web(), pods, nodes, []).create.map((s, i) => stored(s, i));
    expect(reconcile(web(), pods, nodes, first)).toMatchObject({ create: [], update: [], delete: [] });
    const changed = pods.map((p, i) => (i === 120 ? ipPod(120, { ready: false }) : p));
    const p = reconcile(web(), changed, nodes, first);
    expect(p.create).toEqual([]);
    expect(p.update.map((s) => s.metadata.name)).toEqual([first[1]!.metadata.name]);
    const gone = reconcile(web(), pods.slice(0, 100), nodes, first);
    expect(gone.update).toEqual([]);
    expect(gone.delete.map((s) => s.metadata.name)).toEqual([first[1]!.metadata.name]);
  });

  it('fills a slice being updated before creating a new one', () => {
    const pods = Array.from({ length: 50 }, (_, i) => ipPod(i));
    const first = reconcile(web(), pods, nodes, []).create.map((s, i) => stored(s, i));
    const more = [...pods.slice(1), ipPod(60), ipPod(61)];
    const p = reconcile(web(), more, nodes, first);
    expect(p.create).toEqual([]);
    expect(p.update).toHaveLength(1);
    expect((p.update[0]!.endpoints as unknown[]).length).toBe(51);
  });

  it('puts new endpoints into an unchanged slice that has room', () => {
    const pods = Array.from({ length: 10 }, (_, i) => ipPod(i));
    const first = reconcile(web(), pods, nodes, []).create.map((s, i) => stored(s, i));
    const p = reconcile(web(), [...pods, ipPod(11)], nodes, first);
    expect(p.create).toEqual([]);
    expect(p.update.map((s) => (s.endpoints as unknown[]).length)).toEqual([11]);
  });

  it('recycles a slice to delete as the slice to create (ports changed)', () => {
    const pods = [ipPod(1)];
    const first = reconcile(web(), pods, nodes, []).create.map((s, i) => stored(s, i));
    const svc2 = service('web', { selector: { app: 'web' }, ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 9000 }] });
    const p = reconcile(svc2, pods, nodes, first);
    expect(p.create).toEqual([]);
    expect(p.delete).toEqual([]);
    expect(p.update).toHaveLength(1);
    expect(p.update[0]!.metadata.name).toBe(first[0]!.metadata.name);
    expect(p.update[0]!.ports).toEqual([{ name: 'http', port: 9000, protocol: 'TCP' }]);
  });

  it('copies service labels, marks headless services, and updates slices when labels change', () => {
    const svc = service('web', { selector: { app: 'web' }, clusterIP: 'None', labels: { team: 'a', 'kubernetes.io/service-name': 'evil' } });
    const s = reconcile(svc, [ipPod(1)], nodes, []).create[0]!;
    expect(s.metadata.labels).toEqual({ team: 'a', 'service.kubernetes.io/headless': '', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    const p = reconcile(service('web', { selector: { app: 'web' }, clusterIP: 'None', labels: { team: 'b' } }), [ipPod(1)], nodes, [stored(s, 1)]);
    expect(p.update).toHaveLength(1);
    expect(p.update[0]!.metadata.labels!.team).toBe('b');
  });

  it('deletes slices not owned by the service', () => {
    const other = stored(reconcile(web(), [ipPod(1)], nodes, []).create[0]!, 1);
    other.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'old-uid', controller: true }];
    const p = reconcile(web(), [ipPod(1)], nodes, [other]);
    expect(p.delete.map((s) => s.metadata.uid)).toEqual(['uid-slice-1']);
    expect(p.create).toHaveLength(1);
  });

  it('sets hostname when the pod names the service as its subdomain', () => {
    const ep = podToEndpoint(ipPod(1, { hostname: 'h1', subdomain: 'web' }), undefined, web(), 'IPv4');
    expect(ep.hostname).toBe('h1');
    expect(podToEndpoint(ipPod(1, { hostname: 'h1', subdomain: 'other' }), undefined, web(), 'IPv4').hostname).toBeUndefined();
  });
});
