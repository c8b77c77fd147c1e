// Node-pressure eviction: memory.available under the 100Mi hard threshold
// puts the node under MemoryPressure, BestEffort pods are refused, and the
// pod ranked first (using more than it requests, then lower priority, then
// the largest excess) is evicted with upstream's message.
import { describe, expect, it } from 'vitest';
import { call } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { createPod, kubeletEvents, podOf, statusOf, waitPhase, withNode } from '../testing';

describe('the eviction manager', () => {
  it('evicts the pod exceeding its request when memory.available drops under 100Mi, and reports MemoryPressure', { timeout: 120_000 }, () => {
    // A 1Gi node: 512Mi of it is the system's; a pod that grows by 5Mi/s without limit presses it.
    const e = withNode(71, { capacity: { cpu: '4', memory: '1Gi', pods: '110', 'ephemeral-storage': '100Gi' } });
    createPod(e, podOf('steady', [{ name: 'app', image: 'nginx:1.27', resources: { requests: { memory: '64Mi' } } }]));
    createPod(e, podOf('hog', [{ name: 'hog', image: 'vish/stress', args: ['-mem-total', '600Mi', '-mem-alloc-size', '5Mi', '-mem-alloc-sleep', '1s'] }]));
    waitPhase(e, 'hog', 'Running');
    waitPhase(e, 'steady', 'Running');
    runUntil(e, () => statusOf(e, 'hog').phase === 'Failed', 'hog evicted', 150_000, 500);
    const s = statusOf(e, 'hog');
    expect(s.reason).toBe('Evicted');
    expect(s.message).toMatch(
      /^The node was low on resource: memory\. Threshold quantity: 100Mi, available: \d+Ki\. Container hog was using \d+(Ki|Mi), request is 0, has larger consumption of memory\. $/,
    );
    expect(s.conditions.find((c: any) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet', message: s.message });
    expect(kubeletEvents(e, 'hog')).toContain(`Evicted: ${s.message}`);
    // The other pod stays; the node says MemoryPressure.
    expect(statusOf(e, 'steady').phase).toBe('Running');
    runUntil(e, () => call(e, 'GET', '/api/v1/nodes/node-1').body.status.conditions.find((c: any) => c.type === 'MemoryPressure').status === 'True', 'MemoryPressure', 20_000, 500);
    const mp = call(e, 'GET', '/api/v1/nodes/node-1').body.status.conditions.find((c: any) => c.type === 'MemoryPressure');
    expect(mp).toMatchObject({ reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' });
    // The node lifecycle controller taints the node for the condition (TaintNodesByCondition).
    runUntil(e, () => (call(e, 'GET', '/api/v1/nodes/node-1').body.spec.taints ?? []).some((t: any) => t.key === 'node.kubernetes.io/memory-pressure' && t.effect === 'NoSchedule'), 'the memory-pressure taint', 20_000, 500);
    // While under pressure a BestEffort pod is refused.
    createPod(e, podOf('besteffort', [{ name: 'app', image: 'nginx:1.27' }], { nodeName: 'node-1' }));
    waitPhase(e, 'besteffort', 'Failed', 10_000);
    expect(statusOf(e, 'besteffort')).toMatchObject({ reason: 'Evicted', message: 'Pod was rejected: The node had condition: [MemoryPressure]. ' });
    // The condition clears 5 minutes (evictionPressureTransitionPeriod) after the pressure is gone.
    e.advance(6 * 60_000);
    expect(call(e, 'GET', '/api/v1/nodes/node-1').body.status.conditions.find((c: any) => c.type === 'MemoryPressure').status).toBe('False');
    runUntil(e, () => !(call(e, 'GET', '/api/v1/nodes/node-1').body.spec.taints ?? []).some((t: any) => t.key === 'node.kubernetes.io/memory-pressure'), 'the taint removed', 20_000, 500);
  });
});
