// The scoring table's model: one decision (DecisionJson) turned into rows
// (nodes) and columns (Filter plugins, then Score plugins), sorted by any
// column, and the window of rows a virtualised list draws. Pure data, tested.
import type { DecisionJson } from '../../engine/host/protocol';
import type { ScoreInputs } from '../../engine/scheduler/records/types';

export type ScoreMode = 'raw' | 'normalized' | 'weighted';
export const SCORE_MODES: readonly ScoreMode[] = ['raw', 'normalized', 'weighted'];

/** What one Filter plugin said about one node. */
export type FilterState = 'pass' | 'fail' | 'skip' | 'notRun';

export interface PluginScore {
  raw: number;
  normalized: number;
  weight: number;
  weighted: number;
}

export interface NodeRow {
  node: string;
  /** Position in the scheduler's evaluation order (round-robin from startIndex). */
  order: number;
  filters: Record<string, string>;
  /** The Filter plugin that rejected the node, and its reason. */
  failedPlugin: string | null;
  reason: string;
  scores: Record<string, PluginScore> | null;
  total: number | null;
  /** Score plugin → what its raw score was computed from, when the decision kept it. */
  inputs: Record<string, ScoreInputs>;
  winner: boolean;
  nominated: boolean;
}

export interface TableModel {
  filterPlugins: string[];
  scorePlugins: string[];
  rows: NodeRow[];
}

export function filterState(row: NodeRow, plugin: string): FilterState {
  const v = row.filters[plugin];
  if (v === undefined) return 'notRun';
  if (v === 'Success') return 'pass';
  if (v === 'Skip') return 'skip';
  return 'fail';
}

/**
 * Column order: the Filter plugins in the order they ran (a node rejected early
 * lists fewer, so merge every node's order), then the Score plugins.
 */
export function buildTable(d: DecisionJson): TableModel {
  const filterPlugins: string[] = [];
  const seenFilters = new Set<string>();
  const scorePlugins: string[] = [];
  const seenScores = new Set<string>();
  const rows: NodeRow[] = [];
  let order = 0;
  for (const [node, n] of Object.entries(d.nodes)) {
    let prev = -1;
    let failedPlugin: string | null = null;
    let reason = '';
    for (const [plugin, verdict] of Object.entries(n.filters)) {
      if (!seenFilters.has(plugin)) {
        seenFilters.add(plugin);
        filterPlugins.splice(prev + 1, 0, plugin);
      }
      prev = filterPlugins.indexOf(plugin);
      if (failedPlugin === null && verdict !== 'Success' && verdict !== 'Skip') {
        failedPlugin = plugin;
        reason = verdict;
      }
    }
    if (n.scores) {
      for (const p of Object.keys(n.scores)) {
        if (!seenScores.has(p)) {
          seenScores.add(p);
          scorePlugins.push(p);
        }
      }
    }
    rows.push({
      node,
      order: order++,
      filters: n.filters,
      failedPlugin,
      reason,
      scores: n.scores ?? null,
      total: n.total ?? null,
      inputs: n.inputs ?? {},
      winner: d.selected !== '' && node === d.selected,
      nominated: d.nominatedNode === node,
    });
  }
  return { filterPlugins, scorePlugins, rows };
}

/**
 * Filter plugins that PreFilter switched off for this pod (Skip on every node
 * that reached them): they say nothing about any node.
 */
export function skippedEverywhere(t: TableModel): string[] {
  return t.filterPlugins.filter((p) => {
    let skipped = false;
    for (const r of t.rows) {
      const st = filterState(r, p);
      if (st === 'pass' || st === 'fail') return false;
      if (st === 'skip') skipped = true;
    }
    return skipped;
  });
}

/** A column's sort key: `node`, `total`, `order`, `f:<Filter plugin>` or `s:<Score plugin>`. */
export type SortKey = 'node' | 'total' | 'order' | `f:${string}` | `s:${string}`;

export interface SortSpec {
  key: SortKey;
  dir: 'asc' | 'desc';
}

/** Best first: the highest total (the winner among equals), infeasible nodes after in evaluation order. */
export const DEFAULT_SORT: SortSpec = { key: 'total', dir: 'desc' };

const collator = new Intl.Collator('en', { numeric: true });

const FILTER_RANK: Record<FilterState, number> = { pass: 0, skip: 1, notRun: 2, fail: 3 };

export function scoreValue(s: PluginScore | undefined, mode: ScoreMode): number | null {
  return s ? s[mode] : null;
}

