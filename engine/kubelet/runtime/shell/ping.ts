// busybox's ping applet (networking/ping.c, 1.36, FEATURE_FANCY_PING): its
// options and words, and the program itself as a machine over virtual time.
// It has one timer (setitimer and alarm share ITIMER_REAL): the next echo
// request an interval after the last, or once the last of -c COUNT is out,
// the statistics (-W seconds later when nothing has come back yet, else about
// two round trips, at least a second). -w checks its deadline only when the
// timer sends. Replies are printed as they come; the statistics close it, also
// on SIGINT (Ctrl-C), which ping catches. The machine is plain data; the shell
// drives it (interp.ts): it hands each request to the network (a NetCall of
// tool 'ping') and each reply back (`pingReply`).
//
// What its raw socket reads of the network is echo replies, with the TTL the
// replier set less the routers they crossed. The ICMP errors a request can
// draw (host unreachable once an ARP fails, port unreachable from an iptables
// REJECT, time exceeded for a TTL too short) are shorter than a reply and
// carry no echo id, so unpack4 drops them: to busybox they are silence, as no
// answer at all is.
import type { CommandResult } from './commands';
import { echoCall, type NetCall, type NetOutcome } from './net';

export interface PingOptions {
  /** As the command line gives it (the header and the statistics name it so). */
  host: string;
  /** -c: requests to send; 0 until interrupted (or the deadline). */
  count: number;
  /** -s: data bytes in each request. */
  size: number;
  /** -t: the requests' TTL; 0 leaves the kernel's (64). */
  ttl: number;
  /** -w: seconds until ping exits; 0 for none. */
  deadlineS: number;
  /** -W: seconds to wait after the last request when nothing has come back. */
  waitS: number;
  /** -i: between requests; 0 disarms the timer after the first. */
  intervalMs: number;
  /** -q: the header and the statistics only. */
  quiet: boolean;
  /** -A: the next request as soon as a reply is in. */
  adaptive: boolean;
  /** -6: IPv6 only (the playground has none). */
  ipv6: boolean;
}

/** A request on its way: its reply's arrival once known (a reply that comes at once, or one the network brought). */
interface Echo {
  seq: number;
  sentAt: number;
  /** The connection the network will answer under; null once the reply is known. */
  conn: number | null;
  replyAt: number | null;
  ttl: number;
}

export interface PingRun {
  o: PingOptions;
  /** The address pinged (what the replies come from). */
  ip: string;
  deadlineAt: number | null;
  transmitted: number;
  received: number;
  /** Round trips in µs, as busybox keeps them; tmin null until a reply carried the timestamp (-s 4 or more). */
  tmin: number | null;
  tmax: number;
  tsum: number;
  /** ITIMER_REAL: the next request, or the statistics. */
  timer: { at: number; k: 'send' | 'stats' } | null;
  inflight: Echo[];
  /** A look-ahead could not send the request due at timer.at (it goes to another node): it waits to send it for real. */
  stalled: boolean;
  /** stdout is a terminal: line-buffered; else stdio holds it until ping flushes (after each reply, at exit). */
  tty: boolean;
  buffered: string;
  done: { status: number; at: number } | null;
}

/** What the machine needs from its driver: the network and its output. */
export interface PingIo {
  /** Sends a request at `at`: an answer known at once, the id of a connection to be answered, or -1 (a look-ahead that cannot). */
  send(at: number, call: NetCall): NetOutcome | number;
  write(at: number, fd: 1 | 2, text: string): void;
}

/** Linux's ip_default_ttl: what every replier here sets. */
export const DEFAULT_TTL = 64;
/** The most data an IPv4 datagram carries after the IP and ICMP headers (65535 - 20 - 8). */
const MAX_DATA = 65507;
const INT_MAX_S = Math.floor(2147483647 / 1_000_000);

