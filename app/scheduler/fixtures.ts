// Decisions shaped as the engine's decisionJson builds them, for the panel's tests.
import type { DecisionJson } from '../../engine/host/protocol';

const FILTERS = ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeRestrictions'];

function passAll(upTo = FILTERS.length): Record<string, string> {
  const f: Record<string, string> = {};
  for (const p of FILTERS.slice(0, upTo)) f[p] = 'Success';
  return f;
}

function scores(fit: number, taintRaw: number, taintNorm: number, balanced: number) {
  return {
    TaintToleration: { raw: taintRaw, normalized: taintNorm, weight: 3, weighted: taintNorm * 3 },
    NodeResourcesFit: { raw: fit, normalized: fit, weight: 1, weighted: fit },
    NodeResourcesBalancedAllocation: { raw: balanced, normalized: balanced, weight: 1, weighted: balanced },
  };
}

const total = (s: ReturnType<typeof scores>) => s.TaintToleration.weighted + s.NodeResourcesFit.weighted + s.NodeResourcesBalancedAllocation.weighted;

/** Five nodes: node-1 tainted (rejected by TaintToleration), node-2 too small (NodeResourcesFit), three feasible; node-4 wins. */
export function fiveNodeDecision(): DecisionJson {
  const s3 = scores(60, 1, 50, 90);
  const s4 = scores(80, 0, 100, 95);
  const s10 = scores(70, 2, 0, 99);
  const taintFilters = passAll(2);
  taintFilters.TaintToleration = "node(s) had untolerated taint {dedicated: infra}";
  const fitFilters = passAll(5);
  fitFilters.NodeResourcesFit = 'Insufficient cpu';
  return {
    cycle: 7,
    time: '2025-01-01T00:00:03.210000Z',
    profile: 'default-scheduler',
    numAllNodes: 5,
    numNodesToFind: 5,
    evaluatedNodes: 5,
    feasibleNodes: 3,
    nodes: {
      'node-1': { filters: taintFilters },
      'node-2': { filters: fitFilters },
      'node-3': { filters: passAll(), scores: s3, total: total(s3) },
      'node-4': { filters: passAll(), scores: s4, total: total(s4) },
      'node-10': { filters: passAll(), scores: s10, total: total(s10) },
    },
    selected: 'node-4',
    message: '',
    outcome: 'Scheduled',
  };
}

/** A failed cycle that nominated node-3 by preempting a lower-priority pod. */
export function preemptionDecision(): DecisionJson {
  const fit = passAll(5);
  fit.NodeResourcesFit = 'Insufficient cpu';
  return {
    cycle: 9,
    time: '2025-01-01T00:00:04.000000Z',
    profile: 'default-scheduler',
    numAllNodes: 2,
    numNodesToFind: 2,
    evaluatedNodes: 2,
    feasibleNodes: 0,
    nodes: { 'node-3': { filters: fit }, 'node-4': { filters: { ...fit } } },
    selected: '',
    message: '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    postFilter: {
      status: 'Success',
      message: '',
      nominatedNodeName: 'node-3',
      candidates: [
        { node: 'node-3', victims: ['default/low'], numPDBViolations: 0 },
        { node: 'node-4', victims: ['default/low-2', 'default/low-3'], numPDBViolations: 0 },
      ],
      victims: ['default/low'],
    },
    outcome: 'Unschedulable',
  };
}

/** `n` feasible nodes with distinct scores, for virtualisation and sorting at scale. */
export function manyNodeDecision(n: number): DecisionJson {
  const nodes: DecisionJson['nodes'] = {};
  let best = '';
  let bestTotal = -1;
  for (let i = 0; i < n; i++) {
    const fit = (i * 37) % 101;
    const s = scores(fit, 0, 100, (i * 13) % 101);
    const name = `node-${String(i).padStart(4, '0')}`;
    nodes[name] = { filters: passAll(), scores: s, total: total(s) };
    if (total(s) > bestTotal) {
      bestTotal = total(s);
      best = name;
    }
  }
  return {
    cycle: 1,
    time: '2025-01-01T00:00:01.000000Z',
    profile: 'default-scheduler',
    numAllNodes: n,
    numNodesToFind: n,
    evaluatedNodes: n,
    feasibleNodes: n,
    nodes,
    selected: best,
    message: '',
    outcome: 'Scheduled',
  };
}
