// The tutorial images of the catalog, run on the fake runtime as the kubelet runs them: their entrypoints'
// checks, the ports they listen on, their default commands, and what they do on their stop signal.
import { describe, expect, it } from 'vitest';
import { catalog, imageContent, lookupImage, parseImage, resolveImage } from './images';
import { ContainerLog } from './logs';
import { FakeRuntime } from './runtime';

function start(image: string, opts: { env?: Record<string, string>; args?: string[]; command?: string[] } = {}) {
  const rt = new FakeRuntime({ cpuMilli: 4000, podCIDR: '10.244.1.0/24', bandwidthBytesPerSec: 1e9, images: [] }, 1, 0);
  const sb = rt.runPodSandbox('uid-1', 'app-0', 'default', 0, 0);
  const c = rt.startContainer(
    sb.id,
    {
      podUid: 'uid-1',
      podName: 'app-0',
      namespace: 'default',
      name: 'app',
      attempt: 0,
      image,
      env: opts.env ?? {},
      mounts: {},
      cpuLimitMilli: 0,
      memoryLimitBytes: Infinity,
      cpuRequestMilli: 0,
      annotations: {},
      kind: 'regular',
      ...(opts.args ? { args: opts.args } : {}),
      ...(opts.command ? { command: opts.command } : {}),
    },
    1000,
  );
  const logs = (now: number, stream?: 'stdout' | 'stderr') =>
    ContainerLog.render(
      c.log.select(now, {}).filter((l) => !stream || l.stream === stream),
      {},
    );
  return { rt, sb, c, logs };
}

describe('postgres', () => {
  it('without POSTGRES_PASSWORD prints the entrypoint error on stderr and exits 1 at once', () => {
    const { rt, c, logs } = start('postgres:16');
    rt.advance(2000);
    expect(c).toMatchObject({ state: 'exited', exitCode: 1, reason: 'Error', finishedAt: 1000 });
    expect(logs(2000, 'stderr')).toMatch(/^Error: Database is uninitialized and superuser password is not specified\.\n {7}You must specify POSTGRES_PASSWORD/);
    expect(logs(2000, 'stdout')).toBe('');
  });

  it('with it: initdb, the temporary server, then 5432 and "ready to accept connections"; SIGINT is a fast shutdown', () => {
    const { rt, sb, c, logs } = start('postgres:16', { env: { POSTGRES_PASSWORD: 'secret' } });
    expect(rt.tcpOpen(sb.id, 5432, 1500)).toBe(false);
    rt.advance(10_000);
    expect(rt.tcpOpen(sb.id, 5432, 10_000)).toBe(true);
    expect(logs(10_000)).toContain('PostgreSQL init process complete; ready for start up.');
    expect(logs(10_000)).toMatch(/UTC \[1\] LOG: {2}starting PostgreSQL 16\.6 \(Debian 16\.6-1\.pgdg120\+1\)/);
    expect(logs(10_000).trimEnd().split('\n').pop()).toMatch(/^2025-01-01 00:00:0\d\.\d{3} UTC \[1\] LOG: {2}database system is ready to accept connections$/);
    // Its STOPSIGNAL is SIGINT: containerd sends that, and the shutdown lines carry the signal's time.
    expect(lookupImage(parseImage('postgres'))!.stopSignal).toBe('INT');
    rt.stopContainer(c.id, 30_000, 20_000);
    rt.advance(21_000);
    expect(c).toMatchObject({ state: 'exited', exitCode: 0, reason: 'Completed' });
    expect(logs(21_000)).toContain('2025-01-01 00:00:20.000 UTC [1] LOG:  received fast shutdown request');
  });

  it('POSTGRES_HOST_AUTH_METHOD=trust starts without a password (with the warning); run directly, the server refuses root', () => {
    const trust = start('postgres:17-alpine', { env: { POSTGRES_HOST_AUTH_METHOD: 'trust' } });
    trust.rt.advance(10_000);
    expect(trust.c.state).toBe('running');
    expect(trust.logs(10_000, 'stderr')).toContain('WARNING: POSTGRES_HOST_AUTH_METHOD has been set to "trust".');
    expect(trust.logs(10_000)).toContain('starting PostgreSQL 17.2 on x86_64-pc-linux-musl');
    const direct = start('postgres:16', { env: { POSTGRES_PASSWORD: 'x' }, command: ['postgres'] });
    direct.rt.advance(2000);
    expect(direct.c.exitCode).toBe(1);
    expect(direct.logs(2000)).toMatch(/^"root" execution of the PostgreSQL server is not permitted\./);
  });
});

