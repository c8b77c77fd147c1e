import { describe, expect, it } from 'vitest';
import { DirectScheduler } from '../testing/direct';
import { makeNode, makePod } from '../testing/fixtures';
import { decisionJson, DecisionLog } from './decisionLog';
import type { DecisionRecord } from './types';
import { fromPlain, toPlain } from '../../sim/serial';

function cluster(): DirectScheduler {
  const s = new DirectScheduler(3);
  s.addNode(makeNode('node-a', { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] }));
  s.addNode(makeNode('node-b'));
  s.addNode(makeNode('small', { allocatable: { cpu: '100m', memory: '1Gi', pods: '110' } }));
  return s;
}

describe('decision JSON', () => {
  it('has the issue’s shape: nodes → filters (Success or the reason), scores {raw, normalized, weight, weighted}, total; selected; message', () => {
    const s = cluster();
    const d = decisionJson(s.schedule(makePod('web', { requests: { cpu: '500m', memory: '1Gi' } })));
    expect(Object.keys(d.nodes).sort()).toEqual(['node-a', 'node-b', 'small']);
    expect(d.nodes.small).toEqual({ filters: { NodeUnschedulable: 'Success', NodeName: 'Success', TaintToleration: 'Success', NodeAffinity: 'Skip', NodePorts: 'Skip', NodeResourcesFit: 'Insufficient cpu' } });
    const b = d.nodes['node-b']!;
    expect(Object.values(b.filters).every((v) => v === 'Success' || v === 'Skip')).toBe(true);
    expect(b.scores!.TaintToleration).toEqual({ raw: 0, normalized: 100, weight: 3, weighted: 300 });
    expect(d.nodes['node-a']!.scores!.TaintToleration).toEqual({ raw: 1, normalized: 0, weight: 3, weighted: 0 });
    for (const n of ['node-a', 'node-b']) {
      const sc = d.nodes[n]!.scores!;
      expect(d.nodes[n]!.total).toBe(Object.values(sc).reduce((a, x) => a + x.weighted, 0));
      for (const x of Object.values(sc)) expect(x.weighted).toBe(x.normalized * x.weight);
    }
    expect(d.selected).toBe('node-b');
    expect(d.message).toBe('');
    expect(d.nodes['node-a']!.inputs!.TaintToleration).toEqual({ kind: 'taints', intolerable: ['spot:PreferNoSchedule'] });
    expect(d.evaluatedNodes).toBe(3);
    expect(d.feasibleNodes).toBe(2);
    // The whole thing is JSON.
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
  });

  it('gives the FitError text as the message when no node fits', () => {
    const d = decisionJson(cluster().schedule(makePod('huge', { requests: { cpu: '64' } })));
    expect(d.selected).toBe('');
    expect(d.message).toBe('0/3 nodes are available: 3 Insufficient cpu.');
  });
});

describe('DecisionLog: bounded memory', () => {
  const s = cluster();
  const rec = (cycle: number, pod: string): DecisionRecord => ({ ...s.schedule(makePod(pod.split('/')[1]!, { requests: { cpu: '1m' } })), cycle, pod });

  it('keeps the last `capacity` cycles, newest last', () => {
    const log = new DecisionLog(5, 2);
    for (let c = 1; c <= 12; c++) log.add(rec(c, `default/p${c % 3}`));
    expect(log.recent(100).map((r) => r.cycle)).toEqual([8, 9, 10, 11, 12]);
    expect(log.forPod('default/p0').map((r) => r.cycle)).toEqual([9, 12]);
    expect(log.byCycle(3)).toBeUndefined();
  });

  it('keeps a watched pod’s records beyond the ring (at most 20), and forgets them when unwatched', () => {
    const log = new DecisionLog(4, 2);
    log.watch('default/seen');
    for (let c = 1; c <= 50; c++) log.add(rec(c, c % 2 ? 'default/seen' : 'default/other'));
    const seen = log.forPod('default/seen').map((r) => r.cycle);
    expect(seen).toHaveLength(20);
    expect(seen[0]).toBe(11);
    expect(seen.at(-1)).toBe(49);
    expect(log.forPod('default/other').map((r) => r.cycle)).toEqual([48, 50]);
    log.unwatch('default/seen');
    expect(log.forPod('default/seen').map((r) => r.cycle)).toEqual([47, 49]);
  });

  it('drops score inputs outside the newest `detailedCycles`, except for watched pods', () => {
    const log = new DecisionLog(10, 3);
    log.watch('default/kept');
    const all: DecisionRecord[] = [];
    for (let c = 1; c <= 8; c++) {
      const r = rec(c, c === 2 ? 'default/kept' : `default/p${c}`);
      all.push(r);
      log.add(r);
    }
    expect(all.map((r) => r.inputs !== undefined)).toEqual([false, true, false, false, false, true, true, true]);
    expect(decisionJson(all[0]!).inputsDropped).toBe(true);
    expect(Object.values(decisionJson(all[0]!).nodes).some((n) => n.inputs)).toBe(false);
    expect(decisionJson(all[7]!).inputsDropped).toBeUndefined();
    expect(decisionJson(all[7]!).nodes['node-b']!.inputs!.NodeResourcesFit).toBeDefined();
  });
});

describe('DecisionLog in snapshots', () => {
  it('records with every kind of score inputs survive a snapshot round trip (recorders are registered classes)', () => {
    const s = new DirectScheduler(9);
    for (let i = 0; i < 6; i++) {
      s.addNode(makeNode(`n${i}`, { labels: { 'topology.kubernetes.io/zone': `z${i % 2}` }, taints: i === 1 ? [{ key: 'spot', effect: 'PreferNoSchedule' }] : [], images: i % 2 ? [{ names: ['nginx:latest'], sizeBytes: 100 * 1024 * 1024 }] : [] }));
    }
    for (let i = 0; i < 4; i++) s.schedule(makePod(`w${i}`, { labels: { app: 'w' }, requests: { cpu: '100m' } }));
    const pod = makePod('probe', {
      labels: { app: 'w' },
      containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }],
      spec: {
        affinity: {
          nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, preference: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] }] } }] },
          podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 3, podAffinityTerm: { labelSelector: { matchLabels: { app: 'w' } }, topologyKey: 'kubernetes.io/hostname' } }] },
        },
        topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'w' } } }],
      },
    });
    const log = new DecisionLog();
    log.add(s.schedule(pod));
    const before = decisionJson(log.recent(1)[0]!);
    const kinds = new Set(Object.values(before.nodes).flatMap((n) => Object.values(n.inputs ?? {}).map((x) => x.kind)));
    expect([...kinds].sort()).toEqual(['imageLocality', 'interPodAffinity', 'nodeAffinity', 'resources', 'taints', 'topologySpread']);
    const restored = fromPlain<DecisionLog>(JSON.parse(JSON.stringify(toPlain(log))));
    expect(decisionJson(restored.recent(1)[0]!)).toEqual(before);
  });
});
