import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { canonicaliseQuantities } from '../validation/quantity';
import { prepareForCreate } from '../validation/strategy';
import { allocateServiceFields, applyDefaults, imageTag } from './index';

const gvk = (group: string, kind: string, version = 'v1') => ({ group, version, kind });
const obj = (o: unknown) => o as KObject;

describe('applyDefaults', () => {
  it('a bare Deployment reads as `kubectl get -o yaml` shows it on v1.32 (apps/v1 SetDefaults_Deployment, core SetDefaults_PodSpec/Container)', () => {
    // The body `kubectl create deployment nginx --image=nginx` sends.
    const d = obj({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
      spec: {
        selector: { matchLabels: { app: 'nginx' } },
        template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
      },
    });
    applyDefaults(gvk('apps', 'Deployment'), d);
    prepareForCreate(gvk('apps', 'Deployment'), d);
    expect(d).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' }, generation: 1 },
      spec: {
        progressDeadlineSeconds: 600,
        replicas: 1,
        revisionHistoryLimit: 10,
        selector: { matchLabels: { app: 'nginx' } },
        strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'nginx' } },
          spec: {
            containers: [
              {
                image: 'nginx',
                imagePullPolicy: 'Always',
                name: 'nginx',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
              },
            ],
            dnsPolicy: 'ClusterFirst',
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
      },
      status: {},
    });
  });

  it('a Pod gets enableServiceLinks, requests from limits, probe and volume defaults; the strategy sets phase and QoS', () => {
    const p = obj({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '0.5', memory: '128Mi' } },
            livenessProbe: { httpGet: { port: 80 } },
            env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          },
        ],
        volumes: [{ name: 'cfg', configMap: { name: 'x' } }, { name: 'scratch' }, { name: 's', secret: { secretName: 's' } }],
      },
    });
    applyDefaults(gvk('', 'Pod'), p);
    canonicaliseQuantities(gvk('', 'Pod'), p);
    prepareForCreate(gvk('', 'Pod'), p);
    const spec = p.spec as Record<string, unknown> & { containers: Record<string, unknown>[]; volumes: unknown[] };
    const c = spec.containers[0]!;
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(c.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } });
    expect(c.livenessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.env).toEqual([{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }]);
    expect(spec.volumes).toEqual([
      { name: 'cfg', configMap: { name: 'x', defaultMode: 420 } },
      { name: 'scratch', emptyDir: {} },
      { name: 's', secret: { secretName: 's', defaultMode: 420 } },
    ]);
    expect(spec.enableServiceLinks).toBe(true);
    expect(spec.priority).toBeUndefined(); // set by the Priority admission plugin, not defaulting
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
  });

  it('image pull policy follows the tag', () => {
    expect(imageTag('nginx')).toBe('latest');
    expect(imageTag('nginx:latest')).toBe('latest');
    expect(imageTag('registry:5000/team/app')).toBe('latest');
    expect(imageTag('registry:5000/team/app:v2')).toBe('v2');
    expect(imageTag('nginx@sha256:abcd')).toBe('');
  });

  it('StatefulSet, DaemonSet, Job and CronJob defaults', () => {
    const sts = obj({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'x:1' }] } }, volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: {} }] } });
    applyDefaults(gvk('apps', 'StatefulSet'), sts);
    const ss = sts.spec as Record<string, unknown>;
    expect(ss.podManagementPolicy).toBe('OrderedReady');
    expect(ss.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    expect(ss.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Retain', whenScaled: 'Retain' });
    expect(ss.replicas).toBe(1);
    expect(ss.revisionHistoryLimit).toBe(10);
    expect(ss.volumeClaimTemplates).toEqual([{ metadata: { name: 'd', creationTimestamp: null }, spec: { volumeMode: 'Filesystem', resources: {} }, status: { phase: 'Pending' } }]);

    const ds = obj({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { template: { spec: { containers: [] } } } });
    applyDefaults(gvk('apps', 'DaemonSet'), ds);
    expect((ds.spec as Record<string, unknown>).updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });

    const job = obj({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { metadata: { labels: { a: 'b' } }, spec: { restartPolicy: 'Never', containers: [] } } } });
    applyDefaults(gvk('batch', 'Job'), job);
    const js = job.spec as Record<string, unknown>;
    expect([js.completions, js.parallelism, js.backoffLimit, js.completionMode, js.suspend, js.podReplacementPolicy]).toEqual([1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed']);
    expect(job.metadata.labels).toEqual({ a: 'b' });

    const cj = obj({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [] } } } } } });
    applyDefaults(gvk('batch', 'CronJob'), cj);
    const cs = cj.spec as Record<string, unknown>;
    expect([cs.concurrencyPolicy, cs.suspend, cs.successfulJobsHistoryLimit, cs.failedJobsHistoryLimit]).toEqual(['Allow', false, 3, 1]);
    expect((cs.jobTemplate as Record<string, unknown>).metadata).toEqual({ creationTimestamp: null });
  });

  it('Service defaults and the registry allocation hook', () => {
    const svc = obj({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] } });
    applyDefaults(gvk('', 'Service'), svc);
    const sp = svc.spec as Record<string, unknown>;
    expect(sp).toMatchObject({ sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] });
    let next = 10;
    const r = allocateServiceFields(svc, { families: ['IPv4'], allocateIP: () => `10.96.0.${next++}`, allocateNodePort: (w) => w ?? 30080 });
    expect(r.ok).toBe(true);
    expect(sp).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'], clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ nodePort: 30080 }] });
  });

  it('other groups: HPA, NetworkPolicy, RBAC, PriorityClass, StorageClass, webhooks, Secret, Namespace', () => {
    const hpa = obj({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { maxReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'x' }, behavior: {} } });
    applyDefaults(gvk('autoscaling', 'HorizontalPodAutoscaler', 'v2'), hpa);
    expect(hpa.spec).toMatchObject({
      minReplicas: 1,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      behavior: {
        scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
        scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      },
    });
    const np = obj({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'n' }, spec: { egress: [{ ports: [{ port: 53 }] }] } });
    applyDefaults(gvk('networking.k8s.io', 'NetworkPolicy'), np);
    expect(np.spec).toEqual({ podSelector: {}, egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }], policyTypes: ['Ingress', 'Egress'] });
    const rb = obj({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'r' }, roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'User', name: 'u' }] });
    applyDefaults(gvk('rbac.authorization.k8s.io', 'RoleBinding'), rb);
    expect(rb.roleRef).toEqual({ kind: 'Role', name: 'x', apiGroup: 'rbac.authorization.k8s.io' });
    expect(rb.subjects).toEqual([{ kind: 'User', name: 'u', apiGroup: 'rbac.authorization.k8s.io' }]);
    const pc = obj({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'p' }, value: 5 });
    applyDefaults(gvk('scheduling.k8s.io', 'PriorityClass'), pc);
    expect(pc.preemptionPolicy).toBe('PreemptLowerPriority');
    const sc = obj({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 's' }, provisioner: 'x.io/y' });
    applyDefaults(gvk('storage.k8s.io', 'StorageClass'), sc);
    expect([sc.reclaimPolicy, sc.volumeBindingMode]).toEqual(['Delete', 'Immediate']);
    const vwc = obj({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'w' }, webhooks: [{ name: 'a.b.c', rules: [{}], clientConfig: { service: { name: 's', namespace: 'n' } } }] });
    applyDefaults(gvk('admissionregistration.k8s.io', 'MutatingWebhookConfiguration'), vwc);
    expect(vwc.webhooks).toEqual([
      {
        name: 'a.b.c',
        rules: [{ scope: '*' }],
        clientConfig: { service: { name: 's', namespace: 'n', port: 443 } },
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
        reinvocationPolicy: 'Never',
      },
    ]);
    const sec = obj({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { password: 'pä' } });
    applyDefaults(gvk('', 'Secret'), sec);
    expect(sec).toMatchObject({ type: 'Opaque', data: { password: 'cMOk' } });
    expect(sec.stringData).toBeUndefined();
    const ns = obj({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    applyDefaults(gvk('', 'Namespace'), ns);
    prepareForCreate(gvk('', 'Namespace'), ns);
    expect(ns).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  });
});
