// Pod admission and the node's allocatable: pods bound straight to the node
// (as with spec.nodeName) that it cannot run are rejected with upstream's
// reason and message.
import { describe, expect, it } from 'vitest';
import { call } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { allocatableOf } from '../nodestatus/nodeStatus';
import { createPod, kubeletEvents, podOf, statusOf, waitPhase, withNode } from '../testing';

describe('allocatable', () => {
  it('is capacity less the hard eviction thresholds (memory 100Mi, ephemeral storage 10 %)', () => {
    expect(allocatableOf({ cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' })).toEqual({
      cpu: '4',
      'ephemeral-storage': '90Gi',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: '16284Mi',
      pods: '110',
    });
    expect(allocatableOf({ cpu: '2', memory: '8152620Ki', pods: '110', 'ephemeral-storage': '101430960Ki' })).toMatchObject({ memory: '8050220Ki', 'ephemeral-storage': '91287864Ki' });
  });
});

describe('admission', () => {
  it('rejects what does not fit, does not match the node, or does not tolerate a NoExecute taint', { timeout: 60_000 }, () => {
    const e = withNode(72, { labels: { disktype: 'hdd' } });
    const bound = (name: string, containers: unknown[], spec: Record<string, unknown> = {}) => createPod(e, podOf(name, containers, { nodeName: 'node-1', ...spec }));
    bound('big-mem', [{ name: 'app', image: 'nginx:1.27', resources: { requests: { memory: '8Gi' } } }]);
    bound('ssd', [{ name: 'app', image: 'nginx:1.27' }], { nodeSelector: { disktype: 'ssd' } });
    for (const p of ['big-mem', 'ssd']) waitPhase(e, p, 'Failed', 20_000);
    expect(statusOf(e, 'big-mem')).toMatchObject({
      reason: 'OutOfmemory',
      message: "Pod was rejected: Node didn't have enough resource: memory, requested: 8589934592, used: 0, capacity: 8485076992",
    });
    expect(statusOf(e, 'ssd')).toMatchObject({ reason: 'NodeAffinity', message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" });
    expect(kubeletEvents(e, 'ssd')).toEqual(["NodeAffinity: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"]);
    const taint = { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } };
    expect(call(e, 'PATCH', '/api/v1/nodes/node-1', taint, { headers: { 'content-type': 'application/merge-patch+json' } }).status).toBe(200);
    runUntil(e, () => (call(e, 'GET', '/api/v1/nodes/node-1').body.spec.taints ?? []).length === 1, 'tainted', 5000, 100);
    e.advance(2000);
    bound('intolerant', [{ name: 'app', image: 'nginx:1.27' }]);
    bound('tolerant', [{ name: 'app', image: 'nginx:1.27' }], { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoExecute' }] });
    // The taint-eviction controller deletes the intolerant pod too; the kubelet's rejection comes first.
    runUntil(e, () => kubeletEvents(e, 'intolerant').length > 0, 'rejected', 20_000, 100);
    expect(kubeletEvents(e, 'intolerant')).toEqual(["TaintToleration: Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"]);
    waitPhase(e, 'tolerant', 'Running', 30_000);
  });
});
