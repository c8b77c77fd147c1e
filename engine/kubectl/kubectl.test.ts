// End-to-end behaviour through runKubectl against the fixture API server
// (testing/fakeApiserver.ts answers like kube-apiserver: discovery, Tables,
// Status errors, watches). Texts checked here follow kubectl v1.32.5.
import { describe, expect, it } from 'vitest';
import { completeKubectl, runKubectl } from './index';
import { fixtureServer } from './testing/fixtures';
import { OPENAPI } from './testing/openapiFixture';
import type { KubectlEnv } from './types';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);

function setup(opts: Parameters<typeof fixtureServer>[1] = {}) {
  const fake = fixtureServer(NOW, { deniedUsers: ['jane'], openapi: OPENAPI, ...opts });
  const env: KubectlEnv = { transport: fake.transport(), files: {}, now: () => NOW, namespace: 'default' };
  const run = (line: string, extra: Partial<KubectlEnv> = {}) => runKubectl(line.split(' ').filter(Boolean), { ...env, ...extra });
  return { fake, env, run };
}

describe('kubectl get', () => {
  it('prints a server-side table', async () => {
    const { run } = setup();
    const r = await run('kubectl get pods');
    expect(r).toEqual({
      stdout: 'NAME                  READY   STATUS    RESTARTS   AGE\nweb-7d4b9c8f5-abcde   1/1     Running   0          15m\nweb-7d4b9c8f5-fghij   1/1     Running   1          15m\n',
      stderr: '',
      exitCode: 0,
    });
  });

  it('sends the Table Accept header kubectl sends and lists with limit=500', async () => {
    const { run, fake } = setup();
    await run('get deploy');
    const req = fake.requests.find((q) => q.path === '/apis/apps/v1/namespaces/default/deployments')!;
    expect(req.query).toEqual({ limit: '500' });
  });

  it('a failed single get prints only its error, whatever the output format (printGeneric)', async () => {
    const { run } = setup();
    for (const o of ['jsonpath={.spec.nodeName}:{.metadata.name}', 'name', 'yaml']) {
      expect(await run(`get pod nope -o ${o}`)).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', exitCode: 1 });
    }
  });

  it('works with legacy discovery too', async () => {
    const { run, fake } = setup({ aggregated: false });
    const r = await run('get deploy.apps web -o name');
    expect(r.stdout).toBe('deployment.apps/web\n');
    expect(fake.requests.some((q) => q.path === '/apis/apps/v1')).toBe(true);
  });

  it('impersonates with --as and --as-group', async () => {
    const { run, fake } = setup();
    const r = await run('get pods --as=jane --as-group=devs --as-group=qa');
    expect(r.stderr).toBe('Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n');
    expect(r.exitCode).toBe(1);
    const q = fake.requests.at(-1)!;
    expect(q.path).toBe('/api/v1/namespaces/default/pods');
  });

  it('says so on stderr when nothing is found', async () => {
    const { run } = setup();
    expect(await run('get pods -l app=none')).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect((await run('get nodes -l app=none')).stderr).toBe('No resources found\n');
  });

  it('streams watch events until interrupted', async () => {
    const { fake, env } = setup();
    const chunks: string[] = [];
    let stop!: () => void;
    const interrupt = new Promise<void>((r) => (stop = r));
    const p = runKubectl(['get', 'pods', '-w'], { ...env, interrupt, onOutput: (_s, t) => chunks.push(t) });
    // let the command reach its watch (microtasks only: the fake answers synchronously)
    for (let i = 0; i < 1000 && !fake.requests.some((q) => q.query.watch === 'true'); i++) await Promise.resolve();
    fake.add({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late', namespace: 'default', creationTimestamp: new Date(NOW).toISOString() }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Pending' } });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    stop();
    const r = await p;
    expect(r.stdout).toBe(
      'NAME                  READY   STATUS    RESTARTS   AGE\nweb-7d4b9c8f5-abcde   1/1     Running   0          15m\nweb-7d4b9c8f5-fghij   1/1     Running   1          15m\nlate                  0/1     Pending   0          0s\n',
    );
    expect(chunks.join('')).toBe(r.stdout);
  });
});

