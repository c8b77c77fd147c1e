// Lists at resourceVersion=0 come from the watch cache; with a metadata.name
// selector they read the one key (the registry's MatchesSingle), with a
// spec.nodeName selector the pods index. Either way they list what etcd lists.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../testing/harness';

describe('lists from the watch cache by name and by node', () => {
  const e = controlPlane(5, { etcdMembers: 1 });
  for (const n of ['node-a', 'node-b']) expect(call(e, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: n } }).status).toBe(201);
  for (let i = 0; i < 6; i++) {
    const spec = { containers: [{ name: 'c', image: 'busybox' }], ...(i % 3 === 2 ? {} : { nodeName: i % 3 === 0 ? 'node-a' : 'node-b' }) };
    for (const ns of ['default', 'kube-system']) expect(call(e, 'POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}` }, spec }).status).toBe(201);
  }
  e.advance(2_000);
  const names = (path: string, fieldSelector: string, resourceVersion: string) => {
    const r = call(e, 'GET', path, undefined, { query: { fieldSelector, resourceVersion } });
    expect(r.status).toBe(200);
    return (r.body.items as { metadata: { namespace?: string; name: string } }[]).map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`);
  };
  const cases: [string, string][] = [
    ['/api/v1/nodes', 'metadata.name=node-b'],
    ['/api/v1/nodes', 'metadata.name=nope'],
    ['/api/v1/nodes', 'metadata.name=node-a,spec.unschedulable=true'],
    ['/api/v1/namespaces/default/pods', 'metadata.name=p1'],
    ['/api/v1/pods', 'metadata.name=p1'],
    ['/api/v1/pods', 'spec.nodeName=node-a'],
    ['/api/v1/pods', 'spec.nodeName='],
    ['/api/v1/namespaces/kube-system/pods', 'spec.nodeName=node-b'],
    ['/api/v1/pods', 'spec.nodeName=node-b,metadata.namespace=default'],
    ['/api/v1/pods', 'spec.nodeName!=node-a'],
  ];
  for (const [path, sel] of cases) {
    it(`${path}?fieldSelector=${sel}`, () => {
      const fromCache = names(path, sel, '0');
      expect(fromCache).toEqual(names(path, sel, ''));
      if (sel === 'spec.nodeName=node-a') expect(fromCache).toEqual(['default/p0', 'default/p3', 'kube-system/p0', 'kube-system/p3']);
      if (sel === 'metadata.name=node-b') expect(fromCache).toEqual(['/node-b']);
    });
  }
});
