// The DNS tools and name resolution, as a container's shell runs them against
// a scripted network: a CoreDNS-like server at 10.96.0.10 (or none, or one
// that refuses), what each tool prints, its exit status, and when it ends.
import { describe, expect, it } from 'vitest';
import { FileSystem } from './fs';
import { netReply, run, spawn, type ShellContext } from './interp';
import type { NetCall, NetOutcome } from './net';
import type { DnsQuestion, DnsResponse } from '../../../dns/message';
import { messageSize } from '../../../dns/wire';
import { dateText } from './commands';

const RESOLV = 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n';
const HOSTS = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\n10.244.2.5\tclient\n';
const SOA = { name: 'cluster.local.', type: 'SOA' as const, ttl: 30, data: 'ns.dns.cluster.local. hostmaster.cluster.local. 1735689600 7200 1800 86400 30' };

const SERVICES: Record<string, string> = { 'kubernetes.default.svc.cluster.local.': '10.96.0.1', 'web.default.svc.cluster.local.': '10.96.100.7' };

/**
 * CoreDNS's kubernetes plugin for cluster.local: Services' A records,
 * NODATA for their AAAA, NXDOMAIN (with the zone's SOA) for the rest; outside
 * the zone `outside` (an upstream's NXDOMAIN, or the playground's SERVFAIL).
 */
function coredns(q: DnsQuestion, outside: 'NXDOMAIN' | 'SERVFAIL' = 'NXDOMAIN'): DnsResponse {
  const ip = SERVICES[q.name];
  if (!q.name.endsWith('cluster.local.')) return outside === 'SERVFAIL' ? { rcode: 'SERVFAIL', authoritative: false, answer: [], authority: [], additional: [] } : { rcode: 'NXDOMAIN', authoritative: false, answer: [], authority: [], additional: [] };
  if (ip && q.type === 'A') return { rcode: 'NOERROR', authoritative: true, answer: [{ name: q.name, type: 'A', ttl: 30, data: ip }], authority: [], additional: [] };
  return { rcode: ip ? 'NOERROR' : 'NXDOMAIN', authoritative: true, answer: [], authority: [SOA], additional: [] };
}

type Server = (q: DnsQuestion) => DnsResponse | 'timeout' | 'refused';

/** A shell in a pod whose DNS queries `server` answers (at once) and whose TCP connections get `page`. */
function pod(flavour: 'busybox' | 'gnu', server: Server = (q) => coredns(q)) {
  const lines: { at: number; fd: number; text: string }[] = [];
  const calls: { call: NetCall; at: number }[] = [];
  const ctx: ShellContext = {
    fs: new FileSystem({ '/etc/resolv.conf': RESOLV, '/etc/hosts': HOSTS }, ['/tmp']),
    hostname: 'client',
    podIP: '10.244.2.5',
    flavour,
    hasCommand: () => true,
    out: (at, fd, text) => lines.push({ at, fd, text }),
    connect: (call, at): NetOutcome => {
      calls.push({ call, at });
      if (call.tool !== 'dns') return { k: 'http', status: 200, headers: {}, body: `hello from ${call.http.ip}\n` };
      const got = server(call.dns!);
      return typeof got === 'string' ? { k: got } : { k: 'dns', response: got };
    },
  };
  const sh = (script: string) => {
    lines.length = 0;
    calls.length = 0;
    const p = spawn(['sh', '-c', script], {}, 0, flavour);
    run(p, 10_000_000, ctx);
    const text = (fd: number) =>
      lines
        .filter((l) => l.fd === fd)
        .map((l) => l.text)
        .join('');
    return { stdout: text(1), stderr: text(2), code: p.exit?.code, at: p.exit?.at, queries: calls.filter((c) => c.call.tool === 'dns').map((c) => `${c.at} ${c.call.dns!.type} ${c.call.dns!.name} ${c.call.timeoutMs}`), calls };
  };
  return { ctx, sh };
}

const BB_HEAD = 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n';
const BIND_HEAD = 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n';