describe('mysql and mariadb', () => {
  it('mysql without a root password option: the entrypoint notes, its ERROR block, exit 1', () => {
    const { rt, c, logs } = start('mysql:8.4');
    rt.advance(2000);
    expect(c).toMatchObject({ state: 'exited', exitCode: 1 });
    expect(logs(2000, 'stdout')).toContain('[Note] [Entrypoint]: Entrypoint script for MySQL Server 8.4.3-1.el9 started.');
    expect(logs(2000, 'stderr')).toBe(
      '2025-01-01 00:00:01+00:00 [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified\n' +
        '    You need to specify one of the following as an environment variable:\n    - MYSQL_ROOT_PASSWORD\n    - MYSQL_ALLOW_EMPTY_PASSWORD\n    - MYSQL_RANDOM_ROOT_PASSWORD\n',
    );
  });

  it('mysql with MYSQL_ROOT_PASSWORD initialises for seconds, then listens on 3306 and 33060; SIGTERM shuts it down', () => {
    const { rt, sb, c, logs } = start('mysql:8.0', { env: { MYSQL_ROOT_PASSWORD: 'pw', MYSQL_DATABASE: 'wordpress' } });
    rt.advance(4000);
    expect(rt.tcpOpen(sb.id, 3306, 4000)).toBe(false);
    rt.advance(15_000);
    expect(rt.tcpOpen(sb.id, 3306, 15_000)).toBe(true);
    expect(rt.tcpOpen(sb.id, 33060, 15_000)).toBe(true);
    expect(logs(15_000)).toContain('[Note] [Entrypoint]: Creating database wordpress');
    expect(logs(15_000)).toContain("[Server] /usr/sbin/mysqld: ready for connections. Version: '8.0.40'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306");
    rt.stopContainer(c.id, 30_000, 20_000);
    rt.advance(22_000);
    expect(c).toMatchObject({ state: 'exited', exitCode: 0 });
  });

  it('mariadb takes MARIADB_* or MYSQL_* variables; without one it names the MARIADB_ ones', () => {
    const none = start('mariadb:11.4');
    none.rt.advance(2000);
    expect(none.c.exitCode).toBe(1);
    expect(none.logs(2000, 'stderr')).toContain('\tYou need to specify one of MARIADB_ROOT_PASSWORD, MARIADB_ROOT_PASSWORD_HASH, MARIADB_ALLOW_EMPTY_ROOT_PASSWORD and MARIADB_RANDOM_ROOT_PASSWORD\n');
    const envs: Record<string, string>[] = [{ MARIADB_ROOT_PASSWORD: 'x' }, { MYSQL_ROOT_PASSWORD: 'x' }, { MARIADB_ALLOW_EMPTY_ROOT_PASSWORD: '1' }];
    for (const env of envs) {
      const ok = start('mariadb:11.4', { env });
      ok.rt.advance(10_000);
      expect(ok.c.state, JSON.stringify(env)).toBe('running');
      expect(ok.rt.tcpOpen(ok.sb.id, 3306, 10_000)).toBe(true);
      expect(ok.logs(10_000)).toContain("Version: '11.4.4-MariaDB-ubu2404'  socket: '/run/mysqld/mysqld.sock'  port: 3306");
    }
  });
});

describe('mongo, memcached, rabbitmq', () => {
  it('listen on 27017, 11211 and 5672; only the management tags serve 15672', () => {
    const ports: [string, number, boolean][] = [
      ['mongo:7', 27017, true],
      ['memcached:1.6', 11211, true],
      ['rabbitmq:4', 5672, true],
      ['rabbitmq:4', 15672, false],
      ['rabbitmq:3-management', 15672, true],
    ];
    for (const [image, port, open] of ports) {
      const { rt, sb, c } = start(image);
      rt.advance(20_000);
      expect(c.state, image).toBe('running');
      expect(rt.tcpOpen(sb.id, port, 20_000), `${image} ${port}`).toBe(open);
    }
    const mongo = start('mongo:7');
    mongo.rt.advance(5000);
    expect(mongo.logs(5000)).toContain('"msg":"Waiting for connections","attr":{"port":27017,"ssl":"off"}}');
    mongo.rt.stopContainer(mongo.c.id, 30_000, 6000);
    mongo.rt.advance(7000);
    expect(mongo.c.exitCode).toBe(0);
  });
});

