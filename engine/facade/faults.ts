// The faults a user (or the safety harness) injects, and the book of those
// still in effect. Every fault is a recorded command, so seed + command log
// replays them; the book is engine state (snapshots keep it). Network faults
// are directional blocks and link settings in the kernel's network: ending one
// of them heals the network and applies the remaining ones again, in order, so
// faults that overlap (a cut and a node partition sharing a link) stay exact.
import type { ActorId } from '../sim/actor';
import { assertNever } from '../sim/assert';
import { DEFAULT_FSYNC_MS, type Simulation } from '../sim/kernel';
import type { LinkConfig } from '../sim/network';
import { jsonRoundTrip } from '../sim/jsonClone';
import { registerClass } from '../sim/serial';
import type { ActiveFault, Fault } from './types';
import { kubeProxyOf } from '../kubeproxy/proxier';

/** The kind of the node actors (a kubelet with its fake runtime; id = node name). */
const NODE_KIND = 'kubelet';
const APISERVER_KIND = 'kube-apiserver';

type LinkFault = Extract<Fault, { action: 'link' }>;
const LINK_KEYS = ['loss', 'duplicate', 'reorder', 'minMs', 'maxMs'] as const;
/** What `heal` of the whole network clears from a link fault (latency and ordering stay, as Network.heal keeps them). */
const HEALED_BY_NETWORK = new Set<string>(['loss', 'duplicate']);
/** Faults that live in the network (blocks, partitions, link settings). */
const NETWORK_FAULTS = new Set<string>(['partition', 'block', 'link', 'node-loss', 'partition-node', 'cut']);

interface Entry extends ActiveFault {
  /** Directed links this fault blocks (cuts, node faults, blocks; partitions re-apply their groups). */
  blocks?: [ActorId, ActorId][];
  /** Link faults: the values they replaced, restored when the fault alone ends. */
  undo?: Partial<LinkConfig>;
}

export class FaultBook {
  private entries: Entry[] = [];
  private nextId = 1;

  /** The faults in effect, oldest first. */
  list(): ActiveFault[] {
    return this.entries.map(({ id, since, fault, summary, targets }) => ({ id, since, fault: jsonRoundTrip(fault), summary, targets: [...targets] }));
  }

  /** Why a fault cannot be applied now, or null. */
  validate(sim: Simulation, f: Fault): string | null {
    const known = (id: string) => sim.has(id);
    const lost = (id: string) => this.entries.find((e) => e.fault.action === 'node-loss' && e.fault.target === id);
    const isNode = (id: string) => sim.kindOf(id) === NODE_KIND;
    const nodeProblem = (id: string): string | null => {
      if (!known(id)) return `no component named "${id}"`;
      if (!isNode(id)) return `"${id}" is not a node (${f.action} takes a node such as node-1)`;
      const l = lost(id);
      return l ? `${id} is lost (fault #${l.id}); heal that fault to bring the machine back` : null;
    };
    switch (f.action) {
      case 'crash':
        return known(f.target) ? null : `no component named "${f.target}"`;
      case 'restart': {
        if (!known(f.target)) return `no component named "${f.target}"`;
        const l = lost(f.target);
        return l ? `${f.target} is lost (fault #${l.id}); heal that fault to bring the machine back` : null;
      }
      case 'slow-disk':
        if (!known(f.target)) return `no component named "${f.target}"`;
        return f.fsyncMs >= 0 && Number.isFinite(f.fsyncMs) ? null : `fsyncMs must be a non-negative number (got ${f.fsyncMs})`;
      case 'partition': {
        if (!Array.isArray(f.groups) || f.groups.length < 2) return 'a partition needs at least two groups';
        const seen = new Set<string>();
        for (const g of f.groups) {
          if (!Array.isArray(g)) return 'each partition group must be a list of component names';
          for (const id of g) {
            if (!known(id)) return `no component named "${id}"`;
            if (seen.has(id)) return `"${id}" appears in more than one group`;
            seen.add(id);
          }
        }
        return null;
      }
      case 'block':
        return known(f.from) && known(f.to) ? null : `no component named "${known(f.from) ? f.to : f.from}"`;
      case 'heal':
        if (f.id === undefined) return null;
        return this.entries.some((e) => e.id === f.id) ? null : `no active fault #${f.id}`;
      case 'heal-all':
        return null;
      case 'link': {
        for (const p of ['loss', 'duplicate'] as const) {
          const v = f[p];
          if (v !== undefined && !(v >= 0 && v <= 1)) return `${p} must be a probability between 0 and 1`;
        }
        if (f.minMs !== undefined && !(f.minMs >= 0)) return 'minMs must be >= 0';
        if (f.maxMs !== undefined && !(f.maxMs >= (f.minMs ?? 0))) return 'maxMs must be >= minMs';
        if (f.from !== undefined && !known(f.from)) return `no component named "${f.from}"`;
        if (f.to !== undefined && !known(f.to)) return `no component named "${f.to}"`;
        if ((f.from === undefined) !== (f.to === undefined)) return 'give both "from" and "to", or neither (every link)';
        return null;
      }
      case 'node-loss':
        return nodeProblem(f.target);
      case 'partition-node': {
        const p = nodeProblem(f.target);
        if (p) return p;
        const dup = this.entries.find((e) => e.fault.action === 'partition-node' && e.fault.target === f.target);
        if (dup) return `${f.target} is already cut off from the API servers (fault #${dup.id})`;
        return apiServers(sim).length > 0 ? null : 'there is no kube-apiserver to cut the node off from';
      }
      case 'kubelet-restart': {
        const p = nodeProblem(f.target);
        if (p) return p;
        return sim.isUp(f.target) ? null : `the kubelet on ${f.target} is not running: restart it instead`;
      }
      case 'cut': {
        const a = resolveEnd(sim, f.from);
        const b = resolveEnd(sim, f.to);
        if (a.length === 0) return `no component or kind named "${f.from}"`;
        if (b.length === 0) return `no component or kind named "${f.to}"`;
        if (a.some((x) => b.includes(x))) return `"${f.from}" and "${f.to}" overlap: a cut needs two separate ends`;
        return null;
      }
      default:
        return assertNever(f, 'fault');
    }
  }

