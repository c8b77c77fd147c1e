// The Service environment variables a container starts with
// (kubelet_pods.go getServiceEnvVarMap, pkg/kubelet/envvars/envvars.go):
// for every Service of the pod's namespace when enableServiceLinks (the
// default), and for the master service `kubernetes` of the default namespace
// always, one set of variables each:
//   {SVC}_SERVICE_HOST, {SVC}_SERVICE_PORT (first port), {SVC}_SERVICE_PORT_{NAME}
//   per named port, and Docker's link variables {SVC}_PORT (first port) and
//   {SVC}_PORT_{port}_{PROTO}[_PROTO|_PORT|_ADDR] per port,
// where {SVC} is the name upper-cased with dashes as underscores. Services
// without a cluster IP (headless, ExternalName) give none. A name defined in
// the pod's namespace wins over the master service of the same name.
import type { KObject } from '../../apimachinery/types';

interface ServicePort {
  name?: string;
  port: number;
  protocol?: string;
}

/** The kubelet's --master-service-namespace (default) and the master services. */
const MASTER_NAMESPACE = 'default';
const MASTER_SERVICES = new Set(['kubernetes']);

function clusterIPOf(s: KObject): string {
  return ((s.spec as { clusterIP?: string } | undefined)?.clusterIP ?? '').trim();
}

/** v1helper.IsServiceIPSet: a cluster IP that is neither empty nor None. */
function ipSet(s: KObject): boolean {
  const ip = clusterIPOf(s);
  return ip !== '' && ip !== 'None';
}

const envName = (s: string) => s.replace(/-/g, '_').toUpperCase();

/** net.JoinHostPort: IPv6 addresses in brackets. */
const joinHostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** envvars.FromServices for one Service. */
function variables(s: KObject, into: Record<string, string>): void {
  const ip = clusterIPOf(s);
  const ports = ((s.spec as { ports?: ServicePort[] } | undefined)?.ports ?? []) as ServicePort[];
  if (ports.length === 0) return;
  const prefix = envName(s.metadata.name!);
  into[`${prefix}_SERVICE_HOST`] = ip;
  into[`${prefix}_SERVICE_PORT`] = String(ports[0]!.port);
  for (const p of ports) if (p.name) into[`${prefix}_SERVICE_PORT_${envName(p.name)}`] = String(p.port);
  ports.forEach((p, i) => {
    const proto = p.protocol || 'TCP';
    const url = `${proto.toLowerCase()}://${joinHostPort(ip, p.port)}`;
    if (i === 0) into[`${prefix}_PORT`] = url;
    const pp = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
    into[pp] = url;
    into[`${pp}_PROTO`] = proto.toLowerCase();
    into[`${pp}_PORT`] = String(p.port);
    into[`${pp}_ADDR`] = ip;
  });
}

/** The service variables of a pod in `namespace` (enableServiceLinks: its own namespace's Services too). */
export function serviceEnv(services: Iterable<KObject>, namespace: string, enableServiceLinks: boolean): Record<string, string> {
  const chosen = new Map<string, KObject>();
  for (const s of services) {
    if (!ipSet(s) || !s.metadata.name) continue;
    const name = s.metadata.name;
    const ns = s.metadata.namespace ?? '';
    if (ns === MASTER_NAMESPACE && MASTER_SERVICES.has(name)) {
      if (!chosen.has(name)) chosen.set(name, s);
    } else if (ns === namespace && enableServiceLinks) {
      chosen.set(name, s);
    }
  }
  const env: Record<string, string> = {};
  for (const name of [...chosen.keys()].sort()) variables(chosen.get(name)!, env);
  return env;
}
