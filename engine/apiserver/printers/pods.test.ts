// printPod's READY / STATUS / RESTARTS logic, case by case (compare
// pkg/printers/internalversion/printers_test.go TestPrintPod*).
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { podPrinter, podTemplatePrinter } from './pods';

const NOW = Date.UTC(2026, 0, 1, 1, 0, 0);
const CREATED = '2026-01-01T00:00:00Z';

type PodParts = { spec?: Record<string, unknown>; status?: Record<string, unknown>; metadata?: Record<string, unknown> };

function pod(parts: PodParts): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', creationTimestamp: CREATED, ...parts.metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...parts.spec },
    status: parts.status ?? {},
  };
}

/** NAME, READY, STATUS, RESTARTS, AGE. */
const main = (p: KObject) => podPrinter.print(p, NOW).cells.slice(0, 5);

const running = { running: { startedAt: CREATED } };

describe('STATUS, READY and RESTARTS', () => {
  it('CrashLoopBackOff with three restarts two minutes ago', () => {
    const p = pod({
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 3,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:57:50Z', finishedAt: '2026-01-01T00:58:00Z' } },
          },
        ],
      },
    });
    expect(main(p)).toEqual(['web-0', '0/1', 'CrashLoopBackOff', '3 (2m ago)', '60m']);
  });

  it('a running, ready pod', () => {
    const p = pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }] } });
    expect(main(p)).toEqual(['web-0', '1/1', 'Running', '0', '60m']);
  });

  it('restarts without a recorded finish time print bare', () => {
    const p = pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 2, state: running, lastState: {} }] } });
    expect(main(p)[3]).toBe('2');
  });

  it('the latest finish time across containers is the one shown', () => {
    const p = pod({
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 1, state: running, lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:10:00Z' } } },
          { name: 'b', ready: true, restartCount: 4, state: running, lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:55:30Z' } } },
        ],
      },
    });
    expect(main(p).slice(1, 4)).toEqual(['2/2', 'Running', '5 (4m30s ago)']);
  });

  it('pending, with a container creating', () => {
    const p = pod({
      status: { phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] },
    });
    expect(main(p).slice(1, 4)).toEqual(['0/1', 'ContainerCreating', '0']);
    expect(main(pod({ status: { phase: 'Pending' } })).slice(1, 3)).toEqual(['0/1', 'Pending']);
  });

  it('status.reason overrides the phase, and SchedulingGated overrides both', () => {
    expect(main(pod({ status: { phase: 'Failed', reason: 'Evicted' } }))[2]).toBe('Evicted');
    const gated = pod({ status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] } });
    expect(main(gated)[2]).toBe('SchedulingGated');
  });

  it('terminated containers: reason, else Signal:N, else ExitCode:N', () => {
    const term = (t: Record<string, unknown>) =>
      pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', restartCount: 0, state: { terminated: t } }] } });
    expect(main(term({ exitCode: 137, reason: 'OOMKilled' }))[2]).toBe('OOMKilled');
    expect(main(term({ exitCode: 137, signal: 9 }))[2]).toBe('Signal:9');
    expect(main(term({ exitCode: 2 }))[2]).toBe('ExitCode:2');
  });

  it('the first container has the last word', () => {
    const p = pod({
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'a', restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } },
          { name: 'b', restartCount: 0, state: { waiting: { reason: 'ErrImagePull' } } },
        ],
      },
    });
    expect(main(p)[2]).toBe('ImagePullBackOff');
  });

  it('Completed while another container runs is Running when Ready, else NotReady', () => {
    const parts = (ready: boolean): PodParts => ({
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
        containerStatuses: [
          { name: 'a', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'b', ready: true, restartCount: 0, state: running },
        ],
      },
    });
    expect(main(pod(parts(true))).slice(1, 3)).toEqual(['1/2', 'Running']);
    expect(main(pod(parts(false))).slice(1, 3)).toEqual(['1/2', 'NotReady']);
  });

  it('succeeded and failed pods carry a Completed row condition', () => {
    const done = pod({
      status: { phase: 'Succeeded', containerStatuses: [{ name: 'app', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }] },
    });
    const row = podPrinter.print(done, NOW);
    expect(row.cells[2]).toBe('Completed');
    expect(row.conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    expect(podPrinter.print(pod({ status: { phase: 'Failed' } }), NOW).conditions).toEqual([
      { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
    ]);
    expect(podPrinter.print(pod({ status: { phase: 'Running' } }), NOW).conditions).toBeUndefined();
  });

  it('Terminating while deleted, Unknown when its node was lost', () => {
    const deleting = { deletionTimestamp: '2026-01-01T00:59:00Z' };
    expect(main(pod({ metadata: deleting, status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, state: running }] } }))[2]).toBe(
      'Terminating',
    );
    expect(main(pod({ metadata: deleting, status: { phase: 'Running', reason: 'NodeLost' } }))[2]).toBe('Unknown');
    // Not deleted yet: the reason shows as is.
    expect(main(pod({ status: { phase: 'Running', reason: 'NodeLost' } }))[2]).toBe('NodeLost');
    // Terminal pods being deleted keep their status.
    expect(main(pod({ metadata: deleting, status: { phase: 'Succeeded' } }))[2]).toBe('Succeeded');
  });
});

