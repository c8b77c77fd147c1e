// Details of whatever is selected: a member (state, progress, faults), a
// message (its in-flight view and what happened to it), a request, an API
// object (YAML, links, events) or a control-plane component.
import { useCallback } from 'react';
import type { EtcdMemberView, MessageInFlightView } from '../../engine/facade/types';
import { RequestDetails } from '../apiserver/RequestDetails';
import { ComponentInspector } from '../inspector/ComponentInspector';
import { ObjectInspector } from '../inspector/ObjectInspector';
import { refKey } from '../inspector/inspectStore';
import { engine } from '../engineClient';
import { formatT } from '../lib/format';
import { FAMILY_LOOK, ROLE_LOOK, msgLook } from '../raft/look';
import { select, useSelection } from '../store/uiStore';
import { useThrottledView } from '../store/throttle';
import { useLeaderName, useView, type ViewState } from '../store/viewStore';

/** The inspector follows the engine ten times a second. */
const INSPECT_MS = 100;
const selInFlight = (s: ViewState) => s.inFlight;
const selTrace = (s: ViewState) => s.trace;

function useMemberThrottled(name: string): EtcdMemberView | undefined {
  return useThrottledView(
    useCallback((s: ViewState) => s.members[name], [name]),
    INSPECT_MS,
  );
}

/** fsync latency the "slow disk" toggle sets, ms (a struggling cloud disk). */
export const SLOW_FSYNC_MS = 200;

export function Inspector() {
  const sel = useSelection();
  return (
    <section className="panel inspector" aria-label="Inspector">
      <h2>Inspector</h2>
      {sel === null ? (
        <Overview />
      ) : sel.type === 'member' ? (
        <MemberDetails name={sel.name} />
      ) : sel.type === 'request' ? (
        <RequestDetails id={sel.id} />
      ) : sel.type === 'object' ? (
        <ObjectInspector key={refKey(sel.ref)} objRef={sel.ref} />
      ) : sel.type === 'component' ? (
        <ComponentInspector name={sel.name} />
      ) : (
        <MessageDetails msgId={sel.msgId} seen={sel.seen} />
      )}
    </section>
  );
}

