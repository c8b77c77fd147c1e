import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { mutatingAdmissionWebhook } from './mutatingAdmissionWebhook';
import { attrs, FakeCluster, namespace, pod } from './testing';
import { validatingAdmissionWebhook } from './validatingAdmissionWebhook';

const G = 'admissionregistration.k8s.io/v1';
const podRule = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' };

function hook(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, clientConfig: { url: 'playground://patch' }, rules: [podRule], sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra };
}

function config(kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration', name: string, webhooks: Record<string, unknown>[], annotations: Record<string, string> = {}): KObject {
  return { apiVersion: G, kind, metadata: { name, annotations }, webhooks };
}

describe('MutatingAdmissionWebhook (simulated)', () => {
  it('applies each webhook’s JSON patch in configuration order', () => {
    const cluster = new FakeCluster([
      namespace('default'),
      config('MutatingWebhookConfiguration', 'b-sidecar', [hook('sidecar.example.com')], {
        'playground.kubeglass.dev/patch-sidecar.example.com': JSON.stringify([{ op: 'add', path: '/spec/containers/-', value: { name: 'proxy', image: 'envoy' } }]),
      }),
      config('MutatingWebhookConfiguration', 'a-labels', [hook('labels.example.com')], {
        'playground.kubeglass.dev/patch-labels.example.com': JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { injected: 'true' } }]),
        'playground.kubeglass.dev/warn-labels.example.com': 'labels were added',
      }),
    ]);
    const a = attrs({ resource: 'pods', object: pod('web', 'default') });
    const original = a.object;
    const v = mutatingAdmissionWebhook.admit!(a, cluster);
    expect(v).toEqual({
      allowed: true,
      warnings: ['labels were added'],
      auditAnnotations: {
        'mutation.webhook.admission.k8s.io/round_0_index_0': '{"configuration":"a-labels","webhook":"labels.example.com","mutated":true}',
        'mutation.webhook.admission.k8s.io/round_0_index_1': '{"configuration":"b-sidecar","webhook":"sidecar.example.com","mutated":true}',
      },
    });
    expect(a.object).toBe(original);
    expect(a.object!.metadata.labels).toEqual({ injected: 'true' });
    expect((a.object!['spec'] as { containers: { name: string }[] }).containers.map((c) => c.name)).toEqual(['nginx', 'proxy']);
  });

  it('denies with `admission webhook "NAME" denied the request: MSG`', () => {
    const cluster = new FakeCluster([config('MutatingWebhookConfiguration', 'c', [hook('no.example.com')], { 'playground.kubeglass.dev/deny-no.example.com': 'images must come from registry.local' })]);
    const v = mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default') }), cluster);
    expect(v).toEqual({
      allowed: false,
      status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 403, reason: 'Forbidden', message: 'admission webhook "no.example.com" denied the request: images must come from registry.local' },
    });
  });

  it('fails closed on an unreachable webhook unless failurePolicy is Ignore', () => {
    const svc = { service: { name: 'hooks', namespace: 'infra', path: '/mutate' } };
    const fail = new FakeCluster([config('MutatingWebhookConfiguration', 'c', [hook('real.example.com', { clientConfig: svc })])]);
    expect(mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default') }), fail)).toMatchObject({
      allowed: false,
      status: {
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: failed calling webhook "real.example.com": failed to call webhook: Post "https://hooks.infra.svc:443/mutate?timeout=10s": service "hooks" not found',
      },
    });
    const ignore = new FakeCluster([config('MutatingWebhookConfiguration', 'c', [hook('real.example.com', { clientConfig: svc, failurePolicy: 'Ignore' })])]);
    expect(mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default') }), ignore).allowed).toBe(true);
  });

  it('skips webhooks whose rules, selectors or matchConditions do not match', () => {
    const ann = { 'playground.kubeglass.dev/deny-x.example.com': 'no' };
    const cases: Record<string, unknown>[] = [
      { rules: [{ ...podRule, operations: ['UPDATE'] }] },
      { rules: [{ ...podRule, resources: ['pods/status'] }] },
      { rules: [{ ...podRule, scope: 'Cluster' }] },
      { namespaceSelector: { matchLabels: { team: 'x' } } },
      { objectSelector: { matchLabels: { app: 'db' } } },
      { matchConditions: [{ name: 'not-web', expression: "object.metadata.name != 'web'" }] },
    ];
    for (const extra of cases) {
      const cluster = new FakeCluster([namespace('default'), config('MutatingWebhookConfiguration', 'c', [hook('x.example.com', extra)], ann)]);
      expect(mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default') }), cluster).allowed).toBe(true);
    }
    // `*` is every resource but no subresource; `*/*` is both.
    const rule = (resources: string[]) => [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources }];
    const star = new FakeCluster([config('MutatingWebhookConfiguration', 'c', [hook('x.example.com', { rules: rule(['*']) })], ann)]);
    const starStar = new FakeCluster([config('MutatingWebhookConfiguration', 'c', [hook('x.example.com', { rules: rule(['*/*']) })], ann)]);
    const statusUpdate = () => attrs({ operation: 'UPDATE', resource: 'pods', subresource: 'status', object: pod('web', 'default') });
    expect(mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default') }), star).allowed).toBe(false);
    expect(mutatingAdmissionWebhook.admit!(statusUpdate(), star).allowed).toBe(true);
    expect(mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default') }), starStar).allowed).toBe(false);
    expect(mutatingAdmissionWebhook.admit!(statusUpdate(), starStar).allowed).toBe(false);
  });

  it('refuses dry runs for webhooks with side effects, and reports bad patches', () => {
    const se = new FakeCluster([config('MutatingWebhookConfiguration', 'c', [hook('se.example.com', { sideEffects: 'Some' })])]);
    expect(mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default'), dryRun: true }), se)).toMatchObject({
      allowed: false,
      status: { code: 400, message: 'admission webhook "se.example.com" does not support dry run' },
    });
    const bad = new FakeCluster([config('MutatingWebhookConfiguration', 'c', [hook('p.example.com')], { 'playground.kubeglass.dev/patch-p.example.com': '[{"op":"remove","path":"/spec/nothing"}]' })]);
    expect(mutatingAdmissionWebhook.admit!(attrs({ resource: 'pods', object: pod('web', 'default') }), bad)).toMatchObject({ allowed: false, status: { code: 500 } });
  });
});

