// The fake runtime's resource usage model: what a container's processes would
// use, from its image and command line. Idle images use a small, fixed amount
// (with a per-container ±10 % spread so a fleet does not look cloned); the
// images the Kubernetes docs use for their resource exercises behave as the
// docs show:
//
// - `vish/stress -cpus N [-mem-total Q -mem-alloc-size Q -mem-alloc-sleep D]`
//   ("Assign CPU Resources"): N threads copying /dev/zero burn N CPUs; memory
//   grows by mem-alloc-size every mem-alloc-sleep (4Ki / 1ms) up to mem-total.
// - `stress --cpu N --vm N --vm-bytes B --vm-hang S` (polinux/stress, "Assign
//   Memory Resources"): each --cpu worker spins a CPU; each --vm worker holds
//   --vm-bytes (stress's K/M/G are powers of 1024), touching it at about
//   1 GiB/s; with --vm-hang S ≥ 1 it mostly sleeps, without it it churns a CPU.
// - `registry.k8s.io/hpa-example` (the HorizontalPodAutoscaler walkthrough's
//   php-apache): the CPU its requests cost is what the pod's
//   `kubeglass.io/cpu-load` annotation says (a CPU quantity such as `500m`; idle
//   without it). Annotating the running pods is the playground's stand-in for
//   the walkthrough's load generator: the load stays on the annotated pods, so
//   the total the HPA sees is fixed and it converges on total / target.
//
// The CPU a container gets is its demand capped at its limit (CFS quota) and
// shared by cpu.shares when the node is oversubscribed (cpuShares.ts). Memory
// above the container's limit gets it OOM-killed (exit code 137, OOMKilled).
import { parseQuantity } from '../../apiserver/validation/quantity';
import type { CatalogImage } from './images';

/** The pod annotation that sets the CPU load an hpa-example container serves. */
export const CPU_LOAD_ANNOTATION = 'kubeglass.io/cpu-load';

const MI = 1024 * 1024;
/** How fast stress's vm workers fault pages in (bytes/s per worker). */
const STRESS_TOUCH_BYTES_PER_SEC = 1024 * MI;

/**
 * A process's working set over time: `baseBytes` right after start, then
 * `allocBytes` more allocated at `rateBytesPerSec` (Infinity: a leak that never stops).
 */
export interface MemoryCurve {
  baseBytes: number;
  allocBytes: number;
  rateBytesPerSec: number;
}

/** What a running container's processes want. */
export interface Demand {
  /** CPU if nothing limited it, millicores. */
  cpuMilli: number;
  memory: MemoryCurve;
}

/** The working set `sinceStartMs` after the container started. */
export function workingSetAt(m: MemoryCurve, sinceStartMs: number): number {
  if (m.allocBytes <= 0 || m.rateBytesPerSec <= 0 || sinceStartMs <= 0) return m.baseBytes;
  return m.baseBytes + Math.min(m.allocBytes, (m.rateBytesPerSec * sinceStartMs) / 1000);
}

/** How long after start the working set first exceeds `limitBytes` (null: never). */
export function oomAfterMs(m: MemoryCurve, limitBytes: number): number | null {
  if (!(limitBytes > 0) || !Number.isFinite(limitBytes)) return null;
  if (m.baseBytes > limitBytes) return 0;
  if (m.baseBytes + m.allocBytes <= limitBytes || m.rateBytesPerSec <= 0) return null;
  return Math.ceil(((limitBytes - m.baseBytes) * 1000) / m.rateBytesPerSec);
}

/** The process's argv as containerd builds it: the pod's command or the image's entrypoint, then args. */
export function processArgv(img: CatalogImage, command: readonly string[] | undefined, args: readonly string[] | undefined): string[] {
  if (command && command.length > 0) return [...command, ...(args ?? [])];
  return [...(img.entrypoint ?? []), ...(args ?? [])];
}

/** A deterministic factor in [0.9, 1.1) from a container id (FNV-1a). */
export function spread(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return 0.9 + (h % 2000) / 10_000;
}

/**
 * What a container wants: the image's idle usage (spread by `id`) plus what
 * its command line or the pod's load annotation asks for.
 */
