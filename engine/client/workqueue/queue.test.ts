import { describe, it, expect } from 'vitest';
import { WorkQueue } from './queue';
import { cloneState } from '../../sim/serial';

describe('WorkQueue (client-go util/workqueue queue.go)', () => {
  it('hands items out in the order added', () => {
    const q = new WorkQueue('test');
    for (const k of ['a', 'b', 'c']) q.add(k, 0);
    expect(q.len()).toBe(3);
    expect([q.get(1), q.get(1), q.get(1), q.get(1)]).toEqual(['a', 'b', 'c', null]);
  });

  it('coalesces an item added again before it is processed', () => {
    const q = new WorkQueue();
    q.add('a', 0);
    q.add('b', 0);
    q.add('a', 1);
    expect(q.pending()).toEqual(['a', 'b']);
    expect(q.metrics.adds).toBe(2);
    expect(q.metrics.depth).toBe(2);
  });

  it('never hands out an item being processed; re-added meanwhile, it comes back after done', () => {
    const q = new WorkQueue();
    q.add('a', 0);
    expect(q.get(1)).toBe('a');
    q.add('a', 2);
    expect(q.len()).toBe(0);
    expect(q.get(3)).toBeNull(); // a second worker gets nothing
    q.add('a', 4); // still one pending re-run
    q.done('a', 5);
    expect(q.pending()).toEqual(['a']);
    expect(q.get(6)).toBe('a');
    q.done('a', 7);
    expect(q.len()).toBe(0);
    expect(q.drained).toBe(true);
  });

  it('done on an item not being processed is a bug', () => {
    const q = new WorkQueue();
    q.add('a', 0);
    expect(() => q.done('a', 1)).toThrow(/not being processed/);
  });

  it('records depth, adds, queue latency and work duration on virtual time', () => {
    const q = new WorkQueue('deployment');
    q.add('a', 1_000);
    q.add('b', 1_500);
    q.add('a', 1_700); // coalesced: the wait counts from the first add
    expect(q.metrics.depth).toBe(2);
    expect(q.get(2_000)).toBe('a');
    expect(q.metrics.depth).toBe(1);
    expect(q.get(2_100)).toBe('b');
    expect(q.metrics.latency.count).toBe(2);
    expect(q.metrics.latency.sum).toBeCloseTo(1.0 + 0.6);
    expect(q.metrics.longestRunningProcessorSeconds(2_500)).toBeCloseTo(0.5);
    expect(q.metrics.unfinishedWorkSeconds(2_500)).toBeCloseTo(0.5 + 0.4);
    q.done('a', 2_250);
    expect(q.metrics.workDuration.count).toBe(1);
    expect(q.metrics.workDuration.sum).toBeCloseTo(0.25);
    // 0.25 s falls in the (0.1, 1] bucket.
    const i = q.metrics.workDuration.bounds.indexOf(1);
    expect(q.metrics.workDuration.counts[i]).toBe(1);
    expect(q.metrics.longestRunningProcessorSeconds(2_500)).toBeCloseTo(0.4);
    expect(q.metrics.samples[0]).toEqual({ item: 'a', addedAt: 1_000, startedAt: 2_000, doneAt: 2_250 });
    expect(q.metrics.samples[1]).toEqual({ item: 'b', addedAt: 1_500, startedAt: 2_100, doneAt: null });
  });

  it('an item re-added while processing counts in depth until handed out again', () => {
    const q = new WorkQueue();
    q.add('a', 0);
    q.get(0);
    q.add('a', 10);
    expect(q.metrics.depth).toBe(1);
    expect(q.len()).toBe(0);
    q.done('a', 20);
    q.get(30);
    expect(q.metrics.depth).toBe(0);
    expect(q.metrics.latency.sum).toBeCloseTo(0.02); // waited from 10 to 30
  });

  it('after shutDown new items are ignored, queued ones still handed out, then null', () => {
    const q = new WorkQueue();
    q.add('a', 0);
    q.add('b', 0);
    expect(q.get(0)).toBe('a');
    q.shutDownWithDrain();
    expect(q.shuttingDown).toBe(true);
    q.add('c', 1);
    expect(q.get(1)).toBe('b');
    expect(q.get(1)).toBeNull();
    expect(q.drained).toBe(false);
    q.done('a', 2);
    q.done('b', 2);
    expect(q.drained).toBe(true);
  });

  it('keeps order across many items (the head index compacts)', () => {
    const q = new WorkQueue<number>();
    const out: number[] = [];
    for (let i = 0; i < 500; i++) {
      q.add(i, i);
      if (i % 3 === 0) {
        const x = q.get(i)!;
        out.push(x);
        q.done(x, i);
      }
    }
    for (let x = q.get(1000); x !== null; x = q.get(1000)) out.push(x);
    expect(out).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it('a clone continues identically', () => {
    const q = new WorkQueue('x');
    for (const k of ['a', 'b', 'c', 'd']) q.add(k, 0);
    q.get(1);
    q.add('a', 2);
    const c = cloneState(q);
    expect(c).toBeInstanceOf(WorkQueue);
    const drive = (w: WorkQueue) => {
      const seen: (string | null)[] = [];
      w.done('a', 3);
      for (let t = 4; t < 10; t++) {
        const x = w.get(t);
        seen.push(x);
        if (x) w.done(x, t + 0.5);
      }
      return { seen, m: w.metrics.latency.sum, depth: w.metrics.depth };
    };
    expect(drive(c)).toEqual(drive(q));
  });
});
