// The DNS tools of the images: busybox's nslookup applet (1.36's
// networking/nslookup.c, its own resolver: every search domain its own query,
// one block of output per answer), BIND 9.9's nslookup, host and dig (the
// jessie-dnsutils image: Debian jessie's dnsutils, bin/dig/{dighost,dig,
// nslookup,host}.c) and glibc's getent. Each is a plan of exchanges (see
// engine/dns/resolver.ts): it yields the UDP queries it sends, one at a time,
// is told what came back, and ends with what it prints. The shell runs the
// plan over the simulated network (interp.ts).
//
// Like the resolver, the tools that would send an AAAA query next to an A one
// (busybox nslookup by default, host's extra AAAA and MX lookups, getent's
// IPv6-first gethostbyname2) ask as the text says below; where it says A only,
// the AAAA half is left out.
import type { CommandEnv, CommandResult } from './commands';
import { dateText } from './commands';
import { isIPv4 } from '../../../apimachinery/validation/names';
import { fqdn, type DnsQuestion, type DnsRecord, type DnsResponse, type Rcode, type RRType } from '../../../dns/message';
import { messageSize, txtStrings } from '../../../dns/wire';
import { lookupHost, muslSend, parseResolvConf, reverseName, RR_TYPES, searchCandidates, type Libc, type Lookup, type LookupResult, type ResolvConf } from '../../../dns/resolver';

export type ToolRun = Lookup<CommandResult>;

/** musl on the busybox/alpine images, glibc on the Debian-based ones. */
export const libcOf = (e: CommandEnv): Libc => (e.flavour === 'busybox' ? 'musl' : 'glibc');

export const resolvConfOf = (e: CommandEnv): ResolvConf => parseResolvConf(e.fs.read('/etc/resolv.conf', e.at), libcOf(e));

/** One line of /etc/hosts: an address and its names (the first is the canonical one). */
export interface HostsLine {
  ip: string;
  names: string[];
}

