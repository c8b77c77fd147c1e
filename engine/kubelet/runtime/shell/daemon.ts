// What the programs of the image catalog share: the Daemon a long-running
// program becomes (its logs, ports, HTTP routes, usage, exit and signal
// behaviour, as plain data the interpreter keeps), and the bits of their
// languages' runtimes they have in common (glog headers, Go's flag parsing,
// Go's default SIGTERM disposition).
import type { CommandResult } from './commands';
import { dateText } from './commands';
import type { Signal } from './interp';
import type { CorednsConfig } from '../../../coredns/corefile';

/** An HTTP endpoint's answer, for `path` (or every path when absent) within [fromMs, untilMs) of the start. */
export interface Route {
  path?: string;
  status: number;
  fromMs?: number;
  untilMs?: number;
}

/**
 * How a server makes its answers' bodies: files under a document root (nginx,
 * httpd, python's http.server: the status too comes from the file system), or
 * a text per answer with the request's facts filled in ({{hostname}},
 * {{podIP}}, {{clientIP}}, {{method}}, {{path}}, {{host}}, {{userAgent}},
 * {{now}}).
 */
export type HttpServe =
  | { k: 'files'; root: string; index: string[]; server: 'nginx' | 'apache' | 'python'; version: string; listing?: boolean }
  /** `raw`: the body is the user's own text, served as it is. */
  | { k: 'text'; body: string; contentType: string; byPath?: Record<string, string>; raw?: boolean };

export interface Daemon {
  name: string;
  logs?: { afterMs: number; fd: 1 | 2; text: string }[];
  /** Ports it listens on, from `listenAfterMs` after it starts. */
  ports?: number[];
  listenAfterMs?: number;
  /** HTTP answers on its ports (first match wins); 404 otherwise. */
  routes?: Route[];
  /** What its answers carry (serve.ts); without it they are empty. */
  http?: HttpServe;
  cpuMilli?: number;
  /** Memory it allocates on top of the image's floor, and how fast. */
  memBytes?: number;
  memRate?: number;
  /** It exits by itself this long after starting. */
  exitAfterMs?: number;
  exitCode?: number;
  /** A DNS server's configuration (CoreDNS: what its Corefile turns on). */
  coredns?: CorednsConfig;
  /** What it does on a signal (absent: PID 1 ignores it). */
  onSignal?: Partial<Record<Signal, { afterMs: number; exitCode: number; logs?: { fd: 1 | 2; text: string }[] }>>;
}

/**
 * A date in a line a signal handler logs: `dateText(at, format)`, or for `at` null the instant the signal
 * arrives (a placeholder the interpreter fills in when it delivers the signal, see `atSignal`).
 */
export function when(at: number | null, format: string): string {
  return at === null ? `{{date:${format}}}` : dateText(at, format);
}

/** A signal handler's line with its dates filled in for the instant `at` the signal arrived. */
export function atSignal(text: string, at: number): string {
  return text.replace(/\{\{date:([^}]*)\}\}/g, (_m, format: string) => dateText(at, format));
}

/** glog's line header: `I0101 00:00:05.000000       1 main.go:26] `. */
export function glog(at: number, file: string, msg: string): string {
  const us = dateText(at, '%N').slice(0, 6);
  return `I${dateText(at, '%m%d %H:%M:%S')}.${us}       1 ${file}] ${msg}\n`;
}

/** What Go programs do on SIGTERM without a handler of their own: the runtime exits with status 2. */
export const GO_TERM = { TERM: { afterMs: 0, exitCode: 2 } } as const;

export const daemon = (d: Daemon): CommandResult => ({ status: 0, long: { k: 'daemon', daemon: d } });

/** Go's flag package: `-name value`, `-name=value`, `--name value`. */
export function goFlag(argv: readonly string[], name: string): string | undefined {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!.replace(/^--?/, '');
    if (a === name && i + 1 < argv.length) out = argv[++i];
    else if (a.startsWith(`${name}=`)) out = a.slice(name.length + 1);
  }
  return out;
}
