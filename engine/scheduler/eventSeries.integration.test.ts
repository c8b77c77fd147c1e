// The scheduler's events.k8s.io recorder against the real API server: a pod
// that stays unschedulable is retried every 5 minutes (the unschedulable
// queue's leftover flush); with nothing changed, the repeat is counted on the
// Event it is isomorphic to, and if that Event was deleted in between, the
// series PATCH meets a 404 and the whole Event is created again (client-go
// tools/events recordEvent), with its name, its first note and the series.
import { describe, expect, it } from 'vitest';
import { call, controlPlane, createNode, createPod, runUntil } from './testing/cluster';

const failures = (e: ReturnType<typeof controlPlane>) =>
  (call(e, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events').body.items as any[]).filter((x) => x.reason === 'FailedScheduling' && x.regarding.name === 'big');

describe('scheduler event series', () => {
  it('a repeat whose Event was deleted creates it again as a series of 2', { timeout: 120_000 }, () => {
    const e = controlPlane(3);
    createNode(e, { name: 'small-1', cpu: '1' });
    createPod(e, { name: 'big', cpu: '2' });
    // The first failure's Event regards the pod as first seen; the status patch that follows makes a new
    // resourceVersion, so the next failure is a second Event, and the third (nothing changed) repeats it.
    runUntil(e, () => failures(e).length >= 2, 'a second FailedScheduling Event', 20 * 60_000, 1000);
    const second = failures(e).sort((a, b) => (a.eventTime < b.eventTime ? -1 : 1))[1];
    expect(second.series).toBeUndefined();
    const del = call(e, 'DELETE', `/apis/events.k8s.io/v1/namespaces/default/events/${second.metadata.name}`);
    expect(del.status).toBe(200);
    runUntil(e, () => failures(e).some((x) => x.metadata.name === second.metadata.name), 'the Event created again', 20 * 60_000, 1000);
    const again = failures(e).find((x) => x.metadata.name === second.metadata.name);
    expect(again.series.count).toBe(2);
    expect(again.note).toBe(second.note);
    expect(again.eventTime).toBe(second.eventTime);
    expect(again.metadata.uid).not.toBe(second.metadata.uid);
    // The scheduler's own requests: a PATCH answered 404, then the POST.
    const writes = e.requests(0, 100_000).filter((r) => r.resource === 'events' && r.client.startsWith('kube-scheduler') && (r.name === second.metadata.name || r.verb === 'create'));
    const patch404 = writes.findIndex((r) => r.verb === 'patch' && r.name === second.metadata.name && r.code === 404);
    expect(patch404).toBeGreaterThanOrEqual(0);
    expect(writes.slice(patch404 + 1).some((r) => r.verb === 'create' && r.code === 201)).toBe(true);
  });
});
