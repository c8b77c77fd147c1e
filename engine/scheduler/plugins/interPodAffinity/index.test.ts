// Ports of plugin_test.go (queueing hints) and the InterPodAffinityArgs cases
// of validation_pluginargs_test.go / defaults_test.go, plus snapshot behaviour.
import { describe, expect, it } from 'vitest';
import { errorString, FieldPath } from '../../../apimachinery/fieldErrors';
import { cloneState } from '../../../sim/serial';
import type { Node, Pod } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import { PodInfo } from '../../framework/podInfo';
import { InterPodAffinity, interPodAffinityDefinition } from './index';
import { existsSel, handleFor, inSel, node, pod, required, snapshot, term } from './testHelpers';

const plugin = () => new InterPodAffinity({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false }, handleFor([]));

describe('InterPodAffinity queueing hints', () => {
  const affIn = (tk: string) => pod({ name: 'p', affinity: required([term(inSel('service', ['securityscan', 'value2']), tk)]) });
  const antiIn = () => pod({ name: 'p', affinity: required([], [term(inSel('service', ['securityscan', 'value2']), 'region')]) });
  const affExists2 = () => pod({ name: 'p', affinity: required([term(existsSel('aaa'), 'hostname'), term(existsSel('bbb'), 'hostname')]) });
  const other = (labels: Record<string, string>, scheduled = true) => pod({ name: 'other', labels, node: scheduled ? 'fake-node' : undefined });
  const podCases: { name: string; pod: Pod; oldPod?: Pod; newPod?: Pod; want: 'Queue' | 'QueueSkip' }[] = [
    { name: 'add a pod which matches the pod affinity', pod: affIn('region'), newPod: other({ service: 'securityscan' }), want: 'Queue' },
    { name: 'add an un-scheduled pod', pod: affIn('region'), newPod: other({ service: 'securityscan' }, false), want: 'QueueSkip' },
    { name: "add a pod which doesn't match the pod affinity", pod: affIn('region'), newPod: other({ aaa: 'a' }), want: 'QueueSkip' },
    { name: 'update a pod from non-match to match pod affinity', pod: affIn('region'), newPod: other({ service: 'securityscan' }), oldPod: other({ aaa: 'a' }), want: 'Queue' },
    {
      name: "the updating pod matches target pod's affinity both before and after label changes",
      pod: affIn('region'),
      newPod: other({ service: 'securityscan' }),
      oldPod: other({ service: 'value2' }),
      want: 'QueueSkip',
    },
    { name: 'update an un-scheduled pod', pod: affIn('region'), newPod: other({ service: 'securityscan' }, false), oldPod: other({ service: 'securityscan' }, false), want: 'QueueSkip' },
    { name: 'update a pod from match to non-match the pod affinity', pod: affIn('region'), newPod: other({ aaa: 'a' }), oldPod: other({ service: 'securityscan' }), want: 'QueueSkip' },
    { name: "update a pod from match to non-match pod's affinity - multiple terms case", pod: affExists2(), newPod: other({ service: 'securityscan' }), oldPod: other({ aaa: 'a' }), want: 'QueueSkip' },
    { name: "update a pod from non-match to match pod's affinity - multiple terms case", pod: affExists2(), newPod: other({ aaa: '', bbb: '' }), oldPod: other({ aaa: 'a' }), want: 'Queue' },
    {
      name: 'modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity',
      pod: antiIn(),
      newPod: other({ service: 'aaaa' }),
      oldPod: other({ service: 'securityscan' }),
      want: 'Queue',
    },
    {
      name: 'modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity',
      pod: antiIn(),
      newPod: other({ service: 'securityscan' }),
      oldPod: other({ service: 'bbb' }),
      want: 'QueueSkip',
    },
    { name: "delete a pod which doesn't match pod's anti-affinity", pod: antiIn(), oldPod: other({ aaa: 'a' }), want: 'QueueSkip' },
    { name: "delete a pod which matches pod's anti-affinity", pod: antiIn(), oldPod: other({ service: 'securityscan' }), want: 'Queue' },
  ];
  for (const tc of podCases) {
    it(`pod: ${tc.name}`, () => {
      expect(plugin().isSchedulableAfter({ resource: 'Pod', actions: ['Update'] }, tc.pod, tc.oldPod, tc.newPod)).toBe(tc.want);
    });
  }

  const anti = () => pod({ name: 'p', affinity: required([], [term({ matchLabels: { another: 'label' } }, 'zone')]) });
  const nodeCases: { name: string; pod: Pod; oldNode?: Node; newNode: Node; want: 'Queue' | 'QueueSkip' }[] = [
    { name: 'add a new node with matched pod affinity topologyKey', pod: affIn('zone'), newNode: node('node-a', { zone: 'zone1' }), want: 'Queue' },
    { name: 'add a new node without matched topologyKey', pod: affIn('region'), newNode: node('node-a', { zone: 'zone1' }), want: 'QueueSkip' },
    { name: 'update node label but not topologyKey', pod: affIn('zone'), oldNode: node('node-a', { aaa: 'a' }), newNode: node('node-a', { aaa: 'b' }), want: 'QueueSkip' },
    {
      name: "update node label that isn't related to the pod affinity",
      pod: affIn('zone'),
      oldNode: node('node-a', { zone: 'zone1' }),
      newNode: node('node-a', { zone: 'zone1', 'unrelated-label': 'unrelated' }),
      want: 'QueueSkip',
    },
    { name: 'update node with different affinity topologyKey value', pod: affIn('zone'), oldNode: node('node-a', { zone: 'zone1' }), newNode: node('node-a', { zone: 'zone2' }), want: 'Queue' },
    { name: 'update node to have the affinity topology label', pod: affIn('zone'), oldNode: node('node-a', { aaa: 'a' }), newNode: node('node-a', { zone: 'zone1' }), want: 'Queue' },
    { name: 'add a new node with matched pod anti-affinity topologyKey', pod: anti(), newNode: node('node-a', { zone: 'zone1' }), want: 'Queue' },
    { name: 'add a new node without matched pod anti-affinity topologyKey', pod: anti(), newNode: node('node-a'), want: 'Queue' },
    {
      name: "update node label that isn't related to the pod anti-affinity",
      pod: anti(),
      oldNode: node('node-a', { zone: 'zone1' }),
      newNode: node('node-a', { zone: 'zone1', 'unrelated-label': 'unrelated' }),
      want: 'QueueSkip',
    },
    { name: 'update node with different anti-affinity topologyKey value', pod: anti(), oldNode: node('node-a', { zone: 'zone1' }), newNode: node('node-a', { zone: 'zone2' }), want: 'Queue' },
    { name: 'update node to have the anti-affinity topology label', pod: anti(), oldNode: node('node-a', { aaa: 'a' }), newNode: node('node-a', { zone: 'zone1' }), want: 'QueueSkip' },
    { name: 'update node label not to have anti-affinity topology label', pod: anti(), oldNode: node('node-a', { zone: 'zone1' }), newNode: node('node-a', { aaa: 'a' }), want: 'Queue' },
  ];
  for (const tc of nodeCases) {
    it(`node: ${tc.name}`, () => {
      expect(plugin().isSchedulableAfter({ resource: 'Node', actions: ['Update'] }, tc.pod, tc.oldNode, tc.newNode)).toBe(tc.want);
    });
  }

  it('EventsToRegister (queueing hints on: no UpdateNodeTaint)', () => {
    expect(plugin().eventsToRegister()).toEqual([
      { resource: 'Pod', actions: ['Add', 'UpdatePodLabel', 'Delete'] },
      { resource: 'Node', actions: ['Add', 'UpdateNodeLabel'] },
    ]);
  });
});

