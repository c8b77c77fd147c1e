// Registration and node status (pkg/kubelet/kubelet_node_status.go and the
// setters of pkg/kubelet/nodestatus): registers the Node, then PATCHes its
// status every nodeStatusUpdateFrequency (10 s) when it changed, or every
// nodeStatusReportFrequency (5 min) regardless. Capacity is the machine's;
// allocatable is capacity less system-reserved, kube-reserved (none here) and
// the hard eviction thresholds (memory.available 100Mi, nodefs.available 10 %
// of ephemeral storage), as GetNodeAllocatableReservation computes it. The
// pressure conditions come from the eviction manager; each transition records
// upstream's event ("Node node-1 status is now: NodeHasSufficientMemory").
import type { ActorContext } from '../../sim/kernel';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { formatQuantity, parseQuantity, subQuantity, type Quantity } from '../../apiserver/validation/quantity';
import { apiRequest } from '../client';
import { CONTAINER_RUNTIME_VERSION, KUBELET_VERSION, LEASE_JITTER, LEASE_RENEW_MS, NODE_STATUS_REPORT_MS, NODE_STATUS_UPDATE_MS, type KubeletCapacity } from '../config';
import { recordNodeEvent } from '../events';
import type { Kubelet } from '../kubelet';
import { imageDigest, parseImage } from '../runtime/images';
import { listNode, listPods } from '../podSource';
import { renewLease } from './lease';

/** nodeStatusMaxImages: the node reports its 50 largest images. */
const MAX_IMAGES = 50;

export function register(k: Kubelet, ctx: ActorContext): void {
  const node = initialNode(k, ctx.now);
  if (!k.announced) {
    k.announced = true;
    recordNodeEvent(k, 'Normal', 'Starting', 'Starting kubelet.', ctx.now);
    statusEvents(k, node.status as { conditions: { type: string; status: string }[] }, ctx.now);
    recordNodeEvent(k, 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', ctx.now);
    k.flush(ctx);
  }
  apiRequest(k, ctx, { method: 'POST', path: '/api/v1/nodes', query: {}, body: JSON.stringify(node) }, { kind: 'register' });
}

export function onRegistered(k: Kubelet, ctx: ActorContext): void {
  if (k.registered) return;
  k.registered = true;
  listNode(k, ctx);
  listPods(k, ctx);
  renewLease(k, ctx);
  ctx.setTimer(LEASE_RENEW_MS * (1 + LEASE_JITTER * ctx.rng.float()), 'lease');
  ctx.setTimer(NODE_STATUS_UPDATE_MS, 'nodeStatus');
}

/** initialNode (kubelet_node_status.go) with the status setters' first result. */
export function initialNode(k: Kubelet, now: number): KObject {
  const n = k.nodeName;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: n,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': n,
        'kubernetes.io/os': 'linux',
        ...(k.config.labels ?? {}),
      },
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    // Upstream the node-ipam controller fills podCIDR; the fleet is given one up front.
    spec: { podCIDR: k.config.podCIDR, podCIDRs: [k.config.podCIDR] },
    status: nodeStatus(k, now),
  };
}

function capacityOf(c: KubeletCapacity): Record<string, string> {
  return { cpu: c.cpu, 'ephemeral-storage': c['ephemeral-storage'], 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: c.memory, pods: c.pods };
}

function q(v: string): Quantity {
  const r = parseQuantity(v);
  return r.ok ? r.quantity : { nanos: 0n, format: 'DecimalSI' };
}

/** allocatableOf by capacity: a pure function of the machine, computed on every status sync and pod admission. */
const allocatableMemo = new WeakMap<KubeletCapacity, Readonly<Record<string, string>>>();

/** capacity − (system-reserved + kube-reserved + hard eviction thresholds), per resource (shared: do not change it). */
export function allocatableOf(c: KubeletCapacity): Readonly<Record<string, string>> {
  let a = allocatableMemo.get(c);
  if (!a) allocatableMemo.set(c, (a = Object.freeze(computeAllocatable(c))));
  return a;
}

function computeAllocatable(c: KubeletCapacity): Record<string, string> {
  const cap = capacityOf(c);
  const memory = q(cap.memory!);
  const storage = q(cap['ephemeral-storage']!);
  // nodefs.available<10%: a percentage of capacity, as NewQuantity(int64(float64(value) * 0.1), BinarySI).
  const storageValue = storage.nanos / 1_000_000_000n;
  const storageReserve: Quantity = { nanos: BigInt(Math.trunc(Number(storageValue) * 0.1)) * 1_000_000_000n, format: 'BinarySI' };
  const clamp = (x: Quantity): Quantity => (x.nanos < 0n ? { nanos: 0n, format: x.format } : x);
  return {
    ...cap,
    'ephemeral-storage': formatQuantity(clamp(subQuantity(storage, storageReserve))),
    memory: formatQuantity(clamp(subQuantity(memory, q('100Mi')))),
  };
}

