// The Cluster view: control-plane components, nodes and their pods on a canvas
// map, a legend, and the controllers' queues below. It reads the engine only
// while visible, at most every POLL_MS and only when virtual time has moved.
import { useClockPolling } from '../lib/useClockPolling';
import { useMemo } from 'react';
import { useUi } from '../store/uiStore';
import { clusterPoller } from './clusterClient';
import { useCluster } from './clusterStore';
import { ClusterMap } from './ClusterMap';
import { ControllersPanel } from './ControllersPanel';
import { buildModel, POD_STATE_LABEL, POD_STATES } from './model';

/** Wall ms between reads while the simulation moves. */
export const POLL_MS = 300;


export function ClusterPanel() {
  const visible = useUi((s) => s.centreTab === 'cluster');
  useClockPolling(visible, () => clusterPoller.refresh(), POLL_MS);
  const cluster = useCluster((s) => s.cluster);
  const readError = useCluster((s) => s.readError);
  const model = useMemo(() => buildModel(cluster), [cluster]);
  const c = model.counts;
  return (
    <div className="cluster-panel">
      <div className="cl-top">
        <div className="cl-summary" role="group" aria-label="Cluster summary">
          {cluster ? (
            <>
              <span data-testid="cl-nodes">
                <b>{model.nodes.length}</b> node{model.nodes.length === 1 ? '' : 's'}: <span className="ok-text">✓ {c.nodes.ready} Ready</span>
                {c.nodes.notReady > 0 && <span className="danger"> · ✗ {c.nodes.notReady} NotReady</span>}
                {c.nodes.unknown > 0 && <span className="cl-warn"> · ? {c.nodes.unknown} Unknown</span>}
              </span>
              <span data-testid="cl-pods">
                <b>{c.podsTotal}</b> pod{c.podsTotal === 1 ? '' : 's'}: {c.pods.ready} ready · {c.pods.notReady} not ready · {c.pods.pending} pending · {c.pods.failed} failed
                {c.pods.terminating > 0 && ` · ${c.pods.terminating} terminating`}
                {c.unscheduled > 0 && ` · ${c.unscheduled} unscheduled`}
              </span>
            </>
          ) : (
            <span className="muted">{readError ? `Cluster: ${readError}` : 'Waiting for the API server…'}</span>
          )}
        </div>
        <Legend />
      </div>
      <ClusterMap model={model} />
      <ControllersPanel />
    </div>
  );
}

function Legend() {
  return (
    <ul className="cl-legend" aria-label="Legend">
      {POD_STATES.map((s) => (
        <li key={s}>
          <span className={`cl-sw cl-sw-${s}`} aria-hidden="true" />
          {POD_STATE_LABEL[s]}
        </li>
      ))}
      <li>
        <span className="ok-text" aria-hidden="true">✓</span> Ready <span className="danger" aria-hidden="true">✗</span> NotReady <span className="cl-warn" aria-hidden="true">?</span> Unknown node
      </li>
      <li>
        <span className="cl-warn" aria-hidden="true">⚑</span> tainted <span className="cl-warn" aria-hidden="true">⊘</span> unschedulable
      </li>
      <li>
        <span className="cl-leader" aria-hidden="true">★</span> leader <span className="muted" aria-hidden="true">○</span> down
      </li>
    </ul>
  );
}
