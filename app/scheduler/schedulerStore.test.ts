import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { DecisionJson, PodDecisions, QueueView, SchedulerView } from '../../engine/host/protocol';
import { fiveNodeDecision, preemptionDecision } from './fixtures';
import { initialSchedulerState, podSignature, SchedulerPoller, shownDecision, type SchedulerSource, type SchedulerState } from './schedulerStore';

function view(recent: SchedulerView['recent'], cycles = recent.length): SchedulerView {
  return {
    replicas: [{ name: 'kube-scheduler-0', up: true, leader: true, synced: true }],
    leader: 'kube-scheduler-0',
    stats: { cycles, scheduled: 0, unschedulable: 0, errors: 0, bindings: 0, bindFailures: 0 },
    queue: { active: 0, backoff: 0, unschedulable: 0, gated: 0 },
    nodes: 5,
    recent,
  };
}

const cycle = (n: number, pod: string, outcome = 'Scheduled') => ({ cycle: n, t: n, pod, profile: 'default-scheduler', outcome, selected: 'node-4', message: '', evaluated: 5, feasible: 3 });

class FakeSource implements SchedulerSource {
  v: SchedulerView = view([]);
  decisionsByPod = new Map<string, DecisionJson[]>();
  decisionReads = 0;
  watched = new Set<string>();
  configText = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';
  applied: string[] = [];
  async view(): Promise<SchedulerView> {
    return this.v;
  }
  async queue(): Promise<QueueView> {
    return { active: [], backoff: [], unschedulable: [], gated: [] };
  }
  async decisions(pod: string): Promise<PodDecisions> {
    this.decisionReads++;
    return { pod, decisions: this.decisionsByPod.get(pod) ?? [] };
  }
  async watch(pod: string, on: boolean): Promise<void> {
    if (on) this.watched.add(pod);
    else this.watched.delete(pod);
  }
  async config(): Promise<string> {
    return this.configText;
  }
  async applyConfig(text: string) {
    if (text.includes('kind: Nope')) return { ok: false as const, error: 'no kind "Nope" is registered' };
    this.applied.push(text);
    this.configText = text;
    return { ok: true as const };
  }
}

function setup() {
  const store = create<SchedulerState>()(() => ({ ...initialSchedulerState }));
  const src = new FakeSource();
  return { store, src, poller: new SchedulerPoller(src, store) };
}

describe('SchedulerPoller', () => {
  it('selecting a pod watches it (and unwatches the previous) and reads its decisions', async () => {
    const { store, src, poller } = setup();
    src.decisionsByPod.set('default/a', [fiveNodeDecision()]);
    await poller.selectPod('default/a');
    expect(src.watched).toEqual(new Set(['default/a']));
    expect(store.getState().decisions).toHaveLength(1);
    await poller.selectPod('default/b');
    expect(src.watched).toEqual(new Set(['default/b']));
    expect(store.getState().decisions).toEqual([]);
  });

  it('reads decisions again only when the pod’s recent cycles change', async () => {
    const { src, poller } = setup();
    src.v = view([cycle(1, 'default/a', 'Binding')]);
    await poller.selectPod('default/a');
    const reads = src.decisionReads;
    await poller.refresh();
    await poller.refresh();
    expect(src.decisionReads).toBe(reads);
    src.v = view([cycle(1, 'default/a', 'Binding'), cycle(2, 'default/b')]);
    await poller.refresh();
    expect(src.decisionReads).toBe(reads);
    src.v = view([cycle(1, 'default/a', 'Scheduled'), cycle(2, 'default/b')]);
    await poller.refresh();
    expect(src.decisionReads).toBe(reads + 1);
  });

  it('reads again when more cycles ran than the recent list holds', async () => {
    const { src, poller } = setup();
    src.v = view([cycle(1, 'default/x')], 1);
    await poller.selectPod('default/a');
    const reads = src.decisionReads;
    src.v = view([cycle(500, 'default/x')], 500);
    await poller.refresh();
    expect(src.decisionReads).toBe(reads + 1);
  });

  it('serves a refresh asked for during a read after it, once', async () => {
    const { src, poller } = setup();
    let views = 0;
    const orig = src.view.bind(src);
    src.view = async () => {
      views++;
      return orig();
    };
    const a = poller.refresh();
    void poller.refresh();
    void poller.refresh();
    await a;
    expect(views).toBe(2);
  });

  it('an invalid configuration keeps the buffer and says why; a valid one is applied', async () => {
    const { store, src, poller } = setup();
    await poller.loadConfig(false);
    expect(store.getState().buffer).toBe(src.configText);
    store.setState({ buffer: 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: Nope\n', bufferDirty: true });
    const r = await poller.applyConfig(1000);
    expect(r.ok).toBe(false);
    expect(store.getState().profileStatus).toEqual({ type: 'error', error: 'no kind "Nope" is registered' });
    expect(store.getState().buffer).toContain('kind: Nope');
    expect(store.getState().bufferDirty).toBe(true);
    const good = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: []\n';
    store.setState({ buffer: good, bufferDirty: true });
    expect((await poller.applyConfig(2000)).ok).toBe(true);
    expect(src.applied).toEqual([good]);
    expect(store.getState().profileStatus).toEqual({ type: 'applied', at: 2000 });
    expect(store.getState().runningConfig).toBe(good);
    expect(store.getState().bufferDirty).toBe(false);
  });

  it('a reload does not overwrite an edited buffer unless asked', async () => {
    const { store, poller } = setup();
    store.setState({ buffer: 'mine', bufferDirty: true });
    await poller.loadConfig(false);
    expect(store.getState().buffer).toBe('mine');
    await poller.loadConfig(true);
    expect(store.getState().buffer).toContain('KubeSchedulerConfiguration');
  });
});

describe('shownDecision and podSignature', () => {
  it('shows the chosen cycle, else the newest', () => {
    const a = fiveNodeDecision();
    const b = preemptionDecision();
    expect(shownDecision({ decisions: [a, b], cycle: null })).toBe(b);
    expect(shownDecision({ decisions: [a, b], cycle: a.cycle })).toBe(a);
    expect(shownDecision({ decisions: [a, b], cycle: 12345 })).toBe(b);
    expect(shownDecision({ decisions: [], cycle: null })).toBeNull();
  });

  it('signs a pod’s recent cycles and outcomes', () => {
    expect(podSignature(view([cycle(1, 'default/a', 'Binding'), cycle(2, 'default/b'), cycle(3, 'default/a', 'Unschedulable')]), 'default/a')).toBe('1:Binding,3:Unschedulable');
    expect(podSignature(null, 'default/a')).toBe('');
  });
});