/** bb_show_usage for ping (FEATURE_FANCY_PING, PING6); the build stamp is the image's. */
export const PING_USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\n' +
  'Usage: ping [OPTIONS] HOST\n\n' +
  'Send ICMP ECHO_REQUESTs to HOST\n\n' +
  '\t-4,-6\t\tForce IP or IPv6 name resolution\n' +
  '\t-c CNT\t\tSend only CNT pings\n' +
  '\t-s SIZE\t\tSend SIZE data bytes in packets (default 56)\n' +
  '\t-i SECS\t\tInterval\n' +
  '\t-A\t\tPing as soon as reply is received\n' +
  '\t-t TTL\t\tSet TTL\n' +
  '\t-I IFACE/IP\tSource interface or IP address\n' +
  '\t-W SEC\t\tSeconds to wait for the first response (default 10)\n' +
  '\t\t\t(after all -c CNT packets are sent)\n' +
  '\t-w SEC\t\tSeconds until ping exits (default:infinite)\n' +
  '\t\t\t(can exit earlier with -c CNT)\n' +
  '\t-q\t\tQuiet, only display output at start/finish\n' +
  '\t-p HEXBYTE\tPayload pattern\n';

const usage = (msg = ''): CommandResult => ({ status: 1, stderr: msg + PING_USAGE });
const die = (msg: string): CommandResult => ({ status: 1, stderr: `ping: ${msg}\n` });

/** bb_strtou's verdict (decimal, or hex for -p) within [0, hi]: the number, or xatou_range's complaint. */
function number(v: string, hi: number, hex = false): number | CommandResult {
  const ok = hex ? /^(?:0[xX])?[0-9a-fA-F]+$/.test(v) : /^\d+$/.test(v);
  if (!ok) return die(`invalid number '${v}'`);
  const n = hex ? parseInt(v, 16) : Number(v);
  return n > hi ? die(`number ${v} is not in 0..${hi} range`) : n;
}

/** parse_duration_str: seconds, fractions allowed, with an s/m/h/d suffix; in whole µs. */
function duration(v: string): number | CommandResult {
  const m = /^([0-9.]*)(.*)$/.exec(v)!;
  const unit = ({ '': 1, s: 1, m: 60, h: 3600, d: 86400 } as Record<string, number>)[m[2]!];
  if (v.includes('.')) {
    // strtod must take the whole number part, else bb_show_usage.
    if (!/^(?:\d+\.?\d*|\.\d+)$/.test(m[1]!)) return usage();
    if (unit === undefined) return die(`invalid number '1${m[2]}'`);
    return Math.min(Number(m[1]) * unit, INT_MAX_S);
  }
  if (!m[1] || unit === undefined) return die(`invalid number '${v}'`);
  return Math.min(Number(m[1]) * unit, INT_MAX_S);
}

const WITH_ARG = 'cstwWIpi';
const FLAGS = 'qvAn46';

/**
 * The command line as getopt32 reads it ("qvAc:+s:t:+w:+W:+I:np:i:4" "6",
 * exactly one operand): options anywhere (musl's getopt_long permutes), the
 * `+` ones checked as they are read, then the operand count, then -s, -p, -i.
 */
export function parsePing(argv: readonly string[]): PingOptions | CommandResult {
  const o: PingOptions = { host: '', count: 0, size: 56, ttl: 0, deadlineS: 0, waitS: 10, intervalMs: 1000, quiet: false, adaptive: false, ipv6: false };
  const operands: string[] = [];
  const later: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      operands.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    // ping has no long options: getopt_long takes "--x" for one it does not know.
    if (a.startsWith('--')) return usage(`ping: unrecognized option: ${a.slice(2).split('=')[0]}\n`);
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      if (FLAGS.includes(ch)) {
        if (ch === 'q') o.quiet = true;
        else if (ch === 'v') o.quiet = false;
        else if (ch === 'A') o.adaptive = true;
        else if (ch === '6') o.ipv6 = true;
        else if (ch === '4') o.ipv6 = false;
        continue;
      }
      if (!WITH_ARG.includes(ch)) return usage(`ping: unrecognized option: ${ch}\n`);
      const v = j + 1 < a.length ? a.slice(j + 1) : argv[++i];
      if (v === undefined) return usage(`ping: option requires an argument: ${ch}\n`);
      if ('ctwW'.includes(ch)) {
        const n = number(v, 2147483647);
        if (typeof n !== 'number') return n;
        if (ch === 'c') o.count = n;
        else if (ch === 't') o.ttl = n;
        else if (ch === 'w') o.deadlineS = Math.min(n, INT_MAX_S);
        else o.waitS = n;
      } else later[ch] = v;
      break;
    }
  }
  if (operands.length !== 1) return usage();
  o.host = operands[0]!;
  if (later['s'] !== undefined) {
    const n = number(later['s'], 65535);
    if (typeof n !== 'number') return n;
    o.size = n;
  }
  if (later['p'] !== undefined) {
    const n = number(later['p'], 255, true);
    if (typeof n !== 'number') return n;
  }
  if (later['i'] !== undefined) {
    const s = duration(later['i']);
    if (typeof s !== 'number') return s;
    o.intervalMs = Math.floor(s * 1_000_000) / 1000;
  }
  return o;
}

