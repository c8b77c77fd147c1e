// The stub resolver a container's libc runs for getaddrinfo: it reads
// /etc/resolv.conf, makes the candidate names the search list gives, and asks
// the nameservers over UDP with the libc's own timeouts and retries, until an
// answer or an error decides. Two libcs, as the images ship them:
//
// - musl (Alpine, and the busybox images here): src/network/resolvconf.c,
//   lookup_name.c (name_from_dns_search) and res_msend.c. One overall timeout
//   per query (`timeout`), retransmitted every timeout/attempts to every
//   nameserver at once; only NOERROR and NXDOMAIN answers count (SERVFAIL is
//   retried at once, REFUSED ignored), so a failing server costs the whole
//   timeout. Its UDP socket is not connected: an ICMP port unreachable goes
//   unheard. Only NXDOMAIN moves on to the next search candidate.
// - glibc (Debian-based images): resolv/res_init.c, res_query.c
//   (__res_context_search) and res_send.c (send_dg). Each nameserver gets its
//   own timeout (`timeout`, shifted for the later ones), `attempts` rounds over
//   all of them; SERVFAIL, NOTIMP and REFUSED answers move on to the next
//   server; a connected socket hears ICMP port unreachable at once. NXDOMAIN,
//   NODATA and SERVFAIL move on to the next search candidate, a timeout stops
//   the search (the name as is is still tried), a refusal everywhere stops it all.
//
// The resolver is a plan, not an effect: lookupHost is a generator that yields
// the exchanges it wants (one UDP query at a time, with the time the libc
// would wait for it, or a pause) and is sent back what came of each. The
// shell drives it over the simulated network; tests drive it with `drive`.
//
// It asks A records only. Real getaddrinfo (AF_UNSPEC) sends an AAAA query
// alongside each A query (musl in the same datagram burst, glibc on the same
// socket); the playground's pods have no IPv6, and an AAAA query for a
// cluster name only ever gets an empty NOERROR, so leaving it out changes
// which address a client gets nowhere (the packets on the wire, though, are
// half of what tcpdump would show).
import { fqdn, type DnsQuestion, type DnsResponse, type RRType } from './message';

/** Which C library does the resolving. */
export type Libc = 'musl' | 'glibc';

/** What /etc/resolv.conf says, as one libc reads it. */
export interface ResolvConf {
  /** IPv4 nameservers, at most three (MAXNS); 127.0.0.1 when none is given. */
  nameservers: string[];
  /** The search list ("search", or "domain": the last of the two wins), without trailing dots. */
  search: string[];
  ndots: number;
  /** Seconds. */
  timeout: number;
  attempts: number;
}

/** The defaults both libcs share (RES_DFLRETRY, RES_TIMEOUT, ndots 1). */
export const RESOLV_DEFAULTS = { ndots: 1, timeout: 5, attempts: 2 } as const;

/** The caps each libc puts on the options (glibc: RES_MAXNDOTS, RES_MAXRETRANS, RES_MAXRETRY). */
const CAPS: Record<Libc, { ndots: number; timeout: number; attempts: number }> = {
  musl: { ndots: 15, timeout: 60, attempts: 10 },
  glibc: { ndots: 15, timeout: 30, attempts: 5 },
};

