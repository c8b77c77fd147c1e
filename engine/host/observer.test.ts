// The inspector and the events stream against the engine's own kubectl as the
// oracle: the YAML is what `kubectl get -o yaml` prints, an object's events are
// `kubectl describe`'s, owner links go up and down the Deployment → ReplicaSet
// → Pod chain, and the stream filters by object, type and reason.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { ApiBridge } from './apiBridge';
import { KubectlHost } from './kubectlHost';
import type { Engine } from '../facade/engine';
import { Observer } from '../facade/observer';
import type { InspectView } from '../facade/inspect/objects';

async function kubectl(e: Engine, bridge: ApiBridge, host: KubectlHost, args: string[]): Promise<string> {
  let done = false;
  let out = { stdout: '', stderr: '', exitCode: -1 };
  void host.run(['kubectl', ...args]).then((o) => ((done = true), (out = o)));
  for (let i = 0; i < 5000 && !done; i++) {
    e.advance(1);
    bridge.poll();
    await new Promise((r) => setImmediate(r));
  }
  if (out.exitCode !== 0) throw new Error(`kubectl ${args.join(' ')}: ${out.stderr}`);
  return out.stdout;
}

const inspect = (o: Observer, ref: Parameters<Observer['inspect']>[0]) => {
  const v = o.inspect(ref);
  if ('error' in v) throw new Error(v.error);
  return v as InspectView;
};

