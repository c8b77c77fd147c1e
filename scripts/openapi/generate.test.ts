import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unescapeDoc } from './clientNode';
import { generate } from './generate';
import { definitionName, groupVersionOfPath, packageOfGroup, parseClassName, resourceOfPath } from './naming';
import { groupVersionWord, operationId } from './operations';

const root = resolve(__dirname, '../..');

describe('naming', () => {
  it('reads client-node class names', () => {
    expect(parseClassName('V1PodSpec')).toEqual({ version: 'v1', name: 'PodSpec' });
    expect(parseClassName('V1beta1DeviceCapacity')).toEqual({ version: 'v1beta1', name: 'DeviceCapacity' });
    expect(parseClassName('CoreV1Event')).toEqual({ prefix: 'Core', version: 'v1', name: 'Event' });
    expect(parseClassName('V2HPAScalingRules')).toEqual({ version: 'v2', name: 'HPAScalingRules' });
    expect(parseClassName('VersionInfo')).toBeUndefined();
  });

  it('builds upstream definition names and operation ids', () => {
    expect(definitionName(packageOfGroup('rbac.authorization.k8s.io'), 'v1', 'Role')).toBe('io.k8s.api.rbac.v1.Role');
    expect(definitionName(packageOfGroup('internal.apiserver.k8s.io'), 'v1alpha1', 'StorageVersion')).toBe('io.k8s.api.apiserverinternal.v1alpha1.StorageVersion');
    expect(definitionName('apiextensions', 'v1', 'JSON')).toBe('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON');
    expect(groupVersionWord({ group: 'flowcontrol.apiserver.k8s.io', version: 'v1' })).toBe('FlowcontrolApiserverV1');
    expect(operationId('deleteCollectionNamespacedPod', { group: '', version: 'v1' })).toBe('deleteCoreV1CollectionNamespacedPod');
    expect(operationId('connectGetNodeProxy', { group: '', version: 'v1' })).toBe('connectCoreV1GetNodeProxy');
  });

  it('tells resource paths from subresource paths', () => {
    expect(groupVersionOfPath('/apis/apps/v1/deployments')).toEqual({ group: 'apps', version: 'v1' });
    expect(resourceOfPath('/api/v1/namespaces/{namespace}/pods/{name}')).toEqual({ resource: 'pods', namespaced: true, named: true });
    expect(resourceOfPath('/api/v1/namespaces/{name}')).toEqual({ resource: 'namespaces', namespaced: false, named: true });
    expect(resourceOfPath('/api/v1/namespaces/{name}/finalize')?.subresource).toBe('finalize');
    expect(resourceOfPath('/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale')?.subresource).toBe('scale');
  });

  it('undoes the generator escapes in descriptions', () => {
    expect(unescapeDoc("Defaults to \\\"ClusterFirst\\\". pod\\'s \\&quot;x\\&quot; \\&#39;y\\&#39; \\'*_/scale\\' \\\\d")).toBe(`Defaults to "ClusterFirst". pod's "x" 'y' '*/scale' \\d`);
  });
});

describe('generate', () => {
  it('is idempotent: a second run writes nothing', () => {
    generate(root);
    const again = generate(root);
    expect(again.written).toEqual([]);
    expect(again.warnings).toEqual([]);
  }, 30_000);
});

// ---- a tiny draft-07 validator: enough to check the editor schemas ------------------------

type Schema = Record<string, unknown>;

