// A DNS message as the playground carries it over its simulated UDP: the
// question a stub resolver asks and the response a server gives (RFC 1035
// section 4.1), decoded. Names are fully qualified, lower case, with their
// trailing dot ("web.default.svc.cluster.local.").

export type RRType = 'A' | 'AAAA' | 'CNAME' | 'PTR' | 'SRV' | 'TXT' | 'NS' | 'SOA' | 'MX' | 'ANY';

/** RFC 1035 RCODEs by their mnemonic (what dig prints as `status:`). */
export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

export interface DnsQuestion {
  name: string;
  type: RRType;
}

/**
 * One resource record. `data` is the RDATA in zone-file presentation form:
 * A "10.96.0.1"; CNAME/PTR/NS a name with its dot; SRV "priority weight port target.";
 * SOA "mname. rname. serial refresh retry expire minimum".
 */
export interface DnsRecord {
  name: string;
  type: RRType;
  ttl: number;
  data: string;
}

export interface DnsResponse {
  rcode: Rcode;
  /** The AA bit: the server is authoritative for the name (CoreDNS's kubernetes plugin is for its zones). */
  authoritative: boolean;
  answer: DnsRecord[];
  /** The zone's SOA on NXDOMAIN and NODATA (negative caching, RFC 2308). */
  authority: DnsRecord[];
  additional: DnsRecord[];
}

/** A name in canonical form: lower case, with one trailing dot. */
export function fqdn(name: string): string {
  const n = name.toLowerCase();
  return n.endsWith('.') ? n : `${n}.`;
}
