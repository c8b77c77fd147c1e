// The Kubernetes docs' probe examples ("Configure Liveness, Readiness and
// Startup Probes"), with the events and timings they describe.
import { describe, expect, it } from 'vitest';
import { call, runUntil } from '../../scheduler/testing/cluster';
import { createPod, kubeletEvents, podOf, statusOf, waitPhase, withNode } from '../testing';

describe('probes, as the docs run them', () => {
  it('exec liveness: /tmp/healthy is gone after 30 s, three failures 5 s apart, then Killing', { timeout: 60_000 }, () => {
    const e = withNode(51);
    createPod(
      e,
      podOf('liveness-exec', [
        {
          name: 'liveness',
          image: 'registry.k8s.io/busybox:1.27',
          args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
          livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
        },
      ]),
    );
    runUntil(e, () => kubeletEvents(e, 'liveness-exec').some((x) => x.startsWith('Killing')), 'killed', 90_000, 500);
    const evs = kubeletEvents(e, 'liveness-exec');
    // The three failures are one Event counted three times, first and last 10 s apart ("(x3 over 10s)" in describe).
    expect(evs.filter((x) => x.startsWith('Unhealthy'))).toEqual(["Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n"]);
    const unhealthy = call(e, 'GET', '/api/v1/namespaces/default/events').body.items.find((x: { reason: string }) => x.reason === 'Unhealthy');
    expect(unhealthy.count).toBe(3);
    expect(Date.parse(unhealthy.lastTimestamp) - Date.parse(unhealthy.firstTimestamp)).toBe(10_000);
    expect(evs).toContain('Killing: Container liveness failed liveness probe, will be restarted');
    // sh as PID 1 ignores SIGTERM: the restart comes after the 30 s grace period.
    runUntil(e, () => statusOf(e, 'liveness-exec').containerStatuses[0].restartCount === 1, 'restarted', 60_000, 500);
    expect(statusOf(e, 'liveness-exec').containerStatuses[0].lastState.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  });

  it('HTTP liveness: agnhost liveness answers 500 after 10 s', { timeout: 60_000 }, () => {
    const e = withNode(52);
    createPod(
      e,
      podOf('liveness-http', [
        {
          name: 'liveness',
          image: 'registry.k8s.io/e2e-test-images/agnhost:2.40',
          args: ['liveness'],
          livenessProbe: { httpGet: { path: '/healthz', port: 8080, httpHeaders: [{ name: 'Custom-Header', value: 'Awesome' }] }, initialDelaySeconds: 3, periodSeconds: 3 },
        },
      ]),
    );
    runUntil(e, () => statusOf(e, 'liveness-http')?.containerStatuses?.[0]?.restartCount === 1, 'restarted', 60_000, 500);
    const evs = kubeletEvents(e, 'liveness-http');
    expect(evs.filter((x) => x.startsWith('Unhealthy'))[0]).toBe('Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500');
    expect(evs).toContain('Killing: Container liveness failed liveness probe, will be restarted');
    // agnhost is a Go program: SIGTERM ends it with status 2.
    expect(statusOf(e, 'liveness-http').containerStatuses[0].lastState.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
  });

  it('TCP readiness and liveness on goproxy: Ready once the socket accepts', { timeout: 60_000 }, () => {
    const e = withNode(53);
    createPod(
      e,
      podOf('goproxy', [
        {
          name: 'goproxy',
          image: 'registry.k8s.io/goproxy:0.1',
          ports: [{ containerPort: 8080 }],
          readinessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 15, periodSeconds: 10 },
          livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 15, periodSeconds: 10 },
        },
      ]),
    );
    waitPhase(e, 'goproxy', 'Running');
    const ready = () => statusOf(e, 'goproxy').conditions.find((c: any) => c.type === 'Ready').status;
    expect(ready()).toBe('False');
    runUntil(e, () => ready() === 'True', 'Ready', 40_000, 500);
    expect(kubeletEvents(e, 'goproxy').filter((x) => x.startsWith('Unhealthy'))).toEqual([]);
  });

  it('a startup probe holds liveness back; the container counts as started only once it passes', { timeout: 60_000 }, () => {
    const e = withNode(54);
    createPod(
      e,
      podOf('slow', [
        {
          name: 'app',
          image: 'kubeglass/slow-start:1',
          startupProbe: { httpGet: { path: '/', port: 8080 }, failureThreshold: 30, periodSeconds: 2 },
          livenessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 2, failureThreshold: 1 },
        },
      ]),
    );
    waitPhase(e, 'slow', 'Running');
    e.advance(10_000);
    expect(statusOf(e, 'slow').containerStatuses[0]).toMatchObject({ started: false, ready: false, restartCount: 0 });
    runUntil(e, () => statusOf(e, 'slow').containerStatuses[0].started === true, 'started', 40_000, 500);
    e.advance(10_000);
    // Liveness never failed: it only ran once the server was up.
    expect(statusOf(e, 'slow').containerStatuses[0].restartCount).toBe(0);
    expect(kubeletEvents(e, 'slow').some((x) => x.startsWith('Unhealthy: Liveness'))).toBe(false);
    expect(kubeletEvents(e, 'slow').some((x) => x.startsWith('Unhealthy: Startup probe failed: Get "http://10.244.1.'))).toBe(true);
  });

  it('an exec probe whose command cannot start errors: an Unhealthy "errored" event, and the attempt does not count', { timeout: 60_000 }, () => {
    const e = withNode(56);
    createPod(e, podOf('no-binary', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'], livenessProbe: { exec: { command: ['healthcheck'] }, periodSeconds: 2, failureThreshold: 1 } }]));
    waitPhase(e, 'no-binary', 'Running');
    e.advance(20_000);
    const evs = kubeletEvents(e, 'no-binary');
    const unhealthy = evs.filter((x) => x.startsWith('Unhealthy'));
    expect(unhealthy.length).toBeGreaterThan(0);
    // Each message has its exec id, so from the 10th on they are combined (client-go's EventAggregator).
    expect(unhealthy.some((x) => x.startsWith('Unhealthy: (combined from similar events): Liveness probe errored: '))).toBe(true);
    for (const x of unhealthy) expect(x).toMatch(/^Unhealthy: (\(combined from similar events\): )?Liveness probe errored: rpc error: code = Unknown desc = failed to exec in container: failed to start exec "[0-9a-f]+": OCI runtime exec failed: exec failed: unable to start container process: exec: "healthcheck": executable file not found in \$PATH: unknown$/);
    // prober worker.go throws an errored result away: the container is never killed for it.
    expect(evs.some((x) => x.startsWith('Killing'))).toBe(false);
    expect(statusOf(e, 'no-binary').containerStatuses[0].restartCount).toBe(0);
  });
});
