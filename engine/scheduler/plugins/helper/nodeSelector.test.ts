import { describe, expect, it } from 'vitest';
import { cloneState } from '../../../sim/serial';
import type { Node, NodeSelector, Pod, PreferredSchedulingTerm } from '../../framework/api';
import { makeNode, makePod } from '../../testing/fixtures';
import { isInt64, matchNodeSelectorTerms, newLazyErrorNodeSelector, newNodeSelector, newPreferredSchedulingTerms, requiredNodeAffinity } from './nodeSelector';

const node = (name: string, labels?: Record<string, string>): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
const KEY_DETAIL =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

// Port of component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go.
describe('NodeSelector (TestNodeSelectorMatch)', () => {
  it('nil node never matches', () => {
    const r = newNodeSelector({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }] });
    expect(r.ok && r.selector.match(undefined)).toBe(false);
  });
  it('reports parse errors of every term, with paths', () => {
    const ns: NodeSelector = {
      nodeSelectorTerms: [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1', 'host_2'] }] },
        { matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] },
        { matchExpressions: [{ key: 'invalid key', operator: 'In', values: ['label_value'] }] },
      ],
    };
    const r = newNodeSelector(ns);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.type, e.field, e.detail])).toEqual([
      ['FieldValueInvalid', 'nodeSelectorTerms[0].matchFields[0].values', 'must have one element'],
      ['FieldValueInvalid', 'nodeSelectorTerms[2].matchExpressions[0].key', KEY_DETAIL],
    ]);
    // The lazy form still evaluates the valid term.
    const lazy = newLazyErrorNodeSelector(ns);
    expect(lazy.match(node('host_1', { label_1: 'label_1_val' }))).toBe(true);
    expect(lazy.match(node('host_2', { label_1: 'label_1_val' }))).toBe(false);
  });
  const cases: { name: string; ns: NodeSelector; node: Node; want: boolean }[] = [
    {
      name: 'node matches field selector, but not labels',
      ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] }] },
      node: node('host_1'),
      want: false,
    },
    {
      name: 'node matches field selector and label selector',
      ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] }] },
      node: node('host_1', { label_1: 'label_1_val' }),
      want: true,
    },
    {
      name: 'second term matches',
      ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] }] },
      node: node('host_1'),
      want: true,
    },
    { name: 'NotIn on metadata.name', ns: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['host_1'] }] }] }, node: node('host_1'), want: false },
    { name: 'NotIn on metadata.name, other node', ns: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['host_1'] }] }] }, node: node('host_2'), want: true },
    { name: 'unknown field compares with ""', ns: { nodeSelectorTerms: [{ matchFields: [{ key: 'spec.foo', operator: 'In', values: ['x'] }] }] }, node: node('host_1'), want: false },
    { name: 'empty terms match nothing', ns: { nodeSelectorTerms: [{}, { matchExpressions: [] }] }, node: node('host_1', { a: 'b' }), want: false },
    { name: 'no terms match nothing', ns: { nodeSelectorTerms: [] }, node: node('host_1'), want: false },
    { name: 'DoesNotExist', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }] }, node: node('n', { cpu: 'x' }), want: true },
    { name: 'DoesNotExist fails when present', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }] }, node: node('n', { gpu: '' }), want: false },
    { name: 'Lt', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Lt', values: ['10'] }] }] }, node: node('n', { v: '9' }), want: true },
    { name: 'Lt equal', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Lt', values: ['10'] }] }] }, node: node('n', { v: '10' }), want: false },
    { name: 'Gt non-integer label', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['1'] }] }] }, node: node('n', { v: 'abc' }), want: false },
    { name: 'Gt missing label', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['1'] }] }] }, node: node('n', {}), want: false },
    { name: 'Gt with int64-size numbers', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['9007199254740993'] }] }] }, node: node('n', { v: '9007199254740994' }), want: true },
    { name: 'Gt with int64-size numbers, equal', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['9007199254740993'] }] }] }, node: node('n', { v: '9007199254740993' }), want: false },
    { name: 'Gt with a negative bound: not a valid label value, so the term fails', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['-5'] }] }] }, node: node('n', { v: '-4' }), want: false },
    { name: 'prototype keys are not labels', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }] }, node: node('n', {}), want: false },
    { name: 'term with invalid operator never matches', ns: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Foo' as 'In', values: ['b'] }] }] }, node: node('n', { a: 'b' }), want: false },
  ];
  for (const c of cases) it(c.name, () => expect(matchNodeSelectorTerms(c.node, c.ns)).toBe(c.want));

  it('unsupported operator error text', () => {
    const r = newNodeSelector({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Foo' as 'In' }] }] });
    expect(!r.ok && r.errors[0]).toMatchObject({ field: 'nodeSelectorTerms[0].matchExpressions[0].operator', detail: 'supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"' });
  });
  it('validates arity and values like labels.NewRequirement', () => {
    const r = newNodeSelector({
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'foo', operator: 'Exists', values: ['bar', 'baz'] }] },
        { matchExpressions: [{ key: 'foo', operator: 'In', values: [] }] },
        { matchExpressions: [{ key: 'foo', operator: 'Gt', values: ['x'] }] },
      ],
    });
    expect(!r.ok && r.errors.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'nodeSelectorTerms[0].matchExpressions[0].values: values set must be empty for exists and does not exist',
      "nodeSelectorTerms[1].matchExpressions[0].values: for 'in', 'notin' operators, values set can't be empty",
      "nodeSelectorTerms[2].matchExpressions[0].values[0]: for 'Gt', 'Lt' operators, the value must be an integer",
    ]);
  });
});

