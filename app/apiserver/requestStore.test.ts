import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../engine/apiserver/records/types';
import { describePatch } from './patch';
import {
  NO_FILTERS,
  countOutcomes,
  failingStage,
  filterChoices,
  filterRequests,
  latencyOf,
  mergeRequests,
  objectOf,
  outcomeOf,
  receiveRequestsInto,
  resourceOf,
  type RequestState,
} from './requestStore';

function rec(id: number, patch: Partial<RequestRecord> = {}): RequestRecord {
  return {
    id, at: id * 10, client: 'kubectl-0', user: 'kubernetes-admin', groups: ['system:masters'], verb: 'get', method: 'GET',
    path: '/api/v1/namespaces', group: '', version: 'v1', resource: 'namespaces', subresource: '', namespace: '', name: '',
    stages: [], code: 200, doneAt: id * 10 + 3, ...patch,
  };
}

describe('mergeRequests', () => {
  it('keeps newest first, replaces by id and stays bounded', () => {
    let list = mergeRequests([], [rec(1), rec(2, { code: 0 }), rec(3)]);
    expect(list.map((r) => r.id)).toEqual([3, 2, 1]);
    list = mergeRequests(list, [rec(2, { code: 201 }), rec(4)], 3);
    expect(list.map((r) => [r.id, r.code])).toEqual([[4, 200], [3, 200], [2, 201]]);
  });

  it('never lets an in-flight copy replace a finished record', () => {
    const list = mergeRequests([rec(5, { code: 403 })], [rec(5, { code: 0 })]);
    expect(list[0]!.code).toBe(403);
  });

  it('returns the same list when nothing came', () => {
    const list = [rec(1)];
    expect(mergeRequests(list, [])).toBe(list);
  });
});

describe('receiveRequestsInto', () => {
  const base: RequestState = { list: [], filters: NO_FILTERS, selected: null };

  it('updates the selected record when its finished copy arrives', () => {
    const s: RequestState = { ...base, list: [rec(1, { code: 0 })], selected: rec(1, { code: 0 }) };
    const next = receiveRequestsInto(s, [rec(1, { code: 201 })], false);
    expect(next.selected?.code).toBe(201);
    expect(next.list?.[0]?.code).toBe(201);
  });

  it('a full update starts from scratch and drops the selection', () => {
    const s: RequestState = { ...base, list: [rec(1), rec(2)], selected: rec(2) };
    const next = receiveRequestsInto(s, [rec(1)], true);
    expect(next.list?.map((r) => r.id)).toEqual([1]);
    expect(next.selected).toBeNull();
  });
});

describe('outcomes and filters', () => {
  const denied = rec(10, {
    user: 'alice', verb: 'list', resource: 'secrets', namespace: 'default', code: 403,
    stages: [
      { kind: 'authentication', name: 'token', decision: 'allowed', startedAt: 0, endedAt: 0 },
      { kind: 'authorization', name: 'Node,RBAC', decision: 'denied', message: 'no RBAC policy matched', startedAt: 0, endedAt: 0 },
    ],
  });
  const invalid = rec(11, { verb: 'create', resource: 'configmaps', namespace: 'default', name: 'x', code: 422, stages: [{ kind: 'validation', name: 'validation', decision: 'denied', startedAt: 0, endedAt: 0 }] });
  const conflict = rec(12, { verb: 'update', resource: 'leases', code: 409 });
  const broken = rec(13, { code: 500 });
  const flying = rec(14, { code: 0, doneAt: undefined });
  const status = rec(15, { verb: 'update', resource: 'pods', subresource: 'status', namespace: 'kube-system', name: 'p' });
  const all = [flying, broken, conflict, invalid, denied, status].sort((a, b) => b.id - a.id);

  it('classifies by the failing stage and the code', () => {
    expect(all.map((r) => [r.id, outcomeOf(r)])).toEqual([
      [15, 'allowed'], [14, 'inflight'], [13, 'error'], [12, 'error'], [11, 'denied'], [10, 'denied'],
    ]);
    expect(failingStage(denied)?.message).toBe('no RBAC policy matched');
    expect(countOutcomes(all)).toEqual({ inflight: 1, allowed: 1, denied: 2, error: 2 });
  });

  it('filters by user, verb, resource, outcome and code class', () => {
    const ids = (f: Partial<typeof NO_FILTERS>) => filterRequests(all, { ...NO_FILTERS, ...f }).map((r) => r.id);
    expect(ids({ user: 'alice' })).toEqual([10]);
    expect(ids({ verb: 'update' })).toEqual([15, 12]);
    expect(ids({ resource: 'pods/status' })).toEqual([15]);
    expect(ids({ outcome: 'denied' })).toEqual([11, 10]);
    expect(ids({ outcome: '4xx' })).toEqual([12, 11, 10]);
    expect(ids({ outcome: '5xx' })).toEqual([13]);
    expect(ids({ outcome: 'inflight' })).toEqual([14]);
    expect(filterRequests(all, NO_FILTERS, 2)).toHaveLength(2);
  });

  it('offers the values seen as choices', () => {
    expect(filterChoices(all)).toEqual({
      users: ['alice', 'kubernetes-admin'],
      verbs: ['create', 'get', 'list', 'update'],
      resources: ['configmaps', 'leases', 'namespaces', 'pods/status', 'secrets'],
    });
  });

  it('names the object and the latency', () => {
    expect([objectOf(invalid), objectOf(denied), objectOf(broken)]).toEqual(['default/x', 'default', '']);
    expect(resourceOf(rec(1, { resource: '', path: '/healthz' }))).toBe('/healthz');
    expect(latencyOf(invalid)).toBe(3);
    expect(latencyOf(flying)).toBeNull();
  });
});

