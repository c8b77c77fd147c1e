// The servers of the official database and queue images (postgres, mysql,
// mariadb, mongo, memcached, rabbitmq) as the fake runtime runs them: their
// entrypoints' checks (a database without a root/superuser password refuses
// to initialise and exits 1, which is the CrashLoopBackOff every tutorial
// meets), their first-start initialisation logs in each server's own log
// format, when they start listening, and how they shut down on a signal. The
// version a log line names comes from the image's ENV (PG_VERSION,
// MYSQL_VERSION, …), as the real images set it per tag.
import type { CommandEnv, CommandResult } from './commands';
import { dateText } from './commands';
import { daemon, when, type Daemon } from './daemon';
import { normalise } from './fs';

type Line = NonNullable<Daemon['logs']>[number];

/** Log lines due `ms` after the start on one stream. */
const at = (ms: number, fd: 1 | 2, ...texts: string[]): Line[] => texts.map((text) => ({ afterMs: ms, fd, text }));

/** The official images' file_env: VAR, else the contents of the file VAR_FILE names (trailing newline dropped). */
function fileEnv(e: CommandEnv, name: string): string {
  const v = e.env[name];
  if (v) return v;
  const file = e.env[`${name}_FILE`];
  return file ? (e.fs.read(normalise(file, e.cwd), e.at) ?? '').replace(/\n+$/, '') : '';
}

/** A stable 32-character password for MYSQL_RANDOM_ROOT_PASSWORD (pwgen's alphabet), from the pod's name. */
function randomPassword(seed: string): string {
  const abc = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let h = 0x811c9dc5;
  let out = '';
  for (let i = 0; i < 32; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i % Math.max(seed.length, 1)) ^ i, 0x01000193) >>> 0;
    out += abc[h % abc.length];
  }
  return out;
}

// ---- postgres (docker-library/postgres: docker-entrypoint.sh, STOPSIGNAL SIGINT) ------------------

const PG_NO_PASSWORD = `Error: Database is uninitialized and superuser password is not specified.
       You must specify POSTGRES_PASSWORD to a non-empty value for the
       superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".

       You may also use "POSTGRES_HOST_AUTH_METHOD=trust" to allow all
       connections without a password. This is *not* recommended.

       See PostgreSQL documentation about "trust":
       https://www.postgresql.org/docs/current/auth-trust.html
`;

const PG_TRUST_WARNING = `********************************************************************************
WARNING: POSTGRES_HOST_AUTH_METHOD has been set to "trust". This will allow
         anyone with access to the Postgres port to access your database without
         a password, even if POSTGRES_PASSWORD is set. See PostgreSQL
         documentation about "trust":
         https://www.postgresql.org/docs/current/auth-trust.html
         In Docker's default configuration, this is effectively any other
         container on the same system.

         It is not recommended to use POSTGRES_HOST_AUTH_METHOD=trust. Replace
         it with "-e POSTGRES_PASSWORD=password" instead to set a password in
         "docker run".
********************************************************************************
`;

const PG_ROOT = `"root" execution of the PostgreSQL server is not permitted.
The server must be started under an unprivileged user ID to prevent
possible system security compromise.  See the documentation for
more information on how to properly start the server.
`;

/** The server's version and start-up banner, from the image's PG_VERSION (and its base: Debian's packages or Alpine's musl build). */
function pgVersion(e: CommandEnv): { short: string; full: string; banner: string } {
  const full = e.env['PG_VERSION'] ?? '17.2-1.pgdg120+1';
  const short = full.split('-')[0]!;
  const alpine = (e.fs.read('/etc/os-release', e.at) ?? '').includes('Alpine');
  const banner = alpine
    ? `PostgreSQL ${short} on x86_64-pc-linux-musl, compiled by gcc (Alpine 14.2.0) 14.2.0, 64-bit`
    : `PostgreSQL ${short} (Debian ${full}) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit`;
  return { short, full, banner };
}

/** A server log line in the image's default log_line_prefix (`%m [%p] `); `ms` null: when a signal arrives. */
function pgLog(e: CommandEnv, ms: number | null, pid: number, msg: string): Line {
  return { afterMs: ms ?? 0, fd: 2, text: `${when(ms === null ? null : e.at + ms, '%Y-%m-%d %H:%M:%S.%3N')} UTC [${pid}] LOG:  ${msg}\n` };
}

