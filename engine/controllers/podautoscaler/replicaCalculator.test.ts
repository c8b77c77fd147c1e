// The replica calculator against the cases of upstream's replica_calculator_test.go.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { rfc3339 } from '../../apiserver/http/time';
import { parseGoDuration } from '../../apimachinery/duration';
import { DEFAULT_CALCULATOR, calculatePodRequests, groupPods, milliValue, podMetricsInfo, resourceReplicas } from './replicaCalculator';

const NOW = 3_600_000;

interface PodOpts {
  ready?: boolean;
  phase?: string;
  /** ms before NOW the pod started; default an hour (past the CPU initialization period). */
  startedAgo?: number;
  /** ms before NOW it became ready (or unready). */
  transitionAgo?: number;
  deleted?: boolean;
  request?: string | null;
}

function pod(name: string, o: PodOpts = {}) {
  const started = NOW - (o.startedAgo ?? 3_600_000);
  return {
    metadata: { name, namespace: 'default', ...(o.deleted ? { deletionTimestamp: rfc3339(NOW) } : {}) },
    spec: { containers: [{ name: 'c', resources: o.request === null ? {} : { requests: { cpu: o.request ?? '1' } } }] },
    status: {
      phase: o.phase ?? 'Running',
      startTime: rfc3339(started),
      conditions: [{ type: 'Ready', status: (o.ready ?? true) ? 'True' : 'False', lastTransitionTime: rfc3339(NOW - (o.transitionAgo ?? (o.startedAgo ?? 3_600_000) - 5_000)) }],
    },
  };
}

function metric(name: string, cpu: string, window = '15s', at = NOW - 5_000) {
  return { metadata: { name, namespace: 'default' }, timestamp: rfc3339(at), window, containers: [{ name: 'c', usage: { cpu } }] };
}

const calc = (current: number, target: { utilization: number } | { averageValue: number }, pods: any[], items: any[]) => resourceReplicas(current, target, 'cpu', '', items, pods, NOW, DEFAULT_CALCULATOR, parseGoDuration);

describe('resourceReplicas (utilization target)', () => {
  it('scales up by the usage ratio over the ready pods', () => {
    const pods = ['a', 'b', 'c'].map((n) => pod(n));
    const r = calc(3, { utilization: 30 }, pods, [metric('a', '300m'), metric('b', '500m'), metric('c', '700m')]);
    expect(r).toMatchObject({ ok: true, value: { replicas: 5, utilization: 50, raw: 500 } });
  });

  it('scales down by the usage ratio', () => {
    const pods = ['a', 'b', 'c', 'd', 'e'].map((n) => pod(n));
    const r = calc(5, { utilization: 50 }, pods, ['100m', '300m', '500m', '250m', '250m'].map((v, i) => metric('abcde'[i]!, v)));
    expect(r).toMatchObject({ ok: true, value: { replicas: 3, utilization: 28, raw: 280 } });
  });

  it('keeps the size within the 10 % tolerance', () => {
    const pods = [pod('a', { request: '900m' }), pod('b', { request: '1' }), pod('c', { request: '1100m' })];
    const r = calc(3, { utilization: 100 }, pods, [metric('a', '1010m'), metric('b', '1030m'), metric('c', '1020m')]);
    expect(r).toMatchObject({ ok: true, value: { replicas: 3, utilization: 102 } });
  });

  it('counts unready pods as idle on a scale-up (and leaves them out of the reported utilization)', () => {
    const pods = [pod('a', { ready: false }), pod('b'), pod('c')];
    const r = calc(3, { utilization: 30 }, pods, [metric('a', '300m'), metric('b', '500m'), metric('c', '700m')]);
    expect(r).toMatchObject({ ok: true, value: { replicas: 4, utilization: 60 } });
  });

  it('ignores unready pods on a scale-down', () => {
    const pods = [pod('a', { ready: false }), pod('b'), pod('c')];
    const r = calc(3, { utilization: 50 }, pods, [metric('a', '100m'), metric('b', '100m'), metric('c', '100m')]);
    expect(r).toMatchObject({ ok: true, value: { replicas: 1, utilization: 10 } });
  });

  it('counts pods without metrics at their whole request on a scale-down', () => {
    const pods = ['a', 'b', 'c', 'd'].map((n) => pod(n));
    // First ratio 10 % / 50 %; with d at 100 %: 1300m / 4000m = 32 % → ceil(0.65 × 4) = 3.
    const r = calc(4, { utilization: 50 }, pods, [metric('a', '100m'), metric('b', '100m'), metric('c', '100m')]);
    expect(r).toMatchObject({ ok: true, value: { replicas: 3, utilization: 10 } });
  });

  it('does not change the size when counting missing pods flips the direction', () => {
    const pods = ['a', 'b', 'c', 'd'].map((n) => pod(n));
    // 45 % alone is a scale-down; with d at 100 %: 58.75 % is above target.
    const r = calc(4, { utilization: 50 }, pods, [metric('a', '450m'), metric('b', '450m'), metric('c', '450m')]);
    expect(r).toMatchObject({ ok: true, value: { replicas: 4 } });
  });

  it('leaves out deleted and Failed pods, counts Pending ones as unready', () => {
    const pods = [pod('a', { deleted: true }), pod('b', { phase: 'Failed' }), pod('c', { phase: 'Pending' }), pod('d')];
    const r = calc(4, { utilization: 50 }, pods, [metric('a', '900m'), metric('b', '900m'), metric('c', '900m'), metric('d', '1')]);
    // d alone is at 100 % of its request (twice the target); with c counted idle, 50 %: within tolerance.
    expect(r).toMatchObject({ ok: true, value: { replicas: 4, utilization: 100 } });
  });

  it('treats a CPU metric taken before a whole window of readiness as unready, during the initialization period', () => {
    // Started 2 min ago, ready 10 s before the sample: its window (15 s) began before it was ready.
    const young = pod('a', { startedAgo: 120_000, transitionAgo: 15_000 });
    expect(groupPods([young], podMetricsInfoOf([metric('a', '500m', '15s', NOW - 5_000)]), 'cpu', NOW, DEFAULT_CALCULATOR).unready).toEqual(new Set(['a']));
    // Ready 30 s before the sample: counted.
    const settled = pod('a', { startedAgo: 120_000, transitionAgo: 35_000 });
    expect(groupPods([settled], podMetricsInfoOf([metric('a', '500m', '15s', NOW - 5_000)]), 'cpu', NOW, DEFAULT_CALCULATOR).readyPodCount).toBe(1);
    // Past the period, only a pod never ready since its first 30 s is unready.
    const late = pod('a', { ready: false, startedAgo: 600_000, transitionAgo: 590_000 });
    expect(groupPods([late], podMetricsInfoOf([metric('a', '500m')]), 'cpu', NOW, DEFAULT_CALCULATOR).unready.size).toBe(1);
    const flapped = pod('a', { ready: false, startedAgo: 600_000, transitionAgo: 60_000 });
    expect(groupPods([flapped], podMetricsInfoOf([metric('a', '500m')]), 'cpu', NOW, DEFAULT_CALCULATOR).readyPodCount).toBe(1);
    // Readiness does not matter for memory.
    expect(groupPods([young], new Map([['a', { timestamp: NOW, windowMs: 15_000, value: 1 }]]), 'memory', NOW, DEFAULT_CALCULATOR).readyPodCount).toBe(1);
  });

  it("fails with upstream's messages", () => {
    expect(calc(1, { utilization: 50 }, [pod('a')], [])).toEqual({ ok: false, error: 'unable to get metrics for resource cpu: no metrics returned from resource metrics API' });
    expect(calc(1, { utilization: 50 }, [], [metric('a', '1')])).toEqual({ ok: false, error: 'no pods returned by selector while calculating replica count' });
    expect(calc(1, { utilization: 50 }, [pod('a', { ready: false })], [metric('a', '1')])).toEqual({ ok: false, error: 'did not receive metrics for targeted pods (pods might be unready)' });
    expect(calc(1, { utilization: 50 }, [pod('a', { request: null })], [metric('a', '1')])).toEqual({ ok: false, error: 'missing request for cpu in container c of Pod a' });
  });
});

