import { describe, it, expect } from 'vitest';
import { describeResourceQuota } from './quota';

describe('describe quota', () => {
  it('prints scopes with their help, and usage in the hard quantity format', () => {
    const q = { metadata: { name: 'be', namespace: 'default' }, spec: { scopes: ['NotTerminating', 'BestEffort'] }, status: { hard: { pods: '3', 'requests.memory': '1Gi' }, used: { pods: '1', 'requests.memory': '1048576k' } } };
    expect(describeResourceQuota(q)).toBe(
      [
        'Name:       be',
        'Namespace:  default',
        'Scopes:     BestEffort, NotTerminating',
        ' * Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.',
        ' * Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.',
        'Resource         Used    Hard',
        '--------         ----    ----',
        'pods             1       3',
        // 1048576k is a decimal quantity: shown in the binary format of the hard limit.
        'requests.memory  1000Mi  1Gi',
        '',
      ].join('\n'),
    );
  });
});