/** "%u.%03u" of a time in µs. */
const ms3 = (us: number): string => `${Math.floor(us / 1000)}.${String(us % 1000).padStart(3, '0')}`;

/**
 * ping starts at `at` (the header printed, its first request due), `startedAt`
 * being when it was run (the deadline counts from before the name lookup).
 * With a terminal the header is out at once (`stdout`); else stdio holds it.
 */
export function pingStart(o: PingOptions, ip: string, at: number, startedAt: number, tty: boolean): { run: PingRun; stdout: string } {
  const header = `PING ${o.host} (${ip}): ${o.size} data bytes\n`;
  const run: PingRun = {
    o,
    ip,
    deadlineAt: o.deadlineS > 0 ? startedAt + o.deadlineS * 1000 : null,
    transmitted: 0,
    received: 0,
    tmin: null,
    tmax: 0,
    tsum: 0,
    timer: { at, k: 'send' },
    inflight: [],
    stalled: false,
    tty,
    buffered: tty ? '' : header,
    done: null,
  };
  return { run, stdout: tty ? header : '' };
}

/** The next instant the machine does anything by itself (Infinity: only a reply, or a signal, moves it). */
export function pingNextAt(r: PingRun): number {
  if (r.done || r.stalled) return Infinity;
  let t = r.timer?.at ?? Infinity;
  for (const e of r.inflight) if (e.replyAt !== null && e.replyAt < t) t = e.replyAt;
  return t;
}

/** Everything due at or before `until`, in time order (a reply before a timer of the same instant). */
export function pingAdvance(r: PingRun, until: number, io: PingIo): void {
  while (!r.done && !r.stalled) {
    let next: Echo | null = null;
    for (const e of r.inflight) if (e.replyAt !== null && (!next || e.replyAt < next.replyAt!)) next = e;
    const tr = next?.replyAt ?? Infinity;
    const tt = r.timer?.at ?? Infinity;
    const t = Math.min(tr, tt);
    if (t === Infinity || t > until) return;
    if (tr <= tt) receive(r, next!, io);
    else if (r.timer!.k === 'stats') finish(r, tt, io);
    else send(r, tt, io);
  }
}

/** The reply reaches us when the request's TTL outlived the routers on the way (as many as took from the reply's). */
function arrives(r: PingRun, o: NetOutcome): o is Extract<NetOutcome, { k: 'echo' }> {
  return o.k === 'echo' && (r.o.ttl === 0 || r.o.ttl > DEFAULT_TTL - o.ttl);
}

/** sendping4 and sendping_tail: the deadline, the request, the timer re-armed. */
function send(r: PingRun, t: number, io: PingIo): void {
  if (r.deadlineAt !== null && t >= r.deadlineAt) return finish(r, t, io);
  const sent = r.transmitted + 1;
  let timer: PingRun['timer'] = null;
  if (r.o.count === 0 || sent < r.o.count) {
    if (r.o.intervalMs > 0) timer = { at: t + r.o.intervalMs, k: 'send' };
  } else {
    // All sent: -W seconds while nothing has come back, else about two round trips (tmax / 512Ki µs), at least one.
    const expire = r.received ? Math.max(1, Math.floor(r.tmax / (512 * 1024))) : r.o.waitS;
    if (expire > 0) timer = { at: t + expire * 1000, k: 'stats' };
  }
  if (r.o.size > MAX_DATA) {
    // xsendto dies: EMSGSIZE, and no statistics.
    flush(r, t, io);
    io.write(t, 2, 'ping: sendto: Message too long\n');
    r.done = { status: 1, at: t };
    return;
  }
  const seq = r.transmitted & 0xffff;
  // A reply is looked for until the timer next fires (the shell's sequential driver needs no more).
  const got = io.send(t, echoCall(r.ip, seq, r.o.size, timer ? timer.at - t : Math.max(1, r.o.waitS) * 1000));
  if (got === -1) {
    r.stalled = true;
    return;
  }
  r.transmitted = sent;
  r.timer = timer;
  if (typeof got === 'number') r.inflight.push({ seq, sentAt: t, conn: got, replyAt: null, ttl: 0 });
  else if (arrives(r, got)) r.inflight.push({ seq, sentAt: t, conn: null, replyAt: t + (got.rttMs ?? 0), ttl: got.ttl });
}

