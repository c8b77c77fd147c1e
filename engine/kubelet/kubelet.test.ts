import { describe, it, expect } from 'vitest';
import { call, controlPlane, watch } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { cloneState, toPlain } from '../sim/serial';
import type { Engine } from '../facade/engine';
import './kubelet';
import type { Kubelet, KubeletConfig } from './kubelet';

function config(name: string, over: Partial<KubeletConfig> = {}): KubeletConfig {
  return {
    server: 'kube-apiserver-0',
    nodeName: name,
    capacity: {
      cpu: '4',
      memory: '8Gi',
      pods: '110',
      'ephemeral-storage': '100Gi',
    },
    labels: {},
    podCIDR: '10.244.1.0/24',
    internalIP: '192.168.0.11',
    imageBandwidthBytesPerSec: 50_000_000,
    images: ['registry.k8s.io/pause:3.10'],
    ...over,
  };
}

function withNode(seed = 1, over: Partial<KubeletConfig> = {}): Engine {
  const e = controlPlane(seed, { etcdMembers: 1 });
  e.sim.spawn('node-1', 'kubelet', config('node-1', over));
  runUntil(e, () => call(e, 'GET', '/api/v1/nodes/node-1').status === 200, 'node registered', 30_000);
  return e;
}

const pod = (name: string, containers: unknown[], spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers, ...spec },
});
const getPod = (e: Engine, name: string) => call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`);
const kubelet = (e: Engine) => e.sim.actor<Kubelet>('node-1')!;

describe('kubelet', () => {
  it('registers its Node Ready with upstream conditions and renews its Lease every 10 s', () => {
    const e = withNode();
    const node = call(e, 'GET', '/api/v1/nodes/node-1').body;
    expect(node.metadata.labels['kubernetes.io/hostname']).toBe('node-1');
    expect(node.metadata.labels['kubernetes.io/os']).toBe('linux');
    expect(node.spec.podCIDR).toBe('10.244.1.0/24');
    const ready = node.status.conditions.find((c: any) => c.type === 'Ready');
    expect(ready).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
    });
    expect(node.status.conditions.map((c: any) => c.type)).toEqual(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
    expect(node.status.allocatable.cpu).toBe('4');
    expect(node.status.nodeInfo.kubeletVersion).toBe('v1.32.0');
    expect(node.status.addresses).toEqual([
      { type: 'InternalIP', address: '192.168.0.11' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    e.advance(45_000);
    const lease = call(e, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1').body;
    expect(lease.spec.leaseDurationSeconds).toBe(40);
    expect(lease.spec.holderIdentity).toBe('node-1');
    const r = kubelet(e).leaseRenewals;
    expect(r.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < r.length; i++) {
      expect(r[i]! - r[i - 1]!).toBeGreaterThanOrEqual(10_000);
      expect(r[i]! - r[i - 1]!).toBeLessThanOrEqual(10_450);
    }
  });

  it('runs a scheduled pod: Running, Ready, podIP in the CIDR; deleting it removes it', () => {
    const e = withNode(2);
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods', pod('web', [{ name: 'nginx', image: 'nginx:1.27' }])).status).toBe(201);
    runUntil(e, () => getPod(e, 'web').body.status?.phase === 'Running' && getPod(e, 'web').body.status.conditions.find((c: any) => c.type === 'Ready')?.status === 'True', 'pod Ready', 30_000);
    const p = getPod(e, 'web').body;
    expect(p.spec.nodeName).toBe('node-1');
    expect(p.status.podIP).toMatch(/^10\.244\.1\.\d+$/);
    expect(p.status.hostIP).toBe('192.168.0.11');
    const cs = p.status.containerStatuses[0];
    expect(cs).toMatchObject({
      name: 'nginx',
      ready: true,
      started: true,
      restartCount: 0,
      image: 'docker.io/library/nginx:1.27',
    });
    expect(cs.state.running.startedAt).toBeTruthy();
    expect(cs.containerID).toMatch(/^containerd:\/\//);
    expect(p.status.conditions.map((c: any) => c.type).sort()).toEqual(['ContainersReady', 'Initialized', 'PodReadyToStartContainers', 'PodScheduled', 'Ready']);
    // nginx (72 MB at 50 MB/s) is now in the node's images.
    e.advance(11_000);
    const node = call(e, 'GET', '/api/v1/nodes/node-1').body;
    expect(node.status.images.some((i: any) => i.names.includes('docker.io/library/nginx:1.27'))).toBe(true);
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/pods/web').status).toBe(200);
    runUntil(e, () => getPod(e, 'web').status === 404, 'pod gone', 60_000);
    expect(kubelet(e).workers.size).toBe(0);
    const events = call(e, 'GET', '/api/v1/namespaces/default/events').body.items.filter((ev: any) => ev.involvedObject.name === 'web');
    const kubeletEvents = events.filter((ev: any) => ev.source?.component === 'kubelet').map((ev: any) => `${ev.reason}: ${ev.message}`);
    expect(kubeletEvents).toEqual([
      'Pulling: Pulling image "nginx:1.27"',
      'Pulled: Successfully pulled image "nginx:1.27" in 1.442s (1.442s including waiting). Image size: 72099501 bytes.',
      'Created: Created container: nginx',
      'Started: Started container nginx',
      'Killing: Stopping container nginx',
    ]);
  });

  it('shows ErrImagePull then ImagePullBackOff for an unknown image', () => {
    const e = withNode(3);
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('bad', [{ name: 'app', image: 'nosuch/image:1.0' }]));
    const seen = new Set<string>();
    runUntil(
      e,
      () => {
        const r = getPod(e, 'bad').body.status?.containerStatuses?.[0]?.state?.waiting?.reason;
        if (r) seen.add(r);
        return seen.has('ErrImagePull') && seen.has('ImagePullBackOff');
      },
      'pull errors',
      60_000,
    );
    expect(getPod(e, 'bad').body.status.phase).toBe('Pending');
  });

  it('an image that cannot be pulled: repeats are counted on one Event, retried on the back-off, and a flood is cut at 25 writes that still count it all', () => {
    const e = withNode(5);
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('bad', [{ name: 'app', image: 'nosuch/image:1.0' }]));
    const events = () => (call(e, 'GET', '/api/v1/namespaces/default/events').body.items as { reason: string; message: string; count: number; firstTimestamp: string; lastTimestamp: string; involvedObject: { name: string }; source: { component: string } }[]).filter((x) => x.involvedObject.name === 'bad' && x.source.component === 'kubelet');
    e.advance(120_000);
    const two = events();
    // One Event per distinct message, however often it was said.
    const keys = two.map((x) => `${x.reason}: ${x.message}`);
    expect(new Set(keys).size).toBe(keys.length);
    const backoff = two.find((x) => x.reason === 'BackOff')!;
    expect(backoff.message).toBe('Back-off pulling image "nosuch/image:1.0"');
    expect(backoff.count).toBeGreaterThanOrEqual(3);
    // The pod worker's back-off period (10–15 s) paces the retries: not a sync a second.
    const span = (Date.parse(backoff.lastTimestamp) - Date.parse(backoff.firstTimestamp)) / 1000;
    expect(backoff.count).toBeLessThanOrEqual(span / 10 + 1);
    expect(two.find((x) => x.reason === 'Pulling')!.count).toBeGreaterThanOrEqual(3);
    // EventSourceObjectSpamFilter: 25 writes about one object, then one every 5 minutes...
    e.advance(600_000);
    const writes = e.requests(0, 100_000).filter((r) => r.user === 'system:node:node-1' && r.resource === 'events' && r.name.startsWith('bad.')).length;
    expect(writes).toBeGreaterThanOrEqual(25);
    expect(writes).toBeLessThanOrEqual(25 + 3);
    // ...but the correlator counts before it filters: the counts go on with every occurrence.
    const total = events().reduce((n, x) => n + x.count, 0);
    expect(total).toBeGreaterThan(writes + 20);
  });

  it('rejects a pod that does not fit with OutOfcpu', () => {
    const e = withNode(4);
    // Bound directly (nodeName set), bypassing the scheduler, as upstream's admission test does.
    call(
      e,
      'POST',
      '/api/v1/namespaces/default/pods',
      pod(
        'big',
        [
          {
            name: 'app',
            image: 'registry.k8s.io/pause:3.10',
            resources: { requests: { cpu: '8' } },
          },
        ],
        { nodeName: 'node-1' },
      ),
    );
    runUntil(e, () => getPod(e, 'big').body.status?.phase === 'Failed', 'rejected', 20_000);
    const s = getPod(e, 'big').body.status;
    expect(s.reason).toBe('OutOfcpu');
    expect(s.message).toBe("Pod was rejected: Node didn't have enough resource: cpu, requested: 8000, used: 0, capacity: 4000");
    // rejectPod's status: the status manager sets a start time; the kubelet-owned conditions (PodScheduled) are gone.
    expect(s.startTime).toBeTruthy();
    expect(s.conditions).toBeUndefined();
  });

  it('a rejected pod loses the PodScheduled condition its binding set (mergePodStatus keeps only conditions the kubelet does not own)', () => {
    const e = withNode(4);
    // Too big for the scheduler (it stays unscheduled), bound by hand: the binding sets nodeName and PodScheduled at once.
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('big2', [{ name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '8' } } }]));
    const other = { type: 'example.com/Checked', status: 'True', lastTransitionTime: '2025-01-01T00:00:01Z' };
    expect(call(e, 'PATCH', '/api/v1/namespaces/default/pods/big2/status', { status: { conditions: [other] } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } }).status).toBe(200);
    expect(call(e, 'POST', '/api/v1/namespaces/default/pods/big2/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'big2' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } }).status).toBe(201);
    runUntil(e, () => getPod(e, 'big2').body.status?.phase === 'Failed', 'rejected', 20_000);
    const s = getPod(e, 'big2').body.status;
    expect(s.reason).toBe('OutOfcpu');
    expect((s.conditions ?? []).map((c: { type: string }) => c.type)).toEqual(['example.com/Checked']);
  });

  it('restarts a crashing container with CrashLoopBackOff', () => {
    const e = withNode(5);
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('crash', [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }]));
    runUntil(e, () => getPod(e, 'crash').body.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff', 'crash loop', 60_000);
    const cs = getPod(e, 'crash').body.status.containerStatuses[0];
    expect(cs.lastState.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
    });
    expect(cs.restartCount).toBeGreaterThanOrEqual(1);
  });

  it('a cloned simulation continues identically (kubelet state included)', () => {
    const e = withNode(6);
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('web', [{ name: 'nginx', image: 'nginx:1.27' }]));
    e.advance(1200);
    const k = kubelet(e);
    expect(toPlain(cloneState(k))).toEqual(toPlain(k));
    const twin = e.clone();
    e.advance(20_000);
    twin.advance(20_000);
    expect(toPlain(kubelet(twin))).toEqual(toPlain(kubelet(e)));
    expect(getPod(twin, 'web').body.status.phase).toBe('Running');
  });

  it('writes a terminal status before deleting a deleted pod with gracePeriodSeconds=0', () => {
    const e = withNode(7);
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('web', [{ name: 'nginx', image: 'nginx:1.27' }]));
    runUntil(e, () => getPod(e, 'web').body.status?.phase === 'Running', 'running', 30_000);
    const w = watch(e, '/api/v1/namespaces/default/pods', {
      fieldSelector: 'metadata.name=web',
      resourceVersion: getPod(e, 'web').body.metadata.resourceVersion,
    });
    call(e, 'DELETE', '/api/v1/namespaces/default/pods/web');
    runUntil(e, () => getPod(e, 'web').status === 404, 'pod gone', 30_000);
    const evs = w.read();
    const last = evs[evs.length - 1]!;
    expect(last.type).toBe('DELETED');
    const before = evs[evs.length - 2]!.object;
    expect(before.metadata.deletionTimestamp).toBeTruthy();
    expect(before.status.phase).toBe('Succeeded');
    expect(before.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    expect(before.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  });

  it('waits out the grace period for an image that ignores SIGTERM, then SIGKILLs it (137)', () => {
    const e = withNode(8);
    call(
      e,
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('stubborn', [{ name: 'app', image: 'kubeglass/ignore-sigterm:1' }], {
        terminationGracePeriodSeconds: 5,
      }),
    );
    runUntil(e, () => getPod(e, 'stubborn').body.status?.phase === 'Running', 'running', 30_000);
    call(e, 'DELETE', '/api/v1/namespaces/default/pods/stubborn');
    e.advance(4000);
    expect(getPod(e, 'stubborn').status).toBe(200);
    const w = watch(e, '/api/v1/namespaces/default/pods', {
      fieldSelector: 'metadata.name=stubborn',
      resourceVersion: getPod(e, 'stubborn').body.metadata.resourceVersion,
    });
    runUntil(e, () => getPod(e, 'stubborn').status === 404, 'pod gone', 10_000);
    const evs = w.read();
    const last = evs[evs.length - 2]!.object;
    expect(last.status.phase).toBe('Failed');
    expect(last.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 137,
      reason: 'Error',
    });
  });

  it('a pod whose container sleeps then exits 0 under restartPolicy Never Succeeds', () => {
    const e = withNode(9);
    call(
      e,
      'POST',
      '/api/v1/namespaces/default/pods',
      pod(
        'job',
        [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'sleep 5'],
          },
        ],
        { restartPolicy: 'Never' },
      ),
    );
    runUntil(e, () => getPod(e, 'job').body.status?.phase === 'Running', 'running', 30_000);
    const startedAt = Date.parse(getPod(e, 'job').body.status.containerStatuses[0].state.running.startedAt);
    runUntil(e, () => getPod(e, 'job').body.status?.phase === 'Succeeded', 'succeeded', 30_000);
    const t = getPod(e, 'job').body.status.containerStatuses[0].state.terminated;
    expect(t).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(Date.parse(t.finishedAt) - startedAt).toBe(5000);
  });

  it('patches node status only when it changes, else every 5 minutes', () => {
    const e = withNode(11);
    e.advance(15_000);
    const hb = () => call(e, 'GET', '/api/v1/nodes/node-1').body.status.conditions.find((c: any) => c.type === 'Ready').lastHeartbeatTime;
    const first = hb();
    e.advance(60_000);
    expect(hb()).toBe(first);
    e.advance(5 * 60_000);
    expect(hb()).not.toBe(first);
  });

  it('its status PATCH is the two-way patch from the Node it read: heartbeats alone when only the report is due, and a condition the node controller changed comes back', () => {
    const e = withNode(14);
    e.advance(15_000);
    // What the kubelet sends, read off the wire as kube-apiserver receives it.
    const apiserver = e.sim.actor('kube-apiserver-0')!;
    const bodies: any[] = [];
    const receive = apiserver.receive.bind(apiserver);
    apiserver.receive = (ctx, from, msg: any) => {
      if (from === 'node-1' && msg?.type === 'HttpRequest' && msg.request.method === 'PATCH' && msg.request.path === '/api/v1/nodes/node-1/status') bodies.push(JSON.parse(msg.request.body));
      receive(ctx, from, msg);
    };
    e.advance(5 * 60_000 + 10_000);
    expect(bodies.length).toBe(1);
    const beat = bodies[0].status;
    expect(Object.keys(beat).sort()).toEqual(['$setElementOrder/conditions', 'conditions']);
    expect(beat.conditions.every((c: any) => Object.keys(c).sort().join() === 'lastHeartbeatTime,type')).toBe(true);
    // Someone else marks the node not ready: the kubelet's next update sees the change in its informer and undoes it.
    const node = call(e, 'GET', '/api/v1/nodes/node-1').body;
    const conditions = node.status.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' } : c));
    expect(call(e, 'PUT', '/api/v1/nodes/node-1/status', { ...node, status: { ...node.status, conditions } }).status).toBe(200);
    const unknownAt = e.sim.now;
    e.advance(11_000);
    const ready = bodies.at(-1).status.conditions.find((c: any) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(Date.parse(ready.lastTransitionTime)).toBeGreaterThanOrEqual(Date.parse('2025-01-01T00:00:00Z') + unknownAt);
    const after = call(e, 'GET', '/api/v1/nodes/node-1').body.status.conditions.find((c: any) => c.type === 'Ready');
    expect(after.status).toBe('True');
  });

  it('readiness probe: a slow-starting server is Running but not Ready until it listens', () => {
    const e = withNode(12);
    const probe = { httpGet: { path: '/', port: 8080 }, periodSeconds: 5 };
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('slow', [{ name: 'app', image: 'kubeglass/slow-start:1', readinessProbe: probe }]));
    runUntil(e, () => getPod(e, 'slow').body.status?.phase === 'Running', 'running', 30_000);
    const ready = () => getPod(e, 'slow').body.status.conditions.find((c: any) => c.type === 'Ready').status;
    e.advance(10_000);
    expect(ready()).toBe('False');
    expect(getPod(e, 'slow').body.status.containerStatuses[0]).toMatchObject({ ready: false, started: true });
    e.advance(16_000);
    expect(ready()).toBe('True');
    const unhealthy = call(e, 'GET', '/api/v1/namespaces/default/events').body.items.filter((ev: any) => ev.reason === 'Unhealthy');
    expect(unhealthy.length).toBeGreaterThan(0);
    expect(unhealthy[0].message).toMatch(/^Readiness probe failed: Get "http:\/\/10\.244\.1\.\d+:8080\/": dial tcp .* connection refused$/);
  });

  it('liveness probe on a port nothing serves restarts the container after 3 failures', () => {
    const e = withNode(13);
    const probe = { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10, failureThreshold: 3 };
    call(e, 'POST', '/api/v1/namespaces/default/pods', pod('live', [{ name: 'app', image: 'nginx:1.27', livenessProbe: probe }]));
    runUntil(e, () => getPod(e, 'live').body.status?.phase === 'Running', 'running', 30_000);
    runUntil(e, () => getPod(e, 'live').body.status.containerStatuses[0].restartCount === 1, 'restart', 40_000);
    const killing = call(e, 'GET', '/api/v1/namespaces/default/events').body.items.filter((ev: any) => ev.reason === 'Killing');
    expect(killing.map((k: any) => k.message)).toEqual(['Container app failed liveness probe, will be restarted']);
  });
});
