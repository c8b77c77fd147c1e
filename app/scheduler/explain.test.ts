import { describe, expect, it } from 'vitest';
import { defaultScoring, scoringByProfile } from './configInfo';
import { columnStats, explainScore, explainTotal, inNormalization } from './explain';
import type { ScoreInputs } from '../../engine/scheduler/records/types';

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
    expect(ex.worked).toEqual(['normalized = 100 − 1 × 100 / 2 = 50']);
  });

  it('shows no worked line when the numbers do not reproduce the recorded score', () => {
    const ex = explainScore('TaintToleration', { raw: 1, normalized: 70, weight: 3, weighted: 210 }, columnStats([0, 1, 2]), base);
    expect(ex.worked).toEqual([]);
  });

  it('works InterPodAffinity min–max and PodTopologySpread through', () => {
    const ipa = explainScore('InterPodAffinity', { raw: 5, normalized: 50, weight: 2, weighted: 100 }, columnStats([0, 5, 10]), base);
    expect(ipa.worked).toEqual(['normalized = 100 × (5 − 0) / (10 − 0) = 50']);
    const pts = explainScore('PodTopologySpread', { raw: 3, normalized: 66, weight: 2, weighted: 132 }, columnStats([1, 3, 4]), base);
    // 100 × (4 + 1 − 3) / 4 = 50 ≠ 66: not shown; with the right figure it is.
    expect(pts.worked).toEqual([]);
    const pts2 = explainScore('PodTopologySpread', { raw: 3, normalized: 50, weight: 2, weighted: 100 }, columnStats([1, 3, 4]), base);
    expect(pts2.worked).toEqual(['normalized = 100 × (4 + 1 − 3) / 4 = 50']);
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
  const fit: ScoreInputs = {
    kind: 'resources',
    scorer: 'LeastAllocated',
    resources: [
      { name: 'cpu', weight: 1, nodeRequested: 0, podRequest: 500, allocatable: 4000, score: 87 },
      { name: 'memory', weight: 1, nodeRequested: 0, podRequest: GI, allocatable: 32 * GI, score: 96 },
    ],
  };
  const balanced: ScoreInputs = { kind: 'resources', scorer: 'BalancedAllocation', resources: fit.resources.map(({ score: _s, ...r }) => r) };
  it('shows LeastAllocated per resource with the real numbers when they reproduce the score', () => {
    const ex = explainScore('NodeResourcesFit', { raw: 91, normalized: 91, weight: 1, weighted: 91 }, columnStats([91]), defaultScoring(), fit);
    expect(ex.worked).toEqual([
      'cpu: node 0m + this pod 500m = 500m of 4000m → (4000m − 500m) × 100 / 4000m = 87',
      'memory: node 0Mi + this pod 1Gi = 1Gi of 32Gi → (32Gi − 1Gi) × 100 / 32Gi = 96',
      '(87 × 1 + 96 × 1) / 2 = 91',
    ]);
  });
  it('shows nothing worked when the inputs do not reproduce the recorded score', () => {
    const ex = explainScore('NodeResourcesFit', { raw: 50, normalized: 50, weight: 1, weighted: 50 }, columnStats([50]), defaultScoring(), fit);
    expect(ex.worked).toEqual([]);
    expect(ex.note).toMatch(/not in the decision/);
  });
  it('says so when an older cycle no longer keeps its inputs', () => {
    const ex = explainScore('NodeResourcesFit', { raw: 91, normalized: 91, weight: 1, weighted: 91 }, columnStats([91]), defaultScoring(), undefined, true);
    expect(ex.note).toBe('The inputs of older cycles are not kept.');
  });
  it('works BalancedAllocation through its fractions', () => {
    const ex = explainScore('NodeResourcesBalancedAllocation', { raw: 95, normalized: 95, weight: 1, weighted: 95 }, columnStats([95]), defaultScoring(), balanced);
    expect(ex.worked.at(-1)).toBe('std = |0.1250 − 0.0313| / 2 = 0.0469 → (1 − std) × 100 = 95');
  });
  it('works RequestedToCapacityRatio from the recorded shape values, leaving out resources that score 0', () => {
    const rtcr: ScoreInputs = {
      kind: 'resources',
      scorer: 'RequestedToCapacityRatio',
      resources: [
        { name: 'cpu', weight: 3, nodeRequested: 1000, podRequest: 1000, allocatable: 4000, score: 50 },
        { name: 'memory', weight: 1, nodeRequested: 0, podRequest: 0, allocatable: 32 * GI, score: 0 },
      ],
    };
    const ex = explainScore('NodeResourcesFit', { raw: 50, normalized: 50, weight: 1, weighted: 50 }, columnStats([50]), defaultScoring(), rtcr);
    expect(ex.worked).toEqual(['cpu: node 1000m + this pod 1000m = 2000m of 4000m → utilization 50% → shape 50', 'memory: node 0Mi + this pod 0Mi = 0Mi of 32Gi → utilization 0% → shape 0', 'round((50 × 3) / 3) = 50']);
  });
});

