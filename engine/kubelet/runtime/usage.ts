// The fake runtime's resource usage model: what a container's processes use.
// Idle images use a small fixed amount (their catalog floor, spread ±10 % per
// container so a fleet does not look cloned); programs add what they do
// (shell/programs.ts): vish/stress -cpus N burns N CPUs and grows memory by
// -mem-alloc-size every -mem-alloc-sleep up to -mem-total; stress(1)'s
// --cpu/--vm workers spin and hold --vm-bytes each; a shell loop that never
// sleeps spins a CPU. registry.k8s.io/hpa-example (the HorizontalPodAutoscaler
// walkthrough's php-apache) burns the CPU load its pod's `kubeglass.io/cpu-load`
// annotation sets (a CPU quantity such as `500m`; idle without it): annotating
// the running pods stands in for the walkthrough's load generator, so the total
// load the HPA sees is fixed and it converges on total / target.
//
// The CPU a container gets is its demand capped at its limit (CFS quota) and
// shared by cpu.shares when the node is oversubscribed (cpuShares.ts). Memory
// above the container's limit gets it OOM-killed (exit code 137, OOMKilled).
import { parseQuantity } from '../../apiserver/validation/quantity';
import type { IdleUsage } from './images';

/** The pod annotation that sets the CPU load an hpa-example container serves. */
export const CPU_LOAD_ANNOTATION = 'kubeglass.io/cpu-load';

/**
 * A working set over time: `baseBytes`, plus `allocBytes` allocated at
 * `rateBytesPerSec` from virtual time `since`.
 */
export interface MemoryCurve {
  baseBytes: number;
  allocBytes: number;
  rateBytesPerSec: number;
  since: number;
}

/** What a running container's processes want. */
export interface Demand {
  /** CPU if nothing limited it, millicores. */
  cpuMilli: number;
  memory: MemoryCurve;
}

/** The working set at virtual time `t`. */
export function workingSetAt(m: MemoryCurve, t: number): number {
  if (m.allocBytes <= 0 || m.rateBytesPerSec <= 0 || t <= m.since) return m.baseBytes;
  return m.baseBytes + Math.min(m.allocBytes, (m.rateBytesPerSec * (t - m.since)) / 1000);
}

/** When the working set first exceeds `limitBytes` (null: never). */
export function oomAt(m: MemoryCurve, limitBytes: number): number | null {
  if (!(limitBytes > 0) || !Number.isFinite(limitBytes)) return null;
  if (m.baseBytes > limitBytes) return m.since;
  if (m.baseBytes + m.allocBytes <= limitBytes || m.rateBytesPerSec <= 0) return null;
  return m.since + Math.ceil(((limitBytes - m.baseBytes) * 1000) / m.rateBytesPerSec);
}

/** A deterministic factor in [0.9, 1.1) from a container id (FNV-1a). */
export function spread(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return 0.9 + (h % 2000) / 10_000;
}

/** The image's idle floor for one container, spread by its id. */
export function idleOf(idle: IdleUsage, id: string): IdleUsage {
  const f = spread(id);
  return { cpuMilli: idle.cpuMilli * f, memoryBytes: Math.round(idle.memoryBytes * f) };
}

/** The load annotation's CPU in millicores (0 when absent or malformed). */
export function cpuLoadMilli(annotations: Readonly<Record<string, string>> | undefined): number {
  const v = annotations?.[CPU_LOAD_ANNOTATION];
  if (!v) return 0;
  const q = parseQuantity(v);
  return q.ok && q.quantity.nanos > 0n ? Number(q.quantity.nanos) / 1e6 : 0;
}
