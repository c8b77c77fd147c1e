// Strategic merge patch on built-in kinds, with the patch metadata of v1.32:
// what `kubectl patch` and `kubectl apply` do to pods, deployments, nodes...
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { JsonObject } from '../types';
import { patchMetaFor } from './patchMeta';
import { applyStrategicMergePatch, createThreeWayMergePatch, createTwoWayMergePatch } from './strategicMerge';

const y = (s: string): JsonObject => parse(s) as JsonObject;
const pod = patchMetaFor('', 'v1', 'Pod');
const deployment = patchMetaFor('apps', 'v1', 'Deployment');

function apply(kind: [string, string, string], original: JsonObject, patch: JsonObject): JsonObject {
  const r = applyStrategicMergePatch(original, patch, patchMetaFor(...kind));
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const basePod = y(`
apiVersion: v1
kind: Pod
metadata: {name: web, finalizers: [a]}
spec:
  containers:
  - name: app
    image: nginx:1.26
    env: [{name: A, value: '1'}, {name: B, value: '2'}]
    ports: [{containerPort: 80, protocol: TCP}]
  - name: sidecar
    image: envoy
  tolerations: [{key: x, operator: Exists}]
`);

describe('kubectl patch on a pod', () => {
  it('merges containers by name and env by name', () => {
    const out = apply(['', 'v1', 'Pod'], basePod, y(`spec: {containers: [{name: app, env: [{name: C, value: '3'}, {name: A, value: '9'}]}]}`));
    const spec = out.spec as JsonObject;
    expect(spec.containers).toEqual(
      y(`
c:
- name: app
  image: nginx:1.26
  env: [{name: C, value: '3'}, {name: A, value: '9'}, {name: B, value: '2'}]
  ports: [{containerPort: 80, protocol: TCP}]
- name: sidecar
  image: envoy
`).c,
    );
  });

  it('deletes a container with $patch: delete', () => {
    const out = apply(['', 'v1', 'Pod'], basePod, y(`spec: {containers: [{name: sidecar, $patch: delete}]}`));
    expect((out.spec as JsonObject).containers).toEqual([(basePod.spec as { containers: JsonObject[] }).containers[0]]);
  });

  it('replaces atomic lists (tolerations) whole', () => {
    const out = apply(['', 'v1', 'Pod'], basePod, y(`spec: {tolerations: [{key: y, operator: Exists}]}`));
    expect((out.spec as JsonObject).tolerations).toEqual([{ key: 'y', operator: 'Exists' }]);
  });

  it('merges finalizers as a set and deletes with $deleteFromPrimitiveList', () => {
    expect((apply(['', 'v1', 'Pod'], basePod, y(`metadata: {finalizers: [b, a]}`)).metadata as JsonObject).finalizers).toEqual(['b', 'a']);
    // Without a $setElementOrder list, items new to the list go before the server's.
    expect((apply(['', 'v1', 'Pod'], basePod, y(`metadata: {finalizers: [b]}`)).metadata as JsonObject).finalizers).toEqual(['b', 'a']);
    expect((apply(['', 'v1', 'Pod'], basePod, y(`metadata: {$deleteFromPrimitiveList/finalizers: [a]}`)).metadata as JsonObject).finalizers).toEqual([]);
  });

  it('merges status conditions by type, as the kubelet patches them', () => {
    const p = y(`status: {conditions: [{type: Ready, status: 'False'}, {type: PodScheduled, status: 'True'}]}`);
    const out = apply(['', 'v1', 'Pod'], p, y(`status: {conditions: [{type: Ready, status: 'True'}]}`));
    expect((out.status as JsonObject).conditions).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ]);
  });

  it('merges ownerReferences by uid', () => {
    const p = y(`metadata: {ownerReferences: [{uid: u1, name: rs1}]}`);
    const out = apply(['', 'v1', 'Pod'], p, y(`metadata: {ownerReferences: [{uid: u2, name: rs2}, {uid: u1, controller: true}]}`));
    expect((out.metadata as JsonObject).ownerReferences).toEqual([
      { uid: 'u2', name: 'rs2' },
      { uid: 'u1', name: 'rs1', controller: true },
    ]);
  });
});

