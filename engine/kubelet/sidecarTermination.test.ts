// Sidecar termination as v1.32's killContainersWithSyncResult does it: every container is killed at once (a
// Killing event each, preStop hooks run), but a sidecar is only sent its stop signal once the regular
// containers and the sidecars defined after it have exited (kuberuntime_termination_order.go).
import { describe, expect, it } from 'vitest';
import { call, watch } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { at, createPod, getPod, podOf, waitPhase, withNode } from './testing';

const slowExit = (s: number) => ['sh', '-c', `trap 'sleep ${s}; exit 0' TERM; sleep 3600 & wait`];

describe('sidecar termination', () => {
  it('Killing for every container at the deletion; the sidecars stop after the app, the last defined first', { timeout: 60_000 }, () => {
    const e = withNode(71);
    createPod(
      e,
      podOf('ordered', [{ name: 'app', image: 'busybox:1.36', command: slowExit(4) }], {
        initContainers: [
          { name: 'first', image: 'busybox:1.36', restartPolicy: 'Always', command: slowExit(0) },
          { name: 'second', image: 'busybox:1.36', restartPolicy: 'Always', command: slowExit(0), lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 1'] } } } },
        ],
      }),
    );
    waitPhase(e, 'ordered', 'Running', 30_000);
    const w = watch(e, '/api/v1/namespaces/default/pods', { resourceVersion: getPod(e, 'ordered').body.metadata.resourceVersion });
    const t0 = e.sim.now;
    call(e, 'DELETE', '/api/v1/namespaces/default/pods/ordered');
    runUntil(e, () => getPod(e, 'ordered').status === 404, 'deleted', 60_000, 100);

    const events = (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as { reason: string; message: string; firstTimestamp: string }[]).filter((x) => x.reason === 'Killing');
    const killedAt = (c: string) => at(events.find((x) => x.message === `Stopping container ${c}`)!.firstTimestamp);
    for (const c of ['app', 'first', 'second']) expect(killedAt(c)).toBe(Math.floor(t0 / 1000) * 1000);

    let last: any;
    for (const ev of w.read()) if (ev.type === 'MODIFIED') last = ev.object;
    const finished = (list: any[], c: string) => at(list.find((s) => s.name === c).state.terminated.finishedAt);
    const app = finished(last.status.containerStatuses, 'app');
    const second = finished(last.status.initContainerStatuses, 'second');
    const first = finished(last.status.initContainerStatuses, 'first');
    // The app takes 4 s to exit; the sidecars only hear SIGTERM after that, the last defined first.
    expect(app - t0).toBeGreaterThanOrEqual(3000);
    expect(second).toBeGreaterThanOrEqual(app);
    expect(first).toBeGreaterThanOrEqual(second);
  });
});