describe('describePatch', () => {
  it('reads each operation with a sign, its path and value', () => {
    const lines = describePatch([
      { op: 'add', path: '/metadata/labels', value: { a: 'b' } },
      { op: 'replace', path: '/spec/priority', value: 0 },
      { op: 'remove', path: '/spec/x' },
      { op: 'move', from: '/a', path: '/b' },
      { op: 'add', path: '/spec/tolerations', value: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] },
      'garbage',
    ]);
    expect(lines.map((l) => [l.sign, l.op, l.path, l.value ?? null])).toEqual([
      ['+', 'add', '/metadata/labels', '{"a":"b"}'],
      ['~', 'replace', '/spec/priority', '0'],
      ['−', 'remove', '/spec/x', null],
      ['→', 'move', '/b', null],
      ['+', 'add', '/spec/tolerations', expect.stringContaining('\n')],
      ['?', '?', '', '"garbage"'],
    ]);
    expect(lines[3]!.from).toBe('/a');
    expect(lines[4]!.multiline).toBe(true);
  });
});

describe('format', async () => {
  const { formatLatency, statusLine, codeClass } = await import('./format');
  it('prints latencies and status lines', () => {
    expect([null, 0, 0.25, 3.42, 12.34, 120.4, 2500].map(formatLatency)).toEqual(['…', '0 ms', '0.25 ms', '3.42 ms', '12.3 ms', '120 ms', '2.50 s']);
    expect([0, 201, 403, 599].map(statusLine)).toEqual(['in flight', '201 Created', '403 Forbidden', '599']);
    expect([0, 200, 422, 503].map(codeClass)).toEqual(['inflight', 'ok', 'client', 'server']);
  });
});

describe('groupStages', async () => {
  const { groupStages } = await import('./format');
  const st = (kind: RequestRecord['stages'][number]['kind'], name: string, decision: RequestRecord['stages'][number]['decision'] = 'allowed') => ({ kind, name, decision, startedAt: 0, endedAt: 0 });
  it('folds runs of admission plugins, keeping a failing one visible', () => {
    const stages = [st('authentication', 'x509'), st('mutating', 'A'), st('mutating', 'B', 'skipped'), st('validation', 'validation', 'ok'), st('validating', 'C'), st('validating', 'PodSecurity', 'denied')];
    const groups = groupStages(stages, stages[5]);
    expect(groups.map((g) => [g.label, g.decision, g.failing])).toEqual([
      ['authn', 'allowed', false],
      ['mutating ×2', 'allowed', false],
      ['validate', 'ok', false],
      ['validating: PodSecurity', 'denied', true],
    ]);
    expect(groups[3]!.names).toEqual(['C', 'PodSecurity']);
  });
});
