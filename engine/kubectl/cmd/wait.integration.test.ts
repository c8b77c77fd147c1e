// kubectl wait against the simulated control plane through the worker's
// kubectl host (lists, watches and the --timeout deadline in virtual time).
// Texts and exit codes follow kubectl v1.32 (wait.go, condition.go, delete.go,
// json.go, create.go).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import { ApiBridge } from '../../host/apiBridge';
import { KubectlHost } from '../../host/kubectlHost';
import { settle as settleFrames } from '../../host/testing';
import type { Engine } from '../../facade/engine';

const FRAMES = { stepMs: 5, maxFrames: 40_000 };

const pod = (name: string, labels: Record<string, string> = {}, nodeSelector?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { ...(nodeSelector ? { nodeSelector } : {}), containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
});

function setup(seed: number) {
  const e = controlPlane(seed, { nodes: 1, etcdMembers: 1 });
  runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
  const bridge = new ApiBridge(e);
  const host = new KubectlHost(bridge, () => e.sim.now);
  const settle = <T>(p: Promise<T>) => settleFrames(e, bridge, p, FRAMES);
  /** Runs a command to its end. */
  const k = (...args: string[]) => settle(host.run(['kubectl', 'wait', ...args]));
  /** Starts a command and lets `ms` of virtual time pass (it keeps running). */
  const start = async (ms: number, ...args: string[]) => {
    const p = host.run(['kubectl', 'wait', ...args]);
    await settle(Promise.race([p, bridge.sleep(ms, () => e.sim.now)]));
    // Wrapped: an async function returning the promise would wait for it.
    return { running: p };
  };
  return { e, bridge, host, settle, k, start };
}

