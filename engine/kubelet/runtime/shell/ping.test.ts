// busybox ping in a fake container, against a network the test plays: its
// words line by line (networking/ping.c), its timer (one request a second,
// -W after the last, -w checked when it sends), its output as stdio lets it
// out, a pipeline stage, and Ctrl-C.
import { describe, expect, it } from 'vitest';
import { FileSystem } from './fs';
import { feedInput, netReply, nextStepAt, pendingConn, run, signal, spawn, spawnWithInput, type ShellContext } from './interp';
import type { NetCall, NetOutcome } from './net';
import { PING_USAGE } from './ping';

/** What the network does with a request: answers at once, leaves it out (a connection id), or never answers. */
type Policy = (call: NetCall, at: number) => NetOutcome | 'out';

function harness(policy: Policy = () => 'out', files: Record<string, string> = {}) {
  const lines: { at: number; fd: number; text: string }[] = [];
  const sent: { call: NetCall; at: number; conn: number }[] = [];
  const ctx: ShellContext = {
    fs: new FileSystem(files, ['/tmp', '/etc']),
    hostname: 'client',
    podIP: '10.244.2.5',
    flavour: 'busybox',
    hasCommand: () => true,
    out: (at, fd, text) => lines.push({ at, fd, text }),
    connect: (call, at) => {
      const r = policy(call, at);
      if (r !== 'out') return r;
      sent.push({ call, at, conn: sent.length + 1 });
      return sent.length;
    },
  };
  const out = (fd?: number) =>
    lines
      .filter((l) => fd === undefined || l.fd === fd)
      .map((l) => l.text)
      .join('');
  return { ctx, lines, sent, out };
}

const echo = (ttl: number, rttMs?: number): NetOutcome => ({ k: 'echo', ttl, ...(rttMs === undefined ? {} : { rttMs }) });
/** A pod on the same bridge answers at once; nothing else does. */
const sameNode: Policy = (call) => (call.tool === 'ping' && call.http.ip === '10.244.2.7' ? echo(64, 0.085) : { k: 'timeout' });
const ms = (t: number | undefined) => (t === undefined ? t : Math.round(t * 1000) / 1000);
const ping = (...args: string[]) => spawn(['ping', ...args], {}, 0, 'busybox');

