// The node's cgroup accounting and cAdvisor's sampling of it. The kernel keeps
// cumulative CPU time per cgroup (container, pod, node) and the current working
// set; cAdvisor reads them every housekeeping interval (10 s, per cgroup from
// when it appeared) and the kubelet's stats endpoints serve the latest sample
// with its timestamp. Usage comes from the usage model (usage.ts): the CPU a
// container gets is piecewise constant between runtime events (a container
// starting or stopping, a demand changing), so `advance` integrates exactly,
// event by event, whenever it is asked — however long nobody looked.
import { registerClass } from '../../sim/serial';
import { shareCpu, milliCpuToShares } from './cpuShares';
import { workingSetAt, type Demand } from './usage';

/** cAdvisor's housekeeping interval as the kubelet runs it. */
export const HOUSEKEEPING_MS = 10_000;

/** One cAdvisor reading of a cgroup. */
export interface Sample {
  at: number;
  /** Cumulative CPU time, core-seconds. */
  cpuSeconds: number;
  workingSetBytes: number;
}

export interface MeteredContainer {
  id: string;
  podUid: string;
  name: string;
  /** The process runs in [startedAt, stopAt). */
  startedAt: number;
  stopAt: number;
  demand: Demand;
  /** CFS quota (the CPU limit), millicores; Infinity without one. */
  cpuLimitMilli: number;
  shares: number;
  cpuSeconds: number;
  /** CPU it gets right now, millicores. */
  rateMilli: number;
  sample: Sample | null;
}

export interface MeteredPod {
  uid: string;
  name: string;
  namespace: string;
  /** When the sandbox (the pod cgroup) appeared. */
  createdAt: number;
  /** The pause container. */
  pause: Demand;
  cpuSeconds: number;
  rateMilli: number;
  sample: Sample | null;
}

/** What the kubelet tells the meter about a container it started. */
export interface ContainerStart {
  id: string;
  podUid: string;
  name: string;
  startedAt: number;
  /** A known end (the process exits by itself or is OOM-killed); Infinity when none. */
  stopAt: number;
  demand: Demand;
  requestMilli: number;
  limitMilli: number;
}

export class UsageMeter {
  /** Integrated up to here. */
  at = 0;
  readonly containers = new Map<string, MeteredContainer>();
  readonly pods = new Map<string, MeteredPod>();
  nodeCpuSeconds = 0;
  nodeRateMilli = 0;
  nodeSample: Sample | null = null;

  constructor(
    /** The node's CPUs, millicores. */
    readonly capacityMilli: number,
    /** The OS, kubelet and containerd outside kubepods. */
    readonly system: Demand,
    now: number,
  ) {
    this.at = now;
    this.reshare();
  }

  addPod(uid: string, name: string, namespace: string, pause: Demand, at: number): void {
    this.advance(at);
    if (this.pods.has(uid)) return;
    this.pods.set(uid, { uid, name, namespace, createdAt: at, pause, cpuSeconds: 0, rateMilli: 0, sample: null });
    this.reshare();
  }

  /** The sandbox is gone: the pod cgroup and whatever still ran in it. */
  removePod(uid: string, at: number): void {
    this.advance(at);
    for (const c of this.containers.values()) if (c.podUid === uid) this.containers.delete(c.id);
    this.pods.delete(uid);
    this.reshare();
  }

  start(s: ContainerStart, at: number): void {
    this.advance(at);
    this.containers.set(s.id, {
      id: s.id,
      podUid: s.podUid,
      name: s.name,
      startedAt: Math.max(s.startedAt, this.at),
      stopAt: s.stopAt,
      demand: s.demand,
      cpuLimitMilli: s.limitMilli > 0 ? s.limitMilli : Infinity,
      shares: milliCpuToShares(s.requestMilli),
      cpuSeconds: 0,
      rateMilli: 0,
      sample: null,
    });
    this.reshare();
  }

  /** The process ends at `stopAt` (killed, or an exit learnt later); never later than a known end. */
  stop(id: string, stopAt: number, at: number): void {
    this.advance(at);
    const c = this.containers.get(id);
    if (!c) return;
    c.stopAt = Math.max(this.at, Math.min(c.stopAt, stopAt));
    this.reshare();
  }

  setDemand(id: string, demand: Demand, at: number): void {
    this.advance(at);
    const c = this.containers.get(id);
    if (!c) return;
    c.demand = { cpuMilli: demand.cpuMilli, memory: c.demand.memory };
    this.reshare();
  }

