// One API request, stage by stage, in the inspector: authentication,
// impersonation, authorization, the in-flight limit, decoding, each mutating
// admission plugin with its JSON patch, validation, each validating plugin,
// storage (the etcd key and revision), and the answer.
import type { RequestRecord, StageRecord } from '../../engine/apiserver/records/types';
import { formatT } from '../lib/format';
import { select } from '../store/uiStore';
import { DECISION_ICON, STAGE_LABEL, codeClass, formatLatency, groupStages, statusLine } from './format';
import { describePatch } from './patch';
import { failingStage, latencyOf, objectOf, outcomeOf, resourceOf, useRequests } from './requestStore';

export function RequestDetails({ id }: { id: number }) {
  const r = useRequests((s) => (s.selected?.id === id ? s.selected : (s.list.find((x) => x.id === id) ?? null)));
  if (!r) {
    return (
      <div className="request-details">
        <p className="muted">Request #{id} is no longer recorded.</p>
        <BackButton />
      </div>
    );
  }
  const failing = failingStage(r);
  const outcome = outcomeOf(r);
  const object = objectOf(r);
  return (
    <div className="request-details" data-request-id={r.id} aria-label={`Request ${r.id}`}>
      <h3 className="req-title">
        <span className={`code-badge big c-${codeClass(r.code)} o-${outcome}`}>{statusLine(r.code)}</span>
      </h3>
      <p className="req-line">
        <span className={`verb v-${r.verb}`}>{r.verb}</span> <strong>{resourceOf(r)}</strong> {object && <span className="mono">{object}</span>}
      </p>
      <p className="mono req-path" title="HTTP request line">
        {r.method} {r.path}
      </p>
      <dl className="facts req-facts">
        <dt>user</dt>
        <dd className="mono wrap">{r.user}</dd>
        {r.groups.length > 0 && (
          <>
            <dt>groups</dt>
            <dd className="mono wrap">{r.groups.join(', ')}</dd>
          </>
        )}
        <dt>client</dt>
        <dd className="mono">{r.client}</dd>
        <dt>received</dt>
        <dd>{formatT(r.at)}</dd>
        <dt>latency</dt>
        <dd>{r.code === 0 ? 'in flight' : formatLatency(latencyOf(r))}</dd>
        {r.etcdKey && (
          <>
            <dt>etcd key</dt>
            <dd className="mono wrap" data-testid="etcd-key">
              {r.etcdKey}
            </dd>
          </>
        )}
        {r.revision !== undefined && (
          <>
            <dt>revision</dt>
            <dd className="mono" data-testid="etcd-revision">
              {r.revision}
            </dd>
          </>
        )}
        {r.dryRun && (
          <>
            <dt>dry run</dt>
            <dd>yes: nothing was stored</dd>
          </>
        )}
      </dl>
      {failing && (
        <div className="req-failure" data-testid="failing-stage">
          <div className="req-failure-head">
            <span aria-hidden="true">{DECISION_ICON[failing.decision]}</span> {failing.decision === 'denied' ? 'Refused' : 'Failed'} at {STAGE_LABEL[failing.kind].toLowerCase()}{' '}
            <span className="mono">{failing.name}</span>
          </div>
          {failing.message && <p className="req-failure-msg">{failing.message}</p>}
        </div>
      )}
      <h3>Pipeline</h3>
      <PipelineStrip r={r} failing={failing} />
      <ol className="pipeline" aria-label="Request stages">
        {r.stages.map((s, i) => (
          <Stage key={i} s={s} r={r} failing={s === failing} />
        ))}
        {r.code === 0 && (
          <li className="stage d-pending">
            <span className="stage-dot" aria-hidden="true" />
            <div className="stage-body">
              <div className="stage-head">
                <span className="stage-kind">in flight</span>
                <span className="muted">waiting for the next stage…</span>
              </div>
            </div>
          </li>
        )}
      </ol>
      {r.message && r.code >= 400 && r.message !== failing?.message && (
        <>
          <h3>Response</h3>
          <p className="mono req-message">{r.message}</p>
        </>
      )}
      {r.warnings && r.warnings.length > 0 && (
        <>
          <h3>Warnings</h3>
          <ul className="plain warnings">
            {r.warnings.map((w, i) => (
              <li key={i}>⚠ {w}</li>
            ))}
          </ul>
        </>
      )}
      <BackButton />
    </div>
  );
}

