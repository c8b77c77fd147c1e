// Ports of plugin_test.go (queueing hints), the PodTopologySpreadArgs cases of
// validation_pluginargs_test.go and helper/spread_test.go, plus snapshot
// behaviour of the cycle-state values.
import { describe, expect, it } from 'vitest';
import { errorString, FieldPath } from '../../../apimachinery/fieldErrors';
import { toString as selectorString } from '../../../apimachinery/selectors/labels';
import type { KObject } from '../../../apimachinery/types';
import { cloneState } from '../../../sim/serial';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import { PodInfo } from '../../framework/podInfo';
import { defaultSelector } from './defaultSelector';
import { PodTopologySpread, podTopologySpreadDefinition, semanticDeepEqual } from './index';
import { barSelector, fooSelector, handleFor, node, pod, replicaSet, service, snapshot, spread, taints } from './testHelpers';

const list = () => new PodTopologySpread({ defaultingType: 'List' }, handleFor([]));
const foo = { foo: '' };

describe('PodTopologySpread queueing hints', () => {
  const zonePod = () => pod('p', { spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] });
  const zoneNodePod = () => pod('p', { spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)] });
  const nodeCases: { name: string; pod: Pod; oldNode?: Node; newNode?: Node; want: 'Queue' | 'QueueSkip' }[] = [
    { name: 'node updates label which matches topologyKey', pod: zonePod(), oldNode: node('node-a', { zone: 'zone1' }), newNode: node('node-a', { zone: 'zone2' }), want: 'Queue' },
    {
      name: "node that doesn't match topologySpreadConstraints updates non-related label",
      pod: zonePod(),
      oldNode: node('node-a', { foo: 'bar1' }),
      newNode: node('node-a', { foo: 'bar2' }),
      want: 'QueueSkip',
    },
    {
      name: 'node that match topologySpreadConstraints adds non-related label',
      pod: zoneNodePod(),
      oldNode: node('node-a', { zone: 'zone1', node: 'node1', foo: 'bar' }),
      newNode: node('node-a', { zone: 'zone1', node: 'node1' }),
      want: 'QueueSkip',
    },
    { name: 'create node with non-related labels', pod: zonePod(), newNode: node('node-a', { foo: 'bar' }), want: 'QueueSkip' },
    { name: 'create node with related labels', pod: zonePod(), newNode: node('node-a', { zone: 'zone1' }), want: 'Queue' },
    { name: 'delete node with non-related labels', pod: zonePod(), oldNode: node('node-a', { foo: 'bar' }), want: 'QueueSkip' },
    { name: 'delete node with related labels', pod: zonePod(), oldNode: node('node-a', { zone: 'zone1' }), want: 'Queue' },
    { name: 'add node with related labels that only match one of topologySpreadConstraints', pod: zoneNodePod(), newNode: node('node-a', { zone: 'zone1' }), want: 'QueueSkip' },
    { name: 'add node with related labels that match all topologySpreadConstraints', pod: zoneNodePod(), newNode: node('node-a', { zone: 'zone1', node: 'node1' }), want: 'Queue' },
    {
      name: 'update node with related labels that only match one of topologySpreadConstraints',
      pod: zoneNodePod(),
      oldNode: node('node-a', { zone: 'zone1' }),
      newNode: node('node-a', { zone: 'zone1' }),
      want: 'QueueSkip',
    },
    {
      name: 'update node with related labels that match all topologySpreadConstraints',
      pod: zoneNodePod(),
      oldNode: node('node-a', { zone: 'zone1', node: 'node1' }),
      newNode: node('node-a', { zone: 'zone1', node: 'node2' }),
      want: 'Queue',
    },
    {
      name: 'update node with different taints that match all topologySpreadConstraints',
      pod: zoneNodePod(),
      oldNode: node('node-a', { zone: 'zone1', node: 'node1' }, [{ key: 'aaa', value: 'bbb', effect: 'NoSchedule' }]),
      newNode: node('node-a', { zone: 'zone1', node: 'node1' }, [{ key: 'ccc', value: 'bbb', effect: 'NoSchedule' }]),
      want: 'Queue',
    },
    {
      name: 'update node with different taints that only match one of topologySpreadConstraints',
      pod: zoneNodePod(),
      oldNode: node('node-a', { node: 'node1' }, [{ key: 'aaa', value: 'bbb', effect: 'NoSchedule' }]),
      newNode: node('node-a', { node: 'node1' }, [{ key: 'ccc', value: 'bbb', effect: 'NoSchedule' }]),
      want: 'QueueSkip',
    },
    { name: 'a matching node gets its first taint', pod: zonePod(), oldNode: node('node-a', { zone: 'zone1' }), newNode: node('node-a', { zone: 'zone1' }, taints), want: 'Queue' },
  ];
  for (const tc of nodeCases) {
    it(`node: ${tc.name}`, () => {
      expect(list().isSchedulableAfter({ resource: 'Node', actions: ['Update'] }, tc.pod, tc.oldNode, tc.newNode)).toBe(tc.want);
    });
  }

  const fooPod = (constraints: TopologySpreadConstraint[] = [spread(1, 'zone', 'DoNotSchedule', fooSelector)]) => pod('p', { labels: foo, spread: constraints });
  const twoConstraints = [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)];
  const other = (labels?: Record<string, string>, o: { node?: string; ns?: string } = {}) => pod('other', { labels, node: o.node, ns: o.ns });
  const podCases: { name: string; pod: Pod; oldPod?: Pod; newPod?: Pod; want: 'Queue' | 'QueueSkip' }[] = [
    { name: 'add pod with labels match topologySpreadConstraints selector', pod: fooPod(), newPod: other(foo, { node: 'fake-node' }), want: 'Queue' },
    { name: 'add un-scheduled pod', pod: fooPod(), newPod: other(foo), want: 'QueueSkip' },
    { name: 'update un-scheduled pod', pod: fooPod(), newPod: other(foo), oldPod: other({ bar: '' }), want: 'QueueSkip' },
    { name: 'delete un-scheduled pod', pod: fooPod(), oldPod: other(foo), want: 'QueueSkip' },
    { name: 'add pod with different namespace', pod: fooPod(), newPod: other(foo, { node: 'fake-node', ns: 'fake-namespace' }), want: 'QueueSkip' },
    { name: "add pod with labels don't match topologySpreadConstraints selector", pod: fooPod(), newPod: other({ bar: '' }, { node: 'fake-node' }), want: 'QueueSkip' },
    { name: 'delete pod with labels that match topologySpreadConstraints selector', pod: fooPod(), oldPod: other(foo, { node: 'fake-node' }), want: 'Queue' },
    { name: "delete pod with labels that don't match topologySpreadConstraints selector", pod: fooPod(), oldPod: other({ bar: '' }, { node: 'fake-node' }), want: 'QueueSkip' },
    {
      name: "update pod's non-related label",
      pod: fooPod(),
      oldPod: other({ foo: '', bar: 'bar1' }, { node: 'fake-node' }),
      newPod: other({ foo: '', bar: 'bar2' }, { node: 'fake-node' }),
      want: 'QueueSkip',
    },
    { name: "add pod's label that matches topologySpreadConstraints selector", pod: fooPod(), oldPod: other(undefined, { node: 'fake-node' }), newPod: other(foo, { node: 'fake-node' }), want: 'Queue' },
    { name: 'delete pod label that matches topologySpreadConstraints selector', pod: fooPod(), oldPod: other(foo, { node: 'fake-node' }), newPod: other(undefined, { node: 'fake-node' }), want: 'Queue' },
    {
      name: "change pod's label that matches topologySpreadConstraints selector",
      pod: fooPod(),
      oldPod: other({ foo: 'foo1' }, { node: 'fake-node' }),
      newPod: other({ foo: 'foo2' }, { node: 'fake-node' }),
      want: 'QueueSkip',
    },
    {
      name: "add pod's label that matches topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: fooPod(twoConstraints),
      oldPod: other(foo, { node: 'fake-node' }),
      newPod: other({ foo: '', bar: 'bar2' }, { node: 'fake-node' }),
      want: 'Queue',
    },
    {
      name: "change pod's label that doesn't match topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: fooPod(twoConstraints),
      oldPod: other(foo, { node: 'fake-node' }),
      newPod: other({ foo: '', baz: '' }, { node: 'fake-node' }),
      want: 'QueueSkip',
    },
    {
      name: "change pod's label that match topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: fooPod(twoConstraints),
      oldPod: other({ foo: '', bar: '' }, { node: 'fake-node' }),
      newPod: other({ foo: '', bar: 'bar2' }, { node: 'fake-node' }),
      want: 'QueueSkip',
    },
  ];
  for (const tc of podCases) {
    it(`pod: ${tc.name}`, () => {
      expect(list().isSchedulableAfter({ resource: 'Pod', actions: ['Update'] }, tc.pod, tc.oldPod, tc.newPod)).toBe(tc.want);
    });
  }

  // The target pod itself changes (same UID).
  const self = (honor: 'Honor' | 'Ignore', labels?: Record<string, string>, tolerate = false): Pod =>
    pod('p', {
      labels,
      ...(tolerate ? { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' as const, effect: 'NoSchedule' as const }] } : {}),
      spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector, undefined, undefined, honor), spread(1, 'node', 'DoNotSchedule', barSelector)],
    });
  const selfCases: { name: string; pod: Pod; oldPod: Pod; newPod: Pod; want: 'Queue' | 'QueueSkip' }[] = [
    {
      name: 'the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new toleration',
      pod: self('Honor', foo),
      oldPod: self('Honor', foo),
      newPod: self('Honor', foo, true),
      want: 'Queue',
    },
    {
      name: 'the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor and has got a new toleration',
      pod: self('Ignore', foo),
      oldPod: self('Ignore', foo),
      newPod: self('Ignore', foo, true),
      want: 'QueueSkip',
    },
    {
      name: 'the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of the constraint',
      pod: self('Ignore', foo),
      oldPod: self('Ignore'),
      newPod: self('Ignore', foo),
      want: 'Queue',
    },
    {
      name: 'the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label',
      pod: self('Ignore', foo),
      oldPod: self('Ignore'),
      newPod: self('Ignore', { unrelated: '' }),
      want: 'QueueSkip',
    },
  ];
  for (const tc of selfCases) {
    it(`pod: ${tc.name}`, () => {
      expect(list().isSchedulableAfter({ resource: 'Pod', actions: ['Update'] }, tc.pod, tc.oldPod, tc.newPod)).toBe(tc.want);
    });
  }

  it('EventsToRegister (queueing hints on)', () => {
    expect(list().eventsToRegister()).toEqual([
      { resource: 'Pod', actions: ['Add', 'UpdatePodLabel', 'UpdatePodTolerations', 'Delete'] },
      { resource: 'Node', actions: ['Add', 'Delete', 'UpdateNodeLabel', 'UpdateNodeTaint'] },
    ]);
  });

  it('semanticDeepEqual: nil and empty collections are equal', () => {
    expect(semanticDeepEqual(undefined, {})).toBe(true);
    expect(semanticDeepEqual([], undefined)).toBe(true);
    expect(semanticDeepEqual({ a: '1' }, { a: '1' })).toBe(true);
    expect(semanticDeepEqual({ a: '1' }, { a: '2' })).toBe(false);
    expect(semanticDeepEqual([{ key: 'a' }], [])).toBe(false);
  });
});