/** initdb's report, as the entrypoint runs it on an empty PGDATA. */
function initdbLines(pgdata: string): Line[] {
  const steps = [
    `fixing permissions on existing directory ${pgdata} ... ok`,
    'creating subdirectories ... ok',
    'selecting dynamic shared memory implementation ... posix',
    'selecting default "max_connections" ... 100',
    'selecting default "shared_buffers" ... 128MB',
    'selecting default time zone ... Etc/UTC',
    'creating configuration files ... ok',
    'running bootstrap script ... ok',
    'performing post-bootstrap initialization ... ok',
    'syncing data to disk ... ok',
  ];
  return [
    ...at(
      0,
      1,
      'The files belonging to this database system will be owned by user "postgres".\nThis user must also own the server process.\n\n',
      'The database cluster will be initialized with locale "en_US.utf8".\nThe default database encoding has accordingly been set to "UTF8".\nThe default text search configuration will be set to "english".\n\nData page checksums are disabled.\n\n',
    ),
    ...steps.map((s, i) => ({ afterMs: 50 + i * 90, fd: 1 as const, text: `${s}\n` })),
    ...at(950, 1, `\n\nSuccess. You can now start the database server using:\n\n    pg_ctl -D ${pgdata} -l logfile start\n\n`),
    ...at(
      950,
      2,
      'initdb: warning: enabling "trust" authentication for local connections\n',
      'initdb: hint: You can change this by editing pg_hba.conf or using the option -A, or --auth-local and --auth-host, the next time you run initdb.\n',
    ),
  ];
}

/** The entrypoint's temporary server (Unix socket only), its setup, and its fast stop. */
function pgTempServer(e: CommandEnv, banner: string): Line[] {
  return [
    ...at(1000, 1, 'waiting for server to start....'),
    pgLog(e, 1010, 48, `starting ${banner}`),
    pgLog(e, 1015, 48, 'listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"'),
    pgLog(e, 1020, 51, `database system was shut down at ${dateText(e.at + 940, '%Y-%m-%d %H:%M:%S')} UTC`),
    pgLog(e, 1030, 48, 'database system is ready to accept connections'),
    ...at(1100, 1, ' done\nserver started\n'),
    ...(e.env['POSTGRES_DB'] && e.env['POSTGRES_DB'] !== (e.env['POSTGRES_USER'] || 'postgres') ? at(1150, 1, 'CREATE DATABASE\n\n') : []),
    ...at(1150, 1, '\n/usr/local/bin/docker-entrypoint.sh: ignoring /docker-entrypoint-initdb.d/*\n\n', 'waiting for server to shut down....'),
    pgLog(e, 1200, 48, 'received fast shutdown request'),
    pgLog(e, 1200, 48, 'aborting any active transactions'),
    pgLog(e, 1205, 48, 'background worker "logical replication launcher" (PID 54) exited with exit code 1'),
    pgLog(e, 1210, 49, 'shutting down'),
    pgLog(e, 1250, 48, 'database system is shut down'),
    ...at(1300, 1, ' done\nserver stopped\n\nPostgreSQL init process complete; ready for start up.\n\n'),
  ];
}

const PG_READY_MS = 1450;

