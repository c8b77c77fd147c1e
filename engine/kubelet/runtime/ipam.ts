// host-local IPAM: pod IPs from the node's podCIDR, handed out round-robin
// after the last one given (the network and gateway addresses are skipped).
import type { Kubelet } from '../kubelet';

export function allocateIP(k: Kubelet): number {
  const bitsText = k.config.podCIDR.split('/')[1];
  const size = 2 ** (32 - Number(bitsText ?? '24'));
  for (let i = 1; i <= size - 3; i++) {
    const candidate = ((k.lastIP - 2 + i + (size - 3)) % (size - 3)) + 2;
    if (!k.usedIPs.has(candidate)) {
      k.usedIPs.add(candidate);
      k.lastIP = candidate;
      return candidate;
    }
  }
  return 0;
}

export function ipString(k: Kubelet, offset: number): string {
  const base = k.config.podCIDR.split('/')[0]!.split('.').map(Number);
  const n = (((base[0]! << 24) | (base[1]! << 16) | (base[2]! << 8) | base[3]!) >>> 0) + offset;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
