// /healthz, /livez and /readyz as kube-apiserver v1.32 serves them
// (k8s.io/apiserver/pkg/server/healthz/healthz.go handleRootHealth): "ok", or
// with ?verbose every check as [+]name ok; any failing check makes it a 500 that
// lists every check ([-]name failed: reason withheld) and "<endpoint> check
// failed"; ?exclude=name skips one; /readyz/<name> asks one check alone.
import type { ApiRequest, ApiResponse } from '../types';

/** What the checks read of the server. */
export interface HealthState {
  /** Post-start hooks done (bootstrap objects written, reconcilers started). */
  bootstrapped: boolean;
  /** Every watch cache has listed (informer-sync). */
  cachesSynced: boolean;
  /** The last etcd call answered (the etcd prober's view). */
  etcdOk: boolean;
}

type Check = { name: string; ok: (s: HealthState) => boolean; error?: string };

const always: Check['ok'] = () => true;
const hooks = (s: HealthState) => s.bootstrapped;

/** The post-start hooks of kube-apiserver v1.32, in its order; ours finish with the bootstrap. */
const POST_START_HOOKS = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter',
  'storage-object-count-tracker-hook',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers',
  'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer',
  'bootstrap-controller',
  'start-kubernetes-service-cidr-controller',
  'start-kube-aggregator-informers',
  'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller',
  'apiservice-registration-controller',
  'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
];

const postStart: Check[] = [
  ...POST_START_HOOKS.map((h) => ({ name: `poststarthook/${h}`, ok: hooks, error: 'not finished' })),
  { name: 'autoregister-completion', ok: hooks, error: 'missing APIService' },
  { name: 'poststarthook/apiservice-openapi-controller', ok: hooks, error: 'not finished' },
  { name: 'poststarthook/apiservice-openapiv3-controller', ok: hooks, error: 'not finished' },
];

const etcd: Check = { name: 'etcd', ok: (s) => s.etcdOk, error: 'etcd client connection not yet established' };

const base: Check[] = [{ name: 'ping', ok: always }, { name: 'log', ok: always }, etcd];
/** healthz and livez have the same checks; readyz adds the readiness ones. */
const live: Check[] = [...base, ...postStart];

const CHECKS: Record<'healthz' | 'livez' | 'readyz', Check[]> = {
  healthz: live,
  livez: live,
  readyz: [
    ...base,
    { name: 'etcd-readiness', ok: (s) => s.etcdOk, error: 'etcd client connection not yet established' },
    { name: 'informer-sync', ok: (s) => s.cachesSynced, error: 'informers not started yet' },
    ...postStart,
    { name: 'shutdown', ok: always },
  ],
};

function text(status: number, body: string): ApiResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body };
}

function values(q: ApiRequest['query'], key: string): string[] {
  const v = q[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The answer for /healthz, /livez, /readyz and /<endpoint>/<check>, or null for other paths. */
export function healthResponse(path: string, req: ApiRequest, s: HealthState): ApiResponse | null {
  const [, endpoint, ...rest] = path.split('/');
  if (endpoint !== 'healthz' && endpoint !== 'livez' && endpoint !== 'readyz') return null;
  const checks = CHECKS[endpoint];
  if (rest.length > 0) {
    // One check by name: ok, or 500 with its error (this path is for operators).
    const name = rest.join('/');
    const c = checks.find((x) => x.name === name);
    if (!c) return null;
    return c.ok(s) ? text(200, 'ok') : text(500, `internal server error: ${c.error ?? 'failed'}\n`);
  }
  const excluded = new Set(values(req.query, 'exclude'));
  let out = '';
  const failed: string[] = [];
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      out += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    if (c.ok(s)) out += `[+]${c.name} ok\n`;
    else {
      out += `[-]${c.name} failed: reason withheld\n`;
      failed.push(c.name);
    }
  }
  if (excluded.size > 0) out += `warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((x) => `"${x}"`).join(',')}\n`;
  // Always verbose on failure (http.Error adds the newline).
  if (failed.length > 0) return text(500, `${out}${endpoint} check failed\n`);
  if (!('verbose' in req.query)) return text(200, 'ok');
  return text(200, `${out}${endpoint} check passed\n`);
}
