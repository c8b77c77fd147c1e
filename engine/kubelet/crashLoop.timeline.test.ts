// Issue 5's CrashLoopBackOff timeline, in virtual time, to the tick: a
// container that exits at once is restarted at once the first time (at the
// next PLEG relist), then after 10, 20, 40, 80, 160 s and 300 s from then on,
// counted from each exit (the kubelet's flowcontrol.Backoff: 10 s doubling to
// 5 minutes, IsInBackOffSince the container's finishedAt). That a container
// running for more than 10 minutes starts afresh is backoff.test.ts's.
import { beforeAll, describe, expect, it } from 'vitest';
import { at, createPod, kubeletEvents, kubeletOf, podOf, statusOf, getPod, withNode } from './testing';
import type { Engine } from '../facade/engine';

interface Run {
  podUid: string;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
}

/** Every container instance the runtime ran, oldest first, sampled every `stepMs` for `forMs`. */
function instances(e: Engine, forMs: number, stepMs: number, sample?: () => void): Run[] {
  const seen = new Map<string, Run>();
  const end = e.sim.now + forMs;
  while (e.sim.now < end) {
    for (const c of kubeletOf(e).runtime.containers.values()) seen.set(c.id, { podUid: c.podUid, createdAt: c.createdAt, startedAt: c.startedAt, finishedAt: c.finishedAt });
    sample?.();
    e.advance(stepMs);
  }
  return [...seen.values()].sort((a, b) => a.createdAt - b.createdAt);
}

/** Seconds from each instance's exit to the next one's creation. */
const delays = (runs: Run[]) => runs.slice(1).map((r, i) => (r.createdAt - runs[i]!.finishedAt) / 1000);

describe('CrashLoopBackOff, to the tick', () => {
  // One node runs a pod whose container exits at once, for 16 minutes.
  let e: Engine;
  const messages: string[] = [];
  const restartCounts: number[] = [];
  let runs: Run[] = [];
  const of = (name: string) => runs.filter((r) => r.podUid === getPod(e, name).body.metadata.uid);

  beforeAll(() => {
    e = withNode(55);
    createPod(e, podOf('crash', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }]));
    runs = instances(e, 960_000, 1000, () => {
      const cs = statusOf(e, 'crash')?.containerStatuses?.[0];
      if (!cs) return;
      const m = cs.state?.waiting?.reason === 'CrashLoopBackOff' ? (cs.state.waiting.message as string) : undefined;
      if (m && messages[messages.length - 1] !== m) messages.push(m);
      if (restartCounts[restartCounts.length - 1] !== cs.restartCount) restartCounts.push(cs.restartCount);
    });
  }, 120_000);

  it('restarts at once, then after 10, 20, 40, 80, 160, 300, 300 s', () => {
    const crash = of('crash');
    expect(crash.length).toBeGreaterThanOrEqual(9);
    // Each instance exits as soon as it starts.
    for (const r of crash) expect(r.finishedAt - r.startedAt).toBeLessThan(1000);
    const d = delays(crash);
    // The first restart waits only for the next PLEG relist (1 s period).
    expect(d[0]).toBeGreaterThan(0);
    expect(d[0]).toBeLessThanOrEqual(1);
    expect(d.slice(1)).toEqual([10, 20, 40, 80, 160, ...d.slice(6).map(() => 300)]);
    expect(d.slice(1, 8)).toEqual([10, 20, 40, 80, 160, 300, 300]);

    // What the API shows meanwhile: the waiting message names the back-off; the restart count climbs one by one.
    const uid = getPod(e, 'crash').body.metadata.uid as string;
    const msg = (bo: string) => `back-off ${bo} restarting failed container=app pod=crash_default(${uid})`;
    expect(messages).toEqual(['10s', '20s', '40s', '1m20s', '2m40s', '5m0s'].map(msg));
    expect(restartCounts).toEqual(restartCounts.map((_, i) => restartCounts[0]! + i));
    const cs = statusOf(e, 'crash').containerStatuses[0];
    expect(cs.restartCount).toBe(crash.length - 1);
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    // The API's timestamps have one-second resolution.
    const lastExited = crash.filter((r) => r.finishedAt > 0).pop()!;
    expect(at(cs.lastState.terminated.finishedAt)).toBe(Math.floor(lastExited.finishedAt / 1000) * 1000);
    expect(kubeletEvents(e, 'crash')).toContain(`BackOff: Back-off restarting failed container app in pod crash_default(${uid})`);
  });
});
