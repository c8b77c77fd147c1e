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
  /** What some tags change: the ENV and files of every variant whose `when` (a regular expression) matches the tag, in order. */
  variants?: readonly ImageVariant[];
  /** The busybox release whose applets the userland is (their behaviour differs: nslookup was rewritten in 1.29). */
  busybox?: string;
}

/** Tags of one repository that are different images: another version (its ENV says which), or a flavour's files. */
export interface ImageVariant {
  when: string;
  env?: Record<string, string>;
  files?: Record<string, string>;
  busybox?: string;
}

const Ki = 1024;
const Mi = 1024 * 1024;
const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nID=debian\n';
const ALPINE = 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.21.2\nPRETTY_NAME="Alpine Linux v3.21"\n';
const PATH = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };
/** The pages nginx images ship in /usr/share/nginx/html (its default server's root). */
const NGINX_HTML = {
  '/usr/share/nginx/html/index.html': '<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n</body>\n</html>\n',
  '/usr/share/nginx/html/50x.html': '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n</head>\n<body>\n<h1>An error occurred.</h1>\n</body>\n</html>\n',
};
const UBUNTU = 'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nVERSION="24.04.1 LTS (Noble Numbat)"\nID=ubuntu\n';

/**
 * A variant per version: tags `V`, `V.x` and `V-flavour` (16, 16.6, 16-alpine) carry `env`; later rows refine
 * earlier ones (JavaScript orders integer keys first, so `8` comes before `8.0` whatever the writing order).
 */
const byVersion = (rows: Record<string, Record<string, string>>): ImageVariant[] =>
  Object.entries(rows).map(([v, env]) => ({ when: `^${v.replace(/\./g, '\\.')}([.-]|$)`, env }));

