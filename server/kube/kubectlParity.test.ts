// Our kubectl (engine/kubectl, what the in-page terminal runs) and the real
// kubectl v1.32, on the same cluster state, print the same bytes. Ages are the
// only thing normalised: both read the virtual clock at slightly different moments.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKubectl, type KubectlTransport } from '../../engine/kubectl';
import type { ApiRequest, ApiResponse } from '../../engine/apiserver/types';
import { ADMIN_TOKEN } from '../../engine/apiserver/server/scenario';
import { startServer, type RunningServer } from '../server';
import { waitForCluster } from './testReady';
import { writeKubeconfig } from './kubeconfig';

const KUBECTL = process.env.KUBECTL_PATH ?? '/usr/bin/kubectl';
const have = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!have) {
  if (process.env.CI) throw new Error(`real kubectl not found at ${KUBECTL}: CI must have it`);
  console.warn(`SKIPPED: the kubectl parity tests need kubectl at ${KUBECTL} (set KUBECTL_PATH)`);
}

let server: RunningServer;
let kubeconfig = '';
let dir = '';

/** Our kubectl's transport: real HTTP to the same server, as the admin. */
function httpTransport(base: string): KubectlTransport {
  const toUrl = (req: ApiRequest) => {
    const u = new URL(req.path, base);
    for (const [k, v] of Object.entries(req.query)) for (const x of Array.isArray(v) ? v : [v]) u.searchParams.append(k, x);
    return u;
  };
  const headers = (req: ApiRequest) => ({ ...req.headers, authorization: `Bearer ${ADMIN_TOKEN}` });
  return {
    async request(req: ApiRequest): Promise<ApiResponse> {
      const r = await fetch(toUrl(req), { method: req.method, headers: headers(req), body: req.body });
      const h: Record<string, string> = {};
      r.headers.forEach((v, k) => (h[k] = v));
      return { status: r.status, headers: h, body: await r.text() };
    },
    watch(req: ApiRequest, onLine: (line: string) => void) {
      const ac = new AbortController();
      const done = (async () => {
        try {
          const r = await fetch(toUrl(req), { method: req.method, headers: headers(req), signal: ac.signal });
          const reader = r.body!.getReader();
          let buf = '';
          for (;;) {
            const { value, done: end } = await reader.read();
            if (end) break;
            buf += new TextDecoder().decode(value);
            let i;
            while ((i = buf.indexOf('\n')) >= 0) {
              onLine(buf.slice(0, i + 1));
              buf = buf.slice(i + 1);
            }
          }
        } catch {
          /* cancelled */
        }
        return null;
      })();
      return { cancel: () => ac.abort(), done };
    },
  };
}

