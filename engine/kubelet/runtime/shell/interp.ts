// The interpreter behind every fake container process: a resumable state
// machine over virtual time. A process is a stack of frames (where it is in
// its script) plus variables, traps and what it is blocked on; `run` executes
// it up to a given instant and stops at the first step that lies later, so the
// runtime can drive many processes lazily and in time order. Everything here
// is plain data (snapshots, replay). Commands are in commands.ts; long-running
// programs (servers, stress, sleep) become waits the runtime understands.
import { parseScript, ShellSyntaxError, type Cmd, type List, type Redirect, type Word } from './parse';
import type { FileSystem } from './fs';
import { normalise } from './fs';
import { runCommand, type CommandEnv, type CommandResult, type Daemon, type Flavour } from './commands';
import { atSignal } from './daemon';
import { dnsCall, parseNetCall, renderNet, renderResolveFailure, type NetCall, type NetOutcome } from './net';
import { dnsTool, getaddrinfo } from './dnsTools';
import { parsePing, pingAdvance, pingInterrupt, pingNextAt, pingPending, pingReply, pingStart, type PingIo, type PingRun } from './ping';
import { drive, type Lookup, type Reply, type Step } from '../../../dns/resolver';

/** Where a process is. */
type Frame =
  | { k: 'list'; list: List; i: number; redirs: FdTable | null }
  | { k: 'while'; node: Extract<Cmd, { t: 'while' }>; phase: 'cond' | 'body'; redirs: FdTable | null }
  | { k: 'for'; node: Extract<Cmd, { t: 'for' }>; values: string[]; idx: number; redirs: FdTable | null }
  | { k: 'if'; node: Extract<Cmd, { t: 'if' }>; clause: number; phase: 'cond' | 'body' | 'else'; redirs: FdTable | null }
  /** A trap handler; `resumeWait` tells `wait` was interrupted (status 143). */
  | { k: 'trap'; list: List; i: number; redirs: null; interruptedWait: boolean };

/** Output descriptors: where fd 1 and 2 go ('' = the process's own stream, '/dev/null', or a file). */
interface FdTable {
  1: string;
  2: string;
  append: boolean;
}

export type Wait =
  | { k: 'sleep'; until: number }
  /** `wait`: until every background job ends. */
  | { k: 'jobs' }
  /** A program that runs until signalled (servers, `sleep infinity`, busy loops). */
  | { k: 'forever' }
  /** An interactive shell at its prompt: until a line (or the end) of its input arrives. */
  | { k: 'input' }
  /**
   * A connection to another pod: until its answer (or its timeout) comes back
   * (`netReply`); with `until`, an exchange that took its time at once (a
   * query that timed out, a resolver's pause) runs on then.
   */
  | { k: 'net'; until?: number }
  /** ping in the foreground (Proc.ping): until its timer, a reply, or SIGINT. */
  | { k: 'ping' };

/** A background job (`cmd &`). */
interface Job {
  pid: number;
  endAt: number;
  cpuMilli: number;
}

/** The signals containerd sends. */
export type Signal = 'TERM' | 'KILL' | 'QUIT' | 'INT' | 'WINCH';

export interface Proc {
  frames: Frame[];
  vars: Record<string, string>;
  exported: string[];
  status: number;
  /** When the next step runs. */
  at: number;
  wait: Wait | null;
  /** trap actions: '' ignores, text is a handler; absent = default. */
  traps: Partial<Record<Signal, string>>;
  /** Trapped signals waiting for the foreground command to finish. */
  pending: Signal[];
  jobs: Job[];
  nextPid: number;
  lastBg: number;
  /** Set once the process has exited. */
  exit: { code: number; at: number } | null;
  /** A long-running program in the foreground (or the process itself, when it is PID 1). */
  daemon: (Daemon & { since: number; stoppingAt?: number; stopCode?: number }) | null;
  /** Busy CPU (millicores) the foreground command burns; background jobs add theirs. */
  cpuMilli: number;
  /** Extra working set the foreground program allocates (stress workers), how fast, and since when. */
  memBytes: number;
  memRate: number;
  memSince: number;
  /** The first program is the process itself (not a shell waiting on it): signals go to it. */
  pid1Program: boolean;
  /** Steps taken at the current instant (a loop that never sleeps spins instead). */
  sameInstant: number;
  cwd: string;
  /** A shell reading commands from its stdin (`kubectl exec -i`), one line at a time. */
  interactive?: Interactive;
  /** The connections of the command being run (see NetBlock). */
  net?: NetState;
  /** ping running in the foreground, and where its output goes. */
  ping?: { run: PingRun; fds: FdTable };
  /** A program run with a terminal (`kubectl exec -t` of something not a shell): Ctrl-C reaches it. */
  ctty?: boolean;
}

/**
 * A command that connects to another pod cannot finish until the answer
 * comes back over the network. It throws NetBlock; the shell waits, and once
 * the answer is in it runs the same command again from its start, which now
 * finds the answer (`replies`, taken in order) and goes on. Pipelines and
 * command substitutions re-run with it, since their stages are captured. So a
 * command makes several exchanges (a lookup's queries, then its connection)
 * by asking again: every answer it had is replayed. Answers that come at once
 * are recorded too, so a re-run does not ask twice; one that took time
 * (a DNS query that timed out here, a resolver's pause) throws NetSleep: the
 * shell waits that long, then re-runs the command.
 */
interface NetState {
  /** elapsedMs in whole ms (what curl reports); exactMs as the network timed it (ping's round trips). */
  replies: { outcome: NetOutcome; elapsedMs: number; exactMs?: number }[];
  used: number;
  /** The connection waited for, and when it was opened. */
  pending: number | null;
  openedAt: number;
}

class NetBlock {
  constructor(readonly conn: number) {}
}

class NetSleep {
  constructor(readonly until: number) {}
}

/** The stdin of an interactive shell and how it prompts. */
export interface Interactive {
  /** Its stdin is a terminal (`-t`): it prompts, and Ctrl-C interrupts the foreground command. */
  tty: boolean;
  /** Which shell, for its prompt: busybox ash, dash (Debian's sh) or bash. */
  shell: 'ash' | 'dash' | 'bash';
  /** Input not yet read. */
  buffered: string;
  /** The input has ended (Ctrl-D, the stream closed). */
  eof: boolean;
}