describe('ValidatingAdmissionWebhook (simulated)', () => {
  it('denies with the first refusal in order and never patches', () => {
    const cluster = new FakeCluster([
      config('ValidatingWebhookConfiguration', 'v', [hook('first.example.com'), hook('second.example.com')], {
        'playground.kubeglass.dev/deny-second.example.com': 'second says no',
        'playground.kubeglass.dev/patch-first.example.com': '[{"op":"add","path":"/metadata/labels","value":{"x":"y"}}]',
      }),
    ]);
    const a = attrs({ resource: 'pods', object: pod('web', 'default') });
    const v = validatingAdmissionWebhook.validate!(a, cluster);
    expect(v).toMatchObject({ allowed: false, status: { code: 403, message: 'admission webhook "second.example.com" denied the request: second says no' } });
    expect(a.object!.metadata.labels).toBeUndefined();
  });

  it('falls back to the reason when the refusal has no message', () => {
    const cluster = new FakeCluster([config('ValidatingWebhookConfiguration', 'v', [hook('quiet.example.com')], { 'playground.kubeglass.dev/deny-quiet.example.com': '' })]);
    const v = validatingAdmissionWebhook.validate!(attrs({ resource: 'pods', object: pod('web', 'default') }), cluster);
    expect(v.allowed ? '' : v.status.message).toBe('admission webhook "quiet.example.com" denied the request: Forbidden');
  });
});
