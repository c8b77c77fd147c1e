// kubectl rollout and describe for StatefulSets, DaemonSets and CronJobs
// against the simulated control plane (with its controllers and a kubelet).
// The expected texts are what kubectl v1.32.5 printed for the same objects
// against `npm run serve` (compared byte for byte while writing these).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { SIM_EPOCH_MS } from '../../apiserver/http/time';
import type { Engine } from '../../facade/engine';
import type { ApiRequest } from '../../apiserver/types';
import { runKubectl } from '../index';

function kubectl(e: Engine) {
  const transport = {
    async request(req: ApiRequest) {
      const r = call(e, req.method, req.path, req.body, { query: req.query as Record<string, string>, headers: req.headers });
      return { status: r.status, headers: r.headers, body: r.text };
    },
    watch() {
      throw new Error('no watches in these tests');
    },
  };
  return async (...args: string[]) => runKubectl(args, { transport: transport as never, files: {}, now: () => SIM_EPOCH_MS + e.sim.now, namespace: 'default' });
}

const TEMPLATE = (app: string, image: string, nodeSelector = '<none>') =>
  `Pod Template:\n  Labels:\tapp=${app}\n  Containers:\n   ${app === 'agent' ? 'agent' : 'nginx'}:\n    Image:\t${image}\n    Port:\t<none>\n    Host Port:\t<none>\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t${nodeSelector}\n  Tolerations:\t<none>\n`;

