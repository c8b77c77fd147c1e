// The scoring table of one decision: nodes as rows; each Filter plugin's
// verdict, then each Score plugin's raw / normalized / weighted score, then
// the total. Rows are virtualised (only the visible ones are in the DOM) so
// thousands of nodes scroll smoothly; any column sorts; hovering a score
// explains it.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import type { DecisionJson } from '../../engine/host/protocol';
import type { ProfileScoring } from './configInfo';
import { columnStats, explainScore, explainTotal, scoreColumnStats, type ColumnStats, type Explanation } from './explain';
import { setNodeFilter, setScoreMode, setShowSkipped, sortBy, useScheduler } from './schedulerStore';
import {
  SCORE_MODES,
  buildTable,
  filterState,
  skippedEverywhere,
  formatScore,
  rowWindow,
  scoreValue,
  shortName,
  sortRows,
  type NodeRow,
  type ScoreMode,
  type SortKey,
  type SortSpec,
} from './table';

export const ROW_HEIGHT = 24;
/** The two header rows (group names, then plugin names set vertically). */
const HEAD_HEIGHT = 22 + 72;
/** The node column fits the longest name (monospace), within bounds. */
export function nodeColumnWidth(names: readonly string[]): number {
  let longest = 0;
  for (const n of names) if (n.length > longest) longest = n.length;
  return Math.min(220, Math.max(84, Math.ceil(longest * 7.4) + 36));
}
const FILTER_COL = 25;
const SCORE_COL = 44;
const TOTAL_COL = 54;

const MODE_LABEL: Record<ScoreMode, string> = { raw: 'Raw', normalized: 'Normalized', weighted: 'Weighted' };

interface Hover {
  node: string;
  /** A Score plugin, or '' for the total. */
  plugin: string;
  left: number;
  top: number;
  bottom: number;
}

