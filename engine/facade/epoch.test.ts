// The epoch (the wall time virtual 0 stands for) is the simulation's: chosen
// at creation, written into every timestamp, kept by snapshots and replays.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { Engine } from './engine';

const CM = '/api/v1/namespaces/default/configmaps';
const EPOCH = Date.UTC(2026, 11, 1, 22, 0, 0);

describe('simulation epoch', () => {
  it('defaults to 2025-01-01; a chosen epoch stamps objects from that instant', () => {
    const plain = controlPlane(5, { etcdMembers: 1, schedulers: 0, storageDriver: false, metricsServer: false });
    expect(plain.state().epochMs).toBe(Date.UTC(2025, 0, 1));
    const a = call(plain, 'POST', CM, { metadata: { name: 'a' } }).body;
    expect(Date.parse(a.metadata.creationTimestamp)).toBe(Date.UTC(2025, 0, 1) + Math.floor(plain.sim.now / 1000) * 1000);

    const e = controlPlane(5, { etcdMembers: 1, schedulers: 0, storageDriver: false, metricsServer: false, epochMs: EPOCH });
    expect(e.state().epochMs).toBe(EPOCH);
    const b = call(e, 'POST', CM, { metadata: { name: 'b' } }).body;
    const at = EPOCH + Math.floor(e.sim.now / 1000) * 1000;
    expect(Date.parse(b.metadata.creationTimestamp)).toBe(at);
    // Controllers' events, leases' MicroTimes: the same clock.
    const lease = call(e, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager').body;
    expect(Math.abs(Date.parse(lease.spec.renewTime) - (EPOCH + e.sim.now))).toBeLessThan(10_000);

    // Interleaved engines each keep their own.
    const c = call(plain, 'POST', CM, { metadata: { name: 'c' } }).body;
    expect(c.metadata.creationTimestamp.startsWith('2025-01-01T')).toBe(true);
    const d = call(e, 'POST', CM, { metadata: { name: 'd' } }).body;
    expect(d.metadata.creationTimestamp.startsWith('2026-12-01T22:')).toBe(true);
  });

  it('a replay of the options and command log, and a restored snapshot, write the same timestamps', () => {
    const e = controlPlane(6, { etcdMembers: 1, schedulers: 0, storageDriver: false, metricsServer: false, epochMs: EPOCH });
    const created = call(e, 'POST', CM, { metadata: { name: 'x' } }).body;
    const replayed = Engine.replay(e.options, e.commands(), e.sim.now);
    expect(replayed.sim.epochMs).toBe(EPOCH);
    const again = call(replayed, 'GET', `${CM}/x`).body;
    expect(again.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(again.metadata.uid).toBe(created.metadata.uid);

    const snap = e.snapshot();
    controlPlane(7, { etcdMembers: 1, schedulers: 0, storageDriver: false, metricsServer: false }); // another epoch ran since
    const restored = Engine.restore(snap);
    const y = call(restored, 'POST', CM, { metadata: { name: 'y' } }).body;
    expect(Date.parse(y.metadata.creationTimestamp)).toBe(EPOCH + Math.floor(restored.sim.now / 1000) * 1000);
  });

  it('refuses an epoch that is not whole milliseconds', () => {
    expect(() => Engine.create({ seed: 1, etcdMembers: 1, epochMs: 1.5 })).toThrow(/epochMs/);
  });
});
