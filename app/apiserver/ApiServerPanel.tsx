// The API server view: every request kube-apiserver-0 received, newest first,
// filterable by user, verb, resource and outcome. Selecting one opens its
// chain of stages in the inspector.
import { memo, useMemo } from 'react';
import type { RequestRecord } from '../../engine/apiserver/records/types';
import { formatT } from '../lib/format';
import { select, useUi } from '../store/uiStore';
import { codeClass, formatLatency } from './format';
import {
  NO_FILTERS,
  ROWS_SHOWN,
  clearRequestFilters,
  countOutcomes,
  filterChoices,
  filterRequests,
  latencyOf,
  objectOf,
  outcomeOf,
  pinRequest,
  resourceOf,
  setRequestFilter,
  useRequests,
  type Outcome,
  type OutcomeFilter,
} from './requestStore';

export function selectRequest(r: RequestRecord): void {
  pinRequest(r);
  select({ type: 'request', id: r.id });
}

const OUTCOME_LABEL: Record<OutcomeFilter, string> = {
  all: 'all outcomes',
  allowed: 'allowed',
  denied: 'denied',
  error: 'errors',
  inflight: 'in flight',
  '2xx': '2xx',
  '4xx': '4xx',
  '5xx': '5xx',
};

const CODE_CLASSES: OutcomeFilter[] = ['2xx', '4xx', '5xx'];

const OUTCOME_ICON: Record<Outcome, string> = { allowed: '✓', denied: '⊘', error: '✕', inflight: '…' };

export function ApiServerPanel() {
  const list = useRequests((s) => s.list);
  const filters = useRequests((s) => s.filters);
  const rows = useMemo(() => filterRequests(list, filters), [list, filters]);
  const choices = useMemo(() => filterChoices(list), [list]);
  const counts = useMemo(() => countOutcomes(list), [list]);
  const selectedId = useUi((s) => (s.selection?.type === 'request' ? s.selection.id : null));
  const filtered = filters !== NO_FILTERS && (filters.user || filters.verb || filters.resource || filters.outcome !== 'all');
  return (
    <div className="apiserver-panel">
      <div className="api-toolbar" role="group" aria-label="Request filters">
        <FilterSelect label="User" value={filters.user} options={choices.users} onChange={(v) => setRequestFilter('user', v)} />
        <FilterSelect label="Verb" value={filters.verb} options={choices.verbs} onChange={(v) => setRequestFilter('verb', v)} />
        <FilterSelect label="Resource" value={filters.resource} options={choices.resources} onChange={(v) => setRequestFilter('resource', v)} />
        <label className="inline f-code">
          <span className="muted">Code</span>
          <select
            aria-label="Status code class"
            value={CODE_CLASSES.includes(filters.outcome) ? filters.outcome : ''}
            onChange={(e) => setRequestFilter('outcome', (e.target.value || 'all') as OutcomeFilter)}
          >
            <option value="">any</option>
            {CODE_CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="api-summary" role="group" aria-label="Outcomes">
        {(['allowed', 'denied', 'error', 'inflight'] as Outcome[]).map((o) => (
          <button
            key={o}
            type="button"
            className={`outcome-chip o-${o}${filters.outcome === o ? ' active' : ''}`}
            aria-pressed={filters.outcome === o}
            onClick={() => setRequestFilter('outcome', filters.outcome === o ? 'all' : o)}
            title={`Show only ${OUTCOME_LABEL[o]}`}
          >
            <span aria-hidden="true">{OUTCOME_ICON[o]}</span> {counts[o]} {o === 'error' && counts[o] === 1 ? 'error' : OUTCOME_LABEL[o]}
          </button>
        ))}
        {filtered && (
          <button type="button" className="small ghost clear-filters" onClick={clearRequestFilters}>
            Clear filters
          </button>
        )}
        <span className="spacer" />
        <span className="muted small-count">
          {rows.length === ROWS_SHOWN ? `newest ${ROWS_SHOWN} of ${list.length}` : `${rows.length} of ${list.length}`} kept
        </span>
      </div>
      <div className="api-scroll" role="region" aria-label="API requests" tabIndex={0}>
        <table className="data requests">
          <colgroup>
            <col className="c-time" />
            <col className="c-user" />
            <col className="c-verb" />
            <col />
            <col className="c-code" />
            <col className="c-lat" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className="num">
                time
              </th>
              <th scope="col">user</th>
              <th scope="col">verb</th>
              <th scope="col">resource</th>
              <th scope="col" className="num">
                code
              </th>
              <th scope="col" className="num">
                latency
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <Row key={r.id} r={r} selected={r.id === selectedId} />
            ))}
          </tbody>
        </table>
        {rows.length === 0 && (
          <p className="muted empty-note api-empty">
            {list.length === 0 ? (
              <>
                No API requests yet. Run <code>kubectl get ns</code> in the Terminal, or Apply a manifest from the Editor.
              </>
            ) : (
              'No requests match the filters.'
            )}
          </p>
        )}
      </div>
    </div>
  );
}

function FilterSelect({ label, value, options, onChange }: { label: string; value: string; options: string[]; onChange: (v: string) => void }) {
  // Keep a chosen value listed even when it has scrolled out of the records.
  const all = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <label className={`inline f-${label.toLowerCase()}`}>
      <span className="muted">{label}</span>
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">all</option>
        {all.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

const Row = memo(function Row({ r, selected }: { r: RequestRecord; selected: boolean }) {
  const outcome = outcomeOf(r);
  const resource = resourceOf(r);
  const object = objectOf(r);
  const code = r.code === 0 ? '…' : String(r.code);
  return (
    <tr
      className={`o-${outcome}${selected ? ' selected' : ''}`}
      aria-selected={selected}
      onClick={() => selectRequest(r)}
      data-request-id={r.id}
      data-outcome={outcome}
    >
      <td className="num mono">
        <button
          type="button"
          className="link row-button"
          onClick={(e) => {
            e.stopPropagation();
            selectRequest(r);
          }}
          aria-label={`Inspect request ${r.id}: ${r.user} ${r.verb} ${resource}${object ? ` ${object}` : ''} ${r.code === 0 ? 'in flight' : r.code}`}
        >
          {formatT(r.at)}
        </button>
      </td>
      <td className="ellipsis" title={[r.user, ...r.groups].join('\n')}>
        {r.user}
      </td>
      <td className={`verb v-${r.verb}`}>{r.verb}</td>
      <td className="ellipsis" title={`${r.method} ${r.path}`}>
        <span>{resource}</span>
        {object && <span className="muted mono obj"> {object}</span>}
      </td>
      <td className="num">
        <span className={`code-badge c-${codeClass(r.code)} o-${outcome}`}>{code}</span>
      </td>
      <td className="num mono">{formatLatency(latencyOf(r))}</td>
    </tr>
  );
});
