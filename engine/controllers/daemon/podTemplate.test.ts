// The pod a DaemonSet creates takes only labels, annotations and finalizers
// from the template's metadata (controller_utils.go GetPodFromTemplate).
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { FakeContext } from '../framework/testing';
import { DaemonSetsController } from './controller';

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
