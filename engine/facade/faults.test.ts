// The faults of issue 5 (D) through Engine.exec, as the control API and the UI
// send them: node loss, a node partitioned from the API servers, a kubelet
// restart, control-plane crashes, an API server cut off from etcd; the book
// of active faults, healing one of them or all, replay and snapshots.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { runUntil } from '../scheduler/testing/cluster';
import { Engine } from './engine';
import type { Fault } from './types';

const fault = (e: Engine, f: Fault) => e.exec({ type: 'fault', fault: f });
const ok = (e: Engine, f: Fault) => {
  const r = fault(e, f);
  if (!r.ok) throw new Error(r.error);
};
const readyOf = (e: Engine, node: string) => e.clusterView()?.nodes.find((n) => n.name === node)?.ready;
const blocked = (e: Engine) => e.sim.network.blockedLinks().map(([a, b]) => `${a}>${b}`);

function withNodes(seed: number, nodes = 2): Engine {
  const e = controlPlane(seed, { nodes });
  runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === nodes, 'Ready nodes', 60_000, 500);
  return e;
}

describe('fault validation', () => {
  const e = controlPlane(3, { nodes: 1 });
  it.each<[Fault, string]>([
    [{ action: 'node-loss', target: 'node-9' }, 'no component named "node-9"'],
    [{ action: 'node-loss', target: 'etcd-0' }, '"etcd-0" is not a node (node-loss takes a node such as node-1)'],
    [{ action: 'partition-node', target: 'kube-apiserver-0' }, '"kube-apiserver-0" is not a node (partition-node takes a node such as node-1)'],
    [{ action: 'kubelet-restart', target: 'kube-scheduler-0' }, '"kube-scheduler-0" is not a node (kubelet-restart takes a node such as node-1)'],
    [{ action: 'cut', from: 'kube-apiserver-0', to: 'nowhere' }, 'no component or kind named "nowhere"'],
    [{ action: 'cut', from: 'etcd-0', to: 'etcd' }, '"etcd-0" and "etcd" overlap: a cut needs two separate ends'],
    [{ action: 'heal', id: 42 }, 'no active fault #42'],
    [{ action: 'link', from: 'etcd-0', loss: 0.1 }, 'give both "from" and "to", or neither (every link)'],
  ])('%j is refused: %s', (f, error) => {
    expect(fault(e, f)).toEqual({ ok: false, error });
    expect(e.activeFaults()).toEqual([]);
  });

  it('a lost node cannot be restarted, partitioned or lost twice until its fault is healed', () => {
    ok(e, { action: 'node-loss', target: 'node-1' });
    const id = e.activeFaults()[0]!.id;
    const lost = `node-1 is lost (fault #${id}); heal that fault to bring the machine back`;
    expect(fault(e, { action: 'restart', target: 'node-1' })).toEqual({ ok: false, error: lost });
    expect(fault(e, { action: 'node-loss', target: 'node-1' })).toEqual({ ok: false, error: lost });
    expect(fault(e, { action: 'partition-node', target: 'node-1' })).toEqual({ ok: false, error: lost });
    expect(fault(e, { action: 'kubelet-restart', target: 'node-1' })).toEqual({ ok: false, error: lost });
    ok(e, { action: 'heal', id });
    expect(e.sim.isUp('node-1')).toBe(true);
    expect(e.activeFaults()).toEqual([]);
  });
});