function postgres(args: string[], e: CommandEnv, viaEntrypoint: boolean): CommandResult {
  const v = pgVersion(e);
  if (args.includes('--version') || args.includes('-V')) return { status: 0, stdout: `postgres (PostgreSQL) ${v.short} (Debian ${v.full})\n` };
  // The entrypoint drops to the postgres user (gosu); run directly, the server refuses root.
  if (!viaEntrypoint) return { status: 1, stderr: PG_ROOT };
  const trust = e.env['POSTGRES_HOST_AUTH_METHOD'] === 'trust';
  if (!fileEnv(e, 'POSTGRES_PASSWORD') && !trust) return { status: 1, stderr: PG_NO_PASSWORD };
  const banner = v.banner;
  const r = PG_READY_MS;
  // The postmaster's shutdown: the checkpointer (pid 65) writes the shutdown checkpoint, then it exits 0.
  const shutdown = (kind: 'fast' | 'smart') =>
    [
      pgLog(e, null, 1, `received ${kind} shutdown request`),
      pgLog(e, null, 1, 'aborting any active transactions'),
      pgLog(e, null, 1, 'background worker "logical replication launcher" (PID 67) exited with exit code 1'),
      pgLog(e, null, 65, 'shutting down'),
      pgLog(e, null, 1, 'database system is shut down'),
    ].map(({ fd, text }) => ({ fd, text }));
  return daemon({
    name: 'postgres',
    logs: [
      ...(trust ? at(0, 2, PG_TRUST_WARNING) : []),
      ...initdbLines(e.env['PGDATA'] ?? '/var/lib/postgresql/data'),
      ...pgTempServer(e, banner),
      pgLog(e, r, 1, `starting ${banner}`),
      pgLog(e, r, 1, 'listening on IPv4 address "0.0.0.0", port 5432'),
      pgLog(e, r, 1, 'listening on IPv6 address "::", port 5432'),
      pgLog(e, r, 1, 'listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"'),
      pgLog(e, r + 5, 64, `database system was shut down at ${dateText(e.at + 1250, '%Y-%m-%d %H:%M:%S')} UTC`),
      pgLog(e, r + 10, 1, 'database system is ready to accept connections'),
    ],
    ports: [5432],
    listenAfterMs: r,
    onSignal: {
      // SIGINT (the image's STOPSIGNAL) is a fast shutdown; SIGTERM a smart one (waits for clients; there are none).
      INT: { afterMs: 100, exitCode: 0, logs: shutdown('fast') },
      TERM: { afterMs: 100, exitCode: 0, logs: shutdown('smart') },
    },
  });
}

// ---- mysql and mariadb (docker-library/mysql, MariaDB/mariadb-docker: docker-entrypoint.sh, SIGTERM) --

/** The entrypoints' mysql_note/mysql_warn/mysql_error: `date --rfc-3339=seconds` [Type] [Entrypoint]: text. */
function entryNote(e: CommandEnv, ms: number, type: 'Note' | 'Warn' | 'ERROR', text: string): Line {
  return { afterMs: ms, fd: type === 'Note' ? 1 : 2, text: `${dateText(e.at + ms, '%Y-%m-%d %H:%M:%S')}+00:00 [${type}] [Entrypoint]: ${text}\n` };
}

const MYSQL_NO_PASSWORD =
  'Database is uninitialized and password option is not specified\n    You need to specify one of the following as an environment variable:\n    - MYSQL_ROOT_PASSWORD\n    - MYSQL_ALLOW_EMPTY_PASSWORD\n    - MYSQL_RANDOM_ROOT_PASSWORD';
const MARIADB_NO_PASSWORD =
  'Database is uninitialized and password option is not specified\n\tYou need to specify one of MARIADB_ROOT_PASSWORD, MARIADB_ROOT_PASSWORD_HASH, MARIADB_ALLOW_EMPTY_ROOT_PASSWORD and MARIADB_RANDOM_ROOT_PASSWORD';

interface MysqlFlavour {
  product: 'MySQL' | 'MariaDB';
  /** The package version the entrypoint names (MYSQL_VERSION, MARIADB_VERSION). */
  pkg: string;
  /** The server's own version string. */
  server: string;
  binary: string;
  /** Environment variables any one of which lets initialisation go ahead. */
  passwordVars: string[];
  noPassword: string;
  /** How long initialising the data directory takes. */
  initMs: number;
  /** A server log line (`ms` null: when a signal arrives). */
  log(ms: number | null, thread: number, label: string, code: string, sub: string, msg: string): Line;
  ready(port: number): string;
}

function mysqlFlavour(e: CommandEnv): MysqlFlavour {
  const pkg = e.env['MYSQL_VERSION'] ?? '8.4.3-1.el9';
  const server = pkg.split('-')[0]!;
  return {
    product: 'MySQL',
    pkg,
    server,
    binary: '/usr/sbin/mysqld',
    passwordVars: ['MYSQL_ROOT_PASSWORD', 'MYSQL_ALLOW_EMPTY_PASSWORD', 'MYSQL_RANDOM_ROOT_PASSWORD'],
    noPassword: MYSQL_NO_PASSWORD,
    initMs: 5000,
    log: (ms, thread, label, code, sub, msg) => ({ afterMs: ms ?? 0, fd: 2, text: `${when(ms === null ? null : e.at + ms, '%Y-%m-%dT%H:%M:%S.%6NZ')} ${thread} [${label}] [${code}] [${sub}] ${msg}\n` }),
    ready: (port) => `/usr/sbin/mysqld: ready for connections. Version: '${server}'  socket: '/var/run/mysqld/mysqld.sock'  port: ${port}  MySQL Community Server - GPL.`,
  };
}