describe('busybox nslookup (1.36)', () => {
  it('answers a dotted name with its A record, and says the AAAA query found nothing', () => {
    const r = pod('busybox').sh('nslookup kubernetes.default.svc.cluster.local');
    expect(r.stdout).toBe(`${BB_HEAD}Name:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n*** Can't find kubernetes.default.svc.cluster.local: No answer\n\n`);
    expect(r.code).toBe(0);
  });

  it('asks a dotless name under every search domain, A then AAAA, one block per answer, and fails on the NXDOMAINs', () => {
    const r = pod('busybox').sh('nslookup web');
    expect(r.stdout).toBe(
      `${BB_HEAD}Name:\tweb.default.svc.cluster.local\nAddress: 10.96.100.7\n\n` +
        "** server can't find web.svc.cluster.local: NXDOMAIN\n\n** server can't find web.cluster.local: NXDOMAIN\n\n" +
        "*** Can't find web.default.svc.cluster.local: No answer\n\n" +
        "** server can't find web.svc.cluster.local: NXDOMAIN\n\n** server can't find web.cluster.local: NXDOMAIN\n\n",
    );
    expect(r.code).toBe(1);
    expect(r.queries).toHaveLength(6);
  });

  it('does not search for kubernetes.default (it has a dot): NXDOMAIN from upstream, or SERVFAIL retried then shown', () => {
    expect(pod('busybox').sh('nslookup kubernetes.default').stdout).toBe(`${BB_HEAD}** server can't find kubernetes.default: NXDOMAIN\n\n** server can't find kubernetes.default: NXDOMAIN\n\n`);
    const sf = pod('busybox', (q) => coredns(q, 'SERVFAIL')).sh('nslookup kubernetes.default');
    expect(sf.stdout).toBe(`${BB_HEAD}** server can't find kubernetes.default: SERVFAIL\n\n** server can't find kubernetes.default: SERVFAIL\n\n`);
    expect(sf.queries).toHaveLength(6);
    expect(sf.code).toBe(1);
  });

  it('with no server answering: two sends 2.5 s apart, then "connection timed out" after 5 s', () => {
    const r = pod('busybox', () => 'timeout').sh('nslookup web.default.svc.cluster.local');
    expect(r.stdout).toBe(';; connection timed out; no servers could be reached\n\n');
    expect(r.code).toBe(1);
    expect(r.at).toBe(5000);
    expect(r.queries).toEqual(['0 A web.default.svc.cluster.local. 2500', '2500 A web.default.svc.cluster.local. 2500']);
  });

  it('reads the ICMP refusal on its connected socket as an error, once per send', () => {
    const r = pod('busybox', () => 'refused').sh('nslookup web.default.svc.cluster.local');
    expect(r.stderr).toBe('nslookup: read: Connection refused\nnslookup: read: Connection refused\n');
    expect(r.stdout).toBe(';; connection timed out; no servers could be reached\n\n');
    expect([r.code, r.at]).toEqual([1, 5000]);
  });

  it('asks the server it is given, without the search list; a PTR for an address', () => {
    const h = pod('busybox', (q) => (q.type === 'PTR' ? { rcode: 'NOERROR', authoritative: true, answer: [{ name: q.name, type: 'PTR', ttl: 30, data: 'kube-dns.kube-system.svc.cluster.local.' }], authority: [], additional: [] } : coredns(q)));
    expect(h.sh('nslookup web 10.96.0.10').queries.map((q) => q.split(' ')[2])).toEqual(['web.', 'web.']);
    expect(h.sh('nslookup 10.96.0.10').stdout).toBe(`${BB_HEAD}10.0.96.10.in-addr.arpa\tname = kube-dns.kube-system.svc.cluster.local\n\n`);
  });

  it('prints its usage without a name', () => {
    const r = pod('busybox').sh('nslookup');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n');
  });
});

