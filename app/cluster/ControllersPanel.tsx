// kube-controller-manager's controllers: each one's work queue (depth now,
// adds, rate-limited retries, mean wait) and its last reconcile at a glance;
// for the chosen one, its recent reconciles with what they did, each key a
// link to its object. The section folds away to give the map room.
import type { ControllersView } from '../../engine/host/protocol';
import { formatT } from '../lib/format';
import { selectObject } from '../store/uiStore';
import { selectController, useCluster } from './clusterStore';

type Controller = ControllersView['controllers'][number];
type Reconcile = Controller['recent'][number];

export function formatMs(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** The controller shown by default: the one whose newest reconcile is the latest. */
export function mostRecentlyActive(cs: Controller[]): string | null {
  let best: Controller | null = null;
  let bestT = -1;
  for (const c of cs) {
    const t = c.recent[c.recent.length - 1]?.t ?? -1;
    if (t > bestT) {
      bestT = t;
      best = c;
    }
  }
  return best?.name ?? cs[0]?.name ?? null;
}

function KeyLink({ r }: { r: Reconcile }) {
  if (!r.ref) return <span className="mono">{r.key}</span>;
  return (
    <button type="button" className="link mono" onClick={() => selectObject(r.ref!)} aria-label={`Inspect ${r.ref.resource} ${r.key}`}>
      {r.key}
    </button>
  );
}

export function ControllersPanel({ open = true, onToggle }: { open?: boolean; onToggle?: () => void }) {
  const view = useCluster((s) => s.controllers);
  const chosen = useCluster((s) => s.selectedController);
  const header = (
    <div className="cl-ctl-head">
      <h2 className="cl-h">Controllers</h2>
      {view && (
        <span className="muted">
          {view.controllers.length} in kube-controller-manager · {view.controllers.reduce((n, c) => n + c.depth, 0)} keys queued
        </span>
      )}
      {onToggle && (
        <button type="button" className="small" onClick={onToggle} aria-expanded={open} aria-label={open ? 'Hide the controllers' : 'Show the controllers'}>
          {open ? 'Hide' : 'Show'}
        </button>
      )}
    </div>
  );
  if (!view) {
    return (
      <section className="cl-controllers" aria-label="Controllers">
        {header}
        <p className="muted">kube-controller-manager is not running (or has no leader yet).</p>
      </section>
    );
  }
  const cs = view.controllers;
  const selected = cs.find((c) => c.name === chosen)?.name ?? mostRecentlyActive(cs);
  const sel = cs.find((c) => c.name === selected);
  return (
    <section className={`cl-controllers${open ? '' : ' closed'}`} aria-label="Controllers">
      {header}
      {open && (
        <div className="cl-ctl-body">
          <div className="cl-ctl-table-wrap">
            <table className="cl-ctl-table" aria-label="Controller queues">
              <thead>
                <tr>
                  <th scope="col">Controller</th>
                  <th scope="col" title="workqueue_depth: keys waiting now">Depth</th>
                  <th scope="col" title="workqueue_adds_total">Adds</th>
                  <th scope="col" title="workqueue_retries_total: keys put back with a delay (AddAfter): rate-limited retries after a failed sync, and requeues for a later time">Retries</th>
                  <th scope="col" title="Mean time a key waited in the queue (virtual time)" aria-label="Mean queue wait">Wait</th>
                  <th scope="col">Last reconcile</th>
                </tr>
              </thead>
              <tbody>
                {cs.map((c) => {
                  const last = c.recent[c.recent.length - 1];
                  return (
                    <tr key={c.name} data-controller={c.name} className={c.name === selected ? 'selected' : ''} aria-selected={c.name === selected}>
                      <th scope="row">
                        <button type="button" className="cl-link" onClick={() => selectController(c.name)} aria-pressed={c.name === selected} title={`Informers: ${c.informers.join(', ') || 'none'}`}>
                          {c.name}
                        </button>
                      </th>
                      <td data-col="depth" className={c.depth > 0 ? 'cl-warn' : ''}>
                        {c.depth}
                      </td>
                      <td data-col="adds">{c.adds}</td>
                      <td data-col="retries" className={c.retries > 0 ? 'cl-warn' : ''}>
                        {c.retries}
                      </td>
                      <td>{formatMs(c.meanQueueMs)}</td>
                      <td className="cl-last" title={last ? `${formatT(last.t)} ${last.key}: ${last.what}` : undefined}>
                        {last ? (
                          <>
                            <span className="muted">{formatT(last.t)}</span> <span className="mono">{last.key}</span> <span className="cl-what-inline">{last.what}</span>
                          </>
                        ) : (
                          <span className="muted">—</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="cl-recent" role="region" aria-label="Recent reconciles">
            <h2 className="cl-h">
              Recent reconciles{sel ? <> — <span className="mono">{sel.name}</span></> : null}
            </h2>
            {sel && sel.recent.length === 0 && <p className="muted">None yet.</p>}
            <ol className="cl-recent-list" reversed>
              {[...(sel?.recent ?? [])].reverse().map((r, i) => (
                <li key={`${r.t}-${r.key}-${i}`}>
                  <span className="muted mono">{formatT(r.t)}</span> <KeyLink r={r} />
                  <div className="cl-what">{r.what}</div>
                </li>
              ))}
            </ol>
          </div>
        </div>
      )}
    </section>
  );
}
