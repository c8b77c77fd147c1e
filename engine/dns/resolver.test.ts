// The stub resolver against a scripted network: which names it asks in which
// order (ndots, the search list, a trailing dot), how long each libc waits
// and how often it asks again, and where each stops (NXDOMAIN, NODATA,
// SERVFAIL, no answer, ICMP refusals).
import { describe, expect, it } from 'vitest';
import type { DnsQuestion, DnsResponse } from './message';
import { drive, lookupHost, parseResolvConf, searchCandidates, type Libc, type Reply, type ResolvConf, type Step } from './resolver';

/** The kubelet's resolv.conf for a pod in `default` (ClusterFirst). */
const KUBELET = 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n';

const SOA = { name: 'cluster.local.', type: 'SOA' as const, ttl: 30, data: 'ns.dns.cluster.local. hostmaster.cluster.local. 1735689600 7200 1800 86400 30' };
const nx = (): DnsResponse => ({ rcode: 'NXDOMAIN', authoritative: true, answer: [], authority: [SOA], additional: [] });
const nodata = (): DnsResponse => ({ rcode: 'NOERROR', authoritative: true, answer: [], authority: [SOA], additional: [] });
const servfail = (): DnsResponse => ({ rcode: 'SERVFAIL', authoritative: false, answer: [], authority: [], additional: [] });
const a = (name: string, ip: string): DnsResponse => ({ rcode: 'NOERROR', authoritative: true, answer: [{ name, type: 'A', ttl: 30, data: ip }], authority: [], additional: [] });

type Answer = DnsResponse | 'timeout' | 'refused';

/** Runs a lookup against `server`; what went on the wire (queries and pauses), the result, and the time it took. */
function run(name: string, libc: Libc, server: (q: DnsQuestion, ns: string) => Answer, conf: ResolvConf = parseResolvConf(KUBELET, libc)) {
  const wire: string[] = [];
  let t = 0;
  const result = drive(lookupHost(name, conf, libc), (s: Step): Reply => {
    if (s.k === 'wait') {
      wire.push(`wait ${s.ms}`);
      t += s.ms;
      return { k: 'timeout', elapsedMs: s.ms };
    }
    wire.push(`${s.server} ${s.question.name} ${s.timeoutMs}`);
    const got = server(s.question, s.server);
    if (got === 'timeout') {
      t += s.timeoutMs;
      return { k: 'timeout', elapsedMs: s.timeoutMs };
    }
    t += 1;
    return got === 'refused' ? { k: 'refused', elapsedMs: 1 } : { k: 'response', response: got, elapsedMs: 1 };
  });
  return { wire, result, ms: t };
}

/** A CoreDNS for the cluster: web and kubernetes in default, everything else under cluster.local NXDOMAIN. */
const coredns = (q: DnsQuestion): Answer => {
  if (q.name === 'web.default.svc.cluster.local.') return a(q.name, '10.96.100.7');
  if (q.name === 'kubernetes.default.svc.cluster.local.') return a(q.name, '10.96.0.1');
  return nx();
};

