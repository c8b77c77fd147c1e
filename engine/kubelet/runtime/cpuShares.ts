// How the Linux CFS scheduler divides a node's CPUs among containers that
// want more than there is: each container is first capped at its quota (the
// CPU limit, cpu.max), then, when the node is oversubscribed, the CPUs are
// shared in proportion to cpu.shares / cpu.weight (from the CPU request), and
// whatever a container does not use is redistributed to the others
// (water-filling). Pure: demands in, allocations out.

/** One contender for CPU: what it wants (after its quota) and its weight. */
export interface CpuClaim {
  /** Millicores the processes would use if nothing stopped them, already capped at the limit. */
  demandMilli: number;
  /** cpu.shares: the request in millicores × 1024 / 1000, at least 2 (MinShares) — BestEffort gets 2. */
  shares: number;
}

/** MilliCPUToShares (pkg/kubelet/cm/helpers_linux.go): 1024 shares per CPU, minimum 2. */
export function milliCpuToShares(requestMilli: number): number {
  if (requestMilli <= 0) return 2;
  return Math.max(2, Math.floor((requestMilli * 1024) / 1000));
}

/**
 * Allocates `capacityMilli` among the claims: everyone gets their demand when
 * it fits; otherwise weights decide, and a claim never gets more than it asks.
 */
export function shareCpu(claims: readonly CpuClaim[], capacityMilli: number): number[] {
  const out = claims.map(() => 0);
  let total = 0;
  for (const c of claims) total += c.demandMilli;
  if (total <= capacityMilli) {
    claims.forEach((c, i) => (out[i] = c.demandMilli));
    return out;
  }
  let open = claims.map((_, i) => i).filter((i) => claims[i]!.demandMilli > 0);
  let remaining = capacityMilli;
  for (;;) {
    let weight = 0;
    for (const i of open) weight += claims[i]!.shares;
    if (open.length === 0 || weight === 0 || remaining <= 0) break;
    // Claims that want less than their fair share are satisfied; the rest is shared again.
    const satisfied = open.filter((i) => claims[i]!.demandMilli <= (remaining * claims[i]!.shares) / weight);
    if (satisfied.length === 0) {
      for (const i of open) out[i] = (remaining * claims[i]!.shares) / weight;
      break;
    }
    for (const i of satisfied) {
      out[i] = claims[i]!.demandMilli;
      remaining -= claims[i]!.demandMilli;
    }
    open = open.filter((i) => !satisfied.includes(i));
  }
  return out;
}
