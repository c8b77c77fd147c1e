// Cases from k8s.io/apimachinery/pkg/fields/selector_test.go, the field-label
// conversions of pkg/apis/*/v1/conversion.go and the registries' selectable fields.
import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import type { KObject } from '../types';
import {
  convertFieldLabel,
  escapeValue,
  fieldRequiresExactMatch,
  fieldSelectorToString,
  fieldsOf,
  matchesFields,
  parseFieldSelector,
  parseFieldSelectorFor,
  unescapeValue,
  type FieldSelector,
} from './fields';

function mustParse(s: string): FieldSelector {
  const r = parseFieldSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.selector;
}

describe('fields.ParseSelector (TestSelectorParse)', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= '])('round-trips %j', (s) => {
    expect(fieldSelectorToString(mustParse(s))).toBe(s);
  });

  it('sorts terms by their raw text', () => {
    expect(fieldSelectorToString(mustParse('z=1,a=2,m!=3'))).toBe('a=2,m!=3,z=1');
  });

  it('== is = and the first operator splits the term', () => {
    expect(mustParse('x==a').terms).toEqual([{ type: 'hasTerm', field: 'x', value: 'a' }]);
    expect(mustParse('x!=a').terms).toEqual([{ type: 'notHasTerm', field: 'x', value: 'a' }]);
    expect(fieldSelectorToString(mustParse('x==a'))).toBe('x=a');
  });

  it('rejects what it cannot split, with the selector in the message', () => {
    expect(parseFieldSelector('x=a||y=b,c')).toEqual({ ok: false, error: "invalid selector: 'x=a||y=b,c'; can't understand 'c'" });
    expect(parseFieldSelector('x')).toEqual({ ok: false, error: "invalid selector: 'x'; can't understand 'x'" });
  });

  it('rejects unescaped and badly escaped values (TestSelectorParseWithEscape / UnescapeValue)', () => {
    expect(parseFieldSelector('x==a==b')).toEqual({ ok: false, error: 'invalid field selector: unescaped character in value: 61' });
    expect(parseFieldSelector('x=a\\b')).toEqual({ ok: false, error: 'invalid field selector: invalid escape sequence: \\b' });
    expect(parseFieldSelector('x=a\\')).toEqual({ ok: false, error: 'invalid field selector: invalid escape sequence: \\' });
  });

  it('escapes \\ , and = in values', () => {
    expect(escapeValue('a,b=c\\d')).toBe('a\\,b\\=c\\\\d');
    expect(unescapeValue('a\\,b\\=c\\\\d')).toEqual({ ok: true, value: 'a,b=c\\d' });
    const sel = mustParse('spec.nodeName=a\\,b,metadata.name=x\\=y');
    expect(sel.terms).toEqual([
      { type: 'hasTerm', field: 'metadata.name', value: 'x=y' },
      { type: 'hasTerm', field: 'spec.nodeName', value: 'a,b' },
    ]);
    expect(fieldSelectorToString(sel)).toBe('metadata.name=x\\=y,spec.nodeName=a\\,b');
  });

  it('drops a term with neither field nor value', () => {
    expect(mustParse('=').terms).toEqual([]);
    expect(mustParse('=,a=b').terms).toEqual([{ type: 'hasTerm', field: 'a', value: 'b' }]);
  });
});

describe('matching (TestSelectorMatches, TestOneTermEqualSelector)', () => {
  it.each<[string, Record<string, string>, boolean]>([
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x=', {}, true],
    ['x!=', {}, false],
    ['', { a: 'b' }, true],
  ])('%j on %j → %s', (s, fields, want) => {
    expect(matchesFields(mustParse(s), fields)).toBe(want);
  });

  it('RequiresExactMatch', () => {
    expect(fieldRequiresExactMatch(mustParse('a=b,c!=d'), 'a')).toBe('b');
    expect(fieldRequiresExactMatch(mustParse('a=b,c!=d'), 'c')).toBeUndefined();
  });
});