/** What a process runs against: its file system, identity and the sink of its output. */
export interface ShellContext {
  fs: FileSystem;
  hostname: string;
  podIP: string;
  flavour: Flavour;
  /** Commands this image has; undefined: a full userland. */
  hasCommand(name: string): boolean;
  /** The image's busybox release, when its userland is busybox. */
  busybox?: string;
  /** The program's output (container logs, or an exec's buffers). */
  out(at: number, fd: 1 | 2, text: string): void;
  /**
   * Opens a connection at `at`: what it came to, when that is known at once
   * (the pod itself, a pod on the same node), or the id of a connection whose
   * answer `netReply` will bring; -1 when nothing will (a look-ahead copy).
   */
  connect?(call: NetCall, at: number): NetOutcome | number;
  /** Set in captured subshells: the process whose connections they are. */
  netRoot?: Proc;
}

const SPIN_LIMIT = 2000;
/** Allocation speed of programs that do not say (bytes/s): effectively at once. */
const INSTANT_ALLOC = 10 * 1024 * 1024 * 1024;

/** A process for `argv` (the container's command line) with `env`, starting at `at`. */
export function spawn(argv: readonly string[], env: Record<string, string>, at: number, flavour: Flavour): Proc {
  const proc: Proc = {
    frames: [],
    vars: { ...env, IFS: ' \t\n' },
    exported: Object.keys(env),
    status: 0,
    at,
    wait: null,
    traps: {},
    pending: [],
    jobs: [],
    nextPid: 7,
    lastBg: 0,
    exit: null,
    daemon: null,
    cpuMilli: 0,
    memBytes: 0,
    memRate: 0,
    memSince: at,
    pid1Program: false,
    sameInstant: 0,
    cwd: '/',
  };
  const sh = shellScript(argv);
  if (sh !== null) {
    try {
      const list = parseScript(sh.script);
      proc.vars['0'] = sh.name;
      sh.args.forEach((a, i) => (proc.vars[String(i + 1)] = a));
      proc.vars['#'] = String(sh.args.length);
      // sh -c with a single simple command execs it: the program is PID 1.
      proc.pid1Program = list.items.length === 1 && list.items[0]!.cmd.t === 'simple' && list.items[0]!.op === ';';
      proc.frames.push({ k: 'list', list, i: 0, redirs: null });
    } catch (e) {
      if (!(e instanceof ShellSyntaxError)) throw e;
      proc.frames.push({ k: 'list', list: { items: [] }, i: 0, redirs: null });
      proc.vars['__syntax'] = `${flavour === 'busybox' ? 'sh' : 'sh: 1'}: ${e.message}`;
    }
    return proc;
  }
  // A program run directly: one simple command of literal words.
  proc.pid1Program = true;
  const words: Word[] = argv.map((a) => [{ t: 'lit', v: a, quoted: true }]);
  proc.frames.push({ k: 'list', list: { items: [{ cmd: { t: 'simple', assigns: [], words, redirs: [] }, op: ';' }] }, i: 0, redirs: null });
  return proc;
}

/**
 * A process whose stdin stays open (`kubectl exec -i`, a container with
 * `stdin: true`): a shell run without a script becomes interactive and reads
 * its commands from that input; anything else runs as `spawn` runs it.
 */