  /** Applies a validated fault. */
  apply(sim: Simulation, f: Fault): void {
    const net = sim.network;
    switch (f.action) {
      case 'crash':
        if (sim.isUp(f.target)) this.add(sim, f, `${f.target} crashed (its process stopped; durable state kept)`, [f.target]);
        sim.crash(f.target);
        return;
      case 'restart':
        this.drop((e) => e.fault.action === 'crash' && e.fault.target === f.target);
        sim.restart(f.target);
        return;
      case 'partition':
        this.add(sim, f, `partition ${f.groups.map((g) => `{${g.join(', ')}}`).join(' | ')}`, f.groups.flat());
        net.partition(f.groups);
        sim.note('fault', 'partition', f.groups.map((g) => g.join(',')).join(' | '));
        return;
      case 'block':
        this.add(sim, f, `${f.from} → ${f.to} blocked (one way)`, [f.from, f.to], { blocks: [[f.from, f.to]] });
        net.block(f.from, f.to);
        sim.note('fault', 'block', `${f.from}>${f.to}`);
        return;
      case 'heal':
        if (f.id === undefined) return this.healNetwork(sim);
        return this.healOne(sim, f.id);
      case 'heal-all':
        this.healEverything(sim);
        sim.note('fault', 'heal-all');
        return;
      case 'slow-disk':
        this.drop((e) => e.fault.action === 'slow-disk' && e.fault.target === f.target);
        if (f.fsyncMs !== DEFAULT_FSYNC_MS) this.add(sim, f, `${f.target}: slow disk (fsync ${f.fsyncMs} ms)`, [f.target]);
        sim.setFsyncLatency(f.target, f.fsyncMs);
        return;
      case 'link': {
        const { action: _a, from, to, ...patch } = f;
        const undo: Partial<LinkConfig> = {};
        const before = from === undefined ? net.defaults : net.link(from, to!);
        for (const k of LINK_KEYS) if (patch[k] !== undefined) (undo as Record<string, unknown>)[k] = before[k];
        this.add(sim, f, linkSummary(f), from === undefined ? [] : [from, to!], { undo });
        net.configure(from ?? '*', to ?? '*', patch);
        sim.note('fault', 'link', JSON.stringify(f));
        return;
      }
      case 'node-loss': {
        // The machine is gone: no process answers, not even a kernel refusing connections, so its
        // links are cut before the kubelet stops (a crash alone would reset peers' connections).
        // Its kube-proxy goes with it.
        const proxy = machineProcesses(sim, f.target);
        const others = sim.actorIds().filter((id) => sim.kindOf(id) !== NODE_KIND);
        const blocks = [f.target, ...proxy].flatMap((m) => both(m, others));
        this.add(sim, f, `${f.target} lost: the machine is gone (kubelet, kube-proxy and containers stopped, unreachable)`, [f.target], { blocks });
        for (const [a, b] of blocks) net.block(a, b);
        sim.note('fault', 'node-loss', undefined, f.target);
        sim.crash(f.target);
        for (const p of proxy) if (sim.isUp(p)) sim.crash(p);
        // Its containers' own processes (CoreDNS's) die with their containers, for good.
        for (const p of containerProcesses(sim, f.target)) sim.remove(p);
        powerOff(sim.durable(f.target), sim.now);
        return;
      }
      case 'partition-node': {
        const blocks = [f.target, ...machineProcesses(sim, f.target)].flatMap((m) => both(m, apiServers(sim)));
        this.add(sim, f, `${f.target} cut off from the API servers (its kubelet keeps running its pods)`, [f.target], { blocks });
        for (const [a, b] of blocks) net.block(a, b);
        sim.note('fault', 'partition-node', undefined, f.target);
        return;
      }
      case 'kubelet-restart':
        sim.note('fault', 'kubelet-restart', undefined, f.target);
        sim.crash(f.target);
        sim.restart(f.target);
        return;
      case 'cut': {
        const a = resolveEnd(sim, f.from);
        const b = resolveEnd(sim, f.to);
        const blocks: [ActorId, ActorId][] = [];
        for (const x of a) for (const y of b) blocks.push([x, y], [y, x]);
        this.add(sim, f, `${f.from} ✂ ${f.to}: no traffic either way`, [...a, ...b], { blocks });
        for (const [x, y] of blocks) net.block(x, y);
        sim.note('fault', 'cut', `${f.from}|${f.to}`);
        return;
      }
      default:
        assertNever(f, 'fault');
    }
  }

