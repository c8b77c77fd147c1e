import { describe, it, expect } from 'vitest';
import { DelayingQueue } from './delayingQueue';
import { cloneState } from '../../sim/serial';

describe('DelayingQueue (client-go delaying_queue.go)', () => {
  it('holds an item until its time; the owner schedules a timer from nextReadyAt', () => {
    const q = new DelayingQueue('d');
    q.addAfter('a', 500, 1_000);
    q.addAfter('b', 200, 1_000);
    expect(q.len()).toBe(0);
    expect(q.nextReadyAt()).toBe(1_200);
    q.tick(1_199);
    expect(q.len()).toBe(0);
    q.tick(1_200);
    expect(q.pending()).toEqual(['b']);
    expect(q.nextReadyAt()).toBe(1_500);
    expect(q.get(1_300)).toBe('b');
    expect(q.get(1_400)).toBeNull();
    expect(q.get(1_500)).toBe('a'); // get promotes what is due
    expect(q.nextReadyAt()).toBeNull();
  });

  it('a zero or negative delay adds at once', () => {
    const q = new DelayingQueue();
    q.addAfter('a', 0, 5);
    q.addAfter('b', -3, 5);
    expect(q.pending()).toEqual(['a', 'b']);
    expect(q.metrics.retries).toBe(2);
  });

  it('an item waiting twice keeps the sooner time', () => {
    const q = new DelayingQueue();
    q.addAfter('a', 1_000, 0);
    q.addAfter('a', 5_000, 0);
    expect(q.nextReadyAt()).toBe(1_000);
    q.addAfter('a', 300, 0);
    expect(q.waitingItems()).toEqual([{ item: 'a', readyAt: 300 }]);
    q.tick(10_000);
    expect(q.pending()).toEqual(['a']);
    expect(q.nextReadyAt()).toBeNull();
  });

  it('due items join the queue at their ready time, in time order, ahead of later adds', () => {
    const q = new DelayingQueue();
    q.addAfter('late', 300, 0);
    q.addAfter('early', 100, 0);
    q.addAfter('tie1', 200, 0);
    q.addAfter('tie2', 200, 0);
    q.add('direct', 250); // after early, tie1, tie2 became ready
    expect(q.pending()).toEqual(['early', 'tie1', 'tie2', 'direct']);
    q.tick(1_000);
    expect(q.pending()).toEqual(['early', 'tie1', 'tie2', 'direct', 'late']);
    // Latency is measured from the ready time, not from when the owner got round to it.
    expect(q.get(1_000)).toBe('early');
    expect(q.metrics.latency.sum).toBeCloseTo(0.9);
  });

  it('orders many random delays like a sort', () => {
    const q = new DelayingQueue<number>();
    const delays = Array.from({ length: 300 }, (_, i) => ((i * 7919) % 1000) + 1);
    delays.forEach((d, i) => q.addAfter(i, d, 0));
    const out: number[] = [];
    for (let t = q.nextReadyAt(); t !== null; t = q.nextReadyAt()) {
      q.tick(t);
      for (let x = q.get(t); x !== null; x = q.get(t)) out.push(x);
    }
    const want = delays.map((d, i) => ({ d, i })).sort((a, b) => a.d - b.d || a.i - b.i).map((x) => x.i);
    expect(out).toEqual(want);
  });

  it('shutting down drops the waiting items', () => {
    const q = new DelayingQueue();
    q.addAfter('a', 100, 0);
    q.shutDown();
    q.addAfter('b', 100, 0);
    q.tick(1_000);
    expect(q.len()).toBe(0);
    expect(q.nextReadyAt()).toBeNull();
  });

  it('a clone continues identically', () => {
    const q = new DelayingQueue<number>();
    for (let i = 0; i < 50; i++) q.addAfter(i, (i * 37) % 101, 0);
    q.tick(40);
    const c = cloneState(q);
    const drain = (x: DelayingQueue<number>) => {
      const out: [number, number][] = [];
      for (let t = x.nextReadyAt(); t !== null; t = x.nextReadyAt()) {
        x.tick(t);
        if (t < 300) x.addAfter(t % 7, 13, t);
        for (let y = x.get(t); y !== null; y = x.get(t)) {
          out.push([t, y]);
          x.done(y, t);
        }
      }
      return out;
    };
    expect(drain(c)).toEqual(drain(q));
  });
});
