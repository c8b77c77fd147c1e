import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { rfc3339, rfc3339Micro } from '../../apiserver/http/time';
import { cloneState } from '../../sim/serial';
import { FakeContext } from '../framework/testing';
import { NodeLifecycleController, readyCondition } from './controller';
import { RateLimitedTimedQueue, TokenBucket } from './rateLimitedTimedQueue';
import { taintsOf } from './taints';

function node(name: string, t: number, opts: { ready?: string; labels?: Record<string, string>; noReady?: boolean; conditions?: object[] } = {}): KObject {
  const conditions = opts.noReady
    ? []
    : [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', lastHeartbeatTime: rfc3339(t), lastTransitionTime: rfc3339(0) },
        { type: 'Ready', status: opts.ready ?? 'True', reason: 'KubeletReady', lastHeartbeatTime: rfc3339(t), lastTransitionTime: rfc3339(0) },
        ...(opts.conditions ?? []),
      ];
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}`, resourceVersion: '1', creationTimestamp: rfc3339(0), labels: opts.labels ?? {} }, spec: {}, status: { conditions } };
}

function lease(name: string, t: number): KObject {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(t) } };
}

/** Applies the controller's node writes to the store, as the API server and the informer would. */
const log: { path: string; method: string }[] = [];
function applyCalls(ctx: FakeContext, c: NodeLifecycleController): void {
  while (ctx.calls.length) {
    const { call } = ctx.calls[0]!;
    log.push({ path: call.path, method: call.method });
    const nodes = ctx.store('nodes') as Map<string, KObject>;
    const m = /^\/api\/v1\/nodes\/([^/]+)(\/status)?$/.exec(call.path);
    if (m && call.method === 'PUT') {
      ctx.respond(c, 200);
      ctx.upsert(c, 'nodes', call.body as KObject);
    } else if (m && call.method === 'PATCH') {
      const n = structuredClone(nodes.get(m[1]!)!);
      n.spec = { ...(n.spec as object), taints: (call.body as { spec: { taints: unknown } }).spec.taints };
      ctx.respond(c, 200);
      ctx.upsert(c, 'nodes', n);
    } else ctx.respond(c, 200);
  }
}

/** Runs the controller to virtual time `until`, in 100 ms steps; `each` runs first at every step. */
const noExecute = (n: KObject) => taintsOf(n).filter((t) => t.effect === 'NoExecute');

function run(ctx: FakeContext, c: NodeLifecycleController, until: number, each?: (t: number) => void): void {
  while (ctx.now < until) {
    ctx.now += 100;
    each?.(ctx.now);
    ctx.drain(c);
    applyCalls(ctx, c);
  }
}

function renewEvery10s(ctx: FakeContext, c: NodeLifecycleController, names: string[], stopAt = Infinity) {
  return (t: number) => {
    if (t % 10_000 === 0 && t <= stopAt) for (const n of names) ctx.upsert(c, 'leases', lease(n, t));
  };
}

describe('NodeLifecycleController: node health', () => {
  it('marks every condition Unknown once no heartbeat was observed for 50 s, on the monitor tick', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    ctx.upsert(c, 'nodes', node('a', 0));
    ctx.drain(c);
    expect(ctx.events.map((e) => e.reason)).toEqual(['RegisteredNode']);
    let unknownAt = -1;
    run(ctx, c, 70_000, (t) => {
      const r = readyCondition(ctx.store('nodes').get('a')!);
      if (unknownAt < 0 && r?.status === 'Unknown') unknownAt = t;
    });
    // probe 0 + 50 s is not yet exceeded at 50 s; the 55 s tick writes it.
    expect(unknownAt).toBe(55_100);
    const n = ctx.store('nodes').get('a')!;
    const conds = (n.status as { conditions: { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[] }).conditions;
    expect(conds.map((x) => [x.type, x.status, x.reason])).toEqual([
      ['MemoryPressure', 'Unknown', 'NodeStatusUnknown'],
      ['Ready', 'Unknown', 'NodeStatusUnknown'],
      ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated'],
      ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated'],
    ]);
    expect(conds[1]!.message).toBe('Kubelet stopped posting node status.');
    expect(conds[1]!.lastTransitionTime).toBe(rfc3339(55_000));
    expect(ctx.events.some((e) => e.reason === 'NodeNotReady' && e.message === 'Node a status is now: NodeNotReady')).toBe(true);
  });

  it('Lease renewals keep a node healthy; the grace period runs from the last renewal observed', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    ctx.upsert(c, 'nodes', node('a', 0));
    ctx.upsert(c, 'leases', lease('a', 0));
    let unknownAt = -1;
    run(ctx, c, 200_000, (t) => {
      renewEvery10s(ctx, c, ['a'], 100_000)(t);
      if (unknownAt < 0 && readyCondition(ctx.store('nodes').get('a')!)?.status === 'Unknown') unknownAt = t;
    });
    // Last renewal seen at 100 s; 150 s is not past the grace period, 155 s is.
    expect(unknownAt).toBe(155_200);
  });

  it('a Ready heartbeat alone (no Lease) also counts', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    ctx.upsert(c, 'nodes', node('a', 0));
    run(ctx, c, 120_000, (t) => {
      if (t % 10_000 === 0 && t <= 40_000) ctx.upsert(c, 'nodes', node('a', t));
    });
    expect(readyCondition(ctx.store('nodes').get('a')!)?.status).toBe('Unknown');
    expect(readyCondition(ctx.store('nodes').get('a')!)?.lastTransitionTime).toBe(rfc3339(95_000));
  });

  it('a node that never posted status gets the 60 s startup grace period from its creation', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    ctx.upsert(c, 'nodes', node('a', 0, { noReady: true }));
    let unknownAt = -1;
    run(ctx, c, 80_000, (t) => {
      if (unknownAt < 0 && readyCondition(ctx.store('nodes').get('a')!)) unknownAt = t;
    });
    expect(unknownAt).toBe(60_200);
    const r = readyCondition(ctx.store('nodes').get('a')!)!;
    expect([r.status, r.reason, r.message]).toEqual(['Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.']);
  });

  it('marks the pods of a node that stops being Ready NotReady, with a NodeNotReady event', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    ctx.upsert(c, 'nodes', node('a', 0));
    ctx.upsert(c, 'pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { nodeName: 'a' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    log.length = 0;
    run(ctx, c, 56_000);
    expect(log.filter((x) => x.path === '/api/v1/namespaces/default/pods/p/status' && x.method === 'PUT').length).toBe(1);
    expect(ctx.events.some((e) => e.reason === 'NodeNotReady' && e.message === 'Node is not ready' && e.type === 'Warning')).toBe(true);
  });
});

describe('NodeLifecycleController: NoExecute taints', () => {
  it('taints an unreachable node one monitor period after it goes Unknown, and untaints it when Ready', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    for (const n of ['a', 'b']) {
      ctx.upsert(c, 'nodes', node(n, 0));
      ctx.upsert(c, 'leases', lease(n, 0));
    }
    let taintAt = -1;
    const renewB = renewEvery10s(ctx, c, ['b']);
    run(ctx, c, 100_000, (t) => {
      renewB(t);
      if (taintAt < 0 && noExecute(ctx.store('nodes').get('a')!).length) taintAt = t;
    });
    // Unknown written at 55 s; the 60 s pass sees it and queues the node; the tainting pass patches at once.
    expect(taintAt).toBe(60_200);
    const taints = taintsOf(ctx.store('nodes').get('a')!);
    expect(taints).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: rfc3339(55_000) },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: rfc3339(60_000) },
    ]);
    expect(taintsOf(ctx.store('nodes').get('b')!)).toEqual([]);
    // Node a comes back.
    ctx.upsert(c, 'leases', lease('a', ctx.now));
    ctx.upsert(c, 'nodes', node('a', ctx.now));
    run(ctx, c, 106_000, renewB);
    expect(taintsOf(ctx.store('nodes').get('a')!)).toEqual([]);
  });

  it('swaps unreachable for not-ready at once when the node reports Ready=False', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    for (const n of ['a', 'b']) ctx.upsert(c, 'nodes', node(n, 0));
    const n0 = node('a', 0);
    n0.spec = { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: rfc3339(0) }] };
    (n0.status as { conditions: { status: string }[] }).conditions[1]!.status = 'False';
    ctx.upsert(c, 'nodes', n0);
    ctx.drain(c);
    const patches = ctx.calls.filter((x) => x.call.method === 'PATCH').map((x) => (x.call.body as { spec: { taints: { key: string; effect: string }[] } }).spec.taints);
    expect(patches.some((t) => t.some((x) => x.key === 'node.kubernetes.io/not-ready' && x.effect === 'NoExecute') && !t.some((x) => x.key === 'node.kubernetes.io/unreachable' && x.effect === 'NoExecute'))).toBe(true);
  });

  it('adds NoSchedule taints mirroring conditions and unschedulable', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    const n = node('a', 0, { conditions: [{ type: 'DiskPressure', status: 'True' }] });
    n.spec = { unschedulable: true };
    ctx.upsert(c, 'nodes', n);
    ctx.drain(c);
    applyCalls(ctx, c);
    expect(taintsOf(ctx.store('nodes').get('a')!).map((t) => `${t.key}:${t.effect}`)).toEqual(['node.kubernetes.io/disk-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule']);
  });

  it('does not taint when every node is not Ready (master disruption mode)', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    ctx.upsert(c, 'nodes', node('a', 0));
    run(ctx, c, 120_000);
    expect(readyCondition(ctx.store('nodes').get('a')!)?.status).toBe('Unknown');
    expect(noExecute(ctx.store('nodes').get('a')!)).toEqual([]);
    expect(c.zoneStates.get('')).toBe('FullDisruption');
  });

  it('taints at --node-eviction-rate 0.1/s in a Normal zone', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    const names = Array.from({ length: 10 }, (_, i) => `n${i}`);
    for (const n of names) {
      ctx.upsert(c, 'nodes', node(n, 0));
      ctx.upsert(c, 'leases', lease(n, 0));
    }
    const renew = renewEvery10s(ctx, c, names.slice(3));
    const tainted = new Map<string, number>();
    run(ctx, c, 120_000, (t) => {
      renew(t);
      for (const n of names.slice(0, 3)) if (!tainted.has(n) && noExecute(ctx.store('nodes').get(n)!).length) tainted.set(n, t);
    });
    expect(c.zoneStates.get('')).toBe('Normal');
    expect([...tainted.values()].sort((a, b) => a - b)).toEqual([60_200, 70_200, 80_200]);
  });

  it('stops tainting in a small zone in PartialDisruption', () => {
    const ctx = new FakeContext();
    const c = new NodeLifecycleController();
    const names = Array.from({ length: 5 }, (_, i) => `n${i}`);
    for (const n of names) ctx.upsert(c, 'nodes', node(n, 0, { labels: { 'topology.kubernetes.io/zone': 'z1' } }));
    const renew = (t: number) => {
      if (t % 10_000 === 0) ctx.upsert(c, 'nodes', node('n4', t, { labels: { 'topology.kubernetes.io/zone': 'z1' } }));
    };
    // A second, healthy zone keeps the cluster out of master disruption mode.
    ctx.upsert(c, 'nodes', node('other', 0, { labels: { 'topology.kubernetes.io/zone': 'z2' } }));
    run(ctx, c, 120_000, (t) => {
      renew(t);
      if (t % 10_000 === 0) ctx.upsert(c, 'nodes', node('other', t, { labels: { 'topology.kubernetes.io/zone': 'z2' } }));
    });
    expect(c.zoneStates.get(':\x00:z1')).toBe('PartialDisruption');
    expect(c.zoneStates.get(':\x00:z2')).toBe('Normal');
    // 4 of 5 unknown; at most the first one slipped through before the zone state changed.
    const taintedCount = names.filter((n) => taintsOf(ctx.store('nodes').get(n)!).some((t) => t.effect === 'NoExecute')).length;
    expect(taintedCount).toBe(0);
  });

  it('computes zone states as upstream', () => {
    const c = new NodeLifecycleController();
    const r = (s: string) => ({ type: 'Ready', status: s });
    expect(c.computeZoneState([r('True'), r('Unknown')])).toBe('Normal');
    expect(c.computeZoneState([r('Unknown'), null])).toBe('FullDisruption');
    expect(c.computeZoneState([r('True'), r('False'), r('False'), r('Unknown')])).toBe('PartialDisruption');
    expect(c.computeZoneState([r('True'), r('True'), r('False'), r('False')])).toBe('Normal');
  });

  it('a clone mid-run continues identically', () => {
    const mk = () => {
      const ctx = new FakeContext();
      const c = new NodeLifecycleController();
      for (const n of ['a', 'b']) ctx.upsert(c, 'nodes', node(n, 0));
      return { ctx, c };
    };
    const { ctx, c } = mk();
    const renew = (cc: NodeLifecycleController, x: FakeContext) => (t: number) => {
      if (t % 10_000 === 0) x.upsert(cc, 'nodes', node('b', t));
    };
    run(ctx, c, 30_000, renew(c, ctx));
    const c2 = cloneState(c);
    const ctx2 = new FakeContext();
    ctx2.now = ctx.now;
    for (const [r, m] of ctx.stores) for (const [k, v] of m) (ctx2.store(r) as Map<string, KObject>).set(k, structuredClone(v));
    run(ctx, c, 90_000, renew(c, ctx));
    run(ctx2, c2, 90_000, renew(c2, ctx2));
    expect(ctx2.store('nodes').get('a')).toEqual(ctx.store('nodes').get('a'));
    expect(c2.recent).toEqual(c.recent);
    expect(noExecute(ctx.store('nodes').get('a')!).length).toBe(1);
  });
});

describe('RateLimitedTimedQueue', () => {
  it('lets one value through per token; a value stays known until removed', () => {
    const q = new RateLimitedTimedQueue(0.1, 0);
    q.add('a', '1', 0);
    q.add('b', '2', 0);
    const seen: string[] = [];
    q.try(0, (v) => (seen.push(v.value), { ok: true, waitMs: 0 }));
    expect(seen).toEqual(['a']);
    expect(q.nextAt(0)).toBe(10_000);
    q.try(10_000, (v) => (seen.push(v.value), { ok: true, waitMs: 0 }));
    expect(seen).toEqual(['a', 'b']);
    expect(q.add('a', '1', 20_000)).toBe(false);
    q.remove('a');
    expect(q.add('a', '1', 20_000)).toBe(true);
  });

  it('a zero rate never lets anything through', () => {
    const b = new TokenBucket(0, 1, 0);
    expect(b.tryAccept(1e9)).toBe(false);
    expect(b.nextTokenAt(0)).toBe(Infinity);
  });
});