describe('other kinds', () => {
  it('Service ports merge by port', () => {
    const svc = y(`spec: {ports: [{port: 80, targetPort: 8080}, {port: 443}]}`);
    const out = apply(['', 'v1', 'Service'], svc, y(`spec: {ports: [{port: 80, targetPort: 9090}]}`));
    expect((out.spec as JsonObject).ports).toEqual([{ port: 80, targetPort: 9090 }, { port: 443 }]);
  });

  it('Node taints are atomic, podCIDRs merge as a set', () => {
    const node = y(`spec: {taints: [{key: a, effect: NoSchedule}], podCIDRs: [10.0.0.0/24]}`);
    const out = apply(['', 'v1', 'Node'], node, y(`spec: {taints: [{key: b, effect: NoExecute}], podCIDRs: ['fd00::/64']}`));
    expect(out.spec).toEqual({ taints: [{ key: 'b', effect: 'NoExecute' }], podCIDRs: ['fd00::/64', '10.0.0.0/24'] });
  });

  it('PodDisruptionBudget selector has patchStrategy replace', () => {
    const pdb = y(`spec: {selector: {matchLabels: {a: '1'}}}`);
    const out = apply(['policy', 'v1', 'PodDisruptionBudget'], pdb, y(`spec: {selector: {matchLabels: {b: '2'}}}`));
    expect(out.spec).toEqual({ selector: { matchLabels: { b: '2' } } });
  });

  it('webhook configurations merge webhooks by name', () => {
    const cfg = y(`webhooks: [{name: a.example.com, timeoutSeconds: 10}, {name: b.example.com}]`);
    const out = apply(['admissionregistration.k8s.io', 'v1', 'MutatingWebhookConfiguration'], cfg, y(`webhooks: [{name: b.example.com, timeoutSeconds: 5}]`));
    expect(out.webhooks).toEqual([{ name: 'a.example.com', timeoutSeconds: 10 }, { name: 'b.example.com', timeoutSeconds: 5 }]);
  });

  it('a kind without patch metadata merges maps and replaces lists', () => {
    const out = apply(['', 'v1', 'ConfigMap'], y(`{data: {a: '1'}, metadata: {labels: {x: y}}}`), y(`{data: {b: '2'}, metadata: {labels: {x: null}}}`));
    expect(out).toEqual({ data: { a: '1', b: '2' }, metadata: { labels: {} } });
  });
});

describe('two-way patches', () => {
  it('changing an image gives the container by name and a $setElementOrder list', () => {
    const before = y(`spec: {template: {spec: {containers: [{name: app, image: 'nginx:1.26'}]}}}`);
    const after = y(`spec: {template: {spec: {containers: [{name: app, image: 'nginx:1.27'}]}}}`);
    expect(createTwoWayMergePatch(before, after, deployment)).toEqual({
      ok: true,
      value: y(`spec: {template: {spec: {$setElementOrder/containers: [{name: app}], containers: [{name: app, image: 'nginx:1.27'}]}}}`),
    });
  });
});

describe('kubectl apply (three-way)', () => {
  it('removes an env var dropped from the configuration and keeps one added live', () => {
    const lastApplied = y(`spec: {containers: [{name: app, image: nginx, env: [{name: A, value: '1'}, {name: B, value: '2'}]}]}`);
    const config = y(`spec: {containers: [{name: app, image: nginx, env: [{name: A, value: '1'}]}]}`);
    const live = y(`spec: {containers: [{name: app, image: nginx, env: [{name: A, value: '1'}, {name: B, value: '2'}, {name: C, value: '3'}]}]}`);
    const patch = createThreeWayMergePatch(lastApplied, config, live, pod);
    expect(patch).toEqual({
      ok: true,
      value: y(`
spec:
  $setElementOrder/containers: [{name: app}]
  containers:
  - name: app
    $setElementOrder/env: [{name: A}]
    env: [{name: B, $patch: delete}]
`),
    });
    if (patch.ok) {
      expect(apply(['', 'v1', 'Pod'], live, patch.value)).toEqual(
        y(`spec: {containers: [{name: app, image: nginx, env: [{name: A, value: '1'}, {name: C, value: '3'}]}]}`),
      );
    }
  });

  it('switching a Deployment to Recreate clears rollingUpdate through $retainKeys', () => {
    const lastApplied = y(`spec: {strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}}`);
    const config = y(`spec: {strategy: {type: Recreate}}`);
    const live = y(`spec: {replicas: 3, strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 25%}}}`);
    const patch = createThreeWayMergePatch(lastApplied, config, live, deployment);
    expect(patch).toEqual({ ok: true, value: y(`spec: {strategy: {$retainKeys: [type], rollingUpdate: null, type: Recreate}}`) });
    if (patch.ok) expect(apply(['apps', 'v1', 'Deployment'], live, patch.value)).toEqual(y(`spec: {replicas: 3, strategy: {type: Recreate}}`));
  });

  it('changing a volume source sends $retainKeys for the volume', () => {
    const lastApplied = y(`spec: {volumes: [{name: data, emptyDir: {}}]}`);
    const config = y(`spec: {volumes: [{name: data, configMap: {name: cfg}}]}`);
    const patch = createThreeWayMergePatch(lastApplied, config, lastApplied, pod);
    expect(patch).toEqual({
      ok: true,
      value: y(`
spec:
  $setElementOrder/volumes: [{name: data}]
  volumes: [{$retainKeys: [configMap, name], configMap: {name: cfg}, emptyDir: null, name: data}]
`),
    });
    if (patch.ok) expect(apply(['', 'v1', 'Pod'], lastApplied, patch.value)).toEqual(config);
  });

  it('a field removed from the configuration is deleted, a field set live is kept', () => {
    const lastApplied = y(`metadata: {labels: {app: web, tier: fe}}`);
    const config = y(`metadata: {labels: {app: web}}`);
    const live = y(`metadata: {labels: {app: web, tier: fe, team: x}}`);
    expect(createThreeWayMergePatch(lastApplied, config, live, pod)).toEqual({ ok: true, value: y(`metadata: {labels: {tier: null}}`) });
  });
});
