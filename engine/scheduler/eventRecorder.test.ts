import { describe, expect, it } from 'vitest';
import { EventRecorder, SERIES_FINISH_MS } from './eventRecorder';
import { eventRequest } from '../client/eventSink';
import type { KObject } from '../apimachinery/types';
import type { EventWrite } from '../client/eventSink';

const pod: KObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', uid: 'u1', resourceVersion: '7' } };
const bodyOf = (w: EventWrite | undefined) => JSON.parse(w!.create.body) as { metadata: { name: string }; note: string; series?: { count: number; lastObservedTime: string }; regarding: Record<string, string> };
const nameOf = (w: EventWrite | undefined) => bodyOf(w).metadata.name;
const failed = (note: string, regarding = pod) => ({ regarding, type: 'Warning' as const, reason: 'FailedScheduling', action: 'Scheduling', note });

describe('scheduler event recorder', () => {
  it('names an event <object>.<unix nanos in hex>', () => {
    const r = new EventRecorder('default-scheduler', 'default-scheduler-kube-scheduler-0');
    const [a] = r.record({ regarding: pod, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: 'Successfully assigned default/web-1 to n1' }, 1500);
    expect(nameOf(a)).toBe(`web-1.${((BigInt(Date.UTC(2025, 0, 1)) + 1500n) * 1_000_000n).toString(16)}`);
    expect(eventRequest(a!)).toMatchObject({ method: 'POST', path: '/apis/events.k8s.io/v1/namespaces/default/events' });
    expect(bodyOf(a).regarding).toEqual({ kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u1', apiVersion: 'v1', resourceVersion: '7' });
  });

  it('two different events of one pod at one virtual instant get different names (a 409 would lose one)', () => {
    const r = new EventRecorder('default-scheduler', 'default-scheduler-kube-scheduler-0');
    const [a] = r.record(failed('0/3 nodes are available.'), 2000);
    const [b] = r.record({ regarding: pod, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: 'Successfully assigned default/web-1 to n1' }, 2000);
    const [c] = r.record({ regarding: pod, type: 'Warning', reason: 'FailedScheduling', action: 'Deleting', note: 'skip schedule deleting pod: default/web-1' }, 2000);
    expect(new Set([nameOf(a), nameOf(b), nameOf(c)]).size).toBe(3);
    const [d] = r.record({ regarding: pod, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: 'again' }, 2001);
    // Isomorphic to b (the note is not part of the key): b becomes a series.
    expect(eventRequest(d!)).toMatchObject({ method: 'PATCH', path: `/apis/events.k8s.io/v1/namespaces/default/events/${nameOf(b)}` });
  });

  it('a repeat (whatever its note) becomes a series of 2 written at once; later repeats only count until the 30-minute refresh', () => {
    const r = new EventRecorder('default-scheduler', 'default-scheduler-kube-scheduler-0');
    const [first] = r.record(failed('0/3 nodes are available: 3 Insufficient cpu.'), 1000);
    const [second] = r.record(failed('0/4 nodes are available: 4 Insufficient cpu.'), 5000);
    expect(eventRequest(second!)).toEqual({
      method: 'PATCH',
      path: `/apis/events.k8s.io/v1/namespaces/default/events/${nameOf(first)}`,
      body: JSON.stringify({ series: { count: 2, lastObservedTime: '2025-01-01T00:00:05.000000Z' } }),
      contentType: 'application/strategic-merge-patch+json',
    });
    // Its fallback create is the first Event, first note, with the series.
    expect(bodyOf(second)).toMatchObject({ note: '0/3 nodes are available: 3 Insufficient cpu.', series: { count: 2 } });
    expect(r.record(failed('x'), 6000)).toEqual([]);
    expect(r.record(failed('y'), 7000)).toEqual([]);
    const [refresh] = r.refresh();
    expect(JSON.parse(eventRequest(refresh!).body)).toEqual({ series: { count: 4, lastObservedTime: '2025-01-01T00:00:07.000000Z' } });
  });

  it('a new resourceVersion of the pod is another object reference, so another Event', () => {
    const r = new EventRecorder('default-scheduler', 'default-scheduler-kube-scheduler-0');
    const [a] = r.record(failed('n'), 1000);
    const [b] = r.record(failed('n', { ...pod, metadata: { ...pod.metadata, resourceVersion: '8' } }), 2000);
    expect(eventRequest(b!).method).toBe('POST');
    expect(nameOf(b)).not.toBe(nameOf(a));
  });

  it('every 6 minutes: an idle series gets its final count and is forgotten, and so is an old single event', () => {
    const r = new EventRecorder('default-scheduler', 'default-scheduler-kube-scheduler-0');
    r.record(failed('n'), 0);
    r.record(failed('n'), 1000);
    r.record(failed('n'), 2000);
    const single = { regarding: pod, type: 'Normal' as const, reason: 'Scheduled', action: 'Binding', note: 'ok' };
    r.record(single, 0);
    expect(r.finish(SERIES_FINISH_MS)).toEqual([]); // observed 6 minutes ago minus 2 s: not yet
    const [final] = r.finish(SERIES_FINISH_MS + 2001);
    expect(JSON.parse(eventRequest(final!).body)).toEqual({ series: { count: 3, lastObservedTime: '2025-01-01T00:00:02.000000Z' } });
    // Both forgotten: the next occurrence of either is a new Event.
    expect(eventRequest(r.record(failed('n'), SERIES_FINISH_MS + 3000)[0]!).method).toBe('POST');
    expect(eventRequest(r.record(single, SERIES_FINISH_MS + 3000)[0]!).method).toBe('POST');
    expect(r.refresh()).toEqual([]);
  });
});
