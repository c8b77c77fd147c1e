// podStatusFor against v1.32's generateAPIPodStatus, getPhase, the prober
// manager's UpdatePodStatus and status/generate.go, on hand-made runtime state.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../scheduler/framework/api';
import type { RtContainer, Sandbox } from '../runtime/runtime';
import { getPhase, podStatusFor, qosClass, type StatusInput } from './generate';

const sandbox = { id: 'sb', podUid: 'u1', state: 'ready', readyAt: 0, ip: '10.244.1.5' } as Sandbox;

function ctr(name: string, over: Partial<RtContainer>): RtContainer {
  return { id: `id-${name}-${over.attempt ?? 0}`, name, attempt: 0, imageRef: 'docker.io/library/busybox:1.36', imageId: 'sha', createdAt: 0, startedAt: 1000, finishedAt: -1, state: 'running', exitCode: 0, reason: '', message: '', kind: 'regular', ...over } as RtContainer;
}

function input(spec: Record<string, unknown>, containers: RtContainer[], over: Partial<StatusInput> = {}, status: Record<string, unknown> = {}): StatusInput {
  const pod = { metadata: { name: 'p', namespace: 'default', uid: 'u1' }, spec, status } as unknown as Pod;
  return { pod, containers, sandbox, reasons: {}, ready: () => true, started: () => true, terminal: false, ended: null, hostIP: '192.168.0.11', startTime: '2025-01-01T00:00:00Z', now: 60_000, transitions: {}, ...over };
}

const conditions = (s: Record<string, unknown>) => s.conditions as { type: string; status: string; reason?: string; message?: string }[];

describe('podStatusFor', () => {
  it('a regular init container that exited 0 is ready', () => {
    const spec = { initContainers: [{ name: 'init', image: 'busybox:1.36' }], containers: [{ name: 'app', image: 'busybox:1.36' }] };
    const s = podStatusFor(input(spec, [ctr('init', { kind: 'init', state: 'exited', exitCode: 0, reason: 'Completed', finishedAt: 2000 }), ctr('app', { startedAt: 3000 })]));
    expect((s.initContainerStatuses as { ready: boolean }[])[0]!.ready).toBe(true);
  });

  it('a container that failed to start shows the Unix epoch as startedAt', () => {
    const spec = { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox:1.36' }] };
    const s = podStatusFor(input(spec, [ctr('app', { state: 'exited', exitCode: 128, reason: 'StartError', message: 'x', startedAt: 0, finishedAt: 5000 })]));
    expect((s.containerStatuses as { state: { terminated: { startedAt: string } } }[])[0]!.state.terminated.startedAt).toBe('1970-01-01T00:00:00Z');
  });

  it('a Failed pod is not ready with reason PodFailed and no message', () => {
    const spec = { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox:1.36' }] };
    const s = podStatusFor(input(spec, [ctr('app', { state: 'exited', exitCode: 1, reason: 'Error', finishedAt: 5000 })]));
    expect(s.phase).toBe('Failed');
    for (const type of ['Ready', 'ContainersReady']) {
      const c = conditions(s).find((x) => x.type === type)!;
      expect(c).toMatchObject({ status: 'False', reason: 'PodFailed' });
      expect(c.message).toBeUndefined();
    }
  });

  it('names every readiness gate not True, and keeps conditions it does not own first', () => {
    const spec = { readinessGates: [{ conditionType: 'example.com/a' }, { conditionType: 'example.com/b' }], containers: [{ name: 'app', image: 'busybox:1.36' }] };
    const prior = { conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }, { type: 'example.com/b', status: 'False' }] };
    const s = podStatusFor(input(spec, [ctr('app', {})], {}, prior));
    expect(conditions(s).find((x) => x.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "example.com/a" does not exist., the status of pod readiness gate "example.com/b" is not "True", but False',
    });
    expect(conditions(s).map((x) => x.type)).toEqual(['example.com/b', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
  });
});

describe('getPhase', () => {
  it('init containers re-running after a regular container has run do not make the pod Pending', () => {
    const spec = { initContainers: [{ name: 'init' }], containers: [{ name: 'app' }] } as unknown as Pod['spec'];
    const waitingApp = { name: 'app', state: { waiting: { reason: 'PodInitializing' } }, lastState: { terminated: { exitCode: 137 } } } as never;
    const runningInit = { name: 'init', state: { running: { startedAt: '' } }, lastState: {} } as never;
    const terminatedApp = { name: 'app', state: { terminated: { exitCode: 137 } }, lastState: {} } as never;
    // The app has terminated (it ran), the init container runs again in a new sandbox: Running (restartPolicy Always).
    expect(getPhase(spec, [runningInit], [terminatedApp], false)).toBe('Running');
    // Before any regular container ran, a running init container keeps the pod Pending.
    expect(getPhase(spec, [runningInit], [{ name: 'app', state: { waiting: { reason: 'PodInitializing' } }, lastState: {} } as never], false)).toBe('Pending');
    // HasAnyRegularContainerStarted looks at the current state only: a waiting app (even one that ran before) does not count.
    expect(getPhase(spec, [runningInit], [waitingApp], false)).toBe('Pending');
  });
});

describe('qosClass', () => {
  it('compares requests and limits as quantities', () => {
    const pod = (resources: unknown) => ({ metadata: {}, spec: { containers: [{ name: 'c', resources }] } }) as unknown as Pod;
    expect(qosClass(pod({ requests: { cpu: '1000m', memory: '1Gi' }, limits: { cpu: '1', memory: '1024Mi' } }))).toBe('Guaranteed');
    expect(qosClass(pod({ requests: { cpu: '0m' } }))).toBe('BestEffort');
    expect(qosClass(pod({ requests: { cpu: '500m' }, limits: { cpu: '1', memory: '1Gi' } }))).toBe('Burstable');
  });
});
