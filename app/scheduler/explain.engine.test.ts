// The scoring table's hover against the real scheduler: decisions made by the
// engine's plugins on a varied cluster, under several profiles, and for every
// scored node × Score plugin the tooltip must work the raw score out from the
// recorded inputs (and the normalisation from the cycle's raw scores) to the
// very numbers the scheduler recorded.
import { describe, expect, it } from 'vitest';
import { DirectScheduler } from '../../engine/scheduler/testing/direct';
import { makeNode, makePod } from '../../engine/scheduler/testing/fixtures';
import { decisionJson } from '../../engine/scheduler/records/decisionLog';
import type { Pod, Taint } from '../../engine/scheduler/framework/api';
import { defaultScoring, scoringByProfile } from './configInfo';
import { explainScore, scoreColumnStats } from './explain';
import { buildTable } from './table';

const MI = 1024 * 1024;

function cluster(config?: string): DirectScheduler {
  const s = new DirectScheduler(5, config);
  for (let i = 0; i < 12; i++) {
    const labels: Record<string, string> = {};
    // Two nodes without a zone: PodTopologySpread leaves them out of its normalisation.
    if (i < 10) labels['topology.kubernetes.io/zone'] = `z${i % 3}`;
    if (i % 4 === 0) labels.disk = 'ssd';
    const taints: Taint[] = i % 5 === 1 ? [{ key: 'spot', value: 'true', effect: 'PreferNoSchedule' }] : [];
    if (i === 6) taints.push({ key: 'old', effect: 'PreferNoSchedule' });
    const images = [
      ...(i % 3 === 0 ? [{ names: ['nginx:1.27'], sizeBytes: 300 * MI }] : []),
      ...(i % 6 === 0 ? [{ names: ['docker.io/library/redis:7'], sizeBytes: 50 * MI + 12345 }] : []),
    ];
    s.addNode(makeNode(`n${i}`, { labels, taints, images, allocatable: { cpu: String(2 + (i % 4)), memory: `${8 * (1 + (i % 3))}Gi`, pods: '110', 'ephemeral-storage': '100Gi' } }));
  }
  return s;
}

function web(i: number): Pod {
  return makePod(`web-${i}`, { labels: { app: 'web' }, requests: { cpu: '300m', memory: '512Mi' } });
}

function probe(name: string): Pod {
  return makePod(name, {
    labels: { app: 'probe' },
    containers: [
      { name: 'a', image: 'nginx:1.27', resources: { requests: { cpu: '250m', memory: '300Mi', 'ephemeral-storage': '1Gi' } } },
      { name: 'b', image: 'docker.io/library/redis:7' },
    ],
    spec: {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 20, preference: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] }] } },
            { weight: 5, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } },
          ],
        },
        podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'topology.kubernetes.io/zone' } }] },
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 7, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' } }] },
      },
      topologySpreadConstraints: [{ maxSkew: 2, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }],
    },
  });
}

const PROFILES: [string, string | undefined][] = [
  ['the default profile', undefined],
  [
    'MostAllocated and three balanced resources',
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 3}, {name: memory, weight: 1}]
  - name: NodeResourcesBalancedAllocation
    args:
      resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}, {name: ephemeral-storage, weight: 1}]
  - name: NodeAffinity
    args:
      addedAffinity:
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 3
          preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [z2]}]}
`,
  ],
  [
    'RequestedToCapacityRatio',
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources: [{name: cpu, weight: 2}, {name: memory, weight: 1}]
        requestedToCapacityRatio:
          shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]
`,
  ],
];

describe('every score plugin’s hover reproduces the engine’s numbers', () => {
  it.each(PROFILES)('%s', (_name, config) => {
    const s = cluster(config);
    for (let i = 0; i < 14; i++) expect(s.schedule(web(i)).selected).not.toBe('');
    const scoring = (config ? scoringByProfile(config) : new Map()).get('default-scheduler') ?? defaultScoring();
    const seen = new Set<string>();
    for (let k = 0; k < 3; k++) {
      const d = decisionJson(s.schedule(probe(`probe-${k}`)));
      const model = buildTable(d);
      const stats = scoreColumnStats(model);
      const scored = model.rows.filter((r) => r.scores);
      expect(scored.length).toBeGreaterThan(5);
      for (const r of scored) {
        for (const [plugin, score] of Object.entries(r.scores!)) {
          seen.add(plugin);
          const ex = explainScore(plugin, score, stats.get(plugin)!, scoring, r.inputs[plugin]);
          const where = `${plugin} on ${r.node}: ${JSON.stringify({ score, inputs: r.inputs[plugin], worked: ex.worked, note: ex.note })}`;
          expect(ex.note === undefined || ex.note.startsWith('Nodes without'), where).toBe(true);
          expect(ex.worked.length, where).toBeGreaterThan(0);
          // Plugins that normalise show that step too (and it reproduced the recorded value).
          if (['TaintToleration', 'NodeAffinity', 'InterPodAffinity', 'PodTopologySpread'].includes(plugin) && !(r.inputs[plugin]?.kind === 'topologySpread' && r.inputs[plugin].ignored)) {
            expect(ex.worked.some((l) => l.startsWith('normalized') || l.includes('every node gets')), where).toBe(true);
          }
        }
      }
    }
    expect([...seen].sort()).toEqual(['ImageLocality', 'InterPodAffinity', 'NodeAffinity', 'NodeResourcesBalancedAllocation', 'NodeResourcesFit', 'PodTopologySpread', 'TaintToleration']);
  });
});
