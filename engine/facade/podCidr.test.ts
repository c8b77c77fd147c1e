import { describe, expect, it } from 'vitest';
import { podCidrOf } from './engine';

describe('worker nodes’ pod CIDRs', () => {
  it('are distinct, valid /24s for every node up to 5,000, outside the service range', () => {
    const seen = new Set<string>();
    for (let i = 1; i <= 5000; i++) {
      const cidr = podCidrOf(i);
      const m = /^10\.(\d+)\.(\d+)\.0\/24$/.exec(cidr);
      expect(m, cidr).not.toBeNull();
      const [a, b] = [Number(m![1]), Number(m![2])];
      expect(a).toBeLessThanOrEqual(255);
      expect(b).toBeLessThanOrEqual(255);
      expect(a >= 96 && a < 112).toBe(false); // 10.96.0.0/12
      seen.add(cidr);
    }
    expect(seen.size).toBe(5000);
    expect(podCidrOf(1)).toBe('10.244.1.0/24');
    expect(podCidrOf(3071)).toBe('10.255.255.0/24');
  });
});
