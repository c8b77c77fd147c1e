import { describe, it, expect } from 'vitest';
import { newProbeState, runProbe } from './probes';
import type { ContainerRt } from '../status/generate';

const container = (over: Partial<ContainerRt> = {}): ContainerRt => ({
  name: 'app',
  image: 'nginx',
  state: 'running',
  reason: '',
  message: '',
  restartCount: 0,
  containerID: '',
  imageID: '',
  startedAt: 0,
  listeningAt: 0,
  ready: false,
  started: true,
  probes: {},
  ports: [80],
  exitAt: -1,
  exitCode: 0,
  finishedAt: -1,
  lastTerminated: null,
  pullAt: 0,
  pullStartedAt: -1,
  backoffUntil: -1,
  ignoresSigterm: false,
  oomKilled: false,
  ...over,
});

describe('probes (prober/worker.go)', () => {
  it('readiness stays failed before initialDelaySeconds and passes at the first tick after it', () => {
    const c = container();
    const st = newProbeState('readiness', 0);
    const spec = { httpGet: { port: 80, path: '/' }, initialDelaySeconds: 5, periodSeconds: 2 };
    expect(runProbe('readiness', spec, st, c, 4000, '10.0.0.2', c.ports, [])).toEqual([]);
    expect(st.ok).toBe(false);
    runProbe('readiness', spec, st, c, 6000, '10.0.0.2', c.ports, []);
    expect(st.ok).toBe(true);
    expect(st.nextAt).toBe(8000);
  });

  it('liveness kills after failureThreshold consecutive failures, with upstream messages', () => {
    const c = container();
    const st = newProbeState('liveness', 0);
    const spec = { httpGet: { port: 8080, path: '/healthz' }, periodSeconds: 10, failureThreshold: 3 };
    const out1 = runProbe('liveness', spec, st, c, 10_000, '10.0.0.2', c.ports, []);
    expect(out1).toEqual([
      { type: 'failed', kind: 'liveness', message: 'Get "http://10.0.0.2:8080/healthz": dial tcp 10.0.0.2:8080: connect: connection refused' },
      { type: 'failed', kind: 'liveness', message: 'Get "http://10.0.0.2:8080/healthz": dial tcp 10.0.0.2:8080: connect: connection refused' },
    ]);
    expect(st.ok).toBe(true);
    const out2 = runProbe('liveness', spec, st, c, 20_000, '10.0.0.2', c.ports, []);
    expect(out2.map((o) => o.type)).toEqual(['failed', 'kill']);
  });

  it('a named port resolves through the container ports; successThreshold counts', () => {
    const c = container({ listeningAt: 3000 });
    const st = newProbeState('readiness', 0);
    const spec = { tcpSocket: { port: 'web' }, periodSeconds: 1, successThreshold: 2 };
    runProbe('readiness', spec, st, c, 3000, '10.0.0.2', c.ports, [{ name: 'web', containerPort: 80 }]);
    expect(st.ok).toBe(false);
    runProbe('readiness', spec, st, c, 4000, '10.0.0.2', c.ports, [{ name: 'web', containerPort: 80 }]);
    expect(st.ok).toBe(true);
  });
});