describe('the inspector and the events stream', () => {
  let e: Engine;
  let obs: Observer;
  let bridge: ApiBridge;
  let host: KubectlHost;
  let pod = '';

  beforeAll(() => {
    e = controlPlane(9, { nodes: 2 });
    runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 2, 'Ready nodes', 60_000, 500);
    obs = new Observer(e);
    bridge = new ApiBridge(e);
    host = new KubectlHost(bridge, () => e.sim.now);
    const labels = { app: 'web' };
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } };
    expect(call(e, 'POST', '/apis/apps/v1/namespaces/default/deployments', dep).status).toBe(201);
    runUntil(e, () => e.clusterView()!.pods.filter((p) => p.ready).length === 2, 'two ready pods', 120_000, 500);
    e.advance(5_000);
    pod = e.clusterView()!.pods[0]!.name;
  }, 60_000);

  it('prints an object as kubectl get -o yaml does', async () => {
    const v = inspect(obs, { group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' });
    expect(v).toMatchObject({ found: true, kind: 'Deployment', apiVersion: 'apps/v1' });
    expect(v.yaml).toBe(await kubectl(e, bridge, host, ['get', 'deployment', 'web', '-o', 'yaml']));
    expect(v.yaml).toMatch(/^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n/);
    expect(v.yaml).not.toContain('managedFields');
    const p = inspect(obs, { group: '', resource: 'pods', namespace: 'default', name: pod });
    expect(p.yaml).toBe(await kubectl(e, bridge, host, ['get', 'pod', pod, '-o', 'yaml']));
  });

  it('links owners up and dependents down', () => {
    const dep = inspect(obs, { group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' });
    expect(dep.owners).toEqual([]);
    expect(dep.owned).toHaveLength(1);
    const rs = dep.owned[0]!;
    expect(rs).toMatchObject({ kind: 'ReplicaSet', controller: true, exists: true, ref: { group: 'apps', resource: 'replicasets', namespace: 'default' } });
    const rsView = inspect(obs, rs.ref);
    expect(rsView.owners).toEqual([{ kind: 'Deployment', exists: true, controller: true, ref: { group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' } }]);
    expect(rsView.owned.map((o) => o.kind)).toEqual(['Pod', 'Pod']);
    expect(rsView.ownedTotal).toBe(2);
    const p = inspect(obs, rsView.owned[0]!.ref);
    expect(p.owners[0]!.ref).toEqual(rs.ref);
  });

  it("lists an object's events as kubectl describe does", async () => {
    const v = inspect(obs, { group: '', resource: 'pods', namespace: 'default', name: pod });
    const described = await kubectl(e, bridge, host, ['describe', 'pod', pod]);
    const lines = described.slice(described.indexOf('Events:')).split('\n').slice(3).filter(Boolean);
    expect(v.events.map((r) => `${r.type} ${r.reason} ${r.from} ${r.message}`)).toEqual(lines.map((l) => l.trim().split(/\s{2,}/)).map(([t, r, , f, ...m]) => `${t} ${r} ${f} ${m.join('  ')}`));
    // Sorted as kubectl sorts: the scheduler's MicroTime eventTime against the kubelet's whole-second lastTimestamp.
    const scheduled = v.events.find((r) => r.reason === 'Scheduled');
    expect(scheduled).toMatchObject({ type: 'Normal', from: 'default-scheduler' });
    expect(scheduled!.message).toMatch(new RegExp(`^Successfully assigned default/${pod} to node-\\d$`));
    expect(v.events.every((r) => /^\d+s$/.test(r.age))).toBe(true);
    expect(v.events.map((r) => r.reason)).toEqual(expect.arrayContaining(['Pulling', 'Pulled', 'Created', 'Started']));
  });

  it('a missing object is not found; an unknown type is an error', () => {
    expect(inspect(obs, { group: '', resource: 'pods', namespace: 'default', name: 'nope' })).toMatchObject({ found: false, yaml: '', events: [] });
    expect(obs.inspect({ group: 'example.com', resource: 'widgets', name: 'w' })).toEqual({ error: 'the server doesn\'t have a resource type "widgets.example.com"' });
  });

  it('streams events newest first, filtered by object, type and reason', () => {
    const all = obs.eventsView({})!;
    expect(all.total).toBeGreaterThan(5);
    expect(all.rows.length).toBe(Math.min(200, all.total));
    for (let i = 1; i < all.rows.length; i++) expect(all.rows[i - 1]!.at).toBeGreaterThanOrEqual(all.rows[i]!.at);
    expect(all.reasons.map(([r]) => r)).toEqual(expect.arrayContaining(['Scheduled', 'ScalingReplicaSet', 'SuccessfulCreate']));
    const scheduled = obs.eventsView({ reason: 'Scheduled' })!;
    expect(scheduled.matched).toBe(2);
    // SOURCE as `kubectl get events -o wide` prints it: component, then the reporting instance.
    expect(scheduled.rows[0]).toMatchObject({ type: 'Normal', reason: 'Scheduled', source: 'default-scheduler, default-scheduler-kube-scheduler-0' });
    expect(scheduled.rows[0]!.object).toMatch(/^pod\/web-/);
    const forDep = obs.eventsView({ kind: 'deployment', namespace: 'default', name: 'web' })!;
    expect(forDep.rows.map((r) => r.reason)).toEqual(['ScalingReplicaSet']);
    expect(forDep.rows[0]!.message).toMatch(/^Scaled up replica set web-[a-z0-9]+ from 0 to 2$/);
    expect(obs.eventsView({ name: 'web-' })!.rows.every((r) => r.involved.name.startsWith('web-'))).toBe(true);
    expect(obs.eventsView({ type: 'Warning', kind: 'Deployment' })!.matched).toBe(0);
    expect(obs.eventsView({ limit: 3 })!.rows).toHaveLength(3);
  });

  it('keeps up as events are added and removed', () => {
    const before = obs.eventsView({})!.total;
    const ev = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'x.1', namespace: 'default' }, involvedObject: { kind: 'Pod', namespace: 'default', name: pod }, reason: 'Testing', message: 'hello', type: 'Warning', source: { component: 'me' }, count: 1 };
    expect(call(e, 'POST', '/api/v1/namespaces/default/events', ev).status).toBe(201);
    e.advance(100);
    const w = obs.eventsView({ type: 'Warning', reason: 'Testing' })!;
    expect(w.rows).toMatchObject([{ reason: 'Testing', message: 'hello', source: 'me', object: `pod/${pod}` }]);
    expect(w.total).toBe(before + 1);
    expect(call(e, 'DELETE', '/api/v1/namespaces/default/events/x.1').status).toBe(200);
    e.advance(100);
    expect(obs.eventsView({ reason: 'Testing' })!.matched).toBe(0);
  });
});
