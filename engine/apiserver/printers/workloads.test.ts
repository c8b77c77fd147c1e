import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import {
  controllerRevisionPrinter,
  cronJobPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  hpaPrinter,
  jobPrinter,
  podDisruptionBudgetPrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './workloads';

const NOW = Date.UTC(2026, 0, 3, 0, 0, 0);
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z', ...extra });
const k = (apiVersion: string, kind: string, name: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}): KObject => ({
  apiVersion,
  kind,
  metadata: meta(name, extra),
  ...body,
});
const template = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'nginx', image: 'nginx:1.27' },
      { name: 'sidecar', image: 'envoy:1.31' },
    ],
  },
};
const columns = (p: { columns: readonly { name: string; type: string; priority: number }[] }) => p.columns.map((c) => `${c.name}:${c.type}:${c.priority}`);

describe('Deployment', () => {
  it('READY, UP-TO-DATE, AVAILABLE, AGE and the wide columns', () => {
    const d = k('apps/v1', 'Deployment', 'web', {
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
      status: { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    });
    expect(deploymentPrinter.print(d, NOW).cells).toEqual(['web', '2/3', 3, 2, '2d', 'nginx,sidecar', 'nginx:1.27,envoy:1.31', 'app=web']);
    expect(columns(deploymentPrinter)).toEqual([
      'Name:string:0',
      'Ready:string:0',
      'Up-to-date:string:0',
      'Available:string:0',
      'Age:string:0',
      'Containers:string:1',
      'Images:string:1',
      'Selector:string:1',
    ]);
  });

  it('a fresh Deployment has zero everything; a bad selector prints <invalid>', () => {
    const d = k('apps/v1', 'Deployment', 'new', { spec: { replicas: 1, selector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] }, template } });
    expect(deploymentPrinter.print(d, NOW).cells.slice(1, 4)).toEqual(['0/1', 0, 0]);
    expect(deploymentPrinter.print(d, NOW).cells[7]).toBe('<invalid>');
  });
});

describe('ReplicaSet, ReplicationController, StatefulSet, DaemonSet', () => {
  it('ReplicaSet', () => {
    const rs = k('apps/v1', 'ReplicaSet', 'web-5d9c', {
      spec: { replicas: 3, selector: { matchLabels: { app: 'web', 'pod-template-hash': '5d9c' } }, template },
      status: { replicas: 3, readyReplicas: 1 },
    });
    expect(replicaSetPrinter.print(rs, NOW).cells).toEqual([
      'web-5d9c',
      3,
      3,
      1,
      '2d',
      'nginx,sidecar',
      'nginx:1.27,envoy:1.31',
      'app=web,pod-template-hash=5d9c',
    ]);
    expect(columns(replicaSetPrinter)).toEqual([
      'Name:string:0',
      'Desired:integer:0',
      'Current:integer:0',
      'Ready:integer:0',
      'Age:string:0',
      'Containers:string:1',
      'Images:string:1',
      'Selector:string:1',
    ]);
  });

  it('ReplicationController takes a map selector and may lack a template', () => {
    const rc = k('v1', 'ReplicationController', 'old', { spec: { replicas: 2, selector: { app: 'old' } }, status: { replicas: 2, readyReplicas: 2 } });
    expect(replicationControllerPrinter.print(rc, NOW).cells).toEqual(['old', 2, 2, 2, '2d', '', '', 'app=old']);
  });

  it('StatefulSet', () => {
    const s = k('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 3, template }, status: { readyReplicas: 1 } });
    expect(statefulSetPrinter.print(s, NOW).cells).toEqual(['db', '1/3', '2d', 'nginx,sidecar', 'nginx:1.27,envoy:1.31']);
    expect(columns(statefulSetPrinter)).toEqual(['Name:string:0', 'Ready:string:0', 'Age:string:0', 'Containers:string:1', 'Images:string:1']);
  });

  it('DaemonSet', () => {
    const ds = k('apps/v1', 'DaemonSet', 'kube-proxy', {
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
        template: {
          spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.32.0' }] },
        },
      },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    });
    expect(daemonSetPrinter.print(ds, NOW).cells).toEqual([
      'kube-proxy',
      3,
      3,
      2,
      3,
      2,
      'kubernetes.io/os=linux',
      '2d',
      'kube-proxy',
      'registry.k8s.io/kube-proxy:v1.32.0',
      'k8s-app=kube-proxy',
    ]);
    expect(columns(daemonSetPrinter).slice(0, 8)).toEqual([
      'Name:string:0',
      'Desired:integer:0',
      'Current:integer:0',
      'Ready:integer:0',
      'Up-to-date:integer:0',
      'Available:integer:0',
      'Node Selector:string:0',
      'Age:string:0',
    ]);
  });
});

