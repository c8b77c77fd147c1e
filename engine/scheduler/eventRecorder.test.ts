import { describe, expect, it } from 'vitest';
import { EventRecorder } from './eventRecorder';
import type { KObject } from '../apimachinery/types';

const pod: KObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', uid: 'u1', resourceVersion: '7' } };
const nameOf = (a: { body?: unknown } | undefined) => (a!.body as { metadata: { name: string } }).metadata.name;

describe('scheduler event recorder', () => {
  it('names an event <object>.<unix nanos in hex>', () => {
    const r = new EventRecorder('default-scheduler', 'default-scheduler-kube-scheduler-0');
    const [a] = r.record({ regarding: pod, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: 'Successfully assigned default/web-1 to n1' }, 1500);
    expect(nameOf(a)).toBe(`web-1.${((BigInt(Date.UTC(2025, 0, 1)) + 1500n) * 1_000_000n).toString(16)}`);
  });

  it('two different events of one pod at one virtual instant get different names (a 409 would lose one)', () => {
    const r = new EventRecorder('default-scheduler', 'default-scheduler-kube-scheduler-0');
    const [a] = r.record({ regarding: pod, type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note: '0/3 nodes are available.' }, 2000);
    const [b] = r.record({ regarding: pod, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: 'Successfully assigned default/web-1 to n1' }, 2000);
    const [c] = r.record({ regarding: pod, type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note: 'skip schedule deleting pod: default/web-1' }, 2000);
    expect(new Set([nameOf(a), nameOf(b), nameOf(c)]).size).toBe(3);
    // A later instant starts over at its own nanosecond.
    const [d] = r.record({ regarding: pod, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: 'again' }, 2001);
    expect(nameOf(d)).toBe(`web-1.${((BigInt(Date.UTC(2025, 0, 1)) + 2001n) * 1_000_000n).toString(16)}`);
  });
});