/** unpack_tail: the round trip counted, the line printed and flushed; -c COUNT replies end it. */
function receive(r: PingRun, e: Echo, io: PingIo): void {
  r.inflight.splice(r.inflight.indexOf(e), 1);
  const t = e.replyAt!;
  const us = Math.max(0, Math.round((t - e.sentAt) * 1000));
  // The timestamp rides in the data's first four bytes: a smaller request brings none back.
  const timed = r.o.size >= 4;
  if (timed) {
    r.tsum += us;
    r.tmin = r.tmin === null ? us : Math.min(r.tmin, us);
    r.tmax = Math.max(r.tmax, us);
  }
  r.received++;
  if (!r.o.quiet) {
    out(r, t, `${r.o.size + 8} bytes from ${r.ip}: seq=${e.seq} ttl=${e.ttl}${timed ? ` time=${ms3(us)} ms` : ''}\n`, io);
    flush(r, t, io);
  }
  if (r.o.count && r.received >= r.o.count) return finish(r, t, io);
  if (r.o.adaptive) r.timer = { at: t, k: 'send' };
}

/** print_stats_and_exit: fails when nothing came back, or with -w when fewer than -c did. */
function finish(r: PingRun, t: number, io: PingIo): void {
  const loss = r.transmitted ? Math.floor(((r.transmitted - r.received) * 100) / r.transmitted) : 0;
  let text = `\n--- ${r.o.host} ping statistics ---\n${r.transmitted} packets transmitted, ${r.received} packets received, ${loss}% packet loss\n`;
  if (r.tmin !== null) text += `round-trip min/avg/max = ${ms3(r.tmin)}/${ms3(Math.floor(r.tsum / r.received))}/${ms3(r.tmax)} ms\n`;
  out(r, t, text, io);
  flush(r, t, io);
  r.done = { status: r.received === 0 || (r.deadlineAt !== null && r.received < r.o.count) ? 1 : 0, at: t };
  r.timer = null;
  r.inflight = [];
}

function out(r: PingRun, t: number, text: string, io: PingIo): void {
  r.buffered += text;
  if (r.tty) flush(r, t, io);
}

function flush(r: PingRun, t: number, io: PingIo): void {
  if (!r.buffered) return;
  io.write(t, 1, r.buffered);
  r.buffered = '';
}

/** SIGINT at `at`: the statistics, and the exit (ping's own handler). */
export function pingInterrupt(r: PingRun, at: number, io: PingIo): void {
  if (!r.done) finish(r, at, io);
}

/**
 * What connection `conn` came to, at `at`: a reply is due then (true), or
 * the request is lost (a timeout, an ICMP error): false, nothing to do.
 */
export function pingReply(r: PingRun, conn: number, outcome: NetOutcome, at: number): boolean {
  const i = r.inflight.findIndex((e) => e.conn === conn);
  if (r.done || i < 0) return false;
  const e = r.inflight[i]!;
  if (!arrives(r, outcome)) {
    r.inflight.splice(i, 1);
    return false;
  }
  e.conn = null;
  e.replyAt = Math.max(at, e.sentAt);
  e.ttl = outcome.ttl;
  return true;
}

/** The connection the machine waits on: -1 when stalled (a look-ahead), a request still out, or null. */
export function pingPending(r: PingRun): number | null {
  if (r.stalled) return -1;
  return r.inflight.find((e) => e.conn !== null)?.conn ?? null;
}