describe('BIND 9.9 nslookup (jessie-dnsutils)', () => {
  it('finds kubernetes.default through the search list, printing only the answer', () => {
    const r = pod('gnu').sh('nslookup kubernetes.default');
    expect(r.stdout).toBe(`${BIND_HEAD}Name:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n`);
    expect(r.code).toBe(0);
    expect(r.queries.map((q) => q.split(' ')[2])).toEqual(['kubernetes.default.default.svc.cluster.local.', 'kubernetes.default.svc.cluster.local.']);
  });

  it('NXDOMAIN on every candidate: the name as typed', () => {
    const r = pod('gnu').sh('nslookup nosuch');
    expect(r.stdout).toBe(`${BIND_HEAD}** server can't find nosuch: NXDOMAIN\n\n`);
    expect(r.code).toBe(1);
  });

  it('with no server answering: three tries of 5 s per candidate, "trying next origin" between them', () => {
    const r = pod('gnu', () => 'timeout').sh('nslookup web');
    expect(r.stdout).toBe(`${';; connection timed out; trying next origin\n'.repeat(3)};; connection timed out; no servers could be reached\n\n`);
    expect([r.code, r.at]).toEqual([1, 60_000]);
    expect(r.queries.slice(0, 3)).toEqual(['0 A web.default.svc.cluster.local. 5000', '5000 A web.default.svc.cluster.local. 5000', '10000 A web.default.svc.cluster.local. 5000']);
  });

  it('never hears a refusal (its socket is not connected): the same as no answer', () => {
    const r = pod('gnu', () => 'refused').sh('nslookup web.default.svc.cluster.local.');
    expect(r.stdout).toBe(';; connection timed out; no servers could be reached\n\n');
    expect([r.code, r.at]).toEqual([1, 15_000]);
  });
});

describe('dig (BIND 9.9)', () => {
  it('prints the header, the flags CoreDNS sets, the sections, the server and the message size', () => {
    const r = pod('gnu').sh('dig kubernetes.default.svc.cluster.local');
    const q = { name: 'kubernetes.default.svc.cluster.local.', type: 'A' as const };
    expect(messageSize(q, coredns(q), true)).toBe(117);
    expect(r.stdout.replace(/id: \d+/, 'id: N')).toBe(
      '\n; <<>> DiG 9.9.5-9+deb8u19-Debian <<>> kubernetes.default.svc.cluster.local\n;; global options: +cmd\n;; Got answer:\n' +
        ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: N\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n' +
        ';; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 4096\n;; QUESTION SECTION:\n;kubernetes.default.svc.cluster.local. IN A\n\n' +
        ';; ANSWER SECTION:\nkubernetes.default.svc.cluster.local. 30 IN A\t10.96.0.1\n\n' +
        `;; Query time: 0 msec\n;; SERVER: 10.96.0.10#53(10.96.0.10)\n;; WHEN: ${dateText(0, '%a %b %d %H:%M:%S %Z %Y')}\n;; MSG SIZE  rcvd: 117\n\n`,
    );
    expect(r.code).toBe(0);
  });

  it('+short prints the data alone; NXDOMAIN is a reply (exit 0) with the SOA in AUTHORITY', () => {
    const h = pod('gnu');
    expect(h.sh('dig +short web.default.svc.cluster.local').stdout).toBe('10.96.100.7\n');
    const nx = h.sh('dig nosuch.default.svc.cluster.local');
    expect(nx.code).toBe(0);
    expect(nx.stdout).toContain('status: NXDOMAIN');
    expect(nx.stdout).toContain(';; AUTHORITY SECTION:\ncluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1735689600 7200 1800 86400 30\n\n');
    expect(nx.stdout).toContain(';nosuch.default.svc.cluster.local. IN\tA\n');
    expect(nx.stdout).toContain(';; MSG SIZE  rcvd: 154\n');
  });

  it('does not search by default; with no server answering it exits 9 after three tries of 5 s', () => {
    const r = pod('gnu', () => 'timeout').sh('dig web');
    expect(r.stdout).toBe('\n; <<>> DiG 9.9.5-9+deb8u19-Debian <<>> web\n;; global options: +cmd\n;; connection timed out; no servers could be reached\n');
    expect([r.code, r.at]).toEqual([9, 15_000]);
    expect(r.queries.map((q) => q.split(' ')[2])).toEqual(['web.', 'web.', 'web.']);
    const refused = pod('gnu', () => 'refused').sh('dig +short @10.96.0.10 web.default.svc.cluster.local');
    expect([refused.stdout, refused.code, refused.at]).toEqual([';; connection timed out; no servers could be reached\n', 9, 15_000]);
  });
});

describe('host (BIND 9.9)', () => {
  it('an answer, NXDOMAIN, and no server', () => {
    expect(pod('gnu').sh('host web').stdout).toBe('web.default.svc.cluster.local has address 10.96.100.7\n');
    const nx = pod('gnu').sh('host nosuch');
    expect([nx.stdout, nx.code]).toEqual(['Host nosuch not found: 3(NXDOMAIN)\n', 1]);
    const none = pod('gnu', () => 'timeout').sh('host web.default.svc.cluster.local.');
    expect([none.stdout, none.code, none.at]).toEqual([';; connection timed out; no servers could be reached\n', 1, 10_000]);
  });
});

