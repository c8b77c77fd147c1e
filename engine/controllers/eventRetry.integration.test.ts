// kube-controller-manager's Event writes retry as client-go's recordToSink:
// a write that got no answer (its API server crashed under it) is tried again
// after a random share of 10 s, so what the ReplicaSet controller said just
// before the crash still arrives once the server is back.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';

const rs = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
};

describe('kube-controller-manager event retries', () => {
  it('SuccessfulCreate events whose writes got no answer arrive after the API server is back', { timeout: 60_000 }, () => {
    const e = controlPlane(7);
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/replicasets', rs).status).toBe(201);
    // Step until the manager has an Event write in flight, then crash its API server and bring it back.
    const kcm = e.sim.actor('kube-controller-manager-0') as unknown as { requests: Map<number, { kind: string }> };
    const eventsInFlight = () => [...kcm.requests.values()].filter((p) => p.kind === 'event').length;
    for (let i = 0; i < 100_000 && eventsInFlight() === 0; i++) e.sim.step();
    expect(eventsInFlight()).toBeGreaterThan(0);
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'kube-apiserver-0' } }).ok).toBe(true);
    const cutAt = e.sim.now;
    e.advance(500);
    expect(e.exec({ type: 'fault', fault: { action: 'restart', target: 'kube-apiserver-0' } }).ok).toBe(true);
    e.advance(30_000);
    const created = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((x) => x.reason === 'SuccessfulCreate' && x.involvedObject.name === 'web');
    expect(created).toHaveLength(3);
    // At least one of them was written on a retry, after the crash.
    const late = e.requests(0, 100_000).filter((r) => r.client === 'kube-controller-manager-0' && r.resource === 'events' && r.verb === 'create' && r.code === 201 && r.at > cutAt);
    expect(late.length).toBeGreaterThan(0);
  });
});