function Overview() {
  const inFlight = useThrottledView(selInFlight, INSPECT_MS);
  const leader = useLeaderName();
  const order = useView((s) => s.memberOrder);
  return (
    <div>
      <p className="muted">Select a member in the ring, a message, a request, or anything on the cluster map or in a list to inspect it.</p>
      <dl className="facts">
        <dt>leader</dt>
        <dd>{leader ?? 'none'}</dd>
      </dl>
      <table className="data members-table">
        <thead>
          <tr>
            <th scope="col">member</th>
            <th scope="col">role</th>
            <th scope="col" className="num">term</th>
            <th scope="col" className="num" title="commit index / applied index">
              commit / applied
            </th>
          </tr>
        </thead>
        <tbody>
          {order.map((n) => (
            <MemberRow key={n} name={n} />
          ))}
        </tbody>
      </table>
      <h3>Messages in flight ({inFlight.length})</h3>
      {inFlight.length === 0 ? (
        <p className="muted empty-note">None right now. Pause or step to catch one mid-flight.</p>
      ) : (
        <ul className="msg-list">
          {inFlight.slice(0, 30).map((m) => (
            <li key={`${m.msgId}@${m.arriveAt}`}>
              <button type="button" className="link" onClick={() => select({ type: 'message', msgId: m.msgId, seen: m })}>
                <MsgBadge type={m.type} /> {m.from} → {m.to}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MemberRow({ name }: { name: string }) {
  const m = useMemberThrottled(name);
  if (!m) return null;
  const look = ROLE_LOOK[m.role];
  return (
    <tr>
      <td>
        <button type="button" className="link" onClick={() => select({ type: 'member', name })} aria-label={`Inspect ${name}`}>
          {name}
        </button>
      </td>
      <td style={{ color: `var(${look.cssVar})` }}>
        <span aria-hidden="true">{look.icon}</span> {look.label}
      </td>
      <td className="num">{m.term}</td>
      <td className="num">
        {m.commitIndex} / {m.appliedIndex}
      </td>
    </tr>
  );
}

export function MsgBadge({ type }: { type: string }) {
  const look = msgLook(type);
  const color = `var(${FAMILY_LOOK[look.family].cssVar})`;
  return (
    <span className={`msg-badge${look.response ? ' resp' : ''}`} style={{ borderColor: color, ...(look.response ? { color } : { background: color }) }}>
      {type}
    </span>
  );
}

function MemberDetails({ name }: { name: string }) {
  const m = useMemberThrottled(name);
  const leader = useLeaderName();
  if (!m) return <p className="muted">{name} is not a member.</p>;
  const look = ROLE_LOOK[m.role];
  const slow = m.fsyncMs >= SLOW_FSYNC_MS;
  const fault = (f: Parameters<typeof engine.exec>[0]) => void engine.exec(f);
  return (
    <div className="member-details" data-member={name}>
      <h3 className="member-title">
        <span className="role-chip" style={{ borderColor: `var(${look.cssVar})`, color: `var(${look.cssVar})` }}>
          <span aria-hidden="true">{look.icon}</span> {look.label}
        </span>{' '}
        {name}
      </h3>
      <div className="actions" role="group" aria-label={`Faults for ${name}`}>
        {m.up ? (
          <button type="button" className="danger" onClick={() => fault({ type: 'fault', fault: { action: 'crash', target: name } })} aria-label={`Crash ${name}`}>
            Crash
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => fault({ type: 'fault', fault: { action: 'restart', target: name } })} aria-label={`Restart ${name}`}>
            Restart
          </button>
        )}
        <label className="check" title={`fsync ${SLOW_FSYNC_MS} ms instead of 1 ms`}>
          <input
            type="checkbox"
            checked={slow}
            onChange={() => fault({ type: 'fault', fault: { action: 'slow-disk', target: name, fsyncMs: slow ? 1 : SLOW_FSYNC_MS } })}
            aria-label={`Slow disk on ${name}`}
          />
          slow disk
        </label>
        <button
          type="button"
          disabled={!m.up || m.role === 'leader' || leader === null}
          onClick={() => fault({ type: 'etcdOp', op: { op: 'transferLeader', to: name } })}
          aria-label={`Transfer leadership to ${name}`}
        >
          Make leader
        </button>
        <button
          type="button"
          disabled={leader === null}
          onClick={() => fault({ type: 'etcdOp', op: { op: 'memberRemove', name } })}
          aria-label={`Remove ${name} from the cluster`}
          title="etcdctl member remove: a membership change through Raft; the member exits once it applies it"
        >
          Remove member
        </button>
      </div>
      <dl className="facts">
        <dt>member id</dt>
        <dd className="mono">{m.memberId}</dd>
        <dt>raft id</dt>
        <dd className="mono">{m.raftId}</dd>
        <dt>state</dt>
        <dd>{m.up ? look.label : 'crashed — term, vote and log are kept on disk'}</dd>
        <dt>term</dt>
        <dd data-testid="inspector-term">{m.term}</dd>
        <dt>vote</dt>
        <dd>{m.vote ?? '—'}</dd>
        <dt>leader</dt>
        <dd>{m.leader ?? '—'}</dd>
        <dt>commit index</dt>
        <dd>{m.commitIndex}</dd>
        <dt>applied index</dt>
        <dd>{m.appliedIndex}</dd>
        <dt>log</dt>
        <dd>
          {m.firstLogIndex}…{m.lastLogIndex}
        </dd>
        <dt>snapshot index</dt>
        <dd>{m.snapshotIndex}</dd>
        <dt>kv revision</dt>
        <dd>{m.revision}</dd>
        <dt>election timer</dt>
        <dd>
          {m.electionElapsed} / {m.electionTimeout} ticks
        </dd>
        <dt>fsync latency</dt>
        <dd>{m.fsyncMs} ms</dd>
      </dl>
      {m.progress && <ProgressTable m={m} />}
    </div>
  );
}

function ProgressTable({ m }: { m: EtcdMemberView }) {
  const rows = Object.entries(m.progress ?? {});
  return (
    <>
      <h3>Replication progress</h3>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">member</th>
            <th scope="col" className="num">match</th>
            <th scope="col" className="num">next</th>
            <th scope="col">state</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([peer, p]) => (
            <tr key={peer}>
              <td>{peer}</td>
              <td className="num">{p.match}</td>
              <td className="num">{p.next}</td>
              <td className="mono">{p.state}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function MessageDetails({ msgId, seen }: { msgId: number; seen?: MessageInFlightView }) {
  const live = useView((s) => s.inFlight.find((m) => m.msgId === msgId));
  const records = useThrottledView(selTrace, INSPECT_MS).filter((r) => r.msgId === msgId);
  const m = live ?? seen;
  // The last word on it: a stream (TCP) message may be held for a retransmission before it is delivered or dropped.
  const fate = records.findLast((r) => r.kind === 'deliver' || r.kind === 'drop' || r.kind === 'held');
  const status = live ? 'in flight' : fate ? (fate.kind === 'drop' ? `dropped (${fate.reason ?? '?'})` : fate.kind === 'held' ? `held by TCP for a retransmission (${fate.reason ?? '?'})` : 'delivered') : 'no longer in flight';
  return (
    <div className="msg-details">
      <h3>
        Message #{msgId} {m && <MsgBadge type={m.type} />}
      </h3>
      {m ? (
        <dl className="facts">
          <dt>from</dt>
          <dd>{m.from}</dd>
          <dt>to</dt>
          <dd>{m.to}</dd>
          <dt>type</dt>
          <dd className="mono">{m.type}</dd>
          {m.term !== undefined && (
            <>
              <dt>term</dt>
              <dd>{m.term}</dd>
            </>
          )}
          {m.detail && (
            <>
              <dt>detail</dt>
              <dd className="mono">{m.detail}</dd>
            </>
          )}
          <dt>sent at</dt>
          <dd>{formatT(m.sentAt)}</dd>
          <dt>arrives at</dt>
          <dd>{formatT(m.arriveAt)}</dd>
          <dt>status</dt>
          <dd>{status}</dd>
        </dl>
      ) : fate ? (
        <dl className="facts">
          <dt>status</dt>
          <dd>{status}</dd>
        </dl>
      ) : null}
      {records.length > 0 && (
        <>
          <h3>Trace</h3>
          <ul className="plain mono">
            {records.map((r) => (
              <li key={r.n}>
                {formatT(r.t)} {r.kind} {r.from} → {r.to} {r.type}
                {r.reason ? ` (${r.reason})` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
      <button type="button" onClick={() => select(null)}>
        Back to overview
      </button>
    </div>
  );
}
