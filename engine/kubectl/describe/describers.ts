// Describers for the common kinds and the generic one
// (staging/src/k8s.io/kubectl/pkg/describe/describe.go v1.32: describePod,
// describeDeployment, describeReplicaSet, describeService, describeNode,
// describeNamespace, ConfigMapDescriber, describeSecret,
// describeServiceAccount, describeJob, genericDescriber; the workload
// controllers' kinds are in workloads.ts).
import type { Mapping } from '../client/discovery';
import type { RestClient } from '../client/rest';
import { resourcePath } from '../resource/builder';
import { parseQuantity } from '../util/quantity';
import { formatQuantity, addQuantities } from '../util/quantityFormat';
import { humanDuration, parseTime, timestampSince } from '../util/duration';
import { goFmtV } from '../printers/goJson';
import { describeCronJob, describeDaemonSet, describeStatefulSet } from './workloads';
import { describeHorizontalPodAutoscaler } from './autoscaling';
import { describeEndpoints, describeEndpointSlice } from './endpoints';
import { describeRole, describeRoleBinding } from './rbac';
import { describeNetworkPolicy } from './networking';
import { describePriorityClass, describeStorageClass } from './classes';
import { describePodDisruptionBudget } from './policy';
import { describeResourceQuota } from './quota';
import { describePersistentVolume, describePersistentVolumeClaim, podsUsingClaim } from './storage';
import { describeEvents, PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, printTaintsMultiline, printTolerationsMultiline, timeRfc1123z } from './writer';

type Obj = Record<string, any>;

export interface DescribeDeps {
  client: RestClient;
  now: number;
  showEvents: boolean;
  chunkSize: number;
}

// ---------- selectors

function requirementString(r: { key: string; operator: string; values?: string[] }): string {
  const vals = [...(r.values ?? [])].sort();
  switch (r.operator) {
    case 'In':
      return `${r.key} in (${vals.join(',')})`;
    case 'NotIn':
      return `${r.key} notin (${vals.join(',')})`;
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
    default:
      return `${r.key}=${vals[0] ?? ''}`;
  }
}

/** labels.Selector.String() of a metav1.LabelSelector ("" when empty). */
export function selectorString(sel: Obj | undefined | null): string {
  if (!sel) return '';
  const reqs: { key: string; operator: string; values?: string[] }[] = [];
  for (const [k, v] of Object.entries((sel.matchLabels as Record<string, string>) ?? {})) reqs.push({ key: k, operator: 'Equals', values: [v] });
  for (const e of (sel.matchExpressions as Obj[]) ?? []) reqs.push({ key: e.key, operator: e.operator, values: e.values });
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map(requirementString).join(',');
}

/** metav1.FormatLabelSelector: `<none>` when empty. */
export function formatLabelSelector(sel: Obj | undefined | null): string {
  const s = selectorString(sel);
  return s === '' ? '<none>' : s;
}

export function formatLabelsPlain(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',');
}

// ---------- fetching helpers

async function list(d: DescribeDeps, path: string, query: Record<string, string>): Promise<Obj[] | null> {
  const r = await d.client.tryJson<Obj>('GET', path, { query: { ...query, limit: String(d.chunkSize) } });
  if (!r.ok) return null;
  return (r.value.items as Obj[]) ?? [];
}

/** searchEvents: the events whose involvedObject is this object. */
export async function searchEvents(d: DescribeDeps, obj: Obj, withKind = true, uid?: string): Promise<Obj[] | null> {
  const ns = obj.metadata?.namespace ?? '';
  const fs: Record<string, string> = { 'involvedObject.name': obj.metadata?.name ?? '', 'involvedObject.namespace': ns };
  if (withKind && obj.kind) fs['involvedObject.kind'] = obj.kind;
  const u = uid ?? obj.metadata?.uid;
  if (u) fs['involvedObject.uid'] = u;
  const fieldSelector = Object.keys(fs)
    .sort()
    .map((k) => `${k}=${fs[k]}`)
    .join(',');
  return list(d, ns ? `/api/v1/namespaces/${ns}/events` : '/api/v1/events', { fieldSelector });
}

function controllerOf(o: Obj): Obj | undefined {
  return ((o.metadata?.ownerReferences as Obj[]) ?? []).find((r) => r.controller === true);
}

function printController(o: Obj): string {
  const c = controllerOf(o);
  return c ? `${c.kind}/${c.name}` : '';
}

