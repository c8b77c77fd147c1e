import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../types';
import { applyPatch, pruneDirectiveKeys } from './apply';
import { patchMetaFor } from './patchMeta';

const pod: JsonObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
};
const podMeta = patchMetaFor('', 'v1', 'Pod');

describe('applyPatch: the PATCH step of the API server', () => {
  it('strategic merge patch', () => {
    const r = applyPatch('application/strategic-merge-patch+json', pod, { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } }, podMeta);
    expect(r).toEqual({ ok: true, value: { ...pod, spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } });
  });

  it('merge patch replaces lists', () => {
    const r = applyPatch('application/merge-patch+json', pod, { spec: { containers: [{ name: 'x', image: 'busybox' }] } }, podMeta);
    expect(r.ok && (r.value as { spec: unknown }).spec).toEqual({ containers: [{ name: 'x', image: 'busybox' }] });
  });

  it('json patch', () => {
    const r = applyPatch('application/json-patch+json', pod, [{ op: 'replace', path: '/metadata/labels/app', value: 'api' }], podMeta);
    expect(r.ok && (r.value as { metadata: unknown }).metadata).toEqual({ name: 'p', labels: { app: 'api' } });
  });

  it('strategic merge patch errors: 400, 422 and 500', () => {
    const bad = applyPatch('application/strategic-merge-patch+json', pod, { spec: { '$setElementOrder/containers': [{ name: 'x' }], containers: [{ name: 'a' }] } }, podMeta);
    expect(bad.ok ? undefined : [bad.status.code, bad.status.reason]).toEqual([500, undefined]);
    const badFormat = applyPatch('application/strategic-merge-patch+json', pod, { metadata: { $deleteFromPrimitiveListfinalizers: ['x'] } }, podMeta);
    expect(badFormat.ok ? undefined : [badFormat.status.code, badFormat.status.reason, badFormat.status.message]).toEqual([
      400,
      'BadRequest',
      'invalid patch format of primitive list',
    ]);
    const lists = applyPatch('application/strategic-merge-patch+json', { metadata: { finalizers: [['a']] } }, { metadata: { finalizers: [['b']] } }, podMeta);
    expect(lists.ok ? undefined : [lists.status.code, lists.status.details?.causes?.[0]?.message]).toEqual([422, 'lists of lists are not supported']);
    const noKey = applyPatch('application/strategic-merge-patch+json', pod, { spec: { containers: [{ image: 'x' }] } }, podMeta);
    expect(noKey.ok ? undefined : [noKey.status.code, noKey.status.message]).toEqual([500, 'map: map[image:x] does not contain declared merge key: name']);
    const notObject = applyPatch('application/strategic-merge-patch+json', pod, [], podMeta);
    expect(notObject.ok ? undefined : notObject.status.code).toBe(400);
  });

  it('strategic merge patch is refused for kinds without patch metadata', () => {
    const r = applyPatch('application/strategic-merge-patch+json', { spec: {} }, { spec: { a: 1 } }, undefined);
    expect(r.ok ? undefined : r.status.code).toBe(415);
  });

  it('merge patch errors', () => {
    const r = applyPatch('application/merge-patch+json', pod, null, podMeta);
    expect(r.ok ? undefined : [r.status.code, r.status.message]).toEqual([400, 'Invalid JSON Patch']);
  });

  it('drops directive keys a patch left in the object', () => {
    const r = applyPatch('application/strategic-merge-patch+json', pod, { spec: { volumes: [{ name: 'v', emptyDir: {}, $retainKeys: ['name', 'emptyDir'] }] } }, podMeta);
    expect(r.ok && (r.value as { spec: { volumes: unknown } }).spec.volumes).toEqual([{ name: 'v', emptyDir: {} }]);
    expect(pruneDirectiveKeys({ a: { $patch: 'x', '$x': 1, b: [{ '$setElementOrder/c': [] }] } })).toEqual({ a: { '$x': 1, b: [{}] } });
  });
});
