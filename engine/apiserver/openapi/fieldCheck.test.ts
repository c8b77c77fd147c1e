import { describe, expect, it } from 'vitest';
import { checkFields, decodeAs } from './fieldCheck';
import { parseJsonTree, treeOf } from './jsonTree';

const DEPLOY = { group: 'apps', version: 'v1', kind: 'Deployment' };
const POD = { group: '', version: 'v1', kind: 'Pod' };

function deployment(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec };
}

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

describe('checkFields: unknown and duplicate fields', () => {
  const body = deployment({ selector: { matchLabels: { app: 'web' } }, template, foo: 1, bar: { x: 1 } });

  it('Strict fails with every unknown field, in order, as a 400', () => {
    const r = checkFields(DEPLOY, body, 'Strict');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.status.code).toBe(400);
    expect(r.status.reason).toBe('BadRequest');
    expect(r.status.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo", unknown field "spec.bar"');
  });

  it('Warn keeps the request and warns per field; the stored object loses them', () => {
    const r = checkFields(DEPLOY, body, 'Warn');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual(['unknown field "spec.foo"', 'unknown field "spec.bar"']);
    expect(r.obj.spec).toEqual({ selector: { matchLabels: { app: 'web' } }, template });
  });

  it('Ignore drops them silently', () => {
    const r = checkFields(DEPLOY, body, 'Ignore');
    expect(r).toEqual({ ok: true, obj: deployment({ selector: { matchLabels: { app: 'web' } }, template }), warnings: [] });
  });

  it('names list elements by index and is case-sensitive', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', imagePullPolice: 'Always', Image: 'y' }] } };
    const r = checkFields(POD, pod, 'Warn');
    expect(r.ok && r.warnings).toEqual(['unknown field "spec.containers[1].imagePullPolice"', 'unknown field "spec.containers[1].Image"']);
  });

  it('finds duplicate fields in the raw JSON, with the last value kept', () => {
    const text = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},"spec":{"containers":[{"name":"c","image":"i"}]}}';
    const strict = checkFields(POD, JSON.parse(text), 'Strict', [], { text });
    expect(!strict.ok && strict.status.message).toBe('Pod in version "v1" cannot be handled as a Pod: strict decoding error: duplicate field "metadata.name", duplicate field "metadata.labels.x"');
    const warn = checkFields(POD, JSON.parse(text), 'Warn', [], { text });
    expect(warn.ok && warn.obj.metadata).toEqual({ name: 'b', labels: { x: '2' } });
  });

  it('reports duplicates a caller found itself', () => {
    const r = checkFields(POD, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [] } }, 'Warn', ['metadata.name']);
    expect(r.ok && r.warnings).toEqual(['duplicate field "metadata.name"']);
  });

  it('patches report strict errors without the decode prefix', () => {
    const r = checkFields(DEPLOY, body, 'Strict', [], { context: 'patch' });
    expect(!r.ok && r.status.message).toBe('strict decoding error: unknown field "spec.foo", unknown field "spec.bar"');
  });
});