describe('PodTopologySpreadArgs', () => {
  const def = podTopologySpreadDefinition;
  const validate = (args: Parameters<NonNullable<typeof def.validateArgs>>[0]) => def.validateArgs!(args, FieldPath.root('')).map(errorString);

  it('defaults: defaultingType System', () => {
    expect(def.defaultArgs!(undefined)).toEqual({ defaultingType: 'System' });
    expect(def.defaultArgs!({ defaultingType: 'List', defaultConstraints: [] })).toEqual({ defaultingType: 'List', defaultConstraints: [] });
  });

  it('valid args', () => {
    expect(validate({ defaultingType: 'System' })).toEqual([]);
    expect(
      validate({
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' },
          { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
        ],
      }),
    ).toEqual([]);
  });

  it('upstream messages', () => {
    expect(validate({ defaultingType: 'List', defaultConstraints: [{ maxSkew: -1, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' }] })).toEqual([
      'defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)',
    ]);
    expect(validate({ defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'ScheduleAnyway' }] })).toEqual([
      'defaultConstraints[0].topologyKey: Required value: can not be empty',
    ]);
    expect(validate({ defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'Bogus' as 'ScheduleAnyway' }] })).toEqual([
      'defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Bogus": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ]);
    expect(validate({ defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: '' as 'ScheduleAnyway' }] })).toEqual([
      'defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty',
    ]);
    expect(
      validate({
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' },
          { maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' },
        ],
      }),
    ).toEqual(['defaultConstraints[1]: Duplicate value: "{node, ScheduleAnyway}"']);
    expect(validate({ defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {} }] })).toEqual([
      'defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod',
    ]);
    expect(validate({ defaultingType: 'System', defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' }] })).toEqual([
      'defaultingType: Invalid value: "System": when .defaultConstraints are not empty',
    ]);
    expect(validate({ defaultingType: 'Unknown' as 'List' })).toEqual(['defaultingType: Unsupported value: "Unknown": supported values: "System", "List"']);
    expect(validate({ defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'a b', whenUnsatisfiable: 'ScheduleAnyway' }] })[0]).toMatch(
      /^defaultConstraints\[0\]\.topologyKey: Invalid value: "a b": name part must consist of alphanumeric characters/,
    );
  });

  it('the factory applies the system defaults (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway)', () => {
    const pl = def.factory({ defaultingType: 'System' }, handleFor([])) as PodTopologySpread;
    expect(pl.systemDefaulted).toBe(true);
    expect(pl.defaultConstraints).toEqual([
      { topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
      { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
    ]);
    expect(pl.name).toBe('PodTopologySpread');
  });
});

