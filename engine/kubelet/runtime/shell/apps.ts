// The language runtimes and small web apps the Kubernetes tutorials run:
// python and node (their default CMD is an interactive REPL, which without a
// terminal reads an empty stdin and exits 0 at once, as busybox's sh does;
// `python -m http.server` serves a directory), gcr.io/google-samples/hello-app,
// registry.k8s.io/echoserver, hashicorp/http-echo and traefik/whoami. A
// python or node script is not interpreted: it runs idle until stopped.
import type { CommandEnv, CommandResult } from './commands';
import { daemon, goFlag, GO_TERM, when } from './daemon';
import { normalise } from './fs';
import { corednsProgram } from './coredns';

/** Go's log package header: `2025/01/01 00:00:05 `. */
const goLog = (at: number | null, msg: string) => `${when(at, '%Y/%m/%d %H:%M:%S')} ${msg}\n`;

/** A script or program that runs but is not interpreted: idle until signalled (PID 1's default: it ignores SIGTERM). */
const idleScript = (name: string): CommandResult => daemon({ name });

// ---- python (docker-library/python: CMD ["python3"], no STOPSIGNAL) ---------------------------------

/** python [options] [-m module | -c code | script | -] [args]: where the options end. */
function pythonArgs(args: string[]): { opts: string[]; rest: string[] } {
  let i = 0;
  while (i < args.length && /^-[^-mc]/.test(args[i]!) && args[i] !== '-') i++;
  return { opts: args.slice(0, i), rest: args.slice(i) };
}

/** `python -m http.server [port] [-b ADDR] [-d DIR]` (Lib/http/server.py's test()). */
function httpServer(args: string[], e: CommandEnv, unbuffered: boolean): CommandResult {
  let port = 8000;
  let bind = '';
  let dir = e.cwd;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-b' || a === '--bind') bind = args[++i] ?? '';
    else if (a === '-d' || a === '--directory') dir = normalise(args[++i] ?? '.', e.cwd);
    else if (/^\d+$/.test(a)) port = Number(a);
  }
  // Without a bind address it binds the dual-stack wildcard.
  const host = bind || '::';
  const url = host.includes(':') ? `[${host}]` : host;
  const files = e.fs.children(dir, e.at).map((n) => ({ path: `/${n}`, status: 200 }));
  return daemon({
    name: 'python3',
    // Its banner goes to stdout, which python block-buffers without a terminal: `kubectl logs` shows it only
    // with PYTHONUNBUFFERED=1 or -u. (Its request log goes to stderr, unbuffered.)
    logs: unbuffered ? [{ afterMs: 40, fd: 1, text: `Serving HTTP on ${host} port ${port} (http://${url}:${port}/) ...\n` }] : [],
    ports: [port],
    listenAfterMs: 40,
    routes: [{ path: '/', status: 200 }, ...files],
    http: { k: 'files', root: dir, index: ['index.html', 'index.htm'], server: 'python', version: e.env['PYTHON_VERSION'] ?? '3.13.1', listing: true },
    onSignal: { INT: { afterMs: 0, exitCode: 0, logs: [{ fd: 1, text: '\nKeyboard interrupt received, exiting.\n' }] } },
  });
}

function python(raw: string, args: string[], e: CommandEnv): CommandResult {
  const version = e.env['PYTHON_VERSION'] ?? '3.13.1';
  const { opts, rest } = pythonArgs(args);
  if (args[0] === '--version' || opts.some((o) => o === '-V' || o === '--version')) return { status: 0, stdout: `Python ${version}\n` };
  const unbuffered = !!e.env['PYTHONUNBUFFERED'] || opts.some((o) => /^-[a-zA-Z]*u/.test(o));
  // No script: the REPL, which without a terminal reads stdin (empty) and exits 0.
  if (rest.length === 0 || rest[0] === '-') return { status: 0 };
  if (rest[0] === '-m') {
    const mod = rest[1] ?? '';
    if (mod === 'http.server') return httpServer(rest.slice(2), e, unbuffered);
    return { status: 1, stderr: `${raw}: No module named ${mod}\n` };
  }
  if (rest[0] === '-c') return idleScript('python3');
  const path = normalise(rest[0]!, e.cwd);
  if (!e.fs.isFile(path, e.at)) return { status: 2, stderr: `${raw}: can't open file '${path}': [Errno 2] No such file or directory\n` };
  return idleScript('python3');
}

// ---- node (nodejs/docker-node: ENTRYPOINT ["docker-entrypoint.sh"], CMD ["node"]) -------------------

function nodeMissing(path: string, version: string): string {
  return `node:internal/modules/cjs/loader:1252
  throw err;
  ^

Error: Cannot find module '${path}'
    at Function._resolveFilename (node:internal/modules/cjs/loader:1249:15)
    at Function._load (node:internal/modules/cjs/loader:1075:27)
    at TracingChannel.traceSync (node:diagnostics_channel:322:14)
    at wrapModuleLoad (node:internal/modules/cjs/loader:219:24)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:170:5)
    at node:internal/main/run_main_module:36:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v${version}
`;
}

function node(args: string[], e: CommandEnv): CommandResult {
  const version = e.env['NODE_VERSION'] ?? '22.12.0';
  if (args[0] === '-v' || args[0] === '--version') return { status: 0, stdout: `v${version}\n` };
  // The REPL without a terminal: reads stdin (empty), exits 0.
  if (args.length === 0 || args[0] === '-') return { status: 0 };
  if (['-e', '--eval', '-p', '--print'].includes(args[0]!)) return idleScript('node');
  const script = args.find((a) => !a.startsWith('-'));
  if (!script) return { status: 0 };
  const path = normalise(script, e.cwd);
  if (!e.fs.isFile(path, e.at) && !e.fs.isFile(`${path}.js`, e.at)) return { status: 1, stderr: nodeMissing(path, version) };
  return idleScript('node');
}

