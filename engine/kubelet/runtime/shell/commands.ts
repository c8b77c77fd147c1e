// The commands a fake container can run: the usual utilities (busybox's
// applets on busybox/alpine images, GNU coreutils' messages on Debian-based
// ones), and the programs images ship (programs.ts: nginx, stress, agnhost…).
// Quick commands return their output at once; long-running ones return what
// the interpreter should wait on (a sleep, forever, or a daemon).
import { epochMs } from '../../../apiserver/http/time';
import type { FileSystem } from './fs';
import { normalise } from './fs';
import { programFor, type Daemon } from './programs';
import type { PingRun } from './ping';

export type { Daemon } from './programs';

/** Which userland prints the messages: busybox (busybox, alpine) or GNU (Debian-based images). */
export type Flavour = 'busybox' | 'gnu';

export type LongRunning =
  | { k: 'sleep'; ms: number; cpuMilli: number; memBytes?: number; memRate?: number }
  | { k: 'forever'; cpuMilli: number; memBytes?: number; memRate?: number }
  | { k: 'daemon'; daemon: Daemon }
  /** ping, which runs on the network's answers (ping.ts). */
  | { k: 'ping'; run: PingRun };

export interface CommandResult {
  status: number;
  stdout?: string;
  stderr?: string;
  /** The `exit` builtin: the shell ends with this code. */
  exit?: number;
  /** How long a quick command takes. */
  ms?: number;
  long?: LongRunning;
}

export interface CommandEnv {
  fs: FileSystem;
  at: number;
  cwd: string;
  env: Record<string, string>;
  hostname: string;
  podIP: string;
  flavour: Flavour;
  stdin: string | null;
  /** stdout is a terminal (`kubectl exec -t`): curl shows no progress meter then. */
  stdoutIsTty?: boolean;
  hasCommand(name: string): boolean;
  /** The image's busybox release (busybox images), for applets whose behaviour changed between releases. */
  busybox?: string;
}

const CURL_HINT = "curl: try 'curl --help' or 'curl --manual' for more information\n";

const ok = (stdout = ''): CommandResult => ({ status: 0, stdout });
const fail = (stderr: string, status = 1): CommandResult => ({ status, stderr });

/** `sleep` arguments: seconds with an optional s/m/h/d suffix, or infinity. */
export function sleepMs(args: readonly string[]): number | null {
  let total = 0;
  for (const a of args) {
    if (a === 'infinity' || a === 'inf') return Infinity;
    const m = /^(\d+(?:\.\d+)?|\.\d+)([smhd]?)$/.exec(a);
    if (!m) return null;
    total += Number(m[1]) * { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]!]!;
  }
  return Math.round(total);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `date` at virtual time `at`: its default format (`Wed Jan  1 00:00:05 UTC 2025`) or a +FORMAT (%3N: milliseconds). */
export function dateText(at: number, format?: string): string {
  const d = new Date(epochMs() + Math.floor(at));
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const fields: Record<string, string> = {
    a: DAYS[d.getUTCDay()]!,
    b: MONTHS[d.getUTCMonth()]!,
    d: p(d.getUTCDate()),
    e: String(d.getUTCDate()).padStart(2, ' '),
    H: p(d.getUTCHours()),
    k: String(d.getUTCHours()).padStart(2, ' '),
    M: p(d.getUTCMinutes()),
    S: p(d.getUTCSeconds()),
    Y: String(d.getUTCFullYear()),
    m: p(d.getUTCMonth() + 1),
    s: String(Math.floor((epochMs() + at) / 1000)),
    Z: 'UTC',
    T: `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`,
    F: `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`,
    N: p((epochMs() + at) % 1000, 3) + '000000',
    '%': '%',
  };
  const fmt = format ?? '%a %b %e %H:%M:%S %Z %Y';
  // GNU date's %3N / %6N: the fraction to that many digits.
  return fmt.replace(/%(\d?)([a-zA-Z%])/g, (m, width: string, c: string) => {
    const v = fields[c];
    if (v === undefined) return m;
    return width && c === 'N' ? v.slice(0, Number(width)) : v;
  });
}

