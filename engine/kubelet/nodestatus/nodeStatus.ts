// Registration and node status (pkg/kubelet/kubelet_node_status.go and the
// status setters of pkg/kubelet/nodestatus): registers the Node, then PATCHes
// its status every nodeStatusUpdateFrequency when it changed, or every
// nodeStatusReportFrequency regardless.
import type { ActorContext } from '../../sim/kernel';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { apiRequest } from '../client';
import { CONTAINER_RUNTIME_VERSION, KUBELET_VERSION, LEASE_JITTER, LEASE_RENEW_MS, NODE_STATUS_REPORT_MS, NODE_STATUS_UPDATE_MS } from '../config';
import type { Kubelet } from '../kubelet';
import { imageDigest, parseImage } from '../runtime/images';
import { list } from '../podSource';
import { renewLease } from './lease';

export function register(k: Kubelet, ctx: ActorContext): void {
  apiRequest(
    k,
    ctx,
    {
      method: 'POST',
      path: '/api/v1/nodes',
      query: {},
      body: JSON.stringify(initialNode(k, ctx.now)),
    },
    { kind: 'register' },
  );
}

export function onRegistered(k: Kubelet, ctx: ActorContext): void {
  if (k.registered) return;
  k.registered = true;
  list(k, ctx);
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
      annotations: {
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    // Upstream the node-ipam controller fills podCIDR; the fleet is given one up front.
    spec: { podCIDR: k.config.podCIDR, podCIDRs: [k.config.podCIDR] },
    status: nodeStatus(k, now),
  };
}

export function resources(k: Kubelet): Record<string, string> {
  const c = k.config.capacity;
  return {
    cpu: c.cpu,
    'ephemeral-storage': c['ephemeral-storage'],
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: c.memory,
    pods: c.pods,
  };
}

/** The node's status with heartbeats at `now`. */
export function nodeStatus(k: Kubelet, now: number): Record<string, unknown> {
  const cond = (type: string, status: string, reason: string, message: string) => {
    const key = `${type}=${status}`;
    let since = k.transitions.get(type);
    if (!since || !since.startsWith(`${key}@`)) {
      since = `${key}@${rfc3339(now)}`;
      k.transitions.set(type, since);
    }
    return {
      type,
      status,
      lastHeartbeatTime: rfc3339(now),
      lastTransitionTime: since.slice(key.length + 1),
      reason,
      message,
    };
  };
  const images = [...k.images]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 50)
    .map(([name, size]) => {
      const ref = parseImage(name);
      return {
        names: [`${ref.repo}@${imageDigest(ref)}`, ref.full],
        sizeBytes: size,
      };
    });
  return {
    capacity: resources(k),
    allocatable: resources(k),
    conditions: [
      cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [
      { type: 'InternalIP', address: k.config.internalIP },
      { type: 'Hostname', address: k.nodeName },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: k.machineId,
      systemUUID: `${k.machineId.slice(0, 8)}-${k.machineId.slice(8, 12)}-${k.machineId.slice(12, 16)}-${k.machineId.slice(16, 20)}-${k.machineId.slice(20, 32)}`,
      bootID: `${k.bootId.slice(0, 8)}-${k.bootId.slice(8, 12)}-${k.bootId.slice(12, 16)}-${k.bootId.slice(16, 20)}-${k.bootId.slice(20, 32)}`,
      kernelVersion: '6.8.0-1021-aws',
      osImage: 'Ubuntu 24.04.1 LTS',
      containerRuntimeVersion: CONTAINER_RUNTIME_VERSION,
      kubeletVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images,
    runtimeHandlers: [
      {
        name: 'runc',
        features: { recursiveReadOnlyMounts: true, userNamespaces: true },
      },
      {
        name: '',
        features: { recursiveReadOnlyMounts: true, userNamespaces: true },
      },
    ],
    features: { supplementalGroupsPolicy: true },
  };
}

/** syncNodeStatus: PATCH when the status changed, or every nodeStatusReportFrequency. */
export function syncNodeStatus(k: Kubelet, ctx: ActorContext): void {
  if (!k.registered || k.nodeStatusInFlight) return;
  const status = nodeStatus(k, ctx.now);
  const comparable = JSON.stringify(withoutHeartbeats(status));
  if (comparable === k.lastNodeStatus && ctx.now - k.lastNodeReportAt < NODE_STATUS_REPORT_MS) return;
  k.lastNodeReportAt = ctx.now;
  k.nodeStatusInFlight = true;
  apiRequest(
    k,
    ctx,
    {
      method: 'PATCH',
      path: `/api/v1/nodes/${k.nodeName}/status`,
      query: {},
      body: JSON.stringify({ status }),
    },
    { kind: 'nodeStatus', body: comparable },
    'application/strategic-merge-patch+json',
  );
}

/** Drops lastHeartbeatTime from conditions, to compare statuses. */
function withoutHeartbeats(status: Record<string, unknown>): unknown {
  const conds = status.conditions as { lastHeartbeatTime?: string }[];
  return {
    ...status,
    conditions: conds.map(({ lastHeartbeatTime: _h, ...rest }) => rest),
  };
}