/** Real kubectl, without blocking the event loop (the server lives in this process). */
function real(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(KUBECTL, args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => resolve(out + (err ? `\n[stderr]\n${err}` : '') + `\n[exit ${code}]`));
  });
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 250) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not after ${timeoutMs / 1000} wall s`);
}

async function ours(args: string[], files: Record<string, string> = {}): Promise<string> {
  const r = await runKubectl(args, { transport: httpTransport(server.url), files, now: () => server.host.engine.sim.epochMs + server.host.engine.sim.now, namespace: 'default' });
  return r.stdout + (r.stderr ? `\n[stderr]\n${r.stderr}` : '') + `\n[exit ${r.exitCode}]`;
}

/**
 * Ages ("5s", "2m3s", "<unknown>") are the one thing allowed to differ. A
 * table's padding after an age follows the age's width ("9s" then "10s"), so
 * it is compared as one space. In a describe's Events table the Age column's
 * width follows the ages, so there the padding between columns is compared as
 * one space; and an event's repeat count ("(x2 over 5s)") is dropped, as it
 * can move between the two reads of a running cluster just as ages do
 * (kube-scheduler retrying an unschedulable pod; the golden tests check that
 * format). A node's LastHeartbeatTime (describe node's Conditions) moves with
 * every kubelet status update, so it is masked too.
 */
function normalise(s: string): string {
  const aged = s
    .replace(/\b\d+(?:d|h|m|s)(?:\d+(?:h|m|s))?\b/g, 'AGE')
    .replace(/AGE {2,}/g, 'AGE ')
    .replace(/^( {2}\S+ +\S+ +)\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}( +\w{3}, )/gm, '$1HEARTBEAT$2');
  const at = aged.indexOf('\nEvents:\n');
  if (at < 0) return aged;
  return aged.slice(0, at) + aged.slice(at).replace(/ \(x\d+ over AGE\)/g, '').replace(/ {2,}/g, ' ');
}

const CASES: string[][] = [
  ['get', 'ns'],
  ['get', 'ns', '-o', 'wide'],
  ['get', 'ns', 'default', '-o', 'yaml'],
  ['get', 'ns', 'default', '-o', 'json'],
  ['get', 'ns', '-o', 'name'],
  ['get', 'svc', '-A'],
  ['get', 'cm', '-n', 'kube-system', '--show-labels'],
  ['get', 'cm', 'nope'],
  ['get', 'foos'],
  ['get', 'clusterroles', 'view', '-o', 'jsonpath={.metadata.name}'],
  ['describe', 'ns', 'default'],
  ['describe', 'svc', 'kubernetes'],
  ['api-versions'],
  ['api-resources'],
  ['auth', 'can-i', 'create', 'pods'],
  ['auth', 'can-i', 'list', 'secrets', '--as', 'alice'],
  ['get', 'secrets', '--as', 'alice'],
  ['get', 'deploy', '-o', 'wide'],
  ['get', 'deploy', 'web', '-o', 'yaml'],
  ['describe', 'deploy', 'web'],
  ['get', 'pods', '-o', 'wide'],
  ['describe', 'pod', 'solo'],
  ['get', 'pod', 'solo', '-o', 'jsonpath={.spec.containers[0].image} {.spec.preemptionPolicy}'],
  ['get', 'svc', 'web', '-o', 'custom-columns=NAME:.metadata.name,PORTS:.spec.ports[*].port'],
  ['describe', 'svc', 'web'],
  ['get', 'all'],
  ['get', 'cm,svc', '-l', 'app=web'],
  ['get', 'sa', '-A', '--sort-by=.metadata.name'],
  ['explain', 'pods.spec.restartPolicy'],
  ['create', 'deployment', 'x', '--image=nginx', '--dry-run=client', '-o', 'yaml'],
  ['create', 'configmap', 'web'],
  ['create', 'namespace', 'default'],
  ['create', 'deployment', 'web', '--image=nginx'],
  ['create', 'service', 'clusterip', 'web', '--tcp=80:80'],
  ['create', 'secret', 'generic', 'web', '--from-literal=a=b', '--dry-run=server', '-o', 'name'],
  ['label', 'svc', 'web', 'app=other'],
  ['scale', 'deploy', 'nope', '--replicas=2'],
  ['autoscale', 'deploy', 'web', '--max=3', '--cpu-percent=60', '--dry-run=client', '-o', 'yaml'],
  ['autoscale', 'deploy', 'web', '--max=3', '--dry-run=server'],
  // wait on what is already so (our side here has no virtual clock to time out with).
  ['wait', '--for=condition=Ready', 'pod/solo', '--timeout=60s'],
  ['wait', '--for=condition=complete', 'job/once'],
  ['wait', '--for=jsonpath={.status.phase}=Running', 'pods', '-l', 'app=web'],
  ['wait', '--for=condition=Ready=false', 'pod/solo', '--timeout=0'],
  ['wait', '--for=condition=Ready', 'pod/nope', 'pod/solo'],
  ['wait', '--for=create', 'pod/solo', 'deploy/web', '-o', 'name'],
  ['wait', '--for=delete', 'pod/nope'],
  ['wait', '--for=delete', 'pod/solo', '--timeout=0'],
  ['wait', '--for=condition=Ready', 'pods', '-l', 'app=none'],
  ['wait', '--for=condition=Ready', 'pods'],
  ['wait', 'pod/solo'],
  ['autoscale', 'deploy', 'nope', '--max=3'],
  ['autoscale', 'pod', 'solo', '--max=3'],
  ['delete', 'pod', 'nope'],
  // Pods running on nodes, the workload kinds, discovery and policy objects.
  ['get', 'nodes'],
  ['get', 'nodes', '-o', 'wide'],
  ['describe', 'node', 'node-1'],
  ['get', 'leases', '-n', 'kube-node-lease'],
  ['get', 'pods', '-A', '-o', 'wide'],
  ['get', 'pods', '-L', 'app'],
  ['get', 'pods', '--field-selector=status.phase=Running'],
  ['get', 'pods', '--sort-by=.spec.nodeName'],
  ['describe', 'pod', 'duo'],
  ['describe', 'pods', '-l', 'app=web'],
  ['logs', 'nope'],
  ['logs', 'deploy/nope'],
  ['logs', 'duo'],
  ['get', 'rs'],
  ['describe', 'rs'],
  ['rollout', 'status', 'deploy/web'],
  ['rollout', 'history', 'deploy/web'],
  ['rollout', 'history', 'deploy/web', '--revision=1'],
  ['get', 'deploy', 'web', '-o', 'jsonpath={.status.readyReplicas}/{.spec.replicas}'],
  ['get', 'sts'],
  ['describe', 'sts', 'db'],
  ['rollout', 'status', 'sts/db'],
  ['get', 'ds'],
  ['describe', 'ds', 'agent'],
  ['rollout', 'history', 'ds/agent'],
  ['get', 'jobs'],
  ['describe', 'job', 'once'],
  ['get', 'cronjobs'],
  ['describe', 'cronjob', 'tick'],
  ['get', 'endpointslices'],
  ['describe', 'endpointslices'],
  ['get', 'endpoints'],
  ['describe', 'endpoints', 'web'],
  ['get', 'pdb'],
  ['describe', 'pdb', 'web'],
  ['get', 'pdb', '-o', 'yaml'],
  ['get', 'events'],
  ['get', 'events', '--sort-by=.lastTimestamp'],
  ['get', 'events', '-A', '--sort-by=.metadata.creationTimestamp', '-o', 'name'],
  ['events'],
  ['describe', 'clusterrole', 'view'],
  ['describe', 'clusterrolebinding', 'cluster-admin'],
  ['describe', 'role', '-n', 'kube-system'],
  ['describe', 'rolebinding', '-n', 'kube-system'],
  ['auth', 'can-i', '--list'],
  ['describe', 'priorityclass'],
  ['describe', 'storageclass'],
  ['describe', 'networkpolicy', 'web'],
  ['describe', 'ns', 'team'],
  ['describe', 'limitrange', '-n', 'team'],
  ['get', 'ingress'],
  ['describe', 'ingress', 'web'],
  ['describe', 'ingressclass', 'nginx'],
  ['get', 'cm', '-l', 'sort', '--sort-by=.data.k'],
  ['get', 'cm', '-l', 'sort', '--sort-by=.data.n', '-o', 'name'],
  ['get', 'cm', 'k2', 'k1', '--sort-by=.metadata.name'],
  ['get', 'cm', 'k2', 'k1', '--sort-by=.metadata.name', '-o', 'name'],
  ['get', 'cm,svc', '-l', 'app=web', '--sort-by=.metadata.name'],
  ['get', 'pods', '-o', 'custom-columns-file=/nope'],
  ['get', 'pods', '-o', 'jsonpath-file=/nope'],
  ['create', 'cronjob', 'c', '--image=busybox', '--schedule=*/5 * * * *', '--dry-run=client', '-o', 'yaml', '--', 'echo', 'hi'],
  ['create', 'cronjob', 'c', '--image=busybox', '--schedule=*/5 * * * *', '--restart=Never', '--dry-run=client', '-o', 'name'],
  ['create', 'pdb', 'p', '--selector=app=web,tier in (a,b),!x', '--max-unavailable=50%', '--dry-run=client', '-o', 'yaml'],
  ['create', 'pdb', 'p', '--selector=app=web', '--min-available=2', '--dry-run=client', '-o', 'yaml'],
  ['create', 'pdb', 'p', '--selector=app=web', '--min-available=1Gi'],
  ['create', 'pdb', 'p', '--selector=a!=b', '--min-available=1'],
  ['create', 'pdb', 'web', '--selector=app=web', '--min-available=1'],
  ['create', 'quota', 'q', '--hard=pods=2,cpu=1000m,requests.memory=1024Mi', '--scopes=BestEffort', '--dry-run=client', '-o', 'yaml'],
  ['create', 'quota', 'q', '--hard=pods', '--dry-run=client'],
  ['create', 'quota', 'q', '--hard=pods=2', '--dry-run=server', '-o', 'name'],
  ['create', 'priorityclass', 'high', '--value=1000', '--description=important', '--preemption-policy=Never', '--dry-run=client', '-o', 'yaml'],
  ['create', 'priorityclass', 'high', '--value=1000', '--global-default', '--dry-run=server'],
  // create ingress: rules (Exact and Prefix paths, hosts sharing paths, TLS grouped by secret), classes,
  // annotations, default backends; its refusals; the generators' typed JSON (Go struct order).
  ['create', 'ingress', 'simple', '--rule=foo.com/bar=svc1:8080,tls=my-cert', '--dry-run=client', '-o', 'yaml'],
  ['create', 'ingress', 'catch-all', '--class=otheringress', '--rule=/path=svc:port', '--dry-run=client', '-o', 'json'],
  ['create', 'ingress', 'annotated', '--class=default', '--rule=foo.com/bar=svc:port', '--annotation', 'ingress.annotation1=foo', '--annotation', 'ingress.annotation2=bla', '--dry-run=client', '-o', 'yaml'],
  ['create', 'ingress', 'multipath', '--class=default', '--rule=foo.com/=svc:port', '--rule=foo.com/admin/=svcadmin:portadmin', '--dry-run=client', '-o', 'json'],
  ['create', 'ingress', 'ingtls', '--class=default', '--rule=foo.com/=svc:https,tls', '--rule=foo.com/path/subpath*=othersvc:8080', '--dry-run=client', '-o', 'yaml'],
  ['create', 'ingress', 'ingsecret', '--rule=foo.com/*=svc:8080,tls=secret1', '--rule=bar.com/*=svc:8080,tls=secret1', '--rule=/x=y:1,tls', '--dry-run=client', '-o', 'yaml'],
  ['create', 'ingress', 'ingdefault', '--class=default', '--default-backend=defaultsvc:http', '--rule=foo.com/*=svc:8080,tls=secret1', '--dry-run=client', '-o', 'json'],
  ['create', 'ing', 'api', '--rule=/api*=api:http', '--dry-run=server', '-o', 'name'],
  ['create', 'ingress', 'bad'],
  ['create', 'ingress', 'bad', '--rule=foo.com=svc:80'],
  ['create', 'ingress', 'bad', '--rule=/a=b:80', '--annotation', 'novalue'],
  ['create', 'ingress', 'bad', '--default-backend=svc'],
  ['create', 'ingress', 'bad', '--rule=/a=b:80', '--class=Bad_Class'],
  ['create', 'ingress'],
  ['create', 'ingress', 'a', 'b', '--rule=/=s:80'],
  ['create', 'configmap'],
  ['create', 'deployment', 'd', '--image=nginx', '--replicas=2', '--port=80', '--dry-run=client', '-o', 'json'],
  ['create', 'cronjob', 'c', '--image=busybox', '--schedule=*/5 * * * *', '--dry-run=client', '-o', 'json'],
  // (Not here: a missing required flag. The kubectl on these machines is the Google Cloud SDK's
  // "dispatcher" build, which logs that error through klog; upstream prints "error: ...", as the
  // golden transcripts of kubectl v1.32.5 show.)
  // set env and set resources: what they print, dry runs and refusals (nothing here changes the objects).
  ['set', 'env', 'pod/solo', '--list'],
  ['set', 'env', 'pod/solo', '--list', '--resolve'],
  ['set', 'env', 'deploy/web', 'A=1', 'B-', '--dry-run=client', '-o', 'yaml'],
  ['set', 'env', 'deploy/web', 'X=1', '--dry-run=server'],
  ['set', 'env', 'deploy/web', '--from=configmap/web', '--prefix=CFG_', '--list'],
  ['set', 'env', 'deploy/web', '--from=configmap/web', '--resolve', '--list'],
  ['set', 'env', 'deploy/web', '-c', 'nope*', 'X=1'],
  ['set', 'env', 'deploy/web', '1BAD=x'],
  ['set', 'env', 'deploy/web', 'A=1', 'A-'],
  ['set', 'env', 'svc/web', 'X=1'],
  ['set', 'env', 'deploy', 'X=1'],
  ['set', 'env', 'deploy/web', '--keys=k', 'X=1'],
  ['set', 'resources', 'deploy/web', '--limits=memory=0.5Gi,cpu=1', '--requests=cpu=100m', '--dry-run=client', '-o', 'yaml'],
  ['set', 'resources', 'deploy/web', '--limits=cpu=1', '--requests=cpu=2', '--dry-run=server'],
  ['set', 'resources', 'deploy/web', '-c', 'nope', '--limits=cpu=1'],
  ['set', 'resources', 'deploy/web', '--limits=foo'],
  ['set', 'resources', 'deploy/web'],
  ['set', 'resources', 'cronjob/tick', '--requests=cpu=10m', '--dry-run=server', '-o', 'name'],
  // create token: its refusals (a token itself differs every time).
  ['create', 'token', 'nope'],
  ['create', 'token', 'default', '--duration=-1s'],
  ['create', 'token', 'default', '--duration=1500ms'],
  ['create', 'token', 'default', '--bound-object-kind=Job', '--bound-object-name=x'],
  ['create', 'token', 'default', '--bound-object-name=x'],
  ['create', 'token'],
];

describe.skipIf(!have)('in-page kubectl prints what real kubectl prints', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kg-parity-'));
    server = await startServer({ port: 0, seed: 11, etcdMembers: 1, speed: 1, tlsPort: 0, nodes: 2 });
    kubeconfig = writeKubeconfig(join(dir, 'kubeconfig'), server.tls!.url, undefined, server.tls!.caPem);
    await waitForCluster(server);
    // Some state, made by the real kubectl (JSON apply and protobuf create alike).
    writeFileSync(
      join(dir, 'app.yaml'),
      [
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        ports:\n        - containerPort: 80\n',
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n    targetPort: 80\n',
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\n  labels:\n    app: solo\nspec:\n  containers:\n  - name: c\n    image: busybox:1.36\n    command: ["sleep", "3600"]\n    env:\n    - name: POD\n      valueFrom:\n        fieldRef:\n          fieldPath: metadata.name\n    - name: NODE\n      valueFrom:\n        fieldRef:\n          fieldPath: spec.nodeName\n    - name: APP\n      valueFrom:\n        fieldRef:\n          fieldPath: metadata.labels[\'app\']\n',
      ].join('---\n'),
    );
    // The state must be there before the comparisons start (a failed setup would make both sides agree on NotFound).
    const setup = async (args: string[]) => {
      const out = await real(args);
      if (!out.endsWith('[exit 0]')) throw new Error(`kubectl ${args.join(' ')} failed:\n${out}`);
    };
    await setup(['apply', '-f', join(dir, 'app.yaml')]);
    await setup(['create', 'configmap', 'web', '--from-literal=k=v']);
    await setup(['label', 'configmap', 'web', 'app=web']);
    writeFileSync(
      join(dir, 'workloads.yaml'),
      [
        'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  replicas: 1\n  selector:\n    matchLabels:\n      app: db\n  template:\n    metadata:\n      labels:\n        app: db\n    spec:\n      containers:\n      - name: db\n        image: redis:7\n',
        'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels:\n      app: agent\n  template:\n    metadata:\n      labels:\n        app: agent\n    spec:\n      containers:\n      - name: agent\n        image: busybox:1.36\n        command: ["sleep", "3600"]\n',
        'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: once\n        image: busybox:1.36\n        command: ["sh", "-c", "exit 0"]\n',
        // Its schedule must not come round while the suite runs.
        'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: tick\nspec:\n  schedule: "0 0 1 1 *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n          - name: tick\n            image: busybox:1.36\n',
        'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: web\n',
        'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: web\nspec:\n  podSelector:\n    matchLabels:\n      app: web\n  policyTypes: [Ingress, Egress]\n  ingress:\n  - from:\n    - podSelector:\n        matchLabels:\n          app: solo\n    - ipBlock:\n        cidr: 10.0.0.0/8\n        except: [10.1.0.0/16]\n    ports:\n    - port: 80\n  - {}\n',
        'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n  - host: web.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: web\n            port:\n              number: 80\n      - path: /none\n        pathType: Exact\n        backend:\n          service:\n            name: nope\n            port:\n              name: http\n',
        'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\nspec:\n  controller: k8s.io/ingress-nginx\n  parameters:\n    apiGroup: k8s.example.com\n    kind: IngressParameters\n    name: external-lb\n',
        // Sort keys where byte order and natural order disagree ("b10" < "b2"), and quantities ("9" < "10").
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k1\n  labels:\n    sort: key\ndata:\n  k: b2\n  n: "10"\n',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k2\n  labels:\n    sort: key\ndata:\n  k: b10\n  n: "9"\n',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k3\n  labels:\n    sort: key\ndata:\n  k: a9\n  n: "100m"\n',
        // Limits in a namespace of their own, so the pods above keep no defaults from them.
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n',
        'apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: limits\n  namespace: team\nspec:\n  limits:\n  - type: Container\n    default:\n      cpu: 500m\n    defaultRequest:\n      cpu: 100m\n    max:\n      cpu: "2"\n',
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: duo\nspec:\n  containers:\n  - name: a\n    image: busybox:1.36\n    command: ["sleep", "3600"]\n  - name: b\n    image: busybox:1.36\n    command: ["sleep", "3600"]\n',
      ].join('---\n'),
    );
    await setup(['apply', '-f', join(dir, 'workloads.yaml')]);
    // Every pod Running (the Job's Completed) and the Job done, so the events stop coming.
    await until('the pods up and the Job complete', async () => {
      const phases = (await real(['get', 'pods', '-o', 'jsonpath={range .items[*]}{.status.phase}{"\\n"}{end}'])).split('\n[exit')[0]!.trim().split('\n');
      const job = await real(['get', 'job', 'once', '-o', 'jsonpath={.status.succeeded}']);
      return phases.length === 8 && phases.every((p) => p === 'Running' || p === 'Succeeded') && job.startsWith('1\n');
    });
    // The kubelet's last events for them (Started) and metrics come a moment after the phase. Wait until no event
    // has come for a while (on a loaded machine 2 s were not always enough): an event between our kubectl's and
    // the real one's list changes how sort.Sort orders the ties of `kubectl events`.
    await new Promise((r) => setTimeout(r, 2000));
    let last = '';
    await until('the events settled', async () => {
      const now = await real(['get', 'events', '-o', 'jsonpath={.items[*].metadata.resourceVersion}']);
      const same = now === last;
      last = now;
      if (!same) await new Promise((r) => setTimeout(r, 1500));
      return same;
    });
  }, 90_000);
  afterAll(async () => {
    await server?.close();
  });

  for (const args of CASES) {
    it(`kubectl ${args.join(' ')}`, async () => {
      const mine = await ours(args);
      const theirs = await real(args);
      expect(normalise(mine)).toBe(normalise(theirs));
    });
  }
});