/** /etc/hosts as the libcs read it: comments dropped, a line an address and its names. */
export function hostsFile(e: CommandEnv): HostsLine[] {
  const text = e.fs.read('/etc/hosts', e.at) ?? '127.0.0.1\tlocalhost\n';
  const out: HostsLine[] = [];
  for (const line of text.split('\n')) {
    const [ip, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (ip && names.length && (isIPv4(ip) || isIPv6(ip))) out.push({ ip, names });
  }
  return out;
}

/** The first IPv4 address /etc/hosts gives `name`, or null. */
export function hostsAddress(name: string, e: CommandEnv): string | null {
  const n = name.toLowerCase();
  return hostsFile(e).find((l) => isIPv4(l.ip) && l.names.some((x) => x.toLowerCase() === n))?.ip ?? null;
}

/** getaddrinfo for an IPv4 address: a literal, /etc/hosts, then DNS. */
export function* getaddrinfo(name: string, e: CommandEnv, conf: ResolvConf = resolvConfOf(e)): Lookup<LookupResult> {
  if (isIPv4(name)) return { ok: true, name, aliases: [], addresses: [name] };
  const fromFile = hostsAddress(name, e);
  if (fromFile) return { ok: true, name, aliases: [], addresses: [fromFile] };
  return yield* lookupHost(name, conf, libcOf(e));
}

/** The tool `name` runs as a plan of DNS exchanges, or null when it is not one of them. */
export function dnsTool(name: string, args: string[], e: CommandEnv): ToolRun | null {
  switch (name) {
    case 'nslookup':
      if (e.flavour !== 'busybox') return bindNslookup(args, e);
      return olderThan(e.busybox, [1, 29]) ? busybox128Nslookup(args, e) : busyboxNslookup(args, e);
    case 'dig':
      return dig(args, e);
    case 'host':
      return host(args, e);
    case 'getent':
      return getent(args, e);
  }
  return null;
}

const noDot = (n: string) => (n.length > 1 && n.endsWith('.') ? n.slice(0, -1) : n);

/** The first word of a record's data, and the rest. */
const fields = (data: string) => data.trim().split(/\s+/);

// ---- busybox nslookup ---------------------------------------------------------------

/** bb_show_usage: the applet's usage, as 1.36.1 builds it (FEATURE_NSLOOKUP_BIG); the build stamp is the image's. */
const BB_USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\nQuery DNS about HOST\n\nQUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,ptr,srv,any\n';

/** qtypes[], in the order -type= queries are added. */
const BB_QTYPES: readonly RRType[] = ['SOA', 'NS', 'A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'PTR', 'ANY'];

interface BbQuery {
  name: string;
  type: RRType;
  answered: boolean;
}

interface BbServer {
  name: string;
  ip: string;
  replies: number;
}

/** xatou_range's verdict on an option's value. */
function bbNumber(v: string, lo: number, hi: number): number | string {
  if (!/^\d+$/.test(v)) return `nslookup: invalid number '${v}'\n`;
  const n = Number(v);
  return n < lo || n > hi ? `nslookup: number ${v} is not in ${lo}..${hi} range\n` : n;
}

/** parse_reply: what an answer with RCODE 0 prints, and how many answer records it had. */
function bbParseReply(res: DnsResponse): { text: string; count: number } {
  let text = res.authoritative ? '' : 'Non-authoritative answer:\n';
  // The format falls through the switch and stays set for later records (nslookup.c's `format`).
  let format: string | null = null;
  for (const r of res.answer) {
    const owner = noDot(r.name);
    const f = fields(r.data);
    switch (r.type) {
      case 'A':
      case 'AAAA':
        text += `Name:\t${owner}\nAddress: ${r.data}\n`;
        break;
      case 'NS':
      case 'CNAME':
      case 'PTR':
        if (r.type === 'NS') format ??= 'nameserver';
        if (r.type !== 'PTR') format ??= 'canonical name';
        format ??= 'name';
        text += `${owner}\t${format} = ${noDot(r.data)}\n`;
        break;
      case 'MX':
        text += `${owner}\tmail exchanger = ${f[0]} ${noDot(f[1] ?? '')}\n`;
        break;
      case 'TXT': {
        const first = txtStrings(r.data)[0] ?? '';
        if (first) text += `${owner}\ttext = "${first}"\n`;
        break;
      }
      case 'SRV':
        text += `${owner}\tservice = ${f[0]} ${f[1]} ${f[2]} ${noDot(f[3] ?? '')}\n`;
        break;
      case 'SOA':
        text += `${owner}\n\torigin = ${noDot(f[0] ?? '')}\n\tmail addr = ${noDot(f[1] ?? '')}\n\tserial = ${f[2]}\n\trefresh = ${f[3]}\n\tretry = ${f[4]}\n\texpire = ${f[5]}\n\tminimum = ${f[6]}\n`;
        break;
    }
  }
  return { text, count: res.answer.length };
}

/**
 * send_queries for one server (borrowed from musl's res_msend): every
 * unanswered query is sent at the start of each retry interval
 * (timeout/retry); answers print as they arrive, the server's two header lines
 * before the first; SERVFAIL is resent at once, twice per query and interval,
 * then taken. The socket is connected: an ICMP port unreachable is read as an
 * error. Here the queries of an interval go one after the other; a timeout or
 * a refusal ends the interval. Returns how many queries were answered.
 */
function* bbSendQueries(ns: BbServer, queries: BbQuery[], o: { timeoutS: number; retry: number; port: number }, out: { stdout: string; stderr: string; exit: number }): Lookup<number> {
  const timeout = o.timeoutS * 1000;
  const interval = Math.floor(timeout / o.retry);
  let t = 0;
  let replied = 0;
  do {
    const roundEnd = t + interval;
    let servfailRetry = 2 * queries.length;
    const queue = queries.filter((q) => !q.answered);
    while (queue.length && t < roundEnd) {
      const q = queue.shift()!;
      const r = yield { k: 'query', server: ns.ip, port: o.port, question: { name: fqdn(q.name), type: q.type }, timeoutMs: roundEnd - t };
      t += r.elapsedMs;
      if (r.k === 'timeout') break;
      if (r.k === 'refused') {
        // The ICMPs the interval's datagrams drew come back as one pending socket error.
        out.stderr += 'nslookup: read: Connection refused\n';
        break;
      }
      if (ns.replies++ === 0) out.stdout += `Server:\t\t${ns.name}\nAddress:\t${ns.ip}:${o.port}\n\n`;
      const res = r.response;
      if (res.rcode === 'SERVFAIL' && servfailRetry > 0) {
        servfailRetry--;
        queue.push(q);
        continue;
      }
      q.answered = true;
      if (res.rcode !== 'NOERROR') {
        out.stdout += `** server can't find ${q.name}: ${res.rcode}\n`;
        out.exit = 1;
      } else {
        const p = bbParseReply(res);
        out.stdout += p.text;
        if (p.count === 0) out.stdout += `*** Can't find ${q.name}: No answer\n`;
      }
      out.stdout += '\n';
      if (++replied >= queries.length) return replied;
    }
    if (t < roundEnd) {
      yield { k: 'wait', ms: roundEnd - t };
      t = roundEnd;
    }
  } while (t < timeout);
  return replied;
}

/** Whether busybox release `v` ("1.28.4") comes before `than`; an unknown release is a current one. */
function olderThan(v: string | undefined, than: [number, number]): boolean {
  if (!v) return false;
  const [major = 0, minor = 0] = v.split('.').map(Number);
  return major < than[0] || (major === than[0] && minor < than[1]);
}

// ---- busybox 1.28's nslookup (before 1.29 rewrote it) ---------------------------------

/**
 * getnameinfo's reverse lookup of an address: the PTR query for its
 * in-addr.arpa name (dotted enough to go out as it is), its first name, or
 * null (numeric then).
 */
function* ptrName(ip: string, conf: ResolvConf): Lookup<string | null> {
  const rev = reverseName(ip);
  if (!rev) return null;
  const res = yield* muslSend({ name: rev, type: 'PTR' }, conf);
  const ptr = res?.rcode === 'NOERROR' ? res.answer.find((r) => r.type === 'PTR') : undefined;
  return ptr ? noDot(ptr.data) : null;
}

/**
 * The old applet goes through the C library: print_host's getaddrinfo of the
 * name (the search list, ndots), then each address's reverse name, as
 * `%-10s %s` and `Address N: IP NAME` lines; the default server first, the
 * same way. A name it cannot resolve: "nslookup: can't resolve 'NAME'".
 */
function* busybox128Nslookup(argv: string[], e: CommandEnv): ToolRun {
  const usage: CommandResult = { status: 1, stderr: 'BusyBox v1.28.4 (2018-05-22 17:00:17 UTC) multi-call binary.\n\nUsage: nslookup [HOST] [SERVER]\n\nQuery the nameserver for the IP address of the given HOST\noptionally using a specified DNS server\n' };
  if (!argv[0] || argv[0].startsWith('-') || argv.length > 2) return usage;
  const conf0 = resolvConfOf(e);
  const conf = argv[1] && isIPv4(argv[1]) ? { ...conf0, nameservers: [argv[1]] } : conf0;
  let stdout = '';
  const printHost = function* (name: string, header: string): Lookup<boolean> {
    const found = yield* getaddrinfo(name, e, conf);
    if (!found.ok) return false;
    stdout += `${header.padEnd(10)} ${name}\n`;
    let n = 0;
    for (const ip of found.addresses) {
      const rev = yield* ptrName(ip, conf);
      stdout += `Address ${++n}: ${ip}${rev ? ` ${rev}` : ''}\n`;
    }
    return true;
  };
  yield* printHost(conf.nameservers[0] ?? '127.0.0.1', 'Server:');
  stdout += '\n';
  const ok = yield* printHost(argv[0], 'Name:');
  return ok ? { status: 0, stdout } : { status: 1, stdout, stderr: `nslookup: can't resolve '${argv[0]}'\n` };
}

function* busyboxNslookup(argv: string[], e: CommandEnv): ToolRun {
  const usage: CommandResult = { status: 1, stderr: BB_USAGE };
  const o = { timeoutS: 5, retry: 2, port: 53 };
  const types = new Set<RRType>();
  let i = 0;
  for (; ; i++) {
    const a = argv[i];
    if (a === undefined) return usage;
    if (!a.startsWith('-')) break;
    const body = a.slice(1);
    const eq = body.indexOf('=');
    const key = eq < 0 ? body : body.slice(0, eq);
    const val = eq < 0 ? '' : body.slice(eq + 1);
    if (key === 'type' || key === 'querytype') {
      const t = BB_QTYPES.find((q) => q.toLowerCase() === val.toLowerCase());
      if (!t) return { status: 1, stderr: `nslookup: invalid query type "${val}"\n` };
      types.add(t);
    } else if (key === 'port' || key === 'retry' || key === 't' || key === 'timeout') {
      const n = bbNumber(val, 1, key === 'port' ? 65535 : key === 'retry' ? 2147483647 : 2147483);
      if (typeof n === 'string') return { status: 1, stderr: n };
      if (key === 'port') o.port = n;
      else if (key === 'retry') o.retry = n;
      else o.timeoutS = n;
    } else if (key !== 'debug') return usage;
  }
  const [name, serverArg, extra] = argv.slice(i) as [string, string | undefined, string | undefined];
  const servers: BbServer[] = [];
  let search: string[] | null = null;
  if (serverArg !== undefined) {
    if (extra !== undefined) return usage;
    // xhost2sockaddr: a name is looked up through the libc first.
    const found = isIPv4(serverArg) ? serverArg : yield* firstAddress(serverArg, e);
    if (!found) return { status: 1, stderr: `nslookup: bad address '${serverArg}'\n` };
    servers.push({ name: serverArg, ip: found, replies: 0 });
  } else {
    // parse_resolvconf: every nameserver; "search" wins over "domain"; the host's domain by default.
    let haveSearch = false;
    for (const line of (e.fs.read('/etc/resolv.conf', e.at) ?? '').split('\n')) {
      const [key, ...rest] = line.trim().split(/\s+/);
      if (!rest.length) continue;
      if (key === 'nameserver' && isIPv4(rest[0]!)) servers.push({ name: rest[0]!, ip: rest[0]!, replies: 0 });
      else if (key === 'search' || (key === 'domain' && !haveSearch)) {
        haveSearch ||= key === 'search';
        search = rest;
      }
    }
    if (!search && e.hostname.includes('.')) search = [e.hostname.slice(e.hostname.indexOf('.') + 1)];
    if (search?.length === 1 && search[0] === '.') search = null;
    if (!servers.length) servers.push({ name: '127.0.0.1', ip: '127.0.0.1', replies: 0 });
  }
  // add_query_with_search: a name without a dot gets one query per search domain (and none as it is).
  const withSearch = (type: RRType): BbQuery[] =>
    (type === 'PTR' || !search || name.includes('.') ? [name] : search.map((d) => `${name}.${d}`)).map((n) => ({ name: n, type, answered: false }));
  let queries: BbQuery[];
  if (types.size === 0) {
    const ptr = reverseName(name);
    queries = ptr ? [{ name: noDot(ptr), type: 'PTR', answered: false }] : [...withSearch('A'), ...withSearch('AAAA')];
  } else queries = BB_QTYPES.filter((t) => types.has(t)).flatMap(withSearch);
  const out = { stdout: '', stderr: '', exit: 0 };
  for (let rc = 0; ; ) {
    if ((yield* bbSendQueries(servers[rc]!, queries, o, out)) > 0) break;
    if (++rc >= servers.length) return { status: 1, stdout: `${out.stdout};; connection timed out; no servers could be reached\n\n`, stderr: out.stderr };
  }
  const unanswered = queries.filter((q) => !q.answered);
  for (const q of unanswered) out.stdout += `*** Can't find ${q.name}: No answer\n`;
  if (unanswered.length) out.stdout += '\n';
  return { status: out.exit, stdout: out.stdout, stderr: out.stderr };
}

/** The first address the libc finds for `name` (a server named on a command line). */
function* firstAddress(name: string, e: CommandEnv): Lookup<string | null> {
  const r = yield* getaddrinfo(name, e);
  return r.ok ? r.addresses[0]! : null;
}

// ---- BIND 9.9: dighost.c's exchange and search ----------------------------------------

/** dighost.c: the version string dig prints (jessie's last LTS build). */
const BIND_VERSION = '9.9.5-9+deb8u19-Debian';

interface BindServer {
  /** As the user or resolv.conf wrote it (servname / userarg). */
  name: string;
  ip: string;
}

interface BindSent {
  response: DnsResponse;
  server: BindServer;
  elapsedMs: number;
}

/**
 * One lookup's UDP exchange (send_udp, connect_timeout, recv_done): each try
 * asks the servers in turn, waiting SERVER_TIMEOUT (1 s) on all but the last
 * and the lookup's timeout on the last; the socket is not connected, so an
 * ICMP port unreachable goes unheard and the wait runs out. `passOver` says
 * whether an answer sends the lookup on to the next server (nslookup on
 * SERVFAIL or no recursion; never the last one).
 */
function* bindSend(question: DnsQuestion, servers: BindServer[], o: { tries: number; timeoutS: number; port: number }, passOver: (r: DnsResponse) => boolean = () => false): Lookup<BindSent | null> {
  for (let t = 0; t < o.tries; t++) {
    for (let i = 0; i < servers.length; i++) {
      const last = i === servers.length - 1;
      const wait = (last ? o.timeoutS : 1) * 1000;
      const r = yield { k: 'query', server: servers[i]!.ip, port: o.port, question, timeoutMs: wait };
      if (r.k === 'response') {
        if (!last && passOver(r.response)) continue;
        return { response: r.response, server: servers[i]!, elapsedMs: r.elapsedMs };
      }
      if (r.k === 'refused' && r.elapsedMs < wait) yield { k: 'wait', ms: wait - r.elapsedMs };
    }
  }
  return null;
}

/**
 * A lookup down the candidates (dighost.c next_origin): NXDOMAIN moves on,
 * as does no answer at all, after ";; connection timed out; trying next
 * origin"; anything else ends it. `sent` is null when the last one got no
 * answer; `notes` is what was printed on the way.
 */
function* bindSearch(cands: string[], type: RRType, servers: BindServer[], o: { tries: number; timeoutS: number; port: number }, passOver?: (r: DnsResponse) => boolean): Lookup<{ sent: BindSent | null; question: DnsQuestion; notes: string }> {
  let notes = '';
  for (let i = 0; ; i++) {
    const question: DnsQuestion = { name: cands[i]!, type };
    const sent = yield* bindSend(question, servers, o, passOver);
    const more = i < cands.length - 1;
    if (!more || (sent && sent.response.rcode !== 'NXDOMAIN')) return { sent, question, notes };
    if (!sent) notes += ';; connection timed out; trying next origin\n';
  }
}

/** The names a BIND tool tries: with the search list, glibc's order (ndots from resolv.conf); without, the name as it is. */
const bindCandidates = (name: string, conf: ResolvConf, usesearch: boolean): string[] => (usesearch && !name.endsWith('.') ? searchCandidates(name, conf, 'glibc') : [fqdn(name)]);

/** The servers a BIND tool asks: the command line's, or resolv.conf's (a name is looked up first). */
function* bindServers(arg: string | undefined, e: CommandEnv, conf: ResolvConf): Lookup<BindServer[] | null> {
  if (arg === undefined) return conf.nameservers.map((ip) => ({ name: ip, ip }));
  const ip = isIPv4(arg) ? arg : yield* firstAddress(arg, e);
  return ip ? [{ name: arg, ip }] : null;
}

/** The recursion-available bit: CoreDNS's own zones answer without it, forwarded answers carry the upstream's. */
const recursionAvailable = (r: DnsResponse) => !r.authoritative && r.rcode !== 'SERVFAIL';

function parseType(v: string | undefined): RRType | null {
  const t = (v ?? '').toUpperCase();
  return (RR_TYPES as readonly string[]).includes(t) ? (t as RRType) : null;
}

// ---- BIND nslookup -----------------------------------------------------------------

/** nslookup.c rtypetext[]: what precedes the data of a record printed in short form. */
const NS_RTYPETEXT: Partial<Record<RRType, string>> = {
  A: 'internet address = ',
  NS: 'nameserver = ',
  CNAME: 'canonical name = ',
  SOA: 'soa = ',
  PTR: 'name = ',
  MX: 'mail exchanger = ',
  TXT: 'text = ',
  AAAA: 'has AAAA address ',
  SRV: 'service = ',
};

/** printsection: the answer's A records as Name/Address pairs, SOA spelt out, others in short form. */
function nsSection(recs: DnsRecord[], answer: boolean): string {
  let s = '';
  for (const r of recs) {
    const owner = noDot(r.name);
    if (r.type === 'A' && answer) s += `Name:\t${owner}\nAddress: ${r.data}\n`;
    else if (r.type === 'SOA' && answer) {
      const f = fields(r.data);
      s += `${owner}\n\torigin = ${noDot(f[0] ?? '')}\n\tmail addr = ${noDot(f[1] ?? '')}\n\tserial = ${f[2]}\n\trefresh = ${f[3]}\n\tretry = ${f[4]}\n\texpire = ${f[5]}\n\tminimum = ${f[6]}\n`;
    } else s += `${owner}\t${NS_RTYPETEXT[r.type] ?? `${r.type} = `}${r.data}\n`;
  }
  return s;
}

function* bindNslookup(argv: string[], e: CommandEnv): ToolRun {
  const o = { tries: 3, timeoutS: 5, port: 53 };
  let type: RRType = 'A';
  let usesearch = true;
  let ndots: number | null = null;
  let stdout = '';
  const pos: string[] = [];
  for (const a of argv) {
    if (!a.startsWith('-') || a === '-') {
      pos.push(a);
      continue;
    }
    // setoption: `-key=value`, keys and their short forms.
    const m = /^-([a-z0-9]+)(?:=(.*))?$/i.exec(a);
    const key = m?.[1]?.toLowerCase() ?? '';
    const val = m?.[2] ?? '';
    if (['type', 'ty', 'querytype', 'query', 'qu', 'q'].includes(key)) {
      const t = parseType(val);
      if (t) type = t;
      else stdout += `unknown query type: ${val}\n`;
    } else if (key === 'timeout' || key === 't') o.timeoutS = Math.max(1, Number(val) || o.timeoutS);
    else if (key === 'retry' || key === 'ret') o.tries = Math.max(1, Number(val) || o.tries);
    else if (key === 'port' || key === 'po') o.port = Number(val) || o.port;
    else if (key === 'ndots') ndots = Number(val);
    else if (key === 'search') usesearch = true;
    else if (key === 'nosearch') usesearch = false;
    else if (!['debug', 'nodebug', 'd2', 'nod2', 'recurse', 'norecurse', 'vc', 'novc', 'fail', 'nofail', 'sil'].includes(key)) stdout += `*** Invalid option: ${a.slice(1)}\n`;
  }
  // No name: the interactive mode, reading commands from an input that has none.
  if (pos.length === 0) return { status: 0, stdout: `${stdout}> ` };
  const conf = resolvConfOf(e);
  if (ndots !== null && Number.isFinite(ndots)) conf.ndots = ndots;
  const servers = yield* bindServers(pos[1], e, conf);
  if (!servers) return { status: 1, stdout, stderr: `nslookup: couldn't get address for '${pos[1]}': not found\n` };
  const name = pos[0]!;
  const ptr = reverseName(name);
  const textname = ptr ?? name;
  const cands = ptr ? [ptr] : bindCandidates(name, conf, usesearch);
  // nofail and check_ra: SERVFAIL, or an answer without recursion, goes on to the next server.
  const passOver = (r: DnsResponse) => r.rcode === 'SERVFAIL' || !recursionAvailable(r);
  const qtype = ptr ? 'PTR' : type;
  const { sent, question, notes } = yield* bindSearch(cands, qtype, servers, o, passOver);
  stdout += notes;
  if (!sent) return { status: 1, stdout: `${stdout};; connection timed out; no servers could be reached\n\n` };
  const res = sent.response;
  stdout += `Server:\t\t${sent.server.name}\nAddress:\t${sent.server.ip}#${o.port}\n\n`;
  if (res.rcode !== 'NOERROR') return { status: 1, stdout: `${stdout}** server can't find ${res.rcode === 'NXDOMAIN' ? textname : noDot(question.name)}: ${res.rcode}\n\n` };
  if (!res.authoritative) stdout += 'Non-authoritative answer:\n';
  stdout += res.answer.length ? nsSection(res.answer, true) : `*** Can't find ${textname}: No answer\n`;
  if (!res.authoritative && qtype !== 'A') stdout += `\nAuthoritative answers can be found from:\n${nsSection(res.authority, false)}${nsSection(res.additional, false)}`;
  return { status: 0, stdout: `${stdout}\n` };
}

// ---- BIND host ---------------------------------------------------------------------

/** host.c rtype_text: how a record of each type reads. */
const HOST_TEXT: Partial<Record<RRType, string>> = {
  A: 'has address',
  AAAA: 'has IPv6 address',
  CNAME: 'is an alias for',
  MX: 'mail is handled by',
  NS: 'name server',
  PTR: 'domain name pointer',
  SRV: 'has SRV record',
  TXT: 'descriptive text',
  SOA: 'has SOA record',
};

const RCODE_NUM: Record<Rcode, number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

const HOST_USAGE = `Usage: host [-aCdlriTwv] [-c class] [-N ndots] [-t type] [-W time]
            [-R number] [-m flag] hostname [server]
       -a is equivalent to -v -t ANY
       -c specifies query class for non-IN data
       -C compares SOA records on authoritative nameservers
       -d is equivalent to -v
       -l lists all hosts in a domain, using AXFR
       -i IP6.INT reverse lookups
       -N changes the number of dots allowed before root lookup is done
       -r disables recursive processing
       -R specifies number of retries for UDP packets
       -s a SERVFAIL response should stop query
       -t specifies the query type
       -T enables TCP/IP mode
       -v enables verbose output
       -w specifies to wait forever for a reply
       -W specifies how long to wait for a reply
       -4 use IPv4 query transport only
       -6 use IPv6 query transport only
       -m set memory debugging flag (trace|record|usage)
`;

function* host(argv: string[], e: CommandEnv): ToolRun {
  // -R: one retry by default (two tries); -W: five seconds.
  const o = { tries: 2, timeoutS: 5, port: 53 };
  let type: RRType | null = null;
  let servfailStops = false;
  let ndots: number | null = null;
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a.length < 2) {
      pos.push(a);
      continue;
    }
    const flag = a[1]!;
    const val = () => (a.length > 2 ? a.slice(2) : (argv[++i] ?? ''));
    if (flag === 't') type = parseType(val()) ?? type;
    else if (flag === 'W') o.timeoutS = Math.max(1, Number(val()) || o.timeoutS);
    else if (flag === 'R') o.tries = Math.max(1, Number(val()) || 1) + 1;
    else if (flag === 'N') ndots = Number(val());
    else if (flag === 'a') type = 'ANY';
    else if (flag === 's') servfailStops = true;
    else if (flag === 'c' || flag === 'm') val();
  }
  if (pos.length === 0) return { status: 1, stderr: HOST_USAGE };
  const conf = resolvConfOf(e);
  if (ndots !== null && Number.isFinite(ndots)) conf.ndots = ndots;
  const servers = yield* bindServers(pos[1], e, conf);
  if (!servers) return { status: 1, stderr: `host: couldn't get address for '${pos[1]}': not found\n` };
  const name = pos[0]!;
  const ptr = reverseName(name);
  const qtype = ptr ? 'PTR' : (type ?? 'A');
  const cands = ptr ? [ptr] : bindCandidates(name, conf, true);
  const { sent, question, notes } = yield* bindSearch(cands, qtype, servers, o, (r) => !servfailStops && r.rcode === 'SERVFAIL');
  let stdout = notes;
  if (!sent) return { status: 1, stdout: `${stdout};; connection timed out; no servers could be reached\n` };
  const res = sent.response;
  if (pos[1] !== undefined) stdout += `Using domain server:\nName: ${pos[1]}\nAddress: ${sent.server.ip}#${o.port}\nAliases: \n\n`;
  if (res.rcode !== 'NOERROR') return { status: 1, stdout: `${stdout}Host ${res.rcode === 'NXDOMAIN' ? (ptr ?? name) : noDot(question.name)} not found: ${RCODE_NUM[res.rcode]}(${res.rcode})\n` };
  for (const r of res.answer) stdout += `${noDot(r.name)} ${HOST_TEXT[r.type] ?? r.type} ${r.data}\n`;
  if (!res.answer.length && type !== null) stdout += `${noDot(question.name)} has no ${type} record\n`;
  return { status: 0, stdout };
}

