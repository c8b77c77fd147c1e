// The kubelet's event sink retries as client-go's recordToSink does: an Event
// write that got no answer (the node cut off from the API servers) is tried
// again after a random share of 10 s, then every 10 s, 12 tries in all; a
// refusal is not retried; a count bump whose Event is gone creates it anew.
import { describe, expect, it } from 'vitest';
import { call } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { createPod, podOf, statusOf, withNode } from './testing';
import { EVENT_MAX_TRIES, EVENT_RETRY_SLEEP_MS } from './events';

const EPOCH = Date.parse('2025-01-01T00:00:00Z');
const vt = (rfc: string) => Date.parse(rfc) - EPOCH;
const kubeletEventsOf = (e: ReturnType<typeof withNode>, pod: string) =>
  (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.involvedObject.name === pod && x.source.component === 'kubelet');

describe('the kubelet event sink', () => {
  it('what the kubelet said while cut off from the API servers arrives after the heal', { timeout: 60_000 }, () => {
    const e = withNode(11);
    createPod(e, podOf('crash', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2; exit 1'] }]));
    runUntil(e, () => (statusOf(e, 'crash')?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 'a restart', 60_000, 200);
    const cutAt = e.sim.now;
    const cut = e.exec({ type: 'fault', fault: { action: 'partition-node', target: 'node-1' } });
    expect(cut.ok).toBe(true);
    e.advance(60_000);
    const healAt = e.sim.now;
    expect(e.exec({ type: 'fault', fault: { action: 'heal-all' } }).ok).toBe(true);
    // Nothing the kubelet said while cut off is in the API yet...
    const during = (xs: any[]) => xs.filter((x) => vt(x.lastTimestamp) > cutAt + 5_000 && vt(x.lastTimestamp) < healAt);
    expect(during(kubeletEventsOf(e, 'crash'))).toEqual([]);
    // ...and once healed, the retries bring it in (each within 10 s of a try).
    e.advance(EVENT_RETRY_SLEEP_MS + 5_000);
    expect(during(kubeletEventsOf(e, 'crash')).length).toBeGreaterThan(0);
    // The writes went through the kubelet's own requests, after the heal.
    const late = e.requests(0, 200_000).filter((r) => r.user === 'system:node:node-1' && r.resource === 'events' && r.at >= healAt);
    expect(late.some((r) => r.code >= 200 && r.code < 300)).toBe(true);
  });

  it('gives up after 12 tries: a partition longer than the retries loses what was said at its start', { timeout: 60_000 }, () => {
    const e = withNode(12);
    createPod(e, podOf('crash', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2; exit 1'] }]));
    runUntil(e, () => (statusOf(e, 'crash')?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 'a restart', 60_000, 200);
    const cutAt = e.sim.now;
    expect(e.exec({ type: 'fault', fault: { action: 'partition-node', target: 'node-1' } }).ok).toBe(true);
    // Long enough for anything said in the first 20 s to exhaust its tries (at most 12 × 10 s after).
    e.advance(20_000 + EVENT_MAX_TRIES * EVENT_RETRY_SLEEP_MS + 60_000);
    const healAt = e.sim.now;
    expect(e.exec({ type: 'fault', fault: { action: 'heal-all' } }).ok).toBe(true);
    e.advance(3 * EVENT_RETRY_SLEEP_MS);
    const early = kubeletEventsOf(e, 'crash').filter((x) => vt(x.lastTimestamp) > cutAt + 5_000 && vt(x.lastTimestamp) < cutAt + 20_000);
    expect(early).toEqual([]);
    // later events still arrive: the sink gave up on those writes, not on the node
    expect(kubeletEventsOf(e, 'crash').some((x) => vt(x.lastTimestamp) > healAt - 60_000)).toBe(true);
  });

  it('a count bump whose Event was deleted creates it again, with its name and running count', { timeout: 60_000 }, () => {
    const e = withNode(13);
    createPod(e, podOf('crash', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1; exit 1'] }]));
    const started = () => kubeletEventsOf(e, 'crash').find((x) => x.reason === 'Started');
    runUntil(e, () => (started()?.count ?? 0) >= 2, 'a repeated Started', 120_000, 200);
    const before = started()!;
    expect(call(e, 'DELETE', `/api/v1/namespaces/default/events/${before.metadata.name}`).status).toBe(200);
    expect(started()).toBeUndefined();
    runUntil(e, () => started() !== undefined, 'Started again', 120_000, 200);
    const again = started()!;
    expect(again.metadata.name).toBe(before.metadata.name);
    expect(again.count).toBe(before.count + 1);
    expect(again.firstTimestamp).toBe(before.firstTimestamp);
    expect(again.metadata.uid).not.toBe(before.metadata.uid);
  });
});
