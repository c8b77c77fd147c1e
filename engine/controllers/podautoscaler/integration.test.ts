// The HPA on the simulated cluster: kubelets account the pods' CPU,
// metrics-server serves it through the aggregation layer, and the
// horizontal-pod-autoscaler scales a Deployment up under load and back down
// once the 5-minute downscale stabilisation window has passed.
import { describe, it, expect } from 'vitest';
import { call, controlPlane, runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';
import { kubectlOn } from '../../host/testing/kubectl';
import { parseRfc3339 } from '../../apiserver/http/time';
import type { ControllerManager } from '../manager';
import type { HorizontalPodAutoscalerController } from './controller';
import { DOWNSCALE_STABILIZATION_MS, HPA_SYNC_PERIOD_MS } from './controller';

const NS = '/apis/apps/v1/namespaces/default';
const HPA = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/php-apache';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'php-apache' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { run: 'php-apache' } },
    // Every pod of the template is busy: 400m on a 200m request.
    template: { metadata: { labels: { run: 'php-apache' }, annotations: { 'kubeglass.io/cpu-load': '400m' } }, spec: { containers: [{ name: 'php-apache', image: 'registry.k8s.io/hpa-example', resources: { requests: { cpu: '200m' }, limits: { cpu: '500m' } } }] } },
  },
};

const hpa = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'php-apache' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'php-apache' }, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
};

const replicas = (e: Engine) => call(e, 'GET', `${NS}/deployments/php-apache`).body.spec.replicas as number;
const status = (e: Engine) => call(e, 'GET', HPA).body.status;
const condition = (e: Engine, type: string) => (status(e).conditions ?? []).find((c: any) => c.type === type);
const hpaEvents = (e: Engine) =>
  (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.involvedObject.kind === 'HorizontalPodAutoscaler').map((x) => ({ type: x.type, reason: x.reason, message: x.message, source: x.source.component }));
const controller = (e: Engine) => e.sim.actor<ControllerManager>('kube-controller-manager-0')!.controllers.find((c) => c.name === 'horizontal-pod-autoscaler') as HorizontalPodAutoscalerController;