describe('kubectl rollout for StatefulSets and DaemonSets', () => {
  it('history, history --revision, undo (with renumbered revisions), status, and what is not supported', { timeout: 60_000 }, async () => {
    const e = controlPlane(61, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    const k = kubectl(e);
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' }, spec: { replicas: 1, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } };
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'agent', image: 'nginx:1.27' }] } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/statefulsets', sts).status).toBe(201);
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/daemonsets', ds).status).toBe(201);
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/web').body.status?.readyReplicas === 1, 'web ready', 60_000, 500);

    expect((await k('rollout', 'undo', 'statefulset/web')).stderr).toBe('error: no last revision to roll back to\n');
    expect((await k('set', 'image', 'sts/web', 'nginx=nginx:1.28')).stdout).toBe('statefulset.apps/web image updated\n');
    expect((await k('annotate', 'ds/agent', 'kubernetes.io/change-cause=agent v2')).exitCode).toBe(0);
    expect((await k('set', 'image', 'ds/agent', 'agent=nginx:1.28')).exitCode).toBe(0);
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/web').body.status?.updatedReplicas === 1, 'web updated', 60_000, 500);

    expect((await k('rollout', 'history', 'statefulset/web')).stdout).toBe('statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
    expect((await k('rollout', 'history', 'daemonset/agent')).stdout).toBe('daemonset.apps/agent \nREVISION  CHANGE-CAUSE\n1         <none>\n2         agent v2\n\n');
    expect((await k('rollout', 'history', 'sts/web', '--revision=1')).stdout).toBe(`statefulset.apps/web with revision #1\n${TEMPLATE('web', 'nginx:1.27')}\n`);
    expect((await k('rollout', 'history', 'sts/web', '--revision=7')).stderr).toBe('error: unable to find the specified revision\n');
    expect((await k('rollout', 'undo', 'ds/agent', '--dry-run=client')).stdout).toBe(`daemonset.apps/agent will roll back to ${TEMPLATE('agent', 'nginx:1.27', 'kubernetes.io/os=linux')} (dry run)\n`);
    expect((await k('rollout', 'undo', 'ds/agent', '--to-revision=2')).stdout).toBe('daemonset.apps/agent skipped rollback (current template already matches revision 2)\n');
    expect((await k('rollout', 'undo', 'ds/agent', '--to-revision=9')).stderr).toBe('error: unable to find specified revision 9 in history\n');

    expect((await k('rollout', 'undo', 'sts/web')).stdout).toBe('statefulset.apps/web rolled back\n');
    const rolledBack = () => {
      const st = call(e, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/web').body.status;
      return st.currentRevision === st.updateRevision && st.readyReplicas === 1 && call(e, 'GET', '/api/v1/namespaces/default/pods/web-0').body.spec?.containers[0].image === 'nginx:1.27';
    };
    runUntil(e, rolledBack, 'rolled back', 60_000, 500);
    // The revision of the template rolled back to is renumbered, not copied.
    expect((await k('rollout', 'history', 'statefulset/web')).stdout).toBe('statefulset.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n');
    expect((await k('rollout', 'status', 'statefulset/web', '--watch=false')).stdout).toBe('partitioned roll out complete: 1 new pods have been updated...\n');

    expect((await k('rollout', 'pause', 'ds/agent')).stderr).toBe('error: daemonsets.apps "agent" pausing is not supported\n');
    expect((await k('rollout', 'restart', 'ds/agent')).stdout).toBe('daemonset.apps/agent restarted\n');
    expect(call(e, 'GET', '/apis/apps/v1/namespaces/default/daemonsets/agent').body.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(/^2025-01-01T00:\d\d:\d\dZ$/);
    expect((await k('rollout', 'history', 'replicaset', '--all')).exitCode).toBe(1);

    // A Deployment rolls back to the previous ReplicaSet's template and annotations (keeping its own revision ones).
    expect((await k('create', 'deployment', 'api', '--image=nginx:1.27')).exitCode).toBe(0);
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/api').body.status?.availableReplicas === 1, 'api available', 60_000, 500);
    // The annotation goes to the newest ReplicaSet (set it before the image and revision 1 would carry it too).
    expect((await k('set', 'image', 'deploy/api', 'nginx=nginx:1.28')).exitCode).toBe(0);
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/api').body.status?.updatedReplicas === 1 && call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/api').body.metadata.annotations['deployment.kubernetes.io/revision'] === '2', 'api v2', 60_000, 500);
    expect((await k('annotate', 'deploy/api', 'kubernetes.io/change-cause=v2')).exitCode).toBe(0);
    e.advance(2_000);
    expect((await k('rollout', 'history', 'deploy/api')).stdout).toBe('deployment.apps/api \nREVISION  CHANGE-CAUSE\n1         <none>\n2         v2\n\n');
    expect((await k('rollout', 'undo', 'deploy/api')).stdout).toBe('deployment.apps/api rolled back\n');
    const api = call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/api').body;
    expect(api.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(api.metadata.annotations['kubernetes.io/change-cause']).toBeUndefined();
    // kubectl keeps the Deployment's own revision annotation (never revision 1's); the controller may already have moved it to 3.
    expect(['2', '3']).toContain(api.metadata.annotations['deployment.kubernetes.io/revision']);
    expect(api.metadata.annotations['deployment.kubernetes.io/revision-history']).toBeUndefined();
    // Revision 1's ReplicaSet is current again, as revision 3.
    runUntil(e, () => call(e, 'GET', '/apis/apps/v1/namespaces/default/deployments/api').body.metadata.annotations['deployment.kubernetes.io/revision'] === '3', 'revision 3', 30_000, 500);
    const rs1 = (call(e, 'GET', '/apis/apps/v1/namespaces/default/replicasets').body.items as any[]).find((r) => r.spec.template.spec.containers[0].image === 'nginx:1.27' && r.metadata.name.startsWith('api-'));
    expect(rs1.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1' });
    expect((await k('rollout', 'undo', 'deploy/api', '--to-revision=1')).stderr).toBe('error: unable to find specified revision 1 in history\n');
    expect((await k('rollout', 'undo', 'deploy/api', '--to-revision=3')).stdout).toBe('deployment.apps/api skipped rollback (current template already matches revision 3)\n');
  });

  it('describe statefulset, daemonset and cronjob', { timeout: 60_000 }, async () => {
    const e = controlPlane(62, { etcdMembers: 1 });
    const k = kubectl(e);
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        serviceName: 'web',
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] } },
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    };
    const created = call(e, 'POST', '/apis/apps/v1/namespaces/default/statefulsets', sts);
    const cj = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'hello' }, spec: { schedule: '*/1 * * * *', timeZone: 'Europe/Paris', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox', command: ['sh', '-c', 'sleep 2'] }] } } } } } };
    expect(call(e, 'POST', '/apis/batch/v1/namespaces/default/cronjobs', cj).status).toBe(201);
    runUntil(e, () => call(e, 'GET', '/api/v1/namespaces/default/pods/web-0').status === 200, 'web-0', 30_000, 200);
    const at = new Date(Date.parse(created.body.metadata.creationTimestamp)).toUTCString().replace('GMT', '+0000');
    expect((await k('describe', 'sts', 'web', '--show-events=false')).stdout).toBe(
      [
        'Name:               web',
        'Namespace:          default',
        `CreationTimestamp:  ${at}`,
        'Selector:           app=web',
        'Labels:             <none>',
        'Annotations:        <none>',
        'Replicas:           2 desired | 1 total',
        'Update Strategy:    RollingUpdate',
        '  Partition:        0',
        'Pods Status:        0 Running / 1 Waiting / 0 Succeeded / 0 Failed',
        'Pod Template:',
        '  Labels:  app=web',
        '  Containers:',
        '   nginx:',
        '    Image:         nginx:1.27',
        '    Port:          80/TCP',
        '    Host Port:     0/TCP',
        '    Environment:   <none>',
        '    Mounts:        <none>',
        '  Volumes:         <none>',
        '  Node-Selectors:  <none>',
        '  Tolerations:     <none>',
        'Volume Claims:',
        '  Name:          www',
        '  StorageClass:  ',
        '  Labels:        <none>',
        '  Annotations:   <none>',
        '  Capacity:      1Gi',
        '  Access Modes:  [ReadWriteOnce]',
        '',
      ].join('\n'),
    );
    e.advance(65_000);
    const described = (await k('describe', 'cronjob', 'hello', '--show-events=false')).stdout;
    expect(described).toBe(
      [
        'Name:                          hello',
        'Namespace:                     default',
        'Labels:                        <none>',
        'Annotations:                   <none>',
        'Schedule:                      */1 * * * *',
        'Concurrency Policy:            Allow',
        'Suspend:                       False',
        'Successful Job History Limit:  3',
        'Failed Job History Limit:      1',
        'Starting Deadline Seconds:     <unset>',
        'Selector:                      <unset>',
        'Parallelism:                   <unset>',
        'Completions:                   <unset>',
        'Pod Template:',
        '  Labels:  <none>',
        '  Containers:',
        '   hello:',
        '    Image:      busybox',
        '    Port:       <none>',
        '    Host Port:  <none>',
        '    Command:',
        '      sh',
        '      -c',
        '      sleep 2',
        '    Environment:     <none>',
        '    Mounts:          <none>',
        '  Volumes:           <none>',
        '  Node-Selectors:    <none>',
        '  Tolerations:       <none>',
        'Last Schedule Time:  Wed, 01 Jan 2025 00:01:00 +0000',
        `Active Jobs:         hello-${Math.floor(Date.UTC(2025, 0, 1, 0, 1) / 60_000)}`,
        '',
      ].join('\n'),
    );
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'agent', image: 'nginx:1.27' }] } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/daemonsets', ds).status).toBe(201);
    e.advance(2_000);
    expect((await k('describe', 'ds', 'agent', '--show-events=false')).stdout).toBe(
      [
        'Name:           agent',
        'Selector:       app=agent',
        'Node-Selector:  kubernetes.io/os=linux',
        'Labels:         <none>',
        'Annotations:    deprecated.daemonset.template.generation: 1',
        'Desired Number of Nodes Scheduled: 0',
        'Current Number of Nodes Scheduled: 0',
        'Number of Nodes Scheduled with Up-to-date Pods: 0',
        'Number of Nodes Scheduled with Available Pods: 0',
        'Number of Nodes Misscheduled: 0',
        'Pods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed',
        'Pod Template:',
        '  Labels:  app=agent',
        '  Containers:',
        '   agent:',
        '    Image:         nginx:1.27',
        '    Port:          <none>',
        '    Host Port:     <none>',
        '    Environment:   <none>',
        '    Mounts:        <none>',
        '  Volumes:         <none>',
        '  Node-Selectors:  kubernetes.io/os=linux',
        '  Tolerations:     <none>',
        '',
      ].join('\n'),
    );
  });
});