describe('python and node', () => {
  it('their default CMD (a REPL) exits 0 at once without a terminal', () => {
    for (const image of ['python:3.12', 'node:22']) {
      const { rt, c, logs } = start(image);
      rt.advance(1500);
      expect(c, image).toMatchObject({ state: 'exited', exitCode: 0, reason: 'Completed', finishedAt: 1000 });
      expect(logs(1500)).toBe('');
    }
  });

  it('python -m http.server PORT serves HTTP there; its banner shows in the logs only unbuffered; PID 1 ignores SIGTERM', () => {
    const { rt, sb, c, logs } = start('python:3.12', { command: ['python3', '-m', 'http.server', '8000'] });
    rt.advance(2000);
    expect(rt.httpGet(sb.id, 8000, '/', 2000)).toBe(200);
    expect(rt.tcpOpen(sb.id, 8080, 2000)).toBe(false);
    // Only the request log shows (stderr, unbuffered): the probe's GET, from the node's end of the bridge.
    expect(logs(2000)).toBe('10.244.1.1 - - [01/Jan/2025 00:00:02] "GET / HTTP/1.1" 200 -\n');
    rt.stopContainer(c.id, 5000, 3000);
    rt.advance(7000);
    expect(c.state).toBe('running');
    rt.advance(9000);
    expect(c).toMatchObject({ exitCode: 137, finishedAt: 8000 });
    const unbuffered = start('python:3.12', { env: { PYTHONUNBUFFERED: '1' }, command: ['python', '-m', 'http.server'] });
    unbuffered.rt.advance(2000);
    expect(unbuffered.rt.httpGet(unbuffered.sb.id, 8000, '/', 2000)).toBe(200);
    expect(unbuffered.logs(2000)).toBe('Serving HTTP on :: port 8000 (http://[::]:8000/) ...\n10.244.1.1 - - [01/Jan/2025 00:00:02] "GET / HTTP/1.1" 200 -\n');
  });

  it('a missing script fails as the interpreters do; versions follow the tag', () => {
    const py = start('python:3.11', { command: ['python', 'app.py'] });
    py.rt.advance(2000);
    expect(py.c.exitCode).toBe(2);
    expect(py.logs(2000)).toBe("python: can't open file '/app.py': [Errno 2] No such file or directory\n");
    const nd = start('node:20', { args: ['server.js'] });
    nd.rt.advance(2000);
    expect(nd.c.exitCode).toBe(1);
    expect(nd.logs(2000)).toContain("Error: Cannot find module '/server.js'");
    expect(nd.logs(2000)).toContain('Node.js v20.18.1');
    const v = start('python:3.11', { command: ['python', '--version'] });
    v.rt.advance(2000);
    expect(v.logs(2000)).toBe('Python 3.11.11\n');
  });
});

describe('curl and the web apps', () => {
  it('curlimages/curl with no arguments prints the usage hint and exits 2; a URL is curl\'s argument', () => {
    const bare = start('curlimages/curl:8.11.1');
    bare.rt.advance(2000);
    expect(bare.c.exitCode).toBe(2);
    expect(bare.logs(2000, 'stderr')).toBe("curl: try 'curl --help' or 'curl --manual' for more information\n");
    const url = start('curlimages/curl', { args: ['-s', 'http://web:80/'] });
    url.rt.advance(2000);
    expect(url.c.exitCode).toBe(6);
    expect(url.logs(2000)).toBe('curl: (6) Could not resolve host: web\n');
  });

  it('hello-app, echoserver, http-echo, whoami and nginx-unprivileged serve their ports', () => {
    const cases: [string, string[] | undefined, number][] = [
      ['gcr.io/google-samples/hello-app:1.0', undefined, 8080],
      ['gcr.io/google-samples/hello-app:2.0', undefined, 8080],
      ['registry.k8s.io/echoserver:1.10', undefined, 8080],
      ['k8s.gcr.io/echoserver:1.4', undefined, 8443],
      ['hashicorp/http-echo', ['-text=hello'], 5678],
      ['hashicorp/http-echo:0.2.3', ['-listen=:8080', '-text', 'bar'], 8080],
      ['traefik/whoami:v1.10', undefined, 80],
      ['nginxinc/nginx-unprivileged', undefined, 8080],
    ];
    for (const [image, args, port] of cases) {
      const { rt, sb, c } = start(image, args ? { args } : {});
      rt.advance(3000);
      expect(c.state, image).toBe('running');
      expect(rt.httpGet(sb.id, port, '/', 3000), `${image} :${port}`).toBe(200);
    }
    const unpriv = start('nginxinc/nginx-unprivileged');
    unpriv.rt.advance(3000);
    expect(unpriv.rt.tcpOpen(unpriv.sb.id, 80, 3000)).toBe(false);
    const hello = start('gcr.io/google-samples/hello-app:1.0');
    hello.rt.advance(3000);
    expect(hello.logs(3000)).toBe('2025/01/01 00:00:01 Server listening on port 8080\n');
  });

  it('on SIGTERM: Go programs without a handler exit 2; echoserver\'s run.sh (PID 1 sh) waits for SIGKILL', () => {
    for (const image of ['gcr.io/google-samples/hello-app:1.0', 'traefik/whoami']) {
      const { rt, c } = start(image);
      rt.stopContainer(c.id, 30_000, 2000);
      rt.advance(3000);
      expect(c, image).toMatchObject({ state: 'exited', exitCode: 2, finishedAt: 2000 });
    }
    const echo = start('hashicorp/http-echo', { args: ['-text=hi'] });
    echo.rt.stopContainer(echo.c.id, 30_000, 2000);
    echo.rt.advance(3000);
    expect(echo.c.exitCode).toBe(2);
    const es = start('registry.k8s.io/echoserver:1.10');
    es.rt.stopContainer(es.c.id, 10_000, 2000);
    es.rt.advance(13_000);
    expect(es.c).toMatchObject({ exitCode: 137, finishedAt: 12_000 });
    const missing = start('hashicorp/http-echo');
    missing.rt.advance(2000);
    expect(missing.c.exitCode).toBe(127);
    expect(missing.logs(2000)).toBe('Missing -text option OR ENV var TEXT is empty!\n');
  });

  it('jessie-dnsutils runs the DNS docs\' sleep infinity; its dig and nslookup wait on a cluster DNS no node answers here', () => {
    const { rt, c } = start('registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3', { command: ['sleep', 'infinity'] });
    rt.advance(5000);
    expect(c.state).toBe('running');
    // Their query to 10.96.0.10 leaves the node, and no kubelet brings an answer back: ExecSync's timeout ends them.
    expect(rt.exec(c.id, ['nslookup', 'kubernetes.default'], 5000, 5000)).toMatchObject({ exitCode: -1, timedOut: true });
    expect(rt.exec(c.id, ['dig', 'kubernetes.default'], 5000, 5000)).toMatchObject({ exitCode: -1, timedOut: true });
  });
});