const MAXNS = 3;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * resolv.conf as `libc` reads it: nameserver lines (IPv4 ones; the
 * playground's pods have no IPv6), search/domain, `options ndots:n timeout:n
 * attempts:n`. Lines starting with # or ; are comments; an unreadable file
 * means the defaults and the local nameserver.
 */
export function parseResolvConf(text: string | null | undefined, libc: Libc): ResolvConf {
  const caps = CAPS[libc];
  const conf: ResolvConf = { nameservers: [], search: [], ...RESOLV_DEFAULTS };
  for (const raw of (text ?? '').split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || line.startsWith(';')) continue;
    const [key, ...rest] = line.split(/\s+/);
    if (key === 'nameserver') {
      const ip = rest[0] ?? '';
      if (IPV4.test(ip) && conf.nameservers.length < MAXNS) conf.nameservers.push(ip);
    } else if (key === 'search' || key === 'domain') {
      // glibc takes one domain from "domain"; musl keeps the whole line either way.
      const doms = (key === 'domain' && libc === 'glibc' ? rest.slice(0, 1) : rest).filter(Boolean);
      conf.search = doms.map((d) => d.replace(/\.$/, '')).filter((d) => d !== '');
    } else if (key === 'options') {
      for (const opt of rest) {
        const m = /^(ndots|timeout|attempts):(\d+)$/.exec(opt);
        if (!m) continue;
        const k = m[1] as 'ndots' | 'timeout' | 'attempts';
        conf[k] = Math.min(Number(m[2]), caps[k]);
      }
    }
  }
  // attempts:0 would leave nothing to send: both treat it as one.
  conf.attempts = Math.max(1, conf.attempts);
  if (conf.nameservers.length === 0) conf.nameservers.push('127.0.0.1');
  return conf;
}

/** How many dots a name has (a trailing one included). */
const dotsIn = (name: string) => [...name].filter((c) => c === '.').length;

/**
 * The names a lookup of `name` asks, in order, fully qualified. A trailing dot
 * asks the name as it is and nothing else. glibc: with at least ndots dots the
 * name as is first, then each search domain; with fewer, the search domains
 * first and the name as is last. musl suppresses the search list altogether
 * once the name has ndots dots (name_from_dns_search).
 */
export function searchCandidates(name: string, conf: ResolvConf, libc: Libc): string[] {
  if (name.endsWith('.')) return [fqdn(name)];
  const asIs = fqdn(name);
  const searched = conf.search.map((d) => fqdn(`${name}.${d}`));
  const enough = dotsIn(name) >= conf.ndots;
  if (libc === 'musl') return enough ? [asIs] : [...searched, asIs];
  return enough ? [asIs, ...searched] : [...searched, asIs];
}

/** What a lookup wants next: a UDP query to `server` port 53, waited on for `timeoutMs`, or a pause. */
export type Step = { k: 'query'; server: string; port?: number; question: DnsQuestion; timeoutMs: number } | { k: 'wait'; ms: number };

/**
 * What came of a step: the server's response, no answer in time, or an ICMP
 * port unreachable (`refused`); `elapsedMs` is how long it took. A pause is
 * answered with a timeout of its length.
 */
export type Reply = { k: 'response'; response: DnsResponse; elapsedMs: number } | { k: 'timeout'; elapsedMs: number } | { k: 'refused'; elapsedMs: number };

/** A lookup's error, as getaddrinfo reports it: EAI_NONAME, EAI_NODATA, EAI_AGAIN (SERVFAIL, no answer), EAI_FAIL. */
export type LookupError = 'not-found' | 'no-data' | 'try-again' | 'fail';

export type LookupResult =
  /**
   * The canonical name (the CNAME target, or the candidate that answered) and
   * the names that led to it through CNAMEs (gethostbyname's h_aliases), without
   * their dots; the addresses in answer order.
   */
  | { ok: true; name: string; aliases: string[]; addresses: string[] }
  /** `timedOut`: some query got no answer at all. */
  | { ok: false; error: LookupError; timedOut: boolean };

export type Lookup<T> = Generator<Step, T, Reply>;

/** Runs a lookup with `exchange` answering its steps, one after the other. */
export function drive<T>(gen: Lookup<T>, exchange: (step: Step) => Reply): T {
  let r = gen.next();
  while (!r.done) r = gen.next(exchange(r.value));
  return r.value;
}

const withoutDot = (n: string) => (n.endsWith('.') && n.length > 1 ? n.slice(0, -1) : n);

/** The A records of an answer, and the name they belong to (the last CNAME's target, else the question). */
function addressesOf(res: DnsResponse, asked: string): { name: string; aliases: string[]; addresses: string[] } {
  let name = fqdn(asked);
  const aliases: string[] = [];
  for (const r of res.answer) {
    if (r.type !== 'CNAME' || fqdn(r.name) !== name) continue;
    aliases.push(withoutDot(name));
    name = fqdn(r.data);
  }
  return { name: withoutDot(name), aliases, addresses: res.answer.filter((r) => r.type === 'A' && fqdn(r.name) === name).map((r) => r.data) };
}

/**
 * musl's __res_msend_rc for one question: every nameserver is sent the query
 * at the start of each retry interval (timeout/attempts), until `timeout` has
 * passed. Here the servers are asked one after the other, each with its share
 * of what is left of the interval; a refusal or an ignored answer moves on to
 * the next, and what remains of the interval is waited out. Null: no usable
 * answer in time.
 */
export function* muslSend(question: DnsQuestion, conf: ResolvConf): Lookup<DnsResponse | null> {
  const timeout = conf.timeout * 1000;
  const interval = Math.floor(timeout / conf.attempts);
  const servers = conf.nameservers;
  let t = 0;
  while (t < timeout && interval > 0) {
    const roundEnd = t + interval;
    // "retry immediately on server failure": 2 per query and retransmission.
    let servfailRetry = 2;
    for (let j = 0; j < servers.length && t < roundEnd; ) {
      const share = Math.floor((roundEnd - t) / (servers.length - j));
      const r = yield { k: 'query', server: servers[j]!, question, timeoutMs: share };
      t += r.elapsedMs;
      if (r.k === 'response') {
        const rc = r.response.rcode;
        if (rc === 'NOERROR' || rc === 'NXDOMAIN') return r.response;
        if (rc === 'SERVFAIL' && servfailRetry > 0) {
          servfailRetry--;
          continue;
        }
      }
      // A timeout spent the share; ICMP goes unheard on the unconnected socket; other answers are ignored.
      j++;
    }
    if (t < roundEnd) {
      yield { k: 'wait', ms: roundEnd - t };
      t = roundEnd;
    }
  }
  return null;
}

/** musl's getaddrinfo for an A record (name_from_dns_search, name_from_dns). */
function* muslLookup(name: string, conf: ResolvConf): Lookup<LookupResult> {
  for (const cand of searchCandidates(name, conf, 'musl')) {
    const res = yield* muslSend({ name: cand, type: 'A' }, conf);
    // No reply (or only SERVFAILs): EAI_AGAIN, and the search stops.
    if (!res) return { ok: false, error: 'try-again', timedOut: true };
    if (res.rcode === 'NXDOMAIN') continue;
    const found = addressesOf(res, cand);
    if (found.addresses.length) return { ok: true, ...found };
    // NOERROR without an address (NODATA) ends the search: EAI_NODATA.
    return { ok: false, error: 'no-data', timedOut: false };
  }
  return { ok: false, error: 'not-found', timedOut: false };
}

/** What glibc's __res_context_send came to for one question. */
export interface GlibcSent {
  /** The answer it accepted (anything but SERVFAIL, NOTIMP, REFUSED), or null. */
  response: DnsResponse | null;
  /** The last answer it received and passed over (its rcode is what the caller sees in the buffer). */
  passed: DnsResponse | null;
  /** No server answered or timed out: every attempt was refused (errno ECONNREFUSED). */
  refused: boolean;
  /** Some attempt got no answer in time. */
  timedOut: boolean;
}

/**
 * glibc's __res_context_send over UDP: `attempts` rounds, each asking every
 * nameserver in turn; send_dg waits `timeout` seconds for the first server,
 * (timeout << ns) / nscount for the others.
 */
export function* glibcSend(question: DnsQuestion, conf: ResolvConf): Lookup<GlibcSent> {
  const n = conf.nameservers.length;
  let gotSomewhere = false;
  let timedOut = false;
  let passed: DnsResponse | null = null;
  for (let attempt = 0; attempt < conf.attempts; attempt++) {
    for (let ns = 0; ns < n; ns++) {
      let seconds = conf.timeout * 2 ** ns;
      if (ns > 0) seconds = Math.floor(seconds / n);
      if (seconds <= 0) seconds = 1;
      const r = yield { k: 'query', server: conf.nameservers[ns]!, question, timeoutMs: seconds * 1000 };
      if (r.k === 'refused') continue;
      gotSomewhere = true;
      if (r.k === 'timeout') {
        timedOut = true;
        continue;
      }
      const rc = r.response.rcode;
      if (rc === 'SERVFAIL' || rc === 'NOTIMP' || rc === 'REFUSED') {
        passed = r.response;
        continue;
      }
      return { response: r.response, passed, refused: false, timedOut };
    }
  }
  return { response: null, passed, refused: !gotSomewhere, timedOut };
}

/** h_errno after one candidate (res_query.c __res_context_query), or the addresses it found. */
type HErrno = 'HOST_NOT_FOUND' | 'NO_DATA' | 'TRY_AGAIN' | 'NO_RECOVERY';
type QueryResult = { ok: true; found: { name: string; aliases: string[]; addresses: string[] } } | { ok: false; herrno: HErrno; servfail: boolean; refused: boolean; timedOut: boolean };

function* glibcQuery(cand: string, conf: ResolvConf): Lookup<QueryResult> {
  const sent = yield* glibcSend({ name: cand, type: 'A' }, conf);
  const res = sent.response;
  if (!res) return { ok: false, herrno: 'TRY_AGAIN', servfail: sent.passed?.rcode === 'SERVFAIL', refused: sent.refused, timedOut: sent.timedOut };
  if (res.rcode === 'NXDOMAIN') return { ok: false, herrno: 'HOST_NOT_FOUND', servfail: false, refused: false, timedOut: false };
  if (res.rcode !== 'NOERROR') return { ok: false, herrno: 'NO_RECOVERY', servfail: false, refused: false, timedOut: false };
  const found = addressesOf(res, cand);
  if (found.addresses.length) return { ok: true, found };
  return { ok: false, herrno: 'NO_DATA', servfail: false, refused: false, timedOut: false };
}

const GAI: Record<HErrno, LookupError> = { HOST_NOT_FOUND: 'not-found', NO_DATA: 'no-data', TRY_AGAIN: 'try-again', NO_RECOVERY: 'fail' };

/** glibc's __res_context_search for an A record. */
function* glibcLookup(name: string, conf: ResolvConf): Lookup<LookupResult> {
  const trailingDot = name.endsWith('.');
  const dots = dotsIn(name);
  let saved: HErrno | null = null;
  let last: HErrno = 'HOST_NOT_FOUND';
  let gotNodata = false;
  let gotServfail = false;
  let timedOut = false;
  let triedAsIs = false;
  const fail = (herrno: HErrno): LookupResult => ({ ok: false, error: GAI[herrno], timedOut });
  if (dots >= conf.ndots || trailingDot) {
    const r = yield* glibcQuery(fqdn(name), conf);
    if (r.ok) return { ok: true, ...r.found };
    timedOut ||= r.timedOut;
    if (trailingDot) return fail(r.herrno);
    saved = r.herrno;
    triedAsIs = true;
  }
  // RES_DNSRCH and RES_DEFNAMES are on by default: the search list is walked.
  for (const d of conf.search) {
    const r = yield* glibcQuery(fqdn(`${name}.${d}`), conf);
    if (r.ok) return { ok: true, ...r.found };
    timedOut ||= r.timedOut;
    // "If no server present, give up."
    if (r.refused) return fail('TRY_AGAIN');
    last = r.herrno;
    if (r.herrno === 'NO_DATA') gotNodata = true;
    else if (r.herrno === 'TRY_AGAIN' && r.servfail) gotServfail = true;
    else if (r.herrno !== 'HOST_NOT_FOUND') break;
  }
  if (!triedAsIs) {
    const r = yield* glibcQuery(fqdn(name), conf);
    if (r.ok) return { ok: true, ...r.found };
    timedOut ||= r.timedOut;
    last = r.herrno;
  }
  return fail(saved ?? (gotNodata ? 'NO_DATA' : gotServfail ? 'TRY_AGAIN' : last));
}

/**
 * getaddrinfo's DNS part for `name` (the caller has looked in /etc/hosts):
 * its IPv4 addresses, or the error the libc gives.
 */
export function lookupHost(name: string, conf: ResolvConf, libc: Libc): Lookup<LookupResult> {
  return libc === 'musl' ? muslLookup(name, conf) : glibcLookup(name, conf);
}

/** The RR types a question may ask, as the tools spell them (for parsing `-type=srv`, `dig … SRV`). */
export const RR_TYPES: readonly RRType[] = ['A', 'AAAA', 'CNAME', 'PTR', 'SRV', 'TXT', 'NS', 'SOA', 'MX', 'ANY'];

/** The in-addr.arpa name of an IPv4 address ("10.96.0.10" → "10.0.96.10.in-addr.arpa."), or null. */
export function reverseName(ip: string): string | null {
  return IPV4.test(ip) ? `${ip.split('.').reverse().join('.')}.in-addr.arpa.` : null;
}
