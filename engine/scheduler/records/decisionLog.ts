// Bounded decision records: the last `capacity` cycles, plus the newest few
// per pod for pods someone is looking at (the UI's selection), so a long
// session stays small while what is on screen stays explainable.
import { registerClass } from '../../sim/serial';
import { rfc3339Micro } from '../../apiserver/http/time';
import type { DecisionJson, DecisionRecord, NodeDecisionJson } from './types';
import { inputsAt } from '../framework/scoreInputs';

export const DEFAULT_DECISION_CAPACITY = 2000;
/** The newest cycles that keep their score inputs (the bulk of a record at thousands of nodes). */
export const DEFAULT_DETAILED_CYCLES = 100;
const PER_WATCHED_POD = 20;

export class DecisionLog {
  private ring: (DecisionRecord | undefined)[];
  private head = 0;
  private size = 0;
  /** pod key → its recent records, kept while the pod is watched. */
  private readonly watched = new Map<string, DecisionRecord[]>();

  constructor(
    readonly capacity = DEFAULT_DECISION_CAPACITY,
    readonly detailedCycles = DEFAULT_DETAILED_CYCLES,
  ) {
    this.ring = new Array<DecisionRecord | undefined>(capacity);
  }

  add(r: DecisionRecord): void {
    this.ring[this.head] = r;
    this.head = (this.head + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
    // The record leaving the detailed window drops its score inputs, unless its pod is on screen.
    if (this.size > this.detailedCycles) {
      const old = this.ring[(this.head - 1 - this.detailedCycles + this.capacity) % this.capacity];
      if (old?.inputs && !this.watched.has(old.pod)) {
        delete old.inputs;
        old.inputsDropped = true;
      }
    }
    const w = this.watched.get(r.pod);
    if (w) {
      w.push(r);
      if (w.length > PER_WATCHED_POD) w.shift();
    }
  }

  /** Keeps this pod's records beyond the ring (until unwatched). */
  watch(pod: string): void {
    if (this.watched.has(pod)) return;
    this.watched.set(pod, this.forPodFromRing(pod).slice(-PER_WATCHED_POD));
  }

  unwatch(pod: string): void {
    this.watched.delete(pod);
  }

  watchedPods(): string[] {
    return [...this.watched.keys()];
  }

  /** The newest records, newest last. */
  recent(limit = 50): DecisionRecord[] {
    const out: DecisionRecord[] = [];
    for (let i = 0; i < Math.min(limit, this.size); i++) {
      const r = this.ring[(this.head - 1 - i + this.capacity) % this.capacity];
      if (r) out.push(r);
    }
    return out.reverse();
  }

  private forPodFromRing(pod: string): DecisionRecord[] {
    const out: DecisionRecord[] = [];
    for (let i = this.size - 1; i >= 0; i--) {
      const r = this.ring[(this.head - 1 - i + this.capacity) % this.capacity];
      if (r && r.pod === pod) out.push(r);
    }
    return out;
  }

  /** Every record of the pod still held, oldest first. */
  forPod(pod: string): DecisionRecord[] {
    const fromRing = this.forPodFromRing(pod);
    const w = this.watched.get(pod);
    if (!w || w.length === 0) return fromRing;
    const seen = new Set(fromRing.map((r) => r.cycle));
    return [...w.filter((r) => !seen.has(r.cycle)), ...fromRing].sort((a, b) => a.cycle - b.cycle);
  }

  byCycle(cycle: number): DecisionRecord | undefined {
    for (let i = 0; i < this.size; i++) {
      const r = this.ring[(this.head - 1 - i + this.capacity) % this.capacity];
      if (r && r.cycle === cycle) return r;
    }
    for (const w of this.watched.values()) for (const r of w) if (r.cycle === cycle) return r;
    return undefined;
  }

  clear(): void {
    this.ring = new Array<DecisionRecord | undefined>(this.capacity);
    this.head = 0;
    this.size = 0;
  }
}

/** A record as the API shows it: nodes → filters (Success / reason) and scores. */
export function decisionJson(r: DecisionRecord): DecisionJson {
  const nodes: DecisionJson['nodes'] = {};
  const skipped = new Set(r.skippedFilters);
  const P = r.scorePlugins.length;
  const feasibleIndex = new Map<number, number>();
  r.feasible.forEach((n, f) => feasibleIndex.set(n, f));
  r.nodes.forEach((name, i) => {
    const filters: Record<string, string> = {};
    const rej = r.rejections[i];
    for (const pl of r.filterPlugins) {
      if (skipped.has(pl)) {
        filters[pl] = 'Skip';
        continue;
      }
      if (rej && rej.plugin === pl) {
        filters[pl] = rej.reasons.join(', ') || rej.code;
        break;
      }
      filters[pl] = 'Success';
    }
    const entry: NodeDecisionJson = { filters };
    const f = feasibleIndex.get(i);
    if (f !== undefined && r.raw && r.normalized && r.totals) {
      const scores: NonNullable<DecisionJson['nodes'][string]['scores']> = {};
      for (let p = 0; p < P; p++) {
        const normalized = r.normalized[f * P + p]!;
        scores[r.scorePlugins[p]!] = { raw: r.raw[f * P + p]!, normalized, weight: r.weights[p]!, weighted: normalized * r.weights[p]! };
      }
      entry.scores = scores;
      entry.total = r.totals[f]!;
      if (r.inputs) {
        let inputs: NonNullable<NodeDecisionJson['inputs']> | undefined;
        for (let p = 0; p < P; p++) {
          const rec = r.inputs[p];
          const x = rec ? inputsAt(rec, f) : null;
          if (x) (inputs ??= {})[r.scorePlugins[p]!] = x;
        }
        if (inputs) entry.inputs = inputs;
      }
    }
    nodes[name] = entry;
  });
  return {
    cycle: r.cycle,
    time: rfc3339Micro(r.t),
    profile: r.profile,
    numAllNodes: r.numAllNodes,
    numNodesToFind: r.numNodesToFind,
    evaluatedNodes: r.nodes.length,
    feasibleNodes: r.feasible.length,
    ...(r.nominatedNode ? { nominatedNode: r.nominatedNode } : {}),
    ...(r.preFilter ? { preFilter: r.preFilter } : {}),
    nodes,
    selected: r.selected,
    message: r.message,
    ...(r.scoringSkipped ? { scoringSkipped: r.scoringSkipped } : {}),
    ...(r.postFilter ? { postFilter: r.postFilter } : {}),
    outcome: r.outcome,
    ...(r.outcomeMessage ? { outcomeMessage: r.outcomeMessage } : {}),
    ...(r.inputsDropped ? { inputsDropped: true } : {}),
  };
}

registerClass('SchedulerDecisionLog', DecisionLog);
