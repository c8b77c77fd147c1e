// kubectl replace against the simulated control plane: a whole-object PUT at
// the live resourceVersion, refused where a Pod's spec may not change; with
// --force the object is deleted, polled for every second until the kubelet
// has let it go, and created anew. Texts as kubectl v1.32 printed them
// against `npm run serve` (the parity suite compares the dry runs and refusals).
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import { runUntil } from '../../scheduler/testing/cluster';
import type { Engine } from '../../facade/engine';
import { engineKubectl } from '../testing/engineKubectl';

// The terminal's sleep: virtual time passes.
const kubectl = (e: Engine, files: Record<string, string>) => engineKubectl(e, { files, sleep: async (ms: number) => e.advance(ms) });

const pod = (command: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\nspec:\n  terminationGracePeriodSeconds: 5\n  containers:\n  - name: c\n    image: busybox:1.36\n    command: ["${command}", "3600"]\n`;
const cms = (v: string) => ['rc1', 'rc2'].map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  a: "${v}"\n`).join('---\n');

describe('kubectl replace', () => {
  it('replaces whole objects, goes on past one that is gone, and drops a last-applied configuration the file does not have', { timeout: 60_000 }, async () => {
    const e = controlPlane(81, { nodes: 0, etcdMembers: 1 });
    const k = kubectl(e, { 'cm.yaml': cms('1'), 'cm2.yaml': cms('2') });
    expect((await k('create', '-f', 'cm.yaml', '--save-config')).exitCode).toBe(0);
    expect(await k('replace', '-f', 'cm2.yaml')).toMatchObject({ stdout: 'configmap/rc1 replaced\nconfigmap/rc2 replaced\n', exitCode: 0 });
    const rc1 = call(e, 'GET', '/api/v1/namespaces/default/configmaps/rc1').body;
    expect(rc1.data).toEqual({ a: '2' });
    expect(rc1.metadata.annotations).toBeUndefined();
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/configmaps/rc2').status).toBe(200);
    expect(await k('replace', '-f', 'cm.yaml', '--save-config')).toMatchObject({ stdout: 'configmap/rc1 replaced\n', stderr: 'Error from server (NotFound): error when replacing "cm.yaml": configmaps "rc2" not found\n', exitCode: 1 });
    expect(JSON.parse(call(e, 'GET', '/api/v1/namespaces/default/configmaps/rc1').body.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])).toEqual({ apiVersion: 'v1', data: { a: '1' }, kind: 'ConfigMap', metadata: { annotations: {}, name: 'rc1', namespace: 'default' } });
    expect((await k('replace', '-f', 'cm.yaml', '--grace-period=1')).stderr).toBe('error: --grace-period must have --force specified\n');
    expect((await k('replace')).stderr).toBe('error: must specify one of -f and -k\n');
  });

  it('--force deletes the running pod, waits until the kubelet has stopped it, and creates it with the new spec', { timeout: 60_000 }, async () => {
    const e = controlPlane(82, { nodes: 1, etcdMembers: 1 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'a Ready node', 60_000, 500);
    const k = kubectl(e, { 'pod.yaml': pod('sleep'), 'pod2.yaml': pod('sleeep') });
    expect((await k('create', '-f', 'pod.yaml')).exitCode).toBe(0);
    runUntil(e, () => call(e, 'GET', '/api/v1/namespaces/default/pods/p1').body.status?.phase === 'Running', 'p1 running', 60_000, 500);
    const before = call(e, 'GET', '/api/v1/namespaces/default/pods/p1').body.metadata.uid;
    const refused = await k('replace', '-f', 'pod2.yaml');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^The Pod "p1" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
    const t0 = e.sim.now;
    expect(await k('replace', '-f', 'pod2.yaml', '--force')).toMatchObject({ stdout: 'pod "p1" deleted\npod/p1 replaced\n', exitCode: 0 });
    // The kubelet stopped the old pod first (it had 5 s to go), polled for every second.
    expect(e.sim.now - t0).toBeGreaterThanOrEqual(1000);
    const after = call(e, 'GET', '/api/v1/namespaces/default/pods/p1').body;
    expect(after.metadata.uid).not.toBe(before);
    expect(after.spec.containers[0].command).toEqual(['sleeep', '3600']);
  });
});
