// The real kubectl v1.32 against npm run serve with a worker node: logs
// (plain, --tail, -f) through pods/log, and exec over the WebSocket stream
// protocol (execStream.ts): output, exit codes, a command the image lacks,
// exec -i with piped input, and exec -it and run -it --rm on a terminal.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server';
import { writeKubeconfig } from './kubeconfig';
import { readFrames, wsFrame } from './execStream';

const KUBECTL = process.env.KUBECTL_PATH ?? '/usr/bin/kubectl';
const have = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!have) {
  if (process.env.CI) throw new Error(`real kubectl not found at ${KUBECTL}: CI must have it`);
  console.warn(`SKIPPED: the real-kubectl tests need kubectl at ${KUBECTL} (set KUBECTL_PATH)`);
}

let server: RunningServer;
let kubeconfig = '';
let dir = '';

/** Runs kubectl without blocking the event loop; `until` ends it (SIGTERM) once its output matches; `input` is its stdin. */
function kubectl(args: string[], until?: RegExp, input?: string): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    const child = spawn(KUBECTL, args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } });
    if (input !== undefined) child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (until?.test(stdout)) child.kill();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const t = setTimeout(() => child.kill(), 30_000);
    child.on('close', (code) => {
      clearTimeout(t);
      resolve({ stdout, stderr, code: code ?? -1 });
    });
  });
}

/**
 * kubectl on a terminal (script(1) gives it a pty): each key is typed once the
 * screen so far matches its pattern, as a person waits for the prompt.
 */