describe('kubectl describe', () => {
  it('describes a pod with its events', async () => {
    const { run } = setup();
    const r = await run('describe pod web-7d4b9c8f5-abcde');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Name:             web-7d4b9c8f5-abcde\nNamespace:        default\nPriority:         0\nService Account:  default\nNode:             node-2/10.0.0.11\n');
    expect(r.stdout).toContain('IPs:\n  IP:           10.244.1.5\nControlled By:  ReplicaSet/web-7d4b9c8f5\n');
    expect(r.stdout.endsWith('Events:\n  Type    Reason     Age                From               Message\n  ----    ------     ----               ----               -------\n  Normal  Scheduled  15m                default-scheduler  Successfully assigned default/web-7d4b9c8f5-abcde to node-2\n  Normal  Pulled     12m (x2 over 15m)  kubelet            Container image "nginx:1.27" already present on machine\n')).toBe(true);
  });

  it('falls back to name prefixes', async () => {
    const { run } = setup();
    const r = await run('describe pods web');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('Name:'))).toEqual(['Name:             web-7d4b9c8f5-abcde', 'Name:             web-7d4b9c8f5-fghij']);
  });
});

describe('mutations', () => {
  it('apply creates, then reports unchanged, sending the last-applied annotation', async () => {
    const { run, fake } = setup();
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fresh\ndata:\n  a: "1"\n';
    const env = { files: { 'cm.yaml': manifest } };
    expect((await run('apply -f cm.yaml', env)).stdout).toBe('configmap/fresh created\n');
    const post = fake.requests.find((q) => q.method === 'POST')!;
    expect(post.query).toEqual({ fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Strict' });
    expect(post.body).toBe(
      '{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"v1\\",\\"data\\":{\\"a\\":\\"1\\"},\\"kind\\":\\"ConfigMap\\",\\"metadata\\":{\\"annotations\\":{},\\"name\\":\\"fresh\\",\\"namespace\\":\\"default\\"}}\\n"},"name":"fresh","namespace":"default"}}\n',
    );
    expect((await run('apply -f cm.yaml', env)).stdout).toBe('configmap/fresh unchanged\n');
    const changed = { files: { 'cm.yaml': manifest.replace('"1"', '"2"') } };
    expect((await run('apply -f cm.yaml', changed)).stdout).toBe('configmap/fresh configured\n');
    const patch = fake.requests.filter((q) => q.method === 'PATCH').at(-1)!;
    expect(patch.contentType).toBe('application/strategic-merge-patch+json');
    expect(JSON.parse(patch.body!).data).toEqual({ a: '2' });
  });

  it('label refuses to overwrite without --overwrite', async () => {
    const { run } = setup();
    expect(await run('label pod web-7d4b9c8f5-abcde app=x')).toEqual({ stdout: '', stderr: "error: 'app' already has a value (web), and --overwrite is false\n", exitCode: 1 });
    expect((await run('label pod web-7d4b9c8f5-abcde app=x --overwrite')).stdout).toBe('pod/web-7d4b9c8f5-abcde labeled\n');
  });

  it('scales through the scale subresource and deletes with kubectl wording', async () => {
    const { run, fake } = setup();
    expect((await run('scale deploy web --replicas=3')).stdout).toBe('deployment.apps/web scaled\n');
    expect(fake.requests.at(-1)!.path).toBe('/apis/apps/v1/namespaces/default/deployments/web/scale');
    expect((await run('delete cm app-config')).stdout).toBe('configmap "app-config" deleted\n');
    expect(await run('delete cm app-config')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): configmaps "app-config" not found\n', exitCode: 1 });
  });

  it('edit hands out the YAML and patches what changed', async () => {
    const { env, fake } = setup();
    const r = await runKubectl(['edit', 'cm', 'app-config'], env);
    expect(r.edit!.content.startsWith("# Please edit the object below. Lines beginning with a '#' will be ignored,\n")).toBe(true);
    expect(r.edit!.path).toMatch(/^\/tmp\/kubectl-edit-\d+\.yaml$/);
    const unchanged = await r.edit!.resume(r.edit!.content);
    expect(unchanged).toEqual({ stdout: '', stderr: 'Edit cancelled, no changes made.\n', exitCode: 0 });
    const done = await r.edit!.resume(r.edit!.content.replace('mode: production', 'mode: staging'));
    expect(done.stdout).toBe('configmap/app-config edited\n');
    expect(fake.requests.at(-1)!.body).toBe('{"data":{"mode":"staging"}}');
    const broken = await r.edit!.resume(r.edit!.content.replace('mode: production', 'mode: [x'));
    expect(broken.edit!.content).toContain('# The edited file had a syntax error: error parsing edited-file: error converting YAML to JSON: yaml: line');
  });
});

describe('auth, discovery and docs', () => {
  it('auth can-i answers yes, or no with exit code 1', async () => {
    const { run, fake } = setup();
    expect(await run('auth can-i create pods')).toEqual({ stdout: 'yes\n', stderr: '', exitCode: 0 });
    expect(JSON.parse(fake.requests.at(-1)!.body!).spec).toEqual({ resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } });
    expect(await run('auth can-i create pods --as=jane')).toEqual({ stdout: 'no\n', stderr: '', exitCode: 1 });
    expect((await run('auth can-i get nodes')).stderr).toBe("Warning: resource 'nodes' is not namespace scoped\n\n");
  });

  it('auth can-i --list prints the compacted rules', async () => {
    const { run } = setup();
    expect((await run('auth can-i --list')).stdout).toBe(
      'Resources                                       Non-Resource URLs   Resource Names   Verbs\n*.*                                             []                  []               [*]\n                                                [*]                 []               [*]\nselfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]\nselfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]\n',
    );
  });

  it('api-resources lists discovery sorted by group', async () => {
    const { run } = setup();
    const out = (await run('api-resources')).stdout.split('\n');
    expect(out[0]).toBe('NAME                                SHORTNAMES   APIVERSION                        NAMESPACED   KIND');
    expect(out[1]).toBe('bindings                                         v1                                true         Binding');
    expect(out).toContain('deployments                         deploy       apps/v1                           true         Deployment');
  });

  it('explain renders the OpenAPI v3 schema', async () => {
    const { run } = setup();
    const r = await run('explain pods.spec.restartPolicy');
    expect(r.stdout).toBe(
      'KIND:       Pod\nVERSION:    v1\n\nFIELD: restartPolicy <string>\nENUM:\n    Always\n    Never\n    OnFailure\n\nDESCRIPTION:\n    Restart policy for all containers within the pod. One of Always, OnFailure,\n    Never. In some contexts, only a subset of those values may be permitted.\n    Default to Always. More info:\n    https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy\n    \n    Possible enum values:\n     - `"Always"`\n     - `"Never"`\n     - `"OnFailure"`\n    \n\n',
    );
  });

  it('unknown commands get suggestions', async () => {
    const { run } = setup();
    expect(await run('lbel')).toEqual({ stdout: '', stderr: 'error: unknown command "lbel" for "kubectl"\n\nDid you mean this?\n\tlabel\n', exitCode: 1 });
  });
});

describe('completeKubectl', () => {
  it('completes commands, flags, types, names and namespaces', async () => {
    const { env } = setup();
    expect(await completeKubectl('kubectl ge', env)).toEqual(['get']);
    expect(await completeKubectl('kubectl get po', env)).toEqual(['poddisruptionbudgets.policy', 'pods', 'podtemplates']);
    expect(await completeKubectl('kubectl get pods ', env)).toEqual(['web-7d4b9c8f5-abcde', 'web-7d4b9c8f5-fghij']);
    expect(await completeKubectl('kubectl get pods -n ', env)).toEqual(['default', 'kube-system']);
    expect(await completeKubectl('kubectl describe deploy/', env)).toEqual(['deploy/web']);
    expect(await completeKubectl('kubectl get pods --sel', env)).toEqual(['--selector']);
    expect(await completeKubectl('kubectl create ', env)).toContain('deployment');
  });
});

describe('determinism', () => {
  it('is a function of its arguments and the server: two runs give the same bytes and requests', async () => {
    const a = setup();
    const b = setup();
    for (const line of ['get all -A', 'describe node node-1', 'apply -f x.yaml', 'get deploy web -o yaml']) {
      const files = { 'x.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n' };
      expect(await a.run(line, { files })).toEqual(await b.run(line, { files }));
    }
    expect(a.fake.requests).toEqual(b.fake.requests);
  });
});
