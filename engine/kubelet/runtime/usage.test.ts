import { describe, expect, it } from 'vitest';
import { lookupImage, parseImage } from './images';
import { CPU_LOAD_ANNOTATION, cpuLoadMilli, idleOf, oomAt, spread, workingSetAt } from './usage';
import { HOUSEKEEPING_MS, UsageMeter } from './meter';

const MI = 1024 * 1024;

describe('the usage model', () => {
  it('idle images use a small fixed amount, spread ±10 % per container', () => {
    const nginx = lookupImage(parseImage('nginx:1.27'))!;
    const a = idleOf(nginx.idle, 'containerd://a');
    const b = idleOf(nginx.idle, 'containerd://b');
    expect(a.cpuMilli).toBeLessThan(1);
    expect(a.memoryBytes).toBeGreaterThan(3 * MI);
    expect(a.memoryBytes).toBeLessThan(5 * MI);
    expect(a.memoryBytes).not.toBe(b.memoryBytes);
    expect(idleOf(nginx.idle, 'containerd://a')).toEqual(a);
    for (const id of ['x', 'y', 'z', 'containerd://0123']) {
      expect(spread(id)).toBeGreaterThanOrEqual(0.9);
      expect(spread(id)).toBeLessThan(1.1);
    }
  });

  it('a working set grows at its rate to its allocation; the OOM instant is when it first passes the limit', () => {
    const m = { baseBytes: MI, allocBytes: 250 * MI, rateBytesPerSec: 1024 * MI, since: 5000 };
    expect(workingSetAt(m, 4000)).toBe(MI);
    expect(workingSetAt(m, 10_000)).toBe(251 * MI);
    const t = oomAt(m, 100 * MI)!;
    expect(workingSetAt(m, t)).toBeGreaterThanOrEqual(100 * MI);
    expect(workingSetAt(m, t - 1)).toBeLessThan(100 * MI);
    expect(oomAt(m, 300 * MI)).toBeNull();
    expect(oomAt(m, Infinity)).toBeNull();
  });

  it('hpa-example serves the load its pod annotation sets', () => {
    expect(cpuLoadMilli({ [CPU_LOAD_ANNOTATION]: '300m' })).toBe(300);
    expect(cpuLoadMilli({ [CPU_LOAD_ANNOTATION]: '1.5' })).toBe(1500);
    expect(cpuLoadMilli({ [CPU_LOAD_ANNOTATION]: 'lots' })).toBe(0);
    expect(cpuLoadMilli(undefined)).toBe(0);
  });
});

describe('the meter (cgroup accounting, cAdvisor samples)', () => {
  const idle = { cpuMilli: 0, memory: { baseBytes: 100 * MI, allocBytes: 0, rateBytesPerSec: 0, since: 0 } };
  const burner = (cpuMilli: number) => ({ cpuMilli, memory: { baseBytes: MI, allocBytes: 0, rateBytesPerSec: 0, since: 0 } });

  it('caps CPU at the limit and integrates it exactly across stops', () => {
    const m = new UsageMeter(4000, idle, 0);
    m.addPod('p', 'web', 'default', burner(0), 0);
    m.start({ id: 'c1', podUid: 'p', name: 'app', startedAt: 1000, stopAt: 31_000, demand: burner(2000), requestMilli: 500, limitMilli: 1000 }, 0);
    m.advance(61_000);
    // Throttled to 1 CPU for 30 s.
    expect(m.pods.get('p')!.cpuSeconds).toBeCloseTo(30, 9);
    expect(m.containers.has('c1')).toBe(false);
    // Samples every 10 s from the pod's appearance: the latest is at 60 s.
    expect(m.pods.get('p')!.sample).toMatchObject({ at: 60_000 });
    expect(m.pods.get('p')!.sample!.cpuSeconds).toBeCloseTo(30, 9);
    expect(m.nodeSample!.at).toBe(60_000);
  });

  it('samples a container at its start and every housekeeping interval after', () => {
    const m = new UsageMeter(4000, idle, 0);
    m.addPod('p', 'web', 'default', burner(0), 0);
    m.start({ id: 'c1', podUid: 'p', name: 'app', startedAt: 2500, stopAt: Infinity, demand: burner(500), requestMilli: 0, limitMilli: 0 }, 0);
    m.advance(2500);
    expect(m.containers.get('c1')!.sample).toEqual({ at: 2500, cpuSeconds: 0, workingSetBytes: MI });
    m.advance(2500 + HOUSEKEEPING_MS - 1);
    expect(m.containers.get('c1')!.sample!.at).toBe(2500);
    m.advance(2500 + 2 * HOUSEKEEPING_MS + 3);
    expect(m.containers.get('c1')!.sample!.at).toBe(22_500);
    expect(m.containers.get('c1')!.sample!.cpuSeconds).toBeCloseTo(10, 9);
  });

  it('shares an oversubscribed node by requests', () => {
    const m = new UsageMeter(2000, { ...idle, cpuMilli: 0 }, 0);
    m.addPod('a', 'a', 'default', burner(0), 0);
    m.addPod('b', 'b', 'default', burner(0), 0);
    m.start({ id: 'ca', podUid: 'a', name: 'app', startedAt: 0, stopAt: Infinity, demand: burner(4000), requestMilli: 1500, limitMilli: 0 }, 0);
    m.start({ id: 'cb', podUid: 'b', name: 'app', startedAt: 0, stopAt: Infinity, demand: burner(4000), requestMilli: 500, limitMilli: 0 }, 0);
    m.advance(10_000);
    expect(m.containers.get('ca')!.cpuSeconds).toBeCloseTo(15, 6);
    expect(m.containers.get('cb')!.cpuSeconds).toBeCloseTo(5, 6);
    expect(m.nodeCpuSeconds).toBeCloseTo(20, 6);
  });
});
