import { describe, expect, it } from 'vitest';
import { decodeK8sProtobuf, decodeMessage, encodeK8sProtobuf, encodeMessage, isK8sProtobuf, protobufMessageFor } from './codec';
import { base64DecodeLenient } from '../../sim/base64';
import { KUBECTL_CAPTURES } from './testdata/kubectlCaptures';

const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (s: string): Uint8Array => new Uint8Array((s.replace(/\s+/g, '').match(/../g) ?? []).map((x) => parseInt(x, 16)));
const ascii = (s: string): string => hex(new TextEncoder().encode(s));

function roundTrip(obj: Record<string, unknown>): Record<string, unknown> {
  const r = decodeK8sProtobuf(encodeK8sProtobuf(obj));
  if (!r.ok) throw new Error(r.error);
  return r.object;
}

function decodeError(bytes: Uint8Array, defaults?: { apiVersion: string; kind: string }): string {
  const r = decodeK8sProtobuf(bytes, defaults);
  return r.ok ? 'decoded' : r.error;
}

/** prefix + runtime.Unknown{typeMeta{apiVersion, kind}, raw} */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const tm = fromHex(`0a${apiVersion.length.toString(16).padStart(2, '0')}${ascii(apiVersion)}12${kind.length.toString(16).padStart(2, '0')}${ascii(kind)}`);
  return fromHex(`6b387300 0a${tm.length.toString(16).padStart(2, '0')}${hex(tm)} 12${raw.length.toString(16).padStart(2, '0')}${hex(raw)}`);
}

// A Deployment written the way Go's encoding/json writes it, so a round trip must give it back unchanged.
const deployment: Record<string, unknown> = {
  kind: 'Deployment', apiVersion: 'apps/v1',
  metadata: { name: 'web', namespace: 'prod', generation: 3, creationTimestamp: '2025-01-01T00:00:00Z', labels: { app: 'web', tier: 'front' }, annotations: { 'deployment.kubernetes.io/revision': '2' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }] },
    template: {
      metadata: { creationTimestamp: null, labels: { app: 'web', tier: 'front' } },
      spec: {
        volumes: [
          { name: 'cfg', configMap: { name: 'web-config', defaultMode: 420, items: [{ key: 'nginx.conf', path: 'nginx.conf' }] } },
          { name: 'scratch', emptyDir: { sizeLimit: '1Gi' } },
          { name: 'creds', secret: { secretName: 'web-creds', optional: false } },
        ],
        initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['sh', '-c', 'echo ready'], resources: {} }],
        containers: [{
          name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent',
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }, { containerPort: 443, hostPort: 8443 }],
          env: [
            { name: 'MODE', value: 'prod' },
            { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
            { name: 'MEM', valueFrom: { resourceFieldRef: { containerName: 'nginx', resource: 'limits.memory', divisor: '1Mi' } } },
            { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'web-creds', key: 'token', optional: true } } },
          ],
          envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'web-config' } }],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi', 'ephemeral-storage': '2Gi' } },
          volumeMounts: [{ name: 'cfg', mountPath: '/etc/nginx', readOnly: true }, { name: 'scratch', mountPath: '/tmp' }],
          livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: '1' }] }, initialDelaySeconds: 5, periodSeconds: 10, failureThreshold: 3 },
          readinessProbe: { tcpSocket: { port: 80 }, timeoutSeconds: 1 },
          startupProbe: { exec: { command: ['cat', '/tmp/ready'] }, failureThreshold: 30, terminationGracePeriodSeconds: 0 },
          lifecycle: { preStop: { sleep: { seconds: 5 } } },
          securityContext: { runAsNonRoot: true, runAsUser: 101, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
        }],
        restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst',
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        securityContext: { fsGroup: 101, supplementalGroups: [1000, 2000] },
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule', tolerationSeconds: 300 }],
        affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' } }] } },
        priority: -5,
        enableServiceLinks: false,
      },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
  },
  status: {},
};

