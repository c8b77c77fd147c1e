import { describe, expect, it } from 'vitest';
import { defaultScoring, scoringByProfile } from './configInfo';
import { columnStats, explainScore, explainTotal } from './explain';

const base = defaultScoring();

describe('explainScore', () => {
  it('always shows raw, normalized, weight and weighted = normalized × weight', () => {
    const ex = explainScore('ImageLocality', { raw: 12, normalized: 12, weight: 1, weighted: 12 }, columnStats([12]), base);
    expect(Object.fromEntries(ex.facts)).toEqual({ raw: '12', normalized: '12', weight: '1', weighted: '12 × 1 = 12' });
  });

  it('names LeastAllocated with the resource weights of the profile', () => {
    const ex = explainScore('NodeResourcesFit', { raw: 87, normalized: 87, weight: 1, weighted: 87 }, columnStats([87, 60]), base);
    expect(ex.formula[0]).toMatch(/^LeastAllocated: score = Σ w_r × \(\(allocatable_r − requested_r\) × 100 \/ allocatable_r\) \/ Σ w_r/);
    expect(ex.formula[1]).toContain('cpu ×1, memory ×1');
  });

  it('follows a MostAllocated profile and its weights', () => {
    const cfg = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: bin-packing
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: cpu
          weight: 3
        - name: memory
          weight: 1
`;
    const s = scoringByProfile(cfg).get('bin-packing')!;
    const ex = explainScore('NodeResourcesFit', { raw: 40, normalized: 40, weight: 1, weighted: 40 }, columnStats([40]), s);
    expect(ex.formula[0]).toMatch(/^MostAllocated/);
    expect(ex.formula[1]).toContain('cpu ×3, memory ×1');
  });

  it('works TaintToleration’s reversed normalisation through with the cycle’s max', () => {
    const ex = explainScore('TaintToleration', { raw: 1, normalized: 50, weight: 3, weighted: 150 }, columnStats([0, 1, 2]), base);
    expect(ex.worked).toEqual(['= 100 − 1 × 100 / 2 = 50']);
  });

  it('shows no worked line when the numbers do not reproduce the recorded score', () => {
    const ex = explainScore('TaintToleration', { raw: 1, normalized: 70, weight: 3, weighted: 210 }, columnStats([0, 1, 2]), base);
    expect(ex.worked).toEqual([]);
  });

  it('works InterPodAffinity min–max and PodTopologySpread through', () => {
    const ipa = explainScore('InterPodAffinity', { raw: 5, normalized: 50, weight: 2, weighted: 100 }, columnStats([0, 5, 10]), base);
    expect(ipa.worked).toEqual(['= 100 × (5 − 0) / (10 − 0) = 50']);
    const pts = explainScore('PodTopologySpread', { raw: 3, normalized: 66, weight: 2, weighted: 132 }, columnStats([1, 3, 4]), base);
    // 100 × (4 + 1 − 3) / 4 = 50 ≠ 66: not shown; with the right figure it is.
    expect(pts.worked).toEqual([]);
    const pts2 = explainScore('PodTopologySpread', { raw: 3, normalized: 50, weight: 2, weighted: 100 }, columnStats([1, 3, 4]), base);
    expect(pts2.worked).toEqual(['= 100 × (4 + 1 − 3) / 4 = 50']);
  });

  it('sums the total', () => {
    const ex = explainTotal(
      {
        A: { raw: 1, normalized: 50, weight: 3, weighted: 150 },
        B: { raw: 80, normalized: 80, weight: 1, weighted: 80 },
      },
      230,
    );
    expect(ex.worked).toEqual(['= 150 + 80 = 230']);
  });
});

describe('scoringByProfile', () => {
  it('reads BalancedAllocation resources and keeps defaults for the rest', () => {
    const m = scoringByProfile(`profiles:
- pluginConfig:
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
      - name: cpu
        weight: 1
      - name: nvidia.com/gpu
        weight: 1
`);
    const s = m.get('default-scheduler')!;
    expect(s.balancedResources.map((r) => r.name)).toEqual(['cpu', 'nvidia.com/gpu']);
    expect(s.fitStrategy).toBe('LeastAllocated');
  });

  it('survives text that is not YAML', () => {
    expect(scoringByProfile('profiles: [').size).toBe(0);
    expect(scoringByProfile(null).size).toBe(0);
  });
});

describe('worked resource arithmetic from the decision inputs', () => {
  const GI = 1024 ** 3;
  const inputs = {
    node: { cpu: { requested: 0, nonZeroRequested: 0, allocatable: 4000 }, memory: { requested: 0, nonZeroRequested: 0, allocatable: 32 * GI } },
    pod: { cpu: { requested: 500, nonZero: 500 }, memory: { requested: GI, nonZero: GI } },
  };
  it('shows LeastAllocated per resource with the real numbers when they reproduce the score', () => {
    const ex = explainScore('NodeResourcesFit', { raw: 91, normalized: 91, weight: 1, weighted: 91 }, columnStats([91]), defaultScoring(), inputs);
    expect(ex.worked).toEqual([
      'cpu: requested 0m + this pod 500m = 500m of 4000m → (4000m − 500m) × 100 / 4000m = 87',
      'memory: requested 0Mi + this pod 1024Mi = 1024Mi of 32768Mi → (32768Mi − 1024Mi) × 100 / 32768Mi = 96',
      '(cpu × 1 + memory × 1) / 2 = 91',
    ]);
  });
  it('shows nothing worked when the inputs do not reproduce the recorded score', () => {
    const ex = explainScore('NodeResourcesFit', { raw: 50, normalized: 50, weight: 1, weighted: 50 }, columnStats([50]), defaultScoring(), inputs);
    expect(ex.worked).toEqual([]);
  });
  it('works BalancedAllocation through its fractions', () => {
    const ex = explainScore('NodeResourcesBalancedAllocation', { raw: 95, normalized: 95, weight: 1, weighted: 95 }, columnStats([95]), defaultScoring(), inputs);
    expect(ex.worked.at(-1)).toBe('std = |0.1250 − 0.0313| / 2 = 0.0469 → (1 − std) × 100 = 95');
  });
});
