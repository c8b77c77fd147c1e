// HTTP clients in containers (busybox wget, curl) reaching a pod by its IP,
// a name /etc/hosts gives, or a name DNS resolves (the shell looks it up
// first: interp.ts, dnsTools.ts): how their command lines become a connection
// (NetCall), and how what came back (NetOutcome: an answer, a reset, no
// answer) reads on their stdout, stderr and exit status. The connection itself
// is the runtime's and the kubelet's (runtime.connect,
// kubelet/network/podNetwork.ts). A DNS query is a NetCall too (`dnsCall`),
// and so is ping's ICMP echo request (`echoCall`, ping.ts).
import type { CommandEnv, CommandResult } from './commands';
import { normalise } from './fs';
import { hostsAddress } from './dnsTools';
import { isIPv4 } from '../../../apimachinery/validation/names';
import { utf8Length } from '../../../sim/utf8';
import type { DnsQuestion, DnsResponse } from '../../../dns/message';
import type { LookupResult } from '../../../dns/resolver';

/** The request line and headers a client sends. */
export interface HttpCall {
  method: 'GET' | 'HEAD';
  /** As the URL wrote it (the Host header). */
  host: string;
  ip: string;
  port: number;
  /** Path and query. */
  path: string;
  userAgent: string;
}

export interface NetCall {
  /** 'dns': a stub resolver's UDP query (`dns`) to the nameserver at http.ip:http.port; 'ping': an ICMP echo request to http.ip (port 0). */
  tool: 'wget' | 'curl' | 'dns' | 'ping';
  /** The request; for a DNS query or an echo request only its destination (ip, port) means anything. */
  http: HttpCall;
  /** The question of a DNS query (tool 'dns'): a UDP datagram, not a TCP connection. */
  dns?: DnsQuestion;
  /** An echo request (tool 'ping'): its sequence number and data bytes. */
  echo?: { seq: number; size: number };
  /** The URL's host when only DNS knows it: http.ip is '' until the shell has looked it up. */
  name?: string;
  /** When the client gives up connecting: its own timeout, or the kernel's SYN retries. */
  timeoutMs: number;
  /** The timeout is the client's own (-T, --connect-timeout, -m), not the kernel's. */
  ownTimeout: boolean;
  /** wget: -q; curl: -s. */
  quiet: boolean;
  /** curl -S: errors even when silent. */
  showError: boolean;
  /** Where the body goes: '-' stdout, a path, or null (wget: a file named from the URL; curl: stdout). */
  output: string | null;
  /** curl -f: HTTP errors fail (22); curl -i / -I: headers too / only; wget --spider. */
  failOnError: boolean;
  includeHeaders: boolean;
  spider: boolean;
}

/** What the connection came to. */
export type NetOutcome =
  | { k: 'http'; status: number; headers: Record<string, string>; body: string }
  /** A DNS server's response to a query. */
  | { k: 'dns'; response: DnsResponse }
  /**
   * An ICMP echo reply: the TTL it arrives with (the replier's 64 less the
   * routers on the way back); rttMs when it came at once, without leaving
   * the machine (the kernel's own path: loopback, a veth and the bridge).
   */
  | { k: 'echo'; ttl: number; rttMs?: number }
  /** A reset (for UDP, ICMP port unreachable): nothing listens on the port. */
  | { k: 'refused' }
  /** ICMP host unreachable: the address is on a pod network but no pod has it (its bridge's ARP went unanswered). */
  | { k: 'unreachable' }
  /** No answer before `timeoutMs`. */
  | { k: 'timeout' };

/**
 * Linux gives up a connect() after tcp_syn_retries = 6 retransmissions
 * (1 + 2 + 4 + … + 64 s): ETIMEDOUT at 127 s.
 */
export const SYN_TIMEOUT_MS = 127_000;

/** Linux's neighbour resolution gives up after mcast_solicit = 3 probes a second apart: EHOSTUNREACH. */
export const ARP_FAIL_MS = 3_000;

/**
 * The round trip of an echo that never leaves the machine, which the network
 * model does not time: a model value, of the order ping shows on an idle
 * host — through loopback, and over a pod's veth pair and the node's bridge.
 */
export const LOOPBACK_RTT_MS = 0.045;
export const BRIDGE_RTT_MS = 0.085;

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export const reasonPhrase = (status: number): string => REASONS[status] ?? '';

export { isIPv4 };

interface Url {
  host: string;
  port: number;
  path: string;
}

