import { describe, expect, it } from 'vitest';
import { FieldPath } from '../../apimachinery/fieldErrors';
import { cloneState } from '../../sim/serial';
import type { Affinity, Node, NodeSelectorTerm, Pod, PreferredSchedulingTerm } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { NodeInfo } from '../framework/nodeInfo';
import { fakeHandle, makePod } from '../testing/fixtures';
import { ERR_REASON_CONFLICT, ERR_REASON_ENFORCED, ERR_REASON_POD, NodeAffinity, nodeAffinityDefinition, type NodeAffinityArgs } from './nodeAffinity';

const node = (name: string, labels?: Record<string, string>): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
const infoOf = (n: Node): NodeInfo => {
  const ni = new NodeInfo(n.metadata.name ?? '');
  ni.setNode(n);
  return ni;
};
const requiredPod = (terms: NodeSelectorTerm[], nodeSelector?: Record<string, string>): Pod =>
  makePod('p', { spec: { ...(nodeSelector ? { nodeSelector } : {}), affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } } });
const plugin = (args: NodeAffinityArgs = {}) => new NodeAffinity(args, fakeHandle([]));
const nameIn = (...values: string[]) => ({ key: 'metadata.name', operator: 'In' as const, values });
const podReject = { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_POD] };

// Port of nodeaffinity/node_affinity_test.go (TestNodeAffinity).
describe('NodeAffinity PreFilter + Filter', () => {
  const cases: {
    name: string;
    pod: Pod;
    labels?: Record<string, string>;
    nodeName?: string;
    args?: NodeAffinityArgs;
    runPreFilter?: boolean;
    wantPreFilterStatus?: unknown;
    wantPreFilterResult?: string[];
    wantStatus?: unknown;
  }[] = [
    { name: 'missing labels', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar' } } }), wantStatus: podReject },
    { name: 'same labels', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar' } } }), labels: { foo: 'bar' } },
    { name: 'node labels are superset', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar' } } }), labels: { foo: 'bar', baz: 'blah' } },
    { name: 'node labels are subset', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar', baz: 'blah' } } }), labels: { foo: 'bar' }, wantStatus: podReject },
    { name: 'matchExpressions In matches', pod: requiredPod([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }] }]), labels: { foo: 'bar' } },
    { name: 'matchExpressions Gt matches', pod: requiredPod([{ matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['0204'] }] }]), labels: { 'kernel-version': '0206' } },
    { name: 'matchExpressions NotIn matches', pod: requiredPod([{ matchExpressions: [{ key: 'mem-type', operator: 'NotIn', values: ['DDR', 'DDR2'] }] }]), labels: { 'mem-type': 'DDR3' } },
    { name: 'matchExpressions Exists matches', pod: requiredPod([{ matchExpressions: [{ key: 'GPU', operator: 'Exists' }] }]), labels: { GPU: 'NVIDIA-GRID-K1' } },
    { name: "affinity that doesn't match the node's labels", pod: requiredPod([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['value1', 'value2'] }] }]), labels: { foo: 'bar' }, wantStatus: podReject },
    { name: 'empty MatchExpressions matches no objects', pod: requiredPod([{ matchExpressions: [] }]), labels: { foo: 'bar' }, wantStatus: podReject },
    { name: 'no Affinity: PreFilter skips', pod: makePod('p'), labels: { foo: 'bar' }, wantPreFilterStatus: 'Skip' },
    { name: 'Affinity with nil NodeSelector: PreFilter skips', pod: makePod('p', { spec: { affinity: { nodeAffinity: {} } } }), labels: { foo: 'bar' }, wantPreFilterStatus: 'Skip' },
    {
      name: 'multiple matchExpressions ANDed that match',
      pod: requiredPod([{ matchExpressions: [{ key: 'GPU', operator: 'Exists' }, { key: 'GPU', operator: 'NotIn', values: ['AMD', 'INTER'] }] }]),
      labels: { GPU: 'NVIDIA-GRID-K1' },
    },
    {
      name: "multiple matchExpressions ANDed that don't match",
      pod: requiredPod([{ matchExpressions: [{ key: 'GPU', operator: 'Exists' }, { key: 'GPU', operator: 'In', values: ['AMD', 'INTER'] }] }]),
      labels: { GPU: 'NVIDIA-GRID-K1' },
      wantStatus: podReject,
    },
    {
      name: 'multiple NodeSelectorTerms ORed',
      pod: requiredPod([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }] }, { matchExpressions: [{ key: 'diffkey', operator: 'In', values: ['wrong', 'value2'] }] }]),
      labels: { foo: 'bar' },
    },
    { name: 'Affinity and NodeSelector both satisfied', pod: requiredPod([{ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }], { foo: 'bar' }), labels: { foo: 'bar' } },
    { name: 'Affinity matches but NodeSelector does not', pod: requiredPod([{ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }], { foo: 'bar' }), labels: { foo: 'barrrrrr' }, wantStatus: podReject },
    { name: 'invalid value in an Affinity term', pod: requiredPod([{ matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['invalid value: ___@#$%^'] }] }]), labels: { foo: 'bar' }, wantStatus: podReject },
    { name: 'matchFields In matches the node', pod: requiredPod([{ matchFields: [nameIn('node1')] }]), nodeName: 'node1', wantPreFilterResult: ['node1'] },
    { name: 'matchFields In does not match the node', pod: requiredPod([{ matchFields: [nameIn('node1')] }]), nodeName: 'node2', wantStatus: podReject, wantPreFilterResult: ['node1'] },
    {
      name: 'two terms: matchFields does not match, but matchExpressions matches',
      pod: requiredPod([{ matchFields: [nameIn('node1'), nameIn('node2')] }, { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }]),
      nodeName: 'node2',
      labels: { foo: 'bar' },
    },
    {
      name: 'one term: matchFields does not match, but matchExpressions matches',
      pod: requiredPod([{ matchFields: [nameIn('node1')], matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }]),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      wantPreFilterResult: ['node1'],
      wantStatus: podReject,
    },
    {
      name: 'one term: both matchFields and matchExpressions match',
      pod: requiredPod([{ matchFields: [nameIn('node1')], matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }]),
      nodeName: 'node1',
      labels: { foo: 'bar' },
      wantPreFilterResult: ['node1'],
    },
    {
      name: 'two terms: both matchFields and matchExpressions do not match',
      pod: requiredPod([{ matchFields: [nameIn('node1')] }, { matchExpressions: [{ key: 'foo', operator: 'In', values: ['not-match-to-bar'] }] }]),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      wantStatus: podReject,
    },
    { name: 'two terms of node.Name affinity', pod: requiredPod([{ matchFields: [nameIn('node1')] }, { matchFields: [nameIn('node2')] }]), nodeName: 'node2', wantPreFilterResult: ['node1', 'node2'] },
    {
      name: 'two conflicting match field requirements',
      pod: requiredPod([{ matchFields: [nameIn('node1'), nameIn('node2')] }]),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      wantPreFilterStatus: { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_CONFLICT] },
      wantStatus: podReject,
    },
    {
      name: "matches added affinity and Pod's node affinity",
      pod: requiredPod([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['foo'] }] }]),
      nodeName: 'node2',
      labels: { zone: 'foo' },
      args: { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [nameIn('node2')] }] } } },
    },
    {
      name: "matches added affinity but not Pod's node affinity",
      pod: requiredPod([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['bar'] }] }]),
      nodeName: 'node2',
      labels: { zone: 'foo' },
      args: { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [nameIn('node2')] }] } } },
      wantStatus: podReject,
    },
    {
      name: "doesn't match added affinity",
      pod: makePod('p'),
      nodeName: 'node2',
      labels: { zone: 'foo' },
      args: { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['bar'] }] }] } } },
      wantStatus: { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_ENFORCED] },
    },
    { name: 'matches node selector correctly even if PreFilter is not called', pod: makePod('p', { spec: { nodeSelector: { foo: 'bar' } } }), labels: { foo: 'bar', baz: 'blah' }, runPreFilter: false },
    {
      name: 'matches node affinity correctly even if PreFilter is not called',
      pod: requiredPod([{ matchExpressions: [{ key: 'GPU', operator: 'Exists' }, { key: 'GPU', operator: 'NotIn', values: ['AMD', 'INTER'] }] }]),
      labels: { GPU: 'NVIDIA-GRID-K1' },
      runPreFilter: false,
    },
    {
      name: 'does not match node affinity when PreFilter is not called',
      pod: requiredPod([{ matchExpressions: [{ key: 'GPU', operator: 'DoesNotExist' }] }]),
      labels: { GPU: 'NVIDIA-GRID-K1' },
      runPreFilter: false,
      wantStatus: podReject,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = plugin(c.args);
      const state = new CycleState();
      if (c.runPreFilter !== false) {
        const r = pl.preFilter(state, c.pod, []);
        if (c.wantPreFilterStatus === 'Skip') expect(r.status?.code).toBe('Skip');
        else expect(r.status).toEqual(c.wantPreFilterStatus ?? null);
        expect(r.result ? [...(r.result.nodeNames ?? [])].sort() : undefined).toEqual(c.wantPreFilterResult);
      }
      expect(pl.filter(state, c.pod, infoOf(node(c.nodeName ?? '', c.labels)))).toEqual(c.wantStatus ?? null);
    });
  }

  it('PreFilter does not skip for an empty (non-nil) nodeSelector', () => {
    expect(plugin().preFilter(new CycleState(), makePod('p', { spec: { nodeSelector: {} } }), []).status).toBeNull();
  });
  it('a cloned cycle state filters the same', () => {
    const pl = plugin();
    const pod = requiredPod([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }], { disk: 'ssd' });
    const state = new CycleState();
    pl.preFilter(state, pod, []);
    const copy = cloneState(state);
    const nodes = [node('n1', { zone: 'a', disk: 'ssd' }), node('n2', { zone: 'b', disk: 'ssd' }), node('n3', { zone: 'a' })].map(infoOf);
    expect(nodes.map((n) => pl.filter(copy, pod, n))).toEqual(nodes.map((n) => pl.filter(state, pod, n)));
    expect(nodes.map((n) => pl.filter(copy, pod, n) === null)).toEqual([true, false, false]);
  });
});