// ---- dig ---------------------------------------------------------------------------

/** indent() in lib/dns/masterdump.c: tabs (8 wide) and spaces from column `from` to `to` (at least one). */
function indent(from: number, to: number): [string, number] {
  if (to < from + 1) to = from + 1;
  const tabs = Math.floor(to / 8) - Math.floor(from / 8);
  let s = '';
  let col = from;
  if (tabs > 0) {
    s += '\t'.repeat(tabs);
    col = Math.floor(to / 8) * 8;
  }
  return [s + ' '.repeat(to - col), to];
}

/** dns_master_style_debug: owner, TTL at column 24, class at 32, type at 40, data at 48. */
function digRecord(r: DnsRecord): string {
  let line = fqdn(r.name);
  let col = line.length;
  for (const [text, at] of [
    [String(r.ttl), 24],
    ['IN', 32],
    [r.type, 40],
    [r.data, 48],
  ] as const) {
    const [pad, c] = indent(col, at);
    line += pad + text;
    col = c + text.length;
  }
  return `${line}\n`;
}

/** The question line: `;` before the owner (not counted in the columns), no TTL. */
function digQuestion(q: DnsQuestion): string {
  let line = fqdn(q.name);
  let col = line.length;
  for (const [text, at] of [
    ['IN', 32],
    [q.type, 40],
  ] as const) {
    const [pad, c] = indent(col, at);
    line += pad + text;
    col = c + text.length;
  }
  return `;${line}\n`;
}

