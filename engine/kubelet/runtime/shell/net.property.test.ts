// Whatever a user types after wget or curl, the client answers in its own
// words and never breaks the container's shell: parsing and rendering never
// throw, exit statuses are bytes, and only IP targets (or /etc/hosts names)
// become connections at once; other names are looked up first.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FileSystem } from './fs';
import { isIPv4, parseNetCall, renderNet, type NetOutcome } from './net';

const word = fc.oneof(
  fc.constantFrom('-q', '-O', '-O-', '-qO-', '-T', '5', '-s', '-S', '-sSf', '-fsSL', '-I', '-i', '-o', 'out', '--connect-timeout', '-m', '--spider', '-H', 'x: y', '-'),
  fc.constantFrom('10.244.1.7', 'http://10.244.1.7:8080/a?b=1', 'localhost:80', 'web', 'https://10.0.0.1/', 'http://', '300.1.1.1', ':80', '10.244.1.7:99999', '10.244.1.7:0'),
  fc.string({ maxLength: 12 }),
);
const outcome: fc.Arbitrary<NetOutcome> = fc.oneof(
  fc.constant({ k: 'refused' } as const),
  fc.constant({ k: 'timeout' } as const),
  fc.constant({ k: 'unreachable' } as const),
  fc.record({ k: fc.constant('http' as const), status: fc.constantFrom(200, 204, 301, 404, 500), headers: fc.constant({}), body: fc.string({ maxLength: 200 }) }),
);

describe('wget and curl on any command line', () => {
  it('parse and render without throwing, and connect only to addresses', () => {
    fc.assert(
      fc.property(fc.constantFrom('wget', 'curl') as fc.Arbitrary<'wget' | 'curl'>, fc.array(word, { maxLength: 6 }), outcome, fc.boolean(), (tool, args, o, busybox) => {
        const e = { fs: new FileSystem({ '/etc/hosts': '127.0.0.1\tlocalhost\n10.244.2.5\tclient\n' }, ['/tmp']), at: 0, cwd: '/', env: {}, hostname: 'client', podIP: '10.244.2.5', flavour: busybox ? ('busybox' as const) : ('gnu' as const), stdin: null, hasCommand: () => true };
        const call = parseNetCall(tool, args, e);
        if (!call) return;
        if (call.name === undefined) expect(isIPv4(call.http.ip)).toBe(true);
        else expect([call.http.ip, /^[\w.-]+$/.test(call.name)]).toEqual(['', true]);
        expect(call.http.port > 0 && call.http.port <= 65535).toBe(true);
        const r = renderNet(call, o, 5, e);
        expect(Number.isInteger(r.status) && r.status >= 0 && r.status < 256).toBe(true);
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});