/** Sorted copy. Missing values (an infeasible node has no scores) go last in either direction. */
export function sortRows(rows: readonly NodeRow[], sort: SortSpec, mode: ScoreMode): NodeRow[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  const byName = (a: NodeRow, b: NodeRow) => collator.compare(a.node, b.node);
  // Ties: the better total, then the winner, then evaluation order.
  const tie = (a: NodeRow, b: NodeRow) =>
    (b.total ?? -Infinity) - (a.total ?? -Infinity) || Number(b.winner) - Number(a.winner) || a.order - b.order;
  const numeric = (get: (r: NodeRow) => number | null) => (a: NodeRow, b: NodeRow) => {
    const x = get(a);
    const y = get(b);
    if (x === null || y === null) return x === y ? tie(a, b) : x === null ? 1 : -1;
    return sign * (x - y) || tie(a, b);
  };
  let cmp: (a: NodeRow, b: NodeRow) => number;
  const k = sort.key;
  if (k === 'node') cmp = (a, b) => sign * byName(a, b);
  else if (k === 'order') cmp = (a, b) => sign * (a.order - b.order);
  else if (k === 'total') cmp = numeric((r) => r.total);
  else if (k.startsWith('s:')) {
    const p = k.slice(2);
    cmp = numeric((r) => scoreValue(r.scores?.[p], mode));
  } else {
    const p = k.slice(2);
    cmp = (a, b) => sign * (FILTER_RANK[filterState(a, p)] - FILTER_RANK[filterState(b, p)]) || (a.reason && b.reason ? collator.compare(a.reason, b.reason) : 0) || tie(a, b);
  }
  return [...rows].sort(cmp);
}

/** Clicking a column: the same column flips direction; a new one starts where it is most useful. */
export function nextSort(current: SortSpec, key: SortKey): SortSpec {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  const startsDesc = key === 'total' || key.startsWith('s:') || key.startsWith('f:');
  return { key, dir: startsDesc ? 'desc' : 'asc' };
}

export interface RowWindow {
  /** First row drawn and one past the last. */
  start: number;
  end: number;
  /** Empty space above and below the drawn rows, px. */
  padTop: number;
  padBottom: number;
}

/** Which rows a virtualised list of fixed-height rows draws for a scroll position. */
export function rowWindow(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 8): RowWindow {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + Math.max(viewport, rowHeight)) / rowHeight) + overscan);
  const start = Math.min(first, count);
  const end = Math.max(start, last);
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight };
}

/** Integers as integers; fractions with at most two decimals. */
export function formatScore(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, '');
}

/** Short column headings (the full plugin name is the header's title and accessible name). */
const SHORT: Record<string, string> = {
  NodeUnschedulable: 'Unsched',
  NodeName: 'Name',
  TaintToleration: 'Taints',
  NodeAffinity: 'Affinity',
  NodePorts: 'Ports',
  NodeResourcesFit: 'Fit',
  VolumeRestrictions: 'VolRestr',
  NodeVolumeLimits: 'VolLimit',
  EBSLimits: 'EBS',
  GCEPDLimits: 'GCEPD',
  AzureDiskLimits: 'AzDisk',
  VolumeBinding: 'VolBind',
  VolumeZone: 'VolZone',
  PodTopologySpread: 'Spread',
  InterPodAffinity: 'PodAff',
  NodeResourcesBalancedAllocation: 'Balanced',
  ImageLocality: 'Image',
  SchedulingGates: 'Gates',
  DynamicResources: 'DRA',
};

export function shortName(plugin: string): string {
  return SHORT[plugin] ?? (plugin.length > 9 ? `${plugin.slice(0, 8)}…` : plugin);
}

/** How many nodes a decision covered, in words: "evaluated 100 of 500 nodes (numNodesToFind 100); 98 feasible". */
export function coverageText(d: DecisionJson): string {
  const all = d.numAllNodes;
  const ev = d.evaluatedNodes;
  const parts = [`evaluated ${ev} of ${all} node${all === 1 ? '' : 's'}`];
  if (d.scoringSkipped?.startsWith('no Score plugins')) parts[0] += ' (no Score plugins: stop at the first feasible)';
  else if (d.numNodesToFind < all) parts[0] += ` (percentageOfNodesToScore: stop after ${d.numNodesToFind} feasible)`;
  parts.push(`${d.feasibleNodes} feasible`);
  return parts.join('; ');
}
