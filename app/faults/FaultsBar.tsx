// The faults in effect, each with Heal, and Heal all: a compact bar that says
// "no faults" when the cluster is whole.
import type { ActiveFault } from '../../engine/host/protocol';
import { engine } from '../engineClient';
import { formatT } from '../lib/format';
import { useFaults } from '../store/viewStore';

export function FaultsBar() {
  const faults = useFaults();
  return (
    <section className="faults-bar" aria-label="Faults in effect">
      <span className="faults-title">{faults.length === 0 ? 'No faults in effect' : `Faults in effect (${faults.length})`}</span>
      {faults.length > 0 && (
        <>
          <ul className="faults-list">
            {faults.map((f) => (
              <FaultItem key={f.id} f={f} />
            ))}
          </ul>
          <button type="button" className="small" onClick={() => void engine.exec({ type: 'fault', fault: { action: 'heal-all' } })} aria-label="Heal all faults">
            Heal all
          </button>
        </>
      )}
    </section>
  );
}

function FaultItem({ f }: { f: ActiveFault }) {
  return (
    <li data-fault={f.fault.action} data-fault-id={f.id}>
      <span aria-hidden="true" className="danger">
        ⚡
      </span>{' '}
      <span className="fault-summary" title={f.summary}>{f.summary}</span> <span className="muted">since {formatT(f.since)}</span>{' '}
      <button type="button" className="small" onClick={() => void engine.exec({ type: 'fault', fault: { action: 'heal', id: f.id } })} aria-label={`Heal fault ${f.id}: ${f.summary}`}>
        Heal
      </button>
    </li>
  );
}
