// The long-running programs images ship, as the fake runtime runs them: what
// they log at start (with the offsets they log at), which ports they serve
// and what their HTTP endpoints answer over time, the CPU and memory they
// use, when they exit by themselves, and what they do on a signal. Anything
// here is plain data (the interpreter keeps it in process state).
import type { CommandEnv, CommandResult } from './commands';
import { dateText, runCommand, sleepMs } from './commands';
import { daemon, glog, goFlag, GO_TERM, when } from './daemon';
import { databaseProgram } from './databases';
import { appProgram } from './apps';
import { parseQuantity } from '../../../apiserver/validation/quantity';

export type { Daemon, Route } from './daemon';

const MI = 1024 * 1024;

/** The ports the server blocks of conf.d/default.conf listen on (80 without one; nginx-unprivileged's says 8080). */
function nginxPorts(e: CommandEnv): number[] {
  const conf = e.fs.read('/etc/nginx/conf.d/default.conf', e.at) ?? '';
  const ports = [...conf.matchAll(/^\s*listen\s+(?:[\d.]+:)?(\d+)/gm)].map((m) => Number(m[1]));
  return ports.length ? [...new Set(ports)] : [80];
}

function nginx(args: string[], e: CommandEnv, viaEntrypoint: boolean): CommandResult {
  // The official images say their version in ENV NGINX_VERSION (each tag its own).
  const version = e.env['NGINX_VERSION'] ?? '1.27.3';
  if (args.includes('-v')) return { status: 0, stderr: `nginx version: nginx/${version}\n` };
  if (args.includes('-t')) return { status: 0, stderr: 'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful\n' };
  const ts = (ms: number) => `${dateText(e.at + ms, '%Y/%m/%d %H:%M:%S')}`;
  const entry = viaEntrypoint
    ? [
        '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
        '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
        '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
        '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
        '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
        '/docker-entrypoint.sh: Configuration complete; ready for start up',
      ].map((text) => ({ afterMs: 0, fd: 1 as const, text: `${text}\n` }))
    : [];
  const notice = (ms: number, msg: string) => ({ afterMs: ms, fd: 2 as const, text: `${ts(ms)} [notice] 1#1: ${msg}\n` });
  return daemon({
    name: 'nginx',
    logs: [
      ...entry,
      notice(20, 'using the "epoll" event method'),
      notice(20, `nginx/${version}`),
      notice(20, 'built by gcc 12.2.0 (Debian 12.2.0-14) '),
      notice(20, 'OS: Linux 6.8.0-1021-aws'),
      notice(20, 'getrlimit(RLIMIT_NOFILE): 1048576:1048576'),
      notice(20, 'start worker processes'),
      ...[29, 30, 31, 32].map((pid) => notice(20, `start worker process ${pid}`)),
    ],
    ports: nginxPorts(e),
    listenAfterMs: 20,
    // conf.d/default.conf: root /usr/share/nginx/html, index index.html index.htm (the status comes from the files).
    http: { k: 'files', root: '/usr/share/nginx/html', index: ['index.html', 'index.htm'], server: 'nginx', version },
    onSignal: {
      QUIT: { afterMs: 50, exitCode: 0, logs: [{ fd: 2, text: `${when(null, '%Y/%m/%d %H:%M:%S')} [notice] 1#1: signal 3 (SIGQUIT) received, shutting down\n` }] },
      TERM: { afterMs: 10, exitCode: 0, logs: [{ fd: 2, text: `${when(null, '%Y/%m/%d %H:%M:%S')} [notice] 1#1: signal 15 (SIGTERM) received, exiting\n` }] },
    },
  });
}

function apache(e: CommandEnv, version: string, mpm: string, server: 'httpd' | 'apache2'): CommandResult {
  const fqdn = `AH00558: ${server}: Could not reliably determine the server's fully qualified domain name, using ${e.podIP || '127.0.0.1'}. Set the 'ServerName' directive globally to suppress this message\n`;
  const stamp = (ms: number | null) => `[${when(ms === null ? null : e.at + ms, '%a %b %d %H:%M:%S.%6N %Y')}]`;
  const graceful = {
    afterMs: 100,
    exitCode: 0,
    logs: [{ fd: 2 as const, text: `${stamp(null)} [mpm_${mpm}:notice] [pid 1${mpm === 'event' ? ':tid 1' : ''}] AH00492: caught SIGWINCH, shutting down gracefully\n` }],
  };
  return daemon({
    name: server,
    logs: [
      { afterMs: 0, fd: 2, text: fqdn },
      { afterMs: 5, fd: 2, text: fqdn },
      {
        afterMs: 10,
        fd: 2,
        text: `${stamp(10)} [mpm_${mpm}:notice] [pid 1${mpm === 'event' ? ':tid 1' : ''}] AH00${mpm === 'event' ? '489' : '163'}: ${version} configured -- resuming normal operations\n`,
      },
      {
        afterMs: 10,
        fd: 2,
        text: `${stamp(10)} [core:notice] [pid 1${mpm === 'event' ? ':tid 1' : ''}] AH00094: Command line: '${server === 'httpd' ? 'httpd -D FOREGROUND' : 'apache2 -D FOREGROUND'}'\n`,
      },
    ],
    ports: [80],
    listenAfterMs: 10,
    routes: [{ status: 200 }],
    // httpd serves htdocs; php-apache (hpa-example) runs its index.php, which prints OK!.
    http: server === 'httpd' ? { k: 'files', root: '/usr/local/apache2/htdocs', index: ['index.html'], server: 'apache', version: '2.4.62' } : { k: 'text', body: 'OK!', contentType: 'text/html; charset=UTF-8' },
    onSignal: { WINCH: graceful, TERM: { afterMs: 10, exitCode: 0 } },
  });
}