export function spawnWithInput(argv: readonly string[], env: Record<string, string>, at: number, flavour: Flavour, tty: boolean): Proc {
  const proc = spawn(argv, env, at, flavour);
  const sh = shellScript(argv);
  if (sh === null || argv.includes('-c')) {
    if (tty) proc.ctty = true;
    return proc;
  }
  const exe = (argv[0] ?? '').replace(/^.*\//, '');
  const shell = exe === 'bash' ? 'bash' : exe === 'dash' || (exe === 'sh' && flavour !== 'busybox') ? 'dash' : 'ash';
  proc.interactive = { tty, shell, buffered: '', eof: false };
  return proc;
}

/** `sh -c SCRIPT [name args…]` (also bash, ash, /bin/sh); null when argv runs a program directly. */
function shellScript(argv: readonly string[]): { script: string; name: string; args: string[] } | null {
  const exe = argv[0] ?? '';
  if (!/^(?:\/(?:usr\/)?bin\/)?(?:sh|bash|ash|dash)$/.test(exe)) return null;
  let i = 1;
  while (i < argv.length && /^-[a-z]*$/.test(argv[i]!) && argv[i] !== '-c') i++;
  if (argv[i] !== '-c') {
    // `sh` with no script reads stdin, which is empty: it exits at once.
    return { script: '', name: exe, args: [] };
  }
  return { script: argv[i + 1] ?? '', name: argv[i + 2] ?? exe, args: argv.slice(i + 3) };
}

/** Runs the process up to `until`: every step whose time has come. */
export function run(proc: Proc, until: number, ctx: ShellContext): void {
  let budget = 200_000;
  while (!proc.exit && budget-- > 0) {
    if (proc.vars['__syntax']) {
      ctx.out(proc.at, 2, `${proc.vars['__syntax']}\n`);
      delete proc.vars['__syntax'];
      return finish(proc, 2, proc.at);
    }
    if (proc.daemon?.stoppingAt !== undefined) {
      if (proc.daemon.stoppingAt > until) return;
      return finish(proc, proc.daemon.stopCode ?? 0, proc.daemon.stoppingAt);
    }
    if (proc.daemon?.exitAfterMs !== undefined) {
      const end = proc.daemon.since + proc.daemon.exitAfterMs;
      if (end > until) return;
      const d = proc.daemon;
      proc.daemon = null;
      proc.wait = null;
      proc.cpuMilli = 0;
      proc.memBytes = 0;
      proc.at = end;
      proc.status = d.exitCode ?? 0;
      if (proc.pid1Program && proc.frames.length <= 1) return finish(proc, proc.status, end);
      continue;
    }
    const w = proc.wait;
    if (w) {
      if (w.k === 'forever' || (w.k === 'net' && w.until === undefined)) return;
      if (w.k === 'ping') {
        if (!drivePing(proc, until, ctx)) return;
        if (proc.pending.length) runPendingTraps(proc, false);
        continue;
      }
      if (w.k === 'net') {
        if (w.until! > until) return;
        proc.at = w.until!;
        proc.wait = null;
        proc.sameInstant = 0;
        continue;
      }
      if (w.k === 'input') {
        if (!readLine(proc, ctx)) return;
        continue;
      }
      if (w.k === 'sleep') {
        if (w.until > until) return;
        proc.at = w.until;
        proc.wait = null;
        proc.status = 0;
        proc.cpuMilli = 0;
        proc.memBytes = 0;
        proc.sameInstant = 0;
        if (proc.pending.length) runPendingTraps(proc, false);
        continue;
      }
      // wait for jobs
      const end = Math.max(proc.at, ...proc.jobs.map((j) => j.endAt));
      if (end > until) return;
      proc.at = end;
      proc.jobs = [];
      proc.wait = null;
      proc.status = 0;
      continue;
    }
    if (proc.at > until) return;
    if (!step(proc, ctx)) {
      if (!proc.interactive) return finish(proc, proc.status, proc.at);
      proc.wait = { k: 'input' };
      proc.sameInstant = 0;
      if (proc.interactive.tty) ctx.out(proc.at, 2, prompt(proc, ctx));
      continue;
    }
    if (++proc.sameInstant > SPIN_LIMIT && !proc.wait) {
      // A loop that never waits: the process spins on a CPU from here on.
      proc.wait = { k: 'forever' };
      proc.cpuMilli = 1000;
    }
  }
  if (!proc.exit && budget <= 0) {
    proc.wait = { k: 'forever' };
    proc.cpuMilli = 1000;
  }
}

/** The next instant the process does anything by itself (Infinity: not before a signal). */
export function nextStepAt(proc: Proc): number {
  if (proc.exit) return Infinity;
  if (proc.daemon?.stoppingAt !== undefined) return proc.daemon.stoppingAt;
  if (proc.daemon?.exitAfterMs !== undefined) return proc.daemon.since + proc.daemon.exitAfterMs;
  const w = proc.wait;
  if (!w) return proc.at;
  if (w.k === 'net') return w.until ?? Infinity;
  if (w.k === 'ping') return proc.ping ? pingNextAt(proc.ping.run) : Infinity;
  if (w.k === 'forever' || w.k === 'input') return Infinity;
  if (w.k === 'sleep') return w.until;
  return proc.jobs.length ? Math.max(...proc.jobs.map((j) => j.endAt)) : proc.at;
}

/** CPU the process wants right now, millicores (the foreground program and background jobs). */
export function cpuDemand(proc: Proc, at: number): number {
  if (proc.exit) return 0;
  let cpu = proc.cpuMilli;
  for (const j of proc.jobs) if (j.endAt > at) cpu += j.cpuMilli;
  return cpu;
}

/**
 * An interactive shell reads its next line: false while none has arrived. At
 * the end of input it exits with the last command's status, as a shell does.
 */
function readLine(proc: Proc, ctx: ShellContext): boolean {
  const io = proc.interactive!;
  const nl = io.buffered.indexOf('\n');
  if (nl < 0 && !(io.eof && io.buffered !== '')) {
    if (!io.eof) return false;
    // Ctrl-D at a terminal's prompt: bash says "exit"; ash and dash just end the line.
    if (io.tty) ctx.out(proc.at, 2, io.shell === 'bash' ? 'exit\n' : '\n');
    finish(proc, proc.status, proc.at);
    return false;
  }
  const line = nl < 0 ? io.buffered : io.buffered.slice(0, nl);
  io.buffered = nl < 0 ? '' : io.buffered.slice(nl + 1);
  proc.wait = null;
  try {
    proc.frames.push({ k: 'list', list: parseScript(line), i: 0, redirs: null });
  } catch (e) {
    if (!(e instanceof ShellSyntaxError)) throw e;
    ctx.out(proc.at, 2, `${io.shell === 'ash' ? 'sh' : io.shell === 'bash' ? 'bash' : 'sh: 1'}: ${e.message}\n`);
    proc.status = 2;
  }
  return true;
}

/**
 * The prompt, as root sees it: busybox ash's `\w \$ ` ("/ # ", "~ # " at
 * HOME), Debian bash's `\u@\h:\w\$ ` (/etc/bash.bashrc), dash's plain "# ".
 * Shells write their prompt to stderr.
 */
function prompt(proc: Proc, ctx: ShellContext): string {
  const shell = proc.interactive!.shell;
  if (shell === 'dash') return '# ';
  const home = proc.vars['HOME'] ?? '/root';
  const w = proc.cwd === home ? '~' : proc.cwd.startsWith(`${home}/`) ? `~${proc.cwd.slice(home.length)}` : proc.cwd;
  return shell === 'ash' ? `${w} # ` : `root@${ctx.hostname}:${w}# `;
}

/**
 * Input reaches an interactive shell at `at` (the process has run up to `at`).
 * With a terminal, Ctrl-C (\x03) interrupts the foreground command (the line
 * discipline's SIGINT: status 130, back at the prompt) and Ctrl-D (\x04) at the
 * start of a line ends the input; without one, bytes are bytes.
 */
export function feedInput(proc: Proc, data: string, at: number, ctx: ShellContext): void {
  const io = proc.interactive;
  if (!io && proc.ctty && !proc.exit && proc.wait?.k === 'ping' && data.includes('\x03')) {
    // The terminal's Ctrl-C: SIGINT to the program, which ping catches.
    proc.at = Math.max(proc.at, at);
    interruptForeground(proc, ctx);
    return;
  }
  if (!io || proc.exit || io.eof) return;
  proc.at = Math.max(proc.at, at);
  for (const ch of data) {
    if (io.tty && ch === '\x03') {
      io.buffered = '';
      interruptForeground(proc, ctx);
    } else if (io.tty && ch === '\x04') {
      if (io.buffered === '' || io.buffered.endsWith('\n')) io.eof = true;
    } else io.buffered += ch;
  }
}

/** The input ends (the client closed stdin). */
export function closeInput(proc: Proc, at: number): void {
  if (!proc.interactive || proc.exit) return;
  proc.at = Math.max(proc.at, at);
  proc.interactive.eof = true;
}

/** SIGINT to the foreground job: the command line being run stops; the shell shows a new prompt. */
function interruptForeground(proc: Proc, ctx: ShellContext): void {
  if (proc.wait?.k === 'ping' && proc.ping) {
    // ping catches it (print_stats_and_exit) and exits as at its end: not killed, so the shell goes on with the line.
    const io = pingIo(proc, ctx);
    pingAdvance(proc.ping.run, proc.at, io);
    pingInterrupt(proc.ping.run, proc.at, io);
    settlePing(proc);
    return;
  }
  if (proc.wait?.k === 'input') {
    // At the prompt: the shell starts a fresh line and prompts again.
    ctx.out(proc.at, 2, '\n' + prompt(proc, ctx));
    return;
  }
  proc.frames = [];
  proc.wait = null;
  proc.daemon = null;
  delete proc.net;
  proc.cpuMilli = 0;
  proc.memBytes = 0;
  proc.status = 130;
  ctx.out(proc.at, 2, '\n');
}

function finish(proc: Proc, code: number, at: number): void {
  proc.exit = { code: code & 255, at };
  proc.wait = null;
  proc.daemon = null;
  delete proc.ping;
  proc.cpuMilli = 0;
  proc.memBytes = 0;
  proc.jobs = [];
}

/**
 * Delivers a signal at `at` (the process has run up to `at`). Returns what
 * happens: the process handles it, ignores it, or dies.
 */
export function signal(proc: Proc, sig: Signal, at: number, ctx: ShellContext): void {
  if (proc.exit) return;
  if (sig === 'KILL') return finish(proc, 137, at);
  proc.at = Math.max(proc.at, at);
  const d = proc.daemon;
  if (sig === 'INT' && proc.pid1Program && proc.wait?.k === 'ping' && proc.ping) return interruptForeground(proc, ctx);
  if (d && proc.pid1Program) {
    // The program itself is PID 1: its own handler decides.
    const h = d.onSignal?.[sig];
    if (!h || d.stoppingAt !== undefined) return; // PID 1 ignores signals it does not handle
    for (const l of h.logs ?? []) ctx.out(at, l.fd, atSignal(l.text, at));
    d.stoppingAt = at + h.afterMs;
    d.stopCode = h.exitCode;
    return;
  }
  const trap = proc.traps[sig];
  if (trap === undefined || trap === '') return; // PID 1 shell: default disposition is ignored
  if (proc.wait?.k === 'jobs') {
    // `wait` is interrupted by a trapped signal.
    proc.wait = null;
    runTrap(proc, trap, true);
    return;
  }
  if (proc.wait || proc.daemon) {
    // sh runs traps once its foreground child returns.
    proc.pending.push(sig);
    return;
  }
  runTrap(proc, trap, false);
}

function runPendingTraps(proc: Proc, interruptedWait: boolean): void {
  for (const sig of proc.pending.splice(0)) {
    const t = proc.traps[sig];
    if (t) runTrap(proc, t, interruptedWait);
  }
}

function runTrap(proc: Proc, handler: string, interruptedWait: boolean): void {
  let list: List;
  try {
    list = parseScript(handler);
  } catch {
    return;
  }
  proc.frames.push({ k: 'trap', list, i: 0, redirs: null, interruptedWait });
}

// ---- stepping ---------------------------------------------------------------

/** Executes the next step. False when the script has run out (the process exits with $?). */
function step(proc: Proc, ctx: ShellContext): boolean {
  const f = proc.frames[proc.frames.length - 1];
  if (!f) return false;
  switch (f.k) {
    case 'list':
    case 'trap': {
      const items = f.list.items;
      // Skip items an && / || chain rules out.
      while (f.i < items.length && f.i > 0) {
        const prev = items[f.i - 1]!.op;
        if ((prev === '&&' && proc.status !== 0) || (prev === '||' && proc.status === 0)) {
          // A skipped item also skips what it chains to with the same logic.
          f.i++;
          continue;
        }
        break;
      }
      if (f.i >= items.length) {
        proc.frames.pop();
        if (f.k === 'trap' && f.interruptedWait) proc.status = 143;
        return true;
      }
      const item = items[f.i++]!;
      if (proc.net) proc.net.used = 0;
      try {
        if (item.op === '&') background(proc, item.cmd, ctx);
        else exec(proc, item.cmd, ctx, fdsOf(proc));
      } catch (e) {
        if (!(e instanceof NetBlock || e instanceof NetSleep) || ctx.netRoot) throw e;
        // Blocked on a connection: this item runs again once its answer is in (or its time has passed).
        f.i--;
        proc.wait = e instanceof NetSleep ? { k: 'net', until: e.until } : { k: 'net' };
        proc.sameInstant = 0;
        return true;
      }
      // The item is done: the answers it used are spent.
      delete proc.net;
      return true;
    }
    case 'while': {
      if (f.phase === 'cond') {
        // The condition ran: decide.
        const ok = proc.status === 0;
        if (ok !== f.node.until) {
          f.phase = 'body';
          proc.frames.push({ k: 'list', list: f.node.body, i: 0, redirs: null });
        } else {
          proc.frames.pop();
          proc.status = 0;
        }
        return true;
      }
      f.phase = 'cond';
      proc.frames.push({ k: 'list', list: f.node.cond, i: 0, redirs: null });
      return true;
    }
    case 'for': {
      if (f.idx >= f.values.length) {
        proc.frames.pop();
        return true;
      }
      proc.vars[f.node.name] = f.values[f.idx++]!;
      proc.frames.push({ k: 'list', list: f.node.body, i: 0, redirs: null });
      return true;
    }
    case 'if': {
      if (f.phase === 'body' || f.phase === 'else') {
        proc.frames.pop();
        return true;
      }
      // A condition just ran (clause index `clause`).
      if (proc.status === 0) {
        f.phase = 'body';
        proc.frames.push({ k: 'list', list: f.node.clauses[f.clause]!.body, i: 0, redirs: null });
        return true;
      }
      f.clause++;
      if (f.clause < f.node.clauses.length) {
        proc.frames.push({ k: 'list', list: f.node.clauses[f.clause]!.cond, i: 0, redirs: null });
        return true;
      }
      f.phase = 'else';
      proc.status = 0;
      if (f.node.orElse) proc.frames.push({ k: 'list', list: f.node.orElse, i: 0, redirs: null });
      return true;
    }
  }
}

/** The descriptors in effect: the innermost compound command's redirections. */
function fdsOf(proc: Proc): FdTable {
  for (let i = proc.frames.length - 1; i >= 0; i--) {
    const r = proc.frames[i]!.redirs;
    if (r) return r;
  }
  return { 1: '', 2: '', append: false };
}

function applyRedirs(proc: Proc, base: FdTable, redirs: Redirect[], ctx: ShellContext): FdTable {
  if (redirs.length === 0) return base;
  const t: FdTable = { ...base };
  for (const r of redirs) {
    if (r.fd !== 1 && r.fd !== 2) continue;
    if (r.op === 'dup') {
      // `>&2` / `2>&1`: where the other descriptor goes now (its own stream named, so it stays that stream).
      const src = (r.dupTo === 2 ? 2 : 1) as 1 | 2;
      t[r.fd] = t[src] === '' ? (src === 1 ? '/dev/stdout' : '/dev/stderr') : t[src];
    }
    else if (r.op === '>' || r.op === '>>') {
      const path = expandWord(proc, r.target, ctx).join(' ');
      const target = path === '/dev/null' ? '/dev/null' : normalise(path, proc.cwd);
      if (r.op === '>' && target !== '/dev/null' && target !== '/dev/stdout' && target !== '/dev/stderr') ctx.fs.write(target, proc.at, '');
      t[r.fd] = target === '/proc/1/fd/1' ? '/dev/stdout' : target === '/proc/1/fd/2' ? '/dev/stderr' : target;
      t.append = true;
    }
  }
  return t;
}

function emit(proc: Proc, fds: FdTable, fd: 1 | 2, text: string, ctx: ShellContext): void {
  if (!text) return;
  const target = fds[fd];
  if (target === '/dev/null') return;
  if (target === '' || target === '/dev/stdout' || target === '/dev/stderr') ctx.out(proc.at, target === '/dev/stderr' ? 2 : target === '/dev/stdout' ? 1 : fd, text);
  else ctx.fs.write(target, proc.at, text, true);
}

function exec(proc: Proc, cmd: Cmd, ctx: ShellContext, fds: FdTable): void {
  switch (cmd.t) {
    case 'simple':
      return simple(proc, cmd, ctx, applyRedirs(proc, fds, cmd.redirs, ctx), null);
    case 'pipe':
      return pipeline(proc, cmd, ctx, fds);
    case 'group':
      proc.frames.push({ k: 'list', list: cmd.list, i: 0, redirs: cmd.redirs.length ? applyRedirs(proc, fds, cmd.redirs, ctx) : null });
      return;
    case 'while':
      proc.frames.push({ k: 'while', node: cmd, phase: 'cond', redirs: cmd.redirs.length ? applyRedirs(proc, fds, cmd.redirs, ctx) : null });
      proc.frames.push({ k: 'list', list: cmd.cond, i: 0, redirs: null });
      return;
    case 'for': {
      const values = cmd.items === null ? positional(proc) : cmd.items.flatMap((w) => expandWord(proc, w, ctx));
      proc.frames.push({ k: 'for', node: cmd, values, idx: 0, redirs: cmd.redirs.length ? applyRedirs(proc, fds, cmd.redirs, ctx) : null });
      return;
    }
    case 'if':
      proc.frames.push({ k: 'if', node: cmd, clause: 0, phase: 'cond', redirs: cmd.redirs.length ? applyRedirs(proc, fds, cmd.redirs, ctx) : null });
      proc.frames.push({ k: 'list', list: cmd.clauses[0]!.cond, i: 0, redirs: null });
      return;
  }
}

function positional(proc: Proc): string[] {
  const n = Number(proc.vars['#'] ?? '0');
  return Array.from({ length: n }, (_, i) => proc.vars[String(i + 1)] ?? '');
}

/** A pipeline: each stage runs to completion with the previous stage's output as its input. */
function pipeline(proc: Proc, cmd: Extract<Cmd, { t: 'pipe' }>, ctx: ShellContext, fds: FdTable): void {
  let input: string | null = '';
  for (let i = 0; i < cmd.cmds.length; i++) {
    const last = i === cmd.cmds.length - 1;
    const stage = cmd.cmds[i]!;
    if (last) {
      if (stage.t === 'simple') simple(proc, stage, ctx, applyRedirs(proc, fds, stage.redirs, ctx), input);
      else exec(proc, stage, ctx, fds);
      break;
    }
    const r = capture(proc, stage, ctx, input);
    input = r.stdout;
    emit(proc, fds, 2, r.stderr, ctx);
  }
  if (cmd.negate) proc.status = proc.status === 0 ? 1 : 0;
}

/** Runs a command to completion in a subshell, capturing its output (for $(…) and pipeline stages). */
function capture(proc: Proc, cmd: Cmd | List, ctx: ShellContext, stdin: string | null): { stdout: string; stderr: string; status: number } {
  const list: List = 't' in cmd ? { items: [{ cmd, op: ';' }] } : cmd;
  let stdout = '';
  let stderr = '';
  const sub: Proc = {
    ...structuredClone({ ...proc, frames: [] as Frame[] }),
    frames: [{ k: 'list', list, i: 0, redirs: null }],
    pid1Program: false,
    daemon: null,
    wait: null,
    exit: null,
    jobs: [],
    pending: [],
    sameInstant: 0,
  };
  // A subshell runs its commands and ends: it does not read the terminal.
  delete sub.interactive;
  if (stdin !== null) sub.vars['__stdin'] = stdin;
  const subCtx: ShellContext = {
    ...ctx,
    netRoot: ctx.netRoot ?? proc,
    hasCommand: ctx.hasCommand,
    out: (_at, fd, text) => {
      if (fd === 1) stdout += text;
      else stderr += text;
    },
  };
  // Sub-commands that wait (sleep) take their time, but never longer than a minute here.
  for (let i = 0; i < 100 && !sub.exit; i++) {
    run(sub, sub.at + 60_000, subCtx);
    if (sub.wait?.k === 'forever' || sub.daemon) break;
  }
  proc.at = Math.max(proc.at, sub.exit?.at ?? sub.at);
  return { stdout, stderr, status: sub.exit?.code ?? 0 };
}

function background(proc: Proc, cmd: Cmd, ctx: ShellContext): void {
  const pid = proc.nextPid++;
  proc.lastBg = pid;
  proc.vars['!'] = String(pid);
  if (cmd.t !== 'simple') {
    // A compound background job: run it to completion now (its waits count towards its end).
    const start = proc.at;
    const r = capture(proc, cmd, ctx, null);
    emit(proc, fdsOf(proc), 1, r.stdout, ctx);
    proc.jobs.push({ pid, endAt: proc.at, cpuMilli: 0 });
    proc.at = start;
    return;
  }
  const argv = expandArgs(proc, cmd.words, ctx);
  const fds = applyRedirs(proc, fdsOf(proc), cmd.redirs, ctx);
  const res = command(proc, argv, ctx, null);
  emit(proc, fds, 1, res.stdout ?? '', ctx);
  emit(proc, fds, 2, res.stderr ?? '', ctx);
  const long = res.long;
  // A job that runs on the network (ping) is not followed in the background: it is taken to run on.
  const endAt = !long ? proc.at : long.k === 'sleep' ? proc.at + long.ms : Infinity;
  proc.jobs.push({ pid, endAt, cpuMilli: !long || long.k === 'ping' ? 0 : long.k === 'daemon' ? (long.daemon.cpuMilli ?? 0) : long.cpuMilli });
}

function simple(proc: Proc, cmd: Extract<Cmd, { t: 'simple' }>, ctx: ShellContext, fds: FdTable, stdin: string | null): void {
  const argv = expandArgs(proc, cmd.words, ctx);
  if (argv.length === 0) {
    for (const [name, w] of cmd.assigns) proc.vars[name] = expandWord(proc, w, ctx, false).join(' ');
    proc.status = 0;
    return;
  }
  const saved: Record<string, string | undefined> = {};
  for (const [name, w] of cmd.assigns) {
    saved[name] = proc.vars[name];
    proc.vars[name] = expandWord(proc, w, ctx, false).join(' ');
  }
  const res = command(proc, argv, ctx, stdin);
  for (const [name, v] of Object.entries(saved)) {
    if (v === undefined) delete proc.vars[name];
    else proc.vars[name] = v;
  }
  emit(proc, fds, 1, res.stdout ?? '', ctx);
  emit(proc, fds, 2, res.stderr ?? '', ctx);
  proc.status = res.status;
  if (res.exit !== undefined) {
    proc.frames = [];
    proc.status = res.exit;
    // An interactive shell reads no more input: it exits when the frames run out (bash at a terminal says so).
    if (proc.interactive?.tty && proc.interactive.shell === 'bash') ctx.out(proc.at, 2, 'exit\n');
    delete proc.interactive;
    return;
  }
  const long = res.long;
  if (!long) {
    if (res.ms) proc.at += res.ms;
    return;
  }
  proc.sameInstant = 0;
  proc.memSince = proc.at;
  if (long.k === 'sleep') {
    proc.wait = { k: 'sleep', until: proc.at + long.ms };
    proc.cpuMilli = long.cpuMilli;
    proc.memBytes = long.memBytes ?? 0;
    proc.memRate = long.memRate ?? INSTANT_ALLOC;
    return;
  }
  if (long.k === 'ping') {
    proc.ping = { run: long.run, fds };
    proc.wait = { k: 'ping' };
    proc.cpuMilli = 0;
    proc.memBytes = 0;
    return;
  }
  if (long.k === 'daemon') {
    proc.daemon = { ...long.daemon, since: proc.at };
    for (const l of long.daemon.logs ?? []) ctx.out(proc.at + l.afterMs, l.fd, l.text);
    proc.wait = { k: 'forever' };
    proc.cpuMilli = long.daemon.cpuMilli ?? 0;
    proc.memBytes = long.daemon.memBytes ?? 0;
    proc.memRate = long.daemon.memRate ?? INSTANT_ALLOC;
    return;
  }
  // forever
  proc.wait = { k: 'forever' };
  proc.cpuMilli = long.cpuMilli;
  proc.memBytes = long.memBytes ?? 0;
  proc.memRate = long.memRate ?? INSTANT_ALLOC;
}

/** Builtins that change the shell itself, then the command table. */
function command(proc: Proc, argv: string[], ctx: ShellContext, stdin: string | null): CommandResult {
  const [name, ...args] = argv as [string, ...string[]];
  switch (name) {
    case 'exit':
      return { status: 0, exit: args[0] !== undefined ? Number(args[0]) & 255 : proc.status };
    case 'export':
      for (const a of args) {
        const eq = a.indexOf('=');
        const k = eq < 0 ? a : a.slice(0, eq);
        if (eq >= 0) proc.vars[k] = a.slice(eq + 1);
        if (!proc.exported.includes(k)) proc.exported.push(k);
      }
      return { status: 0 };
    case 'unset':
      for (const a of args) delete proc.vars[a];
      return { status: 0 };
    case 'cd': {
      // `cd` alone goes home.
      const to = normalise(args[0] ?? proc.vars['HOME'] ?? '/', proc.cwd);
      if (!ctx.fs.isDir(to, proc.at)) return { status: 2, stderr: `${ctx.flavour === 'busybox' ? 'sh' : 'sh: 1'}: cd: can't cd to ${args[0]}: No such file or directory\n` };
      proc.cwd = to;
      return { status: 0 };
    }
    case 'trap': {
      if (args.length === 0)
        return {
          status: 0,
          stdout: Object.entries(proc.traps)
            .map(([s, h]) => `trap -- '${h}' ${s}\n`)
            .join(''),
        };
      const [action, ...sigs] = args as [string, ...string[]];
      for (const s of sigs) {
        const sig = s.toUpperCase().replace(/^SIG/, '');
        const norm = sig === '15' ? 'TERM' : sig === '2' ? 'INT' : sig === '3' ? 'QUIT' : sig;
        if (action === '-') delete proc.traps[norm as Signal];
        else proc.traps[norm as Signal] = action;
      }
      return { status: 0 };
    }
    case 'wait':
      if (proc.jobs.some((j) => j.endAt > proc.at)) proc.wait = { k: 'jobs' };
      else proc.jobs = [];
      return { status: 0 };
    case 'set':
    case 'shift':
    case 'source':
    case '.':
      return { status: 0 };
  }
  const env: Record<string, string> = {};
  for (const k of proc.exported) if (proc.vars[k] !== undefined) env[k] = proc.vars[k]!;
  const cenv: CommandEnv = {
    fs: ctx.fs,
    at: proc.at,
    cwd: proc.cwd,
    env,
    hostname: ctx.hostname,
    podIP: ctx.podIP,
    flavour: ctx.flavour,
    stdin: stdin ?? proc.vars['__stdin'] ?? null,
    stdoutIsTty: (ctx.netRoot ?? proc).interactive?.tty === true || (ctx.netRoot ?? proc).ctty === true,
    hasCommand: ctx.hasCommand,
    ...(ctx.busybox ? { busybox: ctx.busybox } : {}),
  };
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (ctx.hasCommand(name)) {
    if (base === 'wget' || base === 'curl') {
      const call = parseNetCall(base, args, cenv);
      if (call) return fetch(proc, call, ctx, cenv);
    }
    const tool = dnsTool(base, args, cenv);
    // A tool's plan has no deadline: it always comes to a result.
    if (tool) return exchanges(proc, ctx, tool).result!;
    if (base === 'ping') return ping(proc, args, ctx, cenv);
  }
  return runCommand(argv, cenv);
}

/**
 * busybox ping: the name looked up (getaddrinfo), then the program. In the
 * foreground it runs on by itself (Wait 'ping', printing as replies come);
 * in a pipeline stage or a command substitution, which run to completion,
 * it runs as a sequence of exchanges instead (`pingCaptured`).
 */
function ping(proc: Proc, args: string[], ctx: ShellContext, cenv: CommandEnv): CommandResult {
  const o = parsePing(args);
  if ('status' in o) return o;
  // -6: an IPv6 address only, and the playground has none.
  if (o.ipv6) return { status: 1, stderr: `ping: bad address '${o.host}'\n` };
  const r = exchanges(proc, ctx, getaddrinfo(o.host, cenv));
  if (!r.result?.ok) return { status: 1, stderr: `ping: bad address '${o.host}'\n` };
  const ip = r.result.addresses[0]!;
  if (ctx.netRoot) {
    // The command's own timeline, from 0 (its re-runs start later each time).
    const { run } = pingStart(o, ip, 0, -r.spentMs, false);
    return pingCaptured(proc, ctx, run);
  }
  const { run, stdout } = pingStart(o, ip, proc.at, proc.at - r.spentMs, cenv.stdoutIsTty === true);
  return { status: 0, stdout, long: { k: 'ping', run } };
}

/** A reply to an echo request later than this (only with a link's latency made huge) is taken for lost. */
const ECHO_WAIT_MS = 10_000;

/** The foreground ping's network and output: what it writes goes where its command's descriptors say, at the time it writes it. */
function pingIo(proc: Proc, ctx: ShellContext): PingIo {
  const fds = proc.ping!.fds;
  return {
    send: (at, call) => (ctx.connect ? ctx.connect({ ...call, timeoutMs: Math.max(call.timeoutMs, ECHO_WAIT_MS) }, at) : -1),
    write: (at, fd, text) => {
      proc.at = Math.max(proc.at, at);
      emit(proc, fds, fd, text, ctx);
    },
  };
}

/** Runs the foreground ping up to `until`: true once it has exited. */
function drivePing(proc: Proc, until: number, ctx: ShellContext): boolean {
  pingAdvance(proc.ping!.run, until, pingIo(proc, ctx));
  return settlePing(proc);
}

/** ping's exit becomes the command's status; a look-ahead that stalled stays at the request it could not send. */
function settlePing(proc: Proc): boolean {
  const r = proc.ping!.run;
  if (r.stalled && r.timer) proc.at = Math.max(proc.at, r.timer.at);
  if (!r.done) return false;
  proc.at = Math.max(proc.at, r.done.at);
  proc.status = r.done.status;
  delete proc.ping;
  proc.wait = null;
  proc.sameInstant = 0;
  return true;
}

/**
 * ping run to completion, as a pipeline stage is: each request an exchange
 * (its reply looked for until the timer next fires), each gap a pause, all
 * replayed on re-runs like any command's exchanges. A reply later than the
 * next request is lost here (the network's round trips are milliseconds).
 * Without -c or -w it never ends: the stage is given up, as `yes` is.
 */
function pingCaptured(proc: Proc, ctx: ShellContext, run: PingRun): CommandResult {
  let stdout = '';
  let stderr = '';
  const forever: CommandResult = { status: 0, long: { k: 'forever', cpuMilli: 0 } };
  if (run.o.count === 0 && run.deadlineAt === null) return forever;
  let now = 0;
  const io: PingIo = {
    send: (at, call) => {
      const got = exchange(proc, ctx, call);
      const ms = got.exactMs ?? got.elapsedMs;
      now = at + ms;
      const o = got.outcome;
      return o.k === 'echo' ? { ...o, rttMs: o.rttMs ?? ms } : o;
    },
    write: (_at, fd, text) => {
      if (fd === 1) stdout += text;
      else stderr += text;
    },
  };
  while (!run.done) {
    const next = pingNextAt(run);
    if (next === Infinity) return { ...forever, stdout, stderr };
    if (next > now) {
      pause(proc, ctx, next - now);
      now = next;
    }
    pingAdvance(run, next, io);
  }
  return { status: run.done.status, stdout, stderr };
}

/**
 * A wget or curl: the name looked up first when it takes DNS (curl gives up
 * resolving at its own timeout), then the connection to its first address.
 */
function fetch(proc: Proc, call: NetCall, ctx: ShellContext, cenv: CommandEnv): CommandResult {
  let resolveMs = 0;
  if (call.name !== undefined) {
    const deadline = call.tool === 'curl' && call.ownTimeout ? call.timeoutMs : Infinity;
    const r = exchanges(proc, ctx, getaddrinfo(call.name, cenv), deadline);
    resolveMs = r.spentMs;
    if (r.result === null || !r.result.ok) return renderResolveFailure(call, r.result, resolveMs, cenv);
    call = { ...call, http: { ...call.http, ip: r.result.addresses[0]! }, timeoutMs: call.ownTimeout ? Math.max(1, call.timeoutMs - resolveMs) : call.timeoutMs };
  }
  const got = exchange(proc, ctx, call);
  return renderNet(call, got.outcome, resolveMs + got.elapsedMs, cenv);
}

/** Past the deadline a lookup was given. */
class Deadline {}

/**
 * Runs a plan of DNS exchanges (a lookup, a DNS tool): each query goes out as
 * a UDP NetCall, each pause is waited out; `spentMs` is the time they took.
 * Past `deadlineMs` it stops and the result is null.
 */
function exchanges<T>(proc: Proc, ctx: ShellContext, plan: Lookup<T>, deadlineMs = Infinity): { result: T | null; spentMs: number } {
  let spentMs = 0;
  const step = (s: Step): Reply => {
    const left = deadlineMs - spentMs;
    if (left <= 0) throw new Deadline();
    if (s.k === 'wait') {
      const ms = Math.min(s.ms, left);
      pause(proc, ctx, ms);
      spentMs += ms;
      return { k: 'timeout', elapsedMs: ms };
    }
    const call = dnsCall(s.server, s.port ?? 53, s.question, Math.min(s.timeoutMs, left));
    const got = exchange(proc, ctx, call);
    spentMs += got.elapsedMs;
    const o = got.outcome;
    if (o.k === 'dns') return { k: 'response', response: o.response, elapsedMs: got.elapsedMs };
    // ICMP port (or host) unreachable; an HTTP answer to a datagram is no answer.
    if (o.k === 'refused' || o.k === 'unreachable') return { k: 'refused', elapsedMs: got.elapsedMs };
    return { k: 'timeout', elapsedMs: got.elapsedMs };
  };
  try {
    return { result: drive(plan, step), spentMs };
  } catch (e) {
    if (e instanceof Deadline) return { result: null, spentMs };
    throw e;
  }
}

/** The process's exchanges so far (those of the command being run, across its re-runs). */
function netState(proc: Proc, ctx: ShellContext): NetState {
  const root = ctx.netRoot ?? proc;
  return (root.net ??= { replies: [], used: 0, pending: null, openedAt: proc.at });
}

/**
 * One exchange: its recorded answer when the command has run this far
 * before, else the network's. An answer the network has at once is recorded
 * (a DNS query's timeout takes its time: NetSleep); one it has not, blocks (NetBlock).
 */
function exchange(proc: Proc, ctx: ShellContext, call: NetCall): { outcome: NetOutcome; elapsedMs: number; exactMs?: number } {
  const st = netState(proc, ctx);
  if (st.used < st.replies.length) return st.replies[st.used++]!;
  const got = ctx.connect ? ctx.connect(call, proc.at) : -1;
  if (typeof got === 'number') {
    st.pending = got;
    st.openedAt = proc.at;
    throw new NetBlock(got);
  }
  const rec = { outcome: got, elapsedMs: got.k === 'timeout' && call.tool === 'dns' ? call.timeoutMs : 0 };
  st.replies.push(rec);
  st.used++;
  if (rec.elapsedMs > 0) throw new NetSleep(proc.at + rec.elapsedMs);
  return rec;
}

/** A resolver's pause of `ms` (waiting out a retry interval): recorded like an exchange. */
function pause(proc: Proc, ctx: ShellContext, ms: number): void {
  const st = netState(proc, ctx);
  if (st.used < st.replies.length) {
    st.used++;
    return;
  }
  st.replies.push({ outcome: { k: 'timeout' }, elapsedMs: ms });
  st.used++;
  if (ms > 0) throw new NetSleep(proc.at + ms);
}

/**
 * The answer of connection `conn` reached the process at `at` (after it ran
 * up to then): the command that waited on it runs again and finds it.
 */
export function netReply(proc: Proc, conn: number, outcome: NetOutcome, at: number): boolean {
  if (proc.wait?.k === 'ping' && proc.ping && !proc.exit) {
    // A reply for the foreground ping: it prints it when it runs up to `at`.
    if (!pingReply(proc.ping.run, conn, outcome, at)) return false;
    proc.sameInstant = 0;
    return true;
  }
  const st = proc.net;
  if (proc.exit || !st || st.pending !== conn || proc.wait?.k !== 'net') return false;
  st.replies.push({ outcome, elapsedMs: Math.max(0, Math.round(at - st.openedAt)), exactMs: Math.max(0, at - st.openedAt) });
  st.pending = null;
  st.used = 0;
  proc.wait = null;
  proc.at = Math.max(proc.at, at);
  proc.sameInstant = 0;
  return true;
}

/**
 * A process that ran ahead of time (ExecSync's look-ahead) and stopped at a
 * connection it could not open yet: it sleeps until then instead, and opens
 * it for real when it gets there. False when it is not so stopped.
 */
export function unblockNet(proc: Proc): boolean {
  if (proc.wait?.k === 'ping' && proc.ping?.run.stalled) {
    // Its timer still says when: the request goes out then.
    proc.ping.run.stalled = false;
    return true;
  }
  if (proc.wait?.k !== 'net' || proc.net?.pending !== -1) return false;
  proc.net.pending = null;
  proc.wait = { k: 'sleep', until: proc.at };
  return true;
}

/**
 * The connection the process waits on, if any. A foreground ping waits on
 * none (its timer goes on): it names a request still out, or -1 when a
 * look-ahead stopped at one it could not send.
 */
export function pendingConn(proc: Proc): number | null {
  if (proc.wait?.k === 'ping') return proc.ping ? pingPending(proc.ping.run) : null;
  return proc.wait?.k === 'net' ? (proc.net?.pending ?? null) : null;
}

// ---- expansion ------------------------------------------------------------------

function expandArgs(proc: Proc, words: Word[], ctx: ShellContext): string[] {
  return words.flatMap((w) => expandWord(proc, w, ctx));
}

/** Expands a word to fields: parameters, arithmetic, command substitution, then splitting of unquoted results. */
function expandWord(proc: Proc, w: Word, ctx: ShellContext, split = true): string[] {
  const fields: string[] = [];
  let cur = '';
  let any = false;
  const push = (text: string, quoted: boolean) => {
    if (quoted || !split) {
      cur += text;
      any = true;
      return;
    }
    const parts = text.split(/[ \t\n]+/);
    parts.forEach((p, i) => {
      if (i > 0) {
        if (any || cur) fields.push(cur);
        cur = '';
        any = false;
      }
      if (p) {
        cur += p;
        any = true;
      }
    });
  };
  for (const p of w) {
    switch (p.t) {
      case 'lit':
        cur += p.v;
        any = true;
        break;
      case 'var': {
        let v = varValue(proc, p.name);
        if (p.op && p.fallback) {
          const unset = v === undefined || ((p.op === ':-' || p.op === ':=') && v === '');
          if (unset) {
            v = expandWord(proc, p.fallback, ctx, false).join(' ');
            if (p.op === ':=' || p.op === '=') proc.vars[p.name] = v;
          }
        }
        push(v ?? '', p.quoted);
        break;
      }
      case 'arith':
        push(String(arith(proc, p.expr)), p.quoted);
        break;
      case 'sub': {
        const r = capture(proc, p.list, ctx, null);
        push(r.stdout.replace(/\n+$/, ''), p.quoted);
        break;
      }
    }
  }
  if (any || cur) fields.push(cur);
  return fields;
}

function varValue(proc: Proc, name: string): string | undefined {
  if (name === '?') return String(proc.status);
  if (name === '$') return '1';
  if (name === '@' || name === '*') return positional(proc).join(' ');
  return proc.vars[name];
}

/** $((…)): integers, + - * / %, comparisons, parentheses, variables (unset = 0). */
export function arith(proc: Pick<Proc, 'vars'>, expr: string): number {
  const toks = expr.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|\$[A-Za-z_][A-Za-z0-9_]*|==|!=|<=|>=|&&|\|\||[-+*/%()<>!]/g) ?? [];
  let i = 0;
  const val = (name: string) => Math.trunc(Number(proc.vars[name.replace(/^\$/, '')] ?? '0')) || 0;
  const primary = (): number => {
    const t = toks[i++];
    if (t === undefined) return 0;
    if (t === '(') {
      const v = orExpr();
      i++;
      return v;
    }
    if (t === '-') return -primary();
    if (t === '+') return primary();
    if (t === '!') return primary() ? 0 : 1;
    if (/^\d+$/.test(t)) return Number(t);
    return val(t);
  };
  const mul = (): number => {
    let v = primary();
    while (toks[i] === '*' || toks[i] === '/' || toks[i] === '%') {
      const op = toks[i++];
      const r = primary();
      v = op === '*' ? v * r : r === 0 ? 0 : op === '/' ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  const add = (): number => {
    let v = mul();
    while (toks[i] === '+' || toks[i] === '-') v = toks[i++] === '+' ? v + mul() : v - mul();
    return v;
  };
  const cmp = (): number => {
    let v = add();
    while (['<', '>', '<=', '>=', '==', '!='].includes(toks[i] ?? '')) {
      const op = toks[i++];
      const r = add();
      v = Number(op === '<' ? v < r : op === '>' ? v > r : op === '<=' ? v <= r : op === '>=' ? v >= r : op === '==' ? v === r : v !== r);
    }
    return v;
  };
  const andExpr = (): number => {
    let v = cmp();
    while (toks[i] === '&&') {
      i++;
      const r = cmp();
      v = Number(v !== 0 && r !== 0);
    }
    return v;
  };
  const orExpr = (): number => {
    let v = andExpr();
    while (toks[i] === '||') {
      i++;
      const r = andExpr();
      v = Number(v !== 0 || r !== 0);
    }
    return v;
  };
  return orExpr();
}
