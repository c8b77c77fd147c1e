// kubectl diff against the simulated control plane: the live object against
// what apply would make of it (a server dry run: nothing changes), as GNU
// diff -u prints them; new objects against nothing, a Secret's data masked,
// exit 1 for differences, 0 for none, 2 for an error. The layout is what
// kubectl v1.32 printed for the same files against `npm run serve`.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../../apiserver/testing/harness';
import type { Engine } from '../../facade/engine';
import { engineKubectl } from '../testing/engineKubectl';

const kubectl = (e: Engine, files: Record<string, string>) => engineKubectl(e, { files });

const cm = (name: string, data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${data}`;
const secret = (pw: string) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: sec\nstringData:\n  pw: ${pw}\n  user: bob\n`;

describe('kubectl diff', () => {
  it('shows what apply would change, new objects whole and secrets masked, and changes nothing', { timeout: 60_000 }, async () => {
    const e = controlPlane(91, { nodes: 0, etcdMembers: 1 });
    const files = {
      'old.yaml': `${cm('rc1', '  a: "1"\n')}---\n${secret('hunter2')}`,
      'new.yaml': `${cm('rc1', '  a: "3"\n  b: new\n')}---\n${cm('brandnew', '  x: "1"\n')}---\n${secret('other')}`,
    };
    const k = kubectl(e, files);
    expect((await k('apply', '-f', 'old.yaml')).exitCode).toBe(0);
    expect(await k('diff', '-f', 'old.yaml')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    const before = call(e, 'GET', '/api/v1/namespaces/default/configmaps/rc1').body;
    const r = await k('diff', '-f', 'new.yaml');
    expect(r.exitCode).toBe(1);
    const out = r.stdout;
    // One file pair per object, in file-name order, under LIVE-n and MERGED-n.
    const headers = [...out.matchAll(/^diff -u -N (\/tmp\/LIVE-\d+)\/(\S+) (\/tmp\/MERGED-\d+)\/(\S+)$/gm)];
    expect(headers.map((h) => h[2])).toEqual(['v1.ConfigMap.default.brandnew', 'v1.ConfigMap.default.rc1', 'v1.Secret.default.sec']);
    expect(out).toMatch(/^--- \/tmp\/LIVE-\d+\/v1\.ConfigMap\.default\.rc1\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9} \+0000$/m);
    // A new object is all insertions (its dry-run create: no resourceVersion).
    expect(out).toContain('@@ -0,0 +1,9 @@\n+apiVersion: v1\n+data:\n+  x: "1"\n+kind: ConfigMap\n+metadata:\n');
    // The three-way patch's result: the value changed, the key added; the configuration is not recorded by diff.
    expect(out).toContain(' data:\n-  a: "1"\n+  a: "3"\n+  b: new\n kind: ConfigMap\n');
    // Secret values never show: changed ones as before/after, the same as ***.
    expect(out).toContain("-  pw: '*** (before)'\n+  pw: '*** (after)'\n   user: '***'\n");
    expect(out).not.toContain('aHVudGVyMg');
    // A server dry run: nothing was written.
    expect(call(e, 'GET', '/api/v1/namespaces/default/configmaps/rc1').body.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(call(e, 'GET', '/api/v1/namespaces/default/configmaps/brandnew').status).toBe(404);
    expect(await k('diff', '-f', 'nope.yaml')).toMatchObject({ stderr: 'error: the path "nope.yaml" does not exist\n', exitCode: 2 });
    expect(await k('diff')).toMatchObject({ stderr: 'error: must specify one of -f and -k\n', exitCode: 2 });
  });
});
