// Periodic passes run beside the workqueue, as upstream's wait.Until loops do:
// an idle cluster's controllers show no workqueue retries for them.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../facade/engine';
import { PeriodicLoops } from './loops';

describe('PeriodicLoops', () => {
  it('hands out due passes soonest first, once each; an earlier time wins', () => {
    const l = new PeriodicLoops();
    l.schedule('b', 2000);
    l.schedule('a', 1000);
    l.schedule('b', 5000);
    l.schedule('c', 9000);
    expect(l.nextAt()).toBe(1000);
    expect(l.takeDue(999)).toEqual([]);
    expect(l.takeDue(2000)).toEqual(['a', 'b']);
    expect(l.takeDue(2000)).toEqual([]);
    expect(l.has('c')).toBe(true);
    expect(l.nextAt()).toBe(9000);
  });
});

describe("kube-controller-manager's periodic passes", () => {
  it('keep running without counting as workqueue adds or retries', { timeout: 60_000 }, () => {
    const e = Engine.create({ seed: 3, etcdMembers: 1, controlPlane: true, nodes: 2 });
    e.advance(60_000);
    const before = new Map(e.controllersView()!.controllers.map((c) => [c.name, c]));
    e.advance(120_000);
    const after = new Map(e.controllersView()!.controllers.map((c) => [c.name, c]));
    // monitorNodeHealth ran every 5 s all along: the node stayed Ready through it (its grace is 50 s).
    for (const name of ['node-controller', 'resourcequota-controller', 'persistent-volume-binder']) {
      expect(after.get(name), name).toBeDefined();
      expect(after.get(name)!.retries - before.get(name)!.retries, `${name} retries in two idle minutes`).toBe(0);
    }
    // Only the nodes' own updates (status every 5 minutes at most, none here) reach the node controller's queue.
    expect(after.get('node-controller')!.adds - before.get('node-controller')!.adds).toBeLessThanOrEqual(2);
  });
});
