// What a container is started with besides its image: environment variables
// (kubelet_pods.go makeEnvironmentVariables: envFrom, env with $(VAR)
// expansion, fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef) and
// the files mounted into it (ConfigMap, Secret, downwardAPI, projected and
// emptyDir volumes; the kubelet-managed /etc/hosts, /etc/hostname and
// /etc/resolv.conf). ConfigMaps and Secrets come from the API through the
// kubelet's object cache (objects.ts); a missing one is upstream's
// CreateContainerConfigError (`configmap "x" not found`) for env, or a
// FailedMount that keeps the pod ContainerCreating for a volume.
import { resolvConf } from './resolvConf';
import type { KObject } from '../../apimachinery/types';
import { base64Decode } from '../../sim/base64';
import { fromUtf8 } from '../../apiserver/auth/sha256';
import { parseQuantity } from '../../apiserver/validation/quantity';
import type { Pod } from '../../scheduler/framework/api';
import type { ObjectCache } from './objects';

type Ref = { name?: string; key?: string; optional?: boolean };
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: { containerName?: string; resource: string; divisor?: string | number };
    configMapKeyRef?: Ref;
    secretKeyRef?: Ref;
  };
}
interface EnvFrom {
  prefix?: string;
  configMapRef?: Ref;
  secretRef?: Ref;
}
export interface ContainerEnvSpec {
  name: string;
  env?: EnvVar[];
  envFrom?: EnvFrom[];
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
}
interface KeyToPath {
  key: string;
  path: string;
}
interface Volume {
  name: string;
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { secretName?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: { path: string; fieldRef?: { fieldPath: string } }[] };
  projected?: {
    sources?: {
      configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
      secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
      downwardAPI?: { items?: { path: string; fieldRef?: { fieldPath: string } }[] };
      serviceAccountToken?: unknown;
    }[];
  };
  emptyDir?: unknown;
}

export type ConfigOutcome = { type: 'ok'; env: Record<string, string>; mounts: Record<string, string> } | { type: 'pending' } | { type: 'error'; message: string };

/** What the downward API and fieldRef read. */
export interface PodFacts {
  podIP: string;
  hostIP: string;
  nodeAllocatable: { cpuMilli: number; memoryBytes: number };
}

function fieldValue(pod: Pod, path: string, f: PodFacts): string | undefined {
  const md = pod.metadata;
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? md.labels : md.annotations)?.[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name':
      return md.name;
    case 'metadata.namespace':
      return md.namespace;
    case 'metadata.uid':
      return md.uid;
    case 'metadata.labels':
      return Object.entries(md.labels ?? {})
        .map(([k, v]) => `${k}="${v}"`)
        .join('\n');
    case 'metadata.annotations':
      return Object.entries(md.annotations ?? {})
        .map(([k, v]) => `${k}="${v}"`)
        .join('\n');
    case 'spec.nodeName':
      return pod.spec.nodeName;
    case 'spec.serviceAccountName':
      return (pod.spec as { serviceAccountName?: string }).serviceAccountName;
    case 'status.hostIP':
    case 'status.hostIPs':
      return f.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return f.podIP;
  }
  return undefined;
}

/** resourceFieldRef: the container's request or limit (limits default to node allocatable), divided and rounded up. */
function resourceValue(c: ContainerEnvSpec, ref: { resource: string; divisor?: string | number }, f: PodFacts): string {
  const [kind, name] = ref.resource.split('.') as ['limits' | 'requests', string];
  const raw =
    c.resources?.[kind]?.[name] ?? (kind === 'limits' ? (name === 'cpu' ? `${f.nodeAllocatable.cpuMilli}m` : name === 'memory' ? String(f.nodeAllocatable.memoryBytes) : undefined) : undefined);
  const q = parseQuantity(raw ?? 0);
  const d = parseQuantity(ref.divisor ?? 1);
  if (!q.ok || !d.ok || d.quantity.nanos === 0n) return '0';
  const v = q.quantity.nanos;
  const dv = d.quantity.nanos;
  return String((v + dv - 1n) / dv);
}

/** $(VAR) expansion (expansion.go MappingFuncFor): names defined so far, then the service variables; $$ escapes, anything else stays. */
function expand(s: string, vars: Record<string, string>, services: Record<string, string> = {}): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    if (name === undefined) return m;
    return vars[name] ?? services[name] ?? m;
  });
}

function data(obj: KObject, secret: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(((obj as { data?: Record<string, string> }).data ?? {}) as Record<string, string>)) out[k] = secret ? decodeB64(v) : v;
  if (secret) for (const [k, v] of Object.entries((obj as { stringData?: Record<string, string> }).stringData ?? {})) out[k] = v;
  return out;
}

