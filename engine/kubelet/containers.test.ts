// Init containers, sidecars, restart policies, graceful termination and the
// runtime's start errors, end to end through the API and one kubelet.
import { describe, expect, it } from 'vitest';
import { call, watch } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { at, createPod, getPod, kubeletEvents, podOf, statusOf, waitPhase, withNode } from './testing';

describe('init containers', () => {
  it('run one after another before the app; PodInitializing meanwhile; Initialized once they are done', { timeout: 60_000 }, () => {
    const e = withNode(41);
    createPod(
      e,
      podOf('init-demo', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo app; sleep 3600'] }], {
        initContainers: [
          { name: 'first', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5'] },
          { name: 'second', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5'] },
        ],
      }),
    );
    runUntil(e, () => statusOf(e, 'init-demo')?.initContainerStatuses?.[0]?.state?.running, 'first running', 30_000, 100);
    const s = statusOf(e, 'init-demo');
    expect(s.phase).toBe('Pending');
    expect(s.initContainerStatuses[1].state.waiting.reason).toBe('PodInitializing');
    expect(s.containerStatuses[0].state.waiting.reason).toBe('PodInitializing');
    expect(s.conditions.find((c: any) => c.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [first second]',
    });
    waitPhase(e, 'init-demo', 'Running', 30_000);
    const done = statusOf(e, 'init-demo');
    const [first, second] = done.initContainerStatuses;
    expect(first.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(second.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    // Sequential: the second started after the first finished.
    expect(at(second.state.terminated.startedAt)).toBeGreaterThanOrEqual(at(first.state.terminated.finishedAt));
    expect(done.conditions.find((c: any) => c.type === 'Initialized').status).toBe('True');
  });

  it('a failing init container is restarted with back-off (Init:CrashLoopBackOff), or fails the pod under restartPolicy Never', { timeout: 60_000 }, () => {
    const e = withNode(42);
    createPod(e, podOf('retry', [{ name: 'app', image: 'nginx:1.27' }], { initContainers: [{ name: 'wait', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }] }));
    createPod(e, podOf('never', [{ name: 'app', image: 'nginx:1.27' }], { restartPolicy: 'Never', initContainers: [{ name: 'wait', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }] }));
    runUntil(e, () => statusOf(e, 'retry')?.initContainerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff', 'init crash loop', 60_000, 200);
    expect(statusOf(e, 'retry').phase).toBe('Pending');
    expect(statusOf(e, 'retry').containerStatuses[0].state.waiting.reason).toBe('PodInitializing');
    waitPhase(e, 'never', 'Failed', 30_000);
    expect(statusOf(e, 'never').initContainerStatuses[0].state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(statusOf(e, 'never').containerStatuses[0].state.waiting.reason).toBe('PodInitializing');
  });
});

describe('sidecar containers (init containers with restartPolicy Always)', () => {
  it('start before the app and keep running; a dead sidecar is restarted; on deletion the app stops first', { timeout: 60_000 }, () => {
    const e = withNode(43);
    createPod(
      e,
      podOf('with-sidecar', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"] }], {
        initContainers: [
          // It dies after 8 s each time it runs.
          { name: 'log-shipper', image: 'busybox:1.36', restartPolicy: 'Always', command: ['sh', '-c', "trap 'exit 0' TERM; sleep 8 & wait; exit 1"] },
          { name: 'setup', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2'] },
        ],
      }),
    );
    waitPhase(e, 'with-sidecar', 'Running', 30_000);
    const s = statusOf(e, 'with-sidecar');
    const [sidecar, setup] = s.initContainerStatuses;
    expect(sidecar.state.running).toBeTruthy();
    expect(sidecar.started).toBe(true);
    // The sidecar was up before the next init container began.
    expect(at(setup.state.terminated.startedAt)).toBeGreaterThanOrEqual(at(sidecar.state.running.startedAt));
    expect(s.conditions.find((c: any) => c.type === 'Ready').status).toBe('True');
    // The sidecar dies: it comes back (sidecars always restart), and the app keeps running meanwhile.
    runUntil(
      e,
      () => statusOf(e, 'with-sidecar').initContainerStatuses[0].restartCount === 1 && !!statusOf(e, 'with-sidecar').initContainerStatuses[0].state.running,
      'sidecar restarted',
      30_000,
      200,
    );
    expect(statusOf(e, 'with-sidecar').initContainerStatuses[0].lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(statusOf(e, 'with-sidecar').containerStatuses[0].restartCount).toBe(0);
    // Deletion: the app gets SIGTERM first, the sidecar after it has gone.
    call(e, 'DELETE', '/api/v1/namespaces/default/pods/with-sidecar');
    runUntil(e, () => getPod(e, 'with-sidecar').status === 404, 'deleted', 60_000, 200);
    const killing = kubeletEvents(e, 'with-sidecar').filter((x) => x.startsWith('Killing'));
    expect(killing.slice(-2)).toEqual(['Killing: Stopping container app', 'Killing: Stopping container log-shipper']);
  });
});

describe('restart policies and termination', () => {
  it('OnFailure restarts a failed container (each run gets a fresh file system) and leaves a succeeded one done', { timeout: 60_000 }, () => {
    const e = withNode(44);
    // Fails the first time (no marker yet) — and every time, as the marker does not survive the restart.
    createPod(e, podOf('flaky', [{ name: 'job', image: 'busybox:1.36', command: ['sh', '-c', 'if [ -f /tmp/ok ]; then exit 0; fi; touch /tmp/ok; exit 2'] }], { restartPolicy: 'OnFailure' }));
    createPod(e, podOf('fine', [{ name: 'job', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1; exit 0'] }], { restartPolicy: 'OnFailure' }));
    runUntil(e, () => (statusOf(e, 'flaky')?.containerStatuses?.[0]?.restartCount ?? 0) >= 2, 'restarted twice', 60_000, 200);
    expect(statusOf(e, 'flaky').phase).toBe('Running');
    expect(statusOf(e, 'flaky').containerStatuses[0].lastState.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
    waitPhase(e, 'fine', 'Succeeded', 30_000);
    expect(statusOf(e, 'fine').containerStatuses[0]).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } });
    expect(statusOf(e, 'fine').conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  });

  it('busybox and GNU images run true, false and echo as programs of their own, not only as shell builtins', { timeout: 60_000 }, () => {
    const e = withNode(45);
    createPod(e, podOf('t', [{ name: 'c', image: 'busybox:1.36', command: ['true'] }], { restartPolicy: 'Never' }));
    createPod(e, podOf('f', [{ name: 'c', image: 'ubuntu:24.04', command: ['/bin/false'] }], { restartPolicy: 'Never' }));
    createPod(e, podOf('say', [{ name: 'c', image: 'busybox:1.36', command: ['echo', 'hello', 'world'] }], { restartPolicy: 'Never' }));
    waitPhase(e, 't', 'Succeeded', 30_000);
    waitPhase(e, 'f', 'Failed', 30_000);
    waitPhase(e, 'say', 'Succeeded', 30_000);
    expect(statusOf(e, 'f').containerStatuses[0].state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(call(e, 'GET', '/api/v1/namespaces/default/pods/say/log').text).toBe('hello world\n');
  });

  it('a shell as PID 1 ignores SIGTERM and is killed after the grace period; a trap exits at once; preStop eats into the grace', { timeout: 60_000 }, () => {
    const e = withNode(45);
    createPod(e, podOf('plain', [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] }], { terminationGracePeriodSeconds: 10 }));
    createPod(e, podOf('trapped', [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', "trap 'echo bye; exit 0' TERM; sleep 3600 & wait"] }], { terminationGracePeriodSeconds: 10 }));
    createPod(e, podOf('hooked', [{ name: 'c', image: 'nginx:1.27', lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 4'] } } } }], { terminationGracePeriodSeconds: 10 }));
    for (const p of ['plain', 'trapped', 'hooked']) waitPhase(e, p, 'Running', 30_000);
    const w = watch(e, '/api/v1/namespaces/default/pods', { resourceVersion: getPod(e, 'hooked').body.metadata.resourceVersion });
    const t0 = e.sim.now;
    for (const p of ['plain', 'trapped', 'hooked']) call(e, 'DELETE', `/api/v1/namespaces/default/pods/${p}`);
    runUntil(e, () => ['plain', 'trapped', 'hooked'].every((p) => getPod(e, p).status === 404), 'all gone', 60_000, 100);
    const final = new Map<string, any>();
    for (const ev of w.read()) if (ev.type === 'MODIFIED') final.set(ev.object.metadata.name, ev.object);
    const term = (p: string) => final.get(p).status.containerStatuses[0].state.terminated;
    expect(term('plain')).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(at(term('plain').finishedAt) - t0).toBeGreaterThanOrEqual(9000);
    expect(term('trapped')).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(at(term('trapped').finishedAt) - t0).toBeLessThan(2000);
    // nginx quits on its STOPSIGNAL (SIGQUIT) once the 4 s preStop hook is over.
    expect(term('hooked')).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(at(term('hooked').finishedAt) - t0).toBeGreaterThanOrEqual(3000);
    expect(at(term('hooked').finishedAt) - t0).toBeLessThan(6000);
    expect(final.get('plain').status.phase).toBe('Failed');
    expect(final.get('trapped').status.phase).toBe('Succeeded');
  });

  it('a command the image does not have fails to start (StartError 128), then crash-loops', { timeout: 60_000 }, () => {
    const e = withNode(46);
    createPod(e, podOf('typo', [{ name: 'c', image: 'nginx:1.27', command: ['ngnix'] }]));
    runUntil(e, () => statusOf(e, 'typo')?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff', 'crash loop', 60_000, 200);
    const cs = statusOf(e, 'typo').containerStatuses[0];
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 128, reason: 'StartError' });
    expect(cs.lastState.terminated.message).toBe(
      'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "ngnix": executable file not found in $PATH: unknown',
    );
    expect(kubeletEvents(e, 'typo')).toContain(`Failed: Error: ${cs.lastState.terminated.message}`);
  });
});

describe('database images need their password env, as the real ones do', () => {
  it('postgres without POSTGRES_PASSWORD crash-loops with the entrypoint error in its logs; with it, Running and serving 5432', { timeout: 60_000 }, () => {
    const e = withNode(46);
    createPod(e, podOf('pg-nopass', [{ name: 'postgres', image: 'postgres:16', ports: [{ containerPort: 5432 }] }]));
    createPod(
      e,
      podOf('pg', [
        {
          name: 'postgres',
          image: 'postgres:16',
          env: [{ name: 'POSTGRES_PASSWORD', value: 'example' }],
          readinessProbe: { tcpSocket: { port: 5432 }, periodSeconds: 2 },
        },
      ]),
    );
    runUntil(e, () => statusOf(e, 'pg-nopass')?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff', 'pg-nopass crash loop', 60_000, 200);
    const s = statusOf(e, 'pg-nopass').containerStatuses[0];
    expect(s.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(call(e, 'GET', '/api/v1/namespaces/default/pods/pg-nopass/log').text).toMatch(/^Error: Database is uninitialized and superuser password is not specified\.\n/);
    runUntil(e, () => statusOf(e, 'pg')?.containerStatuses?.[0]?.ready === true, 'pg ready', 60_000, 200);
    expect(statusOf(e, 'pg')).toMatchObject({ phase: 'Running', containerStatuses: [{ restartCount: 0, state: { running: {} } }] });
    expect(call(e, 'GET', '/api/v1/namespaces/default/pods/pg/log').text).toMatch(/LOG: {2}database system is ready to accept connections\n$/);
  });
});
