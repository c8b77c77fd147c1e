// The fake registry and the images it holds: what each weighs (pull time =
// size / node bandwidth), which tags exist, what its ENTRYPOINT and CMD are,
// which userland it ships (busybox, GNU, or nothing: scratch/distroless), the
// programs in it, its STOPSIGNAL, its files, and what its processes use when
// idle (the usage model's floor). What the programs do is in shell/programs.ts.
// Names are normalised as containerd reports them (docker.io/library/nginx:latest).
import type { Signal } from './shell/interp';
import type { Flavour } from './shell/commands';

/** An idle process's CPU (millicores) and working set (bytes). */
export interface IdleUsage {
  cpuMilli: number;
  memoryBytes: number;
}

export interface CatalogImage {
  /** Repository without tag, normalised: `docker.io/library/nginx`. */
  repo: string;
  /** Tags the registry knows; any other tag is "not found". */
  tags: readonly string[];
  sizeBytes: number;
  entrypoint?: string[];
  cmd?: string[];
  /** busybox / GNU utilities, or none at all (scratch, distroless). */
  userland: Flavour | 'none';
  /** Programs besides the userland (absolute paths or names on $PATH). */
  programs: readonly string[];
  /** STOPSIGNAL: what containerd sends first when stopping the container. */
  stopSignal: Signal;
  idle: IdleUsage;
  /** Files the image ships (besides what the kubelet mounts). */
  files?: Record<string, string>;
  /** Image-level environment (ENV). */
  env?: Record<string, string>;
  /** The image serves the CPU load its pod's kubeglass.io/cpu-load annotation sets (hpa-example). */
  servesLoad?: boolean;
}

const Ki = 1024;
const Mi = 1024 * 1024;
const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nID=debian\n';
const ALPINE = 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.21.2\nPRETTY_NAME="Alpine Linux v3.21"\n';
const PATH = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };

const CATALOG: readonly CatalogImage[] = [
  {
    repo: 'registry.k8s.io/pause',
    tags: ['3.10', '3.9', '3.8', 'latest'],
    sizeBytes: 320_368,
    entrypoint: ['/pause'],
    userland: 'none',
    programs: ['/pause'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.02, memoryBytes: 320 * Ki },
  },
  {
    repo: 'docker.io/library/nginx',
    tags: ['latest', '1', '1.29', '1.28', '1.28.0', '1.27', '1.27.3', '1.27.2', '1.26', '1.26.2', '1.25', '1.25.5', 'stable', 'mainline', 'alpine', '1.14.2', '1.16.1', '1.19', '1.21'],
    sizeBytes: 72_099_501,
    entrypoint: ['/docker-entrypoint.sh'],
    cmd: ['nginx', '-g', 'daemon off;'],
    userland: 'gnu',
    programs: ['/docker-entrypoint.sh', 'nginx', 'curl'],
    stopSignal: 'QUIT',
    idle: { cpuMilli: 0.5, memoryBytes: 4 * Mi },
    files: {
      '/usr/share/nginx/html/index.html': '<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n</body>\n</html>\n',
      '/etc/os-release': DEBIAN,
    },
    env: { ...PATH, NGINX_VERSION: '1.27.3' },
  },
  {
    repo: 'registry.k8s.io/nginx-slim',
    tags: ['0.21', '0.24', '0.26', '0.27'],
    sizeBytes: 13_584_472,
    cmd: ['nginx', '-g', 'daemon off;'],
    userland: 'gnu',
    programs: ['nginx'],
    stopSignal: 'QUIT',
    idle: { cpuMilli: 0.5, memoryBytes: 3 * Mi },
    env: PATH,
  },
  {
    repo: 'docker.io/library/httpd',
    tags: ['latest', '2.4', '2.4.62', 'alpine'],
    sizeBytes: 58_213_456,
    cmd: ['httpd-foreground'],
    userland: 'gnu',
    programs: ['httpd-foreground'],
    stopSignal: 'WINCH',
    idle: { cpuMilli: 1, memoryBytes: 6 * Mi },
    files: { '/usr/local/apache2/htdocs/index.html': '<html><body><h1>It works!</h1></body></html>\n', '/etc/os-release': DEBIAN },
    env: PATH,
  },
  {
    repo: 'docker.io/library/redis',
    tags: ['latest', '7', '7.4', '7.4.1', '7.2', '6', 'alpine'],
    sizeBytes: 45_112_808,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['redis-server'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'redis-server', 'redis-cli'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 2, memoryBytes: 3 * Mi },
    files: { '/etc/os-release': DEBIAN },
    env: PATH,
  },
  // busybox's and alpine's CMD is a shell, which exits at once without a terminal.
  {
    repo: 'docker.io/library/busybox',
    tags: ['latest', '1.36', '1.36.1', '1.37', '1.35', '1.34', '1.28', 'stable', 'musl', 'glibc'],
    sizeBytes: 2_166_802,
    cmd: ['sh'],
    userland: 'busybox',
    programs: [],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 200 * Ki },
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
  },
  {
    repo: 'registry.k8s.io/busybox',
    tags: ['latest', '1.27', '1.28'],
    sizeBytes: 1_144_547,
    cmd: ['sh'],
    userland: 'busybox',
    programs: [],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 200 * Ki },
    env: PATH,
  },
  {
    repo: 'docker.io/library/alpine',
    tags: ['latest', '3', '3.21', '3.20', '3.19', '3.18'],
    sizeBytes: 3_653_068,
    cmd: ['/bin/sh'],
    userland: 'busybox',
    programs: [],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 300 * Ki },
    files: { '/etc/os-release': ALPINE },
    env: PATH,
  },
  {
    repo: 'docker.io/library/ubuntu',
    tags: ['latest', '24.04', '22.04', '20.04', 'noble', 'jammy'],
    sizeBytes: 29_754_289,
    cmd: ['/bin/bash'],
    userland: 'gnu',
    programs: [],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 400 * Ki },
    env: PATH,
  },
  {
    repo: 'docker.io/library/debian',
    tags: ['latest', '12', 'bookworm', 'bookworm-slim', '11', 'bullseye'],
    sizeBytes: 28_230_823,
    cmd: ['bash'],
    userland: 'gnu',
    programs: [],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 400 * Ki },
    files: { '/etc/os-release': DEBIAN },
    env: PATH,
  },
  // The e2e images the Kubernetes docs use: agnhost (netexec, liveness, serve-hostname, pause…) and goproxy.
  {
    repo: 'registry.k8s.io/e2e-test-images/agnhost',
    tags: ['2.39', '2.40', '2.43', '2.45', '2.47', '2.48', '2.52', '2.53'],
    sizeBytes: 51_120_784,
    entrypoint: ['/agnhost'],
    userland: 'gnu',
    programs: ['/agnhost'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 1, memoryBytes: 10 * Mi },
    env: PATH,
  },
  {
    repo: 'registry.k8s.io/goproxy',
    tags: ['0.1'],
    sizeBytes: 2_527_218,
    entrypoint: ['/goproxy'],
    userland: 'none',
    programs: ['/goproxy'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.5, memoryBytes: 3 * Mi },
  },
  // The images the docs' resource exercises use (see usage.ts and shell/programs.ts).
  {
    repo: 'docker.io/vish/stress',
    tags: ['latest'],
    sizeBytes: 1_563_437,
    entrypoint: ['/stress', '-logtostderr'],
    userland: 'none',
    programs: ['/stress'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.1, memoryBytes: 1500 * Ki },
  },
  {
    repo: 'docker.io/polinux/stress',
    tags: ['latest', '1.0.4'],
    sizeBytes: 4_041_997,
    cmd: ['stress'],
    userland: 'busybox',
    programs: ['stress'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 800 * Ki },
    files: { '/etc/os-release': ALPINE },
    env: PATH,
  },
  {
    repo: 'registry.k8s.io/hpa-example',
    tags: ['latest'],
    sizeBytes: 178_306_514,
    cmd: ['apache2-foreground'],
    userland: 'gnu',
    programs: ['apache2-foreground'],
    stopSignal: 'WINCH',
    idle: { cpuMilli: 1, memoryBytes: 10 * Mi },
    files: { '/var/www/html/index.php': '<?php\n  $x = 0.0001;\n  for ($i = 0; $i <= 1000000; $i++) {\n    $x += sqrt($x);\n  }\n  echo "OK!";\n?>\n' },
    env: PATH,
    servesLoad: true,
  },
  // The playground's own behaviour images, busybox-based (a server on 8080; see kubeglass-server in programs.ts).
  {
    repo: 'docker.io/kubeglass/slow-start',
    tags: ['latest', '1'],
    sizeBytes: 10_000_000,
    entrypoint: ['/kubeglass-server', '--start-delay', '20'],
    userland: 'busybox',
    programs: ['/kubeglass-server'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 1, memoryBytes: 4 * Mi },
    env: PATH,
  },
  {
    repo: 'docker.io/kubeglass/ignore-sigterm',
    tags: ['latest', '1'],
    sizeBytes: 5_000_000,
    entrypoint: ['/kubeglass-server', '--ignore-sigterm'],
    userland: 'busybox',
    programs: ['/kubeglass-server'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 1, memoryBytes: 4 * Mi },
    env: PATH,
  },
  {
    repo: 'docker.io/kubeglass/crash',
    tags: ['latest', '1'],
    sizeBytes: 5_000_000,
    entrypoint: ['/kubeglass-server', '--crash-after', '5'],
    userland: 'busybox',
    programs: ['/kubeglass-server'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 1, memoryBytes: 4 * Mi },
    env: PATH,
  },
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
  // k8s.gcr.io redirects to registry.k8s.io.
  if (name.startsWith('k8s.gcr.io/')) name = `registry.k8s.io/${name.slice('k8s.gcr.io/'.length)}`;
  return { repo: name, tag, full: `${name}:${tag}` };
}

