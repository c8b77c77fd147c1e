// Cluster DNS in the inspector: the answer a Service's name gets from CoreDNS,
// and for a CoreDNS pod, what its process's caches hold (each Service's name
// and its records), as `dig` would show the answer section.
import type { InspectView } from '../../engine/host/protocol';

type NameAnswer = NonNullable<InspectView['serviceDns']>['answer'];

/** A domain name that may wrap after its dots (never inside a label). */
function Name({ name }: { name: string }) {
  const labels = name.split('.');
  return (
    <>
      {labels.map((l, i) => (
        <span key={i}>
          {l}
          {i < labels.length - 1 && '.'}
          {i < labels.length - 1 && <wbr />}
        </span>
      ))}
    </>
  );
}

function Records({ names, label }: { names: NameAnswer[]; label: string }) {
  return (
    <table className="data dns-records" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">TTL</th>
          <th scope="col">Type</th>
          <th scope="col">Data</th>
        </tr>
      </thead>
      <tbody>
        {names.flatMap((n) =>
          n.answer.length === 0
            ? [
                <tr key={n.name} className="muted">
                  <td className="mono">
                    <Name name={n.name} />
                  </td>
                  <td colSpan={3}>{n.rcode === 'NOERROR' ? 'no records (NODATA)' : n.rcode}</td>
                </tr>,
              ]
            : n.answer.map((r, i) => (
                <tr key={`${n.name}/${i}`}>
                  <td className="mono">
                    <Name name={r.name} />
                  </td>
                  <td className="mono">{r.ttl}</td>
                  <td className="mono">{r.type}</td>
                  <td className="mono dns-data">{r.data}</td>
                </tr>
              )),
        )}
      </tbody>
    </table>
  );
}

/** A Service's DNS name, and what a CoreDNS pod answers for it. */
export function ServiceDns({ dns }: { dns: NonNullable<InspectView['serviceDns']> }) {
  return (
    <section aria-label="Cluster DNS">
      <h3>
        DNS <span className="muted">as {dns.from} answers it</span>
      </h3>
      <Records names={[dns.answer]} label={`DNS answer for ${dns.answer.name}`} />
    </section>
  );
}

/** A CoreDNS pod's caches: synced or not, and the names they answer. */
export function CorednsCaches({ dns }: { dns: NonNullable<InspectView['coredns']> }) {
  return (
    <section aria-label="CoreDNS caches">
      <h3>
        CoreDNS <span className="muted">process {dns.process}</span>
      </h3>
      <p className={dns.synced ? 'dns-state' : 'dns-state danger'}>
        {dns.synced ? `kubernetes plugin synced: ${dns.services} Services in its caches; /ready answers 200.` : 'kubernetes plugin not synced yet: /ready answers 503, and every cluster name is NXDOMAIN.'}
      </p>
      {dns.names.length > 0 && <Records names={dns.names} label="Names CoreDNS answers" />}
    </section>
  );
}
