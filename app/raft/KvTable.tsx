// The applied key/value state, as one member sees it.
import { useThrottledView } from '../store/throttle';
import type { ViewState } from '../store/viewStore';

const selKv = (s: ViewState) => s.kv;

export function KvTable() {
  const kv = useThrottledView(selKv, 150);
  const keys = Object.values(kv.keys).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return (
    <section className="kv" aria-label="Key-value store">
      <h3>
        Applied keys{' '}
        <span className="muted">
          {kv.from ? `on ${kv.from}` : 'no member up'} · revision {kv.revision}
          {kv.compactRevision > 0 ? ` · compacted at ${kv.compactRevision}` : ''}
          {kv.total > keys.length ? ` · showing the first ${keys.length} of ${kv.total} keys` : ''}
        </span>
      </h3>
      {keys.length === 0 ? (
        <p className="muted empty-note">No keys yet. Put one with the client on the left.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">key</th>
              <th scope="col">value</th>
              <th scope="col" className="num">create_revision</th>
              <th scope="col" className="num">mod_revision</th>
              <th scope="col" className="num">version</th>
              <th scope="col" className="num">lease</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((e) => (
              <tr key={e.key}>
                <td className="mono">{e.key}</td>
                <td className="mono">{e.value}</td>
                <td className="num">{e.createRevision}</td>
                <td className="num">{e.modRevision}</td>
                <td className="num">{e.version}</td>
                <td className="num">{e.lease ? e.lease.toString(16) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