function validate(value: unknown, schema: Schema, doc: Schema, path = ''): string[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/definitions/', '');
    return validate(value, (doc.definitions as Record<string, Schema>)[name] as Schema, doc, path);
  }
  const errs: string[] = [];
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  if (typeof schema.type === 'string') {
    const t = typeOf(value);
    const ok = schema.type === t || (schema.type === 'number' && t === 'integer');
    if (!ok) return [`${path}: expected ${schema.type}, got ${t}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errs.push(`${path}: not one of ${schema.enum.join(',')}`);
  if ('const' in schema && schema.const !== value) errs.push(`${path}: not ${String(schema.const)}`);
  for (const sub of (schema.allOf as Schema[] | undefined) ?? []) errs.push(...validate(value, sub, doc, path));
  if (Array.isArray(schema.oneOf) && (schema.oneOf as Schema[]).filter((s) => validate(value, s, doc, path).length === 0).length !== 1) errs.push(`${path}: oneOf`);
  if (Array.isArray(schema.anyOf) && !(schema.anyOf as Schema[]).some((s) => validate(value, s, doc, path).length === 0)) errs.push(`${path}: anyOf`);
  if (schema.if && validate(value, schema.if as Schema, doc, path).length === 0 && schema.then) errs.push(...validate(value, schema.then as Schema, doc, path));
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in obj)) errs.push(`${path}: missing ${r}`);
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [k, v] of Object.entries(obj)) {
      const p = props[k];
      if (p) errs.push(...validate(v, p, doc, `${path}.${k}`));
      else if (schema.additionalProperties === false) errs.push(`${path}: unknown field ${k}`);
      else if (typeof schema.additionalProperties === 'object') errs.push(...validate(v, schema.additionalProperties as Schema, doc, `${path}.${k}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errs.push(...validate(v, schema.items as Schema, doc, `${path}[${i}]`)));
  return errs;
}

const load = (file: string) => JSON.parse(readFileSync(join(root, 'generated/schemas', file), 'utf8')) as Schema;

const goodDeployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '500m', memory: 1 } } }] },
    },
    strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
  },
};

describe('editor schemas', () => {
  const deploy = load('apps_v1_Deployment.json');

  it('accept a valid Deployment', () => {
    expect(validate(goodDeployment, deploy, deploy)).toEqual([]);
  });

  it('reject a Deployment without spec.selector', () => {
    const { selector: _s, ...spec } = goodDeployment.spec;
    expect(validate({ ...goodDeployment, spec }, deploy, deploy)).toEqual(['.spec: missing selector']);
  });

  it('reject unknown fields, wrong types and another kind', () => {
    const bad = { ...goodDeployment, spec: { ...goodDeployment.spec, replicas: 'two', foo: 1 } };
    expect(validate(bad, deploy, deploy)).toEqual(['.spec.replicas: expected integer, got string', '.spec: unknown field foo']);
    expect(validate({ ...goodDeployment, kind: 'StatefulSet' }, deploy, deploy)).toContain('.kind: not one of Deployment');
  });

  it('carry descriptions for hovers', () => {
    const defs = deploy.definitions as Record<string, Schema>;
    const podSpec = defs['io.k8s.api.core.v1.PodSpec'] as { properties: Record<string, Schema> };
    expect(podSpec.properties.containers?.markdownDescription).toMatch(/^List of containers belonging to the pod/);
  });

  it('all.json checks each document against the kind it names', () => {
    const all = load('all.json');
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 'http' }], selector: { app: 'web' } } };
    expect(validate(goodDeployment, all, all)).toEqual([]);
    expect(validate(svc, all, all)).toEqual([]);
    expect(validate({ ...svc, spec: { ...svc.spec, replicas: 3 } }, all, all)).toEqual(['.spec: unknown field replicas']);
    expect(validate({ apiVersion: 'v1', kind: 'Deployment', metadata: { name: 'x' } }, all, all)).toEqual([': anyOf']);
    expect(validate({ apiVersion: 'v1', kind: 'Nope' }, all, all).some((e) => e.startsWith('.kind: not one of'))).toBe(true);
    const events = validate({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' }, eventTime: '2024-01-01T00:00:00.000000Z', reason: 'x' }, all, all);
    expect(events).toEqual([]);
  });

  it('index.json lists every file', () => {
    const index = JSON.parse(readFileSync(join(root, 'generated/schemas/index.json'), 'utf8')) as { apiVersion: string; kind: string; file: string }[];
    expect(index).toContainEqual({ apiVersion: 'apps/v1', kind: 'Deployment', file: 'apps_v1_Deployment.json' });
    expect(index).toContainEqual({ apiVersion: 'v1', kind: 'Pod', file: 'core_v1_Pod.json' });
    for (const e of index) expect(load(e.file).title).toBe(`${e.kind} (${e.apiVersion})`);
  });
});