describe('the wire format, derived by hand from the proto rules', () => {
  // Namespace{metadata{name:"x"}}: ObjectMeta writes its eight value fields
  // (1-6 strings, 7 generation, 8 creationTimestamp as an empty Time);
  // spec (empty) and status (phase "") are value structs, so always present;
  // Unknown ends with empty contentEncoding (3) and contentType (4).
  const objectMeta = `0a0178 1200 1a00 2200 2a00 3200 3800 4200`;
  const namespace = `0a11 ${objectMeta} 1200 1a02 0a00`;
  const expected = fromHex(`6b387300 0a0f 0a02 7631 1209 ${ascii('Namespace')} 1219 ${namespace} 1a00 2200`);

  it('encodes a Namespace to the expected bytes', () => {
    expect(hex(encodeK8sProtobuf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }))).toBe(hex(expected));
  });

  it('is exactly what kubectl sends for `kubectl create namespace x`', () => {
    const capture = KUBECTL_CAPTURES.find((c) => c.command === 'kubectl create namespace x')!;
    expect(hex(base64DecodeLenient(capture.body)!)).toBe(hex(expected));
  });

  it('decodes a sparse message (absent value fields are Go zero values)', () => {
    const r = decodeK8sProtobuf(envelope('v1', 'Namespace', fromHex('0a03 0a0178')));
    expect(r).toEqual({ ok: true, object: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'x', creationTimestamp: null }, spec: {}, status: {} } });
  });

  it('recognises the prefix', () => {
    expect(isK8sProtobuf(expected)).toBe(true);
    expect(isK8sProtobuf(new TextEncoder().encode('{"kind":"Pod"}'))).toBe(false);
  });
});

describe('bodies captured from kubectl v1.32.4', () => {
  // Where kubectl has no --dry-run, the JSON follows the Go types by hand.
  const noDryRun: Record<string, Record<string, unknown>> = {
    'kubectl auth can-i create pods': {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
      status: { allowed: false },
    },
    'kubectl auth whoami': {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      status: { userInfo: {} },
    },
    'kubectl auth can-i --list': {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { namespace: 'default' },
      // []ResourceRule without omitempty: Go writes nil slices as null
      status: { resourceRules: null, nonResourceRules: null, incomplete: false },
    },
    'kubectl create token bot --duration=1h --audience=api': {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { audiences: ['api'], expirationSeconds: 3600, boundObjectRef: null },
      status: { token: '', expirationTimestamp: null },
    },
  };

  for (const c of KUBECTL_CAPTURES) {
    it(`decodes \`${c.command}\` to the JSON kubectl prints, key order included`, () => {
      const expected = c.dryRun ?? noDryRun[c.command];
      expect(expected).toBeDefined();
      const r = decodeK8sProtobuf(base64DecodeLenient(c.body)!);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.object).toEqual(expected);
      expect(JSON.stringify(r.object)).toBe(JSON.stringify(expected));
    });

    it(`re-encodes \`${c.command}\` to kubectl's exact bytes`, () => {
      const bytes = base64DecodeLenient(c.body)!;
      const r = decodeK8sProtobuf(bytes);
      if (!r.ok) throw new Error(r.error);
      expect(hex(encodeK8sProtobuf(r.object))).toBe(hex(bytes));
    });
  }

  it('covers the typed-client commands the brief lists', () => {
    const paths = KUBECTL_CAPTURES.map((c) => c.path);
    for (const p of ['/configmaps', '/secrets', '/deployments', '/selfsubjectaccessreviews', '/selfsubjectrulesreviews', '/selfsubjectreviews', '/rolebindings', '/token']) {
      expect(paths.some((x) => x.endsWith(p))).toBe(true);
    }
  });
});

