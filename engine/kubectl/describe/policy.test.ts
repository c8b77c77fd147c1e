import { describe, it, expect } from 'vitest';
import { describePodDisruptionBudget } from './policy';

describe('describe pdb', () => {
  it('prints the budget and its status as kubectl v1.32 does', () => {
    const pdb = { metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'php-apache' } } }, status: { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 } };
    expect(describePodDisruptionBudget(pdb, [], 0)).toBe(
      ['Name:           web', 'Namespace:      default', 'Min available:  2', 'Selector:       app=php-apache', 'Status:', '    Allowed disruptions:  1', '    Current:              3', '    Desired:              2', '    Total:                3', 'Events:                   <none>', ''].join('\n'),
    );
    const other = { metadata: { name: 'b', namespace: 'x' }, spec: { maxUnavailable: '34%' }, status: {} };
    expect(describePodDisruptionBudget(other, null, 0).split('\n').slice(2, 4)).toEqual(['Max unavailable:  34%', 'Selector:         <unset>']);
  });
});