describe('signal handlers', () => {
  it('log with the time the signal arrived (nginx on its SIGQUIT)', () => {
    const { rt, c, logs } = start('nginx:1.27');
    rt.stopContainer(c.id, 30_000, 65_000);
    rt.advance(66_000);
    expect(logs(66_000).trimEnd().split('\n').pop()).toBe('2025/01/01 00:01:05 [notice] 1#1: signal 3 (SIGQUIT) received, shutting down');
  });
});

describe('the catalog', () => {
  it('every entry\'s tags resolve, an unknown tag is NotFound, and every variant matches some tag', () => {
    for (const img of catalog()) {
      for (const tag of img.tags) expect(resolveImage(parseImage(`${img.repo}:${tag}`)).ok, `${img.repo}:${tag}`).toBe(true);
      expect(resolveImage(parseImage(`${img.repo}:no-such-tag`))).toMatchObject({ ok: false, code: 'NotFound' });
      for (const v of img.variants ?? []) expect(img.tags.some((t) => new RegExp(v.when).test(t)), `${img.repo} ${v.when}`).toBe(true);
    }
    expect(resolveImage(parseImage('postgres:99'))).toMatchObject({ ok: false, code: 'NotFound', message: expect.stringContaining('docker.io/library/postgres:99: not found') });
  });

  it('a tag carries its version in the image ENV, as the official images set it', () => {
    const env = (ref: string) => imageContent(lookupImage(parseImage(ref))!, parseImage(ref).tag).env;
    expect(env('postgres')['PG_MAJOR']).toBe('17');
    expect(env('postgres:16.6')['PG_MAJOR']).toBe('16');
    expect(env('postgres:10.1')['PG_VERSION']).toBe('10.1-1.pgdg90+1');
    expect(env('mysql:8')['MYSQL_VERSION']).toBe('8.4.3-1.el9');
    expect(env('mysql:8.0.40')['MYSQL_VERSION']).toBe('8.0.40-1.el9');
    expect(env('python:3.12-slim')['PYTHON_VERSION']).toBe('3.12.8');
    expect(env('node:lts-alpine')['NODE_VERSION']).toBe('22.12.0');
  });

  it('nginx says the version of its tag (nginx -v and its start-up notice)', () => {
    for (const [image, version] of [['nginx', '1.27.3'], ['nginx:1.25', '1.25.5'], ['nginx:1.27.2', '1.27.2'], ['nginx:1.27', '1.27.5'], ['nginx:1.14.2', '1.14.2']] as const) {
      const { rt, c, logs } = start(image);
      expect(rt.exec(c.id, ['nginx', '-v'], 2000, 5000), image).toMatchObject({ exitCode: 0, stderr: `nginx version: nginx/${version}\n` });
      expect(logs(2000), image).toContain(`[notice] 1#1: nginx/${version}\n`);
    }
  });
});
