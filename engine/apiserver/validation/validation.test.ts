import { describe, expect, it } from 'vitest';
import { status } from '../../apimachinery/status';
import type { KObject } from '../../apimachinery/types';
import { applyDefaults } from '../defaults';
import { validateCreate, validateStatusUpdate, validateUpdate } from './index';
import { canonicaliseQuantities } from './quantity';
import { prepareForCreate, prepareForStatusUpdate, prepareForUpdate } from './strategy';

type G = { group: string; version: string; kind: string };
const POD: G = { group: '', version: 'v1', kind: 'Pod' };
const DEPLOY: G = { group: 'apps', version: 'v1', kind: 'Deployment' };

/** Decodes as the API server does (defaults, canonical quantities, strategy) and validates. */
function create(gvk: G, o: unknown): string {
  const obj = JSON.parse(JSON.stringify(o)) as KObject;
  applyDefaults(gvk, obj);
  canonicaliseQuantities(gvk, obj);
  prepareForCreate(gvk, obj);
  const errs = validateCreate(gvk, obj);
  return errs.length ? status.invalid({ group: gvk.group, kind: gvk.kind }, obj.metadata.name ?? '', errs).message! : 'ok';
}
function stored(gvk: G, o: unknown): KObject {
  const obj = JSON.parse(JSON.stringify(o)) as KObject;
  applyDefaults(gvk, obj);
  canonicaliseQuantities(gvk, obj);
  prepareForCreate(gvk, obj);
  obj.metadata.resourceVersion = '1';
  obj.metadata.uid = 'u1';
  return obj;
}
function update(gvk: G, old: KObject, o: unknown): string {
  const obj = JSON.parse(JSON.stringify(o)) as KObject;
  applyDefaults(gvk, obj);
  canonicaliseQuantities(gvk, obj);
  prepareForUpdate(gvk, obj, old);
  const errs = validateUpdate(gvk, obj, old);
  return errs.length ? status.invalid({ group: gvk.group, kind: gvk.kind }, obj.metadata.name ?? '', errs).message! : 'ok';
}