  private add(sim: Simulation, fault: Fault, summary: string, targets: ActorId[], extra: Pick<Entry, 'blocks' | 'undo'> = {}): void {
    this.entries.push({ id: this.nextId++, since: sim.now, fault: jsonRoundTrip(fault), summary, targets: [...new Set(targets)], ...extra });
  }

  private drop(match: (e: Entry) => boolean): Entry[] {
    const gone = this.entries.filter(match);
    if (gone.length > 0) this.entries = this.entries.filter((e) => !match(e));
    return gone;
  }

  /** `heal`: the network is whole again; lost machines stay lost (their isolation is re-applied). */
  private healNetwork(sim: Simulation): void {
    this.drop((e) => ['partition', 'block', 'cut', 'partition-node'].includes(e.fault.action));
    for (const e of this.entries) {
      if (e.fault.action !== 'link') continue;
      for (const k of HEALED_BY_NETWORK) delete (e.fault as Record<string, unknown>)[k];
      if (e.undo) for (const k of HEALED_BY_NETWORK) delete (e.undo as Record<string, unknown>)[k];
    }
    this.drop((e) => e.fault.action === 'link' && !LINK_KEYS.some((k) => (e.fault as LinkFault)[k] !== undefined));
    for (const e of this.entries) if (e.fault.action === 'link') e.summary = linkSummary(e.fault);
    this.reapplyNetwork(sim);
    sim.note('fault', 'heal');
  }

  private healOne(sim: Simulation, id: number): void {
    const [e] = this.drop((x) => x.id === id);
    if (!e) return;
    const f = e.fault;
    sim.note('fault', 'heal', `#${id} ${f.action}`);
    // The network first: a component that starts again talks at once.
    if (NETWORK_FAULTS.has(f.action)) {
      if (f.action === 'link') this.undo(sim, e);
      this.reapplyNetwork(sim);
    } else this.undo(sim, e);
    if (f.action === 'node-loss') bootMachine(sim, f.target);
  }

  private healEverything(sim: Simulation): void {
    const all = this.entries;
    this.entries = [];
    sim.network.heal();
    for (const e of [...all].reverse()) this.undo(sim, e);
    for (const e of all) if (e.fault.action === 'node-loss') bootMachine(sim, e.fault.target);
  }

