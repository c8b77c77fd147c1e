// pickOneNodeForPreemption (pkg/scheduler/framework/preemption/preemption.go,
// v1.32): each criterion scores every remaining node; only the ties go on to
// the next. Candidates keep their dry-run order, so the final tie-break, "the
// first node", is deterministic here (Go ranges over a map).
import { podPriority } from '../framework/api';
import { earliestPodStartTime } from './util';
import type { NodeScoreFunc, Victims } from './types';

/** math.MaxInt32 + 1: added to every priority so sums of negative priorities still prefer fewer pods. */
const PRIORITY_OFFSET = 2 ** 31;

/** The default criteria, in precedence order. */
export function defaultScoreFuncs(nodesToVictims: Map<string, Victims>, now: number): NodeScoreFunc[] {
  const victims = (node: string): Victims => nodesToVictims.get(node)!;
  return [
    // Fewest PDB violations.
    (node) => -victims(node).numPDBViolations,
    // Lowest highest-priority victim (victims are sorted most important first).
    (node) => -podPriority(victims(node).pods[0]!),
    // Smallest sum of (offset) priorities.
    (node) => {
      let sum = 0;
      for (const p of victims(node).pods) sum += podPriority(p) + PRIORITY_OFFSET;
      return -sum;
    },
    // Fewest victims.
    (node) => -victims(node).pods.length,
    // Latest start among the highest-priority victims: the youngest are disturbed.
    (node) => earliestPodStartTime(victims(node).pods, now) ?? Number.MIN_SAFE_INTEGER,
  ];
}

export function pickOneNodeForPreemption(nodesToVictims: Map<string, Victims>, scoreFuncs: NodeScoreFunc[] | null, now: number): string {
  if (nodesToVictims.size === 0) return '';
  let candidates = [...nodesToVictims.keys()];
  const funcs = scoreFuncs && scoreFuncs.length > 0 ? scoreFuncs : defaultScoreFuncs(nodesToVictims, now);
  for (const f of funcs) {
    let best = -Infinity;
    let selected: string[] = [];
    for (const node of candidates) {
      const score = f(node);
      if (score > best) {
        best = score;
        selected = [];
      }
      if (score === best) selected.push(node);
    }
    if (selected.length === 1) return selected[0]!;
    candidates = selected;
  }
  return candidates[0]!;
}