// ---- Go web apps ------------------------------------------------------------------------------------

/** gcr.io/google-samples/hello-app (kubernetes-engine-samples quickstarts/hello-app): $PORT, default 8080. */
function helloApp(e: CommandEnv): CommandResult {
  const port = Number(e.env['PORT'] || '8080');
  return daemon({ name: 'hello-app', logs: [{ afterMs: 0, fd: 2, text: goLog(e.at, `Server listening on port ${port}`) }], ports: [port], routes: [{ status: 200 }], http: { k: 'text', body: 'Hello, world!\nVersion: 1.0.0\nHostname: {{hostname}}\n', contentType: 'text/plain; charset=utf-8' }, onSignal: GO_TERM });
}

/** hashicorp/http-echo 1.0: -text (or $ECHO_TEXT), -listen (default :5678); it handles SIGINT only. */
function httpEcho(args: string[], e: CommandEnv): CommandResult {
  const text = goFlag(args, 'text') || e.env['ECHO_TEXT'];
  if (!text) return { status: 127, stderr: 'Missing -text option OR ENV var TEXT is empty!\n' };
  const listen = goFlag(args, 'listen') ?? ':5678';
  const port = Number(listen.slice(listen.lastIndexOf(':') + 1)) || 5678;
  return daemon({
    name: 'http-echo',
    logs: [{ afterMs: 0, fd: 2, text: goLog(e.at, `[INFO] server is listening on ${listen}`) }],
    ports: [port],
    routes: [{ status: 200 }],
    http: { k: 'text', body: `${text}\n`, contentType: 'text/plain; charset=utf-8', raw: true },
    // On SIGINT it shuts the server down and exits 2 on purpose ("it was an interrupt"); SIGTERM is Go's default.
    onSignal: { ...GO_TERM, INT: { afterMs: 0, exitCode: 2, logs: [{ fd: 2, text: goLog(null, '[INFO] received interrupt, shutting down...') }] } },
  });
}

/** traefik/whoami: -port (or $WHOAMI_PORT_NUMBER, default 80); every path answers. */
function whoami(args: string[], e: CommandEnv): CommandResult {
  const port = Number(goFlag(args, 'port') ?? (e.env['WHOAMI_PORT_NUMBER'] || '80')) || 80;
  return daemon({ name: 'whoami', logs: [{ afterMs: 0, fd: 2, text: goLog(e.at, `Starting up on port ${port}`) }], ports: [port], routes: [{ status: 200 }], http: { k: 'text', body: WHOAMI, contentType: 'text/plain; charset=utf-8' }, onSignal: GO_TERM });
}

/** whoami's answer: the host's name and addresses, then the request as it came. */
const WHOAMI = 'Hostname: {{hostname}}\nIP: 127.0.0.1\nIP: ::1\nIP: {{podIP}}\nRemoteAddr: {{clientIP}}:40000\n{{method}} {{path}} HTTP/1.1\nHost: {{host}}\nUser-Agent: {{userAgent}}\nAccept: */*\n\n';

/** echoserver's page: the pod, the server and the request it got. */
const ECHOSERVER =
  '\n\nHostname: {{hostname}}\n\nPod Information:\n\t-no pod information available-\n\nServer values:\n\tserver_version=nginx: 1.13.3 - lua: 10008\n\n' +
  'Request Information:\n\tclient_address={{clientIP}}\n\tmethod={{method}}\n\treal path={{path}}\n\tquery=\n\trequest_version=1.1\n\trequest_scheme=http\n\trequest_uri=http://{{host}}:8080{{path}}\n\n' +
  'Request Headers:\n\taccept=*/*\n\thost={{host}}\n\tuser-agent={{userAgent}}\n\nRequest Body:\n\t-no body in request-\n\n';

/**
 * registry.k8s.io/echoserver's run.sh: a self-signed certificate, then nginx (openresty) on 8080 and 8443.
 * run.sh does not exec nginx, so the shell is PID 1 and SIGTERM goes unanswered until the grace period ends.
 */
function echoserver(): CommandResult {
  return daemon({
    name: 'run.sh',
    logs: [
      { afterMs: 0, fd: 1, text: 'Generating self-signed cert\n' },
      { afterMs: 10, fd: 2, text: 'Generating a 2048 bit RSA private key\n..............+++\n.....+++\n' },
      { afterMs: 200, fd: 2, text: "writing new private key to '/certs/privateKey.key'\n-----\n" },
      { afterMs: 210, fd: 1, text: 'Starting nginx\n' },
    ],
    ports: [8080, 8443],
    listenAfterMs: 230,
    routes: [{ status: 200 }],
    http: { k: 'text', body: ECHOSERVER, contentType: 'text/plain' },
  });
}

/** The program of a language or web-app image for `raw` (a name or path), or undefined. */
export function appProgram(raw: string, args: string[], e: CommandEnv): CommandResult | undefined {
  const name = raw.slice(raw.lastIndexOf('/') + 1);
  if (/^python(3(\.\d+)?)?$/.test(name)) return python(raw, args, e);
  switch (name) {
    case 'node':
      return node(args, e);
    case 'hello-app':
      return helloApp(e);
    case 'http-echo':
      return httpEcho(args, e);
    case 'whoami':
      return raw === '/whoami' ? whoami(args, e) : undefined;
    case 'run.sh':
      return echoserver();
    case 'coredns':
      return raw === '/coredns' ? corednsProgram(args, e) : undefined;
  }
  return undefined;
}