const create = (e: Engine, body: object, path = '/api/v1/namespaces/default/pods') => expect(call(e, 'POST', path, body).status).toBe(201);
const podReady = (e: Engine, name: string) => ((call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`).body.status?.conditions as any[]) ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

describe('kubectl wait', () => {
  it('--for=condition, jsonpath, create and delete, watching until the object gets there', { timeout: 120_000 }, async () => {
    const { e, settle, k, start } = setup(81);
    // A pod created just now is not Ready yet: wait watches it become so.
    create(e, pod('web'));
    expect(podReady(e, 'web')).toBe(false);
    const t0 = e.sim.now;
    expect(await k('--for=condition=Ready', 'pod/web', '--timeout=60s')).toMatchObject({ stdout: 'pod/web condition met\n', stderr: '', exitCode: 0 });
    expect(e.sim.now).toBeGreaterThan(t0);
    expect(podReady(e, 'web')).toBe(true);
    // Condition names and values compare case-insensitively; a value after a second '='.
    expect(await k('--for', 'condition=ready=TRUE', 'pods', 'web')).toMatchObject({ stdout: 'pod/web condition met\n', exitCode: 0 });
    expect(await k('--for=condition=Ready=false', 'pod/web', '--timeout=0')).toMatchObject({ stdout: '', stderr: 'error: condition not met for pods/web\n', exitCode: 1 });
    // jsonpath equality (the value may be quoted), and any value with none given.
    expect(await k(`--for=jsonpath={.status.phase}=Running`, 'pod/web')).toMatchObject({ stdout: 'pod/web condition met\n', exitCode: 0 });
    expect(await k(`--for=jsonpath={.status.phase}="Running"`, 'pod/web')).toMatchObject({ stdout: 'pod/web condition met\n', exitCode: 0 });
    // Quotes a shell would have removed are part of the expression.
    expect(await k(`--for=jsonpath='{.status.phase}'=Running`, 'pod/web')).toMatchObject({ stderr: "error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'\n", exitCode: 1 });
    expect(await k('--for=jsonpath=.status.podIP', 'pod/web', '-o', 'name')).toMatchObject({ stdout: 'pod/web\n', exitCode: 0 });
    expect(await k('--for=jsonpath={.spec.containers}=x', 'pod/web')).toMatchObject({ stderr: 'error: jsonpath leads to a nested object or list which is not supported\n', exitCode: 1 });

    // A Job that runs to completion.
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'busybox', command: ['sh', '-c', 'sleep 2'] }] } } } };
    create(e, job, '/apis/batch/v1/namespaces/default/jobs');
    expect(await k('--for=condition=complete', 'job/pi', '--timeout=90s')).toMatchObject({ stdout: 'job.batch/pi condition met\n', stderr: '', exitCode: 0 });
    expect(call(e, 'GET', '/apis/batch/v1/namespaces/default/jobs/pi').body.status.succeeded).toBe(1);

    // --for=create polls until the object exists.
    const later = await start(1_500, '--for=create', 'pod/later', '--timeout=20s');
    create(e, pod('later'));
    expect(await settle(later.running)).toMatchObject({ stdout: 'pod/later condition met\n', stderr: '', exitCode: 0 });
    expect(await k('--for=create', 'pod/never', '--timeout=1s')).toMatchObject({ stdout: '', stderr: 'error: timed out waiting for the condition\n', exitCode: 1 });

    // --for=delete: a pod being deleted, then one already gone.
    const gone = await start(200, '--for=delete', 'pod/web', '--timeout=60s');
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/pods/web').status).toBe(200);
    expect(await settle(gone.running)).toMatchObject({ stdout: 'pod/web condition met\n', stderr: '', exitCode: 0 });
    expect(call(e, 'GET', '/api/v1/namespaces/default/pods/web').status).toBe(404);
    expect(await k('--for=delete', 'pod/web')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(await k('--for=Delete', 'pod/nope', 'pod/later', '--timeout=0')).toMatchObject({ stdout: '', stderr: 'error: condition not met for pods/later\n', exitCode: 1 });
  });

  it('selectors and --all, one line per object in list order; timeouts and bad --for', { timeout: 120_000 }, async () => {
    const { e, k } = setup(82);
    for (const n of ['b-two', 'a-one', 'c-three']) create(e, pod(n, { app: 'multi' }));
    create(e, pod('stuck', { app: 'stuck' }, { nope: 'x' }));
    expect(await k('--for=condition=Ready', 'pods', '-l', 'app=multi', '--timeout=60s')).toMatchObject({ stdout: 'pod/a-one condition met\npod/b-two condition met\npod/c-three condition met\n', stderr: '', exitCode: 0 });
    expect(await k('--for=jsonpath={.status.phase}=Running', 'pods', '-l', 'app=multi')).toMatchObject({ stdout: 'pod/a-one condition met\npod/b-two condition met\npod/c-three condition met\n', exitCode: 0 });
    expect(await k('--for=create', 'pods', '--all')).toMatchObject({ stdout: 'pod/a-one condition met\npod/b-two condition met\npod/c-three condition met\npod/stuck condition met\n', exitCode: 0 });

    // The deadline is virtual time, and upstream's words and exit code.
    const t0 = e.sim.now;
    expect(await k('--for=condition=Ready', 'pod/stuck', '--timeout=2s')).toMatchObject({ stdout: '', stderr: 'error: timed out waiting for the condition on pods/stuck\n', exitCode: 1 });
    expect(e.sim.now - t0).toBeGreaterThanOrEqual(2000);
    expect(e.sim.now - t0).toBeLessThan(3000);
    // One deadline for the run; errors are reported together at the end, in order.
    expect(await k('--for=condition=Ready', 'pod/stuck', 'pod/nope', 'pod/a-one', '--timeout=1s')).toMatchObject({ stdout: '', stderr: 'timed out waiting for the condition on pods/stuck\nError from server (NotFound): pods "nope" not found\ntimed out waiting for the condition on pods/a-one\n', exitCode: 1 });
    expect(await k('--for=condition=Ready', 'pods', '-l', 'app=none')).toMatchObject({ stderr: 'error: no matching resources found\n', exitCode: 1 });
    expect(await k('--for=condition=Ready', 'pods')).toMatchObject({ stderr: 'error: resource(s) were provided, but no name was specified\n', exitCode: 1 });

    // --for missing or malformed.
    expect(await k('pod/a-one')).toMatchObject({ stdout: '', stderr: 'error: unrecognized condition: ""\n', exitCode: 1 });
    expect(await k('--for=ready', 'pod/a-one')).toMatchObject({ stderr: 'error: unrecognized condition: "ready"\n', exitCode: 1 });
    expect(await k('--for=jsonpath=', 'pod/a-one')).toMatchObject({ stderr: 'error: jsonpath expression cannot be empty\n', exitCode: 1 });
    expect(await k('--for=jsonpath={.a}=', 'pod/a-one')).toMatchObject({ stderr: "error: jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3\n", exitCode: 1 });
    expect(await k('--for=jsonpath={.a}=1=2', 'pod/a-one')).toMatchObject({ stderr: "error: jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'\n", exitCode: 1 });
    expect(await k('--for=delete')).toMatchObject({ stderr: "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n", exitCode: 1 });
  });
});