/** A query id: dig draws it at random; here a hash of what was asked and when. */
function queryId(q: DnsQuestion, at: number): number {
  let h = 0x811c9dc5;
  for (const c of `${q.name}/${q.type}/${at}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return (h >>> 0) & 0xffff;
}

interface DigOpts {
  short: boolean;
  search: boolean;
  edns: boolean;
  cmd: boolean;
  comments: boolean;
  question: boolean;
  answer: boolean;
  authority: boolean;
  additional: boolean;
  stats: boolean;
}

/** A +option; false when dig does not know it. */
function digPlus(opt: string, d: DigOpts, o: { tries: number; timeoutS: number }): boolean {
  const m = /^(no)?([a-z]+)(?:=(.*))?$/.exec(opt);
  if (!m) return false;
  const on = !m[1];
  const key = m[2]!;
  const n = Number(m[3]);
  switch (key) {
    case 'short':
      d.short = on;
      if (on) Object.assign(d, { cmd: false, comments: false, question: false, authority: false, additional: false, stats: false, answer: true });
      return true;
    case 'time':
      if (Number.isFinite(n)) o.timeoutS = Math.max(1, n);
      return true;
    case 'tries':
      if (Number.isFinite(n)) o.tries = Math.max(1, n);
      return true;
    case 'retry':
      if (Number.isFinite(n)) o.tries = Math.max(0, n) + 1;
      return true;
    case 'all':
      Object.assign(d, { cmd: on, comments: on, question: on, answer: on, authority: on, additional: on, stats: on });
      return true;
    case 'search':
    case 'edns':
    case 'cmd':
    case 'comments':
    case 'question':
    case 'answer':
    case 'authority':
    case 'additional':
    case 'stats':
      d[key] = on;
      return true;
    case 'tcp':
    case 'vc':
    case 'recurse':
    case 'ignore':
    case 'fail':
      return true;
  }
  return false;
}

/** dig.c printmessage and received: a response as dig prints it. */
function digMessage(q: DnsQuestion, sent: BindSent, d: DigOpts, port: number, at: number): string {
  const res = sent.response;
  if (d.short) return res.answer.map((r) => `${r.data}\n`).join('');
  let s = '';
  if (d.comments) {
    const ra = recursionAvailable(res);
    const flags = ['qr', ...(res.authoritative ? ['aa'] : []), 'rd', ...(ra ? ['ra'] : [])];
    s += ';; Got answer:\n';
    s += `;; ->>HEADER<<- opcode: QUERY, status: ${res.rcode}, id: ${queryId(q, at)}\n`;
    s += `;; flags: ${flags.join(' ')}; QUERY: 1, ANSWER: ${res.answer.length}, AUTHORITY: ${res.authority.length}, ADDITIONAL: ${res.additional.length + (d.edns ? 1 : 0)}\n`;
    if (!ra) s += ';; WARNING: recursion requested but not available\n';
    s += '\n';
    // CoreDNS answers an EDNS query with an OPT record of the same buffer size.
    if (d.edns) s += ';; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 4096\n';
  }
  const section = (title: string, recs: DnsRecord[], show: boolean) => (show && recs.length ? `${d.comments ? `;; ${title} SECTION:\n` : ''}${recs.map(digRecord).join('')}${d.comments ? '\n' : ''}` : '');
  if (d.question) s += `${d.comments ? ';; QUESTION SECTION:\n' : ''}${digQuestion(q)}${d.comments ? '\n' : ''}`;
  s += section('ANSWER', res.answer, d.answer) + section('AUTHORITY', res.authority, d.authority) + section('ADDITIONAL', res.additional, d.additional);
  if (d.stats) {
    s += `;; Query time: ${Math.round(sent.elapsedMs)} msec\n`;
    s += `;; SERVER: ${sent.server.ip}#${port}(${sent.server.name})\n`;
    s += `;; WHEN: ${dateText(at, '%a %b %d %H:%M:%S %Z %Y')}\n`;
    s += `;; MSG SIZE  rcvd: ${messageSize(q, res, d.edns)}\n\n`;
  }
  return s;
}

