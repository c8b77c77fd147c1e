// The kubelet's configuration and the upstream defaults it runs with
// (pkg/kubelet/apis/config/v1beta1/defaults.go, pkg/kubelet/kubelet.go).
import type { ActorId } from '../sim/actor';

export const KUBELET_KIND = 'kubelet';
export const KUBELET_VERSION = 'v1.32.0';
export const CONTAINER_RUNTIME_VERSION = 'containerd://1.7.24';

export interface KubeletCapacity {
  cpu: string;
  memory: string;
  pods: string;
  'ephemeral-storage': string;
}

export interface KubeletConfig {
  server: ActorId;
  nodeName: string;
  capacity: KubeletCapacity;
  labels?: Record<string, string>;
  /** e.g. 10.244.1.0/24 */
  podCIDR: string;
  internalIP: string;
  imageBandwidthBytesPerSec: number;
  /** Images present at boot (normalised or not). */
  images?: string[];
}

/** nodeStatusUpdateFrequency / nodeStatusReportFrequency. */
export const NODE_STATUS_UPDATE_MS = 10_000;
export const NODE_STATUS_REPORT_MS = 5 * 60_000;
/** The node Lease: duration 40 s, renewInterval = leaseDuration × 0.25, run with JitterUntil(0.04). */
export const LEASE_DURATION_S = 40;
export const LEASE_RENEW_MS = 10_000;
export const LEASE_JITTER = 0.04;
/** Image pull and crash-loop back-off: 10 s doubling to 300 s, forgotten after 2×max idle. */
export const BACKOFF_INITIAL_MS = 10_000;
export const BACKOFF_MAX_MS = 300_000;
/** A failed list or watch of the pod source is retried after this long. */
export const RETRY_MS = 1000;