function bytesOf(v: string | undefined): number {
  if (!v) return 0;
  const q = parseQuantity(v);
  return q.ok && q.quantity.nanos > 0n ? Number(q.quantity.nanos / 1_000_000_000n) : 0;
}

/** time.ParseDuration for the forms people write (`1ms`, `10s`, `1.5s`, `2m`), in ms. */
function goDurationMs(v: string): number {
  if (v === '0') return 0;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = v;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (!m) return NaN;
    total += Number(m[1]) * units[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return total;
}

/** vish/stress (Go): -cpus N threads copying /dev/zero; -mem-total grows by -mem-alloc-size every -mem-alloc-sleep. */
function vishStress(args: string[], e: CommandEnv): CommandResult {
  const cpus = Number(goFlag(args, 'cpus') ?? '0');
  const totalText = goFlag(args, 'mem-total') ?? '0';
  const stepText = goFlag(args, 'mem-alloc-size') ?? '4Ki';
  const sleepText = goFlag(args, 'mem-alloc-sleep') ?? '1ms';
  const total = bytesOf(totalText);
  const step = bytesOf(stepText);
  const sleep = goDurationMs(sleepText);
  const rate = step > 0 ? (step * 1000) / Math.max(sleep, 0.001) : 0;
  const alloc = step > 0 ? Math.floor(total / step) * step : 0;
  const quoted = (s: string) => `"${s}"`;
  const logs = [{ afterMs: 0, fd: 2 as const, text: glog(e.at, 'main.go:26', `Allocating ${quoted(totalText)} memory, in ${quoted(stepText)} chunks, with a ${sleepText} sleep between allocations`) }];
  for (let i = 0; i < (Number.isInteger(cpus) ? cpus : 0); i++) logs.push({ afterMs: 0, fd: 2, text: glog(e.at, 'main.go:39', 'Spawning a thread to consume CPU') });
  const doneMs = rate > 0 ? Math.ceil((alloc * 1000) / rate) : 0;
  logs.push({ afterMs: doneMs, fd: 2, text: glog(e.at + doneMs, 'main.go:29', `Allocated ${quoted(totalText)} memory`) });
  return daemon({ name: 'stress', logs, cpuMilli: Number.isInteger(cpus) && cpus > 0 ? cpus * 1000 : 0, memBytes: alloc, memRate: rate, onSignal: GO_TERM });
}

/** stress's atoll_b: a number with an optional b/k/m/g suffix in powers of 1024. */
function stressBytes(v: string | undefined): number {
  const m = /^(\d+)([bBkKmMgG]?)$/.exec(v ?? '');
  if (!m) return 0;
  return Number(m[1]) * { '': 1, b: 1, k: 1024, m: MI, g: 1024 * MI }[m[2]!.toLowerCase()]!;
}

/** stress's atoll_s: seconds with an optional s/m/h/d/y suffix. */
function stressSeconds(v: string): number {
  const m = /^(\d+)([smhdy]?)$/.exec(v);
  if (!m) return 0;
  return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400, y: 31_536_000 }[m[2]!]!;
}

/** How fast stress's vm workers fault their pages in (bytes/s per worker). */
const STRESS_TOUCH_BYTES_PER_SEC = 1024 * MI;