describe('InterPodAffinityArgs', () => {
  const def = interPodAffinityDefinition;
  it('defaults: hardPodAffinityWeight 1, ignorePreferredTermsOfExistingPods false', () => {
    expect(def.defaultArgs!(undefined)).toEqual({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false });
    expect(def.defaultArgs!({ hardPodAffinityWeight: 0 })).toEqual({ hardPodAffinityWeight: 0, ignorePreferredTermsOfExistingPods: false });
  });
  it('validation: [0, 100]', () => {
    const v = (w: number) => def.validateArgs!({ hardPodAffinityWeight: w, ignorePreferredTermsOfExistingPods: false }, FieldPath.root('args')).map(errorString);
    expect(v(0)).toEqual([]);
    expect(v(100)).toEqual([]);
    expect(v(-1)).toEqual(['args.hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]']);
    expect(v(101)).toEqual(['args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]']);
  });
  it('the factory builds the plugin', () => {
    const pl = def.factory({ hardPodAffinityWeight: 2, ignorePreferredTermsOfExistingPods: true }, handleFor([]));
    expect(pl.name).toBe('InterPodAffinity');
  });
});

describe('InterPodAffinity cycle state is snapshot-safe', () => {
  it('a cloneState copy of the cycle state filters and updates exactly as the original', () => {
    const nodes = [node('a', { zone: 'z1', hostname: 'a' }), node('b', { zone: 'z1', hostname: 'b' }), node('c', { zone: 'z2', hostname: 'c' })];
    const existing = [
      pod({ name: 'web-1', node: 'a', labels: { app: 'web' } }),
      pod({ name: 'db-1', node: 'c', labels: { app: 'db' }, affinity: required([], [term(inSel('app', ['web']), 'hostname')]) }),
    ];
    const infos = snapshot(existing, nodes);
    const pl = new InterPodAffinity({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false }, handleFor(infos));
    const incoming = pod({ name: 'web-2', labels: { app: 'web' }, affinity: required([term(inSel('app', ['web']), 'zone')], [term(inSel('app', ['web']), 'hostname')]) });
    const cs = new CycleState();
    expect(pl.preFilter(cs, incoming, infos).status).toBeNull();
    const copy = cloneState(cs);
    const verdicts = (s: CycleState) => infos.map((ni) => pl.filter(s, incoming, ni)?.reasons[0] ?? 'ok');
    expect(verdicts(cs)).toEqual(["node(s) didn't match pod anti-affinity rules", 'ok', "node(s) didn't match pod affinity rules"]);
    expect(verdicts(copy)).toEqual(verdicts(cs));
    // Preemption's what-if: remove web-1 from a.
    const victim = new PodInfo(existing[0]!);
    pl.removePod(cs, incoming, victim, infos[0]!);
    pl.removePod(copy, incoming, victim, infos[0]!);
    expect(verdicts(copy)).toEqual(verdicts(cs));
    // No web pod left anywhere: the first-of-its-group rule admits nodes with the zone key, except c (db-1 hates web on its host).
    expect(verdicts(cs)).toEqual(['ok', 'ok', "node(s) didn't satisfy existing pods anti-affinity rules"]);
  });
});