// TestNodeAffinityPriority
describe('NodeAffinity Score + NormalizeScore', () => {
  const label1 = { foo: 'bar' };
  const label2 = { key: 'value' };
  const label3 = { az: 'az1' };
  const label4 = { abc: 'az11', def: 'az22' };
  const label5 = { foo: 'bar', key: 'value', az: 'az1' };
  const affinity1: Affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 2, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } }] } };
  const affinity2: Affinity = {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 2, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } },
        { weight: 4, preference: { matchExpressions: [{ key: 'key', operator: 'In', values: ['value'] }] } },
        {
          weight: 5,
          preference: {
            matchExpressions: [
              { key: 'foo', operator: 'In', values: ['bar'] },
              { key: 'key', operator: 'In', values: ['value'] },
              { key: 'az', operator: 'In', values: ['az1'] },
            ],
          },
        },
      ],
    },
  };
  const addedPreferred: PreferredSchedulingTerm[] = [{ weight: 3, preference: { matchExpressions: [{ key: 'key', operator: 'In', values: ['value'] }] } }];
  const cases: { name: string; pod: Pod; nodes: Node[]; expected: number[]; args?: NodeAffinityArgs; runPreScore?: boolean; wantSkip?: boolean }[] = [
    { name: 'all nodes are same priority as NodeAffinity is nil', pod: makePod('p'), nodes: [node('node1', label1), node('node2', label2), node('node3', label3)], expected: [0, 0, 0], wantSkip: true },
    { name: 'no node matches preferred scheduling requirements', pod: makePod('p', { spec: { affinity: affinity1 } }), nodes: [node('node1', label4), node('node2', label2), node('node3', label3)], expected: [0, 0, 0] },
    { name: 'only node1 matches the preferred scheduling requirements of pod', pod: makePod('p', { spec: { affinity: affinity1 } }), nodes: [node('node1', label1), node('node2', label2), node('node3', label3)], expected: [100, 0, 0] },
    { name: 'all nodes match but with different priorities', pod: makePod('p', { spec: { affinity: affinity2 } }), nodes: [node('node1', label1), node('node5', label5), node('node2', label2)], expected: [18, 100, 36] },
    { name: 'added affinity', pod: makePod('p'), nodes: [node('node1', label1), node('node2', label2)], expected: [100, 0], args: { addedAffinity: affinity1.nodeAffinity } },
    {
      name: 'added affinity and pod has default affinity',
      pod: makePod('p', { spec: { affinity: affinity1 } }),
      nodes: [node('node1', label1), node('node2', label2), node('node3', label5)],
      expected: [40, 60, 100],
      args: { addedAffinity: { preferredDuringSchedulingIgnoredDuringExecution: addedPreferred } },
    },
    { name: 'calculate the priorities correctly even if PreScore is not called', pod: makePod('p', { spec: { affinity: affinity2 } }), nodes: [node('node1', label1), node('node5', label5), node('node2', label2)], expected: [18, 100, 36], runPreScore: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = plugin(c.args);
      const state = new CycleState();
      const infos = c.nodes.map(infoOf);
      if (c.runPreScore !== false) {
        const s = pl.preScore(state, c.pod, infos);
        if (c.wantSkip) {
          expect(s?.code).toBe('Skip');
          return;
        }
        expect(s).toBeNull();
      }
      const list = infos.map((ni) => ({ name: ni.name, score: pl.score(state, c.pod, ni) as number }));
      expect(pl.normalizeScore(state, c.pod, list)).toBeNull();
      expect(list.map((s) => s.score)).toEqual(c.expected);
    });
  }
  it('PreScore reports a bad preferred term as an Error', () => {
    const pod = makePod('p', { spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchFields: [nameIn('a', 'b')] } }] } } } });
    expect(plugin().preScore(new CycleState(), pod, [])).toEqual({ code: 'Error', reasons: ['[0].matchFields[0].values: Invalid value: []string{"a", "b"}: must have one element'] });
  });
});

