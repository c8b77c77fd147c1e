// An API object in the inspector: its live YAML (as `kubectl get -o yaml`
// prints it), the objects it names as owners and the objects that name it,
// each a link, its events as `kubectl describe` lists them, for a node its
// faults and its machine's kube-proxy rules, and cluster DNS's view of a
// Service or a CoreDNS pod.
import { useEffect } from 'react';
import type { InspectView, ObjectLink, ObjectRef } from '../../engine/host/protocol';
import { FaultButtons } from '../faults/FaultMenu';
import { useClockPolling } from '../lib/useClockPolling';
import { select, selectObject, setCentreTab, showNodeRules } from '../store/uiStore';
import { inspectPoller } from './inspectClient';
import { NodeMachine } from './NodeMachine';
import { CorednsCaches, ServiceDns } from './DnsSections';
import { refKey, useInspect } from './inspectStore';

/** Wall ms between reads while virtual time moves. */
const INSPECT_POLL_MS = 300;

export function objectTitle(kind: string, ref: ObjectRef): string {
  return `${kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** Shows a node or pod on the cluster map (switching to the Cluster tab). */
export function showOnMap(kind: 'node' | 'pod', name: string): void {
  setCentreTab('cluster');
  // The map may mount or lay out on this frame: focus on the next.
  requestAnimationFrame(() => window.__kubeglassClusterMap?.focus(kind, name));
}

export function ObjectInspector({ objRef }: { objRef: ObjectRef }) {
  const key = refKey(objRef);
  useEffect(() => {
    inspectPoller.follow(objRef);
    return () => inspectPoller.follow(null);
    // objRef is identified by its key.
  }, [key]);
  useClockPolling(true, () => inspectPoller.refresh(), INSPECT_POLL_MS);
  const view = useInspect((s) => (s.key === key ? s.view : null));
  const error = useInspect((s) => (s.key === key ? s.error : null));
  const kind = view?.kind ?? objRef.resource;
  const isNode = objRef.group === '' && objRef.resource === 'nodes';
  const isPod = objRef.group === '' && objRef.resource === 'pods';
  return (
    <div className="obj-inspector" data-object={key}>
      <h3 className="obj-title">
        <span className="obj-kind">{kind}</span> <span className="mono">{objRef.namespace ? `${objRef.namespace}/` : ''}{objRef.name}</span>
      </h3>
      <div className="actions">
        {(isNode || isPod) && (
          <button type="button" className="small" onClick={() => showOnMap(isNode ? 'node' : 'pod', isNode ? objRef.name : `${objRef.namespace}/${objRef.name}`)}>
            Show on map
          </button>
        )}
        <button type="button" className="small" onClick={() => select(null)}>
          Back to overview
        </button>
      </div>
      {isNode && <FaultButtons target={{ type: 'node', name: objRef.name }} />}
      {error && <p className="danger">{error}</p>}
      {!view && !error && <p className="muted">Reading…</p>}
      {view && !view.found && <p className="muted">Not found: {objectTitle(kind, objRef)} does not exist (now).</p>}
      {view?.found && <ObjectBody view={view} />}
    </div>
  );
}

function ObjectBody({ view }: { view: InspectView }) {
  return (
    <>
      <Links title="Owners" empty="No owner references." links={view.owners} />
      <Links title="Owned" empty="Nothing names it as its owner." links={view.owned} more={view.ownedTotal - view.owned.length} />
      {view.machine && <NodeMachine node={view.ref.name} machine={view.machine} />}
      {view.serviceProxy && <ServiceChains proxy={view.serviceProxy} />}
      {view.serviceDns && <ServiceDns dns={view.serviceDns} />}
      {view.coredns && <CorednsCaches dns={view.coredns} />}
      <section aria-label="Events">
        <h3>Events ({view.events.length})</h3>
        {view.events.length === 0 ? (
          <p className="muted empty-note">
            Events: <span className="mono">&lt;none&gt;</span>
          </p>
        ) : (
          <table className="data obj-events" aria-label={`Events of ${view.kind} ${view.ref.name}`}>
            {/* describe's columns; the message takes a row of its own, the inspector being narrow. */}
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Reason</th>
                <th scope="col">Age</th>
                <th scope="col">From</th>
              </tr>
              <tr>
                <th scope="col" colSpan={4} className="obj-msg-head">
                  Message
                </th>
              </tr>
            </thead>
            {view.events.map((e) => (
              <tbody key={e.key} className={e.type === 'Warning' ? 'warning' : ''} data-reason={e.reason}>
                <tr>
                  <td>{e.type === 'Warning' ? <span className="cl-warn">⚠ Warning</span> : e.type}</td>
                  <td className="mono">{e.reason}</td>
                  <td className="nowrap">{e.age}</td>
                  <td>{e.from}</td>
                </tr>
                <tr>
                  <td colSpan={4} className="obj-msg">
                    {e.message}
                  </td>
                </tr>
              </tbody>
            ))}
          </table>
        )}
      </section>
      <section aria-label="YAML">
        <h3>
          YAML <span className="muted">resourceVersion {view.resourceVersion}</span>
        </h3>
        <pre className="obj-yaml" tabIndex={0} aria-label={`YAML of ${view.kind} ${view.ref.name}`}>
          {view.yaml}
        </pre>
      </section>
    </>
  );
}

/** Where kube-proxy put a Service: each port's chain, and a way to its rules on each node. */
function ServiceChains({ proxy }: { proxy: NonNullable<InspectView['serviceProxy']> }) {
  return (
    <section aria-label="kube-proxy chains">
      <h3>kube-proxy</h3>
      <ul className="obj-links">
        {proxy.chains.map((c) => (
          <li key={c.chain}>
            <span className="mono">{c.port}</span> → <span className="mono">{c.chain}</span>
            {proxy.nodes.length > 0 && ' · rules on'}
            {proxy.nodes.map((n) => (
              <span key={n}>
                {' '}
                <button type="button" className="link" onClick={() => showNodeRules(n, c.chain)} aria-label={`${c.chain} on ${n}`}>
                  {n}
                </button>
              </span>
            ))}
          </li>
        ))}
      </ul>
      {proxy.nodes.length === 0 && <p className="muted empty-note">No node here runs kube-proxy (KWOK nodes run none).</p>}
    </section>
  );
}

function Links({ title, empty, links, more = 0 }: { title: string; empty: string; links: ObjectLink[]; more?: number }) {
  return (
    <section aria-label={title}>
      <h3>
        {title} <span className="muted">({links.length + more})</span>
      </h3>
      {links.length === 0 ? (
        <p className="muted empty-note">{empty}</p>
      ) : (
        <ul className="obj-links">
          {links.map((l) => (
            <li key={refKey(l.ref)}>
              <button type="button" className="link" onClick={() => selectObject(l.ref)} aria-label={`Inspect ${l.kind} ${l.ref.name}`} disabled={!l.exists}>
                <span className="obj-kind">{l.kind}</span> {l.ref.name}
              </button>
              {l.controller && <span className="muted"> controller</span>}
              {!l.exists && <span className="muted"> (gone)</span>}
            </li>
          ))}
          {more > 0 && <li className="muted">and {more} more</li>}
        </ul>
      )}
    </section>
  );
}
