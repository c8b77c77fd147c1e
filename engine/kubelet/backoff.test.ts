// The crash-loop back-off as the pod sync uses it (pod/sync.ts: IsInBackOffSince
// the last exit, then Next when it restarts): 10 s doubling to 5 minutes, and
// a fresh start once more than twice the maximum (10 minutes) passed between
// the last restart and the next exit.
import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff';

/** A container that runs `runMs` each time; the kubelet restarts it as soon as the back-off allows. Delays in seconds. */
function restartDelays(runMs: number, restarts: number): number[] {
  const bo = new Backoff();
  const delays: number[] = [];
  let startedAt = 0;
  for (let i = 0; i < restarts; i++) {
    const finishedAt = startedAt + runMs;
    let now = finishedAt;
    while (bo.inBackoffSince('c', finishedAt, now)) now += 1;
    bo.next('c', finishedAt, now);
    delays.push((now - finishedAt) / 1000);
    startedAt = now;
  }
  return delays;
}

describe('the crash-loop back-off', () => {
  it('doubles from 10 s up to 5 minutes', () => {
    expect(restartDelays(0, 9)).toEqual([0, 10, 20, 40, 80, 160, 300, 300, 300]);
  });

  it('keeps growing for a container that runs just under 10 minutes each time', () => {
    expect(restartDelays(590_000, 5)).toEqual([0, 10, 20, 40, 80]);
  });

  it('starts afresh for one that ran more than 10 minutes since its last restart', () => {
    expect(restartDelays(600_001, 5)).toEqual([0, 0, 0, 0, 0]);
    // Exactly 10 minutes is not more.
    expect(restartDelays(600_000, 3)).toEqual([0, 10, 20]);
  });

  it('forgets idle entries on GC after 10 minutes', () => {
    const bo = new Backoff();
    bo.next('c', 0, 0);
    bo.gc(600_000);
    expect(bo.get('c')).toBe(10_000);
    bo.gc(600_001);
    expect(bo.get('c')).toBe(0);
  });
});