function intOrString(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

// ---------- containers and volumes

const STANDARD_ORDER = ['cpu', 'memory', 'storage', 'ephemeral-storage'];
function sortedResourceNames(rl: Record<string, string> | undefined): string[] {
  return Object.keys(rl ?? {}).sort();
}
void STANDARD_ORDER;

function describeProbe(p: Obj): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 0}s period=${p.periodSeconds ?? 0}s #success=${p.successThreshold ?? 0} #failure=${p.failureThreshold ?? 0}`;
  if (p.exec) return `exec [${((p.exec.command as string[]) ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const scheme = String(p.httpGet.scheme ?? '').toLowerCase();
    const port = intOrString(p.httpGet.port);
    const host = p.httpGet.host ?? '';
    const hostPort = port ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    const path = p.httpGet.path ?? '';
    const url = `${scheme ? `${scheme}:` : ''}${hostPort || scheme ? '//' : ''}${hostPort}${path && !path.startsWith('/') && hostPort ? `/${path}` : path}`;
    return `http-get ${url} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${intOrString(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function describeStatus(stateName: string, state: Obj | undefined, w: PrefixWriter): void {
  if (state?.running) {
    w.write(2, `${stateName}:\tRunning\n`);
    w.write(3, `Started:\t${timeRfc1123z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(2, `${stateName}:\tWaiting\n`);
    if (state.waiting.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(2, `${stateName}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode ?? 0}\n`);
    if ((t.signal ?? 0) > 0) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${timeRfc1123z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${timeRfc1123z(t.finishedAt)}\n`);
  } else w.write(2, `${stateName}:\tWaiting\n`);
}

/**
 * describe's EnvValueRetriever: the path goes through the kubectl scheme's
 * ConvertFieldLabel, which for a Pod (no conversion funcs registered there)
 * passes only metadata.name and metadata.namespace; anything else
 * (spec.nodeName, status.podIP, labels) prints empty, whatever the kubelet
 * resolved it to.
 */
function fieldPathValue(pod: Obj | undefined, path: string): string {
  if (path === 'metadata.name') return pod?.metadata?.name ?? '';
  if (path === 'metadata.namespace') return pod?.metadata?.namespace ?? '';
  return '';
}

function describeContainers(label: string, containers: Obj[] | undefined, statuses: Obj[] | undefined, pod: Obj | undefined, w: PrefixWriter, space: string): void {
  const cs = containers ?? [];
  const byName = new Map(((statuses ?? []) as Obj[]).map((s) => [s.name, s]));
  w.write(0, `${space}${label}:${cs.length === 0 ? ' <none>' : ''}\n`);
  for (const c of cs) {
    const status = byName.get(c.name);
    const ok = statuses !== undefined && status !== undefined;
    w.write(1, `${space ? ' ' : ''}${c.name}:\n`);
    if (ok) w.write(2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image ?? ''}\n`);
    if (ok) w.write(2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports = ((c.ports as Obj[]) ?? []).map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ');
    if (ports.includes(',')) w.write(2, `Ports:\t${ports}\n`);
    else w.write(2, `Port:\t${ports || '<none>'}\n`);
    const hostPorts = ((c.ports as Obj[]) ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ');
    if (hostPorts.includes(',')) w.write(2, `Host Ports:\t${hostPorts}\n`);
    else w.write(2, `Host Port:\t${hostPorts || '<none>'}\n`);
    if (c.restartPolicy) w.write(2, `Restart Policy:\t${c.restartPolicy}\n`);
    if ((c.command ?? []).length > 0) {
      w.write(2, 'Command:\n');
      for (const x of c.command as string[]) for (const s of x.split('\n')) w.write(3, `${s}\n`);
    }
    if ((c.args ?? []).length > 0) {
      w.write(2, 'Args:\n');
      for (const x of c.args as string[]) for (const s of x.split('\n')) w.write(3, `${s}\n`);
    }
    if (ok) {
      describeStatus('State', status.state, w);
      if (status.lastState?.terminated) describeStatus('Last State', status.lastState, w);
      w.write(2, `Ready:\t${status.ready ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${status.restartCount ?? 0}\n`);
    }
    const res = c.resources ?? {};
    if (Object.keys(res.limits ?? {}).length > 0) w.write(2, 'Limits:\n');
    for (const n of sortedResourceNames(res.limits)) w.write(3, `${n}:\t${formatQuantity(res.limits[n])}\n`);
    if (Object.keys(res.requests ?? {}).length > 0) w.write(2, 'Requests:\n');
    for (const n of sortedResourceNames(res.requests)) w.write(3, `${n}:\t${formatQuantity(res.requests[n])}\n`);
    if (c.livenessProbe) w.write(2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    const envFrom = (c.envFrom as Obj[]) ?? [];
    if (envFrom.length > 0) {
      w.write(2, 'Environment Variables from:\n');
      for (const e of envFrom) {
        const from = e.configMapRef ? 'ConfigMap' : e.secretRef ? 'Secret' : '';
        const ref = e.configMapRef ?? e.secretRef ?? {};
        const optional = ref.optional === true;
        if (!e.prefix) w.write(3, `${ref.name ?? ''}\t${from}\tOptional: ${optional}\n`);
        else w.write(3, `${ref.name ?? ''}\t${from} with prefix '${e.prefix}'\tOptional: ${optional}\n`);
      }
    }
    const env = (c.env as Obj[]) ?? [];
    w.write(2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
    for (const e of env) {
      if (!e.valueFrom) {
        String(e.value ?? '')
          .split('\n')
          .forEach((s, i) => w.write(3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
        continue;
      }
      const vf = e.valueFrom;
      if (vf.fieldRef) w.write(3, `${e.name}:\t${fieldPathValue(pod, vf.fieldRef.fieldPath)} (${vf.fieldRef.apiVersion ?? 'v1'}:${vf.fieldRef.fieldPath})\n`);
      else if (vf.resourceFieldRef) {
        const r = String(vf.resourceFieldRef.resource);
        const [kind, name] = r.split('.') as [string, string];
        const q = res[kind]?.[name];
        let value = q ? formatQuantity(q) : '0';
        if (value === '0' && (r === 'limits.cpu' || r === 'limits.memory')) value = 'node allocatable';
        w.write(3, `${e.name}:\t${value} (${r})\n`);
      } else if (vf.secretKeyRef) w.write(3, `${e.name}:\t<set to the key '${vf.secretKeyRef.key}' in secret '${vf.secretKeyRef.name}'>\tOptional: ${vf.secretKeyRef.optional === true}\n`);
      else if (vf.configMapKeyRef) w.write(3, `${e.name}:\t<set to the key '${vf.configMapKeyRef.key}' of config map '${vf.configMapKeyRef.name}'>\tOptional: ${vf.configMapKeyRef.optional === true}\n`);
    }
    const mounts = [...((c.volumeMounts as Obj[]) ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0));
    w.write(2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw'];
      if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
      w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
    }
    const devices = (c.volumeDevices as Obj[]) ?? [];
    if (devices.length > 0) {
      w.write(2, 'Devices:\n');
      for (const dv of [...devices].sort((a, b) => (a.devicePath < b.devicePath ? -1 : 1))) w.write(3, `${dv.devicePath} from ${dv.name}\n`);
    }
  }
}

function describeVolumes(volumes: Obj[] | undefined, w: PrefixWriter, space: string): void {
  const vs = volumes ?? [];
  if (vs.length === 0) {
    w.write(0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(0, `${space}Volumes:\n`);
  for (const v of vs) {
    w.write(1, `${space ? ' ' : ''}${v.name}:\n`);
    if (v.hostPath) w.write(2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type || '<none>'}\n`);
    else if (v.emptyDir) {
      const q = v.emptyDir.sizeLimit;
      const sizeLimit = q && (parseQuantity(String(q)) ?? 0) > 0 ? formatQuantity(q) : '<unset>';
      w.write(2, `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${sizeLimit}\n`);
    } else if (v.secret) w.write(2, `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${v.secret.optional === true}\n`);
    else if (v.configMap) w.write(2, `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${v.configMap.optional === true}\n`);
    else if (v.persistentVolumeClaim) w.write(2, `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName}\n    ReadOnly:\t${v.persistentVolumeClaim.readOnly === true}\n`);
    else if (v.projected) {
      w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of (v.projected.sources as Obj[]) ?? []) {
        if (s.secret) w.write(2, `SecretName:\t${s.secret.name}\n    SecretOptionalName:\t${s.secret.optional === undefined ? '<nil>' : s.secret.optional}\n`);
        else if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap) w.write(2, `ConfigMapName:\t${s.configMap.name}\n    ConfigMapOptional:\t${s.configMap.optional === undefined ? '<nil>' : s.configMap.optional}\n`);
        else if (s.serviceAccountToken) w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}\n`);
      }
    } else if (v.downwardAPI) {
      w.write(2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
      for (const m of (v.downwardAPI.items as Obj[]) ?? []) {
        if (m.fieldRef) w.write(3, `${m.fieldRef.fieldPath} -> ${m.path}\n`);
        if (m.resourceFieldRef) w.write(3, `${m.resourceFieldRef.resource} -> ${m.path}\n`);
      }
    } else w.write(1, '<unknown>\n');
  }
}

function describeTopologySpreadConstraints(tscs: Obj[] | undefined, w: PrefixWriter, space: string): void {
  const ts = [...(tscs ?? [])];
  if (ts.length === 0) return;
  ts.sort((a, b) => (a.topologyKey < b.topologyKey ? -1 : a.topologyKey > b.topologyKey ? 1 : 0));
  w.write(0, `${space}Topology Spread Constraints:\t`);
  ts.forEach((t, i) => {
    if (i !== 0) {
      w.write(0, space);
      w.write(0, '\t');
    }
    let s = `${t.topologyKey}:${t.whenUnsatisfiable} when max skew ${t.maxSkew} is exceeded`;
    if (t.labelSelector) s += ` for selector ${formatLabelSelector(t.labelSelector)}`;
    w.write(0, `${s}\n`);
  });
}

export function describePodTemplate(template: Obj | undefined, w: PrefixWriter): void {
  w.write(0, 'Pod Template:\n');
  if (!template) {
    w.write(1, '<unset>');
    return;
  }
  printLabelsMultiline(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length > 0) printAnnotationsMultiline(w, '  Annotations', template.metadata.annotations);
  const spec = template.spec ?? {};
  if (spec.serviceAccountName) w.write(1, `Service Account:\t${spec.serviceAccountName}\n`);
  if ((spec.initContainers ?? []).length > 0) describeContainers('Init Containers', spec.initContainers, undefined, undefined, w, '  ');
  describeContainers('Containers', spec.containers, undefined, undefined, w, '  ');
  describeVolumes(spec.volumes, w, '  ');
  describeTopologySpreadConstraints(spec.topologySpreadConstraints, w, '  ');
  if (spec.priorityClassName) w.write(1, `Priority Class Name:\t${spec.priorityClassName}\n`);
  printLabelsMultiline(w, '  Node-Selectors', spec.nodeSelector);
  printTolerationsMultiline(w, '  Tolerations', spec.tolerations);
}

/** qos.GetPodQOS, simplified to requests/limits of cpu and memory. */
function podQos(pod: Obj): string {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const cs = [...((pod.spec?.containers as Obj[]) ?? []), ...((pod.spec?.initContainers as Obj[]) ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of cs) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      if (req[r] !== undefined || lim[r] !== undefined) any = true;
      if (lim[r] === undefined) guaranteed = false;
      else if (req[r] !== undefined && parseQuantity(String(req[r])) !== parseQuantity(String(lim[r]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** DescribePodTemplate into a plain buffer (rollout history --revision). */
export function describePodTemplateRaw(template: Obj | undefined): string {
  const w = new PrefixWriter(true);
  describePodTemplate(template, w);
  return w.done();
}

// ---------- kinds

function describePod(pod: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  const spec = pod.spec ?? {};
  const st = pod.status ?? {};
  w.write(0, `Name:\t${pod.metadata.name}\n`);
  w.write(0, `Namespace:\t${pod.metadata.namespace ?? ''}\n`);
  if (spec.priority !== undefined && spec.priority !== null) w.write(0, `Priority:\t${spec.priority}\n`);
  if (spec.priorityClassName) w.write(0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec.runtimeClassName) w.write(0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  if (spec.serviceAccountName) w.write(0, `Service Account:\t${spec.serviceAccountName}\n`);
  if (!spec.nodeName) w.write(0, 'Node:\t<none>\n');
  else w.write(0, `Node:\t${spec.nodeName}/${st.hostIP ?? ''}\n`);
  if (st.startTime) w.write(0, `Start Time:\t${timeRfc1123z(st.startTime)}\n`);
  printLabelsMultiline(w, 'Labels', pod.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', pod.metadata.annotations);
  if (pod.metadata.deletionTimestamp && st.phase !== 'Failed' && st.phase !== 'Succeeded') {
    w.write(0, `Status:\tTerminating (lasts ${timestampSince(pod.metadata.deletionTimestamp, now)})\n`);
    w.write(0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`);
  } else w.write(0, `Status:\t${st.phase ?? ''}\n`);
  if (st.reason) w.write(0, `Reason:\t${st.reason}\n`);
  if (st.message) w.write(0, `Message:\t${st.message}\n`);
  const seccomp = spec.securityContext?.seccompProfile;
  if (seccomp) {
    w.write(0, `SeccompProfile:\t${seccomp.type}\n`);
    if (seccomp.type === 'Localhost') w.write(0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
  }
  w.write(0, `IP:\t${st.podIP ?? ''}\n`);
  const ips = (st.podIPs as Obj[]) ?? [];
  if (ips.length === 0) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of ips) w.write(1, `IP:\t${ip.ip}\n`);
  }
  const ctl = printController(pod);
  if (ctl) w.write(0, `Controlled By:\t${ctl}\n`);
  if (st.nominatedNodeName) w.write(0, `NominatedNodeName:\t${st.nominatedNodeName}\n`);
  if ((spec.initContainers ?? []).length > 0) describeContainers('Init Containers', spec.initContainers, st.initContainerStatuses ?? [], pod, w, '');
  describeContainers('Containers', spec.containers, st.containerStatuses ?? [], pod, w, '');
  if ((spec.ephemeralContainers ?? []).length > 0) describeContainers('Ephemeral Containers', spec.ephemeralContainers, st.ephemeralContainerStatuses ?? [], pod, w, '');
  const gates = (spec.readinessGates as Obj[]) ?? [];
  if (gates.length > 0) {
    w.write(0, 'Readiness Gates:\n  Type\tStatus\n');
    for (const g of gates) {
      const c = ((st.conditions as Obj[]) ?? []).find((x) => x.type === g.conditionType);
      w.write(1, `${g.conditionType} \t${c ? c.status : '<none>'} \n`);
    }
  }
  const conds = (st.conditions as Obj[]) ?? [];
  if (conds.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of conds) w.write(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(spec.volumes, w, '');
  w.write(0, `QoS Class:\t${podQos(pod)}\n`);
  printLabelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
  printTolerationsMultiline(w, 'Tolerations', spec.tolerations);
  describeTopologySpreadConstraints(spec.topologySpreadConstraints, w, '');
  describeEvents(events, w, now);
  return w.done();
}