// Test_isSchedulableAfterNodeChange
describe('NodeAffinity queueing hint', () => {
  const pod = requiredPod([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }]);
  const enforced: NodeAffinityArgs = { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }] } } };
  const ev = plugin().eventsToRegister()[0]!;
  const cases: { name: string; args?: NodeAffinityArgs; oldObj?: Node; newObj: Node; want: 'Queue' | 'QueueSkip' }[] = [
    { name: 'skip-queue-on-add', newObj: node('n'), want: 'QueueSkip' },
    { name: 'queue-on-add', newObj: node('n', { foo: 'bar' }), want: 'Queue' },
    { name: 'skip-unrelated-changes', oldObj: node('n'), newObj: node('n'), want: 'QueueSkip' },
    { name: 'skip-unrelated-changes-on-labels', oldObj: node('n'), newObj: node('n', { k: 'v' }), want: 'QueueSkip' },
    { name: 'skip-labels-changes-on-suitable-node', oldObj: node('n', { foo: 'bar' }), newObj: node('n', { foo: 'bar', k: 'v' }), want: 'QueueSkip' },
    { name: 'skip-labels-changes-on-node-from-suitable-to-unsuitable', oldObj: node('n', { foo: 'bar' }), newObj: node('n', { k: 'v' }), want: 'QueueSkip' },
    { name: 'queue-on-labels-change-makes-pod-schedulable', oldObj: node('n'), newObj: node('n', { foo: 'bar' }), want: 'Queue' },
    { name: 'skip-queue-on-add-scheduler-enforced-node-affinity', args: enforced, newObj: node('n'), want: 'QueueSkip' },
    { name: 'queue-on-add-scheduler-enforced-node-affinity', args: enforced, newObj: node('n', { foo: 'bar' }), want: 'Queue' },
  ];
  for (const c of cases) it(c.name, () => expect(plugin(c.args).isSchedulableAfter(ev, pod, c.oldObj, c.newObj)).toBe(c.want));
  it('registers Node Add|UpdateNodeLabel', () => expect(plugin().eventsToRegister()).toEqual([{ resource: 'Node', actions: ['Add', 'UpdateNodeLabel'] }]));
});

// validation_pluginargs_test.go (TestValidateNodeAffinityArgs)
describe('NodeAffinityArgs validation', () => {
  const path = FieldPath.root('args');
  const validate = (a: NodeAffinityArgs) => nodeAffinityDefinition.validateArgs!(a, path).map((e) => [e.type, e.field]);
  it('empty', () => expect(validate({})).toEqual([]));
  it('valid added affinity', () => {
    expect(
      validate({
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'label-1', operator: 'In', values: ['label-1-val'] }] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] } }],
        },
      }),
    ).toEqual([]);
  });
  it('invalid added affinity', () => {
    expect(
      validate({
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'invalid/label/key', operator: 'In', values: ['label-1-val'] }] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1', 'node-2'] }] } }],
        },
      }),
    ).toEqual([
      ['FieldValueInvalid', 'args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key'],
      ['FieldValueInvalid', 'args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values'],
    ]);
  });
  it('defaults leave args as given', () => {
    expect(nodeAffinityDefinition.defaultArgs!(undefined)).toEqual({});
    expect(nodeAffinityDefinition.argsKind).toBe('NodeAffinityArgs');
  });
});