describe('round trips', () => {
  it('ConfigMap: data, binaryData (base64) and a pointer bool that is false', () => {
    const cm = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'demo', namespace: 'default', creationTimestamp: null, labels: { b: '2', a: '1' } },
      immutable: false,
      data: { 'game.properties': 'lives=3\nenemies=aliens\n', empty: '' },
      binaryData: { blob: 'AAECAwT/' },
    };
    const out = roundTrip(cm);
    expect(out).toEqual(cm);
    expect(Object.keys((out.metadata as { labels: object }).labels)).toEqual(['a', 'b']); // Go sorts map keys
  });

  it('Deployment with a full pod template', () => {
    expect(roundTrip(deployment)).toEqual(deployment);
  });

  it('SelfSubjectAccessReview with resource and non-resource attributes', () => {
    const ssar = {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: {
          namespace: 'team-a',
          verb: 'list',
          group: 'apps',
          resource: 'deployments',
          subresource: 'scale',
          name: 'web',
          fieldSelector: { rawSelector: 'metadata.name=web' },
          labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }] },
        },
        nonResourceAttributes: { path: '/healthz', verb: 'get' },
      },
      status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding' },
    };
    expect(roundTrip(ssar)).toEqual(ssar);
  });

  it('RoleBinding', () => {
    const rb = {
      kind: 'RoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'read-pods', namespace: 'default', uid: '6b1d0c0e-1111-4c7b-9d6a-000000000001', resourceVersion: '42', creationTimestamp: '2025-01-01T00:00:00Z' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
        { kind: 'ServiceAccount', name: 'bot', namespace: 'ci' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
    };
    expect(roundTrip(rb)).toEqual(rb);
  });

  it('Ingress: the inlined IngressRuleValue and a service port by number', () => {
    const ing = {
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { name: 'ing', creationTimestamp: null },
      spec: { rules: [{ host: 'foo.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }] } }] },
      status: { loadBalancer: {} },
    };
    expect(roundTrip(ing)).toEqual(ing);
  });

  it('Lease: MicroTime keeps microseconds', () => {
    const lease = {
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'kube-scheduler', namespace: 'kube-system', creationTimestamp: null },
      spec: { holderIdentity: 'node-1', leaseDurationSeconds: 15, acquireTime: '2025-03-04T05:06:07.123456Z', renewTime: '1970-01-01T00:00:00.000001Z', leaseTransitions: 0 },
    };
    expect(roundTrip(lease)).toEqual(lease);
  });
});

describe('the JSON Go writes', () => {
  it('adds what encoding/json always writes: value structs, null Time, non-omitempty nil slices', () => {
    expect(roundTrip({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } })).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'd', creationTimestamp: null },
      // selector is a pointer without omitempty; containers a slice without it
      spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} },
      status: {},
    });
  });

  it('drops omitempty zero values and keeps non-omitempty ones', () => {
    const out = roundTrip({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', generateName: '', generation: 0 }, spec: { ports: [{ port: 0, name: '' }] } });
    expect(out.metadata).toEqual({ name: 's', creationTimestamp: null });
    expect(out.spec).toEqual({ ports: [{ port: 0, targetPort: 0 }] });
  });

  it('writes quantities in canonical form, as Quantity.MarshalJSON does', () => {
    const out = roundTrip({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { cpu: '0.5', memory: '1024Mi', pods: '10' } } });
    expect(out.spec).toEqual({ hard: { cpu: '500m', memory: '1Gi', pods: '10' } });
  });

  it('keeps only seconds of a metav1.Time', () => {
    const out = roundTrip({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', creationTimestamp: '2024-02-29T23:59:59.999+01:00' } });
    expect((out.metadata as Record<string, unknown>).creationTimestamp).toBe('2024-02-29T22:59:59Z');
  });

  it('carries negative and 64-bit integers', () => {
    const pc = roundTrip({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low', generation: 2 ** 40 + 1 }, value: -100 });
    expect(pc.value).toBe(-100);
    expect((pc.metadata as Record<string, unknown>).generation).toBe(2 ** 40 + 1);
  });

  it('writes Secret bytes as base64 and keeps stringData', () => {
    const out = roundTrip({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'dg==' }, stringData: { p: 'plain' }, type: 'Opaque' });
    expect(out).toMatchObject({ data: { k: 'dg==' }, stringData: { p: 'plain' }, type: 'Opaque' });
  });

  it('gives an ExtraValue map its string arrays', () => {
    const sar = {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { nonResourceAttributes: { path: '/api', verb: 'get' }, user: 'jane', groups: ['dev'], extra: { scopes: ['a', 'b'], empty: null } },
      status: { allowed: false },
    };
    expect(roundTrip(sar)).toEqual(sar);
  });

  it('decodes RawExtension JSON, and a nested protobuf object in it', () => {
    const rev = { kind: 'ControllerRevision', apiVersion: 'apps/v1', metadata: { name: 'r', creationTimestamp: null }, data: { spec: { template: { x: [1, 'two'] } } }, revision: 7 };
    expect(roundTrip(rev)).toEqual(rev);
    const nested = encodeK8sProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner' } });
    // ControllerRevision{metadata{}, data{raw: <k8s protobuf>}, revision 1}
    const raw = new Uint8Array([0x0a, 0x00, 0x12, nested.length + 2, 0x0a, nested.length, ...nested, 0x18, 0x01]);
    const r = decodeK8sProtobuf(envelope('apps/v1', 'ControllerRevision', raw));
    expect(r.ok && r.object.data).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'inner', creationTimestamp: null } });
  });

  it('formats metav1.Duration as Go does', () => {
    const ns = 3_723_500_000_000; // 1h2m3.5s
    const bytes = encodeMessage('k8s.io.apimachinery.pkg.apis.meta.v1.Duration', '1h2m3.5s');
    expect(hex(bytes)).toBe(hex(fromHex('08' + leb(ns))));
    expect(decodeMessage('k8s.io.apimachinery.pkg.apis.meta.v1.Duration', bytes)).toEqual({ ok: true, value: '1h2m3.5s' });
  });
});

