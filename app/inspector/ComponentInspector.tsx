// A control-plane component in the inspector: up or down, leader or not, the
// faults that touch it (each with Heal), fault actions, and the objects that
// show its work (its leader-election Lease, the etcd member's Raft view).
import { engine } from '../engineClient';
import { mapData, useCluster } from '../cluster/clusterStore';
import { componentState } from '../cluster/ComponentStrip';
import { FaultButtons } from '../faults/FaultMenu';
import { formatT } from '../lib/format';
import { select, selectObject, setCentreTab } from '../store/uiStore';
import { useFaults, useView } from '../store/viewStore';

/** The Lease a leader-elected component holds (kube-system, named after the component). */
const LEASES: Record<string, string> = { 'kube-controller-manager': 'kube-controller-manager', 'kube-scheduler': 'kube-scheduler' };

export function ComponentInspector({ name }: { name: string }) {
  useCluster((s) => s.version);
  const actor = useView((s) => s.components.find((c) => c.name === name));
  const faults = useFaults().filter((f) => f.targets.includes(name));
  const c = mapData.components.find((x) => x.name === name) ?? (actor ? { name, kind: actor.kind, up: actor.up, leader: false } : undefined);
  if (!c) return <p className="muted">{name} is not a component of this cluster.</p>;
  const up = actor?.up ?? c.up;
  const lease = LEASES[c.kind];
  return (
    <div className="component-inspector" data-component={name}>
      <h3 className="obj-title">
        <span className="obj-kind">{c.kind}</span> <span className="mono">{name}</span>
      </h3>
      <dl className="facts">
        <dt>state</dt>
        <dd data-testid="component-state">{componentState({ ...c, up })}</dd>
      </dl>
      <FaultButtons target={{ type: 'component', name, kind: c.kind }} />
      <h3>Faults in effect ({faults.length})</h3>
      {faults.length === 0 ? (
        <p className="muted empty-note">None touch {name}.</p>
      ) : (
        <ul className="obj-links">
          {faults.map((f) => (
            <li key={f.id}>
              {f.summary} <span className="muted">since {formatT(f.since)}</span>{' '}
              <button type="button" className="small" onClick={() => void engine.exec({ type: 'fault', fault: { action: 'heal', id: f.id } })} aria-label={`Heal fault ${f.id}: ${f.summary}`}>
                Heal
              </button>
            </li>
          ))}
        </ul>
      )}
      {lease && (
        <p>
          Leader election:{' '}
          <button type="button" className="link" onClick={() => selectObject({ group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system', name: lease })}>
            Lease kube-system/{lease}
          </button>
        </p>
      )}
      {c.kind === 'etcd' && (
        <p>
          <button
            type="button"
            className="link"
            onClick={() => {
              setCentreTab('raft');
              select({ type: 'member', name });
            }}
          >
            Its Raft state in the etcd view
          </button>
        </p>
      )}
      <button type="button" className="small" onClick={() => select(null)}>
        Back to overview
      </button>
    </div>
  );
}
