// Starting and stopping a real single-member etcd for the differential suite:
// ephemeral 127.0.0.1 ports, a temporary data dir, health polled before use.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const ETCD_MISSING = 'differential suite skipped: etcd not installed (apt-get install etcd-server)';

/** The etcd binary: $ETCD_BIN if set (only that), else `etcd` on the PATH or /usr/bin/etcd, else null. */
export function findEtcd(): string | null {
  const env = process.env.ETCD_BIN;
  const candidates = env !== undefined ? [env] : [...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'etcd')), '/usr/bin/etcd'];
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      /* next */
    }
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface RealEtcd {
  url: string;
  version: string;
  stop(): Promise<void>;
}

export async function startRealEtcd(bin: string, timeoutMs = 20_000): Promise<RealEtcd> {
  const dir = mkdtempSync(join(tmpdir(), 'kubeglass-etcd-'));
  const client = await freePort();
  const peer = await freePort();
  const clientUrl = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const child: ChildProcess = spawn(
    bin,
    [
      '--name=diff',
      `--data-dir=${join(dir, 'data')}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=diff=${peerUrl}`,
      '--logger=zap',
      '--log-level=error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 3000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) {
      await stop();
      throw new Error(`etcd exited during startup: ${stderr}`);
    }
    try {
      const r = await fetch(`${clientUrl}/health`);
      const body = (await r.json()) as { health?: string };
      if (body.health === 'true') {
        const v = (await (await fetch(`${clientUrl}/version`)).json()) as { etcdserver?: string };
        return { url: clientUrl, version: v.etcdserver ?? '?', stop };
      }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`etcd did not become healthy within ${timeoutMs} ms: ${stderr}`);
}