describe('init containers', () => {
  const twoInits = { initContainers: [{ name: 'init-a' }, { name: 'init-b' }] };

  it('Init:i/n while one runs, Init:<reason> while one waits', () => {
    const p = pod({
      spec: twoInits,
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'init-a', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'init-b', restartCount: 0, state: running },
        ],
        containerStatuses: [{ name: 'app', restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }],
      },
    });
    expect(main(p).slice(1, 4)).toEqual(['0/1', 'Init:1/2', '0']);
    const waiting = pod({
      spec: twoInits,
      status: { phase: 'Pending', initContainerStatuses: [{ name: 'init-a', restartCount: 0, state: { waiting: { reason: 'ErrImagePull' } } }] },
    });
    expect(main(waiting)[2]).toBe('Init:ErrImagePull');
    const podInitializing = pod({
      spec: twoInits,
      status: { phase: 'Pending', initContainerStatuses: [{ name: 'init-a', restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }] },
    });
    expect(main(podInitializing)[2]).toBe('Init:0/2');
  });

  it('failed init containers, and their restarts counted while initializing', () => {
    const failed = (t: Record<string, unknown>) =>
      pod({
        spec: twoInits,
        status: {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'init-a', restartCount: 5, state: { terminated: t }, lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:59:00Z' } } },
          ],
        },
      });
    expect(main(failed({ exitCode: 1 })).slice(2, 4)).toEqual(['Init:ExitCode:1', '5 (60s ago)']);
    expect(main(failed({ exitCode: 1, signal: 15 }))[2]).toBe('Init:Signal:15');
    expect(main(failed({ exitCode: 1, reason: 'Error' }))[2]).toBe('Init:Error');
  });

  it('a started sidecar counts toward READY and only its restarts survive initialization', () => {
    const p = pod({
      spec: { initContainers: [{ name: 'setup' }, { name: 'proxy', restartPolicy: 'Always' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }],
        initContainerStatuses: [
          { name: 'setup', restartCount: 7, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          {
            name: 'proxy',
            restartCount: 1,
            started: true,
            ready: true,
            state: running,
            lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:30:00Z' } },
          },
        ],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
      },
    });
    expect(main(p).slice(1, 4)).toEqual(['2/2', 'Running', '1 (30m ago)']);
  });
});

describe('wide columns', () => {
  it('IP, NODE, NOMINATED NODE, READINESS GATES', () => {
    const p = pod({
      spec: { nodeName: 'node-1', readinessGates: [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }] },
      status: {
        phase: 'Running',
        podIPs: [{ ip: '10.244.1.5' }, { ip: 'fd00::5' }],
        conditions: [
          { type: 'example.com/lb', status: 'True' },
          { type: 'example.com/dns', status: 'False' },
        ],
      },
    });
    expect(podPrinter.print(p, NOW).cells.slice(5)).toEqual(['10.244.1.5', 'node-1', '<none>', '1/2']);
    expect(podPrinter.print(pod({ status: { nominatedNodeName: 'node-2' } }), NOW).cells.slice(5)).toEqual(['<none>', '<none>', 'node-2', '<none>']);
  });

  it("column definitions are upstream's", () => {
    expect(podPrinter.columns.map((c) => [c.name, c.type, c.priority, c.format])).toEqual([
      ['Name', 'string', 0, 'name'],
      ['Ready', 'string', 0, ''],
      ['Status', 'string', 0, ''],
      ['Restarts', 'string', 0, ''],
      ['Age', 'string', 0, ''],
      ['IP', 'string', 1, ''],
      ['Node', 'string', 1, ''],
      ['Nominated Node', 'string', 1, ''],
      ['Readiness Gates', 'string', 1, ''],
    ]);
    expect(podPrinter.columns[1]!.description).toBe('The aggregate readiness state of this pod for accepting traffic.');
    expect(podPrinter.columns[4]!.description).toContain('It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system.');
  });
});

describe('PodTemplate', () => {
  it('containers, images and pod labels', () => {
    const t: KObject = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'tpl', namespace: 'default' },
      template: {
        metadata: { labels: { tier: 'web', app: 'shop' } },
        spec: {
          containers: [
            { name: 'a', image: 'x:1' },
            { name: 'b', image: 'y:2' },
          ],
        },
      },
    };
    expect(podTemplatePrinter.print(t, NOW).cells).toEqual(['tpl', 'a,b', 'x:1,y:2', 'app=shop,tier=web']);
  });
});