describe('resolv.conf', () => {
  it('reads the kubelet’s file, and falls back to the defaults and the local server', () => {
    expect(parseResolvConf(KUBELET, 'glibc')).toEqual({ nameservers: ['10.96.0.10'], search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'], ndots: 5, timeout: 5, attempts: 2 });
    expect(parseResolvConf(null, 'musl')).toEqual({ nameservers: ['127.0.0.1'], search: [], ndots: 1, timeout: 5, attempts: 2 });
  });

  it('keeps three nameservers, lets the last search/domain line win, and caps the options per libc', () => {
    const text = '# comment\nnameserver 10.0.0.1\nnameserver 10.0.0.2\nnameserver 10.0.0.3\nnameserver 10.0.0.4\nsearch a.example b.example\ndomain c.example d.example\noptions ndots:20 timeout:45 attempts:7\n';
    expect(parseResolvConf(text, 'glibc')).toEqual({ nameservers: ['10.0.0.1', '10.0.0.2', '10.0.0.3'], search: ['c.example'], ndots: 15, timeout: 30, attempts: 5 });
    expect(parseResolvConf(text, 'musl')).toMatchObject({ search: ['c.example', 'd.example'], ndots: 15, timeout: 45, attempts: 7 });
  });
});

describe('candidate names', () => {
  const conf = parseResolvConf(KUBELET, 'glibc');
  const s = ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'];
  it.each([
    ['web', 'glibc', [...s.map((d) => `web.${d}.`), 'web.']],
    ['web', 'musl', [...s.map((d) => `web.${d}.`), 'web.']],
    ['web.default', 'glibc', [...s.map((d) => `web.default.${d}.`), 'web.default.']],
    // five dots reach ndots:5: the name as it is first; musl then stops there.
    ['a.b.c.d.e.f', 'glibc', ['a.b.c.d.e.f.', ...s.map((d) => `a.b.c.d.e.f.${d}.`)]],
    ['a.b.c.d.e.f', 'musl', ['a.b.c.d.e.f.']],
    ['web.default.svc.cluster.local.', 'glibc', ['web.default.svc.cluster.local.']],
    ['web.default.svc.cluster.local.', 'musl', ['web.default.svc.cluster.local.']],
  ] as const)('%s (%s)', (name, libc, want) => {
    expect(searchCandidates(name, conf, libc)).toEqual(want);
  });

  it('with ndots:1 a dotted name goes as it is first (glibc) or alone (musl)', () => {
    const one = parseResolvConf('search ns.svc.cluster.local\nnameserver 10.96.0.10\n', 'glibc');
    expect(searchCandidates('web.ns', one, 'glibc')).toEqual(['web.ns.', 'web.ns.ns.svc.cluster.local.']);
    expect(searchCandidates('web.ns', one, 'musl')).toEqual(['web.ns.']);
    expect(searchCandidates('web', one, 'musl')).toEqual(['web.ns.svc.cluster.local.', 'web.']);
  });
});

describe('musl', () => {
  it('walks the search list past NXDOMAIN and takes the first address', () => {
    const r = run('kubernetes.default', 'musl', coredns);
    expect(r.wire).toEqual(['10.96.0.10 kubernetes.default.default.svc.cluster.local. 2500', '10.96.0.10 kubernetes.default.svc.cluster.local. 2500']);
    expect(r.result).toEqual({ ok: true, name: 'kubernetes.default.svc.cluster.local', aliases: [], addresses: ['10.96.0.1'] });
  });

  it('with no server answering: one query every timeout/attempts, EAI_AGAIN after the timeout, the search stopped', () => {
    const r = run('web', 'musl', () => 'timeout');
    expect(r.wire).toEqual(['10.96.0.10 web.default.svc.cluster.local. 2500', '10.96.0.10 web.default.svc.cluster.local. 2500']);
    expect(r.result).toEqual({ ok: false, error: 'try-again', timedOut: true });
    expect(r.ms).toBe(5000);
  });

  it('never hears an ICMP refusal on its unconnected socket: it waits out each interval', () => {
    const r = run('web', 'musl', () => 'refused');
    expect(r.wire).toEqual(['10.96.0.10 web.default.svc.cluster.local. 2500', 'wait 2499', '10.96.0.10 web.default.svc.cluster.local. 2500', 'wait 2499']);
    expect(r.result).toMatchObject({ ok: false, error: 'try-again' });
    expect(r.ms).toBe(5000);
  });

  it('retries a SERVFAIL at once twice per interval, then ignores it until the timeout', () => {
    const r = run('web', 'musl', servfail);
    const q = '10.96.0.10 web.default.svc.cluster.local. ';
    expect(r.wire).toEqual([`${q}2500`, `${q}2499`, `${q}2498`, 'wait 2497', `${q}2500`, `${q}2499`, `${q}2498`, 'wait 2497']);
    expect(r.result).toMatchObject({ ok: false, error: 'try-again' });
    expect(r.ms).toBe(5000);
  });

  it('stops at NODATA (EAI_NODATA) and reports NXDOMAIN everywhere as EAI_NONAME', () => {
    expect(run('web', 'musl', (q) => (q.name === 'web.default.svc.cluster.local.' ? nodata() : nx())).result).toEqual({ ok: false, error: 'no-data', timedOut: false });
    const all = run('nosuch', 'musl', coredns);
    expect(all.wire).toHaveLength(4);
    expect(all.result).toEqual({ ok: false, error: 'not-found', timedOut: false });
  });

  it('sends to every nameserver in each interval (here one after the other, sharing it)', () => {
    const conf = parseResolvConf('nameserver 10.0.0.1\nnameserver 10.0.0.2\n', 'musl');
    const r = run('web.example.', 'musl', (_q, ns) => (ns === '10.0.0.1' ? 'timeout' : a('web.example.', '192.0.2.1')), conf);
    expect(r.wire).toEqual(['10.0.0.1 web.example. 1250', '10.0.0.2 web.example. 1250']);
    expect(r.result).toMatchObject({ ok: true, addresses: ['192.0.2.1'] });
  });
});

describe('glibc', () => {
  it('asks the search list, then the name as it is', () => {
    const r = run('web', 'glibc', coredns);
    expect(r.wire).toEqual(['10.96.0.10 web.default.svc.cluster.local. 5000']);
    expect(run('nosuch', 'glibc', coredns).wire.map((w) => w.split(' ')[1])).toEqual(['nosuch.default.svc.cluster.local.', 'nosuch.svc.cluster.local.', 'nosuch.cluster.local.', 'nosuch.']);
  });

  it('with no server answering: each query waits `timeout` per attempt; a timeout ends the search but the name as it is is still tried', () => {
    const r = run('web', 'glibc', () => 'timeout');
    expect(r.wire).toEqual(['10.96.0.10 web.default.svc.cluster.local. 5000', '10.96.0.10 web.default.svc.cluster.local. 5000', '10.96.0.10 web. 5000', '10.96.0.10 web. 5000']);
    expect(r.result).toEqual({ ok: false, error: 'try-again', timedOut: true });
    expect(r.ms).toBe(20_000);
  });

  it('hears the ICMP refusal on its connected socket: every attempt fails at once, and the lookup gives up', () => {
    const r = run('web', 'glibc', () => 'refused');
    expect(r.wire).toEqual(['10.96.0.10 web.default.svc.cluster.local. 5000', '10.96.0.10 web.default.svc.cluster.local. 5000']);
    expect(r.result).toEqual({ ok: false, error: 'try-again', timedOut: false });
    expect(r.ms).toBe(2);
  });

  it('moves past SERVFAIL and NODATA down the search list; NODATA is what it reports', () => {
    const sf = run('web', 'glibc', servfail);
    expect(sf.wire).toHaveLength(8);
    expect(sf.result).toMatchObject({ ok: false, error: 'try-again' });
    const nd = run('web', 'glibc', (q) => (q.name === 'web.svc.cluster.local.' ? nodata() : nx()));
    expect(nd.wire).toHaveLength(4);
    expect(nd.result).toMatchObject({ ok: false, error: 'no-data' });
  });

  it('gives each later nameserver (timeout << ns) / nscount seconds', () => {
    const conf = parseResolvConf('nameserver 10.0.0.1\nnameserver 10.0.0.2\nnameserver 10.0.0.3\noptions attempts:1\n', 'glibc');
    const r = run('web.example.', 'glibc', () => 'timeout', conf);
    expect(r.wire).toEqual(['10.0.0.1 web.example. 5000', '10.0.0.2 web.example. 3000', '10.0.0.3 web.example. 6000']);
  });

  it('follows a CNAME to the name that holds the address', () => {
    const cname: DnsResponse = {
      rcode: 'NOERROR',
      authoritative: true,
      answer: [
        { name: 'ext.default.svc.cluster.local.', type: 'CNAME', ttl: 30, data: 'db.example.com.' },
        { name: 'db.example.com.', type: 'A', ttl: 30, data: '192.0.2.10' },
      ],
      authority: [],
      additional: [],
    };
    expect(run('ext', 'glibc', (q) => (q.name === 'ext.default.svc.cluster.local.' ? cname : nx())).result).toEqual({ ok: true, name: 'db.example.com', aliases: ['ext.default.svc.cluster.local'], addresses: ['192.0.2.10'] });
  });
});
