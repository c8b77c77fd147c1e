// The pod a DaemonSet creates takes only labels, annotations and finalizers
// from the template's metadata (controller_utils.go GetPodFromTemplate).
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { DaemonSetsController } from './controller';
import { snapshot } from './update';

describe('DaemonSet pods from the template', () => {
  it('carry the template labels, annotations and finalizers only, with generateName <ds>-', () => {
    const c = new DaemonSetsController();
    const ctx = new FakeContext();
    const ds: KObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default', uid: 'uid-ds', generation: 1, resourceVersion: '3', annotations: { 'deprecated.daemonset.template.generation': '1' } },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { name: 'fixed', labels: { app: 'agent' }, annotations: { a: 'b' }, finalizers: ['x/y'], creationTimestamp: null }, spec: { containers: [{ name: 'a', image: 'fluentd:1' }] } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        revisionHistoryLimit: 10,
      },
      status: {},
    };
    ctx.upsert(c, 'nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: {} }, spec: {}, status: {} });
    ctx.upsert(c, 'daemonsets', ds);
    ctx.drain(c);
    // First the revision; it must be in the informer before pods carry its hash.
    const rev = ctx.calls[0]!.call.body as KObject;
    expect(ctx.calls[0]!.call.method).toBe('POST');
    const stored = { ...rev, metadata: { ...rev.metadata, uid: 'uid-rev', resourceVersion: '4' } };
    ctx.respond(c, 201, stored);
    ctx.upsert(c, 'controllerrevisions', stored);
    ctx.drain(c);
    const create = ctx.calls.find((x) => x.call.method === 'POST' && x.call.path === '/api/v1/namespaces/default/pods');
    const meta = (create!.call.body as KObject).metadata;
    expect(meta.name).toBeUndefined();
    expect(meta.generateName).toBe('agent-');
    expect(meta.annotations).toEqual({ a: 'b' });
    expect(meta.finalizers).toEqual(['x/y']);
    expect(meta.labels).toEqual({ app: 'agent', 'pod-template-generation': '1', 'controller-revision-hash': rev.metadata.labels!['controller-revision-hash'] });
    expect(Object.keys(meta).sort()).toEqual(['annotations', 'finalizers', 'generateName', 'labels', 'namespace', 'ownerReferences']);
  });
});

describe('DaemonSet re-created under the same name', () => {
  it('a new uid in an update drops the old expectations (updateDaemonset → deleteDaemonset)', () => {
    const c = new DaemonSetsController();
    const ctx = new FakeContext();
    const ds = (uid: string): KObject => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'default', uid, resourceVersion: uid === 'a' ? '3' : '9' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: {} } } });
    ctx.upsert(c, 'daemonsets', ds('a'));
    c.expectations.setExpectations('default/agent', 2, [], ctx.now);
    expect(c.expectations.satisfied('default/agent', ctx.now)).toBe(false);
    ctx.upsert(c, 'daemonsets', ds('b'));
    expect(c.expectations.satisfied('default/agent', ctx.now)).toBe(true);
  });
});

describe('DaemonSet duplicate current revisions', () => {
  it('dedupCurHistories relabels the pods with the kept revision hash before deleting the duplicate', () => {
    const c = new DaemonSetsController();
    const ctx = new FakeContext();
    const ds: KObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default', uid: 'uid-ds', generation: 1, resourceVersion: '3' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'fluentd:1' }] } }, updateStrategy: { type: 'OnDelete' }, revisionHistoryLimit: 10 },
      status: {},
    };
    const owner = [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'uid-ds', controller: true, blockOwnerDeletion: true }];
    const rev = (hash: string, revision: number) => ({ ...snapshot(ds, revision), metadata: { ...snapshot(ds, revision).metadata, name: `agent-${hash}`, uid: `uid-${hash}`, resourceVersion: '2', labels: { app: 'agent', 'controller-revision-hash': hash }, ownerReferences: owner } });
    for (const r of [rev('dup', 1), rev('keep', 2)]) (ctx.store('controllerrevisions') as Map<string, KObject>).set(`default/${r.metadata.name}`, r as KObject);
    const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'agent-x', namespace: 'default', uid: 'uid-p', labels: { app: 'agent', 'controller-revision-hash': 'dup' }, ownerReferences: owner }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } } as KObject;
    (ctx.store('pods') as Map<string, KObject>).set('default/agent-x', p);
    ctx.upsert(c, 'nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: {} }, spec: {}, status: {} });
    ctx.upsert(c, 'daemonsets', ds);
    ctx.drain(c);
    expect(ctx.calls.map((x) => `${x.call.method} ${x.call.path.split('/').slice(-2).join('/')}`)).toEqual(['PATCH pods/agent-x']);
    expect(ctx.calls[0]!.call.body).toEqual({ metadata: { labels: { 'controller-revision-hash': 'keep' } } });
    ctx.respond(c, 200, { ...p, metadata: { ...p.metadata, resourceVersion: '5' } });
    expect(ctx.calls.map((x) => `${x.call.method} ${x.call.path.split('/').slice(-2).join('/')}`)).toEqual(['DELETE controllerrevisions/agent-dup']);
  });
});
