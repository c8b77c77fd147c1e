// CoreDNS's binary (coremain): it reads the Corefile named by -conf (an
// unknown directive or a bad option stops it, exit 1), prints
// the server blocks it serves and its version, and listens on the ports its
// plugins open (53 for DNS, health's 8080, ready's 8181, prometheus' 9153).
// What it answers is the runtime's (engine/coredns/serve.ts), from the caches
// of the container's process actor (engine/coredns/server.ts). On SIGTERM the
// health plugin's lameduck keeps it serving 5 s before it exits.
import type { CommandEnv, CommandResult } from './commands';
import { daemon, goFlag } from './daemon';
import { normalise } from './fs';
import { COREDNS_PORTS } from '../../../coredns/serve';
import { parseCorefile } from '../../../coredns/corefile';

const LAMEDUCK_MS = 5000;

export function corednsProgram(args: string[], e: CommandEnv): CommandResult {
  const conf = goFlag(args, 'conf') ?? 'Corefile';
  const corefile = e.fs.read(normalise(conf, e.cwd), e.at);
  if (corefile === null) return { status: 1, stderr: `[FATAL] open ${conf}: no such file or directory\n` };
  const cfg = parseCorefile(corefile, conf);
  // caddy's loader refuses the file: coremain logs it and exits 1.
  if ('error' in cfg) return { status: 1, stderr: `${cfg.error}\n` };
  // The server blocks' keys (".:53"), as coremain prints them before its version.
  const banner = `${(cfg.keys.length ? cfg.keys : ['.:53']).join('\n')}\nCoreDNS-1.11.3\nlinux/amd64, go1.21.11, a6338e9\n`;
  return daemon({
    name: 'coredns',
    coredns: cfg,
    logs: [{ afterMs: 0, fd: 1, text: banner }],
    ports: [COREDNS_PORTS.dns, COREDNS_PORTS.health, COREDNS_PORTS.ready, COREDNS_PORTS.metrics],
    onSignal: {
      TERM: { afterMs: LAMEDUCK_MS, exitCode: 0, logs: [{ fd: 1, text: '[INFO] SIGTERM: Shutting down servers then terminating\n[INFO] plugin/health: Going into lameduck mode for 5s\n' }] },
      INT: { afterMs: LAMEDUCK_MS, exitCode: 0, logs: [{ fd: 1, text: '[INFO] SIGINT: Shutting down servers then terminating\n[INFO] plugin/health: Going into lameduck mode for 5s\n' }] },
    },
  });
}
