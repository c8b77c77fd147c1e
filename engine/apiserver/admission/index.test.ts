import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { cloneState } from '../../sim/serial';
import { MUTATING_PLUGINS, runMutating, runValidating, VALIDATING_PLUGINS } from './index';
import { attrs, FakeCluster, measureQuotas, namespace, pod, serviceAccountObj } from './testing';

const G = 'admissionregistration.k8s.io/v1';

function world(extra: KObject[] = []): FakeCluster {
  return new FakeCluster([
    namespace('default'),
    serviceAccountObj('default', 'default'),
    { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'defaults', namespace: 'default' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] } },
    ...extra,
  ]);
}

describe('admission chain', () => {
  it('lists the plugins in upstream order', () => {
    expect(MUTATING_PLUGINS.map((p) => p.name)).toEqual(['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'MutatingAdmissionWebhook']);
    expect(VALIDATING_PLUGINS.map((p) => p.name)).toEqual(['LimitRanger', 'ServiceAccount', 'PodSecurity', 'Priority', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
  });

  it('records each plugin’s decision with the object before and after it', () => {
    const a = attrs({ resource: 'pods', object: pod('web', 'default'), options: { __randomSuffix: 'abcde' } });
    const r = runMutating(a, world());
    expect(r.allowed).toBe(true);
    expect(r.records.map((x) => [x.plugin, x.decision])).toEqual([
      ['NamespaceLifecycle', 'allowed'],
      ['LimitRanger', 'allowed'],
      ['ServiceAccount', 'allowed'],
      ['Priority', 'allowed'],
      ['DefaultTolerationSeconds', 'allowed'],
      // Handles() looks at the operation only, as upstream's does; the plugin then ignores pods.
      ['DefaultStorageClass', 'allowed'],
      ['StorageObjectInUseProtection', 'allowed'],
      ['MutatingAdmissionWebhook', 'allowed'],
    ]);
    const lr = r.records[1]!;
    expect((lr.before!['spec'] as { containers: { resources?: unknown }[] }).containers[0]!.resources).toBeUndefined();
    expect((lr.after!['spec'] as { containers: { resources?: unknown }[] }).containers[0]!.resources).toEqual({ limits: { cpu: '500m' }, requests: { cpu: '100m' } });
    const sa = r.records[2]!;
    expect(sa.before).toBe(lr.after);
    expect((sa.after!['spec'] as { volumes: { name: string }[] }).volumes[0]!.name).toBe('kube-api-access-abcde');
    expect((r.records[4]!.after!['spec'] as { tolerations: unknown[] }).tolerations).toHaveLength(2);
    expect(r.records[7]!.after).toEqual(a.object);
    // The records hold copies: later mutation of the live object does not reach them.
    a.object!.metadata.name = 'changed';
    expect(r.records[7]!.after!.metadata.name).toBe('web');
  });

  it('copies the object only once a step changes it', () => {
    // NamespaceLifecycle changes nothing: its record shares the copy of the object as it came.
    const a = attrs({ resource: 'pods', object: pod('web', 'default'), options: { __randomSuffix: 'abcde' } });
    const original = structuredClone(a.object);
    const r = runMutating(a, world());
    const [nl, lr] = r.records;
    expect(nl!.before).toBe(nl!.after);
    expect(nl!.after).toBe(lr!.before);
    expect(lr!.before).not.toBe(a.object);
    expect(lr!.before).toEqual(original);
    // A phase in which no step changes the object records the object itself (there is no patch to compute).
    const unchanged = attrs({ resource: 'configmaps', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } } });
    const u = runMutating(unchanged, world());
    expect(u.records.length).toBeGreaterThan(0);
    expect(u.records.every((x) => x.before === unchanged.object && x.after === unchanged.object)).toBe(true);
  });

  it('marks plugins that do not handle the operation as skipped', () => {
    const r = runMutating(attrs({ operation: 'DELETE', resource: 'pods', namespace: 'default', name: 'web', object: null, oldObject: pod('web', 'default') }), world());
    expect(r.records.map((x) => `${x.plugin}:${x.decision}`)).toEqual([
      'NamespaceLifecycle:allowed',
      'LimitRanger:skipped',
      'ServiceAccount:skipped',
      'Priority:allowed',
      'DefaultTolerationSeconds:skipped',
      'DefaultStorageClass:skipped',
      'StorageObjectInUseProtection:skipped',
      'MutatingAdmissionWebhook:allowed',
    ]);
    expect(r.records.every((x) => x.before === null && x.after === null)).toBe(true);
  });

  it('stops at the first refusal', () => {
    const r = runMutating(attrs({ resource: 'pods', namespace: 'ghost', object: pod('web', 'ghost') }), world());
    expect(r.allowed).toBe(false);
    expect(r.status?.message).toBe('namespaces "ghost" not found');
    expect(r.records.map((x) => x.decision)).toEqual(['denied']);
  });

  it('validates after mutation: a pod that passed defaulting can still exceed a quota', () => {
    const cluster = measureQuotas(world([{ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'cpu', namespace: 'default' }, spec: { hard: { 'limits.cpu': '1' } } }, pod('old', 'default', [{ name: 'c', image: 'x', resources: { limits: { cpu: '800m' } } }])]));
    const a = attrs({ resource: 'pods', object: pod('web', 'default') });
    expect(runMutating(a, cluster).allowed).toBe(true);
    a.name = 'web';
    const v = runValidating(a, cluster);
    expect(v.allowed).toBe(false);
    expect(v.records.at(-1)).toMatchObject({ plugin: 'ResourceQuota', decision: 'denied' });
    expect(v.status?.message).toBe('pods "web" is forbidden: exceeded quota: cpu, requested: limits.cpu=500m, used: limits.cpu=800m, limited: limits.cpu=1');
  });

  it('runs policies and webhooks in order, collecting warnings', () => {
    const cluster = world([
      { apiVersion: G, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] }, validations: [{ expression: "has(object.metadata.labels)", message: 'pods need labels' }] } },
      { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Warn'] } },
      {
        apiVersion: G,
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'v', annotations: { 'playground.kubeglass.dev/deny-deny.example.com': 'not today' } },
        webhooks: [{ name: 'deny.example.com', clientConfig: { url: 'playground://deny' }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }], sideEffects: 'None' }],
      },
    ]);
    const a = attrs({ resource: 'pods', name: 'web', object: pod('web', 'default') });
    runMutating(a, cluster);
    const v = runValidating(a, cluster);
    expect(v.records.map((x) => `${x.plugin}:${x.decision}`)).toEqual([
      'LimitRanger:allowed',
      'ServiceAccount:allowed',
      'PodSecurity:allowed',
      'Priority:allowed',
      'ValidatingAdmissionPolicy:allowed',
      'ValidatingAdmissionWebhook:denied',
    ]);
    expect(v.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': pods need labels"]);
    expect(v.status?.message).toBe('admission webhook "deny.example.com" denied the request: not today');
  });

  it('gives the same results from a cloned snapshot of the request mid-chain', () => {
    const cluster = world();
    const a = attrs({ resource: 'pods', name: 'web', object: pod('web', 'default') });
    runMutating(a, cluster);
    const copy = cloneState(a);
    const c2 = cloneState(cluster);
    expect(JSON.stringify(runValidating(copy, c2))).toBe(JSON.stringify(runValidating(a, cluster)));
  });
});
