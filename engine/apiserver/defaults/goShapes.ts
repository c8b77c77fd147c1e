// What encoding/json makes of the v1.32 Go types, beyond defaulting: a struct
// field is never omitted, even with `omitempty` (`status: {}`, `lastState: {}`,
// a node's `nodeInfo` of empty strings), and a zero metav1.Time struct writes
// `null` (`lastProbeTime: null`). A JSON or strategic-merge patch that sends
// `null` deletes the key from the map, but upstream decodes the result into
// the Go struct and encodes it again, so the field comes back as null. Run
// after the kind's defaulters on every decoded or patched object.
import { arr, child, isObj, type Loose } from './util';

type Obj = Record<string, Loose>;

/** Non-pointer metav1.Time fields: absent reads as null. */
function times(o: Obj, ...keys: string[]): void {
  for (const k of keys) if (o[k] === undefined) o[k] = null;
}

function conditions(status: Obj, ...timeKeys: string[]): void {
  for (const c of arr(status.conditions)) if (isObj(c)) times(c, ...timeKeys);
}

/** ContainerStatus: State and LastState are structs; the states' times are metav1.Time. */
function containerStatus(cs: Obj): void {
  for (const k of ['state', 'lastState']) {
    const s = child(cs, k);
    if (isObj(s.running)) times(s.running, 'startedAt');
    if (isObj(s.terminated)) times(s.terminated, 'startedAt', 'finishedAt');
  }
}

function pod(o: Obj): void {
  const st = child(o, 'status');
  conditions(st, 'lastProbeTime', 'lastTransitionTime');
  for (const k of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses']) for (const cs of arr(st[k])) if (isObj(cs)) containerStatus(cs);
}

/** NodeSystemInfo's fields have no omitempty; DaemonEndpoint.Port neither. */
const NODE_INFO = ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'];

function node(o: Obj): void {
  child(o, 'spec');
  const st = child(o, 'status');
  const ke = child(child(st, 'daemonEndpoints'), 'kubeletEndpoint');
  if (ke.Port === undefined) ke.Port = 0;
  const info = child(st, 'nodeInfo');
  for (const k of NODE_INFO) if (info[k] === undefined) info[k] = '';
  conditions(st, 'lastHeartbeatTime', 'lastTransitionTime');
}

/** Kinds whose Status is a struct, and the metav1.Time fields of their conditions. */
const STATUS_CONDITIONS: Record<string, string[]> = {
  'apps/Deployment': ['lastUpdateTime', 'lastTransitionTime'],
  'apps/ReplicaSet': ['lastTransitionTime'],
  'apps/StatefulSet': ['lastTransitionTime'],
  'apps/DaemonSet': ['lastTransitionTime'],
  'batch/Job': ['lastProbeTime', 'lastTransitionTime'],
  'batch/CronJob': [],
  '/ReplicationController': ['lastTransitionTime'],
  '/PersistentVolumeClaim': ['lastProbeTime', 'lastTransitionTime'],
  '/PersistentVolume': [],
  '/Service': [],
  '/Namespace': [],
};

export function applyGoShapes(gk: string, o: Obj): void {
  if (gk === '/Pod') return pod(o);
  if (gk === '/Node') return node(o);
  const keys = STATUS_CONDITIONS[gk];
  if (keys) conditions(child(o, 'status'), ...keys);
}