describe('node faults', () => {
  it('node loss: the kubelet stops, nothing reaches the node (no resets), Ready=Unknown after the grace period; heal boots it again', { timeout: 60_000 }, () => {
    const e = withNodes(11);
    // Resets the kernel sends from a stopped process to the control plane (kubelets have no links between them).
    const resets = () => e.sim.trace.records(-1).filter((r) => r.reason === 'connection-reset' && r.from === 'node-1' && !r.to?.startsWith('node-')).length;
    const resetsBefore = resets();
    ok(e, { action: 'node-loss', target: 'node-1' });
    expect(e.sim.isUp('node-1')).toBe(false);
    expect(blocked(e)).toEqual(expect.arrayContaining(['node-1>kube-apiserver-0', 'kube-apiserver-0>node-1', 'node-1>etcd-0']));
    // Kubelets have no links between them (the lost machine is cut off from node-2's kube-proxy, not from node-2).
    expect(blocked(e).some((l) => l.startsWith('node-2>') || l.endsWith('>node-2'))).toBe(false);
    const [af] = e.activeFaults();
    expect(af).toMatchObject({ fault: { action: 'node-loss', target: 'node-1' }, targets: ['node-1'], since: e.sim.now });
    expect(af!.summary).toBe('node-1 lost: the machine is gone (kubelet, kube-proxy and containers stopped, unreachable)');
    // Its kube-proxy went with it, cut off as well.
    expect(e.sim.isUp('kube-proxy-node-1')).toBe(false);
    expect(blocked(e)).toEqual(expect.arrayContaining(['kube-proxy-node-1>kube-apiserver-0', 'kube-apiserver-0>kube-proxy-node-1']));
    e.advance(100);
    // The machine is gone: its peers get no connection reset from it.
    expect(resets()).toBe(resetsBefore);
    runUntil(e, () => readyOf(e, 'node-1') === 'Unknown', 'node-1 Ready=Unknown', 120_000, 1000);
    expect(readyOf(e, 'node-2')).toBe('True');
    // The network heals, the machine stays lost.
    ok(e, { action: 'heal' });
    expect(e.activeFaults().map((f) => f.fault.action)).toEqual(['node-loss']);
    expect(blocked(e)).toContain('node-1>kube-apiserver-0');
    ok(e, { action: 'heal', id: af!.id });
    expect(e.sim.isUp('node-1')).toBe(true);
    expect(e.sim.isUp('kube-proxy-node-1')).toBe(true);
    expect(blocked(e)).toEqual([]);
    runUntil(e, () => readyOf(e, 'node-1') === 'True', 'node-1 Ready again', 60_000, 500);
  });

  it('partition-node: the kubelet keeps running but cannot reach the API; heal reopens the links', { timeout: 60_000 }, () => {
    const e = withNodes(12, 1);
    ok(e, { action: 'partition-node', target: 'node-1' });
    // The machine's kube-proxy is cut off with its kubelet.
    expect(blocked(e).sort()).toEqual(['kube-apiserver-0>kube-proxy-node-1', 'kube-apiserver-0>node-1', 'kube-proxy-node-1>kube-apiserver-0', 'node-1>kube-apiserver-0']);
    runUntil(e, () => readyOf(e, 'node-1') === 'Unknown', 'node-1 Ready=Unknown', 120_000, 1000);
    expect(e.sim.isUp('node-1')).toBe(true);
    expect(fault(e, { action: 'partition-node', target: 'node-1' })).toEqual({ ok: false, error: `node-1 is already cut off from the API servers (fault #${e.activeFaults()[0]!.id})` });
    ok(e, { action: 'heal', id: e.activeFaults()[0]!.id });
    expect(blocked(e)).toEqual([]);
    expect(e.activeFaults()).toEqual([]);
  });

  it('kubelet-restart: the kubelet process stops and starts at once; the node stays Ready', { timeout: 60_000 }, () => {
    const e = withNodes(13, 1);
    const before = e.sim.trace.count;
    ok(e, { action: 'kubelet-restart', target: 'node-1' });
    const recs = e.sim.trace.records(before - 1);
    expect(recs.filter((r) => (r.kind === 'crash' || r.kind === 'restart') && r.to === 'node-1').map((r) => r.kind)).toEqual(['crash', 'restart']);
    expect(e.sim.isUp('node-1')).toBe(true);
    expect(e.activeFaults()).toEqual([]);
    e.advance(60_000);
    expect(readyOf(e, 'node-1')).toBe('True');
  });
});

