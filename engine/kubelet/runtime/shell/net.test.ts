// A shell blocked on a connection: it waits without running ahead, and once
// the answer is in it runs the command again — a pipeline, a command
// substitution, a loop's condition — which now finds it. Ctrl-C abandons it.
import { describe, expect, it } from 'vitest';
import { FileSystem } from './fs';
import { feedInput, netReply, nextStepAt, pendingConn, run, spawn, spawnWithInput, type ShellContext } from './interp';
import { parseNetCall, renderNet, type NetCall, type NetOutcome } from './net';

function harness() {
  const lines: { at: number; fd: number; text: string }[] = [];
  const opened: { call: NetCall; at: number }[] = [];
  const ctx: ShellContext = {
    fs: new FileSystem({}, ['/tmp']),
    hostname: 'client',
    podIP: '10.244.2.5',
    flavour: 'busybox',
    hasCommand: () => true,
    out: (at, fd, text) => lines.push({ at, fd, text }),
    connect: (call, at) => (opened.push({ call, at }), opened.length),
  };
  return { ctx, opened, out: () => lines.map((l) => l.text).join('') };
}

const page = (body: string): NetOutcome => ({ k: 'http', status: 200, headers: {}, body });

describe('a shell on the pod network', () => {
  it('waits for the answer of a command substitution, then runs the command with it', () => {
    const { ctx, opened, out } = harness();
    const p = spawn(['sh', '-c', 'echo start; x=$(wget -qO- 10.244.1.7:8080/hostname); echo "got $x"'], {}, 1000, 'busybox');
    run(p, 5000, ctx);
    expect(out()).toBe('start\n');
    expect(opened).toEqual([{ call: expect.objectContaining({ tool: 'wget', http: expect.objectContaining({ ip: '10.244.1.7', port: 8080, path: '/hostname' }) }), at: 1000 }]);
    expect(pendingConn(p)).toBe(1);
    expect(nextStepAt(p)).toBe(Infinity);
    expect(netReply(p, 2, page('web-1'), 1002)).toBe(false);
    expect(netReply(p, 1, page('web-1'), 1002)).toBe(true);
    run(p, 5000, ctx);
    expect(out()).toBe('start\ngot web-1\n');
    expect(p.exit).toEqual({ code: 0, at: 1002 });
    expect(opened).toHaveLength(1);
  });

  it('feeds a pipeline the body, and a loop polls until the server answers', () => {
    const { ctx, opened, out } = harness();
    const p = spawn(['sh', '-c', 'until wget -q -O /dev/null 10.244.1.7; do sleep 1; done; wget -qO- 10.244.1.7 | grep ok'], {}, 0, 'busybox');
    run(p, 10_000, ctx);
    netReply(p, 1, { k: 'refused' }, 1);
    run(p, 10_000, ctx);
    expect(opened.map((o) => o.at)).toEqual([0, 1001]);
    netReply(p, 2, page('fine'), 1002);
    run(p, 10_000, ctx);
    netReply(p, 3, page('not\nok here\n'), 1003);
    run(p, 10_000, ctx);
    // -q keeps wget's chatter out, not its errors.
    expect(out()).toBe("wget: can't connect to remote host (10.244.1.7): Connection refused\nok here\n");
    expect(p.exit?.code).toBe(0);
  });

  it('Ctrl-C at a terminal abandons the connection: its late answer changes nothing', () => {
    const { ctx, out } = harness();
    const p = spawnWithInput(['sh'], {}, 0, 'busybox', true);
    run(p, 0, ctx);
    feedInput(p, 'wget -qO- 10.244.1.7\n', 10, ctx);
    run(p, 10, ctx);
    expect(pendingConn(p)).toBe(1);
    feedInput(p, '\x03', 500, ctx);
    run(p, 500, ctx);
    expect(out()).toBe('/ # \n/ # ');
    expect(netReply(p, 1, page('late'), 600)).toBe(false);
    expect(p.net).toBeUndefined();
  });
});

describe("the clients' words", () => {
  const env = () => ({ fs: new FileSystem({}, ['/tmp']), at: 0, cwd: '/', env: {}, hostname: 'client', podIP: '10.244.2.5', flavour: 'busybox' as const, stdin: null, hasCommand: () => true });
  it("curl without -s shows its meter on stderr, as lib/progress.c lays it out", () => {
    const e = env();
    const call = parseNetCall('curl', ['http://10.244.1.7/'], e)!;
    const r = renderNet(call, { k: 'http', status: 200, headers: {}, body: 'x'.repeat(175) }, 311, e);
    expect(r.stdout).toBe('x'.repeat(175));
    expect(r.stderr!.split('\r').pop()).toBe('100   175  100   175    0     0    562      0 --:--:-- --:--:-- --:--:--   562\n');
  });
  it('busybox wget -O - shows its progress line and saves nothing', () => {
    const e = env();
    const call = parseNetCall('wget', ['-O', '-', '10.244.1.7:8080/x'], e)!;
    const r = renderNet(call, { k: 'http', status: 200, headers: {}, body: 'y'.repeat(615) }, 3, e);
    expect(r.stderr).toBe('Connecting to 10.244.1.7:8080 (10.244.1.7:8080)\nwriting to stdout\n-                    100% |********************************|   615  0:00:00 ETA\nwritten to stdout\n');
    expect(e.fs.exists('/x', 0)).toBe(false);
  });
});
