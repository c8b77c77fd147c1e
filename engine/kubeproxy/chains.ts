// kube-proxy's iptables chain names (pkg/proxy/iptables/proxier.go): the
// per-service and per-endpoint chains are named by a hash, because iptables
// chain names are at most 28 characters: the prefix and the first 16
// characters of base32(sha256(servicePortName + protocol [+ endpoint])).
import { sha256, utf8 } from '../apiserver/auth/sha256';
import { base32 } from '../sim/base32';

export const KUBE_SERVICES = 'KUBE-SERVICES';
export const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
export const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
export const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
export const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
export const KUBE_FORWARD = 'KUBE-FORWARD';
export const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
/** Empty chains whose disappearance tells kube-proxy (and the kubelet) that someone flushed the tables (ipt.Monitor). */
export const KUBE_PROXY_CANARY = 'KUBE-PROXY-CANARY';
export const KUBE_KUBELET_CANARY = 'KUBE-KUBELET-CANARY';
/** The kubelet's chain, which kube-proxy also ensures (kubelet_network_linux.go). */
export const KUBE_FIREWALL = 'KUBE-FIREWALL';

/** The chains kube-proxy owns per service and endpoint, and deletes once unused (isServiceChainName). */
const SERVICE_CHAIN_PREFIXES = ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-EXT-', 'KUBE-FW-', 'KUBE-SEP-'];

export function isServiceChainName(chain: string): boolean {
  return SERVICE_CHAIN_PREFIXES.some((p) => chain.startsWith(p));
}

function portProtoHash(s: string): string {
  return base32(sha256(utf8(s))).slice(0, 16);
}

/** The chain of a service port's endpoints for Cluster traffic policy. */
export function clusterPolicyChain(svcPortName: string, protocol: string): string {
  return `KUBE-SVC-${portProtoHash(svcPortName + protocol)}`;
}

/** The same for Local traffic policy. */
export function localPolicyChain(svcPortName: string, protocol: string): string {
  return `KUBE-SVL-${portProtoHash(svcPortName + protocol)}`;
}

/** External traffic (NodePort, external and load-balancer IPs). */
export function externalChain(svcPortName: string, protocol: string): string {
  return `KUBE-EXT-${portProtoHash(svcPortName + protocol)}`;
}

/** loadBalancerSourceRanges. */
export function firewallChain(svcPortName: string, protocol: string): string {
  return `KUBE-FW-${portProtoHash(svcPortName + protocol)}`;
}

/** One endpoint ("ip:port") of a service port. */
export function endpointChain(svcPortName: string, protocol: string, endpoint: string): string {
  return `KUBE-SEP-${portProtoHash(svcPortName + protocol + endpoint)}`;
}
