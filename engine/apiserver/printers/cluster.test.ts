import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import {
  clusterRoleBindingPrinter,
  configMapPrinter,
  eventPrinter,
  leasePrinter,
  namespacePrinter,
  nodePrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  priorityClassPrinter,
  resourceQuotaPrinter,
  roleBindingPrinter,
  secretPrinter,
  serviceAccountPrinter,
  storageClassPrinter,
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
  webhookConfigurationPrinter,
} from './cluster';

const NOW = Date.UTC(2026, 0, 1, 3, 0, 0);
const k = (apiVersion: string, kind: string, name: string, body: Record<string, unknown>, meta: Record<string, unknown> = {}): KObject => ({
  apiVersion,
  kind,
  metadata: { name, creationTimestamp: '2026-01-01T00:00:00Z', ...meta },
  ...body,
});

describe('Node', () => {
  const node = (labels: Record<string, string>, spec: Record<string, unknown>, status: Record<string, unknown>) =>
    k('v1', 'Node', 'node-1', { spec, status }, { labels });

  it('STATUS, ROLES, AGE, VERSION and the wide columns', () => {
    const n = node(
      { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master', 'node-role.kubernetes.io/': 'x' },
      {},
      {
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
        addresses: [
          { type: 'Hostname', address: 'node-1' },
          { type: 'InternalIP', address: '172.18.0.2' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.32.0',
          osImage: 'Debian GNU/Linux 12 (bookworm)',
          kernelVersion: '6.8.0',
          containerRuntimeVersion: 'containerd://1.7.24',
        },
      },
    );
    expect(nodePrinter.print(n, NOW).cells).toEqual([
      'node-1',
      'Ready',
      'control-plane,master',
      '3h',
      'v1.32.0',
      '172.18.0.2',
      '<none>',
      'Debian GNU/Linux 12 (bookworm)',
      '6.8.0',
      'containerd://1.7.24',
    ]);
  });

  it('NotReady, Unknown, SchedulingDisabled, no roles', () => {
    expect(nodePrinter.print(node({}, { unschedulable: true }, { conditions: [{ type: 'Ready', status: 'Unknown' }] }), NOW).cells.slice(1, 3)).toEqual([
      'NotReady,SchedulingDisabled',
      '<none>',
    ]);
    expect(nodePrinter.print(node({}, {}, {}), NOW).cells.slice(1, 5)).toEqual(['Unknown', '<none>', '3h', '']);
    expect(nodePrinter.print(node({}, {}, {}), NOW).cells.slice(5)).toEqual(['<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });

  it('columns', () => {
    expect(nodePrinter.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Status:0',
      'Roles:0',
      'Age:0',
      'Version:0',
      'Internal-IP:1',
      'External-IP:1',
      'OS-Image:1',
      'Kernel-Version:1',
      'Container-Runtime:1',
    ]);
  });
});

describe('Event', () => {
  const core = (body: Record<string, unknown>) =>
    k(
      'v1',
      'Event',
      'web-0.17a',
      { involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'default', fieldPath: 'spec.containers{app}' }, type: 'Warning', reason: 'BackOff', ...body },
      { namespace: 'default' },
    );

  it('LAST SEEN, TYPE, REASON, OBJECT, MESSAGE and the wide columns', () => {
    const e = core({
      message: 'Back-off restarting failed container app  ',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2026-01-01T02:00:00Z',
      lastTimestamp: '2026-01-01T02:58:00Z',
      count: 12,
    });
    expect(eventPrinter.print(e, NOW).cells).toEqual([
      '2m',
      'Warning',
      'BackOff',
      'pod/web-0',
      'spec.containers{app}',
      'kubelet, node-1',
      'Back-off restarting failed container app',
      '60m',
      12,
      'web-0.17a',
    ]);
    expect(eventPrinter.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Last Seen:0',
      'Type:0',
      'Reason:0',
      'Object:0',
      'Subobject:1',
      'Source:1',
      'Message:0',
      'First Seen:1',
      'Count:1',
      'Name:1',
    ]);
  });

  it('new-style events: eventTime, series, reporting controller, count 1', () => {
    const single = core({ eventTime: '2026-01-01T02:59:30.000000Z', reportingComponent: 'default-scheduler', reportingInstance: 'sched-1', message: 'm' });
    expect(eventPrinter.print(single, NOW).cells.slice(0, 1)).toEqual(['30s']);
    expect(eventPrinter.print(single, NOW).cells.slice(5, 9)).toEqual(['default-scheduler, sched-1', 'm', '30s', 1]);
    const series = core({ eventTime: '2026-01-01T00:00:00.000000Z', series: { count: 7, lastObservedTime: '2026-01-01T02:59:00.000000Z' } });
    expect(eventPrinter.print(series, NOW).cells[0]).toBe('60s');
    expect(eventPrinter.print(series, NOW).cells[7]).toBe('3h');
    expect(eventPrinter.print(series, NOW).cells[8]).toBe(7);
    expect(eventPrinter.print(core({ involvedObject: { kind: 'Node' } }), NOW).cells[3]).toBe('node');
    expect(eventPrinter.print(core({}), NOW).cells[0]).toBe('<unknown>');
  });

  it('an events.k8s.io/v1 Event prints like its core twin', () => {
    const modern = k(
      'events.k8s.io/v1',
      'Event',
      'web-0.17a',
      {
        regarding: { kind: 'Pod', name: 'web-0', namespace: 'default', fieldPath: 'spec.containers{app}' },
        type: 'Warning',
        reason: 'BackOff',
        note: 'Back-off restarting failed container app',
        deprecatedSource: { component: 'kubelet', host: 'node-1' },
        deprecatedFirstTimestamp: '2026-01-01T02:00:00Z',
        deprecatedLastTimestamp: '2026-01-01T02:58:00Z',
        deprecatedCount: 12,
      },
      { namespace: 'default' },
    );
    const twin = core({
      message: 'Back-off restarting failed container app',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2026-01-01T02:00:00Z',
      lastTimestamp: '2026-01-01T02:58:00Z',
      count: 12,
    });
    expect(eventPrinter.print(modern, NOW)).toEqual(eventPrinter.print(twin, NOW));
    // The shape decides, whatever apiVersion the caller stamped on it.
    expect(eventPrinter.print({ ...twin, apiVersion: 'events.k8s.io/v1' }, NOW)).toEqual(eventPrinter.print(twin, NOW));
  });
});

describe('namespaces, config, accounts, leases', () => {
  it('Namespace', () => {
    expect(namespacePrinter.print(k('v1', 'Namespace', 'default', { status: { phase: 'Active' } }), NOW).cells).toEqual(['default', 'Active', '3h']);
  });
  it('ConfigMap counts data and binaryData', () => {
    expect(configMapPrinter.print(k('v1', 'ConfigMap', 'cfg', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), NOW).cells).toEqual(['cfg', 3, '3h']);
    expect(configMapPrinter.print(k('v1', 'ConfigMap', 'empty', {}), NOW).cells[1]).toBe(0);
  });
  it('Secret: TYPE and DATA', () => {
    expect(secretPrinter.print(k('v1', 'Secret', 'tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'x', 'tls.key': 'y' } }), NOW).cells).toEqual([
      'tls',
      'kubernetes.io/tls',
      2,
      '3h',
    ]);
    expect(secretPrinter.columns.map((c) => `${c.name}:${c.type}`)).toEqual(['Name:string', 'Type:string', 'Data:string', 'Age:string']);
  });
  it('ServiceAccount: SECRETS', () => {
    expect(serviceAccountPrinter.print(k('v1', 'ServiceAccount', 'default', {}), NOW).cells).toEqual(['default', 0, '3h']);
    expect(serviceAccountPrinter.print(k('v1', 'ServiceAccount', 'ci', { secrets: [{ name: 'ci-token' }] }), NOW).cells[1]).toBe(1);
  });
  it('Lease: HOLDER', () => {
    expect(leasePrinter.print(k('coordination.k8s.io/v1', 'Lease', 'kube-scheduler', { spec: { holderIdentity: 'cp-1_abc' } }), NOW).cells).toEqual([
      'kube-scheduler',
      'cp-1_abc',
      '3h',
    ]);
    expect(leasePrinter.print(k('coordination.k8s.io/v1', 'Lease', 'free', { spec: {} }), NOW).cells[1]).toBe('');
  });
});

describe('storage', () => {
  it('PersistentVolume', () => {
    const pv = k('v1', 'PersistentVolume', 'pv-1', {
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadOnlyMany', 'ReadWriteOnce', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'default', name: 'data-db-0' },
        storageClassName: 'standard',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    });
    expect(persistentVolumePrinter.print(pv, NOW).cells).toEqual([
      'pv-1',
      '10Gi',
      'RWO,ROX',
      'Retain',
      'Bound',
      'default/data-db-0',
      'standard',
      '<unset>',
      '',
      '3h',
      'Filesystem',
    ]);
    const deleting = k(
      'v1',
      'PersistentVolume',
      'pv-2',
      { spec: {}, status: { phase: 'Released' } },
      { deletionTimestamp: '2026-01-01T02:00:00Z', annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' } },
    );
    expect(persistentVolumePrinter.print(deleting, NOW).cells).toEqual(['pv-2', '0', '', '', 'Terminating', '', 'old', '<unset>', '', '3h', '<unset>']);
  });

  it('PersistentVolumeClaim shows capacity and modes only once bound', () => {
    const pending = k('v1', 'PersistentVolumeClaim', 'data', {
      spec: { storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Pending' },
    });
    expect(persistentVolumeClaimPrinter.print(pending, NOW).cells).toEqual(['data', 'Pending', '', '', '', 'standard', '<unset>', '3h', '<unset>']);
    const bound = k('v1', 'PersistentVolumeClaim', 'data', {
      spec: { volumeName: 'pv-1', volumeMode: 'Filesystem', resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOncePod'] },
    });
    expect(persistentVolumeClaimPrinter.print(bound, NOW).cells).toEqual(['data', 'Bound', 'pv-1', '10Gi', 'RWOP', '', '<unset>', '3h', 'Filesystem']);
  });

  it('StorageClass marks the default and fills defaults', () => {
    const sc = k(
      'storage.k8s.io/v1',
      'StorageClass',
      'standard',
      { provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' },
      { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    );
    expect(storageClassPrinter.print(sc, NOW).cells).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '3h']);
    const fast = k('storage.k8s.io/v1', 'StorageClass', 'fast', { provisioner: 'csi.example.com', reclaimPolicy: 'Retain', allowVolumeExpansion: true });
    expect(storageClassPrinter.print(fast, NOW).cells).toEqual(['fast', 'csi.example.com', 'Retain', 'Immediate', true, '3h']);
  });

  it('ResourceQuota splits requests and limits, sorted by resource', () => {
    const rq = k('v1', 'ResourceQuota', 'compute', {
      status: {
        hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi', 'limits.cpu': '8', 'requests.memory': '4Gi' },
        used: { pods: '3', 'requests.cpu': '500m', 'limits.cpu': '1' },
      },
    });
    expect(resourceQuotaPrinter.print(rq, NOW).cells).toEqual([
      'compute',
      'pods: 3/10, requests.cpu: 500m/4, requests.memory: 0/4Gi',
      'limits.cpu: 1/8, limits.memory: 0/8Gi',
      '3h',
    ]);
  });
});

describe('RBAC, scheduling, admission', () => {
  it('RoleBinding and ClusterRoleBinding', () => {
    const rb = k('rbac.authorization.k8s.io/v1', 'RoleBinding', 'devs', {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'ci', namespace: 'tools' },
        { kind: 'User', name: 'bob' },
      ],
    });
    expect(roleBindingPrinter.print(rb, NOW).cells).toEqual(['devs', 'ClusterRole/edit', '3h', 'alice, bob', 'devs', 'tools/ci']);
    expect(clusterRoleBindingPrinter.columns.map((c) => c.description).slice(3)).toEqual([
      'Users in the clusterRoleBinding',
      'Groups in the clusterRoleBinding',
      'ServiceAccounts in the clusterRoleBinding',
    ]);
  });

  it('PriorityClass', () => {
    const pc = k('scheduling.k8s.io/v1', 'PriorityClass', 'system-node-critical', {
      value: 2000001000,
      globalDefault: false,
      preemptionPolicy: 'PreemptLowerPriority',
    });
    expect(priorityClassPrinter.print(pc, NOW).cells).toEqual(['system-node-critical', 2000001000, false, '3h', 'PreemptLowerPriority']);
    expect(priorityClassPrinter.columns.map((c) => `${c.name}:${c.type}:${c.priority}`)).toEqual([
      'Name:string:0',
      'Value:integer:0',
      'Global-Default:boolean:0',
      'Age:string:0',
      'PreemptionPolicy:string:0',
    ]);
  });

  it('webhook configurations count their webhooks', () => {
    expect(
      webhookConfigurationPrinter.print(k('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'w', { webhooks: [{}, {}] }), NOW).cells,
    ).toEqual(['w', 2, '3h']);
  });

  it('ValidatingAdmissionPolicy and its binding', () => {
    const vap = k('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'max-replicas', {
      spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }, { expression: 'false' }] },
    });
    expect(validatingAdmissionPolicyPrinter.print(vap, NOW).cells).toEqual(['max-replicas', 2, 'v1/ConfigMap', '3h']);
    expect(
      validatingAdmissionPolicyPrinter.print(k('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', 'p', { spec: {} }), NOW).cells.slice(1, 3),
    ).toEqual([0, '<unset>']);
    const binding = (paramRef?: Record<string, unknown>) =>
      validatingAdmissionPolicyBindingPrinter.print(
        k('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', 'b', {
          spec: { policyName: 'max-replicas', ...(paramRef ? { paramRef } : {}) },
        }),
        NOW,
      ).cells;
    expect(binding()).toEqual(['b', 'max-replicas', '<unset>', '3h']);
    expect(binding({ name: 'limits', namespace: 'prod' })[2]).toBe('prod/limits');
    expect(binding({ name: 'limits' })[2]).toBe('*/limits');
    expect(binding({ selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['x', 'y'] }] } })[2]).toBe(
      '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:env,Operator:In,Values:[x y],},},}',
    );
  });
});
