import { describe, expect, it } from 'vitest';
import { controlPlane } from '../apiserver/testing/harness';
import { ApiBridge } from './apiBridge';
import { KubectlHost } from './kubectlHost';
import { settle as settleFrames } from './testing';
import type { Engine } from '../facade/engine';

const FRAMES = { stepMs: 5, maxFrames: 5000 };
const settle = <T>(e: Engine, bridge: ApiBridge, p: Promise<T>) => settleFrames(e, bridge, p, FRAMES);

describe('kubectl in the worker (KubectlHost over the API bridge)', () => {
  const e = controlPlane(4);
  const bridge = new ApiBridge(e);
  const host = new KubectlHost(bridge, () => e.sim.now);

  it('runs kubectl get against the simulated apiserver', async () => {
    const out = await settle(e, bridge, host.run(['kubectl', 'get', 'ns']));
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\d+s\n/);
  });

  it('applies a multi-document buffer with one result per document, at each first line', async () => {
    const yaml = [
      '# two config maps and a broken one',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: one',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: Bad_Name',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: [',
    ].join('\n');
    const res = await settle(e, bridge, host.apply(yaml));
    expect(res.map((r) => [r.line, r.ok])).toEqual([
      [2, true],
      [7, false],
      [12, false],
    ]);
    expect(res[0]!.message).toBe('configmap/one created');
    expect(res[1]!.message).toContain('ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"');
    expect(res[2]!.errorLine).toBeGreaterThanOrEqual(14);
  });

  it('completes resource types and names', async () => {
    const c = await settle(e, bridge, host.complete('kubectl get config'));
    expect(c).toContain('configmaps');
  });

  it('hands kubectl edit to the editor and applies the edited text', async () => {
    const out = await settle(e, bridge, host.run(['edit', 'configmap', 'one']));
    expect(out.edit?.content).toContain('name: one');
    const edited = out.edit!.content.replace('metadata:\n', 'data:\n  k: v\nmetadata:\n');
    const done = await settle(e, bridge, host.editDone(out.edit!.editId, edited));
    expect(done.stdout).toBe('configmap/one edited\n');
    const got = await settle(e, bridge, host.run(['get', 'cm', 'one', '-o', 'jsonpath={.data.k}']));
    expect(got.stdout).toBe('v');
  });
});

describe('kubectl get -w in the worker', () => {
  it('streams rows as events arrive and ends on interrupt (Ctrl-C)', async () => {
    const e = controlPlane(6);
    const bridge = new ApiBridge(e);
    const host = new KubectlHost(bridge, () => e.sim.now);
    const chunks: string[] = [];
    const running = host.run(['get', 'cm', '-w'], {}, (stream, text) => chunks.push(`${stream}:${text}`));
    let finished = false;
    running.then(() => (finished = true));
    for (let i = 0; i < 50; i++) {
      e.advance(5);
      bridge.poll();
      await new Promise((r) => setImmediate(r));
    }
    expect(chunks.join('')).toContain('kube-root-ca.crt');
    const created = host.run(['create', 'configmap', 'streamed']);
    for (let i = 0; i < 100 && !chunks.join('').includes('streamed'); i++) {
      e.advance(5);
      bridge.poll();
      await new Promise((r) => setImmediate(r));
    }
    await created;
    expect(chunks.join('')).toMatch(/stdout:streamed\s+0\s+\d+s/);
    expect(finished).toBe(false);
    host.interrupt();
    for (let i = 0; i < 50 && !finished; i++) {
      e.advance(5);
      bridge.poll();
      await new Promise((r) => setImmediate(r));
    }
    expect(finished).toBe(true);
    const out = await running;
    expect(out.stdout).toBe(''); // everything was streamed
  });
});

describe('kubectl typed while the cluster boots', () => {
  it('waits for the API server and the first controllers, then answers as a booted cluster would', async () => {
    const { Engine } = await import('../facade/engine');
    const e = Engine.create({ seed: 2, etcdMembers: 3, controlPlane: true });
    const bridge = new ApiBridge(e);
    const host = new KubectlHost(bridge, () => e.sim.now);
    expect(e.clusterReady()).toBe(false);
    const out = await settle(e, bridge, host.run(['get', 'ns', '-o', 'name']));
    expect(out.stdout).toBe('namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\nnamespace/kube-system\n');
    expect(e.clusterReady()).toBe(true);
  });
});