/** The node's status with heartbeats at `now`. */
export function nodeStatus(k: Kubelet, now: number): Record<string, unknown> {
  const stamp = rfc3339(now);
  const cond = (type: string, status: string, reason: string, message: string) => {
    const key = `${type}=${status}`;
    let since = k.transitions.get(type);
    if (!since || !since.startsWith(`${key}@`)) {
      since = `${key}@${stamp}`;
      k.transitions.set(type, since);
    }
    return { type, status, lastHeartbeatTime: stamp, lastTransitionTime: since.slice(key.length + 1), reason, message };
  };
  const images = [...k.runtime.images.values()]
    .sort((a, b) => b.sizeBytes - a.sizeBytes || (a.ref < b.ref ? -1 : 1))
    .slice(0, MAX_IMAGES)
    .map((img) => {
      const ref = parseImage(img.ref);
      return { names: [`${ref.repo}@${imageDigest(ref)}`, ref.full], sizeBytes: img.sizeBytes };
    });
  const pressure = k.eviction.pressure();
  return {
    capacity: capacityOf(k.config.capacity),
    allocatable: allocatableOf(k.config.capacity),
    conditions: [
      pressure.memory
        ? cond('MemoryPressure', 'True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available')
        : cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      pressure.disk ? cond('DiskPressure', 'True', 'KubeletHasDiskPressure', 'kubelet has disk pressure') : cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      pressure.pid
        ? cond('PIDPressure', 'True', 'KubeletHasInsufficientPID', 'kubelet has insufficient PID available')
        : cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [
      { type: 'InternalIP', address: k.config.internalIP },
      { type: 'Hostname', address: k.nodeName },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: k.machineId,
      systemUUID: uuidOf(k.machineId),
      bootID: uuidOf(k.bootId),
      kernelVersion: '6.8.0-1021-aws',
      osImage: 'Ubuntu 24.04.1 LTS',
      containerRuntimeVersion: CONTAINER_RUNTIME_VERSION,
      kubeletVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images,
    runtimeHandlers: [
      { name: 'runc', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
      { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
    ],
    features: { supplementalGroupsPolicy: true },
  };
}

export const uuidOf = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

const EVENT_OF: Record<string, Record<string, string>> = {
  MemoryPressure: { True: 'NodeHasInsufficientMemory', False: 'NodeHasSufficientMemory' },
  DiskPressure: { True: 'NodeHasDiskPressure', False: 'NodeHasNoDiskPressure' },
  PIDPressure: { True: 'NodeHasInsufficientPID', False: 'NodeHasSufficientPID' },
  Ready: { True: 'NodeReady', False: 'NodeNotReady' },
};

/** recordNodeStatusEvent for each condition whose status differs from what the kubelet last reported. */
function statusEvents(k: Kubelet, status: { conditions: { type: string; status: string }[] }, now: number, before?: Map<string, string>): void {
  for (const c of status.conditions) {
    if (before && before.get(c.type) === c.status) continue;
    const ev = EVENT_OF[c.type]?.[c.status];
    if (ev) recordNodeEvent(k, 'Normal', ev, `Node ${k.nodeName} status is now: ${ev}`, now);
  }
}

/** syncNodeStatus: PATCH when the status changed, or every nodeStatusReportFrequency. */
export function syncNodeStatus(k: Kubelet, ctx: ActorContext, attempt = 0): void {
  if (!k.registered || k.nodeStatusInFlight) return;
  const before = new Map([...k.transitions].map(([t, s]) => [t, s.slice(t.length + 1).split('@')[0]!]));
  const status = nodeStatus(k, ctx.now);
  statusEvents(k, status as { conditions: { type: string; status: string }[] }, ctx.now, before);
  k.flush(ctx);
  const comparable = JSON.stringify(withoutHeartbeats(status));
  // nodeStatusHasChanged compares with the Node as the API server has it: a condition the node
  // controller set meanwhile (Ready=Unknown while the kubelet was cut off) is a change too.
  const unchanged = comparable === k.lastNodeStatus && sameConditions(k.node.store.get(k.nodeName)?.status, status);
  if (unchanged && ctx.now - k.lastNodeReportAt < NODE_STATUS_REPORT_MS) return;
  k.nodeStatusInFlight = true;
  apiRequest(
    k,
    ctx,
    { method: 'PATCH', path: `/api/v1/nodes/${k.nodeName}/status`, query: {}, body: JSON.stringify({ status }) },
    { kind: 'nodeStatus', body: comparable, attempt },
    'application/strategic-merge-patch+json',
  );
}

/** The API's Node (when the informer has it) shows the same condition statuses as `status`. */
function sameConditions(server: unknown, status: Record<string, unknown>): boolean {
  const theirs = (server as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
  if (!theirs) return true;
  const ours = status.conditions as { type: string; status: string }[];
  return ours.every((c) => theirs.some((t) => t.type === c.type && t.status === c.status));
}

/** Drops lastHeartbeatTime from conditions, to compare statuses. */
function withoutHeartbeats(status: Record<string, unknown>): unknown {
  const conds = status.conditions as { lastHeartbeatTime?: string }[];
  return { ...status, conditions: conds.map(({ lastHeartbeatTime: _h, ...rest }) => rest) };
}
