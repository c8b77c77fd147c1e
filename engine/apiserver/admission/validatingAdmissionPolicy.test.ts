import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { attrs, FakeCluster, namespace } from './testing';
import { validatingAdmissionPolicy } from './validatingAdmissionPolicy';

const G = 'admissionregistration.k8s.io/v1';

function policy(name: string, spec: Record<string, unknown>): KObject {
  return {
    apiVersion: G,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
      ...spec,
    },
  };
}

function binding(name: string, policyName: string, spec: Record<string, unknown> = {}): KObject {
  return { apiVersion: G, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } };
}

function deployment(name: string, replicas: number, labels: Record<string, string> = {}, ns = 'default'): KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:latest' }] } } },
  };
}

const create = (obj: KObject) => attrs({ group: 'apps', resource: 'deployments', name: obj.metadata.name ?? '', object: obj });

describe('ValidatingAdmissionPolicy', () => {
  const maxReplicas = policy('demo-policy.example.com', { validations: [{ expression: 'object.spec.replicas <= 5' }] });

  it('denies with upstream’s message, reason Invalid and code 422', () => {
    const cluster = new FakeCluster([namespace('default'), maxReplicas, binding('demo-binding-test.example.com', 'demo-policy.example.com')]);
    const v = validatingAdmissionPolicy.validate!(create(deployment('nginx', 6)), cluster);
    const message = "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5";
    expect(v).toEqual({
      allowed: false,
      status: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `deployments.apps "nginx" is forbidden: ${message}`,
        reason: 'Invalid',
        details: { name: 'nginx', group: 'apps', kind: 'deployments', causes: [{ message }] },
        code: 422,
      },
    });
    expect(validatingAdmissionPolicy.validate!(create(deployment('nginx', 5)), cluster)).toEqual({ allowed: true });
  });

  it('does nothing without a binding, or when constraints do not match', () => {
    expect(validatingAdmissionPolicy.validate!(create(deployment('nginx', 6)), new FakeCluster([maxReplicas])).allowed).toBe(true);
    const cluster = new FakeCluster([maxReplicas, binding('b', 'demo-policy.example.com')]);
    const rs: KObject = { ...deployment('x', 9), kind: 'ReplicaSet' };
    expect(validatingAdmissionPolicy.validate!(attrs({ group: 'apps', resource: 'replicasets', name: 'x', object: rs }), cluster).allowed).toBe(true);
    expect(validatingAdmissionPolicy.validate!(attrs({ operation: 'DELETE', group: 'apps', resource: 'deployments', name: 'x', namespace: 'default', object: null, oldObject: deployment('x', 9) }), cluster).allowed).toBe(true);
  });

  it('uses params from a ConfigMap, variables, messageExpression and reason', () => {
    const p = policy('replica-limit', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [
        { name: 'limit', expression: 'int(params.data.maxReplicas)' },
        { name: 'replicas', expression: 'object.spec.replicas' },
      ],
      validations: [{ expression: 'variables.replicas <= variables.limit', messageExpression: "'replicas must be at most ' + string(variables.limit)", reason: 'Forbidden' }],
    });
    const cm: KObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'default' }, data: { maxReplicas: '3' } };
    const cluster = new FakeCluster([namespace('default'), p, cm, binding('replica-limit-binding', 'replica-limit', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } })]);
    const v = validatingAdmissionPolicy.validate!(create(deployment('web', 4)), cluster);
    expect(v).toMatchObject({
      allowed: false,
      status: {
        code: 403,
        reason: 'Forbidden',
        message: "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding' denied request: replicas must be at most 3",
      },
    });
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 3)), cluster).allowed).toBe(true);
    // The param is missing and the binding says Deny.
    const noParam = new FakeCluster([p, binding('b', 'replica-limit', { paramRef: { name: 'nope', parameterNotFoundAction: 'Deny' } })]);
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 1)), noParam)).toMatchObject({
      allowed: false,
      status: { message: "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction" },
    });
    const allowMissing = new FakeCluster([p, binding('b', 'replica-limit', { paramRef: { name: 'nope', parameterNotFoundAction: 'Allow' } })]);
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 100)), allowMissing).allowed).toBe(true);
  });

  it('selects params by label and checks every one', () => {
    const p = policy('label-required', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'params.data.label in object.metadata.labels', messageExpression: "'missing label ' + params.data.label" }],
    });
    const cms = ['team', 'env'].map((l): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `req-${l}`, namespace: 'default', labels: { kind: 'required-label' } }, data: { label: l } }));
    const cluster = new FakeCluster([p, ...cms, binding('b', 'label-required', { paramRef: { selector: { matchLabels: { kind: 'required-label' } }, parameterNotFoundAction: 'Allow' } })]);
    const v = validatingAdmissionPolicy.validate!(create(deployment('web', 1, { team: 'a' })), cluster);
    expect(v.allowed ? '' : v.status.message).toMatch(/denied request: missing label env$/);
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 1, { team: 'a', env: 'prod' })), cluster).allowed).toBe(true);
  });

  it('reports evaluation errors per failurePolicy, and Warn/Audit actions', () => {
    const p = policy('p', { validations: [{ expression: 'object.spec.paused == false' }] });
    const fail = new FakeCluster([p, binding('b', 'p')]);
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 1)), fail)).toMatchObject({
      allowed: false,
      status: { code: 422, message: "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.spec.paused == false' resulted in error: no such key: paused" },
    });
    const ignore = new FakeCluster([{ ...p, spec: { ...(p['spec'] as object), failurePolicy: 'Ignore' } }, binding('b', 'p')]);
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 1)), ignore).allowed).toBe(true);
    const warnAudit = new FakeCluster([maxReplicas, binding('b', 'demo-policy.example.com', { validationActions: ['Warn', 'Audit'] })]);
    const v = validatingAdmissionPolicy.validate!(create(deployment('web', 6)), warnAudit);
    expect(v).toEqual({
      allowed: true,
      warnings: ["Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'b': failed expression: object.spec.replicas <= 5"],
      auditAnnotations: {
        'validation.policy.admission.k8s.io/validation_failure':
          '[{"message":"failed expression: object.spec.replicas <= 5","policy":"demo-policy.example.com","binding":"b","expressionIndex":0,"validationActions":["Warn","Audit"]}]',
      },
    });
  });

  it('honours matchConditions, namespaceObject, request and the binding’s matchResources', () => {
    const p = policy('prod-only', {
      matchConditions: [{ name: 'is-prod', expression: "namespaceObject.metadata.labels.env == 'prod'" }],
      validations: [{ expression: "!object.spec.template.spec.containers.exists(c, c.image.endsWith(':latest'))", message: 'no :latest images in prod' }, { expression: "request.userInfo.username != 'mallory'" }],
    });
    const cluster = new FakeCluster([namespace('prod', { env: 'prod' }), namespace('dev', { env: 'dev' }), p, binding('b', 'prod-only', { matchResources: { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Exists' }] } } })]);
    const inProd = validatingAdmissionPolicy.validate!(create(deployment('web', 1, {}, 'prod')), cluster);
    expect(inProd.allowed ? '' : inProd.status.message).toBe("deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'prod-only' with binding 'b' denied request: no :latest images in prod");
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 1, {}, 'dev')), cluster).allowed).toBe(true);
    const pinned = deployment('web', 1, {}, 'prod');
    (pinned['spec'] as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0]!.image = 'nginx:1.27';
    expect(validatingAdmissionPolicy.validate!(create(pinned), cluster).allowed).toBe(true);
    const mallory = attrs({ group: 'apps', resource: 'deployments', name: 'web', object: pinned, userInfo: { username: 'mallory', groups: [] } });
    expect(validatingAdmissionPolicy.validate!(mallory, cluster).allowed).toBe(false);
  });

  it('reports compile errors and failing variables', () => {
    const broken = new FakeCluster([policy('p', { validations: [{ expression: 'object.spec.replicas <=' }] }), binding('b', 'p')]);
    const v = validatingAdmissionPolicy.validate!(create(deployment('web', 1)), broken);
    expect(v.allowed ? '' : v.status.message).toMatch(/denied request: compilation error: /);
    const badVar = new FakeCluster([policy('p', { variables: [{ name: 'x', expression: 'object.spec.nope' }], validations: [{ expression: 'variables.x > 1' }] }), binding('b', 'p')]);
    const w = validatingAdmissionPolicy.validate!(create(deployment('web', 1)), badVar);
    expect(w.allowed ? '' : w.status.message).toBe(
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'variables.x > 1' resulted in error: composited variable \"x\" fails to evaluate: no such key: nope",
    );
  });

  it('never applies to admission configuration objects themselves', () => {
    const p = policy('all', { matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] }, validations: [{ expression: 'false' }] });
    const cluster = new FakeCluster([p, binding('b', 'all')]);
    expect(validatingAdmissionPolicy.validate!(attrs({ group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings', name: 'x', object: binding('x', 'all') }), cluster).allowed).toBe(true);
    expect(validatingAdmissionPolicy.validate!(create(deployment('web', 1)), cluster).allowed).toBe(false);
  });
});