function leb(n: number): string {
  let out = '';
  while (n > 127) {
    out += ((n % 128) | 128).toString(16).padStart(2, '0');
    n = Math.floor(n / 128);
  }
  return out + n.toString(16).padStart(2, '0');
}

describe('decoding like gogo’s Unmarshal', () => {
  const cm = (body: string): Uint8Array => envelope('v1', 'ConfigMap', fromHex(body));

  it('skips unknown fields', () => {
    const r = decodeK8sProtobuf(cm('0a03 0a0178  f806 2a  aa06 03 616263  1206 0a0161 120131'));
    expect(r).toEqual({ ok: true, object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', creationTimestamp: null }, data: { a: '1' } } });
  });

  it('merges a message field sent twice and keeps the last scalar', () => {
    const r = decodeK8sProtobuf(cm('0a03 0a0178  0a05 1a03 6e7331  0a03 0a0179'));
    expect(r.ok && r.object.metadata).toEqual({ name: 'y', namespace: 'ns1', creationTimestamp: null });
  });

  it('reads repeated numbers packed or not', () => {
    // PodSecurityContext.supplementalGroups (4), unpacked then packed
    const psc = fromHex('2001 2002 2203 030405');
    expect(decodeMessage('k8s.io.api.core.v1.PodSecurityContext', psc)).toEqual({ ok: true, value: { supplementalGroups: [1, 2, 3, 4, 5] } });
  });

  it('reports upstream’s errors', () => {
    expect(decodeError(new Uint8Array(0))).toBe('empty data');
    expect(decodeError(new TextEncoder().encode('{"kind":"Pod"}'))).toBe('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    expect(decodeError(fromHex('6b387300'))).toBe('empty body');
    expect(decodeError(fromHex('6b387300 0a05 0a02'))).toBe('unexpected EOF');
    expect(decodeError(cm('0a03 0a01'))).toBe('unexpected EOF');
    expect(decodeError(cm('0801'))).toBe('proto: wrong wireType = 0 for field ObjectMeta');
    expect(decodeError(cm('0a02 0801'))).toBe('proto: wrong wireType = 0 for field Name');
    expect(decodeError(cm('0001'))).toBe('proto: ConfigMap: illegal tag 0 (wire type 0)');
    expect(decodeError(cm('0c'))).toBe('proto: ConfigMap: wiretype end group for non-group');
    expect(decodeError(cm('0a0b ffffffffffffffffffff01'))).toBe('proto: integer overflow');
    expect(decodeError(cm('0f'))).toBe('proto: wrong wireType = 7 for field ObjectMeta');
    expect(decodeError(cm('9f06'))).toBe('proto: illegal wireType 7'); // unknown field 99: skipGenerated
  });

  it('reports a bad quantity with ParseQuantity’s text', () => {
    // ResourceQuota{spec{hard{"cpu": Quantity{"lots"}}}}
    const entry = `0a03 637075 1206 0a04 ${ascii('lots')}`;
    const r = decodeK8sProtobuf(envelope('v1', 'ResourceQuota', fromHex(`120f 0a0d ${entry}`)));
    expect(r).toEqual({ ok: false, error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" });
  });

  it('defaults a missing kind or version from the endpoint, else names what is missing', () => {
    const bare = fromHex(`6b387300 0a00 1205 0a03 0a0178`);
    expect(decodeError(bare)).toBe(`Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:""}'`);
    const r = decodeK8sProtobuf(bare, { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(r).toEqual({ ok: true, object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', creationTimestamp: null } } });
    expect(decodeError(envelope('', 'ConfigMap', new Uint8Array(0)))).toBe(`Object 'apiVersion' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:"ConfigMap"}'`);
  });

  it('refuses a kind it has no message for', () => {
    expect(decodeError(envelope('v1', 'Gadget', new Uint8Array(0)))).toMatch(/^no kind "Gadget" is registered for version "v1"/);
  });
});

describe('kind lookup', () => {
  it('maps group versions to proto packages, with meta/v1 kinds in every group', () => {
    expect(protobufMessageFor('v1', 'Pod')).toBe('k8s.io.api.core.v1.Pod');
    expect(protobufMessageFor('rbac.authorization.k8s.io/v1', 'ClusterRole')).toBe('k8s.io.api.rbac.v1.ClusterRole');
    expect(protobufMessageFor('autoscaling/v1', 'Scale')).toBe('k8s.io.api.autoscaling.v1.Scale');
    expect(protobufMessageFor('autoscaling/v2', 'HorizontalPodAutoscaler')).toBe('k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler');
    expect(protobufMessageFor('apps/v1', 'DeleteOptions')).toBe('k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    expect(protobufMessageFor('v1', 'Container')).toBeUndefined(); // not a kind
    expect(protobufMessageFor('example.com/v1', 'Widget')).toBeUndefined();
  });

  it('decodes the Eviction kubectl drain posts', () => {
    const eviction = { kind: 'Eviction', apiVersion: 'policy/v1', metadata: { name: 'web-1', namespace: 'default', creationTimestamp: null }, deleteOptions: { gracePeriodSeconds: 30 } };
    expect(roundTrip(eviction)).toEqual(eviction);
  });

  it('decodes a DeleteOptions body sent to an apps endpoint', () => {
    const body = encodeK8sProtobuf({ apiVersion: 'apps/v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground', gracePeriodSeconds: 0, preconditions: { uid: 'u1' } });
    expect(decodeK8sProtobuf(body)).toEqual({ ok: true, object: { kind: 'DeleteOptions', apiVersion: 'apps/v1', gracePeriodSeconds: 0, preconditions: { uid: 'u1' }, propagationPolicy: 'Foreground' } });
  });
});

