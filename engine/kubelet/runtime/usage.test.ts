import { describe, expect, it } from 'vitest';
import { lookupImage, parseImage } from './images';
import { CPU_LOAD_ANNOTATION, demandOf, oomAfterMs, processArgv, spread, workingSetAt } from './usage';
import { HOUSEKEEPING_MS, UsageMeter } from './meter';

const MI = 1024 * 1024;
const image = (name: string) => lookupImage(parseImage(name))!;

describe('the usage model', () => {
  it('idle images use a small fixed amount, spread ±10 % per container', () => {
    const a = demandOf(image('nginx:1.27'), [], undefined, 'containerd://a');
    const b = demandOf(image('nginx:1.27'), [], undefined, 'containerd://b');
    expect(a.cpuMilli).toBeLessThan(1);
    expect(a.memory.baseBytes).toBeGreaterThan(3 * MI);
    expect(a.memory.baseBytes).toBeLessThan(5 * MI);
    expect(a.memory.baseBytes).not.toBe(b.memory.baseBytes);
    expect(demandOf(image('nginx:1.27'), [], undefined, 'containerd://a')).toEqual(a);
    for (const id of ['x', 'y', 'z', 'containerd://0123']) {
      expect(spread(id)).toBeGreaterThanOrEqual(0.9);
      expect(spread(id)).toBeLessThan(1.1);
    }
  });

  it('vish/stress -cpus N burns N CPUs (the entrypoint takes the args)', () => {
    const img = image('vish/stress');
    const argv = processArgv(img, undefined, ['-cpus', '2']);
    expect(argv).toEqual(['/stress', '-logtostderr', '-cpus', '2']);
    expect(Math.round(demandOf(img, argv, undefined, 'c').cpuMilli)).toBe(2000);
    // -mem-total grows 4Ki per 1ms: 4 096 000 B/s.
    const mem = demandOf(img, processArgv(img, undefined, ['-mem-total', '100Mi']), undefined, 'c').memory;
    expect(mem.allocBytes).toBe(100 * MI);
    expect(mem.rateBytesPerSec).toBe(4_096_000);
  });

  it('polinux/stress --vm 1 --vm-bytes 150M --vm-hang 1 holds 150 MiB', () => {
    const img = image('polinux/stress');
    const d = demandOf(img, processArgv(img, ['stress'], ['--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1']), undefined, 'c');
    expect(workingSetAt(d.memory, 10_000) - d.memory.baseBytes).toBe(150 * MI);
    // Mostly sleeping between rounds: well under a CPU.
    expect(d.cpuMilli).toBeLessThan(200);
    expect(d.cpuMilli).toBeGreaterThan(50);
    // Over a 200Mi limit it fits; over 100Mi, 250M is OOM-killed right after start.
    expect(oomAfterMs(d.memory, 200 * MI)).toBeNull();
    const big = demandOf(img, processArgv(img, ['stress'], ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1']), undefined, 'c');
    const t = oomAfterMs(big.memory, 100 * MI)!;
    expect(t).toBeGreaterThan(0);
    expect(t).toBeLessThan(200);
    expect(workingSetAt(big.memory, t)).toBeGreaterThanOrEqual(100 * MI);
    expect(workingSetAt(big.memory, t - 1)).toBeLessThan(100 * MI);
    // --cpu 2 spins two CPUs.
    expect(Math.round(demandOf(img, ['stress', '--cpu', '2'], undefined, 'c').cpuMilli)).toBe(2000);
  });

  it('hpa-example serves the load its pod annotation sets', () => {
    const img = image('registry.k8s.io/hpa-example');
    expect(demandOf(img, [], undefined, 'c').cpuMilli).toBeLessThan(2);
    expect(Math.round(demandOf(img, [], { [CPU_LOAD_ANNOTATION]: '300m' }, 'c').cpuMilli)).toBe(301);
    expect(Math.round(demandOf(img, [], { [CPU_LOAD_ANNOTATION]: 'lots' }, 'c').cpuMilli)).toBeLessThan(2);
  });
});

describe('the meter (cgroup accounting, cAdvisor samples)', () => {
  const idle = { cpuMilli: 0, memory: { baseBytes: 100 * MI, allocBytes: 0, rateBytesPerSec: 0 } };
  const burner = (cpuMilli: number) => ({ cpuMilli, memory: { baseBytes: MI, allocBytes: 0, rateBytesPerSec: 0 } });

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
