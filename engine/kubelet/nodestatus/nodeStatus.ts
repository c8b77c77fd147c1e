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
import type { JsonObject, JsonValue, KObject } from '../../apimachinery/types';
import { createTwoWayMergePatch, patchMetaFor } from '../../apimachinery/patch';
import { deepEqual } from '../../apimachinery/patch/goValues';
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
    statusEvents(k, node.status as { conditions: { type: string; status: string }[] }, ctx.now, []);
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

/**
 * The node's status with heartbeats at `now`, as the setters leave `base` (the
 * Node they update: a condition keeps its lastTransitionTime while its status
 * stays); without one, from what the kubelet itself last computed.
 */
export function nodeStatus(k: Kubelet, now: number, base?: KObject): Record<string, unknown> {
  const stamp = rfc3339(now);
  const cond = (type: string, status: string, reason: string, message: string) => {
    const prev = previousCondition(k, type, base);
    const since = prev && prev.status === status ? prev.since : stamp;
    k.transitions.set(type, `${type}=${status}@${since}`);
    return { type, status, lastHeartbeatTime: stamp, lastTransitionTime: since, reason, message };
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

type Condition = { type: string; status: string; lastTransitionTime?: string; lastHeartbeatTime?: string };
const conditionsOf = (n: KObject | undefined): Condition[] => ((n?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []);

/** A condition as `base` has it, or (without a base) as the kubelet last computed it. */
function previousCondition(k: Kubelet, type: string, base: KObject | undefined): { status: string; since: string } | undefined {
  if (base) {
    const c = conditionsOf(base).find((x) => x.type === type);
    return c ? { status: c.status, since: c.lastTransitionTime ?? '' } : undefined;
  }
  const mine = k.transitions.get(type);
  if (!mine) return undefined;
  const at = mine.indexOf('@');
  return { status: mine.slice(type.length + 1, at), since: mine.slice(at + 1) };
}

/**
 * recordNodeStatusEvent as the setters call it: a pressure condition on every
 * change and when it first appears (it starts Unknown); Ready only when an
 * existing Ready condition changes (ReadyCondition: a node that comes up Ready
 * records no NodeReady).
 */
function statusEvents(k: Kubelet, status: { conditions: { type: string; status: string }[] }, now: number, before: readonly Condition[]): void {
  for (const c of status.conditions) {
    const was = before.find((b) => b.type === c.type)?.status;
    if (was === c.status || (c.type === 'Ready' && was === undefined)) continue;
    const ev = EVENT_OF[c.type]?.[c.status];
    if (ev) recordNodeEvent(k, 'Normal', ev, `Node ${k.nodeName} status is now: ${ev}`, now);
  }
}

/**
 * updateNodeStatus's tryUpdateNodeStatus (kubelet_node_status.go): the first
 * try starts from the node informer's copy, a retry from a GET (through the
 * heartbeat client); the setters update that Node; it is PATCHed only when its
 * status changed (heartbeats aside) or nodeStatusReportFrequency (5 min) has
 * passed, with the two-way strategic merge patch from the copy to the result
 * (PatchNodeStatus). A stale copy therefore patches only what differs from it.
 */
export function syncNodeStatus(k: Kubelet, ctx: ActorContext, attempt = 0, fetched?: KObject): void {
  if (!k.registered || k.nodeStatusInFlight) return;
  if (attempt > 0 && !fetched) {
    k.nodeStatusInFlight = true;
    apiRequest(k, ctx, { method: 'GET', path: `/api/v1/nodes/${k.nodeName}`, query: {} }, { kind: 'nodeStatusGet', attempt });
    return;
  }
  const original = fetched ?? k.node.store.get(k.nodeName);
  // Not in the informer yet: the lister's NotFound fails this try; the next GETs it.
  if (!original) return syncNodeStatus(k, ctx, 1);
  const status = nodeStatus(k, ctx.now, original);
  statusEvents(k, status as { conditions: Condition[] }, ctx.now, conditionsOf(original));
  k.flush(ctx);
  const before = (original.status ?? {}) as JsonObject;
  const after = settersApplied(before, status);
  if (!statusChanged(before, after) && ctx.now - k.lastNodeReportAt < NODE_STATUS_REPORT_MS) return;
  const patch = createTwoWayMergePatch({ status: before }, { status: after }, patchMetaFor('', 'v1', 'Node'));
  if (!patch.ok) return;
  k.nodeStatusInFlight = true;
  apiRequest(
    k,
    ctx,
    { method: 'PATCH', path: `/api/v1/nodes/${k.nodeName}/status`, query: {}, body: JSON.stringify(patch.value) },
    { kind: 'nodeStatus', attempt },
    'application/strategic-merge-patch+json',
  );
}

/**
 * The Node's status after the setters: their fields replaced, nodeInfo's set
 * one by one (kubeProxyVersion, which the v1.32 kubelet no longer sets, stays
 * as the API has it), their conditions updated in place or appended, others kept.
 */
function settersApplied(before: JsonObject, status: Record<string, unknown>): JsonObject {
  const mine = status.conditions as Condition[];
  const theirs = (before.conditions ?? []) as unknown as Condition[];
  const conditions = theirs.map((c) => mine.find((m) => m.type === c.type) ?? c);
  for (const m of mine) if (!theirs.some((c) => c.type === m.type)) conditions.push(m);
  const nodeInfo = { ...((before.nodeInfo ?? {}) as JsonObject), ...(status.nodeInfo as JsonObject) };
  return { ...before, ...(status as JsonObject), nodeInfo, conditions: conditions as unknown as JsonValue };
}

/** nodeStatusHasChanged: the conditions (heartbeats aside) or any other field of the status differ. */
function statusChanged(a: JsonObject, b: JsonObject): boolean {
  const ca = (a.conditions ?? []) as unknown as Condition[];
  const cb = (b.conditions ?? []) as unknown as Condition[];
  if (ca.length !== cb.length) return true;
  const beat = ({ lastHeartbeatTime: _h, ...rest }: Condition) => rest as unknown as JsonValue;
  for (const c of ca) {
    const d = cb.find((x) => x.type === c.type);
    if (!d || !deepEqual(beat(c), beat(d))) return true;
  }
  const { conditions: _a, ...ra } = a;
  const { conditions: _b, ...rb } = b;
  return !deepEqual(ra, rb);
}

