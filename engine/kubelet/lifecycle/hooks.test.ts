// Lifecycle hooks as v1.32's handler runner reports them (pkg/kubelet/lifecycle/handlers.go): a failed
// postStart hook kills the container, with a FailedPostStartHook event that keeps the hook's output out and
// a PostStartHookError reason (the reason cache, shown as the container's waiting message) that has it.
import { describe, expect, it } from 'vitest';
import { call, runUntil } from '../../scheduler/testing/cluster';
import { createPod, getPod, kubeletEvents, kubeletOf, podOf, withNode } from '../testing';

/** The kubelet's remembered sync error for the pod's container once its postStart hook has failed. */
function hookError(e: ReturnType<typeof withNode>, name: string): { reason: string; message: string } | undefined {
  runUntil(e, () => kubeletEvents(e, name).includes('FailedPostStartHook: PostStartHook failed'), 'hook failed', 30_000, 100);
  return kubeletOf(e).workers.get(getPod(e, name).body.metadata.uid)?.reasons['app'];
}

/** Deletes the pod once its container is ready and gone; the kubelet's events about it. */
function deletedOnceReady(e: ReturnType<typeof withNode>, name: string): string[] {
  runUntil(e, () => getPod(e, name).body.status?.containerStatuses?.[0]?.ready === true, 'ready', 30_000, 200);
  e.advance(5_000);
  call(e, 'DELETE', `/api/v1/namespaces/default/pods/${name}`);
  runUntil(e, () => getPod(e, name).status === 404, 'deleted', 60_000, 200);
  return kubeletEvents(e, name);
}

describe('postStart hooks', () => {
  it('an exec hook that exits non-zero: the message names the command, the CRI error and the output', { timeout: 60_000 }, () => {
    const e = withNode(61);
    createPod(e, podOf('exec-hook', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'], lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo oops >&2; exit 3'] } } } }]));
    const uid = getPod(e, 'exec-hook').body.metadata.uid as string;
    expect(hookError(e, 'exec-hook')).toEqual({
      reason: 'PostStartHookError',
      message: `Exec lifecycle hook ([sh -c echo oops >&2; exit 3]) for Container "app" in Pod "exec-hook_default(${uid})" failed - error: command 'sh -c echo oops >&2; exit 3' exited with 3: oops\n, message: "oops\\n"`,
    });
    expect(kubeletEvents(e, 'exec-hook')).toContain('Killing: FailedPostStartHook');
  });

  it('an HTTP hook fails only when the request does: nothing listening fails it, an error status does not', { timeout: 60_000 }, () => {
    const e = withNode(62);
    createPod(e, podOf('http-hook', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'], lifecycle: { postStart: { httpGet: { path: '/ready', port: 9999 } } } }]));
    const uid = getPod(e, 'http-hook').body.metadata.uid as string;
    const err = hookError(e, 'http-hook');
    const ip = getPod(e, 'http-hook').body.status.podIP as string;
    expect(err).toEqual({
      reason: 'PostStartHookError',
      message: `HTTP lifecycle hook (/ready) for Container "app" in Pod "http-hook_default(${uid})" failed - error: Get "http://${ip}:9999/ready": dial tcp ${ip}:9999: connect: connection refused`,
    });
    // A preStop hook answered 404 is done all the same: no FailedPreStopHook.
    createPod(e, podOf('http-404', [{ name: 'app', image: 'nginx:1.27', lifecycle: { preStop: { httpGet: { path: '/missing', port: 80 } } } }]));
    const events = deletedOnceReady(e, 'http-404');
    expect(events).toContain('Killing: Stopping container app');
    expect(events.some((x) => x.startsWith('FailedPreStopHook'))).toBe(false);
  });

  it('an HTTP hook builds its URL as a probe does: a named port through the container\'s ports, the scheme asked for', { timeout: 60_000 }, () => {
    const e = withNode(63);
    createPod(e, podOf('https-hook', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'], lifecycle: { postStart: { httpGet: { path: '/ready', port: 9443, scheme: 'HTTPS' } } } }]));
    const ip = () => getPod(e, 'https-hook').body.status.podIP as string;
    expect(hookError(e, 'https-hook')?.message).toContain(`Get "https://${ip()}:9443/ready": dial tcp ${ip()}:9443: connect: connection refused`);
    // preStop on nginx's port by its name: answered, so no FailedPreStopHook.
    createPod(e, podOf('named', [{ name: 'app', image: 'nginx:1.27', ports: [{ name: 'web', containerPort: 80 }], lifecycle: { preStop: { httpGet: { path: '/', port: 'web' } } } }]));
    const events = deletedOnceReady(e, 'named');
    expect(events).toContain('Killing: Stopping container app');
    expect(events.some((x) => x.startsWith('FailedPreStopHook'))).toBe(false);
  });
});