function* dig(argv: string[], e: CommandEnv): ToolRun {
  const d: DigOpts = { short: false, search: false, edns: true, cmd: true, comments: true, question: true, answer: true, authority: true, additional: true, stats: true };
  const o = { tries: 3, timeoutS: 5, port: 53 };
  let server: string | undefined;
  let name: string | null = null;
  let type: RRType | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('@')) server = a.slice(1);
    else if (a.startsWith('+')) {
      if (!digPlus(a.slice(1), d, o)) return { status: 1, stderr: `Invalid option: ${a}\n` };
    } else if (a === '-t') type = parseType(argv[++i]) ?? type;
    else if (a === '-p') o.port = Number(argv[++i]) || o.port;
    else if (a === '-x') {
      const rev = reverseName(argv[++i] ?? '');
      if (rev) {
        name = rev;
        type = 'PTR';
      }
    } else if (a.startsWith('-')) continue;
    else if (type === null && parseType(a)) type = parseType(a);
    else if (a.toUpperCase() === 'IN') continue;
    else name ??= a;
  }
  // No name: the root's nameservers.
  const qname = name ?? '.';
  const qtype = type ?? (name === null ? 'NS' : 'A');
  const conf = resolvConfOf(e);
  const servers = yield* bindServers(server, e, conf);
  if (!servers) return { status: 10, stderr: `dig: couldn't get address for '${server}': not found\n` };
  const cmdline = d.cmd ? `\n; <<>> DiG ${BIND_VERSION} <<>>${argv.map((a) => ` ${a}`).join('')}\n${server !== undefined ? '; (1 server found)\n' : ''};; global options:${d.short ? ' +short' : ''} +cmd\n` : '';
  const { sent, question, notes } = yield* bindSearch(bindCandidates(qname, conf, d.search), qtype, servers, o);
  // exit 9: no reply from server.
  if (!sent) return { status: 9, stdout: `${notes}${cmdline};; connection timed out; no servers could be reached\n` };
  return { status: 0, stdout: notes + cmdline + digMessage(question, sent, d, o.port, e.at) };
}