export function ScoreTable({ decision, scoring }: { decision: DecisionJson; scoring: ProfileScoring }) {
  const mode = useScheduler((s) => s.mode);
  const sort = useScheduler((s) => s.sort);
  const nodeFilter = useScheduler((s) => s.nodeFilter);
  const showSkipped = useScheduler((s) => s.showSkipped);
  const model = useMemo(() => buildTable(decision), [decision]);
  const rows = useMemo(() => {
    const f = nodeFilter.trim();
    const shown = f ? model.rows.filter((r) => r.node.includes(f)) : model.rows;
    return sortRows(shown, sort, mode);
  }, [model, nodeFilter, sort, mode]);
  const stats = useMemo(() => scoreColumnStats(model), [model]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ top: 0, left: 0, height: 400, width: 600 });
  const frame = useRef(0);
  const measure = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setViewport({ top: el.scrollTop, left: el.scrollLeft, height: el.clientHeight, width: el.clientWidth }));
  }, []);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    setViewport({ top: el.scrollTop, left: el.scrollLeft, height: el.clientHeight, width: el.clientWidth });
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => {
      ro.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, [measure]);
  const win = rowWindow(Math.max(0, viewport.top - HEAD_HEIGHT), viewport.height, ROW_HEIGHT, rows.length);

  const [hover, setHover] = useState<Hover | null>(null);
  const onOver = (e: ReactMouseEvent) => {
    const td = (e.target as Element).closest<HTMLElement>('[data-score]');
    if (!td) {
      if (hover) setHover(null);
      return;
    }
    const node = td.dataset.node ?? '';
    const plugin = td.dataset.score ?? '';
    if (hover && hover.node === node && hover.plugin === plugin) return;
    const r = td.getBoundingClientRect();
    setHover({ node, plugin, left: r.left, top: r.top, bottom: r.bottom });
  };
  // A new decision or order moves the cells: the hovered one is gone.
  useEffect(() => setHover(null), [decision, rows]);

  // Filter plugins PreFilter switched off for this pod say nothing about any node: hidden unless asked for.
  const skippedFilters = useMemo(() => skippedEverywhere(model), [model]);
  const filters = useMemo(() => (showSkipped ? model.filterPlugins : model.filterPlugins.filter((p) => !skippedFilters.includes(p))), [model, showSkipped, skippedFilters]);
  const F = filters.length;
  const S = model.scorePlugins.length;
  const NODE_COL = useMemo(() => nodeColumnWidth(model.rows.map((r) => r.node)), [model]);
  const width = NODE_COL + F * FILTER_COL + S * SCORE_COL + TOTAL_COL;
  /** Room for a rejection's reason: from where its text sits (it sticks beside the node column) to the right edge. */
  const reasonRoom = (failAt: number) => viewport.width - Math.max(NODE_COL, NODE_COL + failAt * FILTER_COL - viewport.left) - 12;
  const hoverRow = hover ? model.rows.find((r) => r.node === hover.node) : undefined;
  const explanation = hover && hoverRow?.scores ? explain(hover.plugin, hoverRow, stats, scoring, decision.inputsDropped === true) : null;

  return (
    <div className="sched-table-wrap">
      <div className="sched-table-tools" role="group" aria-label="Scoring table options">
        <div className="segmented" role="radiogroup" aria-label="Score values" onKeyDown={onModeKey}>
          {SCORE_MODES.map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              id={`score-mode-${m}`}
              aria-checked={mode === m}
              tabIndex={mode === m ? 0 : -1}
              className={mode === m ? 'active' : ''}
              onClick={() => setScoreMode(m)}
            >
              {MODE_LABEL[m]}
            </button>
          ))}
        </div>
        <input type="search" className="node-filter" aria-label="Find node" placeholder="Find node…" value={nodeFilter} onChange={(e) => setNodeFilter(e.target.value)} />
        {(skippedFilters.length > 0 || showSkipped) && (
          <label className="check skipped-toggle" title={`Filter plugins PreFilter skipped for this pod: ${skippedFilters.join(', ') || 'none'}`}>
            <input type="checkbox" checked={showSkipped} onChange={(e) => setShowSkipped(e.target.checked)} /> {skippedFilters.length} skipped filter{skippedFilters.length === 1 ? '' : 's'}
          </label>
        )}
        <span className="spacer" />
        <span className="sched-legend muted" aria-label="Legend">
          <span className="f-pass">✓</span> passed <span className="f-fail">✕</span> rejected <span className="f-skip">–</span> skipped <span className="winner-mark">★</span> selected
        </span>
      </div>
      <div
        className="sched-table-scroll"
        ref={scrollRef}
        onScroll={() => {
          measure();
          setHover(null);
        }}
        role="region"
        aria-label="Scoring table"
        tabIndex={0}
        onMouseLeave={() => setHover(null)}
        style={{ '--node-col': `${NODE_COL}px` } as CSSProperties}
      >
        <table className="sched-table" style={{ width: '100%', minWidth: width }} aria-rowcount={rows.length + 2} aria-colcount={2 + F + S}>
          <colgroup>
            <col style={{ width: NODE_COL }} />
            {filters.map((p) => (
              <col key={p} style={{ width: FILTER_COL }} />
            ))}
            {model.scorePlugins.map((p) => (
              <col key={p} style={{ width: SCORE_COL }} />
            ))}
            <col style={{ width: TOTAL_COL }} />
            {/* Takes what is left of the width, so rows (and rejection reasons) reach the right edge. */}
            <col />
          </colgroup>
          <thead>
            <tr className="group-row" aria-rowindex={1}>
              <th scope="col" className="corner">
                {rows.length === model.rows.length ? `${rows.length} node${rows.length === 1 ? '' : 's'}` : `${rows.length} of ${model.rows.length}`}
              </th>
              {F > 0 && (
                <th scope="colgroup" colSpan={F} className="group g-filter">
                  Filter
                </th>
              )}
              {S > 0 && (
                <th scope="colgroup" colSpan={S} className="group g-score">
                  Score · {MODE_LABEL[mode].toLowerCase()}
                </th>
              )}
              <th scope="col" className="group g-total" aria-hidden="true" />
              <th className="filler" aria-hidden="true" />
            </tr>
            <tr className="plugin-row" aria-rowindex={2}>
              <SortHeader k="node" sort={sort} label="Node" title="Node name" className="h-node" />
              {filters.map((p) => (
                <SortHeader key={p} k={`f:${p}`} sort={sort} label={shortName(p)} title={`${p} (Filter)`} className="h-filter" />
              ))}
              {model.scorePlugins.map((p) => (
                <SortHeader key={p} k={`s:${p}`} sort={sort} label={shortName(p)} title={`${p} (Score, weight ${weightOf(model.rows, p)})`} className="h-score num" />
              ))}
              <SortHeader k="total" sort={sort} label="Total" title="Total: Σ normalized × weight" className="h-total num" />
              <th className="filler" aria-hidden="true" />
            </tr>
          </thead>
          <tbody onMouseOver={onOver}>
            {win.padTop > 0 && <tr className="pad" style={{ height: win.padTop }} aria-hidden="true" />}
            {rows.slice(win.start, win.end).map((r, i) => (
              <Row
                key={r.node}
                r={r}
                index={win.start + i}
                filters={filters}
                scores={model.scorePlugins}
                mode={mode}
                skipped={decision.scoringSkipped}
                reasonMax={r.failedPlugin === null ? 0 : reasonRoom(filters.indexOf(r.failedPlugin))}
              />
            ))}
            {win.padBottom > 0 && <tr className="pad" style={{ height: win.padBottom }} aria-hidden="true" />}
          </tbody>
        </table>
        {rows.length === 0 && <p className="muted empty-note table-empty">{model.rows.length === 0 ? 'No node was evaluated in this cycle.' : 'No node matches.'}</p>}
      </div>
      {hover && explanation && <ScoreTip hover={hover} ex={explanation} />}
    </div>
  );
}