/** stress (polinux/stress, progrium/stress): --cpu/--vm/--io/--hdd workers, --vm-bytes, --vm-hang, --vm-keep, --timeout. */
function stress(args: string[]): CommandResult {
  const opt = (long: string, short?: string): string | undefined => {
    let out: string | undefined;
    for (let i = 0; i < args.length; i++) if ((args[i] === `--${long}` || (short && args[i] === `-${short}`)) && i + 1 < args.length) out = args[++i];
    return out;
  };
  const cpu = Number(opt('cpu', 'c') ?? '0') || 0;
  const io = Number(opt('io', 'i') ?? '0') || 0;
  const vm = Number(opt('vm', 'm') ?? '0') || 0;
  const hdd = Number(opt('hdd', 'd') ?? '0') || 0;
  if (cpu + io + vm + hdd === 0) return { status: 0, stdout: "`stress' imposes certain types of compute stress on your system\n\nUsage: stress [OPTION [ARG]] ...\n" };
  const vmBytes = stressBytes(opt('vm-bytes') ?? '256M');
  const hangText = opt('vm-hang');
  const keep = args.includes('--vm-keep');
  // A vm worker touching its memory runs flat out; with --vm-hang N it sleeps N s between rounds (0 = forever).
  const touchSec = vmBytes / STRESS_TOUCH_BYTES_PER_SEC;
  let vmCpu = 1000;
  if (hangText !== undefined && !keep) {
    const hang = Number(hangText);
    vmCpu = hang === 0 ? 0 : (1000 * touchSec) / (hang + touchSec);
  }
  const timeout = opt('timeout', 't');
  const secs = timeout ? stressSeconds(timeout) : 0;
  const logs = [{ afterMs: 0, fd: 1 as const, text: `stress: info: [1] dispatching hogs: ${cpu} cpu, ${io} io, ${vm} vm, ${hdd} hdd\n` }];
  if (secs > 0) logs.push({ afterMs: secs * 1000, fd: 1, text: `stress: info: [1] successful run completed in ${secs}s\n` });
  return daemon({
    name: 'stress',
    logs,
    cpuMilli: cpu * 1000 + vm * vmCpu + io * 50 + hdd * 300,
    memBytes: vm * vmBytes,
    memRate: vm * STRESS_TOUCH_BYTES_PER_SEC,
    ...(secs > 0 ? { exitAfterMs: secs * 1000, exitCode: 0 } : {}),
  });
}

function agnhost(args: string[], e: CommandEnv): CommandResult {
  const sub = args[0];
  const port = (name: string, def: number) => Number(goFlag(args, name) ?? def);
  switch (sub) {
    case 'netexec': {
      const http = port('http-port', 8080);
      const udp = port('udp-port', 8081);
      return daemon({
        name: 'agnhost',
        logs: [
          { afterMs: 0, fd: 2, text: glog(e.at, 'log.go:245', `Started HTTP server on port ${http}`) },
          { afterMs: 0, fd: 2, text: glog(e.at, 'log.go:245', `Started UDP server on port  ${udp}`) },
        ],
        ports: [http, udp],
        routes: [{ status: 200 }],
        // netexec's handlers: / the time, /hostname, /clientip (host:port of the caller), /echo?msg=.
        http: { k: 'text', body: 'NOW: {{now}}', contentType: 'text/plain; charset=utf-8', byPath: { '/hostname': '{{hostname}}', '/clientip': '{{clientIP}}:40000', '/healthz': '' } },
        onSignal: { TERM: { afterMs: 0, exitCode: 0 } },
      });
    }
    case 'liveness':
      // /healthz answers 200 for the first 10 s, then 500 (the docs' HTTP liveness example).
      return daemon({
        name: 'agnhost',
        ports: [8080],
        routes: [
          { path: '/healthz', status: 200, untilMs: 10_000 },
          { path: '/healthz', status: 500, fromMs: 10_000 },
        ],
        onSignal: GO_TERM,
      });
    case 'serve-hostname':
      return daemon({ name: 'agnhost', ports: [port('port', 9376)], routes: [{ status: 200 }], http: { k: 'text', body: '{{hostname}}', contentType: 'text/plain; charset=utf-8' }, onSignal: GO_TERM });
    case 'pause':
      return daemon({
        name: 'agnhost',
        logs: [{ afterMs: 0, fd: 1, text: 'Paused\n' }],
        onSignal: { TERM: { afterMs: 0, exitCode: 0, logs: [{ fd: 1, text: 'Shutting down after receiving signal: terminated.\n' }] } },
      });
    case 'test-webserver':
      return daemon({ name: 'agnhost', ports: [port('port', 80)], routes: [{ status: 200 }], onSignal: GO_TERM });
    default:
      return { status: 0, stdout: 'Usage:\n  agnhost [flags]\n  agnhost [command]\n' };
  }
}

