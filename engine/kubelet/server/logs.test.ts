// The kubelet's /containerLogs and /exec over the simulated network: what a
// container wrote, the previous instance's log, tail/since/timestamps, follow
// until the container stops, and the errors for containers without logs yet.
import { describe, expect, it } from 'vitest';
import { runUntil } from '../../scheduler/testing/cluster';
import { createPod, kubeletCall, podOf, statusOf, waitPhase, withNode } from '../testing';

const logs = (e: Parameters<typeof kubeletCall>[0], pod: string, container: string, query: Record<string, string> = {}) =>
  kubeletCall(e, 'node-1', { method: 'GET', path: `/containerLogs/default/${pod}/${container}`, query });

describe('container logs on the kubelet', () => {
  it('the logging docs counter: one line a second, tail, since, timestamps', { timeout: 60_000 }, () => {
    const e = withNode(81);
    createPod(e, podOf('counter', [{ name: 'count', image: 'busybox:1.28', args: ['/bin/sh', '-c', 'i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done'] }]));
    waitPhase(e, 'counter', 'Running');
    e.advance(5_200);
    const all = logs(e, 'counter', 'count');
    expect(all.status).toBe(200);
    const lines = all.body.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines[0]).toMatch(/^0: Wed Jan {2}1 00:00:\d\d UTC 2025$/);
    expect(lines[1]).toMatch(/^1: /);
    expect(logs(e, 'counter', 'count', { tailLines: '2' }).body.split('\n').filter(Boolean)).toEqual(lines.slice(-2));
    expect(logs(e, 'counter', 'count', { sinceSeconds: '2' }).body.split('\n').filter(Boolean).length).toBeLessThanOrEqual(3);
    const stamped = logs(e, 'counter', 'count', { tailLines: '1', timestamps: 'true' }).body;
    expect(stamped).toMatch(/^2025-01-01T00:00:\d\d(\.\d+)?Z \d+: Wed Jan {2}1 /);
  });

  it('previous is the last terminated instance; waiting containers have none yet', { timeout: 60_000 }, () => {
    const e = withNode(82);
    createPod(e, podOf('crasher', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo "starting up"; sleep 1; echo "fatal: no config" >&2; exit 1'] }]));
    createPod(e, podOf('pulling', [{ name: 'app', image: 'nosuch/image:1.0' }]));
    runUntil(e, () => statusOf(e, 'crasher')?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff', 'crash loop', 60_000, 200);
    expect(logs(e, 'crasher', 'app', { previous: 'true' }).body).toBe('starting up\nfatal: no config\n');
    // A waiting container with a terminated predecessor shows the predecessor's log.
    expect(logs(e, 'crasher', 'app').body).toBe('starting up\nfatal: no config\n');
    runUntil(e, () => !!statusOf(e, 'pulling')?.containerStatuses?.[0]?.state?.waiting?.reason?.match(/ErrImagePull|ImagePullBackOff/), 'pull failing', 30_000, 200);
    const r = logs(e, 'pulling', 'app');
    expect(r.status).toBe(400);
    expect(r.body).toMatch(/^container "app" in pod "pulling" is waiting to start: (image can't be pulled|trying and failing to pull image)$/);
    expect(logs(e, 'pulling', 'app', { previous: 'true' }).body).toBe('previous terminated container "app" in pod "pulling" not found');
    // While its image is pulled (178 MB at 50 MB/s), a container is ContainerCreating.
    createPod(e, podOf('creating', [{ name: 'app', image: 'registry.k8s.io/hpa-example' }]));
    runUntil(e, () => statusOf(e, 'creating')?.containerStatuses?.[0]?.state?.waiting?.reason === 'ContainerCreating', 'ContainerCreating', 30_000, 100);
    expect(logs(e, 'creating', 'app').body).toBe('container "app" in pod "creating" is waiting to start: ContainerCreating');
  });

  it('follow streams new lines and ends when the container stops', { timeout: 60_000 }, () => {
    const e = withNode(83);
    createPod(e, podOf('ticker', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'for i in 1 2 3 4 5; do echo tick $i; sleep 2; done'] }], { restartPolicy: 'Never' }));
    waitPhase(e, 'ticker', 'Running');
    const r = logs(e, 'ticker', 'app', { follow: 'true' });
    expect(r.status).toBe(200);
    expect(r.chunks.join('')).toBe('tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n');
  });

  it('exec runs a command in the container and answers once it has run its time', { timeout: 60_000 }, () => {
    const e = withNode(84);
    createPod(e, podOf('box', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo hi > /tmp/greeting; sleep 3600'] }]));
    waitPhase(e, 'box', 'Running');
    const t0 = e.sim.now;
    const r = kubeletCall(e, 'node-1', { method: 'POST', path: '/exec/default/box/app', query: { command: ['sh', '-c', 'sleep 2; cat /tmp/greeting; ls /nope'] } });
    expect(e.sim.now - t0).toBeGreaterThanOrEqual(2000);
    // The head comes at once; the answer is the body that follows once the command has run.
    expect(JSON.parse(r.body + r.chunks.join(''))).toEqual({ stdout: 'hi\n', stderr: 'ls: /nope: No such file or directory\n', exitCode: 1 });
    const missing = kubeletCall(e, 'node-1', { method: 'POST', path: '/exec/default/box/app', query: { command: ['bash'] } });
    expect(missing.status).toBe(500);
    expect(missing.body).toMatch(
      /^error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in \$PATH: unknown$/,
    );
  });
});
