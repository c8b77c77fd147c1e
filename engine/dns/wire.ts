// A DNS message's size on the wire (RFC 1035 section 4.1), uncompressed: what
// dig's MSG SIZE and CoreDNS's log plugin report.
import { utf8Length } from '../sim/utf8';
import { fqdn, type DnsQuestion, type DnsRecord, type DnsResponse } from './message';

const fields = (data: string) => data.trim().split(/\s+/);

/** A name's length on the wire, uncompressed (CoreDNS does not compress replies this small). */
function nameWire(n: string): number {
  const f = fqdn(n);
  if (f === '.') return 1;
  return f
    .slice(0, -1)
    .split('.')
    .reduce((s, l) => s + 1 + utf8Length(l), 1);
}

/** The character-strings of a TXT record's data (`"a b" "c"`). */
export function txtStrings(data: string): string[] {
  const quoted = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
  return quoted.length ? quoted : [data];
}

function rdataWire(r: DnsRecord): number {
  const f = fields(r.data);
  switch (r.type) {
    case 'A':
      return 4;
    case 'AAAA':
      return 16;
    case 'CNAME':
    case 'PTR':
    case 'NS':
      return nameWire(r.data);
    case 'MX':
      return 2 + nameWire(f[1] ?? '.');
    case 'SRV':
      return 6 + nameWire(f[3] ?? '.');
    case 'SOA':
      return nameWire(f[0] ?? '.') + nameWire(f[1] ?? '.') + 20;
    case 'TXT':
      return txtStrings(r.data).reduce((s, t) => s + 1 + utf8Length(t), 0);
    case 'ANY':
      return 0;
  }
}

/** The response's size on the wire: header, question, records, and the OPT record when EDNS is on. */
export function messageSize(q: DnsQuestion, res: DnsResponse, edns: boolean): number {
  const rr = (r: DnsRecord) => nameWire(r.name) + 10 + rdataWire(r);
  const sum = (rs: DnsRecord[]) => rs.reduce((s, r) => s + rr(r), 0);
  return 12 + nameWire(q.name) + 4 + sum(res.answer) + sum(res.authority) + sum(res.additional) + (edns ? 11 : 0);
}

/** The query's size: header, question, and the OPT record when EDNS is on. */
export function querySize(q: DnsQuestion, edns: boolean): number {
  return 12 + nameWire(q.name) + 4 + (edns ? 11 : 0);
}
