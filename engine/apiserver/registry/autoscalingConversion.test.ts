// autoscaling/v1 ⇄ v2 HorizontalPodAutoscaler conversion, as pkg/apis/autoscaling/v1/conversion.go.
import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION, METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, hpaFromV1, hpaToV1 } from './autoscalingConversion';

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const cpu = (n: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });

const v2: any = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default', annotations: { team: 'a' } },
  spec: {
    scaleTargetRef: ref,
    minReplicas: 1,
    maxReplicas: 5,
    metrics: [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
      cpu(50),
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' }, metric: { name: 'hits' }, target: { type: 'Value', value: '2k' } } },
      { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 70 } } },
    ],
    behavior: { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] }, scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } },
  },
  status: {
    lastScaleTime: '2025-01-01T00:01:00Z',
    currentReplicas: 2,
    desiredReplicas: 3,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45, averageValue: '90m' } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2025-01-01T00:00:30Z', reason: 'ReadyForNewScale', message: 'recommended size matches current size' }],
  },
};

describe('HorizontalPodAutoscaler autoscaling/v2 → v1', () => {
  it('keeps the CPU utilization target in the spec and the rest in annotations', () => {
    const v1 = hpaToV1(v2) as any;
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 });
    expect(v1.status).toEqual({ lastScaleTime: '2025-01-01T00:01:00Z', currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 45 });
    const a = v1.metadata.annotations;
    expect(Object.keys(a)).toEqual([BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION, METRIC_STATUSES_ANNOTATION, METRIC_SPECS_ANNOTATION, 'team']);
    expect(a[METRIC_STATUSES_ANNOTATION]).toBe('[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":45,"currentAverageValue":"90m"}}]');
    expect(a[CONDITIONS_ANNOTATION]).toBe('[{"type":"AbleToScale","status":"True","lastTransitionTime":"2025-01-01T00:00:30Z","reason":"ReadyForNewScale","message":"recommended size matches current size"}]');
    expect(JSON.parse(a[METRIC_SPECS_ANNOTATION])).toEqual([
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } },
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
      { type: 'Object', object: { target: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' }, metricName: 'hits', targetValue: '2k' } },
      { type: 'External', external: { metricName: 'queue', metricSelector: { matchLabels: { q: 'jobs' } }, targetAverageValue: '30' } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', targetAverageUtilization: 70, container: 'app' } },
    ]);
    // The internal type's Go field names, nil pointers as null.
    expect(a[BEHAVIOR_ANNOTATION]).toBe(
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}',
    );
  });

  it('adds no annotations to a plain CPU autoscaler, and a fresh status has its zero counts', () => {
    const plain = { ...v2, metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 3, metrics: [cpu(80)] }, status: { currentMetrics: null, desiredReplicas: 0 } } as KObject;
    expect(hpaToV1(plain)).toEqual({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 80 }, status: { currentReplicas: 0, desiredReplicas: 0 } });
  });
});

describe('HorizontalPodAutoscaler autoscaling/v1 → v2', () => {
  it('round-trips through the annotations, which it drops', () => {
    const back = hpaFromV1(hpaToV1(v2)) as any;
    expect(back.apiVersion).toBe('autoscaling/v2');
    expect(back.metadata.annotations).toEqual({ team: 'a' });
    // The CPU utilization metric comes last, after the annotation's.
    expect(back.spec.metrics).toEqual([...v2.spec.metrics.filter((m: any) => m.resource?.name !== 'cpu' || m.type !== 'Resource'), cpu(50)]);
    expect(back.spec.behavior).toEqual({ scaleUp: v2.spec.behavior.scaleUp, scaleDown: v2.spec.behavior.scaleDown });
    expect(back.status).toEqual(v2.status);
  });

  it("makes v1's implicit 80 % CPU target explicit, and reads currentCPUUtilizationPercentage", () => {
    const v1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 3 }, status: { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 12 } } as KObject;
    expect(hpaFromV1(v1)).toEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: ref, maxReplicas: 3, metrics: [cpu(80)] },
      status: { currentReplicas: 1, desiredReplicas: 1, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12 } } }] },
    });
  });

  it('ignores annotations that are not JSON', () => {
    const v1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', annotations: { [METRIC_SPECS_ANNOTATION]: '{oops' } }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 60 } } as KObject;
    const v = hpaFromV1(v1) as any;
    expect(v.metadata.annotations).toBeUndefined();
    expect(v.spec.metrics).toEqual([cpu(60)]);
  });
});