describe('resourceReplicas (average value target)', () => {
  it('scales by the average usage against the target value', () => {
    const pods = ['a', 'b', 'c'].map((n) => pod(n, { request: null }));
    const r = calc(3, { averageValue: 100 }, pods, [metric('a', '100m'), metric('b', '200m'), metric('c', '300m')]);
    expect(r).toEqual({ ok: true, value: { replicas: 6, raw: 200, timestamp: NOW - 5_000 } });
  });
});

describe('pod metrics and requests', () => {
  it('sums containers, and a pod missing the resource in a container has no metric', () => {
    const m = { metadata: { name: 'p' }, timestamp: rfc3339(NOW), window: '1m30s', containers: [{ name: 'a', usage: { cpu: '150m' } }, { name: 'b', usage: { cpu: '250000000n' } }] };
    const info = podMetricsInfo([m, { ...m, metadata: { name: 'q' }, containers: [{ name: 'a', usage: {} }] }], 'cpu', '', parseGoDuration);
    expect(info).toEqual({ ok: true, value: new Map([['p', { timestamp: NOW, windowMs: 90_000, value: 400 }]]) });
    expect(podMetricsInfo([m], 'cpu', 'b', parseGoDuration)).toEqual({ ok: true, value: new Map([['p', { timestamp: NOW, windowMs: 90_000, value: 250 }]]) });
    expect(podMetricsInfo([m], 'cpu', 'z', parseGoDuration)).toEqual({ ok: false, error: 'failed to get container metrics: container z not present in metrics for pod undefined/p' });
  });

  it('adds restartable init containers (sidecars) to the requests', () => {
    const p = { metadata: { name: 'p' }, spec: { initContainers: [{ name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } }, { name: 'init', resources: {} }], containers: [{ name: 'c', resources: { requests: { cpu: '0.5' } } }] } };
    expect(calculatePodRequests([p], '', 'cpu')).toEqual({ ok: true, value: new Map([['p', 600]]) });
    expect(calculatePodRequests([p], 'c', 'cpu')).toEqual({ ok: true, value: new Map([['p', 500]]) });
  });

  it('rounds milli-values up as Quantity.MilliValue does', () => {
    expect(milliValue('1500001n')).toBe(2);
    expect(milliValue('2')).toBe(2000);
    expect(milliValue('128Mi')).toBe(134_217_728_000);
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e9 }), (n) => milliValue(`${n}m`) === n));
  });
});

function podMetricsInfoOf(items: any[]) {
  const r = podMetricsInfo(items, 'cpu', '', parseGoDuration);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}