function setLoad(e: Engine, load: string | null): void {
  for (const p of call(e, 'GET', '/api/v1/namespaces/default/pods').body.items) {
    const r = call(e, 'PATCH', `/api/v1/namespaces/default/pods/${p.metadata.name}`, { metadata: { annotations: { 'kubeglass.io/cpu-load': load } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    expect(r.status).toBe(200);
  }
}

describe('horizontal-pod-autoscaler on the cluster', () => {
  it('scales a Deployment up under load and back down when the downscale stabilisation window has passed, to the sync', async () => {
    const e = controlPlane(5, { nodes: 1, etcdMembers: 1 });
    expect(call(e, 'POST', `${NS}/deployments`, deployment).status).toBe(201);
    // As the walkthrough does it: kubectl autoscale writes an autoscaling/v1 object.
    expect((await kubectlOn(e, ['autoscale', 'deployment', 'php-apache', '--cpu-percent=50', '--min=1', '--max=3'])).stdout).toBe('horizontalpodautoscaler.autoscaling/php-apache autoscaled\n');

    const lost = { ...hpa, metadata: { name: 'lost' }, spec: { ...hpa.spec, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nope' } } };
    const odd = { ...hpa, metadata: { name: 'odd' }, spec: { ...hpa.spec, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Widget', name: 'w' } } };
    for (const h of [lost, odd]) expect(call(e, 'POST', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', h).status).toBe(201);

    // Before metrics-server has two scrapes, the Metrics API is unavailable.
    runUntil(e, () => !!condition(e, 'ScalingActive'), 'a ScalingActive condition', 60_000, 1000);
    expect(condition(e, 'AbleToScale')).toMatchObject({ status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" });
    expect(condition(e, 'ScalingActive')).toMatchObject({
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message: 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)',
    });
    const ableOf = (name: string) => (call(e, 'GET', `/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/${name}`).body.status.conditions ?? [])[0];
    expect(ableOf('lost')).toMatchObject({ type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message: 'the HPA controller was unable to get the target\'s current scale: deployments.apps "nope" not found' });
    expect(ableOf('odd')).toMatchObject({ type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message: 'the HPA controller was unable to get the target\'s current scale: no matches for kind "Widget" in group "apps"' });
    expect(hpaEvents(e).filter((x) => x.reason === 'FailedGetScale').map((x) => x.message).sort()).toEqual(['deployments.apps "nope" not found', 'no matches for kind "Widget" in group "apps"']);
    runUntil(e, () => condition(e, 'ScalingActive')?.status === 'True', 'ValidMetricFound', 120_000, 1000);
    expect(condition(e, 'ScalingActive')).toMatchObject({ reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' });
    // 200 % of request against a 50 % target: 1 → ceil(1 × 4) = 4, capped by maxReplicas 3, in one step.
    expect(replicas(e)).toBe(3);
    expect(status(e).currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: expect.any(Number), averageValue: expect.stringMatching(/^\d+m$/) } } }]);
    expect(status(e).currentMetrics[0].resource.current.averageUtilization).toBeGreaterThanOrEqual(200);
    expect(hpaEvents(e).filter((x) => x.reason === 'SuccessfulRescale')).toEqual([
      { type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 3; reason: cpu resource utilization (percentage of request) above target', source: 'horizontal-pod-autoscaler' },
    ]);
    expect(status(e)).toMatchObject({ currentReplicas: 1, desiredReplicas: 3, lastScaleTime: expect.any(String) });
    const upAt = parseRfc3339(status(e).lastScaleTime);
    runUntil(e, () => status(e).currentReplicas === 3, 'the next sync', 30_000, 1000);
    // Three busy pods: still above target, and more than maxReplicas is asked.
    runUntil(e, () => condition(e, 'ScalingLimited')?.status === 'True', 'ScalingLimited', 60_000, 1000);
    expect(condition(e, 'ScalingLimited')).toMatchObject({ reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
    const utilization = status(e).currentMetrics[0].resource.current.averageUtilization;
    const table = (await kubectlOn(e, ['get', 'hpa', 'php-apache'])).stdout.split('\n');
    expect(table[1]).toMatch(new RegExp(`^php-apache   Deployment/php-apache   cpu: ${utilization}%/50%   1         3         3          \\d+s$`));

    // The load goes; the recommendations drop at once, the size only after five minutes of them.
    setLoad(e, null);
    const c = controller(e);
    const key = 'default/php-apache';
    let lastHigh = 0;
    let downAt = 0;
    let stabilizedSeen = false;
    for (let t = 0; t < 600_000 && !downAt; t += 1000) {
      e.advance(1000);
      for (const r of c.history.get(key)!.recommendations) if (r.recommendation >= 3) lastHigh = Math.max(lastHigh, r.timestamp);
      if (c.recent.some((x) => x.what.endsWith('from 3 to 1'))) downAt = c.recent.at(-1)!.t;
      else if (t % 15_000 === 0 && condition(e, 'AbleToScale').reason === 'ScaleDownStabilized') stabilizedSeen = true;
    }
    expect(stabilizedSeen).toBe(true);
    expect(downAt).toBeGreaterThan(0);
    // The first sync after the last high recommendation left the window (within a second of polling).
    expect(downAt).toBeGreaterThan(lastHigh + DOWNSCALE_STABILIZATION_MS);
    expect(downAt).toBeLessThanOrEqual(lastHigh + DOWNSCALE_STABILIZATION_MS + HPA_SYNC_PERIOD_MS + 1000);
    expect(lastHigh).toBeGreaterThan(upAt);
    expect(replicas(e)).toBe(1);
    expect(hpaEvents(e).filter((x) => x.reason === 'SuccessfulRescale').map((x) => x.message)).toEqual([
      'New size: 3; reason: cpu resource utilization (percentage of request) above target',
      'New size: 1; reason: All metrics below target',
    ]);
    expect(condition(e, 'AbleToScale')).toMatchObject({ reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 1' });
    // Below minReplicas the recommendation (0 % usage) is raised to it.
    expect(condition(e, 'ScalingLimited')).toMatchObject({ status: 'True', reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' });
    runUntil(e, () => call(e, 'GET', `${NS}/deployments/php-apache`).body.status.replicas === 1, 'the Deployment at one pod', 120_000, 1000);

    runUntil(e, () => condition(e, 'AbleToScale').reason === 'ReadyForNewScale', 'the next sync', 30_000, 1000);
    const described = (await kubectlOn(e, ['describe', 'hpa', 'php-apache'])).stdout;
    const util = status(e).currentMetrics[0].resource.current;
    expect(described.split('\nEvents:\n')[0]).toBe(
      [
        'Name:                                                  php-apache',
        'Namespace:                                             default',
        'Labels:                                                <none>',
        'Annotations:                                           <none>',
        'CreationTimestamp:                                     Wed, 01 Jan 2025 00:00:0' + described.split('\n')[4]!.slice(-7),
        'Reference:                                             Deployment/php-apache',
        'Metrics:                                               ( current / target )',
        `  resource cpu on pods  (as a percentage of request):  ${util.averageUtilization}% (${util.averageValue}) / 50%`,
        'Min replicas:                                          1',
        'Max replicas:                                          3',
        'Deployment pods:                                       1 current / 1 desired',
        'Conditions:',
        // An idle pod's last sample may read 0 % (the recommendation 0, raised to minReplicas) or a
        // little above it (a recommendation of 1, within range): the Reason column is as wide as its widest.
        ...(util.averageUtilization === 0
          ? [
              '  Type            Status  Reason            Message',
              '  ----            ------  ------            -------',
              '  AbleToScale     True    ReadyForNewScale  recommended size matches current size',
              '  ScalingActive   True    ValidMetricFound  the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
              '  ScalingLimited  True    TooFewReplicas    the desired replica count is less than the minimum replica count',
            ]
          : [
              '  Type            Status  Reason              Message',
              '  ----            ------  ------              -------',
              '  AbleToScale     True    ReadyForNewScale    recommended size matches current size',
              '  ScalingActive   True    ValidMetricFound    the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
              '  ScalingLimited  False   DesiredWithinRange  the desired count is within the acceptable range',
            ]),
      ].join('\n'),
    );
    expect(described).toMatch(/\n {2}Normal {3}SuccessfulRescale +\S+ +horizontal-pod-autoscaler {2}New size: 1; reason: All metrics below target\n$/);
  });
});