function mariadbFlavour(e: CommandEnv): MysqlFlavour {
  const pkg = e.env['MARIADB_VERSION'] ?? '1:11.4.4+maria~ubu2404';
  const m = /^(?:\d+:)?([\d.]+)\+maria~(\w+)$/.exec(pkg);
  const server = m ? `${m[1]}-MariaDB-${m[2]}` : pkg;
  return {
    product: 'MariaDB',
    pkg,
    server,
    binary: 'mariadbd',
    passwordVars: ['MARIADB_ROOT_PASSWORD', 'MARIADB_ROOT_PASSWORD_HASH', 'MARIADB_ALLOW_EMPTY_ROOT_PASSWORD', 'MARIADB_RANDOM_ROOT_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'MYSQL_ALLOW_EMPTY_PASSWORD', 'MYSQL_RANDOM_ROOT_PASSWORD'],
    noPassword: MARIADB_NO_PASSWORD,
    initMs: 1500,
    // MariaDB's error log: `2025-01-01  0:00:05 0 [Note] message` (the hour space-padded).
    log: (ms, thread, label, _code, _sub, msg) => ({ afterMs: ms ?? 0, fd: 2, text: `${when(ms === null ? null : e.at + ms, '%Y-%m-%d %k:%M:%S')} ${thread} [${label}] ${msg}\n` }),
    ready: (port) => `mariadbd: ready for connections.\nVersion: '${server}'  socket: '/run/mysqld/mysqld.sock'  port: ${port}  mariadb.org binary distribution`,
  };
}

/** What the entrypoint does with the database and user it is asked for, after the temporary server is up. */
function mysqlSetup(e: CommandEnv, f: MysqlFlavour, ms: number): Line[] {
  const get = (name: string) => fileEnv(e, `${f.product === 'MariaDB' ? 'MARIADB' : 'MYSQL'}_${name}`) || fileEnv(e, `MYSQL_${name}`);
  const out: Line[] = [];
  if (get('RANDOM_ROOT_PASSWORD')) out.push(entryNote(e, ms, 'Note', `GENERATED ROOT PASSWORD: ${randomPassword(e.hostname)}`));
  const db = get('DATABASE');
  const user = get('USER');
  if (db) out.push(entryNote(e, ms, 'Note', `Creating database ${db}`));
  if (user && get('PASSWORD')) {
    out.push(entryNote(e, ms, 'Note', `Creating user ${user}`));
    if (db) out.push(entryNote(e, ms, 'Note', `Giving user ${user} access to schema ${db}`));
  }
  return out;
}

function mysqlServerStart(f: MysqlFlavour, ms: number, port: number): Line[] {
  if (f.product === 'MariaDB')
    return [
      f.log(ms, 0, 'Note', '', '', `Starting MariaDB ${f.server} source revision 0000000000000000000000000000000000000000 server_uid 0000000000000000000000000000 as process 1`),
      f.log(ms + 20, 0, 'Note', '', '', 'InnoDB: Initialized memory pressure event listener'),
      f.log(ms + 40, 0, 'Note', '', '', 'InnoDB: Buffer pool(s) load completed'),
      // The temporary server runs with --skip-networking (port 0): no sockets.
      ...(port ? [f.log(ms + 60, 0, 'Note', '', '', `Server socket created on IP: '0.0.0.0', port: '${port}'.`), f.log(ms + 60, 0, 'Note', '', '', `Server socket created on IP: '::', port: '${port}'.`)] : []),
      f.log(ms + 80, 0, 'Note', '', '', f.ready(port)),
    ];
  return [
    f.log(ms, 0, 'System', 'MY-015015', 'Server', 'MySQL Server - start.'),
    f.log(ms + 10, 0, 'System', 'MY-010116', 'Server', `${f.binary} (mysqld ${f.server}) starting as process 1`),
    f.log(ms + 20, 1, 'System', 'MY-013576', 'InnoDB', 'InnoDB initialization has started.'),
    f.log(ms + 400, 1, 'System', 'MY-013577', 'InnoDB', 'InnoDB initialization has ended.'),
    f.log(ms + 700, 0, 'Warning', 'MY-010068', 'Server', 'CA certificate ca.pem is self signed.'),
    f.log(ms + 700, 0, 'System', 'MY-013602', 'Server', 'Channel mysql_main configured to support TLS. Encrypted connections are now supported for this channel.'),
    f.log(ms + 750, 0, 'System', 'MY-011323', 'Server', `X Plugin ready for connections. ${port ? "Bind-address: '::' port: 33060" : 'Socket: /var/run/mysqld/mysqlx.sock'}`),
    f.log(ms + 800, 0, 'System', 'MY-010931', 'Server', f.ready(port)),
  ];
}

/** A server's shutdown lines (`ms` null: on a signal, all stamped with its arrival). */
function mysqlServerStop(f: MysqlFlavour, ms: number | null): Line[] {
  const later = ms === null ? null : ms + stopMs(f);
  if (f.product === 'MariaDB') return [f.log(ms, 0, 'Note', '', '', 'mariadbd (initiated by: unknown): Normal shutdown'), f.log(later, 0, 'Note', '', '', 'mariadbd: Shutdown complete')];
  return [
    f.log(ms, 0, 'System', 'MY-013172', 'Server', `Received SHUTDOWN from user <via user signal>. Shutting down mysqld (Version: ${f.server}).`),
    f.log(later, 0, 'System', 'MY-010910', 'Server', `${f.binary}: Shutdown complete (mysqld ${f.server})  MySQL Community Server - GPL.`),
  ];
}

/** How long a server takes from its first log line to "ready for connections", and to stop. */
const startMs = (f: MysqlFlavour) => (f.product === 'MySQL' ? 800 : 80);
const stopMs = (f: MysqlFlavour) => (f.product === 'MySQL' ? 900 : 300);

/**
 * The entrypoint's first start: initialise the data directory, a temporary server (socket only, port 0) for
 * the setup, stop it. Returns the lines and when the real server starts.
 */
function mysqlInit(e: CommandEnv, f: MysqlFlavour): { lines: Line[]; doneMs: number } {
  const note = (ms: number, text: string) => entryNote(e, ms, 'Note', text);
  const data = f.initMs;
  const ready = data + 100 + startMs(f);
  const stop = ready + 600;
  const stopped = stop + stopMs(f) + 50;
  const lines = [
    note(100, 'Initializing database files'),
    ...(f.product === 'MySQL'
      ? [
          f.log(150, 0, 'System', 'MY-015017', 'Server', 'MySQL Server Initialization - start.'),
          f.log(160, 0, 'System', 'MY-013169', 'Server', `${f.binary} (mysqld ${f.server}) initializing of server in progress as process 80`),
          f.log(data - 400, 6, 'Warning', 'MY-010453', 'Server', 'root@localhost is created with an empty password ! Please consider switching off the --initialize-insecure option.'),
          f.log(data - 100, 0, 'System', 'MY-015018', 'Server', 'MySQL Server Initialization - end.'),
        ]
      : []),
    note(data, 'Database files initialized'),
    note(data, 'Starting temporary server'),
    note(data, 'Waiting for server startup'),
    ...mysqlServerStart(f, data + 100, 0),
    note(ready + 50, 'Temporary server started.'),
    ...mysqlSetup(e, f, ready + 400),
    note(stop, 'Stopping temporary server'),
    ...mysqlServerStop(f, stop),
    note(stopped, 'Temporary server stopped'),
    ...at(stopped, 1, '\n'),
    note(stopped, `${f.product} init process done. Ready for start up.`),
    ...at(stopped, 1, '\n'),
  ];
  return { lines, doneMs: stopped + 100 };
}

function mysqlEntrypoint(e: CommandEnv, f: MysqlFlavour): CommandResult {
  const started = `Entrypoint script for ${f.product} Server ${f.pkg} started.`;
  const head: Line[] = [
    entryNote(e, 0, 'Note', started),
    ...(f.product === 'MariaDB' ? [entryNote(e, 0, 'Warn', '/sys/fs/cgroup///memory.pressure not writable, functionality unavailable to MariaDB')] : []),
    entryNote(e, 0, 'Note', "Switching to dedicated user 'mysql'"),
    entryNote(e, 10, 'Note', started),
  ];
  if (!f.passwordVars.some((v) => fileEnv(e, v))) {
    // mysql_error: the message on stderr, then exit 1.
    return daemon({ name: 'mysqld', logs: [...head, entryNote(e, 20, 'ERROR', f.noPassword)], exitAfterMs: 20, exitCode: 1 });
  }
  const port = 3306;
  const init = mysqlInit(e, f);
  return daemon({
    name: f.product === 'MySQL' ? 'mysqld' : 'mariadbd',
    logs: [...head, ...init.lines, ...mysqlServerStart(f, init.doneMs, port)],
    ports: f.product === 'MySQL' ? [port, 33060] : [port],
    listenAfterMs: init.doneMs + startMs(f),
    onSignal: { TERM: { afterMs: stopMs(f), exitCode: 0, logs: mysqlServerStop(f, null).map(({ fd, text }) => ({ fd, text })) } },
  });
}

/** mysqld / mariadbd run without the entrypoint: as root they refuse to start. */
function mysqlAsRoot(f: MysqlFlavour): CommandResult {
  const lines =
    f.product === 'MySQL'
      ? [f.log(0, 0, 'ERROR', 'MY-010123', 'Server', 'Fatal error: Please read "Security" section of the manual to find out how to run mysqld as root!'), f.log(0, 0, 'ERROR', 'MY-010119', 'Server', 'Aborting')]
      : [f.log(0, 0, 'ERROR', '', '', 'Fatal error: Please read "Security" section of the manual to find out how to run mariadbd as root!'), f.log(0, 0, 'ERROR', '', '', 'Aborting')];
  return { status: 1, stderr: lines.map((l) => l.text).join('') };
}

// ---- mongo (docker-library/mongo: docker-entrypoint.sh mongod; SIGTERM) ---------------------------

/** mongod's structured log line (JSON, one a line, on stdout). */
function mongoLog(e: CommandEnv, ms: number | null, c: string, id: number, ctx: string, msg: string, attr?: Record<string, unknown>): Line {
  const date = `${when(ms === null ? null : e.at + ms, '%Y-%m-%dT%H:%M:%S.%3N')}+00:00`;
  const pad = (s: string, n: number) => `"${s}",${' '.repeat(Math.max(1, n - s.length))}`;
  const tail = attr ? `,"attr":${JSON.stringify(attr)}` : '';
  return { afterMs: ms ?? 0, fd: 1, text: `{"t":{"$date":"${date}"},"s":"I",  "c":${pad(c, 8)} "id":${id},${' '.repeat(Math.max(1, 8 - String(id).length))}"ctx":"${ctx}","msg":"${msg}"${tail}}\n` };
}

function mongod(e: CommandEnv): CommandResult {
  const user = fileEnv(e, 'MONGO_INITDB_ROOT_USERNAME');
  const pass = fileEnv(e, 'MONGO_INITDB_ROOT_PASSWORD');
  if (!!user !== !!pass)
    return { status: 1, stderr: "error: missing 'MONGO_INITDB_ROOT_USERNAME' or 'MONGO_INITDB_ROOT_PASSWORD'\n       both must be specified for a user to be created\n" };
  const version = e.env['MONGO_VERSION'] ?? '8.0.4';
  const ready = 900;
  const log = (ms: number | null, c: string, id: number, ctx: string, msg: string, attr?: Record<string, unknown>) => mongoLog(e, ms, c, id, ctx, msg, attr);
  const stop = (m: Line) => ({ fd: m.fd, text: m.text });
  return daemon({
    name: 'mongod',
    logs: [
      log(0, 'CONTROL', 23285, 'main', 'Automatically disabling TLS 1.0 and TLS 1.1, to force-enable TLS 1.1 specify --sslDisabledProtocols \'TLS1_0\'; to force-enable TLS 1.0 specify --sslDisabledProtocols \'none\''),
      log(5, 'NETWORK', 4915701, 'main', 'Initialized wire specification'),
      log(20, 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting', { pid: 1, port: 27017, dbPath: '/data/db', architecture: '64-bit', host: e.hostname }),
      log(20, 'CONTROL', 23403, 'initandlisten', 'Build Info', { buildInfo: { version, gitVersion: '0000000000000000000000000000000000000000', openSSLVersion: 'OpenSSL 3.0.13 30 Jan 2024', modules: [], allocator: 'tcmalloc-google', environment: { distmod: 'ubuntu2404', distarch: 'x86_64', target_arch: 'x86_64' } } }),
      log(40, 'STORAGE', 22315, 'initandlisten', 'Opening WiredTiger', { config: 'create,cache_size=3466M,session_max=33000,eviction=(threads_min=4,threads_max=4)' }),
      log(700, 'STORAGE', 4795906, 'initandlisten', 'WiredTiger opened', { durationMillis: 650 }),
      ...(user ? [] : [log(720, 'CONTROL', 22120, 'initandlisten', 'Access control is not enabled for the database. Read and write access to data and configuration is unrestricted', { tags: ['startupWarnings'] })]),
      log(ready, 'NETWORK', 23015, 'listener', 'Listening on', { address: '/tmp/mongodb-27017.sock' }),
      log(ready, 'NETWORK', 23015, 'listener', 'Listening on', { address: '0.0.0.0' }),
      log(ready, 'NETWORK', 23016, 'listener', 'Waiting for connections', { port: 27017, ssl: 'off' }),
    ],
    ports: [27017],
    listenAfterMs: ready,
    onSignal: {
      TERM: {
        afterMs: 300,
        exitCode: 0,
        logs: [
          stop(log(null, 'CONTROL', 23377, 'SignalHandler', 'Received signal', { signal: 15, error: 'Terminated' })),
          stop(log(null, 'CONTROL', 23378, 'SignalHandler', 'Signal was sent by kill(2)', { pid: 0, uid: 0 })),
          stop(log(null, 'CONTROL', 23381, 'SignalHandler', 'will terminate after current cmd ends')),
          stop(log(null, 'CONTROL', 20565, 'SignalHandler', 'Now exiting')),
          stop(log(null, 'CONTROL', 23138, 'SignalHandler', 'Shutting down', { exitCode: 0 })),
        ],
      },
    },
  });
}

// ---- memcached (docker-library/memcached: docker-entrypoint.sh memcached; SIGTERM) ----------------

function memcached(args: string[], e: CommandEnv): CommandResult {
  const version = e.env['MEMCACHED_VERSION'] ?? '1.6.34';
  if (args.includes('-V') || args.includes('--version')) return { status: 0, stdout: `memcached ${version}\n` };
  const p = args.findIndex((a) => a === '-p' || a === '--port');
  const eq = args.find((a) => a.startsWith('--port='));
  const port = Number(p >= 0 ? args[p + 1] : eq ? eq.slice('--port='.length) : '11211') || 11211;
  // memcached logs nothing at start unless -v; its SIGTERM handler prints one line and exits.
  return daemon({
    name: 'memcached',
    ports: [port],
    onSignal: { TERM: { afterMs: 0, exitCode: 0, logs: [{ fd: 1, text: 'Signal handled: Terminated.\n' }] }, INT: { afterMs: 0, exitCode: 0, logs: [{ fd: 1, text: 'Signal handled: Interrupt.\n' }] } },
  });
}

// ---- rabbitmq (docker-library/rabbitmq: docker-entrypoint.sh rabbitmq-server; SIGTERM) ------------

function rabbitLog(e: CommandEnv, ms: number | null, level: 'info' | 'notice', pid: string, msg: string): Line {
  return { afterMs: ms ?? 0, fd: 1, text: `${when(ms === null ? null : e.at + ms, '%Y-%m-%d %H:%M:%S.%6N')}+00:00 [${level}] <0.${pid}.0> ${msg}\n` };
}

function rabbitBanner(version: string): string {
  return `
  ##  ##      RabbitMQ ${version}
  ##  ##
  ##########  Copyright (c) 2007-2024 Broadcom Inc and/or its subsidiaries
  ######  ##
  ##########  Licensed under the MPL 2.0. Website: https://rabbitmq.com

  Erlang:      27.2 [jit]
  TLS Library: OpenSSL - OpenSSL 3.3.2 3 Sep 2024
  Release series support status: see https://www.rabbitmq.com/release-information

  Doc guides:  https://www.rabbitmq.com/docs
  Support:     https://www.rabbitmq.com/docs/contact
  Tutorials:   https://www.rabbitmq.com/tutorials
  Monitoring:  https://www.rabbitmq.com/docs/monitoring
  Upgrading:   https://www.rabbitmq.com/docs/upgrade

  Logs: <stdout>

  Config file(s): /etc/rabbitmq/conf.d/10-defaults.conf

  Starting broker...
`;
}

function rabbitmq(e: CommandEnv): CommandResult {
  const version = e.env['RABBITMQ_VERSION'] ?? '4.0.5';
  // The -management images enable the plugin at build time (rabbitmq-plugins enable --offline writes this file).
  const management = (e.fs.read('/etc/rabbitmq/enabled_plugins', e.at) ?? '').includes('rabbitmq_management');
  const plugins = management ? ['rabbitmq_prometheus', 'rabbitmq_federation', 'rabbitmq_management', 'rabbitmq_management_agent', 'rabbitmq_web_dispatch'] : ['rabbitmq_prometheus', 'rabbitmq_web_dispatch'];
  const ready = 6000;
  const log = (ms: number, pid: string, msg: string) => rabbitLog(e, ms, 'info', pid, msg);
  return daemon({
    name: 'rabbitmq-server',
    logs: [
      rabbitLog(e, 0, 'notice', '44', 'Application syslog exited with reason: stopped'),
      rabbitLog(e, 10, 'notice', '254', 'Logging: switching to configured handler(s); following messages may not be visible in this log output'),
      ...at(20, 1, rabbitBanner(version)),
      log(30, '254', `\n node           : rabbit@${e.hostname}\n home dir       : /var/lib/rabbitmq\n config file(s) : /etc/rabbitmq/conf.d/10-defaults.conf\n cookie hash    : 0000000000000000000000==\n log(s)         : /var/log/rabbitmq/rabbit@${e.hostname}_upgrade.log\n                : <stdout>\n data dir       : /var/lib/rabbitmq/mnesia/rabbit@${e.hostname}`),
      log(3000, '254', 'Running boot step rabbit_node_monitor defined by app rabbit'),
      ...(management ? [log(ready - 400, '659', 'Management plugin: HTTP (non-TLS) listener started on port 15672')] : []),
      log(ready - 300, '689', 'Prometheus metrics: HTTP (non-TLS) listener started on port 15692'),
      log(ready - 100, '634', 'Ready to start client connection listeners'),
      log(ready, '771', 'started TCP listener on [::]:5672'),
      ...at(ready, 1, ` completed with ${plugins.length} plugins.\n`),
      log(ready, '634', `Server startup complete; ${plugins.length} plugins started.`),
      ...plugins.map((p) => log(ready, '634', ` * ${p}`)),
    ],
    ports: management ? [5672, 15672, 15692, 25672] : [5672, 15692, 25672],
    listenAfterMs: ready,
    routes: [{ status: 200 }],
    onSignal: {
      TERM: {
        afterMs: 2500,
        exitCode: 0,
        logs: [rabbitLog(e, null, 'info', '257', 'RabbitMQ is asked to stop...'), rabbitLog(e, null, 'info', '257', 'Successfully stopped RabbitMQ and its dependencies')].map(({ fd, text }) => ({ fd, text })),
      },
    },
  });
}

/** The program of a database or queue image for `name` (a basename), or undefined. */
export function databaseProgram(name: string, args: string[], e: CommandEnv, viaEntrypoint: boolean): CommandResult | undefined {
  switch (name) {
    case 'postgres':
      return postgres(args, e, viaEntrypoint);
    case 'mysqld':
      return viaEntrypoint ? mysqlEntrypoint(e, mysqlFlavour(e)) : mysqlAsRoot(mysqlFlavour(e));
    case 'mariadbd':
      return viaEntrypoint ? mysqlEntrypoint(e, mariadbFlavour(e)) : mysqlAsRoot(mariadbFlavour(e));
    case 'mongod':
      return mongod(e);
    case 'memcached':
      return memcached(args, e);
    case 'rabbitmq-server':
      return rabbitmq(e);
  }
  return undefined;
}