const pod = (spec: unknown, meta: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', ...meta }, spec });
const ctr = (extra: Record<string, unknown> = {}) => ({ name: 'c', image: 'nginx', ...extra });
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('ObjectMeta', () => {
  it('names: subdomain, label (Namespace), DNS-1035 (Service), generateName, required', () => {
    expect(create(POD, pod({ containers: [ctr()] }, { name: 'My_Pod' }))).toBe(`Pod "My_Pod" is invalid: metadata.name: Invalid value: "My_Pod": ${SUBDOMAIN_MSG}`);
    expect(create({ group: '', version: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a.b' } })).toBe(
      `Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    );
    expect(create({ group: '', version: 'v1', kind: 'Service' }, { apiVersion: 'v1', kind: 'Service', metadata: { name: '1web', namespace: 'default' }, spec: { ports: [{ port: 80 }] } })).toBe(
      `Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    );
    expect(create(POD, pod({ containers: [ctr()] }, { name: undefined }))).toBe('Pod "" is invalid: metadata.name: Required value: name or generateName is required');
    expect(create(POD, pod({ containers: [ctr()] }, { namespace: undefined }))).toBe('Pod "p" is invalid: metadata.namespace: Required value');
  });

  it('labels and annotations', () => {
    expect(create(POD, pod({ containers: [ctr()] }, { labels: { app: 'bad value!' } }))).toBe(
      `Pod "p" is invalid: metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
    expect(create(POD, pod({ containers: [ctr()] }, { labels: { '-x': 'y' } }))).toBe(
      `Pod "p" is invalid: metadata.labels: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
    expect(create(POD, pod({ containers: [ctr()] }, { annotations: { big: 'x'.repeat(262145) } }))).toBe('Pod "p" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes');
    expect(create(POD, pod({ containers: [ctr()] }, { annotations: { 'a/b/c': 'x' } }))).toContain("metadata.annotations: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters");
  });

  it('ownerReferences and finalizers', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
    ];
    expect(create(POD, pod({ containers: [ctr()] }, { ownerReferences: refs }))).toContain(
      'metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
    );
    expect(create(POD, pod({ containers: [ctr()] }, { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'x' }] }))).toBe('Pod "p" is invalid: metadata.ownerReferences.uid: Invalid value: "": uid must not be empty');
    expect(create(POD, pod({ containers: [ctr()] }, { finalizers: ['orphan', 'foregroundDeletion'] }))).toBe(
      'Pod "p" is invalid: metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    );
  });

  it('updates: resourceVersion required, name immutable, no new finalizers while deleting', () => {
    const old = stored({ group: '', version: 'v1', kind: 'ConfigMap' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
    const cm = { group: '', version: 'v1', kind: 'ConfigMap' };
    expect(update(cm, old, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', uid: 'u1' } })).toBe(
      'ConfigMap "c" is invalid: metadata.resourceVersion: Invalid value: "": must be specified for an update',
    );
    expect(update(cm, old, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', namespace: 'default', uid: 'u1', resourceVersion: '1' } })).toBe(
      'ConfigMap "d" is invalid: metadata.name: Invalid value: "d": field is immutable',
    );
    const deleting = { ...old, metadata: { ...old.metadata, deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['a.io/x'] } };
    expect(update(cm, deleting, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...deleting.metadata, finalizers: ['a.io/x', 'b.io/y'] } })).toBe(
      'ConfigMap "c" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/y"}',
    );
  });
});

describe('Pod', () => {
  it('containers required, names, images, ports, env', () => {
    expect(create(POD, pod({}))).toBe('Pod "p" is invalid: spec.containers: Required value');
    expect(create(POD, pod({ containers: [{ name: 'c' }] }))).toBe('Pod "p" is invalid: spec.containers[0].image: Required value');
    expect(create(POD, pod({ containers: [ctr(), ctr()] }))).toBe('Pod "p" is invalid: spec.containers[1].name: Duplicate value: "c"');
    expect(create(POD, pod({ containers: [ctr({ name: 'Web' })] }))).toBe(
      `Pod "p" is invalid: spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    );
    expect(create(POD, pod({ containers: [ctr({ ports: [{ containerPort: 70000 }] })] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
    expect(create(POD, pod({ containers: [ctr({ ports: [{ containerPort: 80, protocol: 'HTTP' }] })] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
    );
    expect(create(POD, pod({ containers: [ctr({ env: [{ name: 'A=B', value: 'x' }] })] }))).toBe(
      `Pod "p" is invalid: spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
    );
  });

  it('resources: requests must not exceed limits, names must be standard', () => {
    expect(create(POD, pod({ containers: [ctr({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    );
    expect(create(POD, pod({ containers: [ctr({ resources: { requests: { gpu: '1' } } })] }))).toBe(
      'Pod "p" is invalid: [spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified, spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers]',
    );
    expect(create(POD, pod({ containers: [ctr({ resources: { requests: { 'example.com/dongle': '1' } } })] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    );
  });

  it('restartPolicy, dnsPolicy, volumes and mounts, probes, tolerations, affinity, spread', () => {
    expect(create(POD, pod({ restartPolicy: 'Sometimes', containers: [ctr()] }))).toBe(
      'Pod "p" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    );
    expect(create(POD, pod({ containers: [ctr({ volumeMounts: [{ name: 'data', mountPath: '/d' }] })] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "data"',
    );
    expect(create(POD, pod({ volumes: [{ name: 'a', emptyDir: {}, configMap: { name: 'x' } }], containers: [ctr()] }))).toBe(
      'Pod "p" is invalid: spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
    );
    expect(create(POD, pod({ containers: [ctr({ livenessProbe: { exec: { command: ['true'] }, successThreshold: 2 } })] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    );
    expect(create(POD, pod({ containers: [ctr({ readinessProbe: {} })] }))).toBe('Pod "p" is invalid: spec.containers[0].readinessProbe: Required value: must specify a handler type');
    expect(create(POD, pod({ tolerations: [{ operator: 'Equal', value: 'x' }], containers: [ctr()] }))).toBe(
      'Pod "p" is invalid: spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    );
    expect(create(POD, pod({ tolerations: [{ key: 'k', effect: 'NoSchedule', tolerationSeconds: 5 }], containers: [ctr()] }))).toBe(
      "Pod \"p\" is invalid: spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
    );
    expect(create(POD, pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }, containers: [ctr()] }))).toBe(
      'Pod "p" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
    );
    expect(create(POD, pod({ topologySpreadConstraints: [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }], containers: [ctr()] }))).toBe(
      'Pod "p" is invalid: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
    );
  });

  it('updates may only change images, activeDeadlineSeconds, tolerations', () => {
    const old = stored(POD, pod({ containers: [ctr({ ports: [{ containerPort: 80 }] })] }));
    expect(update(POD, old, { ...old, spec: { ...(old.spec as object), containers: [ctr({ image: 'nginx:2', imagePullPolicy: 'Always', ports: [{ containerPort: 80 }] })] } })).toBe('ok');
    const msg = update(POD, old, { ...old, spec: { ...(old.spec as object), containers: [ctr({ ports: [{ containerPort: 81 }] })] } });
    expect(msg.startsWith(
      'Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
    )).toBe(true);
    expect(update(POD, old, { ...old, spec: { ...(old.spec as object), containers: [ctr(), ctr({ name: 'd' })] } })).toBe('Pod "p" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers');
  });

  it('status updates keep the spec and check nodeName', () => {
    const old = stored(POD, pod({ containers: [ctr()] }));
    const next = JSON.parse(JSON.stringify(old)) as KObject;
    (next.spec as Record<string, unknown>).nodeName = 'n1';
    next.status = { phase: 'Running' };
    prepareForStatusUpdate(POD, next, old);
    expect((next.spec as Record<string, unknown>).nodeName).toBeUndefined();
    expect(validateStatusUpdate(POD, next, old)).toEqual([]);
  });
});

describe('Deployment and ReplicaSet', () => {
  const deploy = (spec: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' }, spec });
  const tpl = (labels: Record<string, string>) => ({ metadata: { labels }, spec: { containers: [ctr()] } });

  it('selector must match template labels, be non-empty and be present', () => {
    expect(create(DEPLOY, deploy({ selector: { matchLabels: { app: 'x' } }, template: tpl({ app: 'y' }) }))).toBe(
      'Deployment.apps "d" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`',
    );
    // A missing selector also fails the template match (LabelSelectorAsSelector(nil) selects nothing).
    expect(create(DEPLOY, deploy({ template: tpl({ app: 'y' }) }))).toBe(
      'Deployment.apps "d" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`]',
    );
    expect(create(DEPLOY, deploy({ selector: { matchLabels: { app: 'x' } }, template: tpl({ app: 'x' }) }))).toBe('ok');
  });

  it('replicas, strategy and progress deadline', () => {
    const base = { selector: { matchLabels: { app: 'x' } }, template: tpl({ app: 'x' }) };
    expect(create(DEPLOY, deploy({ ...base, replicas: -1 }))).toBe('Deployment.apps "d" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect(create(DEPLOY, deploy({ ...base, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }))).toBe(
      'Deployment.apps "d" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    );
    expect(create(DEPLOY, deploy({ ...base, strategy: { type: 'Recreate', rollingUpdate: {} } }))).toBe(
      "Deployment.apps \"d\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
    expect(create(DEPLOY, deploy({ ...base, template: { ...tpl({ app: 'x' }), spec: { restartPolicy: 'Never', containers: [ctr()] } } }))).toBe(
      'Deployment.apps "d" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    );
    expect(create(DEPLOY, deploy({ ...base, progressDeadlineSeconds: 5, minReadySeconds: 10 }))).toBe(
      'Deployment.apps "d" is invalid: spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds',
    );
  });

  it('selector is immutable; generation counts spec changes; status is kept', () => {
    const old = stored(DEPLOY, deploy({ selector: { matchLabels: { app: 'x' } }, template: tpl({ app: 'x' }) }));
    expect(old.metadata.generation).toBe(1);
    const changed = deploy({ selector: { matchLabels: { app: 'x', tier: 'web' } }, template: tpl({ app: 'x', tier: 'web' }) });
    expect(update(DEPLOY, old, { ...changed, metadata: old.metadata })).toBe(
      'Deployment.apps "d" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x", "tier":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
    const next = JSON.parse(JSON.stringify(old)) as KObject;
    (next.spec as Record<string, unknown>).replicas = 3;
    next.status = { replicas: 99 };
    prepareForUpdate(DEPLOY, next, old);
    expect(next.metadata.generation).toBe(2);
    expect(next.status).toEqual({});
  });

  it('ReplicaSet says "deployment" for an empty selector, as upstream does', () => {
    const RS: G = { group: 'apps', version: 'v1', kind: 'ReplicaSet' };
    expect(create(RS, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r', namespace: 'default' }, spec: { selector: {}, template: tpl({ a: 'b' }) } })).toBe(
      'ReplicaSet.apps "r" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    );
  });
});

describe('Service', () => {
  const SVC: G = { group: '', version: 'v1', kind: 'Service' };
  const svc = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec });
  it('ports, types, nodePorts', () => {
    expect(create(SVC, svc({ selector: { app: 'x' } }))).toBe('Service "web" is invalid: spec.ports: Required value');
    // targetPort defaults to port, so it is reported too.
    expect(create(SVC, svc({ ports: [{ port: 0 }] }))).toBe(
      'Service "web" is invalid: [spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive]',
    );
    expect(create(SVC, svc({ ports: [{ port: 80 }, { port: 81 }] }))).toBe('Service "web" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]');
    expect(create(SVC, svc({ type: 'Magic', ports: [{ port: 80 }] }))).toBe(
      'Service "web" is invalid: spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
    expect(create(SVC, svc({ ports: [{ port: 80, nodePort: 30001 }] }))).toBe("Service \"web\" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'");
    expect(create(SVC, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }))).toBe(
      'Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    expect(create(SVC, svc({ clusterIP: '10.0.0.300', ports: [{ port: 80 }] }))).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
  });
});

describe('ConfigMap, Secret, Namespace, Node', () => {
  const CM: G = { group: '', version: 'v1', kind: 'ConfigMap' };
  const SEC: G = { group: '', version: 'v1', kind: 'Secret' };
  it('config keys, size, immutability', () => {
    expect(create(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { 'a b': 'x' } })).toBe(
      `ConfigMap "c" is invalid: data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    );
    expect(create(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: 'x'.repeat(1048577) } })).toBe(
      'ConfigMap "c" is invalid: Too long: may not be more than 1048576 bytes',
    );
    const old = stored(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: '1' }, immutable: true });
    expect(update(CM, old, { ...old, data: { a: '2' } })).toBe('ConfigMap "c" is invalid: data: Forbidden: field is immutable when `immutable` is set');
    const sold = stored(SEC, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' } });
    expect(update(SEC, sold, { ...sold, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } })).toBe(
      'Secret "s" is invalid: type: Invalid value: "kubernetes.io/tls": field is immutable',
    );
    expect(create(SEC, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, type: 'kubernetes.io/tls', data: {} })).toBe(
      'Secret "s" is invalid: [data[tls.crt]: Required value, data[tls.key]: Required value]',
    );
  });
  it('namespaces are cluster-scoped and nodes validate taints', () => {
    expect(create({ group: '', version: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', namespace: 'b' } })).toBe(
      'Namespace "a" is invalid: metadata.namespace: Forbidden: not allowed on this type',
    );
    expect(create({ group: '', version: 'v1', kind: 'Node' }, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: { taints: [{ key: 'k', effect: 'Sometimes' }] } })).toBe(
      'Node "n" is invalid: metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    );
  });
});

describe('the rest', () => {
  it('Job and CronJob', () => {
    const JOB: G = { group: 'batch', version: 'v1', kind: 'Job' };
    expect(create(JOB, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'default', uid: 'u' }, spec: { template: { spec: { containers: [ctr()] } } } })).toBe(
      'Job.batch "j" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    );
    const CJ: G = { group: 'batch', version: 'v1', kind: 'CronJob' };
    const cj = (schedule: string) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c', namespace: 'default' }, spec: { schedule, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [ctr()] } } } } } });
    expect(create(CJ, cj('*/5 * * * *'))).toBe('ok');
    expect(create(CJ, cj('@hourly'))).toBe('ok');
    expect(create(CJ, cj('* * *'))).toBe('CronJob.batch "c" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]');
    expect(create(CJ, cj('61 * * * *'))).toBe('CronJob.batch "c" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61');
    expect(create(CJ, cj('x * * * *'))).toBe(
      'CronJob.batch "c" is invalid: spec.schedule: Invalid value: "x * * * *": failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
    );
  });
  it('RBAC, PriorityClass, StorageClass, HPA, PDB, webhooks, VAP', () => {
    expect(create({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' }, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['pods'] }] })).toBe(
      'Role.rbac.authorization.k8s.io "r" is invalid: rules[0].verbs: Required value: verbs must contain at least one value',
    );
    expect(create({ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass' }, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 2000000000 })).toBe(
      'PriorityClass.scheduling.k8s.io "high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    );
    expect(create({ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass' }, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-mine' }, value: 1 })).toBe(
      "PriorityClass.scheduling.k8s.io \"system-mine\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    );
    expect(create({ group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass' }, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 's' } })).toBe(
      'StorageClass.storage.k8s.io "s" is invalid: provisioner: Required value',
    );
    expect(create({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'default' }, spec: { minReplicas: 3, maxReplicas: 2, scaleTargetRef: { kind: 'Deployment', name: 'd' } } })).toBe(
      'HorizontalPodAutoscaler.autoscaling "h" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    );
    expect(create({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' }, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p', namespace: 'default' }, spec: { minAvailable: '150%' } })).toBe(
      'PodDisruptionBudget.policy "p" is invalid: spec.minAvailable: Invalid value: "150%": must not be greater than 100%',
    );
    const VWC: G = { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration' };
    expect(create(VWC, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'w' }, webhooks: [{ name: 'check', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://x.example.com/v' } }] })).toBe(
      'ValidatingWebhookConfiguration.admissionregistration.k8s.io "w" is invalid: webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots',
    );
    const VAP: G = { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy' };
    expect(create(VAP, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'v' }, spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] }, validations: [{ expression: '' }] } })).toBe(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "v" is invalid: spec.validations[0].expression: Required value: expression is not specified',
    );
  });
});

describe('Job: per-index back-off, pod failure and success policies, managedBy (batch/validation v1.32)', () => {
  const JOB: G = { group: 'batch', version: 'v1', kind: 'Job' };
  const job = (spec: Record<string, unknown>) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'j', namespace: 'default', uid: 'u' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [ctr()] } }, ...spec },
  });
  const bad = (spec: Record<string, unknown>) => create(JOB, job(spec)).replace('Job.batch "j" is invalid: ', '');

  it('accepts the valid shapes', () => {
    expect(create(JOB, job({ completionMode: 'Indexed', completions: 4, backoffLimitPerIndex: 1, maxFailedIndexes: 2 }))).toBe('ok');
    expect(create(JOB, job({ completionMode: 'Indexed', completions: 4, backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1, 2] } }] } }))).toBe('ok');
    expect(create(JOB, job({ completionMode: 'Indexed', completions: 5, successPolicy: { rules: [{ succeededIndexes: '0-2,4', succeededCount: 3 }] } }))).toBe('ok');
    expect(create(JOB, job({ managedBy: 'kueue.x-k8s.io/multikueue' }))).toBe('ok');
  });

  it('backoffLimitPerIndex and maxFailedIndexes', () => {
    expect(bad({ backoffLimitPerIndex: 1 })).toBe('spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode');
    expect(bad({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, maxFailedIndexes: 3 })).toBe('spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions');
    expect(bad({ completionMode: 'Indexed', completions: 100_001, parallelism: 1, backoffLimitPerIndex: 1 })).toBe('spec.maxFailedIndexes: Required value: must be specified when completions is above 100000');
  });

  it('pod failure policy rules', () => {
    const pfp = (rule: unknown, extra: Record<string, unknown> = {}) => bad({ podFailurePolicy: { rules: [rule] }, ...extra });
    expect(pfp({ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } })).toBe('spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set');
    expect(pfp({ action: 'Retry', onExitCodes: { operator: 'In', values: [1] } })).toBe('spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"');
    expect(pfp({ action: 'FailJob', onExitCodes: { operator: 'In', values: [0, 3, 2] } })).toBe(
      '[spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator, spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{0, 3, 2}: must be ordered]',
    );
    expect(pfp({ action: 'FailJob', onExitCodes: { containerName: 'nope', operator: 'In', values: [1] } })).toBe('spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "nope": must be one of the container or initContainer names in the pod template');
    expect(pfp({ action: 'Ignore' })).toBe('spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required');
    expect(pfp({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'Maybe' }] })).toBe('spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"');
  });

  it('success policy and managedBy', () => {
    expect(bad({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [] } })).toBe('spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified');
    expect(bad({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededIndexes: '0-5' }] } })).toBe('spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-5": error parsing succeededIndexes: too large index: "5"');
    expect(bad({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededIndexes: '2,1' }] } })).toBe('spec.successPolicy.rules[0].succeededIndexes: Invalid value: "2,1": error parsing succeededIndexes: non-increasing order, previous: 2, current: 1');
    expect(bad({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededIndexes: '0,1', succeededCount: 3 }] } })).toBe('spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)');
    expect(bad({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{}] } })).toBe('spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified');
    expect(bad({ managedBy: 'kueue' })).toBe('spec.managedBy: Invalid value: "kueue": must be a domain-prefixed path (such as "acme.io/foo")');
  });
});