/** Arrow keys move the choice within the radio group, as radio buttons do. */
function onModeKey(e: ReactKeyboardEvent): void {
  const d = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
  if (d === 0) return;
  e.preventDefault();
  const i = SCORE_MODES.indexOf(useScheduler.getState().mode);
  const next = SCORE_MODES[(i + d + SCORE_MODES.length) % SCORE_MODES.length]!;
  setScoreMode(next);
  document.getElementById(`score-mode-${next}`)?.focus();
}

function weightOf(rows: readonly NodeRow[], plugin: string): string {
  for (const r of rows) {
    const s = r.scores?.[plugin];
    if (s) return formatScore(s.weight);
  }
  return '?';
}

function explain(plugin: string, row: NodeRow, stats: Map<string, ColumnStats>, scoring: ProfileScoring, inputsDropped: boolean): Explanation | null {
  if (!row.scores) return null;
  if (plugin === '') return row.total === null ? null : explainTotal(row.scores, row.total);
  const s = row.scores[plugin];
  return s ? explainScore(plugin, s, stats.get(plugin) ?? columnStats([]), scoring, row.inputs[plugin], inputsDropped) : null;
}

function SortHeader({ k, sort, label, title, className }: { k: SortKey; sort: SortSpec; label: string; title: string; className: string }) {
  const active = sort.key === k;
  return (
    <th scope="col" className={className} aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} title={title}>
      <button type="button" className="sort-button" onClick={() => sortBy(k)} aria-label={`Sort by ${title}`}>
        <span className="sort-label">{label}</span>
        <span className="sort-arrow" aria-hidden="true">
          {active ? (sort.dir === 'asc' ? '▲' : '▼') : ''}
        </span>
      </button>
    </th>
  );
}

