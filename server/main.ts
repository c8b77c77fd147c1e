// npm run serve -- --port P [--seed N] [--etcd-members 3] [--speed S] [--nodes N]
import { parseArgs } from './args';
import { startServer } from './server';
import { writeKubeconfig } from './kube/kubeconfig';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (!args.ok) {
    console.error(args.error);
    console.error('usage: npm run serve -- --port P [--seed N] [--etcd-members 1|3|5] [--speed S] [--kubeconfig PATH] [--tls-port P] [--max-requests-inflight N] [--max-mutating-requests-inflight N] [--nodes N] [--epoch UNIX_MS|RFC3339] [--no-control-plane]');
    process.exit(2);
  }
  const s = await startServer(args.value);
  console.log(`serving on http://127.0.0.1:${s.port}`);
  if (s.tls) {
    console.log(`Kubernetes API (TLS) on ${s.tls.url}`);
    const path = writeKubeconfig(args.value.kubeconfig ?? 'kubeconfig.kubeglass', s.tls.url, undefined, s.tls.caPem);
    console.log(`kubeconfig written to ${path} (KUBECONFIG=${path} kubectl get ns)`);
  }
  // Virtual time 0 is this start; `--seed S --epoch MS` replays the run with the same timestamps.
  console.log(`seed ${args.value.seed}, epoch ${new Date(s.host.engine.sim.epochMs).toISOString()} (--epoch ${s.host.engine.sim.epochMs})`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 3000);
    force.unref();
    s.close().then(() => process.exit(0));
  };
  // Last resort: a bug must not take the server down with it.
  process.on('uncaughtException', (e) => console.error('uncaught exception (server keeps running):', e));
  process.on('unhandledRejection', (e) => console.error('unhandled rejection (server keeps running):', e));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
