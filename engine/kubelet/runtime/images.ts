// The fake container runtime's image catalog: what an image weighs (pull
// time = size / node bandwidth) and how its main process behaves. Names are
// normalised as containerd reports them (docker.io/library/nginx:latest).

/** How a container's main process behaves once started. */
export type Behaviour =
  /** Runs until killed (pause, nginx, servers). */
  | { type: 'run'; startDelayMs: number; ignoresSigterm: boolean }
  /** Exits by itself after `afterMs` with `exitCode`. */
  | { type: 'exit'; afterMs: number; exitCode: number };

export interface CatalogImage {
  /** Repository without tag, normalised: `docker.io/library/nginx`. */
  repo: string;
  sizeBytes: number;
  /** Ports the process listens on once up (probes to other ports are refused). */
  ports: number[];
  /** The default process (the image's ENTRYPOINT/CMD); a pod's command may override it. */
  behaviour: Behaviour;
  /** What the process uses when it does nothing in particular (the usage model's floor). */
  idle: IdleUsage;
  /** The image's ENTRYPOINT: the pod's args are appended to it unless the pod sets a command. */
  entrypoint?: string[];
}

/** An idle process's CPU (millicores) and working set (bytes). */
export interface IdleUsage {
  cpuMilli: number;
  memoryBytes: number;
}

const Ki = 1024;
const Mi = 1024 * 1024;

const RUN: Behaviour = { type: 'run', startDelayMs: 0, ignoresSigterm: false };

/** A small catalog; behaviours for busybox-like images come from the command (see behaviourOf). */
const CATALOG: readonly CatalogImage[] = [
  { repo: 'registry.k8s.io/pause', sizeBytes: 320_368, ports: [], behaviour: RUN, idle: { cpuMilli: 0.02, memoryBytes: 320 * Ki } },
  { repo: 'docker.io/library/nginx', sizeBytes: 72_099_501, ports: [80], behaviour: RUN, idle: { cpuMilli: 0.5, memoryBytes: 4 * Mi } },
  { repo: 'docker.io/library/httpd', sizeBytes: 58_213_456, ports: [80], behaviour: RUN, idle: { cpuMilli: 1, memoryBytes: 6 * Mi } },
  { repo: 'docker.io/library/redis', sizeBytes: 45_112_808, ports: [6379], behaviour: RUN, idle: { cpuMilli: 2, memoryBytes: 3 * Mi } },
  // busybox's CMD is `sh`, which exits at once without a terminal.
  { repo: 'docker.io/library/busybox', sizeBytes: 2_166_802, ports: [], behaviour: { type: 'exit', afterMs: 0, exitCode: 0 }, idle: { cpuMilli: 0, memoryBytes: 200 * Ki } },
  { repo: 'docker.io/library/alpine', sizeBytes: 3_653_068, ports: [], behaviour: { type: 'exit', afterMs: 0, exitCode: 0 }, idle: { cpuMilli: 0, memoryBytes: 300 * Ki } },
  { repo: 'registry.k8s.io/e2e-test-images/agnhost', sizeBytes: 51_120_784, ports: [8080], behaviour: RUN, idle: { cpuMilli: 1, memoryBytes: 10 * Mi } },
  // The images the Kubernetes docs' resource exercises use (usage.ts models what they do).
  { repo: 'docker.io/vish/stress', sizeBytes: 1_563_437, ports: [], behaviour: RUN, idle: { cpuMilli: 0.1, memoryBytes: 1500 * Ki }, entrypoint: ['/stress', '-logtostderr'] },
  { repo: 'docker.io/polinux/stress', sizeBytes: 4_041_997, ports: [], behaviour: RUN, idle: { cpuMilli: 0, memoryBytes: 800 * Ki } },
  { repo: 'registry.k8s.io/hpa-example', sizeBytes: 178_306_514, ports: [80], behaviour: RUN, idle: { cpuMilli: 1, memoryBytes: 10 * Mi } },
  // Behaviour images of the playground.
  { repo: 'docker.io/kubeglass/slow-start', sizeBytes: 10_000_000, ports: [8080], behaviour: { type: 'run', startDelayMs: 20_000, ignoresSigterm: false }, idle: { cpuMilli: 1, memoryBytes: 4 * Mi } },
  { repo: 'docker.io/kubeglass/ignore-sigterm', sizeBytes: 5_000_000, ports: [8080], behaviour: { type: 'run', startDelayMs: 0, ignoresSigterm: true }, idle: { cpuMilli: 1, memoryBytes: 4 * Mi } },
  { repo: 'docker.io/kubeglass/crash', sizeBytes: 5_000_000, ports: [8080], behaviour: { type: 'exit', afterMs: 5_000, exitCode: 1 }, idle: { cpuMilli: 1, memoryBytes: 4 * Mi } },
];

export interface ImageRef {
  /** `docker.io/library/nginx` */
  repo: string;
  /** `1.27` or `latest`. */
  tag: string;
  /** `docker.io/library/nginx:1.27` */
  full: string;
}

/** Normalises a reference as containerd does (docker.io default registry, library/ for one-part names, latest tag). */
export function parseImage(image: string): ImageRef {
  let name = image.split('@')[0]!;
  let tag = 'latest';
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  const first = name.split('/')[0]!;
  const hasRegistry = name.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) name = `docker.io/${name.includes('/') ? name : `library/${name}`}`;
  return { repo: name, tag, full: `${name}:${tag}` };
}

export function lookupImage(ref: ImageRef): CatalogImage | undefined {
  return CATALOG.find((c) => c.repo === ref.repo);
}

/** A stable fake digest for an image (FNV-1a over the name, widened to 64 hex digits). */
export function imageDigest(ref: ImageRef): string {
  let out = '';
  for (let round = 0; round < 8; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < ref.full.length; i++) {
      h ^= ref.full.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, '0');
  }
  return `sha256:${out}`;
}

/**
 * The behaviour of a container: the image's, unless its command/args are a
 * shell snippet we understand: `sleep N` (exit 0 after N s), `exit N`,
 * `sleep N; exit M`, `sleep infinity`/`tail -f /dev/null` (runs forever).
 */
export function behaviourOf(img: CatalogImage, command: readonly string[] | undefined, args: readonly string[] | undefined): Behaviour {
  const argv = [...(command ?? []), ...(args ?? [])];
  if (argv.length === 0) return img.behaviour;
  let script = argv.join(' ');
  const sh = /^(?:\/bin\/)?sh\s+-c\s+(.*)$/s.exec(script);
  if (sh) script = sh[1]!.replace(/^["']|["']$/g, '');
  let afterMs = 0;
  let exitCode = 0;
  for (const raw of script.split(/;|&&/)) {
    const part = raw.trim();
    if (!part) continue;
    if (/^sleep\s+(infinity|inf)$/.test(part) || /^tail\s+-f\s+\/dev\/null$/.test(part)) return { type: 'run', startDelayMs: 0, ignoresSigterm: false };
    const sleep = /^sleep\s+(\d+(?:\.\d+)?)$/.exec(part);
    if (sleep) {
      afterMs += Math.round(Number(sleep[1]) * 1000);
      continue;
    }
    const exit = /^exit\s+(\d+)$/.exec(part);
    if (exit) {
      exitCode = Number(exit[1]) & 255;
      break;
    }
    if (part === 'true') continue;
    if (part === 'false') {
      exitCode = 1;
      break;
    }
    // Anything else (servers, loops we do not parse): runs until killed.
    return { type: 'run', startDelayMs: 0, ignoresSigterm: false };
  }
  return { type: 'exit', afterMs, exitCode };
}