// ---- getent ------------------------------------------------------------------------

/** An IPv6 address in its written forms. */
function isIPv6(s: string): boolean {
  return s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s) && ipv6Groups(s) !== null;
}

function ipv6Groups(s: string): number[] | null {
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const part = (h: string) => (h === '' ? [] : h.split(':').map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  if ([...head, ...tail].some((g) => Number.isNaN(g))) return null;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return null;
  return [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
}

/** inet_ntop's form: lower-case groups, the longest run of two or more zero groups as `::`. */
function ipv6Text(s: string): string {
  const g = ipv6Groups(s);
  if (!g) return s;
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

const addrText = (ip: string) => (isIPv6(ip) ? ipv6Text(ip) : ip);

/** print_hosts: one line per address, `%-15s` then the name and its aliases. */
const hostsEntry = (addrs: string[], name: string, aliases: string[]) => addrs.map((a) => `${addrText(a).padEnd(15)} ${[name, ...aliases].join(' ')}\n`).join('');

/** _nss_files_gethostbyname2_r: the first line of the family that names `key`. */
function filesByName(key: string, v6: boolean, e: CommandEnv): HostsLine | null {
  const k = key.toLowerCase();
  return hostsFile(e).find((l) => isIPv6(l.ip) === v6 && l.names.some((n) => n.toLowerCase() === k)) ?? null;
}

/**
 * gethostbyname2 through "hosts: files dns": IPv6 from the file first (DNS
 * AAAA is left out, see above), then IPv4 from the file, then DNS (A).
 */
function* hostByName(key: string, e: CommandEnv): Lookup<{ addrs: string[]; name: string; aliases: string[] } | null> {
  for (const v6 of [true, false]) {
    const line = filesByName(key, v6, e);
    if (line) return { addrs: [line.ip], name: line.names[0]!, aliases: line.names.slice(1) };
  }
  const r = yield* lookupHost(key, resolvConfOf(e), 'glibc');
  return r.ok ? { addrs: r.addresses, name: r.name, aliases: r.aliases } : null;
}

const GETENT_SEE = "Try `getent --help' or `getent --usage' for more information.\n";

function* getent(argv: string[], e: CommandEnv): ToolRun {
  const [db, ...keys] = argv.filter((a) => !a.startsWith('-'));
  if (db === undefined) return { status: 1, stdout: GETENT_SEE, stderr: 'getent: wrong number of arguments\n' };
  if (db === 'passwd' || db === 'group') {
    const entries = db === 'passwd' ? ['root:x:0:0:root:/root:/bin/bash'] : ['root:x:0:'];
    const hits = keys.length ? entries.filter((l) => keys.includes(l.split(':')[0]!) || keys.includes(l.split(':')[2]!)) : entries;
    return { status: keys.length && hits.length < keys.length ? 2 : 0, stdout: hits.map((l) => `${l}\n`).join('') };
  }
  if (db !== 'hosts' && db !== 'ahosts' && db !== 'ahostsv4') return { status: 1, stdout: GETENT_SEE, stderr: `Unknown database: ${db}\n` };
  if (!keys.length) {
    if (db !== 'hosts') return { status: 0 };
    return { status: 0, stdout: hostsFile(e).map((l) => hostsEntry([l.ip], l.names[0]!, l.names.slice(1))).join('') };
  }
  let stdout = '';
  let status = 0;
  for (const key of keys) {
    if (isIPv4(key) || isIPv6(key)) {
      // gethostbyaddr: the file's line for the address (a PTR query is left out).
      const line = hostsFile(e).find((l) => addrText(l.ip) === addrText(key));
      if (line) stdout += db === 'hosts' ? hostsEntry([key], line.names[0]!, line.names.slice(1)) : aHosts([key], line.names[0]!);
      else status = 2;
      continue;
    }
    const h = db === 'hosts' ? yield* hostByName(key, e) : yield* ahostsLookup(key, e);
    if (!h) {
      status = 2;
      continue;
    }
    stdout += db === 'hosts' ? hostsEntry(h.addrs, h.name, h.aliases) : aHosts(h.addrs, h.name);
  }
  return { status, stdout };
}

/** getaddrinfo with AI_CANONNAME (getent ahosts): IPv4 here, as getaddrinfo above. */
function* ahostsLookup(key: string, e: CommandEnv): Lookup<{ addrs: string[]; name: string; aliases: string[] } | null> {
  const line = filesByName(key, false, e);
  if (line) return { addrs: [line.ip], name: line.names[0]!, aliases: [] };
  const r = yield* lookupHost(key, resolvConfOf(e), 'glibc');
  return r.ok ? { addrs: r.addresses, name: r.name, aliases: [] } : null;
}

/** ahosts_keys_int: each address three times (STREAM, DGRAM, RAW), the canonical name on the first. */
const aHosts = (addrs: string[], name: string) => addrs.map((a, i) => `${a.padEnd(15)} STREAM ${i === 0 ? name : ''}\n${a.padEnd(15)} DGRAM  \n${a.padEnd(15)} RAW    \n`).join('');