  /** Ends a fault's non-network part (link settings are restored; blocks are the caller's). */
  private undo(sim: Simulation, e: Entry): void {
    const f = e.fault;
    switch (f.action) {
      case 'crash':
        sim.restart(f.target);
        return;
      case 'slow-disk':
        sim.setFsyncLatency(f.target, DEFAULT_FSYNC_MS);
        return;
      case 'link':
        if (e.undo && Object.keys(e.undo).length > 0) sim.network.configure(f.from ?? '*', f.to ?? '*', e.undo);
        return;
      default:
        return;
    }
  }

  /** Heals the network, then applies every remaining network fault again, oldest first. */
  private reapplyNetwork(sim: Simulation): void {
    const net = sim.network;
    net.heal();
    for (const e of this.entries) {
      const f = e.fault;
      if (f.action === 'partition') net.partition(f.groups);
      else if (f.action === 'link') {
        const { action: _a, from, to, ...patch } = f;
        net.configure(from ?? '*', to ?? '*', patch);
      } else for (const [a, b] of e.blocks ?? []) net.block(a, b);
    }
  }
}

/**
 * The machine's power goes: a kubelet keeps its node's container runtime as
 * durable state (it survives a kubelet restart), and a lost node stops it too.
 * This is engine/kubelet's `loseNode(durable, now)` (the runtime's powerOff);
 * a kubelet without a durable runtime has nothing to stop. Restarting the
 * actor (healing the fault) boots the machine again.
 */
function powerOff(durable: unknown, now: number): void {
  const runtime = (durable as { runtime?: { powerOff?: (now: number) => void } | null } | null)?.runtime;
  runtime?.powerOff?.(now);
}

/** The node's other processes than its kubelet: its kube-proxy, and its containers' processes that have actors. */
function machineProcesses(sim: Simulation, node: ActorId): ActorId[] {
  const proxy = kubeProxyOf(node);
  return [...(sim.has(proxy) ? [proxy] : []), ...containerProcesses(sim, node)];
}

/** The actors of the node's containers' processes (engine/kubelet/network/processes.ts), which the runtime lists. */
function containerProcesses(sim: Simulation, node: ActorId): ActorId[] {
  const runtime = (sim.durable(node) as { runtime?: { processes?: Map<string, string> } | null } | null)?.runtime;
  return [...(runtime?.processes?.values() ?? [])].filter((id) => sim.has(id));
}

/** The machine boots: its kubelet, then its kube-proxy (its containers start afresh, with new processes). */
function bootMachine(sim: Simulation, node: ActorId): void {
  sim.restart(node);
  const proxy = kubeProxyOf(node);
  if (sim.has(proxy) && !sim.isUp(proxy)) sim.restart(proxy);
}

/** Both directions between one actor and each of the others. */
function both(a: ActorId, others: ActorId[]): [ActorId, ActorId][] {
  const out: [ActorId, ActorId][] = [];
  for (const b of others) if (b !== a) out.push([a, b], [b, a]);
  return out;
}

function apiServers(sim: Simulation): ActorId[] {
  return sim.actorIds().filter((id) => sim.kindOf(id) === APISERVER_KIND);
}

/** A cut's end: a component by name, or every component of a kind. */
function resolveEnd(sim: Simulation, end: string): ActorId[] {
  if (sim.has(end)) return [end];
  return sim.actorIds().filter((id) => sim.kindOf(id) === end);
}

function linkSummary(f: LinkFault): string {
  const parts: string[] = [];
  if (f.loss !== undefined) parts.push(`loss ${Math.round(f.loss * 1000) / 10}%`);
  if (f.duplicate !== undefined) parts.push(`duplicates ${Math.round(f.duplicate * 1000) / 10}%`);
  if (f.reorder !== undefined) parts.push(f.reorder ? 'reordering' : 'in order');
  if (f.minMs !== undefined || f.maxMs !== undefined) parts.push(`latency ${f.minMs ?? '…'}–${f.maxMs ?? '…'} ms`);
  const where = f.from === undefined ? 'every link' : `${f.from} → ${f.to}`;
  return `${where}: ${parts.join(', ') || 'no change'}`;
}

registerClass('FaultBook', FaultBook);
