// The Cluster view: the faults in effect, the control plane, a canvas map of
// nodes and pods with a legend, and the controllers' queues below. It reads
// the engine only while visible, at most every POLL_MS and only when virtual
// time has moved; each read brings only what changed.
import { useState } from 'react';
import { FaultsBar } from '../faults/FaultsBar';
import { useClockPolling } from '../lib/useClockPolling';
import { useUi } from '../store/uiStore';
import { clusterPoller } from './clusterClient';
import { mapData, useCluster } from './clusterStore';
import { ClusterMap } from './ClusterMap';
import { ComponentStrip } from './ComponentStrip';
import { ControllersPanel } from './ControllersPanel';
import { counts, POD_STATE_LABEL, POD_STATES } from './model';

/** Wall ms between reads while the simulation moves. */
export const POLL_MS = 300;

export function ClusterPanel() {
  const visible = useUi((s) => s.centreTab === 'cluster');
  useClockPolling(visible, () => clusterPoller.refresh(), POLL_MS);
  const version = useCluster((s) => s.version);
  const readError = useCluster((s) => s.readError);
  const reads = useCluster((s) => s.reads);
  const c = counts(mapData);
  const ready = reads > 0 && mapData.epoch !== 0;
  const [controllersOpen, setControllersOpen] = useState(true);
  return (
    <div className={`cluster-panel${controllersOpen ? '' : ' ctl-closed'}`}>
      <div className="cl-top">
        <div className="cl-summary" role="group" aria-label="Cluster summary">
          {ready ? (
            <>
              <span data-testid="cl-nodes">
                <b>{c.nodesTotal}</b> node{c.nodesTotal === 1 ? '' : 's'}: <span className="ok-text">✓ {c.nodes.ready} Ready</span>
                {c.nodes.notReady > 0 && <span className="danger"> · ✗ {c.nodes.notReady} NotReady</span>}
                {c.nodes.unknown > 0 && <span className="cl-warn"> · ? {c.nodes.unknown} Unknown</span>}
              </span>
              <span data-testid="cl-pods">
                <b>{c.podsTotal}</b> pod{c.podsTotal === 1 ? '' : 's'}: {c.pods.ready} ready · {c.pods.notReady} not ready · {c.pods.pending} pending · {c.pods.failed} failed
                {c.pods.terminating > 0 && ` · ${c.pods.terminating} terminating`}
                {c.unscheduled > 0 && ` · ${c.unscheduled} unscheduled`}
                {mapData.sourcePods > c.podsTotal && <span className="muted"> (loading: {mapData.sourcePods - c.podsTotal} more)</span>}
              </span>
            </>
          ) : (
            <span className="muted">{readError ? `Cluster: ${readError}` : 'Waiting for the API server…'}</span>
          )}
          {mapData.stale && <span className="cl-warn">⚠ No API server answers: the last state seen</span>}
          <FaultsBar />
        </div>
        <ComponentStrip components={mapData.components} />
      </div>
      <div className="cl-map-area">
        <ClusterMap data={mapData} version={version} />
        <Legend />
      </div>
      <ControllersPanel open={controllersOpen} onToggle={() => setControllersOpen((o) => !o)} />
    </div>
  );
}

function Legend() {
  return (
    <details className="cl-legend-box">
      <summary>Legend</summary>
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
        <span className="cl-warn" aria-hidden="true">⚑</span> tainted <span className="cl-warn" aria-hidden="true">⊘</span> unschedulable <span className="danger" aria-hidden="true">⚡</span> fault
      </li>
      <li>
        <span className="cl-leader" aria-hidden="true">★</span> leader <span className="muted" aria-hidden="true">○</span> down
      </li>
      <li className="muted">Drag to pan · wheel, + and − to zoom · 0 fits · click inspects · right-click a node for its faults</li>
      </ul>
    </details>
  );
}
