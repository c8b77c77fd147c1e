import { describe, expect, it } from 'vitest';
import { FileSystem } from './fs';
import { nextStepAt, run, signal, spawn, type Proc, type ShellContext } from './interp';
import { parseScript, ShellSyntaxError } from './parse';

function harness(flavour: 'busybox' | 'gnu' = 'busybox', commands?: string[]) {
  const lines: { at: number; fd: number; text: string }[] = [];
  const ctx: ShellContext = {
    fs: new FileSystem({}, ['/tmp', '/etc']),
    hostname: 'web-0',
    podIP: '10.244.1.5',
    flavour,
    hasCommand: (n) => !commands || commands.includes(n.slice(n.lastIndexOf('/') + 1)),
    out: (at, fd, text) => lines.push({ at, fd, text }),
  };
  const out = (until = Infinity) =>
    lines
      .filter((l) => l.at <= until)
      .map((l) => l.text)
      .join('');
  return { ctx, lines, out };
}

const sh = (script: string, at = 0) => spawn(['sh', '-c', script], { HOME: '/root' }, at, 'busybox');

describe('the shell', () => {
  it('sleeps, then exits with the code it is given', () => {
    const { ctx } = harness();
    const p = sh('sleep 30; exit 3');
    run(p, 10_000, ctx);
    expect(p.exit).toBeNull();
    expect(nextStepAt(p)).toBe(30_000);
    run(p, 40_000, ctx);
    expect(p.exit).toEqual({ code: 3, at: 30_000 });
  });

  it('runs the logging docs counter: one line a second with $(date) and $((i+1))', () => {
    const { ctx, out } = harness();
    const p = sh('i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done');
    run(p, 3_500, ctx);
    expect(out()).toBe(['0: Wed Jan  1 00:00:00 UTC 2025', '1: Wed Jan  1 00:00:01 UTC 2025', '2: Wed Jan  1 00:00:02 UTC 2025', '3: Wed Jan  1 00:00:03 UTC 2025', ''].join('\n'));
    expect(p.exit).toBeNull();
    expect(nextStepAt(p)).toBe(4_000);
  });

  it('the exec-liveness docs script: /tmp/healthy exists for 30 s', () => {
    const { ctx } = harness();
    const p = sh('touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600');
    run(p, 100_000, ctx);
    expect(ctx.fs.isFile('/tmp/healthy', 29_000)).toBe(true);
    expect(ctx.fs.isFile('/tmp/healthy', 31_000)).toBe(false);
    expect(nextStepAt(p)).toBe(630_000);
  });

  it('&& and || chain as sh does; if/elif/else; for; until', () => {
    const { ctx, out } = harness();
    const p = sh(
      'false && echo no || echo yes; true || echo no2; if [ -f /nope ]; then echo a; elif [ 1 -lt 2 ]; then echo b; else echo c; fi; for x in 1 2 3; do printf "%s-" $x; done; echo; n=0; until [ $n -ge 2 ]; do n=$((n+1)); done; echo n=$n',
    );
    run(p, 0, ctx);
    expect(out()).toBe('yes\nb\n1-2-3-\nn=2\n');
    expect(p.exit).toEqual({ code: 0, at: 0 });
  });

  it('redirections write files; 2>&1 and /dev/null route streams', () => {
    const { ctx, out } = harness();
    const p = sh('echo hello > /tmp/a; echo more >> /tmp/a; cat /tmp/a; cat /nope 2>/dev/null; cat /nope2 2>&1; echo $?');
    run(p, 0, ctx);
    expect(ctx.fs.read('/tmp/a', 0)).toBe('hello\nmore\n');
    expect(out()).toBe("hello\nmore\ncat: can't open '/nope2': No such file or directory\n1\n");
  });

  it('>&2 and 2>&1 send a stream to the other one, /dev/stderr names stderr', () => {
    const { ctx, lines } = harness();
    run(sh('echo a; echo b >&2; echo c 1>&2; cat /nope 2>&1; echo d > /dev/stderr; { echo e; echo f >&2; } 2>&1'), 0, ctx);
    expect(lines.map((l) => `${l.fd}:${l.text}`)).toEqual(['1:a\n', '2:b\n', '2:c\n', "1:cat: can't open '/nope': No such file or directory\n", '2:d\n', '1:e\n', '1:f\n']);
  });

  it('a loop that never sleeps spins on a CPU instead of hanging the simulation', () => {
    const { ctx } = harness();
    const p = sh('while true; do :; done');
    run(p, 1000, ctx);
    expect(p.exit).toBeNull();
    expect(p.cpuMilli).toBe(1000);
    expect(nextStepAt(p)).toBe(Infinity);
  });

  it('PID 1 ignores SIGTERM without a trap; a trap runs after the foreground sleep; wait is interrupted', () => {
    const { ctx, out } = harness();
    const plain: Proc = sh('sleep 3600');
    run(plain, 1000, ctx);
    signal(plain, 'TERM', 1000, ctx);
    run(plain, 100_000, ctx);
    expect(plain.exit).toBeNull();
    signal(plain, 'KILL', 100_000, ctx);
    expect(plain.exit).toEqual({ code: 137, at: 100_000 });

    const trapped = sh("trap 'echo bye; exit 0' TERM; echo up; sleep 10; echo after");
    run(trapped, 1000, ctx);
    signal(trapped, 'TERM', 1000, ctx);
    run(trapped, 5000, ctx);
    expect(trapped.exit).toBeNull();
    run(trapped, 20_000, ctx);
    expect(trapped.exit).toEqual({ code: 0, at: 10_000 });
    expect(out()).toBe('up\nbye\n');

    const { ctx: c2, out: o2 } = harness();
    const waiting = sh("trap 'echo bye; exit 0' TERM; sleep 3600 & wait");
    run(waiting, 1000, c2);
    signal(waiting, 'TERM', 1000, c2);
    run(waiting, 1000, c2);
    expect(waiting.exit).toEqual({ code: 0, at: 1000 });
    expect(o2()).toBe('bye\n');
  });

  it('a program run directly is PID 1 and handles its own signals (nginx quits gracefully on SIGQUIT)', () => {
    const { ctx, out } = harness('gnu');
    const p = spawn(['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;'], {}, 0, 'gnu');
    run(p, 1000, ctx);
    expect(out()).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up\n');
    expect(out()).toContain('[notice] 1#1: start worker processes\n');
    expect(p.daemon?.ports).toEqual([80]);
    signal(p, 'QUIT', 5000, ctx);
    run(p, 6000, ctx);
    expect(p.exit).toEqual({ code: 0, at: 5050 });
    expect(out()).toContain('signal 3 (SIGQUIT) received, shutting down');
  });

  it('stress as PID 1 holds its memory and burns its CPU; --timeout ends it', () => {
    const { ctx, out } = harness();
    const p = spawn(['stress', '--cpu', '1', '--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1', '--timeout', '10s'], {}, 0, 'busybox');
    run(p, 1000, ctx);
    expect(p.memBytes).toBe(150 * 1024 * 1024);
    expect(p.cpuMilli).toBeGreaterThan(1000);
    run(p, 20_000, ctx);
    expect(p.exit).toEqual({ code: 0, at: 10_000 });
    expect(out()).toBe('stress: info: [1] dispatching hogs: 1 cpu, 0 io, 1 vm, 0 hdd\nstress: info: [1] successful run completed in 10s\n');
  });

  it('commands an image lacks are not found, with the shell flavour’s message', () => {
    const { ctx, out } = harness('gnu', ['sh', 'echo']);
    const p = spawn(['sh', '-c', 'ls /; echo $?'], {}, 0, 'gnu');
    run(p, 0, ctx);
    expect(out()).toBe('sh: 1: ls: not found\n127\n');
  });

  it('syntax errors end the process with status 2 and sh’s message', () => {
    expect(() => parseScript('if true; then echo')).toThrow(ShellSyntaxError);
    const { ctx, out } = harness();
    const p = sh('while true; do echo');
    run(p, 0, ctx);
    expect(p.exit?.code).toBe(2);
    expect(out()).toMatch(/^sh: Syntax error: end of file unexpected/);
  });
});