export function demandOf(img: CatalogImage, argv: readonly string[], annotations: Readonly<Record<string, string>> | undefined, id: string): Demand {
  const f = spread(id);
  const idle: Demand = { cpuMilli: img.idle.cpuMilli * f, memory: { baseBytes: Math.round(img.idle.memoryBytes * f), allocBytes: 0, rateBytesPerSec: 0 } };
  if (img.repo === 'docker.io/vish/stress') return vishStress(idle, argv);
  if (img.repo === 'registry.k8s.io/hpa-example') {
    const load = cpuMilli(annotations?.[CPU_LOAD_ANNOTATION]);
    return load > 0 ? { ...idle, cpuMilli: idle.cpuMilli + load } : idle;
  }
  const stress = argv.findIndex((a) => a === 'stress' || a.endsWith('/stress'));
  if (stress >= 0) return stressNg(idle, argv.slice(stress + 1));
  return idle;
}

/** A CPU quantity in millicores (0 when absent or malformed). */
function cpuMilli(v: string | undefined): number {
  if (!v) return 0;
  const q = parseQuantity(v);
  return q.ok && q.quantity.nanos > 0n ? Number(q.quantity.nanos) / 1e6 : 0;
}

/** A byte quantity (resource.Quantity syntax), 0 when malformed. */
function bytesOf(v: string | undefined): number {
  if (!v) return 0;
  const q = parseQuantity(v);
  return q.ok && q.quantity.nanos > 0n ? Number(q.quantity.nanos / 1_000_000_000n) : 0;
}

/** Go's flag package: `-name value`, `-name=value`, `--name value`. */
function goFlag(argv: readonly string[], name: string): string | undefined {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!.replace(/^--?/, '');
    if (a === name && i + 1 < argv.length) out = argv[++i];
    else if (a.startsWith(`${name}=`)) out = a.slice(name.length + 1);
  }
  return out;
}

/** time.ParseDuration for the simple forms (`1ms`, `10s`, `1.5s`, `2m`), in ms; NaN when malformed. */
function goDurationMs(v: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = v;
  if (rest === '0') return 0;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (!m) return NaN;
    total += Number(m[1]) * units[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return total;
}

function vishStress(idle: Demand, argv: readonly string[]): Demand {
  const cpus = Number(goFlag(argv, 'cpus') ?? '0');
  const total = bytesOf(goFlag(argv, 'mem-total') ?? '0');
  const step = bytesOf(goFlag(argv, 'mem-alloc-size') ?? '4Ki');
  const sleep = goDurationMs(goFlag(argv, 'mem-alloc-sleep') ?? '1ms');
  // One step per sleep (the allocation itself takes no time worth modelling).
  const rate = step > 0 ? (step * 1000) / Math.max(sleep, 0.001) : 0;
  return {
    cpuMilli: idle.cpuMilli + (Number.isInteger(cpus) && cpus > 0 ? cpus * 1000 : 0),
    memory: { ...idle.memory, allocBytes: step > 0 ? Math.floor(total / step) * step : 0, rateBytesPerSec: rate },
  };
}

/** stress's atoll_b: a number with an optional b/k/m/g suffix in powers of 1024. */
function stressBytes(v: string | undefined): number {
  const m = /^(\d+)([bBkKmMgG]?)$/.exec(v ?? '');
  if (!m) return 0;
  const mult: Record<string, number> = { '': 1, b: 1, k: 1024, m: MI, g: 1024 * MI };
  return Number(m[1]) * mult[m[2]!.toLowerCase()]!;
}

function stressNg(idle: Demand, args: readonly string[]): Demand {
  const opt = (long: string, short?: string): string | undefined => {
    let out: string | undefined;
    for (let i = 0; i < args.length; i++) if ((args[i] === `--${long}` || (short && args[i] === `-${short}`)) && i + 1 < args.length) out = args[++i];
    return out;
  };
  const cpu = Number(opt('cpu', 'c') ?? '0') || 0;
  const vm = Number(opt('vm', 'm') ?? '0') || 0;
  const vmBytes = stressBytes(opt('vm-bytes') ?? '256M');
  const hangText = opt('vm-hang');
  const keep = args.includes('--vm-keep');
  // A vm worker touching its memory runs flat out; with --vm-hang it sleeps between rounds (0 = forever).
  const touchSec = vmBytes / STRESS_TOUCH_BYTES_PER_SEC;
  let vmCpu = 1000;
  if (hangText !== undefined && !keep) {
    const hang = Number(hangText);
    vmCpu = hang === 0 ? 0 : (1000 * touchSec) / (hang + touchSec);
  }
  return {
    cpuMilli: idle.cpuMilli + cpu * 1000 + vm * vmCpu,
    memory: { ...idle.memory, allocBytes: vm * vmBytes, rateBytesPerSec: vm * STRESS_TOUCH_BYTES_PER_SEC },
  };
}