/** The catalog entry for a repository (whatever the tag). */
export function lookupImage(ref: ImageRef): CatalogImage | undefined {
  return CATALOG.find((c) => c.repo === ref.repo);
}

/** What the registry says to a pull of `ref`: the image, or containerd's error for it. */
export function resolveImage(ref: ImageRef): { ok: true; image: CatalogImage } | { ok: false; code: 'NotFound' | 'Unknown'; message: string } {
  const img = lookupImage(ref);
  const head = `failed to pull and unpack image "${ref.full}": failed to resolve reference "${ref.full}"`;
  if (!img) {
    if (ref.repo.startsWith('docker.io/'))
      return { ok: false, code: 'Unknown', message: `${head}: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed` };
    return { ok: false, code: 'NotFound', message: `${head}: ${ref.full}: not found` };
  }
  if (!img.tags.includes(ref.tag)) return { ok: false, code: 'NotFound', message: `${head}: ${ref.full}: not found` };
  return { ok: true, image: img };
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

/** The process's argv as containerd builds it: the pod's command or the image's entrypoint, then args (or the image's CMD). */
export function processArgv(img: CatalogImage, command: readonly string[] | undefined, args: readonly string[] | undefined): string[] {
  if (command && command.length > 0) return [...command, ...(args ?? [])];
  return [...(img.entrypoint ?? []), ...(args && args.length > 0 ? args : (img.cmd ?? []))];
}

// The utilities both userlands have, the shells' builtins among them (true, echo, test, ...): a container
// or an exec may run them directly, as /bin/true or busybox's applet.
const COMMON_UTILITIES = ['true', 'false', 'echo', 'printf', 'test', '[', 'cat', 'ls', 'touch', 'mkdir', 'rm', 'sleep', 'date', 'hostname', 'whoami', 'id', 'pwd', 'uname', 'env', 'printenv', 'head', 'tail', 'wc', 'grep', 'kill', 'yes', 'dd'];
const BUSYBOX_APPLETS = ['sh', 'ash', 'ps', 'wget', 'nslookup', ...COMMON_UTILITIES];
const GNU_TOOLS = ['sh', 'bash', 'dash', ...COMMON_UTILITIES];

/** Whether `name` (a name or a path) exists in the image. */
export function imageHasCommand(img: CatalogImage, name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (img.programs.includes(name) || img.programs.some((p) => p.slice(p.lastIndexOf('/') + 1) === base)) return true;
  if (img.userland === 'busybox') return BUSYBOX_APPLETS.includes(base);
  if (img.userland === 'gnu') return GNU_TOOLS.includes(base);
  return false;
}

/** Directories every image has. */
export const BASE_DIRS = ['/bin', '/dev', '/etc', '/home', '/proc', '/root', '/sys', '/tmp', '/usr', '/var', '/var/run'];

/** Every image of the catalog, for the terminal's help and the README. */
export function catalog(): readonly CatalogImage[] {
  return CATALOG;
}
