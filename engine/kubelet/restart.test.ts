// Kubelet restart and node loss: the runtime is the node's durable state.
// A crashed kubelet leaves its containers running (as with containerd); the
// restarted one finds them and carries on. A lost node stops everything;
// when it boots again its pods get new sandboxes.
import { describe, expect, it } from 'vitest';
import { call } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { loseNode, type KubeletDurable } from './kubelet';
import { at, createPod, kubeletEvents, kubeletOf, podOf, statusOf, waitPhase, withNode } from './testing';

describe('kubelet restart', () => {
  it('running containers survive a kubelet crash; the new kubelet re-syncs them, and sees what exited meanwhile', { timeout: 60_000 }, () => {
    const e = withNode(31);
    createPod(e, podOf('web', [{ name: 'nginx', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 } }]));
    createPod(e, podOf('job', [{ name: 'sleeper', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 20; exit 3'] }], { restartPolicy: 'Never' }));
    runUntil(e, () => statusOf(e, 'web')?.conditions?.find((c: any) => c.type === 'Ready')?.status === 'True' && statusOf(e, 'job')?.phase === 'Running', 'both running', 60_000, 200);
    const before = statusOf(e, 'web').containerStatuses[0];
    const jobStarted = at(statusOf(e, 'job').containerStatuses[0].state.running.startedAt);

    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'node-1' } }).ok).toBe(true);
    e.advance(30_000);
    // Nobody reports while the kubelet is down: the API still shows the job running.
    expect(statusOf(e, 'job').phase).toBe('Running');
    expect(e.exec({ type: 'fault', fault: { action: 'restart', target: 'node-1' } }).ok).toBe(true);

    waitPhase(e, 'job', 'Failed', 30_000);
    const t = statusOf(e, 'job').containerStatuses[0].state.terminated;
    // It exited while the kubelet was down, at its own time.
    expect(t.exitCode).toBe(3);
    expect(at(t.finishedAt) - jobStarted).toBeGreaterThanOrEqual(19_000);
    expect(at(t.finishedAt) - jobStarted).toBeLessThanOrEqual(21_000);
    // nginx kept running: same container, no restart; it becomes Ready again once probed.
    runUntil(e, () => statusOf(e, 'web').conditions.find((c: any) => c.type === 'Ready')?.status === 'True', 'Ready again', 30_000, 200);
    const after = statusOf(e, 'web').containerStatuses[0];
    expect(after.containerID).toBe(before.containerID);
    expect(after.restartCount).toBe(0);
    expect(after.state.running.startedAt).toBe(before.state.running.startedAt);
    expect(kubeletEvents(e, 'web').filter((x) => x.startsWith('Started'))).toHaveLength(1);
    // The node says the kubelet started twice.
    const starts = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as any[]).filter((ev) => ev.involvedObject.kind === 'Node' && ev.reason === 'Starting');
    expect(starts.map((s) => s.message)).toEqual(['Starting kubelet.', 'Starting kubelet.']);
    // The machine did not reboot.
    expect(kubeletEvents(e, 'node-1').filter((x) => x.startsWith('Rebooted'))).toEqual([]);
  });
});

describe('node loss', () => {
  it('stops every container; when the machine boots again the pod gets a new sandbox and its containers restart', { timeout: 60_000 }, () => {
    const e = withNode(32);
    createPod(e, podOf('web', [{ name: 'nginx', image: 'nginx:1.27' }]));
    waitPhase(e, 'web', 'Running');
    const ip = statusOf(e, 'web').podIP;
    const k = kubeletOf(e);
    const bootBefore = call(e, 'GET', '/api/v1/nodes/node-1').body.status.nodeInfo.bootID;
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'node-1' } }).ok).toBe(true);
    loseNode(e.sim.durable<KubeletDurable>('node-1'), e.sim.now);
    e.advance(20_000);
    expect([...k.runtime.containers.values()].every((c) => c.state === 'exited')).toBe(true);
    expect(e.exec({ type: 'fault', fault: { action: 'restart', target: 'node-1' } }).ok).toBe(true);
    runUntil(e, () => statusOf(e, 'web').containerStatuses?.[0]?.restartCount === 1 && !!statusOf(e, 'web').containerStatuses[0].state.running, 'restarted after reboot', 30_000, 200);
    const cs = statusOf(e, 'web').containerStatuses[0];
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 255, reason: 'Unknown' });
    expect(kubeletEvents(e, 'web')).toContain('SandboxChanged: Pod sandbox changed, it will be killed and re-created.');
    expect(statusOf(e, 'web').podIP).toMatch(/^10\.244\.1\./);
    void ip;
    runUntil(e, () => call(e, 'GET', '/api/v1/nodes/node-1').body.status.nodeInfo.bootID !== bootBefore, 'a new boot id', 30_000, 500);
    const bootNow = call(e, 'GET', '/api/v1/nodes/node-1').body.status.nodeInfo.bootID;
    expect(kubeletEvents(e, 'node-1')).toContain(`Rebooted: Node node-1 has been rebooted, boot id: ${bootNow}`);
  });
});
