import { describe, it, expect } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { cloneState } from '../../sim/serial';
import { FakeContext } from '../framework/testing';
import { TaintEvictionController } from './controller';
import { getMatchingTolerations, getMinTolerationTime, toleratesTaint } from './tolerations';

const UNREACHABLE = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

function node(name: string, taints: object[] = []): KObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}` }, spec: { taints } };
}

function pod(name: string, nodeName: string, tolerations: object[] = DEFAULT_TOLERATIONS): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { nodeName, tolerations }, status: { phase: 'Running' } };
}

function step(ctx: FakeContext, c: TaintEvictionController, until: number): void {
  while (ctx.now < until) {
    ctx.now += 100;
    ctx.drain(c);
  }
}

describe('TaintEvictionController', () => {
  it('deletes a pod that does not tolerate a NoExecute taint at once, condition first', () => {
    const ctx = new FakeContext();
    const c = new TaintEvictionController();
    ctx.upsert(c, 'pods', pod('p', 'a', []));
    ctx.upsert(c, 'nodes', node('a'));
    ctx.drain(c);
    expect(ctx.calls).toEqual([]);
    ctx.upsert(c, 'nodes', node('a', [UNREACHABLE]));
    ctx.drain(c);
    expect(ctx.events.map((e) => [e.reason, e.message])).toEqual([['TaintManagerEviction', 'Marking for deletion Pod default/p']]);
    const patch = ctx.respond(c, 200);
    expect(patch.call.path).toBe('/api/v1/namespaces/default/pods/p/status');
    expect((patch.call.body as { status: { conditions: { type: string; reason: string }[] } }).status.conditions[0]).toMatchObject({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' });
    expect(ctx.calls.map((x) => [x.call.method, x.call.path])).toEqual([['DELETE', '/api/v1/namespaces/default/pods/p']]);
  });

  it('deletes a pod tolerating for 300 s exactly 300 s after the taint was seen', () => {
    const ctx = new FakeContext();
    const c = new TaintEvictionController();
    ctx.upsert(c, 'pods', pod('p', 'a'));
    ctx.now = 1_000;
    ctx.upsert(c, 'nodes', node('a', [UNREACHABLE]));
    let firedAt = -1;
    while (ctx.now < 400_000 && firedAt < 0) {
      ctx.now += 100;
      ctx.drain(c);
      if (ctx.calls.length) firedAt = ctx.now;
    }
    // Seen by the worker at 1.1 s.
    expect(firedAt).toBe(301_100);
  });

  it('uses the shortest tolerationSeconds of the tolerations used; tolerating forever never evicts', () => {
    const ctx = new FakeContext();
    const c = new TaintEvictionController();
    ctx.upsert(c, 'pods', pod('short', 'a', [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }, { operator: 'Exists' }]));
    ctx.upsert(c, 'pods', pod('forever', 'a', [{ operator: 'Exists' }]));
    ctx.upsert(c, 'nodes', node('a', [UNREACHABLE]));
    step(ctx, c, 30_000);
    expect(ctx.calls).toEqual([]);
    step(ctx, c, 30_100);
    expect(ctx.calls.map((x) => x.call.path)).toEqual(['/api/v1/namespaces/default/pods/short/status']);
    step(ctx, c, 1_000_000);
    expect(ctx.calls.length).toBe(1);
  });

  it('cancels a scheduled eviction when the taint goes away, with an event', () => {
    const ctx = new FakeContext();
    const c = new TaintEvictionController();
    ctx.upsert(c, 'pods', pod('p', 'a'));
    ctx.upsert(c, 'nodes', node('a', [UNREACHABLE]));
    step(ctx, c, 100_000);
    ctx.upsert(c, 'nodes', node('a', []));
    step(ctx, c, 400_000);
    expect(ctx.calls).toEqual([]);
    expect(ctx.events.map((e) => e.message)).toEqual(['Cancelling deletion of Pod default/p']);
  });

  it('a taint change keeps the earlier schedule; a pod scheduled later to the node starts its own clock', () => {
    const ctx = new FakeContext();
    const c = new TaintEvictionController();
    ctx.upsert(c, 'pods', pod('p', 'a'));
    ctx.upsert(c, 'nodes', node('a', [UNREACHABLE]));
    step(ctx, c, 50_000);
    // not-ready replaces unreachable (both tolerated for 300 s): the first schedule stands.
    ctx.upsert(c, 'nodes', node('a', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]));
    ctx.upsert(c, 'pods', pod('q', 'a'));
    step(ctx, c, 300_000);
    expect(ctx.calls).toEqual([]);
    step(ctx, c, 300_100);
    expect(ctx.calls.map((x) => x.call.path)).toEqual(['/api/v1/namespaces/default/pods/p/status']);
    step(ctx, c, 350_100);
    expect(ctx.calls.map((x) => x.call.path)).toEqual(['/api/v1/namespaces/default/pods/p/status', '/api/v1/namespaces/default/pods/q/status']);
  });

  it('a clone mid-run continues identically', () => {
    const ctx = new FakeContext();
    const c = new TaintEvictionController();
    ctx.upsert(c, 'pods', pod('p', 'a'));
    ctx.upsert(c, 'nodes', node('a', [UNREACHABLE]));
    step(ctx, c, 100_000);
    const c2 = cloneState(c);
    const ctx2 = new FakeContext();
    ctx2.now = ctx.now;
    for (const [r, m] of ctx.stores) for (const [k, v] of m) (ctx2.store(r) as Map<string, KObject>).set(k, v);
    step(ctx, c, 400_000);
    step(ctx2, c2, 400_000);
    expect(ctx.calls.length).toBe(1);
    expect(ctx2.calls).toEqual(ctx.calls);
    expect(ctx2.events).toEqual(ctx.events);
  });
});

describe('tolerations', () => {
  it('match as upstream ToleratesTaint', () => {
    const t = { key: 'k', value: 'v', effect: 'NoExecute' };
    expect(toleratesTaint({ key: 'k', operator: 'Equal', value: 'v' }, t)).toBe(true);
    expect(toleratesTaint({ key: 'k', value: 'w' }, t)).toBe(false);
    expect(toleratesTaint({ operator: 'Exists' }, t)).toBe(true);
    expect(toleratesTaint({ key: 'k', operator: 'Exists', effect: 'NoSchedule' }, t)).toBe(false);
    expect(getMatchingTolerations([t, UNREACHABLE], [{ key: 'k', operator: 'Exists' }]).all).toBe(false);
    expect(getMinTolerationTime([])).toBe(0);
    expect(getMinTolerationTime([{ operator: 'Exists' }])).toBe(-1);
    expect(getMinTolerationTime([{ operator: 'Exists', tolerationSeconds: 0 }, { tolerationSeconds: 9 }])).toBe(0);
    expect(getMinTolerationTime([{ tolerationSeconds: 20 }, { tolerationSeconds: 9 }])).toBe(9000);
  });
});