function BackButton() {
  return (
    <button type="button" className="back" onClick={() => select(null)}>
      Back to overview
    </button>
  );
}

/** The chain at a glance, left to right; runs of admission plugins fold into one chip. */
function PipelineStrip({ r, failing }: { r: RequestRecord; failing: StageRecord | undefined }) {
  const groups = groupStages(r.stages, failing);
  return (
    <div className="pipeline-strip" aria-hidden="true">
      {groups.map((g, i) => (
        <span key={i} className="strip-step">
          {i > 0 && <span className="strip-arrow">→</span>}
          <span className={`strip-chip d-${g.decision}${g.failing ? ' failing' : ''}`} title={`${STAGE_LABEL[g.kind]}: ${g.names.join(', ')} — ${g.decision}`}>
            {DECISION_ICON[g.decision]} {g.label}
          </span>
        </span>
      ))}
      {r.code === 0 && (
        <span className="strip-step">
          <span className="strip-arrow">→</span>
          <span className="strip-chip d-pending">…</span>
        </span>
      )}
    </div>
  );
}

function Stage({ s, r, failing }: { s: StageRecord; r: RequestRecord; failing: boolean }) {
  const ms = s.endedAt - s.startedAt;
  const patch = s.patch && s.patch.length > 0 ? describePatch(s.patch) : null;
  return (
    <li className={`stage d-${s.decision}${failing ? ' failing' : ''}`} data-stage={s.kind} aria-label={`${STAGE_LABEL[s.kind]} ${s.name}: ${s.decision}`}>
      <span className="stage-dot" aria-hidden="true">
        {DECISION_ICON[s.decision]}
      </span>
      <div className="stage-body">
        <div className="stage-head">
          <span className="stage-kind">{STAGE_LABEL[s.kind]}</span>
          <span className="stage-ms mono" title="virtual time spent in this stage">
            {formatLatency(ms)}
          </span>
        </div>
        <div className="stage-name">
          <span className="mono">{s.name}</span> <span className={`decision d-${s.decision}`}>{s.decision}</span>
        </div>
        {s.message && <p className={`stage-msg${failing ? ' failing' : ''}`}>{s.message}</p>}
        {s.kind === 'storage' && r.etcdKey && (
          <p className="stage-etcd mono">
            {r.etcdKey}
            {r.revision !== undefined && <span className="muted"> @ revision {r.revision}</span>}
          </p>
        )}
        {patch && (
          <div className="patch" aria-label={`Patch by ${s.name}`}>
            {patch.map((p, i) => (
              <div key={i} className={`patch-op op-${p.op}`}>
                <span className="patch-sign" aria-hidden="true">
                  {p.sign}
                </span>
                <span className="patch-verb">{p.op}</span>
                <span className="patch-path mono">
                  {p.from ? (
                    <>
                      <Pointer path={p.from} /> →{' '}
                    </>
                  ) : null}
                  <Pointer path={p.path} />
                </span>
                {p.value !== undefined && <pre className={`patch-value${p.multiline ? ' multi' : ''}`}>{p.value}</pre>}
              </div>
            ))}
          </div>
        )}
        {s.warnings && s.warnings.length > 0 && (
          <ul className="plain warnings">
            {s.warnings.map((w, i) => (
              <li key={i}>⚠ {w}</li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

/** A JSON pointer that may wrap after each slash. */
function Pointer({ path }: { path: string }) {
  const parts = path.split('/');
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 && '/'}
          {part}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </>
  );
}
