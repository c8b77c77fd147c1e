// The batch paths of Score (scoreNodes, normalizeScoreValues, one buffer for
// the record's numbers) against the node-by-node path upstream's
// RunScorePlugins takes: the same raw, normalized and total scores and the
// same recorded inputs, for every default Score plugin and Fit strategy.
import { describe, expect, it } from 'vitest';
import type { Pod } from './api';
import { CycleState } from './cycleState';
import type { Plugin, ScoreExtensions, ScorePlugin } from './interface';
import { Framework, type ScoreOutcome } from './runtime';
import { inputsAt } from './scoreInputs';
import type { Status } from './status';
import { DirectScheduler } from '../testing/direct';
import { makeNode, makePod } from '../testing/fixtures';

/** The plugin as one without the batch methods: Score node by node, NormalizeScore over NodeScores. */
function nodeByNode(pl: Plugin): Plugin {
  const sp = pl as ScorePlugin;
  if (typeof sp.score !== 'function') return pl;
  const w = Object.create(pl) as ScorePlugin & { scoreNodes?: unknown };
  w.scoreNodes = undefined;
  const ext = sp.scoreExtensions?.() ?? null;
  w.scoreExtensions = (): ScoreExtensions | null => (ext ? { normalizeScore: (s, p, scores) => ext.normalizeScore(s, p, scores) } : null);
  return w;
}

function fitConfig(strategy: string): string {
  const shape = strategy === 'RequestedToCapacityRatio' ? `\n        requestedToCapacityRatio:\n          shape:\n          - {utilization: 0, score: 0}\n          - {utilization: 60, score: 8}\n          - {utilization: 100, score: 10}` : '';
  return `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: ${strategy}
        resources:
        - {name: cpu, weight: 2}
        - {name: memory, weight: 1}${shape}
`;
}

/** A varied cluster: sizes, PreferNoSchedule taints, images, zones, pods already placed. */
function cluster(configText?: string): DirectScheduler {
  const s = new DirectScheduler(7, configText);
  for (let i = 0; i < 40; i++) {
    s.addNode(
      makeNode(`n-${i}`, {
        labels: { 'topology.kubernetes.io/zone': `z${i % 3}`, disk: i % 2 ? 'ssd' : 'hdd' },
        allocatable: { cpu: `${2 + (i % 5)}`, memory: `${4 + (i % 7)}Gi`, pods: '110' },
        ...(i % 4 === 0 ? { taints: [{ key: 'dedicated', value: i % 8 ? 'a' : 'b', effect: 'PreferNoSchedule' as const }] } : {}),
        ...(i % 3 === 0 ? { images: [{ names: ['nginx:latest', 'docker.io/library/nginx:latest'], sizeBytes: 150 * 1024 * 1024 }] } : i % 5 === 0 ? { images: [{ names: ['redis:7'], sizeBytes: 40 * 1024 * 1024 }] } : {}),
      }),
    );
  }
  for (let i = 0; i < 60; i++) s.addPod(makePod(`existing-${i}`, { nodeName: `n-${(i * 7) % 40}`, labels: { app: i % 2 ? 'web' : 'db' }, requests: { cpu: `${100 + (i % 4) * 150}m`, memory: `${256 + (i % 3) * 512}Mi` } }));
  return s;
}

const pods: Pod[] = [
  makePod('plain', { requests: { cpu: '500m', memory: '1Gi' } }),
  makePod('best-effort'),
  makePod('tolerates', { requests: { cpu: '1' }, spec: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'a', effect: 'PreferNoSchedule' }] } }),
  makePod('images', { containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'redis:7', resources: { requests: { memory: '2Gi' } } }] }),
  makePod('preferences', {
    labels: { app: 'web' },
    requests: { cpu: '250m' },
    spec: {
      affinity: {
        nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 30, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } }] },
        podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 20, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'topology.kubernetes.io/zone' } }] },
      },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }],
    },
  }),
];

function expectSame(a: ScoreOutcome | Status, b: ScoreOutcome | Status): void {
  if (!('totals' in a) || !('totals' in b)) throw new Error('scoring failed');
  expect(a.plugins).toEqual(b.plugins);
  expect(a.weights).toEqual(b.weights);
  expect(Array.from(a.raw)).toEqual(Array.from(b.raw));
  expect(Array.from(a.normalized)).toEqual(Array.from(b.normalized));
  expect(Array.from(a.totals)).toEqual(Array.from(b.totals));
  const N = a.totals.length;
  for (let p = 0; p < a.plugins.length; p++) {
    for (let n = 0; n < N; n++) {
      const x = a.inputs![p] ? inputsAt(a.inputs![p]!, n) : null;
      const y = b.inputs![p] ? inputsAt(b.inputs![p]!, n) : null;
      expect(x, `${a.plugins[p]} node ${n}`).toEqual(y);
    }
  }
}

describe('Score in one call per plugin', () => {
  for (const strategy of ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio']) {
    it(`gives what scoring node by node gives (NodeResourcesFit ${strategy})`, () => {
      const s = cluster(fitConfig(strategy));
      const fwk = s.setup.frameworks.get('default-scheduler')!;
      const reference = new Framework(fwk.profileName, fwk.percentageOfNodesToScore, fwk.points, new Map([...fwk.plugins].map(([k, pl]) => [k, nodeByNode(pl)])), { nominatedPodsForNode: () => [] });
      expect(fwk.score.some((pl) => pl.scoreNodes)).toBe(true);
      expect(reference.score.every((pl) => !pl.scoreNodes)).toBe(true);
      let scored = 0;
      for (const pod of pods) {
        const nodes = s.cache.list();
        const state = new CycleState();
        s.handle.current = fwk;
        expect(fwk.runPreFilterPlugins(state, pod, nodes).status).toBeNull();
        expect(fwk.runPreScorePlugins(state, pod, nodes)).toBeNull();
        const batch = fwk.runScorePlugins(state, pod, nodes, true);
        expectSame(batch, reference.runScorePlugins(state, pod, nodes, true));
        if ('totals' in batch) scored += batch.plugins.length;
      }
      // The pods exercise every default Score plugin between them.
      expect(scored).toBeGreaterThan(pods.length * 4);
    });
  }

  it('reports a plugin error from the batch path as from the per-node one', () => {
    const s = cluster();
    const fwk = s.setup.frameworks.get('default-scheduler')!;
    // No PreScore: TaintToleration cannot read its state.
    const out = fwk.runScorePlugins(new CycleState(), pods[0]!, s.cache.list());
    expect(out).toMatchObject({ code: 'Error', plugin: 'TaintToleration', reasons: ['running Score plugin "TaintToleration": failed to read "PreScoreTaintToleration" from cycleState: not found'] });
  });
});

describe('CycleState.filtersToRun', () => {
  it('leaves out the plugins PreFilter skipped, and follows the skip set and the list it is given', () => {
    const a = { name: 'A', filter: () => null };
    const b = { name: 'B', filter: () => null };
    const c = { name: 'C', filter: () => null };
    const all = [a, b, c];
    const state = new CycleState();
    expect(state.filtersToRun(all)).toBe(all);
    state.skipFilterPlugins.add('B');
    expect(state.filtersToRun(all).map((p) => p.name)).toEqual(['A', 'C']);
    state.skipFilterPlugins.add('A');
    expect(state.filtersToRun(all).map((p) => p.name)).toEqual(['C']);
    expect(state.filtersToRun([b, c]).map((p) => p.name)).toEqual(['C']);
    expect(state.clone().filtersToRun(all).map((p) => p.name)).toEqual(['C']);
  });
});
