// The `npm run serve` entry point as a real process: the ready line, a request, a clean exit on a signal.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { get } from './testkit';

function startProcess(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ready line; stdout=${out} stderr=${err}`)), 20_000);
    child.stdout.on('data', () => {
      const m = /^serving on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    child.on('exit', () => reject(new Error(`exited early; stderr=${err}`)));
  });
  return { child, ready, exited, output: () => ({ out, err }) };
}

describe('npm run serve', () => {
  it('prints the ready line, serves, and exits 0 on SIGTERM', async () => {
    const kc = join(mkdtempSync(join(tmpdir(), 'kg-main-')), 'kubeconfig');
    const p = startProcess(['--port', '0', '--seed', '5', '--etcd-members', '1', '--speed', '3', '--kubeconfig', kc]);
    const url = await p.ready;
    for (let i = 0; i < 100 && !p.output().out.includes('kubeconfig written'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(p.output().out).toMatch(new RegExp(`^serving on ${url}\nKubernetes API \\(TLS\\) on https://127\\.0\\.0\\.1:\\d+\nkubeconfig written to ${kc} `));
    expect(readFileSync(kc, 'utf8')).toMatch(/certificate-authority-data: \S+\n    server: https:\/\/127\.0\.0\.1:\d+\n/);
    const s = (await get(url, '/playground/v1/state')).json as { seed: number; speed: number; components: unknown[] };
    expect(s.seed).toBe(5);
    expect(s.speed).toBe(3);
    expect(s.components).toHaveLength(10); // etcd-0, etcd-client-0, kube-apiserver-0, kubectl-0, kube-controller-manager-0, kwok-controller-0, csi-hostpathplugin-0, metrics-server-0, kubeadm-addons-0, kube-scheduler-0
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('refuses bad arguments with exit code 2', async () => {
    const p = startProcess(['--port', 'x']);
    await p.ready.catch(() => undefined);
    expect(await p.exited).toBe(2);
    expect(p.output().err).toContain('--port');
  });
});
