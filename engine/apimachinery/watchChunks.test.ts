import { afterEach, describe, expect, it } from 'vitest';
import { decodeWatchChunk, primeWatchChunk, sameJsonData, type WatchLine } from './watchChunks';
import { deepFreeze, readonlyChecks, setReadonlyChecks } from './readonly';
import type { KObject } from './types';

const lease = (rv: string, renewTime: string): KObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'node-a', namespace: 'kube-node-lease', resourceVersion: rv },
  spec: { holderIdentity: 'node-a', leaseDurationSeconds: 40, renewTime },
});

describe('watch chunks primed by the server', () => {
  afterEach(() => setReadonlyChecks(true));

  it('the tests run with the read-only checks on', () => {
    expect(readonlyChecks()).toBe(true);
  });

  it('a primed line is what every reader gets, without decoding, and equals its decoding', () => {
    const event: WatchLine = { type: 'MODIFIED', object: lease('7001', '2026-12-03T07:00:00.000000Z') };
    const chunk = `${JSON.stringify(event)}\n`;
    primeWatchChunk(chunk, event);
    const a = decodeWatchChunk(chunk);
    const b = decodeWatchChunk(`${JSON.stringify(JSON.parse(chunk))}\n`); // an equal string, built apart
    expect(a).toBe(event);
    expect(b).toBe(event);
    expect(a).toEqual(JSON.parse(chunk));
    expect(Object.isFrozen(event.object.spec)).toBe(true);
  });

  it('refuses, under the checks, a line that decoding would not rebuild', () => {
    const withUndefined = { type: 'MODIFIED', object: { ...lease('7002', 't'), status: undefined } } as unknown as WatchLine;
    expect(() => primeWatchChunk(`${JSON.stringify(withUndefined)}\n`, withUndefined)).toThrow(/differs from its decoding/);
    const nonFinite = { type: 'MODIFIED', object: { ...lease('7003', 't'), spec: { leaseDurationSeconds: Number.NaN } } } as unknown as WatchLine;
    expect(() => primeWatchChunk(`${JSON.stringify(nonFinite)}\n`, nonFinite)).toThrow(/differs from its decoding/);
  });

  it('a line primed before a burst of others is still found when it arrives', () => {
    const lines = Array.from({ length: 200 }, (_, i): [string, WatchLine] => {
      const event: WatchLine = { type: 'MODIFIED', object: lease(String(8000 + i), `2026-12-03T07:00:${String(i % 60).padStart(2, '0')}.000000Z`) };
      return [`${JSON.stringify(event)}\n`, event];
    });
    for (const [chunk, event] of lines) primeWatchChunk(chunk, event);
    expect(decodeWatchChunk(lines[0]![0])).toBe(lines[0]![1]);
    expect(decodeWatchChunk(lines[199]![0])).toBe(lines[199]![1]);
  });

  it('an unprimed chunk is decoded once and shared', () => {
    const chunk = `${JSON.stringify({ type: 'ADDED', object: lease('7004', 'x') })}\n`;
    const a = decodeWatchChunk(chunk);
    expect(decodeWatchChunk(chunk)).toBe(a);
    expect(a.object.metadata.resourceVersion).toBe('7004');
  });
});

describe('sameJsonData', () => {
  it('compares member for member, in order', () => {
    expect(sameJsonData({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] })).toBe(true);
    expect(sameJsonData({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJsonData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJsonData([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJsonData(0, -0)).toBe(false);
    expect(sameJsonData({ d: new Date(0) }, { d: new Date(0) })).toBe(false);
    expect(sameJsonData(null, null)).toBe(true);
  });
});

describe('deepFreeze', () => {
  afterEach(() => setReadonlyChecks(true));

  it('freezes deeply under the checks and leaves values alone without them', () => {
    const on = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(on.a.b[1])).toBe(true);
    setReadonlyChecks(false);
    const off = deepFreeze({ a: { b: [1] } });
    expect(Object.isFrozen(off) || Object.isFrozen(off.a)).toBe(false);
  });
});