describe('field labels per resource', () => {
  it("pods accept upstream's list and map spec.host", () => {
    for (const l of ['metadata.name', 'spec.nodeName', 'status.phase', 'status.podIP', 'status.podIPs', 'spec.hostNetwork', 'status.nominatedNodeName']) {
      expect(convertFieldLabel('', 'pods', l, 'v')).toEqual({ ok: true, label: l, value: 'v' });
    }
    expect(convertFieldLabel('', 'pods', 'spec.host', 'n1')).toEqual({ ok: true, label: 'spec.nodeName', value: 'n1' });
    expect(convertFieldLabel('', 'pods', 'foo', 'v')).toEqual({ ok: false, error: 'field label not supported: foo' });
  });

  it('each kind words its refusal as upstream does', () => {
    expect(parseFieldSelectorFor('', 'nodes', 'metadata.namespace=x')).toEqual({ ok: false, error: 'field label not supported: metadata.namespace' });
    expect(parseFieldSelectorFor('batch', 'jobs', 'status.succeeded=1')).toEqual({
      ok: false,
      error: 'field label "status.succeeded" not supported for batchv1.Job',
    });
    expect(parseFieldSelectorFor('apps', 'statefulsets', 'spec.replicas=1')).toEqual({
      ok: false,
      error: 'field label not supported for appsv1.StatefulSet: spec.replicas',
    });
    expect(parseFieldSelectorFor('', 'configmaps', 'data.x=1')).toEqual({
      ok: false,
      error: '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
    // ReplicaSets expose status.replicas but register no conversion, so it is refused.
    expect(parseFieldSelectorFor('apps', 'replicasets', 'status.replicas=1').ok).toBe(false);
    expect(parseFieldSelectorFor('', 'secrets', 'type=Opaque').ok).toBe(true);
    expect(parseFieldSelectorFor('', 'namespaces', 'status.phase=Active').ok).toBe(true);
    expect(parseFieldSelectorFor('', 'services', 'spec.type=NodePort').ok).toBe(true);
  });

  it('events.k8s.io names map onto the core fields set', () => {
    const r = parseFieldSelectorFor('events.k8s.io', 'events', 'regarding.name=web-0,reportingController=kubelet');
    expect(r).toEqual({
      ok: true,
      selector: {
        terms: [
          { type: 'hasTerm', field: 'involvedObject.name', value: 'web-0' },
          { type: 'hasTerm', field: 'reportingComponent', value: 'kubelet' },
        ],
      },
    });
    expect(parseFieldSelectorFor('events.k8s.io', 'events', 'involvedObject.name=x')).toEqual({
      ok: false,
      error: 'field label not supported: involvedObject.name',
    });
  });
});

const meta = (name: string, namespace?: string) => (namespace ? { name, namespace } : { name });

describe('fieldsOf', () => {
  it('pods expose the scheduler and kubelet fields', () => {
    const pod: KObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('web-0', 'default'),
      spec: { nodeName: 'node-1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'default' },
      status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }], nominatedNodeName: '' },
    };
    expect(fieldsOf('', 'pods', pod)).toEqual({
      'metadata.name': 'web-0',
      'metadata.namespace': 'default',
      'spec.nodeName': 'node-1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': 'default',
      'spec.hostNetwork': 'false',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.5',
      'status.nominatedNodeName': '',
    });
    const sel = parseFieldSelectorFor('', 'pods', 'spec.nodeName=node-1,status.phase!=Failed');
    expect(sel.ok && matchesFields(sel.selector, fieldsOf('', 'pods', pod))).toBe(true);
    // Accepted but never set: only "" matches status.podIPs.
    const ips = parseFieldSelectorFor('', 'pods', 'status.podIPs=10.0.0.5');
    expect(ips.ok && matchesFields(ips.selector, fieldsOf('', 'pods', pod))).toBe(false);
  });

  it('nodes, namespaces, secrets, services, jobs', () => {
    expect(fieldsOf('', 'nodes', { apiVersion: 'v1', kind: 'Node', metadata: meta('n1'), spec: { unschedulable: true } })).toEqual({
      'metadata.name': 'n1',
      'spec.unschedulable': 'true',
    });
    expect(fieldsOf('', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: meta('kube-system'), status: { phase: 'Active' } })).toEqual({
      'metadata.name': 'kube-system',
      'status.phase': 'Active',
      name: 'kube-system',
    });
    expect(fieldsOf('', 'secrets', { apiVersion: 'v1', kind: 'Secret', metadata: meta('s', 'd'), type: 'Opaque' })['type']).toBe('Opaque');
    expect(
      fieldsOf('', 'services', { apiVersion: 'v1', kind: 'Service', metadata: meta('s', 'd'), spec: { type: 'ClusterIP', clusterIP: '10.96.0.1' } }),
    ).toMatchObject({
      'spec.clusterIP': '10.96.0.1',
      'spec.type': 'ClusterIP',
    });
    expect(fieldsOf('batch', 'jobs', { apiVersion: 'batch/v1', kind: 'Job', metadata: meta('j', 'd'), status: { succeeded: 2 } })['status.successful']).toBe(
      '2',
    );
    expect(
      fieldsOf('rbac.authorization.k8s.io', 'clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta('admin') }),
    ).toEqual({
      'metadata.name': 'admin',
    });
  });

  it('both event shapes give the same fields', () => {
    const core: KObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta('web-0.1', 'default'),
      involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'default', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{web}' },
      reason: 'BackOff',
      type: 'Warning',
      source: { component: 'kubelet', host: 'node-1' },
      reportingComponent: 'kubelet',
    };
    const modern: KObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: meta('web-0.1', 'default'),
      regarding: { kind: 'Pod', name: 'web-0', namespace: 'default', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{web}' },
      reason: 'BackOff',
      type: 'Warning',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      reportingController: 'kubelet',
    };
    expect(fieldsOf('', 'events', core)).toEqual(fieldsOf('events.k8s.io', 'events', modern));
    expect(fieldsOf('', 'events', core)).toMatchObject({ 'involvedObject.kind': 'Pod', source: 'kubelet', reportingComponent: 'kubelet', type: 'Warning' });
    // Without a source component the reporting controller stands in.
    expect(fieldsOf('', 'events', { ...core, source: {} })['source']).toBe('kubelet');
  });
});

describe('snapshots', () => {
  it('a converted field selector survives cloneState and matches the same way', () => {
    const r = parseFieldSelectorFor('', 'pods', 'spec.host=node-1,status.phase!=Failed');
    if (!r.ok) throw new Error(r.error);
    const copy = cloneState(r.selector);
    expect(copy).toEqual(r.selector);
    const sets: Record<string, string>[] = [
      { 'spec.nodeName': 'node-1', 'status.phase': 'Running' },
      { 'spec.nodeName': 'node-1', 'status.phase': 'Failed' },
      {},
    ];
    for (const f of sets) {
      expect(matchesFields(copy, f)).toBe(matchesFields(r.selector, f));
    }
    expect(fieldSelectorToString(copy)).toBe('spec.nodeName=node-1,status.phase!=Failed');
  });
});
