import { describe, expect, it } from 'vitest';
import { EventQueue } from './eventQueue';
import { Simulation } from './kernel';
import { cloneState, fromPlain, toPlain } from './serial';
import './testActors';
import type { PingDurable } from './testActors';

function cluster(seed: number, n = 4): Simulation {
  const sim = new Simulation({ seed, traceCapacity: 1000 });
  const ids = Array.from({ length: n }, (_, i) => `ping-${i}`);
  for (const id of ids) sim.spawn(id, 'ping', { peers: ids.filter((x) => x !== id), intervalMs: 5 });
  return sim;
}

function faultyRun(seed: number): Simulation {
  const sim = cluster(seed);
  sim.network.configure('*', '*', { loss: 0.1, duplicate: 0.05, reorder: true });
  sim.runFor(200);
  sim.network.partition([['ping-0'], ['ping-1', 'ping-2', 'ping-3']]);
  sim.crash('ping-2');
  sim.runFor(200);
  sim.restart('ping-2');
  sim.network.heal();
  sim.runFor(200);
  return sim;
}

describe('Simulation kernel', () => {
  it('is deterministic: the same seed and actions give the same trace hash (12 seeds)', () => {
    const digests = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const a = faultyRun(seed).trace.digest();
      const b = faultyRun(seed).trace.digest();
      expect(a).toBe(b);
      digests.add(a);
    }
    expect(digests.size).toBe(12); // and different seeds differ
  });

  it('orders same-instant events by scheduling order', () => {
    const q = new EventQueue<string>();
    q.push(5, 'a');
    q.push(1, 'first');
    q.push(5, 'b');
    q.push(5, 'c');
    const out: string[] = [];
    for (let it = q.pop(); it; it = q.pop()) out.push(it.event);
    expect(out).toEqual(['first', 'a', 'b', 'c']);
  });

  it('drops messages across a partition, and records why', () => {
    const sim = cluster(3);
    sim.network.partition([['ping-0'], ['ping-1', 'ping-2', 'ping-3']]);
    sim.runFor(300);
    const recs = sim.trace.records();
    const crossing = recs.filter((r) => r.kind === 'deliver' && (r.from === 'ping-0') !== (r.to === 'ping-0'));
    expect(crossing).toEqual([]);
    expect(recs.some((r) => r.kind === 'drop' && r.reason === 'partitioned')).toBe(true);
  });

  it('supports asymmetric partitions', () => {
    const sim = cluster(4, 2);
    sim.network.block('ping-0', 'ping-1');
    sim.runFor(300);
    const recs = sim.trace.records();
    expect(recs.some((r) => r.kind === 'deliver' && r.from === 'ping-0' && r.to === 'ping-1')).toBe(false);
    expect(recs.some((r) => r.kind === 'deliver' && r.from === 'ping-1' && r.to === 'ping-0')).toBe(true);
  });

  it('keeps FIFO order on links unless reordering is enabled', () => {
    const sim = cluster(5, 2);
    sim.network.configure('*', '*', { minMs: 0, maxMs: 20 });
    sim.runFor(500);
    const sendsOrder = sim.trace.records().filter((r) => r.kind === 'deliver' && r.from === 'ping-0').map((r) => r.msgId!);
    expect(sendsOrder).toEqual([...sendsOrder].sort((a, b) => a - b));
    const sim2 = cluster(5, 2);
    sim2.network.configure('*', '*', { minMs: 0, maxMs: 20, reorder: true });
    sim2.runFor(500);
    const order2 = sim2.trace.records().filter((r) => r.kind === 'deliver' && r.from === 'ping-0').map((r) => r.msgId!);
    expect(order2).not.toEqual([...order2].sort((a, b) => a - b));
  });

  it('loses unfinished disk writes and timers in a crash, keeps finished ones', () => {
    const sim = cluster(6, 2);
    sim.setFsyncLatency('ping-1', 1e9); // nothing ping-1 writes ever finishes
    sim.runFor(300);
    const before = sim.durable<PingDurable>('ping-0').counter;
    expect(before).toBeGreaterThan(0);
    expect(sim.durable<PingDurable>('ping-1').counter).toBe(0);
    sim.crash('ping-1');
    expect(sim.isUp('ping-1')).toBe(false);
    sim.runFor(300);
    expect(sim.trace.records().some((r) => r.kind === 'drop' && r.reason === 'target-down')).toBe(true);
    sim.setFsyncLatency('ping-1', 1);
    sim.restart('ping-1');
    sim.runFor(300);
    expect(sim.durable<PingDurable>('ping-1').counter).toBeGreaterThan(0);
    expect(sim.durable<PingDurable>('ping-0').counter).toBeGreaterThan(before);
  });

  it('snapshots as plain data: restore at t and rerun gives the same trace', () => {
    const sim = faultyRun(9);
    const plain = JSON.parse(JSON.stringify(toPlain(sim)));
    sim.runFor(500);
    const expected = sim.trace.digest();
    const restored = fromPlain<Simulation>(plain);
    restored.runFor(500);
    expect(restored.trace.digest()).toBe(expected);
    const again = cloneState(restored);
    expect(again.trace.digest()).toBe(expected);
  });
});