/** echo's argument handling (busybox and dash both honour -n; -e interprets escapes). */
function echo(args: string[]): string {
  let newline = true;
  let escapes = false;
  while (args.length && /^-[neE]+$/.test(args[0]!)) {
    const f = args.shift()!;
    if (f.includes('n')) newline = false;
    if (f.includes('e')) escapes = true;
  }
  let s = args.join(' ');
  if (escapes) s = s.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\');
  return newline ? `${s}\n` : s;
}

/** printf for %s, %d, %% and \n \t escapes; the format is reused while arguments remain. */
function printf(args: string[]): string {
  const fmt = (args.shift() ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  let out = '';
  do {
    out += fmt.replace(/%([sd%])/g, (_m, c: string) => (c === '%' ? '%' : c === 'd' ? String(Math.trunc(Number(args.shift() ?? '0')) || 0) : (args.shift() ?? '')));
  } while (args.length > 0 && /%[sd]/.test(fmt));
  return out;
}

/** test / [ … ]: file tests, string and integer comparisons, ! and -a/-o. */
function test(args: string[], e: CommandEnv): boolean {
  const path = (p: string) => normalise(p, e.cwd);
  const unary = (op: string, v: string): boolean => {
    switch (op) {
      case '-f':
        return e.fs.isFile(path(v), e.at);
      case '-d':
        return e.fs.isDir(path(v), e.at);
      case '-e':
      case '-r':
      case '-w':
      case '-s':
        return op === '-s' ? (e.fs.read(path(v), e.at) ?? '').length > 0 : e.fs.exists(path(v), e.at);
      case '-z':
        return v.length === 0;
      case '-n':
        return v.length > 0;
    }
    return false;
  };
  const one = (a: string[]): boolean => {
    if (a[0] === '!') return !one(a.slice(1));
    if (a.length === 1) return a[0]!.length > 0;
    if (a.length === 2) return unary(a[0]!, a[1]!);
    if (a.length === 3) {
      const [x, op, y] = a as [string, string, string];
      const nx = Number(x);
      const ny = Number(y);
      switch (op) {
        case '=':
        case '==':
          return x === y;
        case '!=':
          return x !== y;
        case '-eq':
          return nx === ny;
        case '-ne':
          return nx !== ny;
        case '-lt':
          return nx < ny;
        case '-le':
          return nx <= ny;
        case '-gt':
          return nx > ny;
        case '-ge':
          return nx >= ny;
      }
    }
    return false;
  };
  const or = args.indexOf('-o');
  if (or > 0) return test(args.slice(0, or), e) || test(args.slice(or + 1), e);
  const and = args.indexOf('-a');
  if (and > 0) return test(args.slice(0, and), e) && test(args.slice(and + 1), e);
  return one(args);
}

function notFoundText(e: CommandEnv, name: string): string {
  return e.flavour === 'busybox' ? `sh: ${name}: not found\n` : `sh: 1: ${name}: not found\n`;
}

function cantOpen(e: CommandEnv, cmd: string, p: string, what = 'No such file or directory'): string {
  return e.flavour === 'busybox' ? `${cmd}: can't open '${p}': ${what}\n` : `${cmd}: ${p}: ${what}\n`;
}

/** Runs one command. `argv[0]` is a name or a path. */
export function runCommand(argv: string[], e: CommandEnv): CommandResult {
  const [raw, ...args] = argv as [string, ...string[]];
  const name = raw.includes('/') ? raw.slice(raw.lastIndexOf('/') + 1) : raw;
  switch (name) {
    case 'true':
    case ':':
      return ok();
    case 'false':
      return { status: 1 };
    case 'echo':
      return ok(echo([...args]));
    case 'printf':
      return ok(printf([...args]));
    case 'test':
      return { status: test(args, e) ? 0 : 1 };
    case '[':
      if (args[args.length - 1] !== ']') return fail(`sh: missing ]\n`, 2);
      return { status: test(args.slice(0, -1), e) ? 0 : 1 };
  }
  if (!e.hasCommand(raw) && !e.hasCommand(name)) return { status: 127, stderr: notFoundText(e, raw) };
  switch (name) {
    case 'sleep': {
      const ms = sleepMs(args);
      if (ms === null || args.length === 0) return fail(e.flavour === 'busybox' ? `sleep: invalid number '${args[0] ?? ''}'\n` : `sleep: invalid time interval '${args[0] ?? ''}'\n`);
      return { status: 0, long: ms === Infinity ? { k: 'forever', cpuMilli: 0 } : { k: 'sleep', ms, cpuMilli: 0 } };
    }
    case 'cat': {
      if (args.length === 0 || (args.length === 1 && args[0] === '-')) return ok(e.stdin ?? '');
      let out = '';
      let err = '';
      for (const a of args) {
        const p = normalise(a, e.cwd);
        const c = e.fs.read(p, e.at);
        if (c === null) err += e.fs.isDir(p, e.at) ? cantOpen(e, 'cat', a, 'Is a directory') : cantOpen(e, 'cat', a);
        else out += c;
      }
      return { status: err ? 1 : 0, stdout: out, stderr: err };
    }
    case 'ls': {
      const flags = args.filter((a) => a.startsWith('-')).join('');
      const paths = args.filter((a) => !a.startsWith('-'));
      const long = flags.includes('l');
      const all = flags.includes('a');
      let out = '';
      let err = '';
      for (const a of paths.length ? paths : ['.']) {
        const p = normalise(a, e.cwd);
        if (e.fs.isFile(p, e.at)) {
          out += `${a}\n`;
          continue;
        }
        if (!e.fs.isDir(p, e.at)) {
          err += e.flavour === 'busybox' ? `ls: ${a}: No such file or directory\n` : `ls: cannot access '${a}': No such file or directory\n`;
          continue;
        }
        if (paths.length > 1) out += `${a}:\n`;
        const names = [...(all ? ['.', '..'] : []), ...e.fs.children(p, e.at)];
        out += long
          ? names
              .map(
                (n) =>
                  `${e.fs.isDir(`${p}/${n}`, e.at) ? 'drwxr-xr-x    2' : '-rw-r--r--    1'} root     root          ${String((e.fs.read(`${p}/${n}`, e.at) ?? '').length).padStart(5)} ${dateText(e.at, '%b %e %H:%M')} ${n}\n`,
              )
              .join('')
          : names.map((n) => `${n}\n`).join('');
      }
      return { status: err ? (e.flavour === 'busybox' ? 1 : 2) : 0, stdout: out, stderr: err };
    }
    case 'touch':
      for (const a of args.filter((x) => !x.startsWith('-'))) {
        const p = normalise(a, e.cwd);
        if (!e.fs.isFile(p, e.at)) e.fs.write(p, e.at, '');
      }
      return ok();
    case 'mkdir':
      for (const a of args.filter((x) => !x.startsWith('-'))) e.fs.mkdir(normalise(a, e.cwd), e.at);
      return ok();
    case 'rm': {
      const flags = args.filter((a) => a.startsWith('-')).join('');
      let err = '';
      for (const a of args.filter((x) => !x.startsWith('-'))) {
        const p = normalise(a, e.cwd);
        if (!e.fs.exists(p, e.at)) {
          if (!flags.includes('f')) err += e.flavour === 'busybox' ? `rm: can't remove '${a}': No such file or directory\n` : `rm: cannot remove '${a}': No such file or directory\n`;
          continue;
        }
        e.fs.remove(p, e.at, flags.includes('r') || flags.includes('R'));
      }
      return { status: err ? 1 : 0, stderr: err };
    }
    case 'date': {
      const fmt = args.find((a) => a.startsWith('+'));
      return ok(`${dateText(e.at, fmt?.slice(1))}\n`);
    }
    case 'hostname':
      return ok(`${e.hostname}\n`);
    case 'whoami':
      // traefik/whoami's server is /whoami; coreutils' and busybox's whoami are elsewhere on $PATH.
      if (raw === '/whoami') break;
      return ok('root\n');
    case 'id':
      return ok(e.flavour === 'busybox' ? 'uid=0(root) gid=0(root) groups=0(root),10(wheel)\n' : 'uid=0(root) gid=0(root) groups=0(root)\n');
    case 'pwd':
      return ok(`${e.cwd}\n`);
    case 'uname':
      return ok(
        args.includes('-a')
          ? `Linux ${e.hostname} 6.8.0-1021-aws #23-Ubuntu SMP Mon Dec  9 23:59:34 UTC 2024 x86_64${e.flavour === 'busybox' ? '' : ' GNU/Linux'}\n`
          : args.includes('-r')
            ? '6.8.0-1021-aws\n'
            : 'Linux\n',
      );
    case 'env':
    case 'printenv': {
      if (name === 'printenv' && args.length) {
        const vals = args.map((a) => e.env[a]).filter((v): v is string => v !== undefined);
        return { status: vals.length === args.length ? 0 : 1, stdout: vals.map((v) => `${v}\n`).join('') };
      }
      return ok(
        Object.entries(e.env)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
    }
    case 'head':
    case 'tail': {
      const nFlag = args.findIndex((a) => a === '-n');
      const n = nFlag >= 0 ? Number(args[nFlag + 1]) : Number((args.find((a) => /^-\d+$/.test(a)) ?? '-10').slice(1));
      const files = args.filter((a, i) => !a.startsWith('-') && i !== nFlag + 1);
      if (name === 'tail' && args.includes('-f')) return { status: 0, long: { k: 'forever', cpuMilli: 0 } };
      const text = files.length ? (e.fs.read(normalise(files[0]!, e.cwd), e.at) ?? '') : (e.stdin ?? '');
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const pick = name === 'head' ? lines.slice(0, n) : lines.slice(Math.max(0, lines.length - n));
      return ok(pick.map((l) => `${l}\n`).join(''));
    }
    case 'wc': {
      const text = args.filter((a) => !a.startsWith('-')).length ? (e.fs.read(normalise(args.filter((a) => !a.startsWith('-'))[0]!, e.cwd), e.at) ?? '') : (e.stdin ?? '');
      const lines = (text.match(/\n/g) ?? []).length;
      if (args.includes('-l')) return ok(`${lines}\n`);
      return ok(`${String(lines).padStart(7)} ${String(text.split(/\s+/).filter(Boolean).length).padStart(7)} ${String(text.length).padStart(7)}\n`);
    }
    case 'grep': {
      const pat = args.find((a) => !a.startsWith('-')) ?? '';
      const invert = args.includes('-v');
      const quiet = args.includes('-q');
      const text = e.stdin ?? '';
      const hits = text.split('\n').filter((l, i, all) => (i < all.length - 1 || l !== '') && l.includes(pat) !== invert);
      return { status: hits.length ? 0 : 1, stdout: quiet ? '' : hits.map((l) => `${l}\n`).join('') };
    }
    case 'ps':
      return ok(e.flavour === 'busybox' ? 'PID   USER     TIME  COMMAND\n    1 root      0:00 sh\n' : '    PID TTY          TIME CMD\n      1 ?        00:00:00 sh\n');
    case 'kill':
      return ok();
    case 'yes':
      return { status: 0, long: { k: 'forever', cpuMilli: 1000 } };
    case 'dd':
      // dd if=/dev/zero of=/dev/null: a copy loop that never ends burns a CPU.
      return args.some((a) => a === 'if=/dev/zero' || a === 'if=/dev/urandom') && !args.some((a) => a.startsWith('count=')) ? { status: 0, long: { k: 'forever', cpuMilli: 1000 } } : ok();
    case 'wget':
    case 'curl': {
      // What the shell does not fetch (net.ts parseNetCall: a fetch; dnsTools.ts: nslookup, dig, host, getent):
      // no URL, or one the playground cannot serve (https: there is no TLS here).
      const target = args.filter((a) => !a.startsWith('-')).pop() ?? '';
      const host = target.replace(/^https?:\/\//, '').split(/[/:]/)[0] ?? '';
      // curl with nothing to fetch: its usage hint and CURLE_FAILED_INIT (2).
      if (name === 'curl' && args.length === 0) return fail(CURL_HINT, 2);
      if (name === 'curl' && !target) return fail(`curl: (2) no URL specified\n${CURL_HINT}`, 2);
      if (name === 'curl') return fail(`curl: (6) Could not resolve host: ${host}\n`, 6);
      return fail(`wget: bad address '${host}'\n`, 1);
    }
  }
  const prog = programFor(raw, args, e);
  if (prog) return prog;
  return { status: 127, stderr: notFoundText(e, raw) };
}