describe('busybox ping', () => {
  it('prints each reply and the statistics; -c 3 ends at the last reply', () => {
    const { ctx, out, lines } = harness(sameNode);
    const p = ping('-c', '3', '10.244.2.7');
    run(p, 60_000, ctx);
    expect(out(1)).toBe(
      [
        'PING 10.244.2.7 (10.244.2.7): 56 data bytes',
        '64 bytes from 10.244.2.7: seq=0 ttl=64 time=0.085 ms',
        '64 bytes from 10.244.2.7: seq=1 ttl=64 time=0.085 ms',
        '64 bytes from 10.244.2.7: seq=2 ttl=64 time=0.085 ms',
        '',
        '--- 10.244.2.7 ping statistics ---',
        '3 packets transmitted, 3 packets received, 0% packet loss',
        'round-trip min/avg/max = 0.085/0.085/0.085 ms',
        '',
      ].join('\n'),
    );
    expect(p.exit?.code).toBe(0);
    expect(ms(p.exit?.at)).toBe(2000.085);
    // No terminal: stdio holds the header until the first reply's flush.
    expect(lines.map((l) => ms(l.at))).toEqual([0.085, 1000.085, 2000.085, 2000.085]);
  });

  it('times a reply the network brings back, and prints it when it comes', () => {
    const { ctx, out, sent, lines } = harness();
    const p = ping('-c', '2', '10.244.1.5');
    run(p, 500, ctx);
    expect(sent.map((s) => [s.at, s.call.tool, s.call.http.ip, s.call.echo?.seq])).toEqual([[0, 'ping', '10.244.1.5', 0]]);
    expect(pendingConn(p)).toBe(1);
    expect(nextStepAt(p)).toBe(1000);
    expect(netReply(p, 7, echo(62), 1.2)).toBe(false);
    expect(netReply(p, 1, echo(62), 1.8734)).toBe(true);
    run(p, 1500, ctx);
    expect(lines.at(-1)).toEqual({ at: 1.8734, fd: 1, text: 'PING 10.244.1.5 (10.244.1.5): 56 data bytes\n64 bytes from 10.244.1.5: seq=0 ttl=62 time=1.873 ms\n' });
    expect(sent.map((s) => s.at)).toEqual([0, 1000]);
    netReply(p, 2, echo(62), 1002.5);
    run(p, 10_000, ctx);
    expect(out()).toContain('64 bytes from 10.244.1.5: seq=1 ttl=62 time=2.500 ms\n\n--- 10.244.1.5 ping statistics ---\n2 packets transmitted, 2 packets received, 0% packet loss\nround-trip min/avg/max = 1.873/2.186/2.500 ms\n');
    expect(p.exit).toEqual({ code: 0, at: 1002.5 });
  });

  it('with no reply waits -W (10 s) after the last request, then fails: 100% packet loss', () => {
    const { ctx, out, sent } = harness();
    const p = ping('-c', '3', '10.96.0.1');
    run(p, 60_000, ctx);
    expect(sent.map((s) => s.at)).toEqual([0, 1000, 2000]);
    expect(out()).toBe('PING 10.96.0.1 (10.96.0.1): 56 data bytes\n\n--- 10.96.0.1 ping statistics ---\n3 packets transmitted, 0 packets received, 100% packet loss\n');
    expect(p.exit).toEqual({ code: 1, at: 12_000 });
    const q = ping('-c', '1', '-W', '2', '10.96.0.1');
    run(q, 60_000, harness().ctx);
    expect(q.exit).toEqual({ code: 1, at: 2000 });
  });

  it('once a reply has come, waits about two round trips (at least 1 s) for the rest', () => {
    const { ctx, out } = harness((call) => (call.echo!.seq === 0 ? echo(64, 0.1) : { k: 'timeout' }));
    const p = ping('-c', '3', '10.244.2.7');
    run(p, 60_000, ctx);
    expect(out()).toContain('3 packets transmitted, 1 packets received, 66% packet loss\nround-trip min/avg/max = 0.100/0.100/0.100 ms\n');
    expect(p.exit).toEqual({ code: 0, at: 3000 });
  });

  it('-w: the deadline, checked when the timer sends; with -c, fewer replies than asked fail', () => {
    const lost = harness();
    const p = ping('-w', '3', '10.96.0.1');
    run(p, 60_000, lost.ctx);
    expect(lost.sent.map((s) => s.at)).toEqual([0, 1000, 2000]);
    expect(lost.out()).toContain('3 packets transmitted, 0 packets received, 100% packet loss\n');
    expect(p.exit).toEqual({ code: 1, at: 3000 });
    const h = harness(sameNode);
    const q = ping('-c', '5', '-w', '2', '10.244.2.7');
    run(q, 60_000, h.ctx);
    expect(h.out()).toContain('2 packets transmitted, 2 packets received, 0% packet loss\n');
    expect(q.exit).toEqual({ code: 1, at: 2000 });
    const r = ping('-w', '2', '10.244.2.7');
    run(r, 60_000, harness(sameNode).ctx);
    expect(r.exit).toEqual({ code: 0, at: 2000 });
  });

  it('-q, -s, -i, -t', () => {
    const q = harness(sameNode);
    run(ping('-q', '-c', '2', '10.244.2.7'), 60_000, q.ctx);
    expect(q.out()).toBe('PING 10.244.2.7 (10.244.2.7): 56 data bytes\n\n--- 10.244.2.7 ping statistics ---\n2 packets transmitted, 2 packets received, 0% packet loss\nround-trip min/avg/max = 0.085/0.085/0.085 ms\n');
    const big = harness(sameNode);
    run(ping('-c1', '-s', '1000', '10.244.2.7'), 60_000, big.ctx);
    expect(big.out()).toMatch(/^PING 10\.244\.2\.7 \(10\.244\.2\.7\): 1000 data bytes\n1008 bytes from 10\.244\.2\.7: seq=0 ttl=64 time=0\.085 ms\n/);
    // Fewer than 4 data bytes carry no timestamp back: no times at all.
    const tiny = harness(sameNode);
    run(ping('-c', '1', '-s', '0', '10.244.2.7'), 60_000, tiny.ctx);
    expect(tiny.out()).toBe('PING 10.244.2.7 (10.244.2.7): 0 data bytes\n8 bytes from 10.244.2.7: seq=0 ttl=64\n\n--- 10.244.2.7 ping statistics ---\n1 packets transmitted, 1 packets received, 0% packet loss\n');
    const fast = harness(sameNode);
    const p = ping('-c', '3', '-i', '0.2', '10.244.2.7');
    run(p, 60_000, fast.ctx);
    expect(ms(p.exit?.at)).toBe(400.085);
    // TTL 1 dies at the first router: another node's pod (two routers away) never hears it; one on the bridge does.
    const far = harness(() => echo(62, 1));
    const t = ping('-c', '1', '-W', '1', '-t', '1', '10.244.1.5');
    run(t, 60_000, far.ctx);
    expect(t.exit).toEqual({ code: 1, at: 1000 });
    const near = ping('-c', '1', '-t', '1', '10.244.2.7');
    run(near, 60_000, harness(sameNode).ctx);
    expect(near.exit?.code).toBe(0);
    // -A: the next request as soon as a reply is in; -p only fills the data.
    const quick = harness(sameNode);
    const A = ping('-A', '-c', '3', '-p', 'ff', '10.244.2.7');
    run(A, 60_000, quick.ctx);
    expect(ms(A.exit?.at)).toBe(0.255);
    expect(quick.out()).toContain('3 packets transmitted, 3 packets received, 0% packet loss\n');
  });

  it("says what getopt32 and libbb say, and names a host it cannot resolve", () => {
    const cases: [string[], string][] = [
      [[], PING_USAGE],
      [['-c', '3'], PING_USAGE],
      [['a', 'b'], PING_USAGE],
      [['-c', 'x', '10.0.0.1'], "ping: invalid number 'x'\n"],
      [['-s', '70000', '10.0.0.1'], 'ping: number 70000 is not in 0..65535 range\n'],
      [['-i', 'soon', '10.0.0.1'], "ping: invalid number 'soon'\n"],
      [['-p', 'zz', '10.0.0.1'], "ping: invalid number 'zz'\n"],
      [['-x', '10.0.0.1'], `ping: unrecognized option: x\n${PING_USAGE}`],
      [['10.0.0.1', '-c'], `ping: option requires an argument: c\n${PING_USAGE}`],
      [['nothing.here'], "ping: bad address 'nothing.here'\n"],
    ];
    for (const [args, stderr] of cases) {
      const h = harness((call) => (call.tool === 'dns' ? { k: 'refused' } : 'out'));
      const p = ping(...args);
      run(p, 60_000, h.ctx);
      expect(h.out(2)).toBe(stderr);
      expect(h.out(1)).toBe('');
      expect(p.exit?.code).toBe(1);
    }
    const big = harness(sameNode);
    const p = ping('-s', '65508', '10.244.2.7');
    run(p, 60_000, big.ctx);
    expect(big.out()).toBe('PING 10.244.2.7 (10.244.2.7): 65508 data bytes\nping: sendto: Message too long\n');
    expect(p.exit?.code).toBe(1);
  });

  it('pings a name /etc/hosts gives, options after it too', () => {
    const h = harness(sameNode, { '/etc/hosts': '127.0.0.1\tlocalhost\n10.244.2.7\tweb-0.web.default.svc.cluster.local\tweb-0\n' });
    run(ping('web-0', '-c', '1'), 60_000, h.ctx);
    expect(h.out()).toMatch(/^PING web-0 \(10\.244\.2\.7\): 56 data bytes\n64 bytes from 10\.244\.2\.7: seq=0 .*\n\n--- web-0 ping statistics ---\n/);
  });

  it('without -c runs until interrupted, waiting on its timer (no spinning); PID 1 takes SIGINT, not SIGTERM', () => {
    const { ctx, lines } = harness(sameNode);
    const p = ping('10.244.2.7');
    run(p, 3_600_000, ctx);
    expect(p.exit).toBeNull();
    expect(p.cpuMilli).toBe(0);
    expect(ms(nextStepAt(p))).toBe(3_600_000.085);
    expect(lines.filter((l) => l.text.includes('bytes from'))).toHaveLength(3600);
    signal(p, 'TERM', 3_600_500, ctx);
    expect(p.exit).toBeNull();
    signal(p, 'INT', 3_600_500, ctx);
    run(p, 3_600_500, ctx);
    expect(lines.at(-1)!.text).toBe('\n--- 10.244.2.7 ping statistics ---\n3601 packets transmitted, 3601 packets received, 0% packet loss\nround-trip min/avg/max = 0.085/0.085/0.085 ms\n');
    expect(p.exit).toEqual({ code: 0, at: 3_600_500 });
  });

  it('Ctrl-C at a terminal: ping prints its statistics and exits, the shell goes on with the line', () => {
    const { ctx, lines, out } = harness();
    const p = spawnWithInput(['sh'], {}, 0, 'busybox', true);
    run(p, 0, ctx);
    feedInput(p, 'ping 10.244.1.5; echo "ping said $?"\n', 10, ctx);
    run(p, 10, ctx);
    // A terminal: the header is out at once.
    expect(lines.at(-1)).toEqual({ at: 10, fd: 1, text: 'PING 10.244.1.5 (10.244.1.5): 56 data bytes\n' });
    netReply(p, 1, echo(62), 11.5);
    run(p, 2500, ctx);
    feedInput(p, '\x03', 2500, ctx);
    run(p, 2500, ctx);
    expect(out()).toBe(
      '/ # PING 10.244.1.5 (10.244.1.5): 56 data bytes\n64 bytes from 10.244.1.5: seq=0 ttl=62 time=1.500 ms\n\n--- 10.244.1.5 ping statistics ---\n3 packets transmitted, 1 packets received, 66% packet loss\nround-trip min/avg/max = 1.500/1.500/1.500 ms\nping said 0\n/ # ',
    );
    expect(netReply(p, 2, echo(62), 2600)).toBe(false);
  });

  it('Ctrl-C reaches a ping run straight under a terminal (kubectl exec -it … -- ping)', () => {
    const { ctx, out } = harness();
    const p = spawnWithInput(['ping', '10.96.0.1'], {}, 0, 'busybox', true);
    run(p, 1500, ctx);
    feedInput(p, '\x03', 1500, ctx);
    run(p, 1500, ctx);
    expect(out()).toBe('PING 10.96.0.1 (10.96.0.1): 56 data bytes\n\n--- 10.96.0.1 ping statistics ---\n2 packets transmitted, 0 packets received, 100% packet loss\n');
    expect(p.exit).toEqual({ code: 1, at: 1500 });
  });

  it('in a pipeline runs to completion first, its replies waited for one by one', () => {
    const { ctx, out, sent } = harness();
    const p = spawn(['sh', '-c', 'ping -c 2 10.244.1.5 | grep -v from; echo "done $?"'], {}, 0, 'busybox');
    run(p, 10_000, ctx);
    expect(sent).toHaveLength(1);
    netReply(p, 1, echo(62), 2);
    run(p, 10_000, ctx);
    expect(sent.map((s) => [s.at, s.call.timeoutMs])).toEqual([
      [0, 1000],
      [1000, 1000],
    ]);
    netReply(p, 2, echo(62), 1003);
    run(p, 10_000, ctx);
    expect(out()).toBe('PING 10.244.1.5 (10.244.1.5): 56 data bytes\n\n--- 10.244.1.5 ping statistics ---\n2 packets transmitted, 2 packets received, 0% packet loss\nround-trip min/avg/max = 2.000/2.500/3.000 ms\ndone 0\n');
    expect(p.exit).toEqual({ code: 0, at: 1003 });
  });

  it('writes to a file as it goes (a redirection), and $? is its exit', () => {
    const { ctx, out } = harness(sameNode);
    const p = spawn(['sh', '-c', 'ping -c 1 10.244.2.7 > /tmp/ping.log; echo $?; ping -c 1 -W 1 10.96.0.1 >/dev/null; echo $?'], {}, 0, 'busybox');
    run(p, 60_000, ctx);
    expect(ctx.fs.read('/tmp/ping.log', 60_000)).toContain('1 packets transmitted, 1 packets received');
    expect(out()).toBe('0\n1\n');
  });
});