describe('helper.DefaultSelector', () => {
  const owner = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, name });
  const rc = (ns: string, name: string, selector: Record<string, string>): KObject => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name, namespace: ns }, spec: { selector } });
  const ss = (ns: string, name: string, sel: object): KObject => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: ns }, spec: { selector: sel } });
  const sel = (p: Pod, objs: Partial<Record<'services' | 'replicationcontrollers' | 'replicasets' | 'statefulsets', KObject[]>>) => selectorString(defaultSelector(p, handleFor([], objs)));

  it('merges the selectors of matching services of the namespace only', () => {
    const p = pod('p', { labels: { app: 'web', tier: 'fe' } });
    const services = [
      service('default', 's1', { app: 'web' }),
      service('default', 's2', { tier: 'fe' }),
      service('default', 's3', { app: 'db' }),
      service('other', 's4', { app: 'web', zone: 'x' }),
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'nil', namespace: 'default' }, spec: {} },
    ];
    expect(sel(p, { services })).toBe('app=web,tier=fe');
  });

  it('adds the controller selector: RC merges its set, RS and SS add their requirements', () => {
    const labels = { app: 'web', pod: 'x' };
    expect(sel(pod('p', { labels, owner: owner('v1', 'ReplicationController', 'rc') }), { replicationcontrollers: [rc('default', 'rc', { pod: 'x' })] })).toBe('pod=x');
    expect(sel(pod('p', { labels, owner: owner('apps/v1', 'ReplicaSet', 'rs') }), { services: [service('default', 's', { app: 'web' })], replicasets: [replicaSet('default', 'rs', { matchExpressions: [{ key: 'pod', operator: 'Exists' }] })] })).toBe(
      'app=web,pod',
    );
    expect(sel(pod('p', { labels, owner: owner('apps/v1', 'StatefulSet', 'ss') }), { statefulsets: [ss('default', 'ss', { matchLabels: { app: 'web' } })] })).toBe('app=web');
  });

  it('ignores unknown owners and owners of another group/version', () => {
    expect(sel(pod('p', { labels: { a: 'b' }, owner: owner('apps/v1beta1', 'ReplicaSet', 'rs') }), { replicasets: [replicaSet('default', 'rs', { matchLabels: { a: 'b' } })] })).toBe('');
    expect(sel(pod('p', { labels: { a: 'b' }, owner: owner('batch/v1', 'Job', 'j') }), {})).toBe('');
  });
});

