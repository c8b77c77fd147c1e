// Every event in the cluster, newest first, as `kubectl get events -o wide`
// prints them (upstream's reasons and messages, as the components recorded
// them), filtered by the object they are about, their type and reason. A row's
// object opens in the inspector.
import { useId } from 'react';
import type { EventStreamRow } from '../../engine/host/protocol';
import { useClockPolling } from '../lib/useClockPolling';
import { formatT } from '../lib/format';
import { selectObject, useSelectedObject, useUi, sameRef } from '../store/uiStore';
import { eventsPoller } from './eventsClient';
import { useEvents } from './eventsStore';

const POLL_MS = 500;

export function EventsPanel() {
  const visible = useUi((s) => s.centreTab === 'events');
  useClockPolling(visible, () => eventsPoller.refresh(), POLL_MS);
  const view = useEvents((s) => s.view);
  const error = useEvents((s) => s.error);
  return (
    <div className="events-panel">
      <Filters />
      <p className="ev-count muted" aria-live="polite" data-testid="events-count">
        {error
          ? error
          : view
            ? `${view.rows.length < view.matched ? `newest ${view.rows.length} of ` : ''}${view.matched} matching event${view.matched === 1 ? '' : 's'} · ${view.total} stored`
            : 'Waiting for the API server…'}
      </p>
      <div className="ev-table-wrap">
        <table className="data ev-table" aria-label="Events">
          <thead>
            <tr>
              <th scope="col">Last seen</th>
              <th scope="col">Type</th>
              <th scope="col">Reason</th>
              <th scope="col">Object</th>
              <th scope="col" className="ev-msg">
                Message
              </th>
              <th scope="col" className="ev-src">
                Source
              </th>
              <th scope="col" className="num">
                Count
              </th>
            </tr>
          </thead>
          <tbody>
            {view?.rows.map((r) => (
              <Row key={r.key} r={r} />
            ))}
          </tbody>
        </table>
        {view && view.rows.length === 0 && <p className="muted empty-note">No events match.</p>}
      </div>
    </div>
  );
}

/**
 * One event. In a narrow panel the message leaves its column for a line of its
 * own under the row, with its source (CSS shows one of the two), so it is read
 * whole instead of clipped at the panel's edge.
 */
function Row({ r }: { r: EventStreamRow }) {
  const selected = useSelectedObject();
  const cls = `${r.type === 'Warning' ? 'warning' : ''}${sameRef(selected, r.ref) ? ' selected' : ''}`;
  return (
    <>
      <Cells r={r} cls={cls} />
      <tr className={`ev-msg-row ${cls}`} aria-hidden="true">
        <td colSpan={7}>
          {r.message} <span className="muted">— {r.source.split(', ')[0]}</span>
        </td>
      </tr>
    </>
  );
}

function Cells({ r, cls }: { r: EventStreamRow; cls: string }) {
  return (
    <tr data-reason={r.reason} data-type={r.type} className={cls}>
      <td className="nowrap" title={`virtual time ${formatT(r.at)}; first seen ${r.firstSeen} ago`}>
        {r.lastSeen}
      </td>
      <td>{r.type === 'Warning' ? <span className="cl-warn">⚠ Warning</span> : r.type}</td>
      <td className="mono">{r.reason}</td>
      <td className="mono ev-obj">
        {r.ref ? (
          <button type="button" className="link" onClick={() => selectObject(r.ref!)} title={r.involved.namespace ? `${r.object} in namespace ${r.involved.namespace}` : r.object}>
            {r.object}
          </button>
        ) : (
          <span title={r.object}>{r.object}</span>
        )}
      </td>
      <td className="ev-msg">{r.message}</td>
      <td className="nowrap ev-src" title={r.source}>
        {r.source.split(', ')[0]}
      </td>
      <td className="num">{r.count}</td>
    </tr>
  );
}

function Filters() {
  const id = useId();
  const filter = useEvents((s) => s.filter);
  const view = useEvents((s) => s.view);
  const kinds = view?.kinds ?? [];
  const reasons = view?.reasons ?? [];
  const text = (k: 'namespace' | 'name', label: string, placeholder: string) => (
    <label className="ev-filter">
      <span>{label}</span>
      <input type="search" value={filter[k] ?? ''} placeholder={placeholder} onChange={(e) => eventsPoller.setFilter({ [k]: e.target.value })} aria-label={`Filter events by object ${k}`} />
    </label>
  );
  return (
    <div className="ev-filters toolbar" role="group" aria-label="Event filters">
      <label className="ev-filter" htmlFor={`${id}-kind`}>
        <span>Kind</span>
        <select id={`${id}-kind`} value={filter.kind ?? ''} onChange={(e) => eventsPoller.setFilter({ kind: e.target.value })} aria-label="Filter events by object kind">
          <option value="">any</option>
          {withSelected(kinds, filter.kind).map(([k, n]) => (
            <option key={k} value={k}>
              {k} ({n})
            </option>
          ))}
        </select>
      </label>
      {text('namespace', 'Namespace', 'any')}
      {text('name', 'Name', 'starts with…')}
      <label className="ev-filter">
        <span>Type</span>
        <select value={filter.type ?? ''} onChange={(e) => eventsPoller.setFilter({ type: e.target.value })} aria-label="Filter events by type">
          <option value="">any</option>
          <option value="Normal">Normal</option>
          <option value="Warning">Warning</option>
        </select>
      </label>
      <label className="ev-filter">
        <span>Reason</span>
        <select value={filter.reason ?? ''} onChange={(e) => eventsPoller.setFilter({ reason: e.target.value })} aria-label="Filter events by reason">
          <option value="">any</option>
          {withSelected(reasons, filter.reason).map(([k, n]) => (
            <option key={k} value={k}>
              {k} ({n})
            </option>
          ))}
        </select>
      </label>
      {Object.keys(filter).length > 0 && (
        <button type="button" className="small" onClick={() => eventsPoller.setFilter({ kind: '', namespace: '', name: '', type: '', reason: '' })}>
          Clear filters
        </button>
      )}
    </div>
  );
}

/** The facet's values, with the chosen one kept even when no event has it now. */
function withSelected(facet: [string, number][], chosen: string | undefined): [string, number][] {
  return chosen && !facet.some(([k]) => k === chosen) ? [...facet, [chosen, 0]] : facet;
}
