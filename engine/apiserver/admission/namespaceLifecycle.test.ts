import { describe, expect, it } from 'vitest';
import { namespaceLifecycle } from './namespaceLifecycle';
import { attrs, FakeCluster, namespace, pod } from './testing';

describe('NamespaceLifecycle', () => {
  const cluster = new FakeCluster([namespace('default'), namespace('dying', {}, 'Terminating')]);

  it('refuses deleting default, kube-system and kube-public', () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const v = namespaceLifecycle.admit!(attrs({ operation: 'DELETE', resource: 'namespaces', name, object: null }), cluster);
      expect(v).toMatchObject({ allowed: false, status: { code: 403, reason: 'Forbidden', message: `namespaces "${name}" is forbidden: this namespace may not be deleted` } });
    }
    expect(namespaceLifecycle.admit!(attrs({ operation: 'DELETE', resource: 'namespaces', name: 'dying', object: null }), cluster).allowed).toBe(true);
  });

  it('answers 404 for content in a namespace that does not exist', () => {
    const v = namespaceLifecycle.admit!(attrs({ resource: 'pods', namespace: 'ghost', object: pod('web', 'ghost') }), cluster);
    expect(v).toEqual({
      allowed: false,
      status: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'namespaces "ghost" not found',
        reason: 'NotFound',
        details: { name: 'ghost', kind: 'namespaces' },
        code: 404,
      },
    });
  });

  it('refuses creates in a terminating namespace with the NamespaceTerminating cause', () => {
    const v = namespaceLifecycle.admit!(attrs({ resource: 'pods', namespace: 'dying', object: { ...pod('', 'dying'), metadata: { generateName: 'web-', namespace: 'dying' } } }), cluster);
    expect(v.allowed).toBe(false);
    if (v.allowed) return;
    expect(v.status.code).toBe(403);
    expect(v.status.message).toBe('pods "web-" is forbidden: unable to create new content in namespace dying because it is being terminated');
    expect(v.status.details?.causes).toEqual([{ reason: 'NamespaceTerminating', message: 'namespace dying is being terminated', field: 'metadata.namespace' }]);
  });

  it('allows updates and deletes in a terminating namespace, cluster-scoped objects and access reviews', () => {
    const p = pod('web', 'dying');
    expect(namespaceLifecycle.admit!(attrs({ operation: 'UPDATE', resource: 'pods', object: p, oldObject: p }), cluster).allowed).toBe(true);
    expect(namespaceLifecycle.admit!(attrs({ operation: 'DELETE', resource: 'pods', namespace: 'dying', name: 'web', object: null }), cluster).allowed).toBe(true);
    expect(namespaceLifecycle.admit!(attrs({ resource: 'nodes', object: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } }), cluster).allowed).toBe(true);
    const lsar = { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: 'ghost' } };
    expect(namespaceLifecycle.admit!(attrs({ group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews', namespace: 'ghost', object: lsar }), cluster).allowed).toBe(true);
  });
});
