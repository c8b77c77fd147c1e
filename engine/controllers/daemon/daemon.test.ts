import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { addDaemonPodTolerations, createPodTemplate, nodeShouldRunDaemonPod, pinToNode, targetNodeName } from './util';
import { constructHistory, rollingUpdate, snapshot } from './update';

const NOW = 100_000;

function ds(spec: Record<string, unknown> = {}, image = 'fluentd:1'): KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', uid: 'uid-ds', generation: 1, annotations: { 'deprecated.daemonset.template.generation': '1' } },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' }, creationTimestamp: null }, spec: { containers: [{ name: 'a', image }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
      ...spec,
    },
    status: {},
  };
}

function node(name: string, extra: { labels?: Record<string, string>; taints?: unknown[]; unschedulable?: boolean } = {}): KObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } }, spec: { ...(extra.taints ? { taints: extra.taints } : {}), ...(extra.unschedulable ? { unschedulable: true } : {}) }, status: {} };
}

function pod(name: string, nodeName: string, hash: string, ready = true): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'agent', 'controller-revision-hash': hash }, creationTimestamp: rfc3339(0) },
    spec: { nodeName },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: rfc3339(0) }] },
  };
}

describe('DaemonSet predicates', () => {
  it('every daemon pod tolerates node problems; network-unavailable only with hostNetwork', () => {
    const spec: any = { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
    addDaemonPodTolerations(spec);
    // A matching toleration with a bound is replaced: daemon pods stay on failing nodes for good.
    expect(spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    const host: any = { hostNetwork: true };
    addDaemonPodTolerations(host);
    expect(host.tolerations.at(-1)).toEqual({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  });

  it('nodeSelector and required affinity choose nodes; NoSchedule taints stop new pods, untolerated NoExecute ones evict', () => {
    const sel = ds({ template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'a', image: 'x' }] } } });
    expect(nodeShouldRunDaemonPod(node('a', { labels: { disk: 'ssd' } }), sel)).toEqual({ shouldRun: true, shouldContinueRunning: true });
    expect(nodeShouldRunDaemonPod(node('b'), sel)).toEqual({ shouldRun: false, shouldContinueRunning: false });
    const d = ds();
    expect(nodeShouldRunDaemonPod(node('c', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }), d)).toEqual({ shouldRun: false, shouldContinueRunning: true });
    expect(nodeShouldRunDaemonPod(node('d', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] }), d)).toEqual({ shouldRun: false, shouldContinueRunning: false });
    // The automatic tolerations: unschedulable (cordoned) and not-ready nodes still run daemon pods.
    expect(nodeShouldRunDaemonPod(node('e', { taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] }), d).shouldRun).toBe(true);
  });

  it('pods are pinned by a required node affinity on metadata.name, labelled with the hash and template generation', () => {
    const t = createPodTemplate(ds(), 'abc123');
    expect(t.metadata.labels).toEqual({ app: 'agent', 'pod-template-generation': '1', 'controller-revision-hash': 'abc123' });
    pinToNode(t.spec, 'node-7');
    expect(t.spec.affinity).toEqual({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-7'] }] }] } } });
    expect(targetNodeName({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: t.spec })).toBe('node-7');
    // GetTargetNodeName: the first metadata.name In with two values is an error, not a reason to look further.
    const terms = [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['c'] }] }];
    expect(targetNodeName({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } } })).toBeNull();
  });
});

describe('DaemonSet history and rolling update', () => {
  it('creates the current revision, renumbers a returning one, and splits current from old', () => {
    const v1 = ds();
    expect(constructHistory(v1, []).writes.map((w) => [w.method, w.cr.metadata.name, (w.cr as any).revision])).toEqual([['POST', snapshot(v1, 1).metadata.name, 1]]);
    const r1 = { ...snapshot(v1, 1), metadata: { ...snapshot(v1, 1).metadata, uid: 'r1' } };
    const v2 = ds({}, 'fluentd:2');
    const r2 = { ...snapshot(v2, 2), metadata: { ...snapshot(v2, 2).metadata, uid: 'r2' } };
    const h = constructHistory(v2, [r1, r2]);
    expect(h.cur?.metadata.name).toBe(r2.metadata.name);
    expect(h.old.map((r) => r.metadata.name)).toEqual([r1.metadata.name]);
    // Back to v1: revision 1 becomes 3.
    const back = constructHistory(v1, [r1, r2]);
    expect(back.writes.map((w) => [w.method, (w.cr as any).revision])).toEqual([['PUT', 3]]);
    expect(r1.metadata.name).toMatch(/^agent-[bcdfghjklmnpqrstvwxz2456789]+$/);
  });

  it('maxUnavailable 1: one old pod at a time, none while a node is without an available pod', () => {
    const d = ds();
    const nodes = ['a', 'b', 'c'].map((n) => node(n));
    const map = () => new Map<string, KObject[]>([['a', [pod('p-a', 'a', 'old')]], ['b', [pod('p-b', 'b', 'old')]], ['c', [pod('p-c', 'c', 'old')]]]);
    expect(rollingUpdate(d, nodes, map(), 'new', NOW)).toEqual({ podsToDelete: ['p-a'], nodesToCreate: [] });
    // a has a new pod that is not ready yet: nothing else goes.
    const m = map();
    m.set('a', [pod('p-a2', 'a', 'new', false)]);
    expect(rollingUpdate(d, nodes, m, 'new', NOW).podsToDelete).toEqual([]);
    // ...unless an old pod is itself unavailable (it may be replaced at once).
    m.set('b', [pod('p-b', 'b', 'old', false)]);
    expect(rollingUpdate(d, nodes, m, 'new', NOW).podsToDelete).toEqual(['p-b']);
    // A node that should run the pod but has none counts as unavailable.
    const m2 = map();
    m2.delete('a');
    expect(rollingUpdate(d, nodes, m2, 'new', NOW).podsToDelete).toEqual([]);
    // 50% of 3 rounds up to 2.
    expect(rollingUpdate(ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } } }), nodes, map(), 'new', NOW).podsToDelete).toEqual(['p-a', 'p-b']);
  });

  it('maxSurge: a new pod beside the old one, the old one goes once the new one is available', () => {
    const d = ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } });
    const nodes = ['a', 'b'].map((n) => node(n));
    const m = new Map<string, KObject[]>([['a', [pod('p-a', 'a', 'old')]], ['b', [pod('p-b', 'b', 'old')]]]);
    expect(rollingUpdate(d, nodes, m, 'new', NOW)).toEqual({ podsToDelete: [], nodesToCreate: ['a'] });
    m.set('a', [pod('p-a', 'a', 'old'), pod('p-a2', 'a', 'new', false)]);
    expect(rollingUpdate(d, nodes, m, 'new', NOW)).toEqual({ podsToDelete: [], nodesToCreate: [] });
    m.set('a', [pod('p-a', 'a', 'old'), pod('p-a2', 'a', 'new', true)]);
    expect(rollingUpdate(d, nodes, m, 'new', NOW)).toEqual({ podsToDelete: ['p-a'], nodesToCreate: ['b'] });
  });
});
