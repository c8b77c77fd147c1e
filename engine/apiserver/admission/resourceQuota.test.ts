import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { resourceQuota } from './resourceQuota';
import { attrs, FakeCluster as Cluster, measureQuotas, namespace, pod } from './testing';

/** The cluster with its quotas' status as the controller keeps it. */
const FakeCluster = function (objs: KObject[]) {
  return measureQuotas(new Cluster(objs));
} as unknown as new (objs: KObject[]) => Cluster;

function quota(name: string, hard: Record<string, string>, extra: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'default' }, spec: { hard, ...extra } };
}

function sized(name: string, cpu: string, memory: string, extra: Record<string, unknown> = {}): KObject {
  return pod(name, 'default', [{ name: 'app', image: 'nginx', resources: { requests: { cpu, memory }, limits: { cpu, memory } } }], extra);
}

const create = (obj: KObject) => attrs({ resource: obj.kind === 'Pod' ? 'pods' : `${obj.kind.toLowerCase()}s`, name: obj.metadata.name ?? '', object: obj });

describe('ResourceQuota', () => {
  it('refuses a pod that would exceed the quota with upstream’s message', () => {
    const cluster = new FakeCluster([namespace('default'), quota('compute-resources', { 'requests.cpu': '1', 'requests.memory': '1Gi', pods: '10' }), sized('a', '400m', '256Mi'), sized('b', '400m', '256Mi')]);
    const v = resourceQuota.validate!(create(sized('c', '500m', '128Mi')), cluster);
    expect(v).toMatchObject({ allowed: false, status: { code: 403, reason: 'Forbidden' } });
    expect(v.allowed ? '' : v.status.message).toBe('pods "c" is forbidden: exceeded quota: compute-resources, requested: requests.cpu=500m, used: requests.cpu=800m, limited: requests.cpu=1');
    expect(resourceQuota.validate!(create(sized('c', '200m', '128Mi')), cluster).allowed).toBe(true);
  });

  it('lists every exceeded resource, sorted', () => {
    const cluster = new FakeCluster([quota('q', { pods: '1', 'limits.memory': '100Mi' }), sized('a', '1', '64Mi')]);
    const v = resourceQuota.validate!(create(sized('b', '1', '64Mi')), cluster);
    expect(v.allowed ? '' : v.status.message).toBe('pods "b" is forbidden: exceeded quota: q, requested: limits.memory=64Mi,pods=1, used: limits.memory=64Mi,pods=1, limited: limits.memory=100Mi,pods=1');
  });

  it('requires every container to set what the quota limits', () => {
    const cluster = new FakeCluster([quota('mem-cpu-demo', { 'requests.cpu': '1', 'limits.cpu': '2', 'limits.memory': '1Gi' })]);
    const p = pod('web', 'default', [
      { name: 'nginx', image: 'nginx', resources: { requests: { cpu: '100m' } } },
      { name: 'sidecar', image: 'x' },
    ]);
    const v = resourceQuota.validate!(create(p), cluster);
    expect(v.allowed ? '' : v.status.message).toBe('pods "web" is forbidden: failed quota: mem-cpu-demo: must specify limits.cpu for: nginx,sidecar; limits.memory for: nginx,sidecar; requests.cpu for: sidecar');
  });

  it('ignores terminal pods and applies BestEffort / PriorityClass scopes', () => {
    const done = sized('done', '900m', '1Mi');
    done['status'] = { phase: 'Succeeded' };
    expect(resourceQuota.validate!(create(sized('new', '500m', '1Mi')), new FakeCluster([quota('q', { 'requests.cpu': '1' }), done])).allowed).toBe(true);
    const be = new FakeCluster([quota('be', { pods: '1' }, { scopes: ['BestEffort'] }), pod('x', 'default')]);
    expect(resourceQuota.validate!(create(pod('y', 'default')), be).allowed).toBe(false);
    expect(resourceQuota.validate!(create(sized('y', '1', '1Mi')), be).allowed).toBe(true);
    const pc = new FakeCluster([quota('gold', { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['gold'] }] } })]);
    expect(resourceQuota.validate!(create(pod('g', 'default', undefined, { priorityClassName: 'gold' })), pc)).toMatchObject({
      allowed: false,
      status: { message: 'pods "g" is forbidden: exceeded quota: gold, requested: pods=1, used: pods=0, limited: pods=0' },
    });
    expect(resourceQuota.validate!(create(pod('s', 'default')), pc).allowed).toBe(true);
  });

  it('counts services, configmaps, secrets, claims and any resource by count/<resource>', () => {
    const cm = (n: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, namespace: 'default' }, data: {} });
    const v = resourceQuota.validate!(create(cm('b')), new FakeCluster([quota('objects', { configmaps: '1' }), cm('a')]));
    expect(v.allowed ? '' : v.status.message).toBe('configmaps "b" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1');
    const svc: KObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb', namespace: 'default' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } };
    const s = resourceQuota.validate!(create(svc), new FakeCluster([quota('svc', { 'services.loadbalancers': '0' })]));
    expect(s.allowed ? '' : s.status.message).toBe('services "lb" is forbidden: exceeded quota: svc, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0');
    const claim = (n: string, size: string): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: n, namespace: 'default' }, spec: { storageClassName: 'fast', resources: { requests: { storage: size } } } });
    const pv = resourceQuota.validate!(
      attrs({ resource: 'persistentvolumeclaims', name: 'c2', object: claim('c2', '8Gi') }),
      new FakeCluster([quota('storage', { 'requests.storage': '10Gi', 'fast.storageclass.storage.k8s.io/requests.storage': '20Gi' }), claim('c1', '5Gi')]),
    );
    expect(pv.allowed ? '' : pv.status.message).toBe('persistentvolumeclaims "c2" is forbidden: exceeded quota: storage, requested: requests.storage=8Gi, used: requests.storage=5Gi, limited: requests.storage=10Gi');
    const dep: KObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd2', namespace: 'default' }, spec: {} };
    const d = resourceQuota.validate!(attrs({ group: 'apps', resource: 'deployments', name: 'd2', object: dep }), new FakeCluster([quota('apps', { 'count/deployments.apps': '1' }), { ...dep, metadata: { name: 'd1', namespace: 'default' } }]));
    expect(d.allowed ? '' : d.status.message).toBe('deployments.apps "d2" is forbidden: exceeded quota: apps, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
  });

  it('charges only the growth of an update', () => {
    const claim = (size: string): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'default', resourceVersion: '3' }, spec: { resources: { requests: { storage: size } } } });
    const cluster = new FakeCluster([quota('storage', { 'requests.storage': '10Gi', persistentvolumeclaims: '1' }), claim('6Gi')]);
    const grow = (size: string) => resourceQuota.validate!(attrs({ operation: 'UPDATE', resource: 'persistentvolumeclaims', name: 'c', object: claim(size), oldObject: claim('6Gi') }), cluster);
    expect(grow('10Gi').allowed).toBe(true);
    expect(grow('11Gi').allowed ? '' : (grow('11Gi') as { status: { message: string } }).status.message).toBe(
      'persistentvolumeclaims "c" is forbidden: exceeded quota: storage, requested: requests.storage=5Gi, used: requests.storage=6Gi, limited: requests.storage=10Gi',
    );
  });

  it('needs the controller to have measured the quota, and charges status.used in the same write', () => {
    // Before the controller's first status, the quota restricts nothing (Matches reads status.hard).
    expect(resourceQuota.validate!(create(sized('b', '1', '1Mi')), new Cluster([quota('q', { pods: '2' })])).allowed).toBe(true);
    // A hard resource without usage yet: refused until the controller has measured it.
    const partial = new Cluster([{ ...quota('q', { pods: '2', 'requests.cpu': '2' }), status: { hard: { pods: '2', 'requests.cpu': '2' }, used: { pods: '0' } } }]);
    const v = resourceQuota.validate!(create(sized('b', '1', '1Mi')), partial);
    expect(v.allowed ? '' : v.status.message).toBe('pods "b" is forbidden: status unknown for quota: q, resources: pods,requests.cpu');
    const measured = new FakeCluster([quota('q', { pods: '2', 'requests.cpu': '4', 'count/configmaps': '1' }), sized('a', '1', '1Mi')]);
    expect(measured.get('', 'resourcequotas', 'default', 'q')!.status).toEqual({ hard: { 'count/configmaps': '1', pods: '2', 'requests.cpu': '4' }, used: { 'count/configmaps': '0', pods: '1', 'requests.cpu': '1' } });
    const ok = resourceQuota.validate!(create(sized('b', '500m', '1Mi')), measured);
    expect(ok).toMatchObject({ allowed: true, storageWrites: [{ metadata: { name: 'q', resourceVersion: '7' }, status: { hard: { pods: '2' }, used: { 'count/configmaps': '0', pods: '2', 'requests.cpu': '1500m' } } }] });
    // A pod the quota does not restrict (no matching resource) charges nothing.
    const other = new FakeCluster([quota('cm', { 'count/configmaps': '1' })]);
    expect(resourceQuota.validate!(create(sized('c', '1', '1Mi')), other)).toEqual({ allowed: true });
  });
});