describe('checkFields: wrong types fail in every mode', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['string for a list of structs', { containers: 'nginx' }, 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container'],
    ['string for a struct in a list', { containers: ['nginx'] }, 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container'],
    ['string for an int32', { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] }, 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['fraction for an int64', { containers: [], activeDeadlineSeconds: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64'],
    ['number for a string', { containers: [{ name: 7 }] }, 'json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string'],
    ['bool for a map', { containers: [], nodeSelector: true }, 'json: cannot unmarshal bool into Go struct field PodSpec.spec.nodeSelector of type map[string]string'],
    ['object for a bool', { containers: [], hostNetwork: {} }, 'json: cannot unmarshal object into Go struct field PodSpec.spec.hostNetwork of type bool'],
    ['number for a map value', { containers: [], nodeSelector: { a: 1 } }, 'json: cannot unmarshal number into Go struct field PodSpec.spec.nodeSelector of type string'],
    ['string for a ResourceList', { containers: [{ name: 'c', resources: { limits: '1' } }] }, 'json: cannot unmarshal string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList'],
    ['bad quantity', { containers: [{ name: 'c', resources: { limits: { cpu: 'lots' } } }] }, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['unknown quantity suffix', { containers: [{ name: 'c', resources: { limits: { memory: '1K' } } }] }, "unable to parse quantity's suffix"],
  ];
  for (const [name, spec, err] of cases) {
    it(name, () => {
      for (const mode of ['Strict', 'Warn', 'Ignore'] as const) {
        const r = checkFields(POD, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }, mode);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.status.code).toBe(400);
        expect(r.status.message).toBe(`Pod in version "v1" cannot be handled as a Pod: ${err}`);
      }
    });
  }

  it('keeps the first type error, but a self-decoding type aborts at once', () => {
    const r = checkFields(POD, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 7 }, spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'x' } } }] } }, 'Ignore');
    expect(!r.ok && r.status.message).toMatch(/quantities must match/);
    const r2 = checkFields(POD, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 7, namespace: 8 }, spec: { containers: [] } }, 'Ignore');
    expect(!r2.ok && r2.status.message).toMatch(/ObjectMeta\.metadata\.name of type string$/);
  });

  it('IntOrString takes strings and int32s only', () => {
    const svc = (targetPort: unknown) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort }] } });
    const SVC = { group: '', version: 'v1', kind: 'Service' };
    expect(checkFields(SVC, svc('http'), 'Strict').ok).toBe(true);
    expect(checkFields(SVC, svc(8080), 'Strict').ok).toBe(true);
    const bad = checkFields(SVC, svc(1.5), 'Strict');
    expect(!bad.ok && bad.status.message).toBe('Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32');
    const big = checkFields(SVC, svc(3000000000), 'Strict');
    expect(!big.ok && big.status.message).toMatch(/number 3000000000 into Go struct field ServicePort\.spec\.ports\.targetPort of type int32$/);
  });

  it('Secret data must be base64', () => {
    const SECRET = { group: '', version: 'v1', kind: 'Secret' };
    const r = checkFields(SECRET, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: 'admin' } }, 'Strict');
    expect(!r.ok && r.status.message).toBe('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4');
    expect(checkFields(SECRET, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: 'YWRtaW4=' } }, 'Strict').ok).toBe(true);
  });

  it('times must be RFC 3339', () => {
    const r = checkFields(POD, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: 'yesterday' }, spec: { containers: [] } }, 'Strict');
    expect(!r.ok && r.status.message).toBe('Pod in version "v1" cannot be handled as a Pod: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    const n = checkFields(POD, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: 5 }, spec: { containers: [] } }, 'Strict');
    expect(!n.ok && n.status.message).toMatch(/json: cannot unmarshal number into Go struct field ObjectMeta\.metadata\.creationTimestamp of type string$/);
    expect(checkFields(POD, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: '2024-05-01T10:00:00Z' }, spec: { containers: [] } }, 'Strict').ok).toBe(true);
  });

  it('patches report type errors as 422 on the patch', () => {
    const r = checkFields(DEPLOY, deployment({ replicas: '3', selector: {}, template: {} }), 'Strict', [], { context: 'patch' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.status.code).toBe(422);
    expect(r.status.message).toContain('json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  it('sees number literals as written when given the text', () => {
    const text = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w"},"spec":{"replicas":1.0,"selector":{},"template":{}}}';
    const r = checkFields(DEPLOY, JSON.parse(text), 'Strict', [], { text });
    expect(!r.ok && r.status.message).toMatch(/number 1\.0 into Go struct field DeploymentSpec\.spec\.replicas of type int32$/);
  });

  it('passes kinds it has no definition for through untouched', () => {
    const cr = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, anything: 1 };
    expect(checkFields({ group: 'example.com', version: 'v1', kind: 'Widget' }, cr, 'Strict')).toEqual({ ok: true, obj: cr, warnings: [] });
  });
});

describe('decodeAs', () => {
  it('keeps free-form fields whole and nulls as sent', () => {
    const tree = parseJsonTree('{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r","managedFields":[{"fieldsV1":{"f:spec":{"x":1}}}]},"data":{"any":{"thing":[1]}},"revision":2}');
    expect(tree).toBeDefined();
    const r = decodeAs('io.k8s.api.apps.v1.ControllerRevision', tree ?? treeOf(null));
    expect(r.error).toBeUndefined();
    expect(r.strict).toEqual([]);
    expect(r.value).toMatchObject({ data: { any: { thing: [1] } }, metadata: { managedFields: [{ fieldsV1: { 'f:spec': { x: 1 } } }] } });
  });

  it('stops collecting strict errors at 100 and says each once', () => {
    const spec: Record<string, number> = {};
    for (let i = 0; i < 150; i++) spec[`f${i}`] = i;
    const r = decodeAs('io.k8s.api.core.v1.Pod', treeOf({ spec: { ...spec, containers: [] } }));
    expect(r.strict).toHaveLength(100);
    const dup = decodeAs('io.k8s.api.core.v1.Pod', parseJsonTree('{"foo":1,"foo":2}') ?? treeOf(null));
    expect(dup.strict).toEqual(['unknown field "foo"']);
  });
});