function onTerminal(args: string[], steps: [RegExp, string][]): Promise<{ screen: string; code: number }> {
  return new Promise((resolve) => {
    const line = [KUBECTL, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('script', ['-qec', line, '/dev/null'], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } });
    let screen = '';
    let next = 0;
    const onData = (c: Buffer) => {
      screen += c.toString();
      while (next < steps.length && steps[next]![0].test(screen)) child.stdin.write(steps[next++]![1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const t = setTimeout(() => child.kill(), 30_000);
    child.on('close', (code) => {
      clearTimeout(t);
      resolve({ screen, code: code ?? -1 });
    });
  });
}

async function until(what: string, f: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('WebSocket frames', () => {
  it('writes unmasked frames with 7-, 16- and 64-bit lengths and reads masked ones', () => {
    expect([...wsFrame(Buffer.from([1, 104, 105]))]).toEqual([0x82, 3, 1, 104, 105]);
    const mid = wsFrame(Buffer.alloc(300));
    expect([...mid.subarray(0, 4)]).toEqual([0x82, 126, 1, 44]);
    const big = wsFrame(Buffer.alloc(70_000), 0x1);
    expect([...big.subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]);
    const mask = [1, 2, 3, 4];
    const ping = Buffer.from([0x89, 0x80 | 2, ...mask, 0x61 ^ 1, 0x62 ^ 2]);
    const close = Buffer.from([0x88, 0x80 | 2, ...mask, 0x03 ^ 1, 0xe8 ^ 2]);
    const { frames, rest } = readFrames(Buffer.concat([ping, close.subarray(0, 3)]));
    expect(frames).toEqual([{ opcode: 9, payload: Buffer.from('ab') }]);
    expect(readFrames(Buffer.concat([rest, close.subarray(3)])).frames).toEqual([{ opcode: 8, payload: Buffer.from([0x03, 0xe8]) }]);
  });
});

describe.skipIf(!have)('real kubectl logs and exec against npm run serve', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kg-kubectl-nodes-'));
    server = await startServer({ port: 0, seed: 7, etcdMembers: 1, speed: 20, tlsPort: 0, nodes: 1 });
    kubeconfig = writeKubeconfig(join(dir, 'kubeconfig'), server.tls!.url, undefined, server.tls!.caPem);
    await until('the API server', async () => server.host.engine.apiReady());
    await until('the default ServiceAccount', async () => (await kubectl(['get', 'sa', 'default', '-o', 'name'])).code === 0);
    const run = await kubectl(['run', 'counter', '--image=busybox:1.36', '--', 'sh', '-c', 'i=0; while true; do echo "line $i"; i=$((i+1)); sleep 1; done']);
    expect(run.stdout).toBe('pod/counter created\n');
    await until('the pod Running', async () => (await kubectl(['get', 'pod', 'counter', '-o', 'jsonpath={.status.phase}'])).stdout === 'Running');
  }, 90_000);
  afterAll(async () => {
    await server?.close();
  });

  it('logs, --tail and -f', async () => {
    await until('three lines of log', async () => (await kubectl(['logs', 'counter'])).stdout.split('\n').length > 3);
    const all = await kubectl(['logs', 'counter']);
    expect(all.stdout).toMatch(/^line 0\nline 1\nline 2\n/);
    const tail = await kubectl(['logs', 'counter', '--tail=1']);
    expect(tail.stdout).toMatch(/^line \d+\n$/);
    // -f prints the last line, then each new one as it comes, until stopped.
    const f = await kubectl(['logs', '-f', 'counter', '--tail=1'], /^(line \d+\n){3}/);
    const got = f.stdout.split('\n').slice(0, 3).map((l) => Number(l.slice(5)));
    expect(got[0]).toBeGreaterThanOrEqual(Number(/\d+/.exec(tail.stdout)![0]));
    expect(got).toEqual([got[0], got[0]! + 1, got[0]! + 2]);
    expect((await kubectl(['logs', 'counter', '-c', 'nope'])).stderr).toBe('error: container nope is not valid for pod counter\n');
  }, 60_000);

  it('exec prints the command’s output and exits with its code', async () => {
    expect(await kubectl(['exec', 'counter', '--', 'cat', '/etc/hostname'])).toEqual({ stdout: 'counter\n', stderr: '', code: 0 });
    expect(await kubectl(['exec', 'counter', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'])).toEqual({ stdout: 'out\n', stderr: 'err\ncommand terminated with exit code 3\n', code: 3 });
    const missing = await kubectl(['exec', 'counter', '--', 'bash']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in \$PATH: unknown\n$/,
    );
  }, 60_000);

  it("exec of a command that runs longer than the proxy's dial timeout (30 s) answers once it has run", async () => {
    expect(await kubectl(['exec', 'counter', '--', 'sh', '-c', 'sleep 40; echo late'])).toEqual({ stdout: 'late\n', stderr: '', code: 0 });
  });

  it('exec -i reads the commands piped to it; its end of input ends the shell with the last status', async () => {
    expect(await kubectl(['exec', '-i', 'counter', '--', 'sh'], undefined, 'echo hello from $HOSTNAME\nls /nope\n')).toEqual({
      stdout: 'hello from counter\n',
      stderr: 'ls: /nope: No such file or directory\ncommand terminated with exit code 1\n',
      code: 1,
    });
  }, 60_000);

  it('exec -it on a terminal: the prompt, echo and editing, Ctrl-C, and the exit code', async () => {
    const r = await onTerminal(
      ['exec', '-it', 'counter', '--', 'sh'],
      [
        [/\/ # $/, 'echo hi $HOME\r'],
        [/hi \/root\r\n\/ # $/, 'cd /tmpx\x7f; pwd\r'],
        [/\/tmp # $/, 'sleep 100\r'],
        [/sleep 100\r\n$/, '\x03'],
        [/\^C\r\n\/tmp # $/, 'exit 5\r'],
      ],
    );
    expect(r.screen).toContain('/ # echo hi $HOME\r\nhi /root\r\n/ # cd /tmpx\b \b; pwd\r\n/tmp\r\n/tmp # sleep 100\r\n^C\r\n/tmp # exit 5\r\n');
    expect(r.screen).toMatch(/command terminated with exit code 5\r\n$/);
    expect(r.code).toBe(5);
  }, 60_000);

  it('debug -it adds an ephemeral container to the pod and attaches to its shell', async () => {
    const r = await onTerminal(
      ['debug', '-it', 'counter', '--image=busybox:1.36', '--profile=general', '-c', 'dbg'],
      [
        [/try pressing enter\.\r\n$/, '\r'],
        [/\/ # $/, 'hostname\r'],
        [/counter\r\n\/ # $/, 'exit\r'],
      ],
    );
    expect(r.screen).toBe(
      "If you don't see a command prompt, try pressing enter.\r\n\r\n/ # hostname\r\ncounter\r\n/ # exit\r\nSession ended, the ephemeral container will not be restarted but may be reattached using 'kubectl attach counter -c dbg -i -t' if it is still running\r\n",
    );
    expect(r.code).toBe(0);
    const st = await kubectl(['get', 'pod', 'counter', '-o', 'jsonpath={.spec.ephemeralContainers[0].name} {.status.containerStatuses[0].restartCount}']);
    expect(st.stdout).toBe('dbg 0');
  }, 60_000);

  it('run -it --rm attaches to the new pod, and deletes it once its shell has exited', async () => {
    const r = await onTerminal(
      ['run', '-it', '--rm', 'dbg', '--image=busybox:1.36', '--restart=Never', '--', 'sh'],
      [
        [/try pressing enter\.\r\n$/, '\r'],
        [/\/ # $/, 'hostname\r'],
        [/dbg\r\n\/ # $/, 'exit\r'],
      ],
    );
    // The kubelet sees the shell's exit at its next relist; kubectl waits for the pod to complete, then deletes it.
    expect(r.screen).toMatch(/^If you don't see a command prompt, try pressing enter\.\r\n\r\n\/ # hostname\r\ndbg\r\n\/ # exit\r\npod "dbg" deleted\r\n$/);
    expect(r.code).toBe(0);
    expect((await kubectl(['get', 'pod', 'dbg'])).stderr).toBe('Error from server (NotFound): pods "dbg" not found\n');
  }, 60_000);
});
