// Timer cancellation in the kernel (kept as per-word bitmaps, see kernel.ts):
// a cancelled timer never fires, every other one does, in time order, and the
// bookkeeping survives snapshots and long runs.
import { describe, expect, it } from 'vitest';
import type { Actor, ActorId, Payload } from './actor';
import { registerActorKind, Simulation, type ActorContext } from './kernel';
import { Rng } from './rng';
import { cloneState } from './serial';
import { registerClass } from './serial';

/** Records the timers that fire; hosts set and cancel them through its context. */
class TimerLog implements Actor {
  fired: string[] = [];
  start(): void {}
  receive(_ctx: ActorContext, _from: ActorId, _p: Payload): void {}
  timer(_ctx: ActorContext, tag: string): void {
    this.fired.push(tag);
  }
  persisted(): void {}
}
registerClass('test.TimerLog', TimerLog);
registerActorKind<null, null>({ kind: 'test-timer-log', initDurable: () => null, create: () => new TimerLog() });

function setup(): { sim: Simulation; ctx: ActorContext; log: () => TimerLog } {
  const sim = new Simulation({ seed: 1, traceCapacity: 10 });
  sim.spawn('t', 'test-timer-log', null);
  return { sim, ctx: sim.context('t'), log: () => sim.actor<TimerLog>('t')! };
}

describe('kernel timers', () => {
  it('never fires a cancelled timer; its neighbours still fire', () => {
    const { sim, ctx, log } = setup();
    const ids = [10, 20, 30, 40].map((d) => ctx.setTimer(d, `t${d}`));
    ctx.cancelTimer(ids[1]!);
    ctx.cancelTimer(ids[1]!); // twice is the same as once
    sim.runFor(35);
    expect(log().fired).toEqual(['t10', 't30']);
    ctx.cancelTimer(ids[0]!); // already fired: nothing happens
    ctx.cancelTimer(ids[3]!);
    sim.runFor(100);
    expect(log().fired).toEqual(['t10', 't30']);
    const again = ctx.setTimer(5, 'after');
    sim.runFor(10);
    expect(log().fired).toEqual(['t10', 't30', 'after']);
    expect(again).toBeGreaterThan(ids[3]!);
  });

  it('matches a naive model over thousands of timers with random cancels, across a snapshot', () => {
    let { sim, ctx } = setup();
    const rng = new Rng(42);
    const pending = new Map<number, { at: number; tag: string }>();
    const expected: { at: number; seq: number; tag: string }[] = [];
    let seq = 0;
    for (let step = 0; step < 4000; step++) {
      const delay = rng.chance(0.3) ? 8000 : rng.int(0, 50);
      const tag = `x${step}`;
      const id = ctx.setTimer(delay, tag);
      pending.set(id, { at: sim.now + delay, tag });
      expected.push({ at: sim.now + delay, seq: seq++, tag });
      if (rng.chance(0.4) && pending.size > 0) {
        const victims = [...pending.keys()];
        const victim = victims[rng.int(0, victims.length)]!;
        ctx.cancelTimer(victim);
        // Victims are always still pending (fired timers leave `pending` after each run).
        const tagOf = pending.get(victim)!.tag;
        pending.delete(victim);
        expected.splice(
          expected.findIndex((e) => e.tag === tagOf),
          1,
        );
      }
      if (step === 2000) {
        sim = cloneState(sim);
        ctx = sim.context('t');
      }
      sim.runFor(1);
      for (const [id, p] of pending) if (p.at <= sim.now) pending.delete(id);
    }
    sim.runFor(10_000);
    const want = expected.sort((a, b) => a.at - b.at || a.seq - b.seq).map((e) => e.tag);
    expect(sim.actor<TimerLog>('t')!.fired).toEqual(want);
  });
});