// Programs are listed only when shell/ gives them behaviour: the database images' clients (psql, pg_isready,
// mysqladmin, mongosh, rabbitmqctl…) are not there yet, so an exec of one fails as a missing binary would.
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
      ...NGINX_HTML,
      '/etc/os-release': DEBIAN,
    },
    env: { ...PATH, NGINX_VERSION: '1.27.3' },
    // A minor tag is that line's last release; a full tag itself.
    variants: byVersion({
      '1.29': { NGINX_VERSION: '1.29.0' },
      '1.28': { NGINX_VERSION: '1.28.0' },
      '1.27': { NGINX_VERSION: '1.27.5' },
      '1.27.3': { NGINX_VERSION: '1.27.3' },
      '1.27.2': { NGINX_VERSION: '1.27.2' },
      '1.26': { NGINX_VERSION: '1.26.3' },
      '1.26.2': { NGINX_VERSION: '1.26.2' },
      '1.25': { NGINX_VERSION: '1.25.5' },
      '1.21': { NGINX_VERSION: '1.21.6' },
      '1.19': { NGINX_VERSION: '1.19.10' },
      '1.16.1': { NGINX_VERSION: '1.16.1' },
      '1.14.2': { NGINX_VERSION: '1.14.2' },
    }),
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
    files: NGINX_HTML,
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
    busybox: '1.36.1',
    // 1.28 is the tag the DNS tutorials pin: its nslookup is the old one, over the libc resolver.
    variants: [
      { when: '^1\\.28', busybox: '1.28.4' },
      { when: '^1\\.37', busybox: '1.37.0' },
      { when: '^1\\.35', busybox: '1.35.0' },
      { when: '^1\\.34', busybox: '1.34.1' },
    ],
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
  // Databases and queues (docker-library's official images; their entrypoints are in shell/databases.ts).
  {
    repo: 'docker.io/library/postgres',
    tags: ['latest', '17', '17.2', '16', '16.6', '15', '15.10', '14', '14.15', '13', '13.18', '12', '12.22', '11', '10', '10.1', '9.6', 'alpine', '17-alpine', '16-alpine', '15-alpine', '14-alpine', '13-alpine', 'bookworm', '17-bookworm', '16-bookworm'],
    sizeBytes: 153_918_243,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['postgres'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'postgres'],
    // Dockerfile: STOPSIGNAL SIGINT (a fast shutdown rather than SIGTERM's smart one).
    stopSignal: 'INT',
    idle: { cpuMilli: 1, memoryBytes: 30 * Mi },
    files: { '/etc/os-release': DEBIAN },
    env: { ...PATH, PG_MAJOR: '17', PG_VERSION: '17.2-1.pgdg120+1', PGDATA: '/var/lib/postgresql/data', LANG: 'en_US.utf8' },
    variants: [
      ...byVersion({
        '16': { PG_MAJOR: '16', PG_VERSION: '16.6-1.pgdg120+1' },
        '15': { PG_MAJOR: '15', PG_VERSION: '15.10-1.pgdg120+1' },
        '14': { PG_MAJOR: '14', PG_VERSION: '14.15-1.pgdg120+1' },
        '13': { PG_MAJOR: '13', PG_VERSION: '13.18-1.pgdg120+1' },
        '12': { PG_MAJOR: '12', PG_VERSION: '12.22-1.pgdg120+1' },
        '11': { PG_MAJOR: '11', PG_VERSION: '11.22-1.pgdg120+1' },
        '10': { PG_MAJOR: '10', PG_VERSION: '10.23-1.pgdg110+1' },
        '10.1': { PG_MAJOR: '10', PG_VERSION: '10.1-1.pgdg90+1' },
        '9.6': { PG_MAJOR: '9.6', PG_VERSION: '9.6.24-1.pgdg110+1' },
      }),
      // The alpine images: PostgreSQL built against musl (its start-up banner says so).
      { when: '^(\\d+-)?alpine$', files: { '/etc/os-release': ALPINE } },
    ],
  },
  {
    repo: 'docker.io/library/mysql',
    tags: ['latest', '9', '9.1', '9.1.0', 'innovation', 'oracle', '8', '8.4', '8.4.3', 'lts', '8-oracle', '8.0', '8.0.40', '5.7', '5.7.44'],
    sizeBytes: 176_304_471,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['mysqld'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'mysqld'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 4, memoryBytes: 380 * Mi },
    env: { ...PATH, MYSQL_MAJOR: 'innovation', MYSQL_VERSION: '9.1.0-1.el9' },
    variants: byVersion({
      '8': { MYSQL_MAJOR: '8.4', MYSQL_VERSION: '8.4.3-1.el9' },
      lts: { MYSQL_MAJOR: '8.4', MYSQL_VERSION: '8.4.3-1.el9' },
      '8.0': { MYSQL_MAJOR: '8.0', MYSQL_VERSION: '8.0.40-1.el9' },
      '5.7': { MYSQL_MAJOR: '5.7', MYSQL_VERSION: '5.7.44-1.el7' },
    }),
  },
  {
    repo: 'docker.io/library/mariadb',
    tags: ['latest', '11', '11.6', '11.6.2', 'lts', '11.4', '11.4.4', '10', '10.11', '10.11.10', '10.6', '10.6.20', '10.5', '10.5.27'],
    sizeBytes: 115_610_380,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['mariadbd'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'mariadbd'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 1, memoryBytes: 95 * Mi },
    files: { '/etc/os-release': UBUNTU },
    env: { ...PATH, MARIADB_VERSION: '1:11.6.2+maria~ubu2404', LANG: 'C.UTF-8' },
    variants: byVersion({
      lts: { MARIADB_VERSION: '1:11.4.4+maria~ubu2404' },
      '11.4': { MARIADB_VERSION: '1:11.4.4+maria~ubu2404' },
      '10': { MARIADB_VERSION: '1:10.11.10+maria~ubu2204' },
      '10.6': { MARIADB_VERSION: '1:10.6.20+maria~ubu2004' },
      '10.5': { MARIADB_VERSION: '1:10.5.27+maria~ubu2004' },
    }),
  },
  {
    repo: 'docker.io/library/mongo',
    tags: ['latest', '8', '8.0', '8.0.4', '7', '7.0', '7.0.16', '6', '6.0', '6.0.19', '5', '5.0', '4.4'],
    sizeBytes: 287_614_922,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['mongod'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'mongod'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 6, memoryBytes: 160 * Mi },
    files: { '/etc/os-release': UBUNTU },
    env: { ...PATH, MONGO_MAJOR: '8.0', MONGO_VERSION: '8.0.4' },
    variants: byVersion({
      '7': { MONGO_MAJOR: '7.0', MONGO_VERSION: '7.0.16' },
      '6': { MONGO_MAJOR: '6.0', MONGO_VERSION: '6.0.19' },
      '5': { MONGO_MAJOR: '5.0', MONGO_VERSION: '5.0.30' },
      '4.4': { MONGO_MAJOR: '4.4', MONGO_VERSION: '4.4.29' },
    }),
  },
  {
    repo: 'docker.io/library/memcached',
    tags: ['latest', '1', '1.6', '1.6.34', 'alpine', '1-alpine', '1.6-alpine', 'bookworm'],
    sizeBytes: 31_420_716,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['memcached'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'memcached'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.2, memoryBytes: 2 * Mi },
    files: { '/etc/os-release': DEBIAN },
    env: { ...PATH, MEMCACHED_VERSION: '1.6.34' },
  },
  {
    repo: 'docker.io/library/rabbitmq',
    tags: ['latest', '4', '4.0', '4.0.5', '3', '3.13', '3.13.7', '3.12', 'management', '4-management', '4.0-management', '3-management', '3.13-management', '3.12-management', 'alpine', 'management-alpine'],
    sizeBytes: 103_847_551,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['rabbitmq-server'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'rabbitmq-server'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 8, memoryBytes: 130 * Mi },
    files: { '/etc/os-release': UBUNTU, '/etc/rabbitmq/enabled_plugins': '[rabbitmq_prometheus].\n' },
    env: { ...PATH, RABBITMQ_VERSION: '4.0.5', RABBITMQ_DATA_DIR: '/var/lib/rabbitmq', HOME: '/var/lib/rabbitmq' },
    variants: [
      ...byVersion({ '3': { RABBITMQ_VERSION: '3.13.7' }, '3.12': { RABBITMQ_VERSION: '3.12.14' } }),
      // The -management images run `rabbitmq-plugins enable --offline rabbitmq_management` at build time.
      { when: 'management', files: { '/etc/rabbitmq/enabled_plugins': '[rabbitmq_prometheus,rabbitmq_management].\n' } },
    ],
  },
  // Language runtimes: their default CMD is a REPL, which exits at once without a terminal (shell/apps.ts).
  {
    repo: 'docker.io/library/python',
    tags: ['latest', '3', '3.13', '3.12', '3.11', '3.10', '3.9', '3.8', 'slim', '3-slim', '3.13-slim', '3.12-slim', '3.11-slim', '3.10-slim', '3.9-slim', 'alpine', '3-alpine', '3.13-alpine', '3.12-alpine', '3.11-alpine', 'bookworm', '3.12-bookworm', '3.12-slim-bookworm'],
    sizeBytes: 385_774_102,
    cmd: ['python3'],
    userland: 'gnu',
    programs: ['python3', 'python'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.5, memoryBytes: 9 * Mi },
    files: { '/etc/os-release': DEBIAN },
    env: { ...PATH, LANG: 'C.UTF-8', PYTHON_VERSION: '3.13.1' },
    variants: byVersion({
      '3.12': { PYTHON_VERSION: '3.12.8' },
      '3.11': { PYTHON_VERSION: '3.11.11' },
      '3.10': { PYTHON_VERSION: '3.10.16' },
      '3.9': { PYTHON_VERSION: '3.9.21' },
      '3.8': { PYTHON_VERSION: '3.8.20' },
    }),
  },
  {
    repo: 'docker.io/library/node',
    tags: ['latest', 'current', '23', '23.5', '22', '22.12', 'lts', '20', '20.18', '18', '18.20', 'alpine', 'lts-alpine', '22-alpine', '20-alpine', '18-alpine', 'slim', 'lts-slim', '22-slim', '20-slim', 'bookworm', '22-bookworm'],
    sizeBytes: 392_830_517,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['node'],
    userland: 'gnu',
    programs: ['docker-entrypoint.sh', 'node'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.5, memoryBytes: 40 * Mi },
    files: { '/etc/os-release': DEBIAN },
    env: { ...PATH, NODE_VERSION: '23.5.0', YARN_VERSION: '1.22.22' },
    variants: byVersion({ '22': { NODE_VERSION: '22.12.0' }, lts: { NODE_VERSION: '22.12.0' }, '20': { NODE_VERSION: '20.18.1' }, '18': { NODE_VERSION: '18.20.5' } }),
  },
  // HTTP clients and small web apps the tutorials use.
  {
    repo: 'docker.io/curlimages/curl',
    tags: ['latest', '8.11.1', '8.11.0', '8.10.1', '8.9.1', '8.8.0', '8.5.0', '8.1.2', '7.85.0', '7.72.0'],
    sizeBytes: 9_803_566,
    // The image's /entrypoint.sh prepends curl to anything that is not a command.
    entrypoint: ['/entrypoint.sh'],
    cmd: ['curl'],
    userland: 'busybox',
    programs: ['/entrypoint.sh', 'curl'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 1 * Mi },
    files: { '/etc/os-release': ALPINE },
    env: { ...PATH, CURL_CA_BUNDLE: '/cacert.pem' },
  },
  {
    repo: 'gcr.io/google-samples/hello-app',
    tags: ['1.0', '2.0'],
    sizeBytes: 11_126_301,
    // quickstarts/hello-app/Dockerfile: a distroless image, CMD ["/hello-app"], ENV PORT 8080.
    cmd: ['/hello-app'],
    userland: 'none',
    programs: ['/hello-app'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.1, memoryBytes: 4 * Mi },
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', PORT: '8080' },
  },
  {
    repo: 'registry.k8s.io/echoserver',
    tags: ['1.4', '1.9', '1.10'],
    sizeBytes: 46_143_911,
    entrypoint: ['/usr/local/bin/run.sh'],
    userland: 'busybox',
    programs: ['/usr/local/bin/run.sh', 'nginx'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.5, memoryBytes: 8 * Mi },
    env: PATH,
  },
  {
    repo: 'docker.io/hashicorp/http-echo',
    tags: ['latest', '1.0', '1.0.0', '0.2.3'],
    sizeBytes: 3_641_258,
    // docker/scratch/Dockerfile: FROM scratch, ENTRYPOINT ["/http-echo"].
    entrypoint: ['/http-echo'],
    userland: 'none',
    programs: ['/http-echo'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.1, memoryBytes: 3 * Mi },
  },
  {
    repo: 'docker.io/traefik/whoami',
    tags: ['latest', 'v1.10', 'v1.10.3', 'v1.10.1', 'v1.9.0'],
    sizeBytes: 3_386_142,
    entrypoint: ['/whoami'],
    userland: 'none',
    programs: ['/whoami'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0.1, memoryBytes: 3 * Mi },
  },
  {
    repo: 'docker.io/nginxinc/nginx-unprivileged',
    tags: ['latest', 'stable', 'mainline', 'alpine', 'stable-alpine', 'mainline-alpine', '1', '1.27', '1.27.3', '1.27-alpine', '1.26', '1.26.2'],
    sizeBytes: 72_431_889,
    entrypoint: ['/docker-entrypoint.sh'],
    cmd: ['nginx', '-g', 'daemon off;'],
    userland: 'gnu',
    programs: ['/docker-entrypoint.sh', 'nginx', 'curl'],
    stopSignal: 'QUIT',
    idle: { cpuMilli: 0.5, memoryBytes: 4 * Mi },
    files: {
      // The image runs as uid 101 and its default server listens on 8080 instead of 80.
      '/etc/nginx/conf.d/default.conf': 'server {\n    listen       8080;\n    listen  [::]:8080;\n    server_name  localhost;\n\n    location / {\n        root   /usr/share/nginx/html;\n        index  index.html index.htm;\n    }\n}\n',
      ...NGINX_HTML,
      '/etc/os-release': DEBIAN,
    },
    env: { ...PATH, NGINX_VERSION: '1.27.3' },
  },
  // kubeadm's DNS add-on (engine/coredns): a static Go binary on a distroless base.
  {
    repo: 'registry.k8s.io/coredns/coredns',
    tags: ['v1.11.3', 'v1.11.1', 'v1.10.1', 'v1.12.0'],
    sizeBytes: 18_562_039,
    entrypoint: ['/coredns'],
    userland: 'none',
    programs: ['/coredns'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 2, memoryBytes: 14 * Mi },
  },
  // The DNS debugging docs' pod (dnsutils.yaml) runs `sleep infinity` in it and `kubectl exec`s nslookup.
  {
    repo: 'registry.k8s.io/e2e-test-images/jessie-dnsutils',
    tags: ['1.3', '1.4', '1.5', '1.7'],
    sizeBytes: 69_812_448,
    // FROM debian:jessie (its CMD ["bash"]) plus dnsutils and a coredns binary.
    cmd: ['bash'],
    userland: 'gnu',
    programs: ['nslookup', 'dig', 'host'],
    stopSignal: 'TERM',
    idle: { cpuMilli: 0, memoryBytes: 400 * Ki },
    env: PATH,
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

/** The ENV and files of `tag` of the image: the repository's, then every matching variant's. */
export function imageContent(img: CatalogImage, tag: string): { env: Record<string, string>; files: Record<string, string>; busybox?: string } {
  let env = { ...(img.env ?? {}) };
  let files = { ...(img.files ?? {}) };
  let busybox = img.busybox;
  for (const v of img.variants ?? []) {
    if (!new RegExp(v.when).test(tag)) continue;
    env = { ...env, ...v.env };
    files = { ...files, ...v.files };
    busybox = v.busybox ?? busybox;
  }
  return { env, files, ...(busybox ? { busybox } : {}) };
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
const BUSYBOX_APPLETS = ['sh', 'ash', 'ps', 'wget', 'nslookup', 'ping', ...COMMON_UTILITIES];
// getent is glibc's own (libc-bin), in every Debian and Ubuntu image.
const GNU_TOOLS = ['sh', 'bash', 'dash', 'getent', ...COMMON_UTILITIES];

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
