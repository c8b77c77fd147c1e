import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { limitRanger, LIMIT_RANGER_ANNOTATION } from './limitRanger';
import { attrs, FakeCluster, namespace, pod } from './testing';

function limitRange(name: string, limits: Record<string, unknown>[]): KObject {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace: 'default' }, spec: { limits } };
}

describe('LimitRanger', () => {
  const defaults = limitRange('defaults', [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }]);

  it('fills in requests and limits and says so in the annotation', () => {
    const cluster = new FakeCluster([namespace('default'), defaults]);
    const p = pod('web', 'default', [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '200m' } } }, { name: 'side', image: 'busybox' }]);
    const a = attrs({ resource: 'pods', object: p });
    expect(limitRanger.admit!(a, cluster).allowed).toBe(true);
    const spec = a.object!['spec'] as { containers: { resources: unknown }[] };
    expect(spec.containers[0]!.resources).toEqual({ requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
    expect(spec.containers[1]!.resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(a.object!.metadata.annotations![LIMIT_RANGER_ANNOTATION]).toBe(
      'LimitRanger plugin set: memory request for container app; cpu, memory limit for container app; cpu, memory request for container side; cpu, memory limit for container side',
    );
  });

  it('defaults requests from the default limit and from min, as the API defaults LimitRange items', () => {
    const lr = limitRange('lr', [{ type: 'Container', default: { cpu: '1' }, min: { memory: '64Mi' } }]);
    const a = attrs({ resource: 'pods', object: pod('web', 'default') });
    limitRanger.admit!(a, new FakeCluster([lr]));
    expect((a.object!['spec'] as { containers: { resources: unknown }[] }).containers[0]!.resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1', memory: '64Mi' } });
    expect(a.object!.metadata.annotations![LIMIT_RANGER_ANNOTATION]).toBe('LimitRanger plugin set: cpu, memory request for container nginx; cpu limit for container nginx');
  });

  it('changes nothing without LimitRanges, on pod updates and on subresources', () => {
    const p = pod('web', 'default');
    const a = attrs({ resource: 'pods', object: structuredClone(p) });
    limitRanger.admit!(a, new FakeCluster([]));
    expect(a.object).toEqual(p);
    const u = attrs({ operation: 'UPDATE', resource: 'pods', object: structuredClone(p), oldObject: p });
    limitRanger.admit!(u, new FakeCluster([defaults]));
    expect(u.object).toEqual(p);
  });

  it('validates min, max and the limit/request ratio with upstream messages', () => {
    const lr = limitRange('bounds', [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } }]);
    const cluster = new FakeCluster([lr]);
    const p = pod('web', 'default', [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '2', memory: '2Gi' } } }]);
    const v = limitRanger.validate!(attrs({ resource: 'pods', object: p, name: 'web' }), cluster);
    expect(v).toMatchObject({ allowed: false, status: { code: 403, reason: 'Forbidden' } });
    if (v.allowed) return;
    expect(v.status.message).toBe(
      'pods "web" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi, cpu max limit to request ratio per Container is 2, but provided ratio is 40.000000]',
    );
  });

  it('names the missing request or limit, and checks Pod totals', () => {
    const cluster = new FakeCluster([limitRange('pods', [{ type: 'Pod', max: { cpu: '1' } }]), limitRange('zmin', [{ type: 'Container', min: { memory: '1Mi' } }])]);
    const p = pod('web', 'default', [
      { name: 'a', image: 'x', resources: { requests: { cpu: '600m', memory: '2Mi' }, limits: { cpu: '600m' } } },
      { name: 'b', image: 'x', resources: { requests: { cpu: '600m', memory: '2Mi' }, limits: { cpu: '600m' } } },
    ]);
    const v = limitRanger.validate!(attrs({ resource: 'pods', object: p, name: 'web' }), cluster);
    expect(v.allowed ? '' : v.status.message).toBe('pods "web" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m');
    const noReq = pod('x', 'default', [{ name: 'a', image: 'x' }]);
    const v2 = limitRanger.validate!(attrs({ resource: 'pods', object: noReq, name: 'x' }), new FakeCluster([limitRange('m', [{ type: 'Container', min: { memory: '1Mi' } }])]));
    expect(v2.allowed ? '' : v2.status.message).toBe('pods "x" is forbidden: minimum memory usage per Container is 1Mi.  No request is specified');
  });

  it('bounds PersistentVolumeClaim storage requests', () => {
    const cluster = new FakeCluster([limitRange('storage', [{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }])]);
    const pvc = (size: string): KObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { resources: { requests: { storage: size } } } });
    const big = limitRanger.validate!(attrs({ resource: 'persistentvolumeclaims', object: pvc('20Gi'), name: 'data' }), cluster);
    expect(big.allowed ? '' : big.status.message).toBe('persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
    expect(limitRanger.validate!(attrs({ resource: 'persistentvolumeclaims', object: pvc('5Gi'), name: 'data' }), cluster).allowed).toBe(true);
  });
});
