// TCP streams in the kernel (Http* payloads): a cut or a lossy path delays
// their messages instead of losing them; they arrive once, in order, at the
// first retransmission that gets through; a closed connection or a dead
// sender loses what was still held; TCP gives up after tcp_retries2.
import { describe, expect, it } from 'vitest';
import { Simulation, TCP_RTO_MIN_MS } from './kernel';
import { fromPlain, toPlain } from './serial';
import type { StreamActor } from './testActors';
import type { Payload } from './actor';
import './testActors';

function pair(seed = 1, count = 50, intervalMs = 100): Simulation {
  const sim = new Simulation({ seed, traceCapacity: 10_000 });
  sim.spawn('sink', 'stream', { to: null, count: 0, intervalMs });
  sim.spawn('src', 'stream', { to: 'sink', count, intervalMs });
  return sim;
}
const got = (sim: Simulation, type = 'HttpRequest') => sim.actor<StreamActor>('sink')!.got.filter((g) => g.type === type);
const seqs = (sim: Simulation, type?: string) => got(sim, type).map((g) => g.seq);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('TCP streams on the simulated network', () => {
  it('a 3 s cut delays the stream (in order, once) and loses the datagrams', () => {
    const sim = pair();
    sim.runFor(1_050); // 10 of each sent
    sim.network.block('src', 'sink');
    sim.runFor(3_000);
    expect(got(sim).length).toBe(10);
    const healAt = sim.now;
    sim.network.heal();
    sim.runFor(10_000);
    expect(seqs(sim)).toEqual(range(50));
    // Pings sent during the cut are gone.
    expect(seqs(sim, 'Ping').length).toBe(50 - 30);
    // The held ones came at the first retransmission after the heal (backed off to at most 1.6 s by then)...
    const first = got(sim).find((g) => g.seq === 10)!;
    expect(first.at).toBeGreaterThan(healAt);
    expect(first.at).toBeLessThan(healAt + 1_700);
    // ...and the trace says they were held, not dropped.
    const recs = sim.trace.records();
    expect(recs.some((r) => r.kind === 'held' && r.type === 'HttpRequest' && r.reason === 'partitioned')).toBe(true);
    expect(recs.some((r) => r.kind === 'drop' && r.type === 'HttpRequest')).toBe(false);
  });

  it('a message sent after the heal does not overtake held ones: it pushes them out at once (fast retransmit)', () => {
    const sim = pair(2, 500, 100);
    sim.runFor(1_050);
    sim.network.block('src', 'sink');
    sim.runFor(20_000); // the backoff is long by now (the next retransmission is seconds away)
    sim.network.heal();
    sim.runFor(150); // the next send comes within one interval
    expect(seqs(sim)).toEqual(range(got(sim).length));
    expect(got(sim).length).toBeGreaterThan(200);
  });

  it('loss, duplication and reordering on the link: every stream message exactly once, in order', () => {
    const sim = pair(3, 200, 10);
    sim.network.configure('*', '*', { loss: 0.5, duplicate: 0.5, reorder: true });
    sim.runFor(60_000);
    expect(seqs(sim)).toEqual(range(200));
    expect(seqs(sim, 'Ping').length).not.toBe(200); // datagrams: lost and duplicated
  });

  it('closing the connection drops what it held, both ways; what is written after goes on the new one', () => {
    const sim = pair(4, 30, 100);
    sim.runFor(1_050);
    sim.network.block('src', 'sink');
    sim.runFor(1_000);
    sim.context('src').closeConnection('sink');
    expect(sim.trace.records().filter((r) => r.kind === 'drop' && r.reason === 'connection-closed').length).toBe(10);
    sim.network.heal();
    sim.runFor(5_000);
    expect(seqs(sim)).toEqual([...range(10), ...range(30).slice(20)]);
  });

  it('after a close, what the peer still writes on the old connection goes nowhere, until the closer writes again', () => {
    const sim = new Simulation({ seed: 8, traceCapacity: 10_000 });
    sim.spawn('a', 'stream', { to: 'b', count: 3, intervalMs: 100 });
    sim.spawn('b', 'stream', { to: 'a', count: 200, intervalMs: 100 });
    const gotByA = () => sim.actor<StreamActor>('a')!.got.filter((g) => g.type === 'HttpRequest');
    sim.runFor(1_000);
    sim.network.partition([['a'], ['b']]);
    sim.runFor(1_000);
    sim.context('a').closeConnection('b');
    sim.network.heal();
    const before = gotByA().length;
    sim.runFor(3_000);
    expect(gotByA().length).toBe(before);
    expect(sim.trace.records().some((r) => r.kind === 'drop' && r.from === 'b' && r.reason === 'connection-closed')).toBe(true);
    // a writes to b: a new connection, and b's writes reach a again; b learns that the old one is dead
    // (a reset) before the new connection's first data.
    const gotByB = sim.actor<StreamActor>('b')!.got.length;
    sim.context('a').send('b', { type: 'HttpRequest', seq: 999 } as Payload);
    sim.runFor(1_000);
    expect(gotByA().length).toBeGreaterThan(before + 5);
    expect(sim.actor<StreamActor>('b')!.resets).toEqual([{ from: 'a', afterGot: gotByB }]);
    expect(sim.actor<StreamActor>('b')!.got.some((g) => g.seq === 999)).toBe(true);
  });

  it('a sender that dies loses what its TCP held', () => {
    const sim = pair(5, 30, 100);
    sim.runFor(1_050);
    sim.network.block('src', 'sink');
    sim.runFor(500);
    sim.crash('src');
    sim.network.heal();
    sim.runFor(5_000);
    expect(seqs(sim)).toEqual(range(10));
  });

  it('TCP gives up after 15 retransmissions (924.6 s from 200 ms)', () => {
    const sim = pair(6, 1, 100);
    sim.network.block('src', 'sink');
    sim.runFor(900_000);
    expect(sim.trace.records().some((r) => r.kind === 'drop' && r.type === 'HttpRequest')).toBe(false);
    sim.runFor(60_000);
    expect(sim.trace.records().some((r) => r.kind === 'drop' && r.type === 'HttpRequest' && r.reason === 'partitioned')).toBe(true);
    sim.network.heal();
    sim.runFor(200_000);
    expect(got(sim)).toEqual([]);
    expect(TCP_RTO_MIN_MS).toBe(200);
  });

  it('a snapshot taken while data is held resumes identically', () => {
    const sim = pair(7, 40, 100);
    sim.runFor(1_050);
    sim.network.block('src', 'sink');
    sim.runFor(2_000);
    const plain = JSON.parse(JSON.stringify(toPlain(sim)));
    sim.network.heal();
    sim.runFor(5_000);
    const restored = fromPlain<Simulation>(plain);
    restored.network.heal();
    restored.runFor(5_000);
    expect(restored.trace.digest()).toBe(sim.trace.digest());
    expect(seqs(restored)).toEqual(range(40));
  });
});