describe('Job (STATUS column of v1.32)', () => {
  const job = (spec: Record<string, unknown>, status: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    k('batch/v1', 'Job', 'pi', { spec: { template, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } }, ...spec }, status }, extra);

  it('a running job: completions and a duration that keeps growing', () => {
    const j = job({ completions: 3, parallelism: 1 }, { active: 1, succeeded: 1, startTime: '2026-01-02T23:55:00Z' });
    expect(jobPrinter.print(j, NOW).cells.slice(0, 5)).toEqual(['pi', 'Running', '1/3', '5m', '2d']);
  });

  it('a complete job measures start to completion', () => {
    const j = job(
      { completions: 1 },
      { succeeded: 1, startTime: '2026-01-01T00:00:00Z', completionTime: '2026-01-01T00:00:42Z', conditions: [{ type: 'Complete', status: 'True' }] },
    );
    expect(jobPrinter.print(j, NOW).cells.slice(1, 4)).toEqual(['Complete', '1/1', '42s']);
  });

  it('status precedence: Complete, Failed, Terminating, Suspended, FailureTarget, Running', () => {
    const st = (conditions: { type: string; status: string }[], extra: Record<string, unknown> = {}) =>
      jobPrinter.print(job({}, { conditions }, extra), NOW).cells[1];
    expect(st([{ type: 'Failed', status: 'True' }])).toBe('Failed');
    expect(
      st([
        { type: 'FailureTarget', status: 'True' },
        { type: 'Failed', status: 'True' },
      ]),
    ).toBe('Failed');
    expect(st([{ type: 'Suspended', status: 'True' }])).toBe('Suspended');
    expect(st([{ type: 'Suspended', status: 'False' }])).toBe('Running');
    expect(st([{ type: 'Suspended', status: 'True' }], { deletionTimestamp: '2026-01-02T00:00:00Z' })).toBe('Terminating');
    expect(st([{ type: 'FailureTarget', status: 'True' }])).toBe('FailureTarget');
    expect(st([])).toBe('Running');
  });

  it('completions without spec.completions follow parallelism; no start time, no duration', () => {
    expect(jobPrinter.print(job({ parallelism: 4 }, { succeeded: 2 }), NOW).cells.slice(2, 4)).toEqual(['2/1 of 4', '']);
    expect(jobPrinter.print(job({ parallelism: 1 }, {}), NOW).cells[2]).toBe('0/1');
  });

  it('columns', () => {
    expect(columns(jobPrinter)).toEqual([
      'Name:string:0',
      'Status:string:0',
      'Completions:string:0',
      'Duration:string:0',
      'Age:string:0',
      'Containers:string:1',
      'Images:string:1',
      'Selector:string:1',
    ]);
    expect(jobPrinter.print(job({}, {}), NOW).cells[7]).toBe('batch.kubernetes.io/controller-uid=u1');
  });
});

describe('CronJob', () => {
  it('schedule, timezone, suspend, active, last schedule', () => {
    const cj = k('batch/v1', 'CronJob', 'hello', {
      spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } },
      status: { active: [{ name: 'hello-1' }], lastScheduleTime: '2026-01-02T23:58:00Z' },
    });
    expect(cronJobPrinter.print(cj, NOW).cells).toEqual([
      'hello',
      '*/5 * * * *',
      '<none>',
      'False',
      1,
      '2m',
      '2d',
      'nginx,sidecar',
      'nginx:1.27,envoy:1.31',
      '<none>',
    ]);
    const bare = k('batch/v1', 'CronJob', 'tz', { spec: { schedule: '@daily', timeZone: 'Etc/UTC', jobTemplate: { spec: { template } } }, status: {} });
    expect(cronJobPrinter.print(bare, NOW).cells.slice(1, 6)).toEqual(['@daily', 'Etc/UTC', '<unset>', 0, '<none>']);
    expect(columns(cronJobPrinter).slice(0, 7)).toEqual([
      'Name:string:0',
      'Schedule:string:0',
      'Timezone:string:0',
      'Suspend:boolean:0',
      'Active:integer:0',
      'Last Schedule:string:0',
      'Age:string:0',
    ]);
  });
});

describe('ControllerRevision, HPA, PDB', () => {
  it('ControllerRevision names its controller as kind.group/name', () => {
    const cr = k(
      'apps/v1',
      'ControllerRevision',
      'db-7f9',
      { revision: 2, data: {} },
      { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u', controller: true }] },
    );
    expect(controllerRevisionPrinter.print(cr, NOW).cells).toEqual(['db-7f9', 'statefulset.apps/db', 2, '2d']);
    expect(controllerRevisionPrinter.print(k('apps/v1', 'ControllerRevision', 'orphan', { revision: 1 }), NOW).cells[1]).toBe('<none>');
  });

  it('HPA targets', () => {
    const hpa = k('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', {
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        ],
      },
      status: {
        currentReplicas: 3,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42, averageValue: '210m' } } }],
      },
    });
    expect(hpaPrinter.print(hpa, NOW).cells).toEqual(['web', 'Deployment/web', 'cpu: 42%/80%, memory: <unknown>/500Mi + 1 more...', '2', 10, 3, '2d']);
    const fresh = k('autoscaling/v2', 'HorizontalPodAutoscaler', 'new', {
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'new' },
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }],
      },
      status: {},
    });
    expect(hpaPrinter.print(fresh, NOW).cells.slice(2, 6)).toEqual(['cpu: <unknown>/<auto>', '<unset>', 5, 0]);
    const none = k('autoscaling/v2', 'HorizontalPodAutoscaler', 'x', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 1 } });
    expect(hpaPrinter.print(none, NOW).cells[2]).toBe('<none>');
  });

  it('PDB', () => {
    const pdb = k('policy/v1', 'PodDisruptionBudget', 'web', { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } });
    expect(podDisruptionBudgetPrinter.print(pdb, NOW).cells).toEqual(['web', '50%', 'N/A', 1, '2d']);
    const pdb2 = k('policy/v1', 'PodDisruptionBudget', 'db', { spec: { maxUnavailable: 1 }, status: {} });
    expect(podDisruptionBudgetPrinter.print(pdb2, NOW).cells.slice(1, 4)).toEqual(['N/A', '1', 0]);
  });
});
