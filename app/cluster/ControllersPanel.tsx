// kube-controller-manager's controllers: each one's work queue (depth, adds,
// retries, mean wait and work time) and, for the chosen one, its recent
// reconciles with what they did.
import type { ControllersView } from '../../engine/host/protocol';
import { selectController, useCluster } from './clusterStore';

type Controller = ControllersView['controllers'][number];

export function formatMs(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function formatT(t: number): string {
  return `${(t / 1000).toFixed(3)}s`;
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

export function ControllersPanel() {
  const view = useCluster((s) => s.controllers);
  const chosen = useCluster((s) => s.selectedController);
  if (!view) {
    return (
      <section className="cl-controllers" aria-label="Controllers">
        <h2 className="cl-h">Controllers</h2>
        <p className="muted">kube-controller-manager is not running.</p>
      </section>
    );
  }
  const cs = view.controllers;
  const selected = cs.find((c) => c.name === chosen)?.name ?? mostRecentlyActive(cs);
  const sel = cs.find((c) => c.name === selected);
  return (
    <section className="cl-controllers" aria-label="Controllers">
      <div className="cl-ctl-table-wrap">
        <table className="cl-ctl-table" aria-label="Controller queues">
          <thead>
            <tr>
              <th scope="col">Controller</th>
              <th scope="col" title="workqueue_depth: keys waiting now">Depth</th>
              <th scope="col" title="workqueue_adds_total">Adds</th>
              <th scope="col" title="workqueue_retries_total: rate-limited re-adds">Retries</th>
              <th scope="col" title="Mean time a key waited in the queue (virtual time)" aria-label="Mean queue wait">Wait</th>
              <th scope="col" title="Mean time one sync took (virtual time)" aria-label="Mean work time">Work</th>
            </tr>
          </thead>
          <tbody>
            {cs.map((c) => {
              return (
                <tr key={c.name} data-controller={c.name} className={c.name === selected ? 'selected' : ''} aria-selected={c.name === selected}>
                  <th scope="row">
                    <button type="button" className="cl-link" onClick={() => selectController(c.name)} aria-pressed={c.name === selected} title={`Informers: ${c.informers.join(', ') || 'none'}`}>
                      {c.name}
                    </button>
                  </th>
                  <td data-col="depth" className={c.depth > 0 ? 'cl-warn' : ''}>{c.depth}</td>
                  <td data-col="adds">{c.adds}</td>
                  <td data-col="retries" className={c.retries > 0 ? 'cl-warn' : ''}>{c.retries}</td>
                  <td>{formatMs(c.meanQueueMs)}</td>
                  <td>{formatMs(c.meanWorkMs)}</td>
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
              <span className="muted mono">{formatT(r.t)}</span> <span className="mono">{r.key}</span>
              <div className="cl-what">{r.what}</div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