describe('control-plane faults', () => {
  it('an API server cut off from etcd cannot serve writes; healing the cut alone leaves other faults in place', { timeout: 60_000 }, () => {
    const e = controlPlane(21);
    ok(e, { action: 'block', from: 'kube-scheduler-0', to: 'kube-apiserver-0' });
    ok(e, { action: 'cut', from: 'kube-apiserver-0', to: 'etcd' });
    const cut = e.activeFaults()[1]!;
    expect(cut.summary).toBe('kube-apiserver-0 ✂ etcd: no traffic either way');
    expect(cut.targets).toEqual(['kube-apiserver-0', 'etcd-0', 'etcd-1', 'etcd-2']);
    expect(blocked(e)).toEqual(expect.arrayContaining(['kube-apiserver-0>etcd-1', 'etcd-1>kube-apiserver-0']));
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace: 'default' } };
    const r = call(e, 'POST', '/api/v1/namespaces/default/configmaps', cm);
    expect(r.status).toBeGreaterThanOrEqual(500);
    ok(e, { action: 'heal', id: cut.id });
    expect(blocked(e)).toEqual(['kube-scheduler-0>kube-apiserver-0']);
    expect(e.activeFaults().map((f) => f.fault.action)).toEqual(['block']);
    runUntil(e, () => call(e, 'POST', '/api/v1/namespaces/default/configmaps', { ...cm, metadata: { ...cm.metadata, name: `c${e.sim.now}` } }).status === 201, 'writes again', 60_000, 1000);
  });

  it('crashes are active until restarted; heal-all restarts them, resets disks and heals the network', () => {
    const e = controlPlane(22, { schedulers: 2 });
    ok(e, { action: 'crash', target: 'kube-scheduler-0' });
    ok(e, { action: 'crash', target: 'kube-controller-manager-0' });
    ok(e, { action: 'slow-disk', target: 'etcd-1', fsyncMs: 300 });
    ok(e, { action: 'link', from: 'etcd-0', to: 'etcd-1', loss: 0.5, minMs: 20, maxMs: 30 });
    ok(e, { action: 'partition', groups: [['etcd-2'], ['etcd-0', 'etcd-1']] });
    expect(e.activeFaults().map((f) => f.summary)).toEqual([
      'kube-scheduler-0 crashed (its process stopped; durable state kept)',
      'kube-controller-manager-0 crashed (its process stopped; durable state kept)',
      'etcd-1: slow disk (fsync 300 ms)',
      'etcd-0 → etcd-1: loss 50%, latency 20–30 ms',
      'partition {etcd-2} | {etcd-0, etcd-1}',
    ]);
    // Restarting by hand ends the crash fault.
    ok(e, { action: 'restart', target: 'kube-scheduler-0' });
    expect(e.activeFaults()).toHaveLength(4);
    // Healing the network keeps the link's latency (as Network.heal does) but not its loss.
    ok(e, { action: 'heal' });
    expect(e.activeFaults().map((f) => f.summary)).toEqual([
      'kube-controller-manager-0 crashed (its process stopped; durable state kept)',
      'etcd-1: slow disk (fsync 300 ms)',
      'etcd-0 → etcd-1: latency 20–30 ms',
    ]);
    expect(e.sim.network.link('etcd-0', 'etcd-1')).toMatchObject({ loss: 0, minMs: 20, maxMs: 30 });
    ok(e, { action: 'heal-all' });
    expect(e.activeFaults()).toEqual([]);
    expect(e.sim.isUp('kube-controller-manager-0')).toBe(true);
    expect(e.sim.disk('etcd-1').fsyncMs).toBe(1);
    expect(e.sim.network.link('etcd-0', 'etcd-1')).toMatchObject({ loss: 0, minMs: 0.5, maxMs: 1.5 });
    expect(blocked(e)).toEqual([]);
  });

  it('healing one link fault restores what it replaced and keeps a later one', () => {
    const e = Engine.create({ seed: 4, etcdMembers: 3 });
    ok(e, { action: 'link', from: 'etcd-0', to: 'etcd-1', loss: 0.2 });
    ok(e, { action: 'link', from: 'etcd-0', to: 'etcd-1', minMs: 40, maxMs: 50 });
    ok(e, { action: 'link', loss: 0.01 });
    const [a, b] = e.activeFaults();
    ok(e, { action: 'heal', id: b!.id });
    expect(e.sim.network.link('etcd-0', 'etcd-1')).toMatchObject({ loss: 0.2, minMs: 0.5, maxMs: 1.5 });
    expect(e.sim.network.link('etcd-1', 'etcd-2')).toMatchObject({ loss: 0.01 });
    ok(e, { action: 'heal', id: a!.id });
    expect(e.sim.network.link('etcd-0', 'etcd-1')).toMatchObject({ loss: 0.01 });
  });
});

describe('faults in the command log', () => {
  it('seed + command log replay node loss and healing by id; snapshots keep the book', { timeout: 60_000 }, () => {
    const opts = { seed: 31, etcdMembers: 3, controlPlane: true, nodes: 2 };
    const e = Engine.create(opts);
    e.advance(5_000);
    ok(e, { action: 'node-loss', target: 'node-2' });
    ok(e, { action: 'cut', from: 'kube-apiserver-0', to: 'etcd-2' });
    e.advance(3_000);
    const snap = JSON.parse(JSON.stringify(e.snapshot()));
    ok(e, { action: 'heal', id: e.activeFaults()[0]!.id });
    e.advance(2_000);
    const replayed = Engine.replay(opts, e.commands(), e.sim.now);
    expect(replayed.state().traceDigest).toBe(e.state().traceDigest);
    expect(replayed.activeFaults()).toEqual(e.activeFaults());
    const restored = Engine.restore(snap);
    expect(restored.activeFaults().map((f) => f.fault.action)).toEqual(['node-loss', 'cut']);
    expect(restored.exec({ type: 'fault', fault: { action: 'heal', id: restored.activeFaults()[0]!.id } }).ok).toBe(true);
    restored.advance(2_000);
    expect(restored.state().traceDigest).toBe(e.state().traceDigest);
  });
});
