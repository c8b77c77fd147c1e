// kubectl describe hpa's layout, including the behavior block (whose lines
// without tabs end the tabwriter's column block, so the pods line realigns).
import { describe, it, expect } from 'vitest';
import { describeHorizontalPodAutoscaler } from './autoscaling';

const hpa = {
  metadata: { name: 'api', namespace: 'backend', creationTimestamp: '2025-01-01T00:00:00Z' },
  spec: {
    scaleTargetRef: { kind: 'Deployment', name: 'api', apiVersion: 'apps/v1' },
    minReplicas: 1,
    maxReplicas: 3,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    ],
    behavior: {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    },
  },
  status: {
    currentReplicas: 1,
    desiredReplicas: 1,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 2, averageValue: '1m' } } }, { type: 'Resource', resource: { name: 'memory', current: { averageValue: '1253376' } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' }],
  },
};

describe('describe hpa', () => {
  it('prints metrics as current / target, the behavior and the conditions', () => {
    expect(describeHorizontalPodAutoscaler(hpa, null, 0)).toBe(
      [
        'Name:                                                  api',
        'Namespace:                                             backend',
        'Labels:                                                <none>',
        'Annotations:                                           <none>',
        'CreationTimestamp:                                     Wed, 01 Jan 2025 00:00:00 +0000',
        'Reference:                                             Deployment/api',
        'Metrics:                                               ( current / target )',
        '  resource cpu on pods  (as a percentage of request):  2% (1m) / 80%',
        '  resource memory on pods:                             1253376 / 500Mi',
        '  "qps" on pods:                                       <unknown> / 10',
        'Min replicas:                                          1',
        'Max replicas:                                          3',
        'Behavior:',
        '  Scale Up:',
        '    Stabilization Window: 0 seconds',
        '    Select Policy: Max',
        '    Policies:',
        '      - Type: Pods     Value: 4    Period: 15 seconds',
        '      - Type: Percent  Value: 100  Period: 15 seconds',
        '  Scale Down:',
        '    Select Policy: Max',
        '    Policies:',
        '      - Type: Percent  Value: 100  Period: 15 seconds',
        'Deployment pods:       1 current / 1 desired',
        'Conditions:',
        '  Type         Status  Reason            Message',
        '  ----         ------  ------            -------',
        '  AbleToScale  True    ReadyForNewScale  recommended size matches current size',
        '',
      ].join('\n'),
    );
  });
});
