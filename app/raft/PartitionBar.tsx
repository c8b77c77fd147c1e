// Partition builder: pick members, cut them off from the rest, heal.
import { engine } from '../engineClient';
import { clearPicks, togglePick, useUi } from '../store/uiStore';
import { useMemberOrder, usePartition } from '../store/viewStore';

export function PartitionBar() {
  const order = useMemberOrder();
  const picks = useUi((s) => s.partitionPick);
  const partition = usePartition();
  const active = partition.groups.length > 0 || partition.blocked.length > 0;
  const picked = order.filter((n) => picks.includes(n));
  const rest = order.filter((n) => !picks.includes(n));
  const canPartition = picked.length > 0 && rest.length > 0;

  const partitionSelected = () => {
    void engine.exec({ type: 'fault', fault: { action: 'partition', groups: [picked, rest] } });
    clearPicks();
  };
  const heal = () => void engine.exec({ type: 'fault', fault: { action: 'heal' } });
  const addMember = () => void engine.exec({ type: 'etcdOp', op: { op: 'memberAdd' } });

  return (
    <div className="toolbar partition-bar" role="group" aria-label="Partition builder">
      <span className="toolbar-label">Partition</span>
      {order.map((n) => (
        <label key={n} className="check">
          <input type="checkbox" checked={picks.includes(n)} onChange={() => togglePick(n)} aria-label={`Pick ${n} for partition`} />
          {n}
        </label>
      ))}
      <button type="button" onClick={partitionSelected} disabled={!canPartition}>
        ✂ Partition selected
      </button>
      <button type="button" onClick={heal} disabled={!active}>
        Heal
      </button>
      <button
        type="button"
        onClick={addMember}
        disabled={order.length >= 7}
        aria-label="Add a member"
        title="etcdctl member add, then start the new member with initial-cluster-state=existing"
      >
        + Add member
      </button>
      <span className="partition-status" aria-live="polite">
        {active
          ? partition.groups.length > 0
            ? `groups: ${partition.groups.map((g) => `{${g.join(', ')}}`).join(' | ')}`
            : `${partition.blocked.length} blocked link(s)`
          : 'network whole'}
      </span>
    </div>
  );
}
