// `npm run bench [kernel|etcd|harness|apiserver|scheduler|fleet|map]`: figures for the kernel, the simulated etcd cluster, kube-apiserver, kube-scheduler, the node fleet and the cluster map (in Chromium).
// Prints each figure and its ratio to the goal in the issue; record notable
// results in bench/RESULTS.md with the command that produced them.
import { performance } from 'node:perf_hooks';
import { Engine } from '../engine/index';
import { Simulation } from '../engine/sim/kernel';
import '../engine/sim/testActors';
import { apiserverBench } from './apiserver';
import { schedulerBench } from './scheduler';
import { mapBench } from './map';
import { fleetBench } from './fleet';
import { liveHeapMiB } from './heap';

interface Figure {
  name: string;
  value: number;
  unit: string;
  goal?: number;
}

const figures: Figure[] = [];

/** CPU seconds (user + system) of this process since `since`: less noisy than wall time on a shared machine. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}
const only = process.argv.slice(2).find((a) => !a.startsWith('-'));

function report(f: Figure): void {
  figures.push(f);
  const ratio = f.goal ? `  (${(f.value / f.goal).toFixed(2)}× the goal of ${f.goal.toLocaleString('en-US')})` : '';
  console.log(`${f.name.padEnd(52)} ${f.value.toLocaleString('en-US', { maximumFractionDigits: 1 }).padStart(14)} ${f.unit}${ratio}`);
}

/** Kernel: events per wall second with 64 ping actors (messages, timers, fsyncs). */
function kernelEvents(): void {
  const ids = Array.from({ length: 64 }, (_, i) => `ping-${i}`);
  const sim = new Simulation({ seed: 7, traceCapacity: 1024 });
  for (const id of ids) sim.spawn(id, 'ping', { peers: ids.filter((x) => x !== id), intervalMs: 1 });
  sim.runFor(200); // warm up
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const startEvents = sim.processed;
  while (performance.now() - start < 3000) sim.runFor(100);
  const secs = (performance.now() - start) / 1000;
  const cpuSecs = cpuSeconds(cpu0);
  const events = sim.processed - startEvents;
  report({ name: 'kernel: events per second (64 actors)', value: events / secs, unit: 'events/s', goal: 2_000_000 });
  report({ name: 'kernel: events per CPU second (64 actors)', value: events / cpuSecs, unit: 'events/s', goal: 2_000_000 });
}

/**
 * etcd: simulated seconds per wall second, 5 members, 1,000 writes/s of client
 * load from a load generator inside the simulation (like etcd's `benchmark put`).
 * Two consecutive windows on one cluster: the first 20 s include V8's warm-up
 * (what a freshly opened tab sees in its first half second), the next 60 s are
 * the steady state, the sustained rate the goal is about (the kernel's figure
 * is likewise taken after a warm-up).
 */
function etcdThroughput(): void {
  const engine = Engine.create({ seed: 3, etcdMembers: 5, extraClients: 0 });
  engine.advance(3000); // elect a leader
  const r = engine.exec({ type: 'load', rate: 1000, keySpace: 500, valueSize: 8 });
  if (!r.ok) throw new Error(r.error);
  const cpu: number[] = [];
  const window = (simulatedMs: number): number => {
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    engine.advance(simulatedMs);
    cpu.push(cpuSeconds(cpu0));
    return (performance.now() - start) / 1000;
  };
  const ok0 = engine.loadStats()!.succeeded;
  const cold = window(20_000);
  const ok1 = engine.loadStats()!.succeeded;
  const warm = window(60_000);
  const stats = engine.loadStats()!;
  report({ name: 'etcd: simulated s per wall s, first 20 s (cold JIT)', value: 20 / cold, unit: '×' });
  report({ name: 'etcd: simulated s per wall s, next 60 s (steady)', value: 60 / warm, unit: '×', goal: 50 });
  report({ name: 'etcd: simulated s per CPU s, first 20 s (cold JIT)', value: 20 / cpu[0]!, unit: '×' });
  report({ name: 'etcd: simulated s per CPU s, next 60 s (steady)', value: 60 / cpu[1]!, unit: '×', goal: 50 });
  console.log(`etcd: trace ${engine.sim.trace.digest()}`);
  report({ name: 'etcd: writes committed per wall second (steady)', value: (stats.succeeded - ok1) / warm, unit: 'writes/s' });
  report({ name: 'etcd: mean put latency (virtual)', value: stats.latencySumMs / Math.max(1, stats.succeeded + stats.failed), unit: 'ms' });
  if (ok1 - ok0 < 19_000 || stats.succeeded - ok1 < 57_000 || stats.failed > 0) console.log(`warning: ${ok1 - ok0} and ${stats.succeeded - ok1} puts succeeded, ${stats.failed} failed`);
  const mem = liveHeapMiB();
  report({ name: 'etcd: live heap after 80 s (5 members, 80k puts)', value: mem, unit: 'MiB' });
}

async function harnessSeeds(): Promise<void> {
  let mod: { runSeed?: (seed: number, opts?: { members?: number }) => unknown };
  try {
    mod = (await import('../engine/etcd/harness/run')) as typeof mod;
  } catch {
    console.log('harness: not available (engine/etcd/harness/run.ts)');
    return;
  }
  if (!mod.runSeed) return;
  const start = performance.now();
  let seeds = 0;
  while (performance.now() - start < 20_000) {
    mod.runSeed(1000 + seeds, { members: seeds % 2 === 0 ? 3 : 5 });
    seeds++;
  }
  report({ name: 'safety harness: seeds per minute', value: (seeds * 60_000) / (performance.now() - start), unit: 'seeds/min' });
}

if (!only || only === 'kernel') kernelEvents();
if (!only || only === 'etcd') etcdThroughput();
if (!only || only === 'harness') await harnessSeeds();
if (!only || only === 'apiserver') apiserverBench(report);
if (!only || only === 'scheduler') schedulerBench(report);
if (!only || only === 'map') await mapBench(report);
if (!only || only === 'fleet') fleetBench(report);
