import { describe, expect, it } from 'vitest';
import { PLAYGROUND_CLIENT } from '../engine/facade/engine';
import { EngineHost } from './host';
import { call } from '../engine/apiserver/testing/harness';
import { Engine } from '../engine/facade/engine';
import { parseArgs } from './args';

describe('EngineHost', () => {
  it('advances by hand, steps, and changes speed through recorded commands', async () => {
    const h = new EngineHost({ seed: 3, etcdMembers: 3, autoStart: false });
    await h.advanceBy(2500);
    expect(h.engine.sim.now).toBeCloseTo(2500, 6);
    const ev = h.engine.state().events;
    expect(h.step(3)).toBe(3);
    expect(h.engine.state().events).toBe(ev + 3);
    expect(h.setSpeed(0).ok).toBe(true);
    expect(h.setSpeed(-1).ok).toBe(false);
    expect(h.engine.commands().map((c) => c.command.type)).toEqual(['speed']);
  });

  it('paces virtual time by the wall clock x speed', async () => {
    const h = new EngineHost({ seed: 3, etcdMembers: 1, speed: 100, frameMs: 5 });
    await new Promise((r) => setTimeout(r, 120));
    h.stop();
    // ~120 ms x 100; generous bounds, the machine may be busy.
    expect(h.engine.sim.now).toBeGreaterThan(2000);
    expect(h.engine.sim.now).toBeLessThan(40_000);
  });

  it('the watch response seq survives a snapshot, and the clone continues identically', async () => {
    const h = new EngineHost({ seed: 9, etcdMembers: 3, autoStart: false });
    await h.advanceBy(3000);
    h.exec({ type: 'watch', key: 'a', prefix: true });
    await h.advanceBy(100);
    h.exec({ type: 'etcdOp', op: { op: 'put', key: 'a1', value: 'x' } });
    await h.advanceBy(200);
    const clone = h.engine.clone();
    const seqs = (e: typeof h.engine) => e.client(PLAYGROUND_CLIENT).watchResponses.map((r) => r.seq);
    expect(seqs(clone)).toEqual(seqs(h.engine));
    for (const e of [h.engine, clone]) {
      e.exec({ type: 'etcdOp', op: { op: 'put', key: 'a2', value: 'y' } });
      e.advance(500);
    }
    expect(seqs(clone)).toEqual(seqs(h.engine));
    expect(seqs(h.engine).length).toBeGreaterThanOrEqual(3);
    const all = seqs(h.engine);
    for (let i = 1; i < all.length; i++) expect(all[i]).toBe(all[i - 1]! + 1);
    expect(clone.state().traceDigest).toBe(h.engine.state().traceDigest);
  });

  it('stamps objects from its real start time (kubectl ages them by the real clock); a replay with its epoch repeats them', () => {
    const before = Date.now();
    const h = new EngineHost({ seed: 4, etcdMembers: 1, controlPlane: true, autoStart: false });
    const after = Date.now();
    const epoch = h.engine.sim.epochMs;
    expect(epoch).toBeGreaterThanOrEqual(before);
    expect(epoch).toBeLessThanOrEqual(after);
    for (let i = 0; i < 200 && !h.engine.apiReady(); i++) h.engine.advance(100);
    const cm = call(h.engine, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'now' } }).body;
    // Virtual time since the start is a few seconds: the stamp is the real date, not 2025-01-01.
    expect(Math.abs(Date.parse(cm.metadata.creationTimestamp) - Date.now())).toBeLessThan(h.engine.sim.now + 5_000);
    expect(h.engine.state().epochMs).toBe(epoch);
    // `--epoch` replays a recorded run.
    const args = parseArgs(['--port', '0', '--epoch', String(epoch)]);
    expect(args.ok && args.value.epochMs).toBe(epoch);
    expect(parseArgs(['--port', '0', '--epoch', '2026-12-01T22:00:00Z'])).toMatchObject({ ok: true, value: { epochMs: Date.UTC(2026, 11, 1, 22) } });
    expect(parseArgs(['--port', '0', '--epoch', 'soon']).ok).toBe(false);
    const replayed = Engine.replay(h.engine.options, h.engine.commands(), h.engine.sim.now);
    expect(call(replayed, 'GET', '/api/v1/namespaces/default/configmaps/now').body.metadata.creationTimestamp).toBe(cm.metadata.creationTimestamp);
  });
});