/** deploymentutil.EqualIgnoreHash: templates equal once pod-template-hash is dropped. */
function equalIgnoreHash(a: Obj | undefined, b: Obj | undefined): boolean {
  const strip = (t: Obj | undefined) => {
    const c = JSON.parse(JSON.stringify(t ?? {})) as Obj;
    if (c.metadata?.labels) {
      delete c.metadata.labels['pod-template-hash'];
      if (Object.keys(c.metadata.labels).length === 0) delete c.metadata.labels;
    }
    return c;
  };
  return canonical(strip(a)) === canonical(strip(b));
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Obj;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined && o[k] !== null && !(typeof o[k] === 'object' && !Array.isArray(o[k]) && Object.keys(o[k]).length === 0))
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function replicaSetsByLabels(rss: Obj[]): string {
  const s = rss.map((rs) => `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`).join(', ');
  return s === '' ? '<none>' : s;
}

async function describeDeployment(d: DescribeDeps, dep: Obj, events: Obj[] | null): Promise<string> {
  const w = new PrefixWriter();
  const spec = dep.spec ?? {};
  const st = dep.status ?? {};
  const selector = selectorString(spec.selector);
  w.write(0, `Name:\t${dep.metadata.name}\n`);
  w.write(0, `Namespace:\t${dep.metadata.namespace}\n`);
  w.write(0, `CreationTimestamp:\t${timeRfc1123z(dep.metadata.creationTimestamp)}\n`);
  printLabelsMultiline(w, 'Labels', dep.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', dep.metadata.annotations);
  w.write(0, `Selector:\t${selector}\n`);
  w.write(0, `Replicas:\t${spec.replicas ?? 1} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`);
  w.write(0, `StrategyType:\t${spec.strategy?.type ?? ''}\n`);
  w.write(0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
  const ru = spec.strategy?.rollingUpdate;
  if (ru) w.write(0, `RollingUpdateStrategy:\t${intOrString(ru.maxUnavailable)} max unavailable, ${intOrString(ru.maxSurge)} max surge\n`);
  describePodTemplate(spec.template, w);
  const conds = (st.conditions as Obj[]) ?? [];
  if (conds.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of conds) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  const rsList = await list(d, resourcePath({ group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, singular: 'replicaset' }, dep.metadata.namespace), selector ? { labelSelector: selector } : {});
  const ownedRs = rsList ? rsList.filter((rs) => controllerOf(rs)?.uid === dep.metadata.uid) : [];
  // Real kubectl prints these two lines only once the deployment owns a ReplicaSet (checked against v1.32).
  if (rsList && ownedRs.length > 0) {
    const owned = ownedRs;
    const byAge = [...owned].sort((a, b) => (parseTime(a.metadata.creationTimestamp) ?? 0) - (parseTime(b.metadata.creationTimestamp) ?? 0) || (a.metadata.name < b.metadata.name ? -1 : 1));
    const newRS = byAge.find((rs) => equalIgnoreHash(rs.spec?.template, spec.template));
    // GetAllReplicaSets' allOldRSs, in the creation order FindNewReplicaSet sorted the list into.
    const old = byAge.filter((rs) => rs !== newRS);
    w.write(0, `OldReplicaSets:\t${replicaSetsByLabels(old)}\n`);
    w.write(0, `NewReplicaSet:\t${replicaSetsByLabels(newRS ? [newRS] : [])}\n`);
  }
  describeEvents(events, w, d.now);
  return w.done();
}

/** getPodStatusByLabelSelector: phases of the pods the selector matches (only those `uid` controls, when given). */
export async function podStatusCounts(d: DescribeDeps, ns: string, selector: Obj | undefined, uid: string | null): Promise<[number, number, number, number] | string> {
  const pods = await d.client.tryJson<Obj>('GET', `/api/v1/namespaces/${ns}/pods`, { query: { labelSelector: selectorString(selector), limit: String(d.chunkSize) } });
  if (!pods.ok) return pods.status.message ?? '';
  let running = 0;
  let waiting = 0;
  let succeeded = 0;
  let failed = 0;
  for (const p of (pods.value.items as Obj[]) ?? []) {
    if (uid !== null && controllerOf(p)?.uid !== uid) continue;
    switch (p.status?.phase) {
      case 'Running':
        running++;
        break;
      case 'Pending':
        waiting++;
        break;
      case 'Succeeded':
        succeeded++;
        break;
      case 'Failed':
        failed++;
        break;
    }
  }
  return [running, waiting, succeeded, failed];
}

/** describeReplicationController: a ReplicaSet's layout with a map selector and no Controlled By. */
async function describeReplicationController(d: DescribeDeps, rc: Obj, events: Obj[] | null): Promise<string> {
  const counts = await podStatusCounts(d, rc.metadata.namespace, { matchLabels: rc.spec?.selector ?? {} }, rc.metadata.uid);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${rc.metadata.name}\n`);
  w.write(0, `Namespace:\t${rc.metadata.namespace}\n`);
  w.write(0, `Selector:\t${formatLabelsPlain(rc.spec?.selector)}\n`);
  printLabelsMultiline(w, 'Labels', rc.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', rc.metadata.annotations);
  return describeReplicasTail(d, w, rc, counts, events);
}

async function describeReplicaSet(d: DescribeDeps, rs: Obj, events: Obj[] | null): Promise<string> {
  const counts = await podStatusCounts(d, rs.metadata.namespace, rs.spec?.selector, rs.metadata.uid);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${rs.metadata.name}\n`);
  w.write(0, `Namespace:\t${rs.metadata.namespace}\n`);
  w.write(0, `Selector:\t${formatLabelSelector(rs.spec?.selector)}\n`);
  printLabelsMultiline(w, 'Labels', rs.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
  const ctl = printController(rs);
  if (ctl) w.write(0, `Controlled By:\t${ctl}\n`);
  return describeReplicasTail(d, w, rs, counts, events);
}

/** What a ReplicaSet's and a ReplicationController's descriptions share after their selector and labels: replicas, pods, template, conditions, events. */
function describeReplicasTail(d: DescribeDeps, w: PrefixWriter, o: Obj, counts: Awaited<ReturnType<typeof podStatusCounts>>, events: Obj[] | null): string {
  w.write(0, `Replicas:\t${o.status?.replicas ?? 0} current / ${o.spec?.replicas ?? 1} desired\n`);
  w.write(0, 'Pods Status:\t');
  if (typeof counts === 'string') w.write(0, `error in fetching pods: ${counts}\n`);
  else w.write(0, `${counts[0]} Running / ${counts[1]} Waiting / ${counts[2]} Succeeded / ${counts[3]} Failed\n`);
  describePodTemplate(o.spec?.template, w);
  const conds = (o.status?.conditions as Obj[]) ?? [];
  if (conds.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of conds) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  describeEvents(events, w, d.now);
  return w.done();
}

function formatEndpointSlices(slices: Obj[], portName: string): string {
  if (slices.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let count = 0;
  for (const s of slices) {
    const eps = (s.endpoints as Obj[]) ?? [];
    const ready = eps.filter((e) => e.conditions?.ready === undefined || e.conditions?.ready === null || e.conditions.ready === true);
    const ports = (s.ports as Obj[]) ?? [];
    if (ports.length === 0) {
      for (const e of ready) {
        count++;
        if (list.length < max) list.push(e.addresses?.[0]);
      }
      continue;
    }
    for (const p of ports) {
      if ((p.name ?? '') !== portName) continue;
      for (const e of ready) {
        count++;
        const a = String(e.addresses?.[0] ?? '');
        if (list.length < max) list.push(a.includes(':') ? `[${a}]:${p.port}` : `${a}:${p.port}`);
      }
    }
  }
  const ret = list.join(',');
  return count > max ? `${ret} + ${count - max} more...` : ret;
}

async function describeService(d: DescribeDeps, svc: Obj, events: Obj[] | null): Promise<string> {
  const sl = await d.client.tryJson<Obj>('GET', `/apis/discovery.k8s.io/v1/namespaces/${svc.metadata.namespace}/endpointslices`, { query: { labelSelector: `kubernetes.io/service-name=${svc.metadata.name}` } });
  const slices = sl.ok ? ((sl.value.items as Obj[]) ?? []) : [];
  const spec = svc.spec ?? {};
  const w = new PrefixWriter();
  w.write(0, `Name:\t${svc.metadata.name}\n`);
  w.write(0, `Namespace:\t${svc.metadata.namespace}\n`);
  printLabelsMultiline(w, 'Labels', svc.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
  w.write(0, `Selector:\t${formatLabelsPlain(spec.selector)}\n`);
  w.write(0, `Type:\t${spec.type ?? ''}\n`);
  if (spec.ipFamilyPolicy) w.write(0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
  w.write(0, `IP Families:\t${(spec.ipFamilies ?? []).length > 0 ? spec.ipFamilies.join(',') : '<none>'}\n`);
  w.write(0, `IP:\t${spec.clusterIP ?? ''}\n`);
  w.write(0, `IPs:\t${(spec.clusterIPs ?? []).length > 0 ? spec.clusterIPs.join(',') : '<none>'}\n`);
  if ((spec.externalIPs ?? []).length > 0) w.write(0, `External IPs:\t${spec.externalIPs.join(',')}\n`);
  if (spec.loadBalancerIP) w.write(0, `Desired LoadBalancer IP:\t${spec.loadBalancerIP}\n`);
  const ingress = (svc.status?.loadBalancer?.ingress as Obj[]) ?? [];
  if (ingress.length > 0) w.write(0, `LoadBalancer Ingress:\t${ingress.map((i) => i.ip || i.hostname).join(', ')}\n`);
  if (spec.externalName) w.write(0, `External Name:\t${spec.externalName}\n`);
  for (const sp of (spec.ports as Obj[]) ?? []) {
    const name = sp.name || '<unset>';
    w.write(0, `Port:\t${name}\t${sp.port}/${sp.protocol ?? 'TCP'}\n`);
    w.write(0, `TargetPort:\t${intOrString(sp.targetPort ?? sp.port)}/${sp.protocol ?? 'TCP'}\n`);
    if (sp.nodePort) w.write(0, `NodePort:\t${name}\t${sp.nodePort}/${sp.protocol ?? 'TCP'}\n`);
    w.write(0, `Endpoints:\t${formatEndpointSlices(slices, sp.name ?? '')}\n`);
  }
  w.write(0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
  if (spec.externalTrafficPolicy) w.write(0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
  if (spec.internalTrafficPolicy) w.write(0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
  if (spec.healthCheckNodePort) w.write(0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
  if ((spec.loadBalancerSourceRanges ?? []).length > 0) w.write(0, `LoadBalancer Source Ranges:\t${spec.loadBalancerSourceRanges.join(',')}\n`);
  describeEvents(events, w, d.now);
  return w.done();
}

/** IngressDescriber.describeBackendV1: "svc:port (endpoints)", or the resource backend. */
async function describeIngressBackend(d: DescribeDeps, ns: string, backend: Obj): Promise<string> {
  if (backend.service) {
    const svcName = String(backend.service.name ?? '');
    const num = Number(backend.service.port?.number ?? 0);
    const sb = `${svcName}:${num !== 0 ? num : (backend.service.port?.name ?? '')}`;
    const sl = await d.client.tryJson<Obj>('GET', `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, { query: { labelSelector: `kubernetes.io/service-name=${svcName}` } });
    if (!sl.ok) return `${sb} (<error: ${sl.status.message ?? ''}>)`;
    const svc = await d.client.tryJson<Obj>('GET', `/api/v1/namespaces/${ns}/services/${svcName}`);
    if (!svc.ok) return `${sb} (<error: ${svc.status.message ?? ''}>)`;
    let spName = '';
    for (const sp of (svc.value.spec?.ports as Obj[]) ?? []) {
      if (num !== 0 && num === sp.port) spName = sp.name ?? '';
      else if (backend.service.port?.name && backend.service.port.name === sp.name) spName = sp.name ?? '';
    }
    return `${sb} (${formatEndpointSlices((sl.value.items as Obj[]) ?? [], spName)})`;
  }
  if (backend.resource) return `APIGroup: ${backend.resource.apiGroup ?? '<none>'}, Kind: ${backend.resource.kind ?? ''}, Name: ${backend.resource.name ?? ''}`;
  return '';
}

function describeIngressClass(ic: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ic.metadata?.name ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', ic.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', ic.metadata?.annotations);
  w.write(0, `Controller:\t${ic.spec?.controller ?? ''}\n`);
  const p = ic.spec?.parameters;
  if (p) {
    w.write(0, 'Parameters:\n');
    if (p.apiGroup !== undefined && p.apiGroup !== null) w.write(1, `APIGroup:\t${p.apiGroup}\n`);
    w.write(1, `Kind:\t${p.kind ?? ''}\n`);
    w.write(1, `Name:\t${p.name ?? ''}\n`);
  }
  describeEvents(events, w, now);
  return w.done();
}

async function describeIngress(d: DescribeDeps, ing: Obj, events: Obj[] | null): Promise<string> {
  const ns = ing.metadata?.namespace ?? '';
  const spec: Obj = ing.spec ?? {};
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ing.metadata?.name ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', ing.metadata?.labels);
  w.write(0, `Namespace:\t${ns}\n`);
  // ingressLoadBalancerStatusStringerV1 (wide): the IPs or hostnames, comma-joined.
  const address = ((ing.status?.loadBalancer?.ingress as Obj[]) ?? []).map((i) => i.ip || i.hostname || '').filter((a) => a !== '').join(',');
  w.write(0, `Address:\t${address}\n`);
  w.write(0, `Ingress Class:\t${spec.ingressClassName ?? '<none>'}\n`);
  const def = spec.defaultBackend ? await describeIngressBackend(d, ns, spec.defaultBackend) : '<default>';
  w.write(0, `Default backend:\t${def}\n`);
  const tls = (spec.tls as Obj[]) ?? [];
  if (tls.length > 0) {
    w.write(0, 'TLS:\n');
    for (const t of tls) w.write(1, t.secretName ? `${t.secretName} terminates ${((t.hosts as string[]) ?? []).join(',')}\n` : `SNI routes ${((t.hosts as string[]) ?? []).join(',')}\n`);
  }
  w.write(0, 'Rules:\n  Host\tPath\tBackends\n');
  w.write(1, '----\t----\t--------\n');
  let count = 0;
  for (const rule of (spec.rules as Obj[]) ?? []) {
    if (!rule.http) continue;
    count++;
    w.write(1, `${rule.host || '*'}\t\n`);
    for (const path of (rule.http.paths as Obj[]) ?? []) w.write(2, `\t${path.path ?? ''} \t${await describeIngressBackend(d, ns, path.backend ?? {})}\n`);
  }
  if (count === 0) w.write(1, `*\t*\t${def}\n`);
  printAnnotationsMultiline(w, 'Annotations', ing.metadata?.annotations);
  describeEvents(events, w, d.now);
  return w.done();
}

function nodeRoles(node: Obj): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries((node.metadata.labels as Record<string, string>) ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const r = k.slice('node-role.kubernetes.io/'.length);
      if (r) roles.add(r);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return [...roles].sort();
}

async function describeNode(d: DescribeDeps, node: Obj, showEvents: boolean): Promise<string> {
  const name = node.metadata.name;
  const pods = await d.client.tryJson<Obj>('GET', '/api/v1/pods', { query: { fieldSelector: `spec.nodeName=${name},status.phase!=Succeeded,status.phase!=Failed`, limit: String(d.chunkSize) } });
  let events: Obj[] | null = null;
  if (showEvents) {
    const a = (await searchEvents(d, node)) ?? [];
    const b = (await searchEvents(d, node, true, name)) ?? [];
    events = [...a, ...b];
  }
  const lease = await d.client.tryJson<Obj>('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`);
  const w = new PrefixWriter();
  const spec = node.spec ?? {};
  const st = node.status ?? {};
  w.write(0, `Name:\t${name}\n`);
  const roles = nodeRoles(node);
  w.write(0, `Roles:\t${roles.length > 0 ? roles.join(',') : '<none>'}\n`);
  printLabelsMultiline(w, 'Labels', node.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', node.metadata.annotations);
  w.write(0, `CreationTimestamp:\t${timeRfc1123z(node.metadata.creationTimestamp)}\n`);
  printTaintsMultiline(w, 'Taints', spec.taints);
  w.write(0, `Unschedulable:\t${spec.unschedulable === true}\n`);
  if (!lease.ok) w.write(0, `Lease:\tFailed to get lease: ${lease.status.message ?? ''}\n`);
  else {
    const ls = lease.value.spec ?? {};
    w.write(0, 'Lease:\n');
    w.write(1, `HolderIdentity:\t${ls.holderIdentity ?? '<unset>'}\n`);
    w.write(1, `AcquireTime:\t${ls.acquireTime ? timeRfc1123z(ls.acquireTime) : '<unset>'}\n`);
    w.write(1, `RenewTime:\t${ls.renewTime ? timeRfc1123z(ls.renewTime) : '<unset>'}\n`);
  }
  const conds = (st.conditions as Obj[]) ?? [];
  if (conds.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conds) w.write(1, `${c.type} \t${c.status} \t${timeRfc1123z(c.lastHeartbeatTime)} \t${timeRfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
  }
  w.write(0, 'Addresses:\n');
  for (const a of (st.addresses as Obj[]) ?? []) w.write(1, `${a.type}:\t${a.address}\n`);
  const printRL = (rl: Record<string, string>) => {
    for (const r of Object.keys(rl).sort()) w.write(0, `  ${r}:\t${formatQuantity(rl[r]!)}\n`);
  };
  if (Object.keys(st.capacity ?? {}).length > 0) {
    w.write(0, 'Capacity:\n');
    printRL(st.capacity);
  }
  if (Object.keys(st.allocatable ?? {}).length > 0) {
    w.write(0, 'Allocatable:\n');
    printRL(st.allocatable);
  }
  const ni = st.nodeInfo ?? {};
  w.write(0, 'System Info:\n');
  w.write(0, `  Machine ID:\t${ni.machineID ?? ''}\n`);
  w.write(0, `  System UUID:\t${ni.systemUUID ?? ''}\n`);
  w.write(0, `  Boot ID:\t${ni.bootID ?? ''}\n`);
  w.write(0, `  Kernel Version:\t${ni.kernelVersion ?? ''}\n`);
  w.write(0, `  OS Image:\t${ni.osImage ?? ''}\n`);
  w.write(0, `  Operating System:\t${ni.operatingSystem ?? ''}\n`);
  w.write(0, `  Architecture:\t${ni.architecture ?? ''}\n`);
  w.write(0, `  Container Runtime Version:\t${ni.containerRuntimeVersion ?? ''}\n`);
  w.write(0, `  Kubelet Version:\t${ni.kubeletVersion ?? ''}\n`);
  w.write(0, `  Kube-Proxy Version:\t${ni.kubeProxyVersion ?? ''}\n`);
  if (spec.podCIDR) w.write(0, `PodCIDR:\t${spec.podCIDR}\n`);
  if ((spec.podCIDRs ?? []).length > 0) w.write(0, `PodCIDRs:\t${spec.podCIDRs.join(',')}\n`);
  if (spec.providerID) w.write(0, `ProviderID:\t${spec.providerID}\n`);
  if (pods.ok) describeNodeResource((pods.value.items as Obj[]) ?? [], node, w, d.now);
  else w.write(0, 'Pods:\tnot authorized\n');
  describeEvents(events, w, d.now);
  return w.done();
}

function podRequestsAndLimits(pod: Obj): { req: Record<string, string[]>; lim: Record<string, string[]> } {
  const req: Record<string, string[]> = {};
  const lim: Record<string, string[]> = {};
  for (const c of (pod.spec?.containers as Obj[]) ?? []) {
    for (const [k, v] of Object.entries((c.resources?.requests as Record<string, string>) ?? {})) (req[k] ??= []).push(String(v));
    for (const [k, v] of Object.entries((c.resources?.limits as Record<string, string>) ?? {})) (lim[k] ??= []).push(String(v));
  }
  // requests default to limits when unset
  for (const [k, v] of Object.entries(lim)) if (!req[k]) req[k] = [...v];
  return { req, lim };
}

function pct(q: string | undefined, total: string | undefined): number {
  const a = parseQuantity(q ?? '0') ?? 0;
  const b = parseQuantity(total ?? '0') ?? 0;
  if (b === 0) return 0;
  return Math.trunc((a / b) * 100);
}

function describeNodeResource(pods: Obj[], node: Obj, w: PrefixWriter, now: number): void {
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const alloc: Record<string, string> = Object.keys(node.status?.allocatable ?? {}).length > 0 ? node.status.allocatable : (node.status?.capacity ?? {});
  const totals = { req: {} as Record<string, string[]>, lim: {} as Record<string, string[]> };
  for (const p of pods) {
    const { req, lim } = podRequestsAndLimits(p);
    const sum = (m: Record<string, string[]>, k: string) => addQuantities(m[k] ?? [], k === 'cpu' ? 'DecimalSI' : 'BinarySI');
    const cr = sum(req, 'cpu');
    const cl = sum(lim, 'cpu');
    const mr = sum(req, 'memory');
    const ml = sum(lim, 'memory');
    w.write(1, `${p.metadata.namespace}\t${p.metadata.name}\t\t${cr} (${pct(cr, alloc.cpu)}%)\t${cl} (${pct(cl, alloc.cpu)}%)\t${mr} (${pct(mr, alloc.memory)}%)\t${ml} (${pct(ml, alloc.memory)}%)\t${timestampSince(p.metadata.creationTimestamp, now)}\n`);
    for (const [k, v] of Object.entries(req)) (totals.req[k] ??= []).push(...v);
    for (const [k, v] of Object.entries(lim)) (totals.lim[k] ??= []).push(...v);
  }
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const fmt = r === 'cpu' ? 'DecimalSI' : 'BinarySI';
    const rq = addQuantities(totals.req[r] ?? [], fmt);
    const lm = addQuantities(totals.lim[r] ?? [], fmt);
    w.write(1, `${r}\t${rq} (${pct(rq, alloc[r])}%)\t${lm} (${pct(lm, alloc[r])}%)\n`);
  }
  const ext = Object.keys(alloc)
    .filter((r) => !['cpu', 'memory', 'ephemeral-storage', 'storage', 'pods'].includes(r) && !r.startsWith('hugepages-'))
    .sort();
  for (const r of Object.keys(alloc).filter((x) => x.startsWith('hugepages-')).sort()) {
    const rq = addQuantities(totals.req[r] ?? [], 'BinarySI');
    const lm = addQuantities(totals.lim[r] ?? [], 'BinarySI');
    w.write(1, `${r}\t${rq} (${pct(rq, alloc[r])}%)\t${lm} (${pct(lm, alloc[r])}%)\n`);
  }
  for (const r of ext) w.write(1, `${r}\t${addQuantities(totals.req[r] ?? [], 'DecimalSI')}\t${addQuantities(totals.lim[r] ?? [], 'DecimalSI')}\n`);
}

async function describeNamespace(d: DescribeDeps, ns: Obj): Promise<string> {
  const name = ns.metadata.name;
  const quotas = await list(d, `/api/v1/namespaces/${name}/resourcequotas`, {});
  const limits = await list(d, `/api/v1/namespaces/${name}/limitranges`, {});
  const w = new PrefixWriter();
  w.write(0, `Name:\t${name}\n`);
  printLabelsMultiline(w, 'Labels', ns.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', ns.metadata.annotations);
  w.write(0, `Status:\t${ns.status?.phase ?? ''}\n`);
  const conds = (ns.status?.conditions as Obj[]) ?? [];
  if (conds.length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of conds) w.write(1, `${c.type}\t${c.status}\t${timeRfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  if (quotas) {
    w.write(0, '\n');
    if (quotas.length === 0) w.write(0, 'No resource quota.\n');
    else {
      // DescribeResourceQuotas: one header, the quotas by name.
      w.write(0, 'Resource Quotas\n');
      for (const q of [...quotas].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))) {
        w.write(1, `Name:\t${q.metadata.name}\n`);
        w.write(1, 'Resource\tUsed\tHard\n');
        w.write(1, '--------\t---\t---\n');
        for (const r of Object.keys(q.status?.hard ?? q.spec?.hard ?? {}).sort()) w.write(1, `${r}\t${formatQuantity(q.status?.used?.[r] ?? '0')}\t${formatQuantity((q.status?.hard ?? q.spec?.hard)[r])}\n`);
      }
    }
  }
  if (limits) {
    w.write(0, '\n');
    if (limits.length === 0) w.write(0, 'No LimitRange resource.\n');
    else {
      // DescribeLimitRanges: one table for all of them, indented by one space.
      w.write(0, 'Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
      w.write(0, ' ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
      for (const l of limits) limitRangeRows(l, ' ', w);
    }
  }
  return w.done();
}

/**
 * describeLimitRangeSpec's rows. Go ranges over a set of resource names (a
 * map), so with several resources in one item their order varies run to run;
 * sorted is our stable choice.
 */
function limitRangeRows(l: Obj, prefix: string, w: PrefixWriter): void {
  for (const item of (l.spec?.limits as Obj[]) ?? []) {
    const names = new Set<string>([...Object.keys(item.max ?? {}), ...Object.keys(item.min ?? {}), ...Object.keys(item.default ?? {}), ...Object.keys(item.defaultRequest ?? {}), ...Object.keys(item.maxLimitRequestRatio ?? {})]);
    for (const r of [...names].sort()) {
      const g = (m: Obj | undefined) => (m?.[r] !== undefined ? formatQuantity(m[r]) : '-');
      w.write(0, `${prefix}${item.type}\t${r}\t${g(item.min)}\t${g(item.max)}\t${g(item.defaultRequest)}\t${g(item.default)}\t${g(item.maxLimitRequestRatio)}\n`);
    }
  }
}

/** describeLimitRange: no labels, no events. */
function describeLimitRange(l: Obj): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${l.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${l.metadata?.namespace ?? ''}\n`);
  w.write(0, 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
  w.write(0, '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
  limitRangeRows(l, '', w);
  return w.done();
}

function describeConfigMap(cm: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${cm.metadata.name}\n`);
  w.write(0, `Namespace:\t${cm.metadata.namespace}\n`);
  printLabelsMultiline(w, 'Labels', cm.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', cm.metadata.annotations);
  w.write(0, '\nData\n====\n');
  // Go ranges over the map in random order; sorted keys are our stable choice.
  for (const k of Object.keys(cm.data ?? {}).sort()) {
    w.write(0, `${k}:\n----\n`);
    w.write(0, `${cm.data[k]}\n`);
    w.write(0, '\n');
  }
  w.write(0, '\nBinaryData\n====\n');
  for (const k of Object.keys(cm.binaryData ?? {}).sort()) w.write(0, `${k}: ${base64Length(cm.binaryData[k])} bytes\n`);
  w.write(0, '\n');
  describeEvents(events, w, now);
  return w.done();
}

function base64Length(s: string): number {
  const clean = String(s).replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

function describeSecret(s: Obj): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${s.metadata.name}\n`);
  w.write(0, `Namespace:\t${s.metadata.namespace}\n`);
  printLabelsMultiline(w, 'Labels', s.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', s.metadata.annotations);
  w.write(0, `\nType:\t${s.type ?? ''}\n`);
  w.write(0, '\nData\n====\n');
  for (const k of Object.keys(s.data ?? {}).sort()) {
    if (k === 'token' && s.type === 'kubernetes.io/service-account-token') w.write(0, `${k}:\t${atobSafe(s.data[k])}\n`);
    else w.write(0, `${k}:\t${base64Length(s.data[k])} bytes\n`);
  }
  return w.done();
}

function atobSafe(s: string): string {
  try {
    return atob(s);
  } catch {
    return '';
  }
}

async function describeServiceAccount(d: DescribeDeps, sa: Obj, events: Obj[] | null): Promise<string> {
  const secrets = (await list(d, `/api/v1/namespaces/${sa.metadata.namespace}/secrets`, {})) ?? [];
  const tokens = secrets.filter((s) => s.type === 'kubernetes.io/service-account-token' && s.metadata.annotations?.['kubernetes.io/service-account.name'] === sa.metadata.name);
  const existing = new Set(secrets.map((s) => s.metadata.name));
  const w = new PrefixWriter();
  w.write(0, `Name:\t${sa.metadata.name}\n`);
  w.write(0, `Namespace:\t${sa.metadata.namespace}\n`);
  printLabelsMultiline(w, 'Labels', sa.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', sa.metadata.annotations);
  const empty = '                   ';
  const groups: [string, string[]][] = [
    ['Image pull secrets:', ((sa.imagePullSecrets as Obj[]) ?? []).map((s) => s.name)],
    ['Mountable secrets: ', ((sa.secrets as Obj[]) ?? []).map((s) => s.name)],
    ['Tokens:            ', tokens.map((s) => s.metadata.name)],
  ];
  for (const [header, names] of groups) {
    if (names.length === 0) {
      w.write(0, `${header}\t<none>\n`);
      continue;
    }
    let prefix = header;
    for (const n of names) {
      w.write(0, `${prefix}\t${n}${existing.has(n) || header.startsWith('Image') ? '' : ' (not found)'}\n`);
      prefix = empty;
    }
  }
  describeEvents(events, w, d.now);
  return w.done();
}

async function describeJob(d: DescribeDeps, job: Obj, events: Obj[] | null): Promise<string> {
  const spec = job.spec ?? {};
  const st = job.status ?? {};
  const w = new PrefixWriter();
  w.write(0, `Name:\t${job.metadata.name}\n`);
  w.write(0, `Namespace:\t${job.metadata.namespace}\n`);
  w.write(0, `Selector:\t${formatLabelSelector(spec.selector)}\n`);
  printLabelsMultiline(w, 'Labels', job.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', job.metadata.annotations);
  const ctl = printController(job);
  if (ctl) w.write(0, `Controlled By:\t${ctl}\n`);
  if (spec.parallelism !== undefined) w.write(0, `Parallelism:\t${spec.parallelism}\n`);
  if (spec.completions !== undefined && spec.completions !== null) w.write(0, `Completions:\t${spec.completions}\n`);
  else w.write(0, 'Completions:\t<unset>\n');
  if (spec.completionMode) w.write(0, `Completion Mode:\t${spec.completionMode}\n`);
  if (spec.suspend !== undefined) w.write(0, `Suspend:\t${spec.suspend}\n`);
  if (spec.backoffLimit !== undefined) w.write(0, `Backoff Limit:\t${spec.backoffLimit}\n`);
  if (spec.ttlSecondsAfterFinished !== undefined) w.write(0, `TTL Seconds After Finished:\t${spec.ttlSecondsAfterFinished}\n`);
  if (st.startTime) w.write(0, `Start Time:\t${timeRfc1123z(st.startTime)}\n`);
  if (st.completionTime) {
    w.write(0, `Completed At:\t${timeRfc1123z(st.completionTime)}\n`);
    w.write(0, `Duration:\t${humanDuration((parseTime(st.completionTime) ?? 0) - (parseTime(st.startTime) ?? 0))}\n`);
  }
  if (spec.activeDeadlineSeconds) w.write(0, `Active Deadline Seconds:\t${spec.activeDeadlineSeconds}s\n`);
  if (st.ready === undefined || st.ready === null) w.write(0, `Pods Statuses:\t${st.active ?? 0} Active / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
  else w.write(0, `Pods Statuses:\t${st.active ?? 0} Active (${st.ready} Ready) / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
  if (spec.completionMode === 'Indexed') w.write(0, `Completed Indexes:\t${capIndexes(st.completedIndexes ?? '', 50)}\n`);
  describePodTemplate(spec.template, w);
  describeEvents(events, w, d.now);
  return w.done();
}

/** capIndexesListOrNone: past ~50 characters the list ends at the next comma, with "...". */
export function capIndexes(indexes: string, softLimit: number): string {
  if (indexes.length === 0) return '<none>';
  let ix = softLimit;
  while (ix < indexes.length && indexes[ix] !== ',') ix++;
  return ix >= indexes.length ? indexes : `${indexes.slice(0, ix + 1)}...`;
}

// ---------- generic

const ACRONYMS = ['API', 'URL', 'UID', 'OSB', 'GUID'];

/** fatih/camelcase.Split. */
function camelSplit(src: string): string[] {
  const runs: string[][] = [];
  let last = 0;
  for (const r of src) {
    const cls = /\p{Ll}/u.test(r) ? 1 : /\p{Lu}/u.test(r) ? 2 : /\p{Nd}/u.test(r) ? 3 : 4;
    if (cls === last) runs[runs.length - 1]!.push(r);
    else runs.push([r]);
    last = cls;
  }
  for (let i = 0; i < runs.length - 1; i++) {
    if (/\p{Lu}/u.test(runs[i]![0]!) && /\p{Ll}/u.test(runs[i + 1]![0]!)) {
      runs[i + 1]!.unshift(runs[i]!.pop()!);
    }
  }
  return runs.filter((r) => r.length > 0).map((r) => r.join(''));
}

/** smartLabelFor: `apiVersion` → `API Version`. */
export function smartLabelFor(field: string): string {
  if (/[^\p{L}-]/u.test(field)) return field;
  return camelSplit(field)
    .filter((p) => p !== '_')
    .map((p) => (ACRONYMS.includes(p.toUpperCase()) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1)))
    .join(' ');
}

function printUnstructured(w: PrefixWriter, level: number, content: Obj, skipPrefix: string, skip: string[]): void {
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const expr = `${skipPrefix}.${field}`;
    if (skip.includes(expr)) continue;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      printUnstructured(w, level + 1, value as Obj, expr, skip);
    } else if (Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      for (const child of value) {
        if (child && typeof child === 'object' && !Array.isArray(child)) printUnstructured(w, level + 1, child as Obj, expr, skip);
        else w.write(level + 1, `${goFmtV(child)}\n`);
      }
    } else w.write(level, `${smartLabelFor(field)}:\t${goFmtV(value)}\n`);
  }
}

function describeGeneric(obj: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${obj.metadata?.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  printUnstructured(w, 0, obj, '', ['.metadata.managedFields', '.metadata.name', '.metadata.namespace', '.metadata.labels', '.metadata.annotations']);
  describeEvents(events, w, now);
  return w.done();
}

/** Describes one object fetched from the server (the describer fetches it again, as kubectl does). */
export async function describeObject(d: DescribeDeps, m: Mapping, namespace: string | undefined, name: string): Promise<{ ok: true; text: string } | { ok: false; status: import('../../apimachinery/types').Status }> {
  const r = await d.client.tryJson<Obj>('GET', resourcePath(m, namespace, name));
  if (!r.ok) return r;
  const obj = r.value;
  obj.apiVersion ??= m.group ? `${m.group}/${m.version}` : m.version;
  obj.kind ??= m.kind;
  const ev = async (withKind = true) => (d.showEvents ? await searchEvents(d, obj, withKind) : null);
  const gk = `${m.group}/${m.kind}`;
  let text: string;
  switch (gk) {
    case '/Pod':
      text = describePod(obj, await ev(false), d.now);
      break;
    case 'apps/Deployment': {
      const events = await ev();
      text = await describeDeployment(d, obj, events);
      break;
    }
    case 'apps/ReplicaSet':
      text = await describeReplicaSet(d, obj, await ev());
      break;
    case '/Service': {
      const events = await ev();
      text = await describeService(d, obj, events);
      break;
    }
    case '/Node':
      text = await describeNode(d, obj, d.showEvents);
      break;
    case '/Namespace':
      text = await describeNamespace(d, obj);
      break;
    case '/ConfigMap':
      text = describeConfigMap(obj, await ev(), d.now);
      break;
    case '/Secret':
      text = describeSecret(obj);
      break;
    case '/ServiceAccount': {
      const events = await ev();
      text = await describeServiceAccount(d, obj, events);
      break;
    }
    case 'batch/Job':
      text = await describeJob(d, obj, await ev());
      break;
    case 'apps/StatefulSet':
      text = await describeStatefulSet(d, obj, await ev());
      break;
    case 'apps/DaemonSet':
      text = await describeDaemonSet(d, obj, await ev());
      break;
    case 'batch/CronJob':
      text = describeCronJob(obj, await ev(), d.now);
      break;
    case 'autoscaling/HorizontalPodAutoscaler':
      text = describeHorizontalPodAutoscaler(obj, await ev(), d.now);
      break;
    case '/PersistentVolumeClaim': {
      const events = await ev();
      const pods = (await list(d, `/api/v1/namespaces/${obj.metadata?.namespace ?? ''}/pods`, {})) ?? [];
      text = describePersistentVolumeClaim(obj, events, podsUsingClaim(obj, pods), d.now);
      break;
    }
    case '/PersistentVolume':
      text = describePersistentVolume(obj, await ev(), d.now);
      break;
    case 'networking.k8s.io/NetworkPolicy':
      text = describeNetworkPolicy(obj);
      break;
    case 'networking.k8s.io/Ingress':
      text = await describeIngress(d, obj, await ev());
      break;
    case '/ReplicationController':
      text = await describeReplicationController(d, obj, await ev());
      break;
    case 'networking.k8s.io/IngressClass':
      text = describeIngressClass(obj, await ev(), d.now);
      break;
    case '/LimitRange':
      text = describeLimitRange(obj);
      break;
    case '/ResourceQuota':
      text = describeResourceQuota(obj);
      break;
    case '/Endpoints':
      text = describeEndpoints(obj, await ev(), d.now);
      break;
    case 'discovery.k8s.io/EndpointSlice':
      text = describeEndpointSlice(obj, await ev(), d.now);
      break;
    case 'rbac.authorization.k8s.io/Role':
    case 'rbac.authorization.k8s.io/ClusterRole':
      text = describeRole(obj);
      break;
    case 'rbac.authorization.k8s.io/RoleBinding':
    case 'rbac.authorization.k8s.io/ClusterRoleBinding':
      text = describeRoleBinding(obj);
      break;
    case 'scheduling.k8s.io/PriorityClass':
      text = describePriorityClass(obj, await ev(), d.now);
      break;
    case 'storage.k8s.io/StorageClass':
      text = describeStorageClass(obj, await ev(), d.now);
      break;
    case 'policy/PodDisruptionBudget':
      text = describePodDisruptionBudget(obj, await ev(), d.now);
      break;
    default:
      text = describeGeneric(obj, await ev(), d.now);
  }
  return { ok: true, text };
}
