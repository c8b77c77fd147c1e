// pods/log, pods/exec and nodes/proxy through kube-apiserver to the kubelet
// on the pod's node, with upstream's validation and error texts.
import { describe, expect, it } from 'vitest';
import { call } from '../testing/harness';
import { ADMIN_TOKEN } from './scenario';
import { runUntil } from '../../scheduler/testing/cluster';
import { createPod, podOf, statusOf, waitPhase, withNode } from '../../kubelet/testing';

const log = (e: Parameters<typeof call>[0], pod: string, query: Record<string, string> = {}) => call(e, 'GET', `/api/v1/namespaces/default/pods/${pod}/log`, undefined, { query });

describe('the apiserver proxies to kubelets', () => {
  it('pods/log: the log, the default container, upstream errors', { timeout: 60_000 }, () => {
    const e = withNode(91);
    createPod(e, podOf('web', [{ name: 'nginx', image: 'nginx:1.27' }]));
    createPod(
      e,
      podOf('two', [
        { name: 'a', image: 'nginx:1.27' },
        { name: 'b', image: 'busybox:1.36', command: ['sh', '-c', 'echo from b; sleep 3600'] },
      ]),
    );
    createPod(e, podOf('stuck', [{ name: 'app', image: 'nginx:1.27', imagePullPolicy: 'Never' }]));
    waitPhase(e, 'web', 'Running');
    waitPhase(e, 'two', 'Running');
    const r = log(e, 'web');
    expect(r.status).toBe(200);
    expect(r.text).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up\n');
    expect(log(e, 'two', { container: 'b' }).text).toBe('from b\n');
    expect(log(e, 'two').body).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest', message: 'a container name must be specified for pod two, choose one of: [a b]' });
    expect(log(e, 'web', { container: 'nope' }).body).toMatchObject({ code: 400, message: 'container nope is not valid for pod web' });
    expect(log(e, 'web', { previous: 'true' }).body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'previous terminated container "nginx" in pod "web" not found' });
    runUntil(e, () => statusOf(e, 'stuck')?.containerStatuses?.[0]?.state?.waiting?.reason === 'ErrImageNeverPull', 'never pull', 20_000, 200);
    expect(log(e, 'stuck').body).toMatchObject({ code: 400, message: 'container "app" in pod "stuck" is waiting to start: ErrImageNeverPull' });
    expect(log(e, 'web', { tailLines: '-1' }).body).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    });
    expect(call(e, 'GET', '/api/v1/namespaces/default/pods/ghost/log').body).toMatchObject({ code: 404, message: 'pods "ghost" not found' });
  });

  it('pods/log?follow=true streams until the container stops', { timeout: 60_000 }, () => {
    const e = withNode(92);
    createPod(e, podOf('ticker', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'for i in 1 2 3; do echo tick $i; sleep 2; done'] }], { restartPolicy: 'Never' }));
    waitPhase(e, 'ticker', 'Running');
    const r = e.exec({ type: 'api', request: { method: 'GET', path: '/api/v1/namespaces/default/pods/ticker/log', query: { follow: 'true' }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } } });
    if (!r.ok) throw new Error(r.error);
    const id = r.result as number;
    runUntil(e, () => e.apiCall(id)?.ended === true, 'stream ended', 30_000, 100);
    expect(e.apiCall(id)?.response).toMatchObject({ status: 200, headers: { 'content-type': 'text/plain' } });
    expect(e.apiDrain(id).lines.join('')).toBe('tick 1\ntick 2\ntick 3\n');
  });

  it('pods/exec runs a command; nodes/proxy reaches the kubelet; a dead kubelet is a connection error', { timeout: 60_000 }, () => {
    const e = withNode(93);
    createPod(e, podOf('box', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] }]));
    waitPhase(e, 'box', 'Running');
    const r = call(e, 'POST', '/api/v1/namespaces/default/pods/box/exec', undefined, { query: { command: 'hostname', stdout: 'true' } as Record<string, string> });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ stdout: 'box\n', stderr: '', exitCode: 0 });
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods/box/exec').body).toMatchObject({ code: 400, message: 'you must specify at least one command for the container' });
    const missing = call(e, 'POST', '/api/v1/namespaces/default/pods/box/exec', undefined, { query: { command: 'bash' } });
    expect(missing.body).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(missing.body.message).toContain('OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in $PATH: unknown');
    const metrics = call(e, 'GET', '/api/v1/nodes/node-1/proxy/metrics/resource');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('container_cpu_usage_seconds_total{container="app",namespace="default",pod="box"}');
    expect(e.exec({ type: 'fault', fault: { action: 'crash', target: 'node-1' } }).ok).toBe(true);
    e.advance(100);
    const down = call(e, 'GET', '/api/v1/namespaces/default/pods/box/log');
    expect(down.body).toMatchObject({ code: 500, message: 'Get "https://node-1:10250/containerLogs/default/box/app": dial tcp 192.168.0.11:10250: connect: connection refused' });
  });
});