function decodeB64(v: string): string {
  const bytes = base64Decode(v);
  return bytes ? (fromUtf8(bytes) ?? '') : '';
}

/**
 * The container's environment, or why it cannot be built. `services`: the
 * Service variables of the pod (serviceEnv.ts); null while the kubelet has not
 * read the Services yet. They are visible to $(VAR) and fill in every name the
 * container does not set itself.
 */
export function containerEnv(pod: Pod, c: ContainerEnvSpec, objects: ObjectCache, f: PodFacts, services: Record<string, string> | null = {}): ConfigOutcome {
  const ns = pod.metadata.namespace ?? 'default';
  if (services === null) return { type: 'pending' };
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref?.name) continue;
    const kind = from.configMapRef ? 'configmaps' : 'secrets';
    const o = objects.get(kind, ns, ref.name);
    if (o === undefined) return { type: 'pending' };
    if (o === null) {
      if (ref.optional) continue;
      return { type: 'error', message: `${kind === 'configmaps' ? 'configmap' : 'secret'} "${ref.name}" not found` };
    }
    for (const [k, v] of Object.entries(data(o, kind === 'secrets'))) env[`${from.prefix ?? ''}${k}`] = v;
  }
  for (const e of c.env ?? []) {
    const vf = e.valueFrom;
    if (!vf) {
      env[e.name] = expand(e.value ?? '', env, services);
      continue;
    }
    if (vf.fieldRef) {
      env[e.name] = fieldValue(pod, vf.fieldRef.fieldPath, f) ?? '';
      continue;
    }
    if (vf.resourceFieldRef) {
      const target = vf.resourceFieldRef.containerName ? ((pod.spec.containers.find((x) => x.name === vf.resourceFieldRef!.containerName) as ContainerEnvSpec | undefined) ?? c) : c;
      env[e.name] = resourceValue(target, vf.resourceFieldRef, f);
      continue;
    }
    const ref = vf.configMapKeyRef ?? vf.secretKeyRef;
    if (!ref?.name) continue;
    const secret = !!vf.secretKeyRef;
    const o = objects.get(secret ? 'secrets' : 'configmaps', ns, ref.name);
    if (o === undefined) return { type: 'pending' };
    if (o === null) {
      if (ref.optional) continue;
      return { type: 'error', message: `${secret ? 'secret' : 'configmap'} "${ref.name}" not found` };
    }
    const v = data(o, secret)[ref.key ?? ''];
    if (v === undefined) {
      if (ref.optional) continue;
      return { type: 'error', message: `couldn't find key ${ref.key} in ${secret ? 'Secret' : 'ConfigMap'} ${ns}/${ref.name}` };
    }
    env[e.name] = v;
  }
  for (const [k, v] of Object.entries(services)) if (!(k in env)) env[k] = v;
  return { type: 'ok', env, mounts: {} };
}

/** The pod's volumes' files by volume name, or the first volume that cannot be set up. */
export function podVolumes(
  pod: Pod,
  objects: ObjectCache,
  f: PodFacts,
): { type: 'ok'; files: Record<string, Record<string, string>> } | { type: 'pending' } | { type: 'error'; volume: string; message: string } {
  const ns = pod.metadata.namespace ?? 'default';
  const files: Record<string, Record<string, string>> = {};
  const fromObject = (
    kind: 'configmaps' | 'secrets',
    name: string | undefined,
    items: KeyToPath[] | undefined,
    optional: boolean | undefined,
    into: Record<string, string>,
  ): 'ok' | 'pending' | string => {
    if (!name) return 'ok';
    const o = objects.get(kind, ns, name);
    if (o === undefined) return 'pending';
    if (o === null) return optional ? 'ok' : `${kind === 'configmaps' ? 'configmap' : 'secret'} "${name}" not found`;
    const d = data(o, kind === 'secrets');
    if (items?.length) {
      for (const it of items) {
        if (d[it.key] === undefined) {
          if (optional) continue;
          return `configmap references non-existent config key: ${it.key}`;
        }
        into[it.path] = d[it.key]!;
      }
    } else Object.assign(into, d);
    return 'ok';
  };
  for (const v of ((pod.spec as { volumes?: Volume[] }).volumes ?? []) as Volume[]) {
    const out: Record<string, string> = {};
    let r: 'ok' | 'pending' | string = 'ok';
    if (v.configMap) r = fromObject('configmaps', v.configMap.name, v.configMap.items, v.configMap.optional, out);
    else if (v.secret) r = fromObject('secrets', v.secret.secretName, v.secret.items, v.secret.optional, out);
    else if (v.downwardAPI) for (const it of v.downwardAPI.items ?? []) out[it.path] = it.fieldRef ? (fieldValue(pod, it.fieldRef.fieldPath, f) ?? '') : '';
    else if (v.projected) {
      for (const s of v.projected.sources ?? []) {
        if (s.configMap) r = fromObject('configmaps', s.configMap.name, s.configMap.items, s.configMap.optional, out);
        else if (s.secret) r = fromObject('secrets', s.secret.name, s.secret.items, s.secret.optional, out);
        else if (s.downwardAPI) for (const it of s.downwardAPI.items ?? []) out[it.path] = it.fieldRef ? (fieldValue(pod, it.fieldRef.fieldPath, f) ?? '') : '';
        if (r !== 'ok') break;
      }
    }
    if (r === 'pending') return { type: 'pending' };
    if (r !== 'ok') return { type: 'error', volume: v.name, message: r };
    files[v.name] = out;
  }
  return { type: 'ok', files };
}

