// POST /playground/v1/kubectl {"args": ["get", "pods", "-o", "wide"], "files"?: {...}}
// → {stdout, stderr, exitCode}: the in-page kubectl, run against this server's
// cluster as kubernetes-admin (through kubectl-0 inside the simulation).
import { runKubectl, type KubectlTransport } from '../../engine/kubectl';
import type { ApiRequest, ApiResponse } from '../../engine/apiserver/types';
import { CLIENT_CERT_HEADER } from '../../engine/apiserver/auth/authn';
import { ADMIN_CERT_SUBJECT } from '../../engine/host/apiBridge';
import type { EngineHost } from '../host';
import type { ApiCalls } from './apiCalls';
import type { ControlAnswer } from '../control';

const MAX_ARGS = 200;

function transport(calls: ApiCalls): KubectlTransport {
  const withCert = (req: ApiRequest): ApiRequest => (req.headers['authorization'] || req.headers[CLIENT_CERT_HEADER] ? req : { ...req, headers: { ...req.headers, [CLIENT_CERT_HEADER]: ADMIN_CERT_SUBJECT } });
  return {
    async request(req: ApiRequest): Promise<ApiResponse> {
      const out = await calls.request(withCert(req));
      if (!out.ok) throw new Error(`Unable to connect to the server: ${out.error}`);
      if (out.streaming) throw new Error('unexpected streaming answer');
      return out.response;
    },
    watch(req: ApiRequest, onLine: (line: string) => void) {
      let stop: (() => void) | null = null;
      let cancelled = false;
      const done = (async () => {
        const out = await calls.request(withCert(req));
        if (!out.ok) return null;
        if (!out.streaming) return out.response;
        if (cancelled) return null;
        return new Promise<ApiResponse | null>((resolve) => {
          stop = calls.follow(out.id, onLine, () => resolve(null));
        });
      })();
      return {
        cancel: () => {
          cancelled = true;
          stop?.();
        },
        done,
      };
    },
  };
}

export async function kubectlEndpoint(host: EngineHost, calls: ApiCalls, body: unknown): Promise<ControlAnswer> {
  const b = body as { args?: unknown; files?: unknown; namespace?: unknown };
  if (!b || !Array.isArray(b.args) || !b.args.every((a) => typeof a === 'string')) return { status: 400, body: { error: 'body must be {"args": ["get", "pods", ...]} (strings)' } };
  if (b.args.length > MAX_ARGS) return { status: 400, body: { error: `at most ${MAX_ARGS} arguments` } };
  const files: Record<string, string> = {};
  if (b.files !== undefined) {
    if (typeof b.files !== 'object' || b.files === null || !Object.values(b.files).every((v) => typeof v === 'string')) return { status: 400, body: { error: 'files must map names to strings' } };
    Object.assign(files, b.files);
  }
  const args = b.args[0] === 'kubectl' ? b.args.slice(1) : (b.args as string[]);
  // Watches end when the server ends them; over this endpoint they stop after 5 s of wall time.
  const interrupt = new Promise<void>((r) => setTimeout(r, 5000).unref());
  // kubectl's sleeps (drain) wait for the cluster's clock, which this host runs in wall time.
  const sleep = (ms: number) => {
    const until = host.engine.sim.now + ms;
    return new Promise<void>((resolve) => {
      const check = () => (host.engine.sim.now >= until ? resolve() : setTimeout(check, 10).unref());
      check();
    });
  };
  const r = await runKubectl(args, { transport: transport(calls), files, now: () => host.engine.sim.epochMs + host.engine.sim.now, namespace: typeof b.namespace === 'string' ? b.namespace : 'default', interrupt, sleep });
  return { status: 200, body: { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode } };
}