describe('PodTopologySpread cycle state is snapshot-safe', () => {
  it('a cloneState copy of the cycle state filters and updates exactly as the original', () => {
    const nodes = [node('node-a', { zone: 'zone1', node: 'node-a' }), node('node-b', { zone: 'zone1', node: 'node-b' }), node('node-x', { zone: 'zone2', node: 'node-x' })];
    const infos = snapshot([pod('e1', { node: 'node-a', labels: foo }), pod('e2', { node: 'node-x', labels: foo })], nodes);
    const pl = new PodTopologySpread({ defaultingType: 'List' }, handleFor(infos));
    const incoming = pod('p', { labels: foo, nodeSelector: { zone: 'zone1' }, spread: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)] });
    const cs = new CycleState();
    pl.preFilter(cs, incoming, infos);
    const copy = cloneState(cs);
    const verdicts = (s: CycleState) => infos.map((ni) => pl.filter(s, incoming, ni)?.code ?? 'Success');
    expect(verdicts(copy)).toEqual(verdicts(cs));
    expect(verdicts(cs)).toEqual(['Unschedulable', 'Success', 'Success']);
    const added = new PodInfo(pod('e3', { node: 'node-b', labels: foo }));
    pl.addPod(cs, incoming, added, infos[1]!);
    pl.addPod(copy, incoming, added, infos[1]!);
    expect(verdicts(copy)).toEqual(verdicts(cs));
    // node-b now holds a matching pod too: node-a's skew drops to the minimum.
    expect(verdicts(cs)).toEqual(['Success', 'Success', 'Success']);
  });
});