/** http://host[:port][/path]; a URL without a scheme is http. Null for other schemes (https has no TLS here). */
function parseUrl(target: string): Url | { error: 'scheme'; scheme: string } | null {
  const s = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(target);
  if (s && s[1]!.toLowerCase() !== 'http') return { error: 'scheme', scheme: s[1]!.toLowerCase() };
  const rest = s ? target.slice(s[0].length) : target;
  const m = /^([^/:?#]*)(?::(\d+))?([/?][^#]*)?/.exec(rest);
  if (!m || !m[1] || (m[2] && !(Number(m[2]) >= 1 && Number(m[2]) <= 65535))) return null;
  const path = m[3] ?? '/';
  return { host: m[1], port: m[2] ? Number(m[2]) : 80, path: path.startsWith('?') ? `/${path}` : path };
}

/**
 * The connection a wget or curl command line asks for: to an IP address, a
 * name in /etc/hosts, or a name to look up (`name`, http.ip empty); null when
 * it is not a plain fetch (commands.ts answers those).
 */
export function parseNetCall(tool: 'wget' | 'curl', argv: readonly string[], e: CommandEnv): NetCall | null {
  let args = argv;
  let target = '';
  let quiet = false;
  let showError = false;
  let output: string | null = null;
  let timeoutMs = SYN_TIMEOUT_MS;
  let ownTimeout = false;
  let failOnError = false;
  let includeHeaders = false;
  let head = false;
  let spider = false;
  const clientTimeout = (v: string | undefined) => {
    const s = Number(v);
    if (Number.isFinite(s) && s > 0 && s * 1000 < timeoutMs) {
      timeoutMs = Math.round(s * 1000);
      ownTimeout = true;
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (tool === 'wget') {
      if (a === '-q' || a === '--quiet') quiet = true;
      else if (a === '-O') output = args[++i] ?? '-';
      else if (a.startsWith('-O') && a.length > 2) output = a.slice(2);
      else if (a === '-T') clientTimeout(args[++i]);
      else if (a.startsWith('--timeout=')) clientTimeout(a.slice(10));
      else if (a === '--spider') spider = true;
      else if (a === '-qO-' || a === '-qO') {
        quiet = true;
        output = a === '-qO-' ? '-' : (args[++i] ?? '-');
      } else if (a === '-U') i++;
      else if (!a.startsWith('-')) target = a;
      continue;
    }
    if (/^-[a-zA-Z]{2,}$/.test(a)) {
      // Short options bundled (-sSfL): each letter is its own; one that takes a value takes the next word.
      args = [...args.slice(0, i), ...[...a.slice(1)].map((l) => `-${l}`), ...args.slice(i + 1)];
      i--;
      continue;
    }
    if (a === '-s' || a === '--silent') quiet = true;
    else if (a === '-S' || a === '--show-error') showError = true;
    else if (a === '-f' || a === '--fail') failOnError = true;
    else if (a === '-i' || a === '--include') includeHeaders = true;
    else if (a === '-I' || a === '--head') head = true;
    else if (a === '-o' || a === '--output') output = args[++i] ?? '-';
    else if (a === '--connect-timeout' || a === '-m' || a === '--max-time') clientTimeout(args[++i]);
    else if (a === '-L' || a === '--location' || a === '-v' || a === '-k' || a === '--insecure') continue;
    else if (a === '-H' || a === '-A' || a === '-X' || a === '-d' || a === '--data' || a === '-w') i++;
    else if (!a.startsWith('-')) target = a;
  }
  const url = target ? parseUrl(target) : null;
  if (!url || 'error' in url) return null;
  // A name the resolver could not even put in a query (getaddrinfo says EAI_NONAME): commands.ts answers it.
  if (!isIPv4(url.host) && !/^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$/.test(url.host)) return null;
  const host = isIPv4(url.host) ? url.host : hostsAddress(url.host, e);
  const curlVersion = curlVersionOf(e);
  return {
    tool,
    ...(host === null ? { name: url.host } : {}),
    http: { method: head ? 'HEAD' : 'GET', host: url.host + (url.port === 80 ? '' : `:${url.port}`), ip: host ?? '', port: url.port, path: url.path, userAgent: tool === 'wget' ? 'Wget' : `curl/${curlVersion}` },
    timeoutMs,
    ownTimeout,
    quiet,
    showError,
    output,
    failOnError,
    includeHeaders: includeHeaders || head,
    spider,
  };
}

/** A call that is not HTTP (a DNS datagram, an ICMP echo): only its destination and timeout mean anything. */
function bareCall(tool: NetCall['tool'], ip: string, port: number, timeoutMs: number): NetCall {
  return {
    tool,
    http: { method: 'GET', host: '', ip, port, path: '', userAgent: '' },
    timeoutMs,
    ownTimeout: true,
    quiet: true,
    showError: false,
    output: null,
    failOnError: false,
    includeHeaders: false,
    spider: false,
  };
}

/** A stub resolver's query: a UDP datagram to `server`:`port` that waits `timeoutMs` for its answer. */
export function dnsCall(server: string, port: number, question: DnsQuestion, timeoutMs: number): NetCall {
  return { ...bareCall('dns', server, port, timeoutMs), dns: question };
}

/** ping's echo request with `size` data bytes to `ip`; the reply is looked for `timeoutMs`. */
export function echoCall(ip: string, seq: number, size: number, timeoutMs: number): NetCall {
  return { ...bareCall('ping', ip, 0, timeoutMs), echo: { seq, size } };
}

/**
 * curl's version: curlimages/curl and Alpine ship 8.x; Debian bookworm's
 * images (nginx, httpd…) have curl 7.88.1, whose connect errors name the
 * socket error where 8.x names the curl error.
 */
function curlVersionOf(e: CommandEnv): string {
  return e.flavour === 'busybox' ? '8.11.1' : '7.88.1';
}

/**
 * busybox's progress line once a transfer is done (libbb/progress.c): the
 * name in 20 columns, the percentage, a bar of the terminal's width less 48
 * (80 columns without a terminal: 32), the size in 5 columns (smart_ulltoa5:
 * digits, or a number and a unit), the time left.
 */
function wgetProgress(name: string, bytes: number): string {
  let size = String(bytes);
  for (const unit of ['k', 'M', 'G']) {
    if (size.length <= 5) break;
    bytes = Math.floor(bytes / 1024);
    size = `${bytes}${unit}`;
  }
  return `${name.padEnd(20).slice(0, 20)} 100% |${'*'.repeat(32)}| ${size.padStart(5)}  0:00:00 ETA\n`;
}

/** The name wget saves to: the URL path's last segment, or index.html. */
function wgetFileName(path: string): string {
  const base = path.split('?')[0]!.replace(/\/+$/, '').split('/').pop() ?? '';
  return path.split('?')[0]!.endsWith('/') || !base ? 'index.html' : base;
}


/**
 * What the client prints and exits with for `outcome`, `elapsedMs` after it
 * started; files it writes (wget's download, -O, curl -o) go to `e.fs`.
 */
export function renderNet(call: NetCall, outcome: NetOutcome, elapsedMs: number, e: CommandEnv): CommandResult {
  return call.tool === 'wget' ? renderWget(call, outcome, e) : renderCurl(call, outcome, elapsedMs, e);
}

/**
 * The client's words when the URL's name did not resolve: `result` is the
 * lookup's error, or null when curl's own timeout ran out first (after
 * `elapsedMs`). busybox wget says the same whatever getaddrinfo said.
 */
export function renderResolveFailure(call: NetCall, result: LookupResult | null, elapsedMs: number, e: CommandEnv): CommandResult {
  const name = call.name ?? call.http.host;
  if (call.tool === 'wget') return { status: 1, stderr: `wget: bad address '${name}'\n` };
  // lib/hostip.c Curl_resolver_error; asyn-thread.c when the wait outlasts the timeout.
  if (result === null) return curlFail(call, e, elapsedMs, 28, `Resolving timed out after ${elapsedMs} milliseconds`);
  return curlFail(call, e, elapsedMs, 6, `Could not resolve host: ${name}`);
}

/** A DNS response or an echo reply never answers a TCP connection: what came back, as an HTTP client sees it. */
type TcpOutcome = Exclude<NetOutcome, { k: 'dns' } | { k: 'echo' }>;
const asTcp = (o: NetOutcome): TcpOutcome => (o.k === 'dns' || o.k === 'echo' ? { k: 'timeout' } : o);

function renderWget(call: NetCall, outcome: NetOutcome, e: CommandEnv): CommandResult {
  const h = call.http;
  const o = asTcp(outcome);
  let err = call.quiet ? '' : `Connecting to ${h.host} (${h.ip}:${h.port})\n`;
  if (o.k === 'refused') return { status: 1, stderr: `${err}wget: can't connect to remote host (${h.ip}): Connection refused\n` };
  if (o.k === 'unreachable') return { status: 1, stderr: `${err}wget: can't connect to remote host (${h.ip}): No route to host\n` };
  if (o.k === 'timeout') return { status: 1, stderr: `${err}${call.ownTimeout ? 'wget: download timed out' : `wget: can't connect to remote host (${h.ip}): Connection timed out`}\n` };
  if (o.status >= 400) return { status: 1, stderr: `${err}wget: server returned error: HTTP/1.1 ${o.status} ${reasonPhrase(o.status)}\n` };
  if (call.spider) return { status: 0, stderr: call.quiet ? '' : `${err}remote file exists\n` };
  const bytes = utf8Length(o.body);
  if (call.output === '-') {
    if (!call.quiet) err += `writing to stdout\n${wgetProgress('-', bytes)}written to stdout\n`;
    return { status: 0, stdout: o.body, stderr: err };
  }
  const name = call.output ?? wgetFileName(h.path);
  const path = normalise(name, e.cwd);
  // Without -O busybox refuses to overwrite (it opens the file O_EXCL).
  if (call.output === null && e.fs.exists(path, e.at)) return { status: 1, stderr: `${err}wget: can't open '${name}': File exists\n` };
  e.fs.write(path, e.at, o.body);
  if (!call.quiet) err += `saving to '${name}'\n${wgetProgress(name, bytes)}'${name}' saved\n`;
  return { status: 0, stderr: err };
}

/**
 * curl's progress meter once the transfer is done (lib/progress.c; on
 * without a terminal on stdout): its two header lines, then the line at the
 * start and the last one — percentages in 3 columns, sizes and speeds in 5
 * (max5data: bytes, then k and M), the times unknown for a transfer this quick.
 */
function curlMeter(bytes: number, elapsedMs: number): string {
  const speed = elapsedMs > 0 ? Math.floor((bytes * 1000) / elapsedMs) : bytes;
  const max5 = (n: number) => (n < 100_000 ? String(n) : n < 10_000 * 1024 ? `${Math.floor(n / 1024)}k` : `${Math.floor(n / 1024 / 1024)}M`).padStart(5);
  const pct = (n: number) => String(n).padStart(3);
  const row = (p: number, n: number, sp: number) => `${pct(p)} ${max5(n)}  ${pct(p)} ${max5(n)}  ${pct(0)} ${max5(0)}  ${max5(sp)}  ${max5(0)} --:--:-- --:--:-- --:--:-- ${max5(sp)}`;
  return (
    '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
    '                                 Dload  Upload   Total   Spent    Left  Speed\n' +
    `\r${row(0, 0, 0)}\r${row(100, bytes, speed)}\n`
  );
}

/** curl failing with `code`: its meter (unless silent or on a terminal), then the message (unless silent without -S). */
function curlFail(call: NetCall, e: CommandEnv, elapsedMs: number, code: number, msg: string): CommandResult {
  const meterHidden = call.quiet || e.stdoutIsTty === true;
  return { status: code, stderr: `${meterHidden ? '' : curlMeter(0, elapsedMs)}${!call.quiet || call.showError ? `curl: (${code}) ${msg}\n` : ''}` };
}

function renderCurl(call: NetCall, outcome: NetOutcome, elapsedMs: number, e: CommandEnv): CommandResult {
  const h = call.http;
  const o = asTcp(outcome);
  const v8 = curlVersionOf(e).startsWith('8');
  const meterHidden = call.quiet || e.stdoutIsTty === true;
  const fail = (code: number, msg: string): CommandResult => curlFail(call, e, elapsedMs, code, msg);
  // lib/connect.c: "Failed to connect to H port P after N ms: …" (H as the URL names it) — 8.x names the curl error, 7.x the socket's.
  const host = call.name ?? h.ip;
  if (o.k === 'refused') return fail(7, `Failed to connect to ${host} port ${h.port} after ${elapsedMs} ms: ${v8 ? "Couldn't connect to server" : 'Connection refused'}`);
  if (o.k === 'unreachable') return fail(7, `Failed to connect to ${host} port ${h.port} after ${elapsedMs} ms: ${v8 ? "Couldn't connect to server" : 'No route to host'}`);
  if (o.k === 'timeout') {
    if (call.ownTimeout) return fail(28, `Failed to connect to ${host} port ${h.port} after ${elapsedMs} ms: Timeout was reached`);
    return fail(28, `Failed to connect to ${host} port ${h.port} after ${elapsedMs} ms: ${v8 ? "Couldn't connect to server" : 'Connection timed out'}`);
  }
  if (call.failOnError && o.status >= 400) return fail(22, `The requested URL returned error: ${o.status}`);
  const head = `HTTP/1.1 ${o.status} ${reasonPhrase(o.status)}\r\n${Object.entries(o.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  const body = h.method === 'HEAD' ? '' : o.body;
  const out = (call.includeHeaders ? head : '') + body;
  const meter = meterHidden ? '' : curlMeter(utf8Length(body), elapsedMs);
  if (call.output && call.output !== '-') {
    e.fs.write(normalise(call.output, e.cwd), e.at, out);
    return { status: 0, stderr: call.quiet ? '' : curlMeter(utf8Length(body), elapsedMs) };
  }
  return { status: 0, stdout: out, stderr: meter };
}
