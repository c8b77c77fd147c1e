import { describe, expect, it } from 'vitest';
import { makePod } from '../testing/fixtures';
import { SchedulingGates } from './schedulingGates';

// Port of schedulinggates/scheduling_gates_test.go.
describe('SchedulingGates.preEnqueue (TestPreEnqueue)', () => {
  const pl = new SchedulingGates();
  it('pod does not carry scheduling gates', () => {
    expect(pl.preEnqueue(makePod('p'))).toBeNull();
    expect(pl.preEnqueue(makePod('p', { spec: { schedulingGates: [] } }))).toBeNull();
  });
  it('pod carries scheduling gates', () => {
    expect(pl.preEnqueue(makePod('p', { spec: { schedulingGates: [{ name: 'foo' }, { name: 'bar' }] } }))).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['waiting for scheduling gates: [foo bar]'],
    });
  });
});

describe('SchedulingGates queueing hint (Test_isSchedulableAfterUpdatePodSchedulingGatesEliminated)', () => {
  const pl = new SchedulingGates();
  const ev = pl.eventsToRegister()[0]!;
  it('registers Pod/UpdatePodSchedulingGatesEliminated', () => {
    expect(pl.eventsToRegister()).toEqual([{ resource: 'Pod', actions: ['UpdatePodSchedulingGatesEliminated'] }]);
  });
  it('skip-queue-on-other-pod-updated', () => {
    const pod = makePod('p', { uid: 'uid0', spec: { schedulingGates: [{ name: 'foo' }] } });
    const other = makePod('p1', { uid: 'uid1', spec: { schedulingGates: [{ name: 'foo' }] } });
    expect(pl.isSchedulableAfter(ev, pod, other, { ...other, spec: { ...other.spec, schedulingGates: [] } })).toBe('QueueSkip');
  });
  it('queue-on-the-unsched-pod-updated', () => {
    const pod = makePod('p', { spec: { schedulingGates: [{ name: 'foo' }] } });
    expect(pl.isSchedulableAfter(ev, pod, pod, makePod('p', { spec: { schedulingGates: [] } }))).toBe('Queue');
  });
});