const Row = memo(function Row({
  r,
  index,
  filters,
  scores,
  mode,
  skipped,
  reasonMax,
}: {
  r: NodeRow;
  index: number;
  filters: string[];
  scores: string[];
  mode: ScoreMode;
  skipped: string | undefined;
  /** Width the rejection's reason may take, px. */
  reasonMax: number;
}) {
  const failAt = r.failedPlugin === null ? -1 : filters.indexOf(r.failedPlugin);
  const cls = r.winner ? 'winner' : r.failedPlugin ? 'infeasible' : 'feasible';
  const cells: ReactNode[] = [];
  for (let i = 0; i < filters.length; i++) {
    const p = filters[i]!;
    if (i === failAt) {
      // The rejecting plugin's reason runs across the columns that never ran for this node.
      cells.push(
        <td key={p} className="f-fail reason" colSpan={filters.length - i + scores.length + 2} title={`${p}: ${r.reason}`} data-plugin={p}>
          <span className="reason-text" style={{ maxWidth: Math.max(80, reasonMax) }}>
            <span aria-hidden="true">✕ </span>
            <span className="reason-plugin">{p}:</span> {r.reason}
          </span>
        </td>,
      );
      break;
    }
    const st = filterState(r, p);
    cells.push(
      <td key={p} className={`f-${st} f-cell`} data-plugin={p} title={st === 'pass' ? `${p}: Success` : st === 'skip' ? `${p}: Skip (PreFilter said this plugin has nothing to check)` : `${p}: not run`}>
        {st === 'pass' ? '✓' : st === 'skip' ? '–' : ''}
      </td>,
    );
  }
  if (failAt < 0) {
    if (!r.scores) {
      cells.push(
        <td key="noscore" className="muted no-score" colSpan={scores.length + 2} title={skipped ?? 'not scored'}>
          {skipped ? `not scored: ${skipped}` : 'not scored'}
        </td>,
      );
    } else {
      for (const p of scores) {
        const v = scoreValue(r.scores[p], mode);
        cells.push(
          <td key={p} className="num score" data-score={p} data-node={r.node}>
            {v === null ? '' : formatScore(v)}
          </td>,
        );
      }
      cells.push(
        <td key="total" className="num total" data-score="" data-node={r.node}>
          {r.total === null ? '' : formatScore(r.total)}
        </td>,
        <td key="filler" className="filler" />,
      );
    }
  }
  return (
    <tr className={cls} aria-rowindex={index + 3} data-node={r.node}>
      <th scope="row" className="node-cell" title={r.node}>
        {r.winner && (
          <span className="winner-mark" aria-label="selected node" title="Selected: the highest total">
            ★{' '}
          </span>
        )}
        <span className="node-name">{r.node}</span>
        {r.nominated && (
          <span className="nominated-mark" title="Nominated node (from preemption)">
            {' '}
            ⚑
          </span>
        )}
      </th>
      {cells}
    </tr>
  );
});

function ScoreTip({ hover, ex }: { hover: Hover; ex: Explanation }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = Math.max(8, Math.min(hover.left, window.innerWidth - w - 8));
    const below = hover.bottom + 6;
    const top = below + h > window.innerHeight - 8 ? Math.max(8, hover.top - h - 6) : below;
    setPos({ left, top });
  }, [hover, ex]);
  return (
    <div ref={ref} className="score-tip" role="tooltip" style={pos ? { left: pos.left, top: pos.top } : { left: -10000, top: 0 }}>
      <div className="tip-title">
        {ex.title} <span className="muted">on {hover.node}</span>
      </div>
      <dl className="tip-facts">
        {ex.facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd className="mono">{v}</dd>
          </div>
        ))}
      </dl>
      {ex.formula.map((f, i) => (
        <p key={i} className="tip-formula mono">
          {f}
        </p>
      ))}
      {ex.worked.map((f, i) => (
        <p key={`w${i}`} className="tip-worked mono">
          {f}
        </p>
      ))}
      {ex.note && <p className="tip-note muted">{ex.note}</p>}
    </div>
  );
}