  /** Working set of a running container at `t` (0 when it is not running then). */
  workingSet(c: MeteredContainer, t: number): number {
    if (t < c.startedAt || t >= c.stopAt) return 0;
    return workingSetAt(c.demand.memory, t - c.startedAt);
  }

  podWorkingSet(p: MeteredPod, t: number): number {
    let ws = workingSetAt(p.pause.memory, t - p.createdAt);
    for (const c of this.containers.values()) if (c.podUid === p.uid) ws += this.workingSet(c, t);
    return ws;
  }

  nodeWorkingSet(t: number): number {
    let ws = workingSetAt(this.system.memory, t);
    for (const p of this.pods.values()) ws += this.podWorkingSet(p, t);
    return ws;
  }

  /** Runs the accounting forward to `now`, event by event. */
  advance(now: number): void {
    while (this.at < now) {
      let next = now;
      for (const c of this.containers.values()) {
        if (c.startedAt > this.at && c.startedAt < next) next = c.startedAt;
        if (c.stopAt > this.at && c.stopAt < next) next = c.stopAt;
      }
      this.integrate(this.at, next);
      this.at = next;
      for (const c of [...this.containers.values()]) if (c.stopAt <= this.at) this.containers.delete(c.id);
      this.reshare();
    }
  }

  /** CPU from the usage model, capped by quotas and shared when the node is oversubscribed. */
  private reshare(): void {
    const active = [...this.containers.values()].filter((c) => c.startedAt <= this.at && this.at < c.stopAt);
    const pods = [...this.pods.values()];
    const claims = [...active.map((c) => ({ demandMilli: Math.min(c.demand.cpuMilli, c.cpuLimitMilli), shares: c.shares })), ...pods.map((p) => ({ demandMilli: p.pause.cpuMilli, shares: 2 }))];
    // The system slice runs first: it is small and outside kubepods.
    const systemMilli = Math.min(this.system.cpuMilli, this.capacityMilli);
    const got = shareCpu(claims, this.capacityMilli - systemMilli);
    for (const c of this.containers.values()) c.rateMilli = 0;
    active.forEach((c, i) => (c.rateMilli = got[i]!));
    let node = systemMilli;
    pods.forEach((p, i) => {
      p.rateMilli = got[active.length + i]!;
      for (const c of active) if (c.podUid === p.uid) p.rateMilli += c.rateMilli;
      node += p.rateMilli;
    });
    this.nodeRateMilli = node;
  }

  /** Rates are constant over (a, b]: accumulate CPU and take the housekeeping samples that fall in it. */
  private integrate(a: number, b: number): void {
    const cpuAt = (base: number, rateMilli: number, t: number) => base + (rateMilli * (t - a)) / 1e6;
    for (const c of this.containers.values()) {
      const t = lastTick(c.startedAt, b);
      if ((t > a || (t === a && !c.sample)) && t < c.stopAt) c.sample = { at: t, cpuSeconds: cpuAt(c.cpuSeconds, c.rateMilli, t), workingSetBytes: this.workingSet(c, t) };
    }
    for (const p of this.pods.values()) {
      const t = lastTick(p.createdAt, b);
      if (t > a || (t === a && !p.sample)) p.sample = { at: t, cpuSeconds: cpuAt(p.cpuSeconds, p.rateMilli, t), workingSetBytes: this.podWorkingSet(p, t) };
    }
    const t = lastTick(0, b);
    if (t > a || (t === a && !this.nodeSample)) this.nodeSample = { at: t, cpuSeconds: cpuAt(this.nodeCpuSeconds, this.nodeRateMilli, t), workingSetBytes: this.nodeWorkingSet(t) };
    for (const c of this.containers.values()) c.cpuSeconds = cpuAt(c.cpuSeconds, c.rateMilli, b);
    for (const p of this.pods.values()) p.cpuSeconds = cpuAt(p.cpuSeconds, p.rateMilli, b);
    this.nodeCpuSeconds = cpuAt(this.nodeCpuSeconds, this.nodeRateMilli, b);
  }
}

/** The latest housekeeping tick at or before `t` of a cgroup that appeared at `phase`. */
function lastTick(phase: number, t: number): number {
  if (t < phase) return -Infinity;
  return phase + Math.floor((t - phase) / HOUSEKEEPING_MS) * HOUSEKEEPING_MS;
}

registerClass('UsageMeter', UsageMeter);