/** The program an image runs for `raw` (a name or path), or undefined. */
export function programFor(raw: string, args: string[], e: CommandEnv): CommandResult | undefined {
  const name = raw.slice(raw.lastIndexOf('/') + 1);
  switch (name) {
    case 'docker-entrypoint.sh':
      return officialEntrypoint(args, e);
    case 'entrypoint.sh':
      // curlimages/curl's /entrypoint.sh: an option or anything not a command is curl's argument.
      return runCommand(args.length === 0 || args[0]!.startsWith('-') || !e.hasCommand(args[0]!) ? ['curl', ...args] : args, e);
    case 'nginx':
      return nginx(args, e, false);
    case 'httpd-foreground':
      return apache(e, 'Apache/2.4.62 (Unix)', 'event', 'httpd');
    case 'apache2-foreground':
      return apache(e, 'Apache/2.4.10 (Debian) PHP/5.6.14', 'prefork', 'apache2');
    case 'redis-server':
      return daemon({
        name: 'redis',
        logs: [
          { afterMs: 0, fd: 1, text: `1:C ${dateText(e.at, '%d %b %Y %H:%M:%S')}.000 # WARNING Memory overcommit must be enabled!\n` },
          { afterMs: 0, fd: 1, text: `1:C ${dateText(e.at, '%d %b %Y %H:%M:%S')}.000 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n` },
          { afterMs: 2, fd: 1, text: `1:M ${dateText(e.at, '%d %b %Y %H:%M:%S')}.002 * Ready to accept connections tcp\n` },
        ],
        ports: [6379],
        listenAfterMs: 2,
        onSignal: { TERM: { afterMs: 20, exitCode: 0, logs: [{ fd: 1, text: `1:signal-handler (${Math.floor(e.at / 1000)}) Received SIGTERM scheduling shutdown...\n` }] } },
      });
    case 'pause':
      return daemon({ name: 'pause', onSignal: { TERM: { afterMs: 0, exitCode: 0 }, INT: { afterMs: 0, exitCode: 0 } } });
    case 'agnhost':
      return agnhost(args, e);
    case 'stress':
      // vish/stress is a Go binary at /stress; stress(1) is the C program.
      return raw === '/stress' || args.includes('-logtostderr') ? vishStress(args, e) : stress(args);
    case 'goproxy':
      return daemon({ name: 'goproxy', ports: [8080], routes: [{ status: 200 }], onSignal: GO_TERM });
    case 'kubeglass-server': {
      // The playground's own images: `kubeglass-server [--start-delay S] [--crash-after S] [--exit-code N] [--ignore-sigterm]`.
      const delay = sleepMs([goFlag(args, 'start-delay') ?? '0']) ?? 0;
      const crash = goFlag(args, 'crash-after');
      const ignore = args.includes('--ignore-sigterm');
      const code = Number(goFlag(args, 'exit-code') ?? '1');
      const crashMs = crash !== undefined ? (sleepMs([crash]) ?? 0) : undefined;
      return daemon({
        name: 'kubeglass-server',
        logs: [
          { afterMs: 0, fd: 1, text: `starting (listening on :8080 in ${delay / 1000}s)\n` },
          { afterMs: delay, fd: 1, text: 'listening on :8080\n' },
          ...(crashMs !== undefined ? [{ afterMs: crashMs, fd: 2 as const, text: `fatal: crashing after ${crashMs / 1000}s\n` }] : []),
        ],
        ports: [8080],
        listenAfterMs: delay,
        routes: [{ status: 200 }],
        ...(crashMs !== undefined ? { exitAfterMs: crashMs, exitCode: code } : {}),
        ...(ignore ? {} : { onSignal: { TERM: { afterMs: 0, exitCode: 0, logs: [{ fd: 1, text: 'received SIGTERM, exiting\n' }] } } }),
      });
    }
  }
  return databaseProgram(name, args, e, false) ?? appProgram(raw, args, e);
}

/** The programs whose official entrypoint prepends them to arguments that begin with an option (`set -- postgres "$@"`). */
const ENTRYPOINT_MAINS = ['postgres', 'mysqld', 'mariadbd', 'mongod', 'memcached', 'redis-server'];

/**
 * The official images' docker-entrypoint.sh: arguments that begin with an option go to the image's server
 * (node's also takes anything that is not a command as node's script); the server's first-start setup
 * runs (a database's initialisation), then it execs its arguments.
 */
function officialEntrypoint(args: string[], e: CommandEnv): CommandResult | undefined {
  const main = ENTRYPOINT_MAINS.find((p) => e.hasCommand(p));
  let argv = args;
  if (main && (args.length === 0 || args[0]!.startsWith('-'))) argv = [main, ...args];
  else if (e.hasCommand('node') && (args.length === 0 || args[0]!.startsWith('-') || !e.hasCommand(args[0]!))) argv = ['node', ...args];
  const [first, ...rest] = argv;
  if (!first) return undefined;
  if (first === 'nginx') return nginx(rest, e, true);
  return databaseProgram(first, rest, e, true) ?? programFor(first, rest, e);
}
