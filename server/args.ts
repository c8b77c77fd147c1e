// Command-line options of `npm run serve`.
import type { ServerOptions } from './server';

export type ArgsResult = { ok: true; value: ServerOptions } | { ok: false; error: string };

export function parseArgs(argv: readonly string[]): ArgsResult {
  const out: ServerOptions = { port: 0, seed: 1, etcdMembers: 3, speed: 1 };
  let sawPort = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    const take = (): string | null => (eq >= 0 ? a.slice(eq + 1) : (argv[++i] ?? null));
    const number = (what: string, check: (n: number) => boolean): number | string => {
      const v = take();
      const n = v === null || v.trim() === '' ? NaN : Number(v);
      return check(n) ? n : `${name}: ${what} (got ${v === null ? 'nothing' : JSON.stringify(v)})`;
    };
    let r: number | string;
    switch (name) {
      case '--port':
        r = number('a port number 0..65535', (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
        if (typeof r === 'number') {
          out.port = r;
          sawPort = true;
        }
        break;
      case '--seed':
        r = number('an integer', (n) => Number.isSafeInteger(n));
        if (typeof r === 'number') out.seed = r;
        break;
      case '--etcd-members':
        r = number('1, 3 or 5', (n) => n === 1 || n === 3 || n === 5);
        if (typeof r === 'number') out.etcdMembers = r;
        break;
      case '--kubeconfig': {
        const v = take();
        if (!v) return { ok: false, error: '--kubeconfig: a file path' };
        out.kubeconfig = v;
        r = 0;
        break;
      }
      case '--tls-port':
        r = number('a port number 0..65535', (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
        if (typeof r === 'number') out.tlsPort = r;
        break;
      case '--max-requests-inflight':
        r = number('a positive integer', (n) => Number.isInteger(n) && n >= 1);
        if (typeof r === 'number') out.maxRequestsInflight = r;
        break;
      case '--max-mutating-requests-inflight':
        r = number('a positive integer', (n) => Number.isInteger(n) && n >= 1);
        if (typeof r === 'number') out.maxMutatingRequestsInflight = r;
        break;
      case '--nodes':
        r = number('an integer 0..5000', (n) => Number.isInteger(n) && n >= 0 && n <= 5000);
        if (typeof r === 'number') out.nodes = r;
        break;
      case '--no-control-plane':
        out.controlPlane = false;
        r = 0;
        break;
      case '--epoch': {
        // Unix milliseconds or an RFC 3339 instant: the wall time virtual 0 stands for (a recorded run's).
        const v = take();
        const n = v === null ? NaN : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
        if (!Number.isSafeInteger(n)) return { ok: false, error: `--epoch: Unix milliseconds or an RFC 3339 time (got ${v === null ? 'nothing' : JSON.stringify(v)})` };
        out.epochMs = n;
        r = 0;
        break;
      }
      case '--speed':
        r = number('a number between 0 and 10000', (n) => n >= 0 && n <= 10_000);
        if (typeof r === 'number') out.speed = r;
        break;
      default:
        return { ok: false, error: `unknown option ${JSON.stringify(a)}` };
    }
    if (typeof r === 'string') return { ok: false, error: r };
  }
  if (!sawPort) return { ok: false, error: '--port is required (0 picks a free port)' };
  // The Kubernetes API needs TLS for kubectl to send its token: on by default with the control plane.
  if (out.controlPlane !== false && out.tlsPort === undefined) out.tlsPort = 0;
  return { ok: true, value: out };
}