describe('worked inputs of the other score plugins', () => {
  it('TaintToleration names the untolerated PreferNoSchedule taints', () => {
    const ex = explainScore('TaintToleration', { raw: 2, normalized: 0, weight: 3, weighted: 0 }, columnStats([0, 2]), defaultScoring(), { kind: 'taints', intolerable: ['a=b:PreferNoSchedule', 'c:PreferNoSchedule'] });
    expect(ex.worked).toEqual(['untolerated: a=b:PreferNoSchedule, c:PreferNoSchedule → raw 2', 'normalized = 100 − 2 × 100 / 2 = 0']);
  });
  it('NodeAffinity lists the matched terms and their weights', () => {
    const ex = explainScore('NodeAffinity', { raw: 25, normalized: 100, weight: 2, weighted: 200 }, columnStats([5, 25]), defaultScoring(), {
      kind: 'nodeAffinity',
      matched: [
        { weight: 20, term: 'zone In [a]' },
        { weight: 5, term: 'disk Exists', added: true },
      ],
    });
    expect(ex.worked).toEqual(['matched: weight 20 · zone In [a]', 'matched (addedAffinity): weight 5 · disk Exists', 'raw = 20 + 5 = 25', 'normalized = 25 × 100 / 25 = 100']);
  });
  it('ImageLocality scales each image by its spread and clamps the sum', () => {
    const MI = 1024 * 1024;
    const ex = explainScore('ImageLocality', { raw: 7, normalized: 7, weight: 1, weighted: 7 }, columnStats([7]), defaultScoring(), {
      kind: 'imageLocality',
      totalNodes: 4,
      containers: 1,
      images: [{ name: 'nginx:latest', size: 200 * MI, nodes: 2 }],
    });
    // 200 MiB × 2/4 = 100 MiB → 100 × (100 − 23) / (1000 − 23) = 7.
    expect(ex.worked).toEqual(['nginx:latest: 200 MiB × 2/4 nodes = 100 MiB', 'sum 100 MiB → 100 × (100 MiB − 23 MiB) / (1 × 1000 MiB − 23 MiB) = 7']);
  });
  it('PodTopologySpread sums matching pods × log(domains + 2) + maxSkew − 1', () => {
    const w = Math.log(3 + 2);
    const ex = explainScore('PodTopologySpread', { raw: 3, normalized: 50, weight: 2, weighted: 100 }, columnStats([1, 3, 4]), defaultScoring(), {
      kind: 'topologySpread',
      ignored: false,
      constraints: [{ topologyKey: 'zone', value: 'z1', matching: 2, maxSkew: 1, weight: w }],
    });
    expect(ex.worked).toEqual(['zone=z1: 2 matching × 1.609 + (maxSkew 1 − 1) = 3.219', 'round(3.219) = 3', 'normalized = 100 × (4 + 1 − 3) / 4 = 50']);
  });
  it('PodTopologySpread says when a node is left out of normalisation', () => {
    const ex = explainScore('PodTopologySpread', { raw: 0, normalized: 0, weight: 2, weighted: 0 }, columnStats([1, 3]), defaultScoring(), { kind: 'topologySpread', ignored: true, constraints: [] });
    expect(ex.worked).toEqual(['the node lacks a constraint’s topology key: raw 0, left out of min and max, normalized 0']);
    expect(inNormalization('PodTopologySpread', { kind: 'topologySpread', ignored: true, constraints: [] })).toBe(false);
  });
  it('InterPodAffinity adds the weights of the node’s domains', () => {
    const ex = explainScore('InterPodAffinity', { raw: 5, normalized: 50, weight: 2, weighted: 100 }, columnStats([0, 5, 10]), defaultScoring(), {
      kind: 'interPodAffinity',
      domains: [
        { topologyKey: 'zone', value: 'z1', score: 10 },
        { topologyKey: 'kubernetes.io/hostname', value: 'n1', score: -5 },
      ],
    });
    expect(ex.worked).toEqual(['zone=z1: +10', 'kubernetes.io/hostname=n1: -5', 'raw = 5', 'normalized = 100 × (5 − 0) / (10 − 0) = 50']);
  });
});