describe('PreferredSchedulingTerms (TestPreferredSchedulingTermsScore)', () => {
  it('reports parse errors with index paths', () => {
    const terms: PreferredSchedulingTerm[] = [
      { weight: 1, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1', 'host_2'] }] } },
      { weight: 1, preference: { matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] } },
      { weight: 1, preference: { matchExpressions: [{ key: 'invalid key', operator: 'In', values: ['label_value'] }] } },
    ];
    const r = newPreferredSchedulingTerms(terms);
    expect(!r.ok && r.errors.map((e) => [e.field, e.detail])).toEqual([
      ['[0].matchFields[0].values', 'must have one element'],
      ['[2].matchExpressions[0].key', KEY_DETAIL],
    ]);
  });
  it('zero-weight terms are not parsed', () => {
    const r = newPreferredSchedulingTerms([{ weight: 0, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1', 'host_2'] }] } }]);
    expect(r.ok && r.terms.score(node('host_1'))).toBe(0);
  });
  it('first and third term match', () => {
    const r = newPreferredSchedulingTerms([
      { weight: 5, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] } },
      { weight: 7, preference: { matchExpressions: [{ key: 'unknown_label', operator: 'In', values: ['unknown_label_val'] }] } },
      { weight: 11, preference: { matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }] } },
    ]);
    expect(r.ok && r.terms.score(node('host_1', { label_1: 'label_1_val' }))).toBe(16);
  });
});

describe('requiredNodeAffinity (TestPodMatchesNodeSelectorAndAffinityTerms)', () => {
  const withAffinity = (ns: NodeSelector, nodeSelector?: Record<string, string>): Pod =>
    makePod('p', { spec: { nodeSelector, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: ns } } } });
  const cases: { name: string; pod: Pod; labels?: Record<string, string>; nodeName?: string; want: boolean }[] = [
    { name: 'no selector', pod: makePod('p'), want: true },
    { name: 'missing labels', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar' } } }), want: false },
    { name: 'same labels', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar' } } }), labels: { foo: 'bar' }, want: true },
    { name: 'node labels are superset', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar' } } }), labels: { foo: 'bar', baz: 'blah' }, want: true },
    { name: 'node labels are subset', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar', baz: 'blah' } } }), labels: { foo: 'bar' }, want: false },
    { name: 'In matches', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }] }] }), labels: { foo: 'bar' }, want: true },
    { name: 'Gt matches', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['0204'] }] }] }), labels: { 'kernel-version': '0206' }, want: true },
    { name: 'NotIn matches', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'mem-type', operator: 'NotIn', values: ['DDR', 'DDR2'] }] }] }), labels: { 'mem-type': 'DDR3' }, want: true },
    { name: 'Exists matches', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'GPU', operator: 'Exists' }] }] }), labels: { GPU: 'NVIDIA-GRID-K1' }, want: true },
    { name: 'affinity does not match', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['value1', 'value2'] }] }] }), labels: { foo: 'bar' }, want: false },
    { name: 'empty []NodeSelectorTerm', pod: withAffinity({ nodeSelectorTerms: [] }), labels: { foo: 'bar' }, want: false },
    { name: 'empty MatchExpressions', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [] }] }), labels: { foo: 'bar' }, want: false },
    { name: 'affinity and nodeSelector both satisfied', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }] }, { foo: 'bar' }), labels: { foo: 'bar' }, want: true },
    { name: 'affinity satisfied, nodeSelector not', pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }] }, { foo: 'bar' }), labels: { foo: 'barrrrrr' }, want: false },
    {
      name: 'invalid value in a term',
      pod: withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['invalid value: ___@#$%^'] }] }] }),
      labels: { foo: 'bar' },
      want: false,
    },
    { name: 'matchFields In matches', pod: withAffinity({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node_1'] }] }] }), nodeName: 'node_1', want: true },
    { name: 'matchFields In does not match', pod: withAffinity({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node_1'] }] }] }), nodeName: 'node_2', want: false },
    {
      name: 'two terms: matchFields does not match, matchExpressions does',
      pod: withAffinity({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node_1'] }] }, { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }] }),
      nodeName: 'node_2',
      labels: { foo: 'bar' },
      want: true,
    },
    {
      name: 'one term: matchFields does not match, matchExpressions does',
      pod: withAffinity({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node_1'] }], matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }] }),
      nodeName: 'node_2',
      labels: { foo: 'bar' },
      want: false,
    },
    {
      name: 'one term: both match',
      pod: withAffinity({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node_1'] }], matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }] }),
      nodeName: 'node_1',
      labels: { foo: 'bar' },
      want: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const n = node(c.nodeName ?? 'n', c.labels);
      expect(requiredNodeAffinity(c.pod).match(n)).toBe(c.want);
    });
  }
  it('survives cloneState', () => {
    const pod = withAffinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['99999999999999999'] }] }] }, { zone: 'a' });
    const rna = cloneState(requiredNodeAffinity(pod));
    expect(rna.match(makeNode('x', { labels: { zone: 'a', v: '100000000000000000' } }))).toBe(true);
    expect(rna.match(makeNode('x', { labels: { zone: 'a', v: '99999999999999999' } }))).toBe(false);
    expect(rna.match(makeNode('x', { labels: { zone: 'b', v: '100000000000000000' } }))).toBe(false);
  });
});

describe('isInt64', () => {
  it('follows strconv.ParseInt(s, 10, 64)', () => {
    for (const s of ['0', '-1', '+7', '0204', '9223372036854775807', '-9223372036854775808', '0009223372036854775807']) expect(isInt64(s), s).toBe(true);
    for (const s of ['', '-', '+', '1.0', '1e3', ' 1', '0x10', '9223372036854775808', '-9223372036854775809', '1_000']) expect(isInt64(s), s).toBe(false);
  });
});
