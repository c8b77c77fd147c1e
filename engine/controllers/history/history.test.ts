import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { controllerRevisionName, equalRevision, fnv32, hashControllerRevision, listControllerRevisions, newControllerRevision, revisionTemplate, sortControllerRevisions, templatePatch } from './history';
import { KIND } from '../replicaset/podUtil';

const bytes = (s: string) => new TextEncoder().encode(s);
const owner: KObject = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default', uid: 'u1' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'a<b>&' }] } } } };

describe('ControllerRevision history', () => {
  it('FNV-1 32 (hash/fnv New32) test vectors', () => {
    expect(fnv32(bytes(''))).toBe(0x811c9dc5);
    expect(fnv32(bytes('a'))).toBe(0x050c5d7e);
    expect(fnv32(bytes('foobar'))).toBe(0x31f0b262);
  });

  it('the data is the template patch as Go marshals a map: sorted keys, $patch first, HTML escapes', () => {
    expect(templatePatch(owner)).toBe('{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"a\\u003cb\\u003e\\u0026","name":"c"}]}}}}');
    expect(revisionTemplate({ data: JSON.parse(templatePatch(owner)) })).toEqual((owner.spec as any).template);
  });

  it('names `<parent>-<hash>`, the hash over the data and the collision count', () => {
    const raw = templatePatch(owner);
    const a = newControllerRevision(owner, KIND.StatefulSet, { app: 'web' }, raw, 1, 0);
    expect(a.metadata.name).toBe(`web-${hashControllerRevision(raw, 0)}`);
    expect(a.metadata.labels).toEqual({ app: 'web', 'controller.kubernetes.io/hash': hashControllerRevision(raw, 0) });
    expect(a.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
    expect(hashControllerRevision(raw, 1)).not.toBe(hashControllerRevision(raw, 0));
    expect(hashControllerRevision(raw, 0)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(controllerRevisionName('x'.repeat(300), 'h')).toBe(`${'x'.repeat(223)}-h`);
  });

  it('equality by data, order by revision, listing owned and orphaned ones', () => {
    const raw = templatePatch(owner);
    const r1 = { ...newControllerRevision(owner, KIND.StatefulSet, {}, raw, 1, 0), metadata: { ...newControllerRevision(owner, KIND.StatefulSet, {}, raw, 1, 0).metadata, name: 'web-1' } };
    const r2 = { ...newControllerRevision(owner, KIND.StatefulSet, {}, raw, 2, 0), metadata: { ...r1.metadata, name: 'web-2' } };
    expect(equalRevision(r1, r2)).toBe(true);
    expect(sortControllerRevisions([r2, r1]).map((r) => r.metadata.name)).toEqual(['web-1', 'web-2']);
    const other = { ...r1, metadata: { ...r1.metadata, name: 'x', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x', uid: 'u2', controller: true }] } };
    const orphan = { ...r1, metadata: { ...r1.metadata, name: 'o', labels: { app: 'web' }, ownerReferences: [] } };
    const store = new Map<string, KObject>([['default/x', other], ['default/o', orphan], ['default/web-1', { ...r1, metadata: { ...r1.metadata, labels: { app: 'web' } } }]]);
    expect(listControllerRevisions(store, owner, { matchLabels: { app: 'web' } }).map((r) => r.metadata.name).sort()).toEqual(['o', 'web-1']);
  });
});
