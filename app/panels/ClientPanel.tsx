// The playground's etcd client: put, get, delete and watch, with results
// printed the way etcdctl prints them.
import { useState, type FormEvent } from 'react';
import type { EtcdOp, EtcdOpResult } from '../../engine/facade/types';
import { engine } from '../engineClient';
import { etcdctlCommand, formatT } from '../lib/format';
import { useOpResults, useView, useWatches, type WatchState } from '../store/viewStore';

const memberIdOf = (name: string) => useView.getState().members[name]?.memberId;

export function ClientPanel() {
  return (
    <section className="client-panel" aria-label="etcd client">
      <h2>etcd client</h2>
      <KvForm />
      <WatchForm />
      <Watches />
      <Results />
    </section>
  );
}

function KvForm() {
  const [key, setKey] = useState('/foo');
  const [value, setValue] = useState('bar');
  const [prefix, setPrefix] = useState(false);
  const [serializable, setSerializable] = useState(false);
  const run = (op: EtcdOp) => void engine.exec({ type: 'etcdOp', op });
  const onPut = (e: FormEvent) => {
    e.preventDefault();
    if (key) run({ op: 'put', key, value });
  };
  return (
    <form className="kv-form" onSubmit={onPut} aria-label="Key-value request">
      <label>
        <span>Key</span>
        <input value={key} onChange={(e) => setKey(e.target.value)} aria-label="Key" spellCheck={false} className="mono" />
      </label>
      <label>
        <span>Value</span>
        <input value={value} onChange={(e) => setValue(e.target.value)} aria-label="Value" spellCheck={false} className="mono" />
      </label>
      <div className="row">
        <label className="check">
          <input type="checkbox" checked={prefix} onChange={(e) => setPrefix(e.target.checked)} aria-label="Prefix (get and delete)" />
          prefix
        </label>
        <label className="inline">
          <span>read</span>
          <select value={serializable ? 's' : 'l'} onChange={(e) => setSerializable(e.target.value === 's')} aria-label="Read consistency">
            <option value="l">linearizable</option>
            <option value="s">serializable</option>
          </select>
        </label>
      </div>
      <div className="row buttons">
        <button type="submit" className="primary" disabled={!key}>
          Put
        </button>
        <button type="button" disabled={!key} onClick={() => run({ op: 'get', key, ...(prefix ? { prefix } : {}), ...(serializable ? { serializable } : {}) })}>
          Get
        </button>
        <button type="button" disabled={!key} onClick={() => run({ op: 'delete', key, ...(prefix ? { prefix } : {}) })}>
          Delete
        </button>
      </div>
    </form>
  );
}

function WatchForm() {
  const [key, setKey] = useState('/');
  const onWatch = (e: FormEvent) => {
    e.preventDefault();
    if (key) void engine.exec({ type: 'watch', key, prefix: true });
  };
  return (
    <form className="watch-form" onSubmit={onWatch} aria-label="Watch request">
      <label>
        <span>Watch prefix</span>
        <input value={key} onChange={(e) => setKey(e.target.value)} aria-label="Watch prefix" spellCheck={false} className="mono" />
      </label>
      <button type="submit" disabled={!key}>
        Watch
      </button>
    </form>
  );
}

function Watches() {
  const watches = Object.values(useWatches());
  if (watches.length === 0) return null;
  return (
    <div className="watches">
      {watches.map((w) => (
        <WatchBox key={w.watchId} w={w} />
      ))}
    </div>
  );
}

function WatchBox({ w }: { w: WatchState }) {
  const events = w.events.slice(-30);
  return (
    <section className="watch" aria-label={`Watch ${w.watchId} on ${w.key}`}>
      <header>
        <span className="mono">
          $ etcdctl watch {w.key} --prefix <span className="muted">(watch {w.watchId})</span>
        </span>
        {w.canceled === undefined ? (
          <button type="button" className="small" onClick={() => void engine.exec({ type: 'cancelWatch', watchId: w.watchId })} aria-label={`Cancel watch ${w.watchId}`}>
            Cancel
          </button>
        ) : (
          <span className="muted">canceled: {w.canceled}</span>
        )}
      </header>
      <pre className="term" aria-live="polite">
        {events.length === 0
          ? 'waiting for events…'
          : events.map((e) => `${e.type}\n${e.key}${e.type === 'PUT' ? `\n${e.value}` : ''}`).join('\n')}
      </pre>
    </section>
  );
}

function Results() {
  const results = useOpResults();
  const recent = results.slice(-40).reverse();
  return (
    <section className="results" aria-label="Client results">
      <h3>Output</h3>
      {recent.length === 0 ? (
        <p className="muted empty-note">Requests and their replies appear here.</p>
      ) : (
        <ol className="result-list">
          {recent.map((r) => (
            <ResultItem key={r.id} r={r} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ResultItem({ r }: { r: EtcdOpResult }) {
  const state = r.doneAt === undefined ? 'pending' : r.ok ? 'ok' : 'error';
  return (
    <li className={`result ${state}`} data-state={state} data-op={r.op.op}>
      <div className="cmd mono">
        <span>
          <span aria-hidden="true">$ </span>
          {etcdctlCommand(r.op, memberIdOf)}
        </span>
        <span className="muted when">
          {formatT(r.issuedAt)}
          {r.doneAt !== undefined ? ` → ${formatT(r.doneAt)}` : ''}
        </span>
      </div>
      <pre className={`term${state === 'ok' && r.text === '' ? ' muted' : ''}`}>
        {state === 'pending'
          ? '… waiting for a reply'
          : state === 'error'
            ? (r.text ?? `Error: ${r.error ?? 'failed'}`)
            : r.text === ''
              ? '(no keys)'
              : (r.text ?? 'OK')}
      </pre>
    </li>
  );
}