describe('getent hosts (glibc)', () => {
  it('takes /etc/hosts first (IPv6 before IPv4), then DNS; exit 2 when nothing has the name', () => {
    const h = pod('gnu');
    expect(h.sh('getent hosts localhost').stdout).toBe('::1             localhost ip6-localhost ip6-loopback\n');
    expect(h.sh('getent hosts kubernetes.default').stdout).toBe('10.96.0.1       kubernetes.default.svc.cluster.local\n');
    expect(h.sh('getent hosts nosuch; echo $?').stdout).toBe('2\n');
  });
});

describe('wget and curl by name', () => {
  it('busybox wget looks the name up through the search list, then connects to its address', () => {
    const r = pod('busybox').sh('wget -qO- http://web:8080/');
    expect(r.stdout).toBe('hello from 10.96.100.7\n');
    expect(r.calls.map((c) => (c.call.tool === 'dns' ? c.call.dns!.name : `${c.call.http.ip}:${c.call.http.port} Host: ${c.call.http.host}`))).toEqual(['web.default.svc.cluster.local.', '10.96.100.7:8080 Host: web:8080']);
  });

  it("busybox wget: bad address — at once for NXDOMAIN, after musl's 5 s without a server", () => {
    const nx = pod('busybox').sh('wget -qO- http://nosuch');
    expect([nx.stderr, nx.code, nx.at]).toEqual(["wget: bad address 'nosuch'\n", 1, 0]);
    const none = pod('busybox', () => 'timeout').sh('wget -qO- http://nosuch');
    expect([none.stderr, none.at]).toEqual(["wget: bad address 'nosuch'\n", 5000]);
  });

  it("curl: (6) Could not resolve host, after glibc's 20 s without a server; its own timeout cuts the lookup short (28)", () => {
    const nx = pod('gnu').sh('curl -sS http://nosuch/');
    expect([nx.stderr, nx.code]).toEqual(['curl: (6) Could not resolve host: nosuch\n', 6]);
    const none = pod('gnu', () => 'timeout').sh('curl -sS http://web/');
    expect([none.stderr, none.code, none.at]).toEqual(['curl: (6) Could not resolve host: web\n', 6, 20_000]);
    const short = pod('gnu', () => 'timeout').sh('curl -sS --connect-timeout 3 http://web/');
    expect([short.stderr, short.code, short.at]).toEqual(['curl: (28) Resolving timed out after 3000 milliseconds\n', 28, 3000]);
  });

  it('asks again from the start as each answer comes back over the network, replaying the earlier ones', () => {
    const lines: string[] = [];
    const calls: NetCall[] = [];
    const ctx: ShellContext = { ...pod('busybox').ctx, out: (_at, _fd, text) => lines.push(text), connect: (call) => (calls.push(call), calls.length) };
    const p = spawn(['sh', '-c', 'wget -qO- http://web'], {}, 0, 'busybox');
    run(p, 1e9, ctx);
    expect(calls.map((c) => c.dns?.name)).toEqual(['web.default.svc.cluster.local.']);
    expect(netReply(p, 1, { k: 'dns', response: { rcode: 'NXDOMAIN', authoritative: true, answer: [], authority: [SOA], additional: [] } }, 3)).toBe(true);
    run(p, 1e9, ctx);
    expect(calls.map((c) => c.dns?.name)).toEqual(['web.default.svc.cluster.local.', 'web.svc.cluster.local.']);
    expect(calls[1]!.timeoutMs).toBe(2500);
    netReply(p, 2, { k: 'dns', response: { rcode: 'NOERROR', authoritative: true, answer: [{ name: 'web.svc.cluster.local.', type: 'A', ttl: 30, data: '10.96.100.7' }], authority: [], additional: [] } }, 5);
    run(p, 1e9, ctx);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toMatchObject({ tool: 'wget', http: { ip: '10.96.100.7', port: 80 } });
    netReply(p, 3, { k: 'http', status: 200, headers: {}, body: 'page\n' }, 9);
    run(p, 1e9, ctx);
    expect(lines.join('')).toBe('page\n');
    expect(p.exit).toEqual({ code: 0, at: 9 });
  });
});