/** A node's own /etc/hosts (as a kind node's reads), before the line naming the node. */
const NODE_HOSTS = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nff00::0\tip6-mcastprefix\nff02::1\tip6-allnodes\nff02::2\tip6-allrouters\n';

/** The files a container sees: its volume mounts, and the kubelet-managed /etc files. */
export function containerMounts(pod: Pod, c: ContainerEnvSpec, volumes: Record<string, Record<string, string>>, podIP: string): Record<string, string> {
  const ns = pod.metadata.namespace ?? 'default';
  const spec = pod.spec as { hostname?: string; subdomain?: string; hostNetwork?: boolean; nodeName?: string; hostAliases?: { ip?: string; hostnames?: string[] }[] };
  // A hostNetwork pod is in the node's UTS namespace: the node's hostname.
  const hostname = spec.hostNetwork ? (spec.nodeName ?? pod.metadata.name!) : (spec.hostname ?? pod.metadata.name!);
  // managedHostsFileContent (kubelet_pods.go): the pod's own line names its FQDN first when it has a subdomain,
  // then hostsEntriesFromHostAliases adds one line per alias.
  const own = !podIP ? '' : spec.subdomain ? `${podIP}\t${hostname}.${spec.subdomain}.${ns}.svc.cluster.local\t${hostname}\n` : `${podIP}\t${hostname}\n`;
  const aliases = spec.hostAliases?.length ? `\n# Entries added by HostAliases.\n${spec.hostAliases.map((a) => `${a.ip ?? ''}\t${(a.hostnames ?? []).join('\t')}\n`).join('')}` : '';
  const out: Record<string, string> = {
    '/etc/hostname': `${hostname}\n`,
    // With hostNetwork the kubelet copies the node's own /etc/hosts under its host-network header (nodeHostsFileContent).
    '/etc/hosts': spec.hostNetwork
      ? `# Kubernetes-managed hosts file (host network).\n${NODE_HOSTS}${podIP ? `${podIP}\t${hostname}\n` : ''}${aliases}`
      : `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${own}${aliases}`,
    '/etc/resolv.conf': resolvConf(pod.spec as Parameters<typeof resolvConf>[0], ns),
  };
  for (const m of c.volumeMounts ?? []) {
    const files = volumes[m.name];
    if (!files) continue;
    const base = m.mountPath.replace(/\/+$/, '');
    if (m.subPath) {
      if (files[m.subPath] !== undefined) out[base] = files[m.subPath]!;
      continue;
    }
    for (const [p, content] of Object.entries(files)) out[`${base}/${p}`] = content;
    if (Object.keys(files).length === 0) out[`${base}/.keep`] = '';
  }
  return out;
}

/** The ConfigMaps and Secrets a pod refers to (volumes, env, envFrom). */
export function referencedObjects(pod: Pod): { kind: 'configmaps' | 'secrets'; name: string }[] {
  const out: { kind: 'configmaps' | 'secrets'; name: string }[] = [];
  const add = (kind: 'configmaps' | 'secrets', name: string | undefined) => {
    if (name && !out.some((o) => o.kind === kind && o.name === name)) out.push({ kind, name });
  };
  for (const v of ((pod.spec as { volumes?: Volume[] }).volumes ?? []) as Volume[]) {
    add('configmaps', v.configMap?.name);
    add('secrets', v.secret?.secretName);
    for (const s of v.projected?.sources ?? []) {
      add('configmaps', s.configMap?.name);
      add('secrets', s.secret?.name);
    }
  }
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers] as ContainerEnvSpec[]) {
    for (const e of c.env ?? []) {
      add('configmaps', e.valueFrom?.configMapKeyRef?.name);
      add('secrets', e.valueFrom?.secretKeyRef?.name);
    }
    for (const e of c.envFrom ?? []) {
      add('configmaps', e.configMapRef?.name);
      add('secrets', e.secretRef?.name);
    }
  }
  return out;
}
