// Properties: iptables-save's output restores to the same rules (and saves to
// the same text), and restore never throws: any input either applies or is
// refused with the state untouched.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newNetfilter, restore, save, type Netfilter } from './index';
import { KUBE_PROXY_INPUT } from './testdata';

/** Always double-quoted, escaping as iptables-restore reads it (not as save quotes: a second spelling). */
const q = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;

const octet = fc.integer({ min: 0, max: 255 });
const ip = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
const addr = fc.tuple(ip, fc.option(fc.integer({ min: 0, max: 32 }), { nil: undefined })).map(([a, bits]) => (bits === undefined ? a : `${a}/${bits}`));
const neg = fc.boolean().map((b) => (b ? '! ' : ''));
const hexOrDec = fc.tuple(fc.nat({ max: 0xffffffff }), fc.boolean()).map(([n, h]) => (h ? `0x${n.toString(16)}` : `${n}`));
const port = fc.integer({ min: 0, max: 65535 });
const portRange = fc.oneof(port.map(String), fc.tuple(port, port).map(([a, b]) => `${Math.min(a, b)}:${Math.max(a, b)}`));
const comment = fc
  .oneof(fc.string({ unit: fc.constantFrom('a', 'Z', '_', '-', '"', '\\', "'", ' ', '\t', '/', ':', '$', '#'), maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 40 }))
  .filter((s) => !s.includes('\n') && new TextEncoder().encode(s).length <= 255);
const probability = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }).map(String), fc.constantFrom('0.3333333333', '0.5000000000', '0.25', '1', '0', '0.000244140625'));
const someOf = (xs: string[]) => fc.subarray(xs, { minLength: 1 }).chain((s) => fc.shuffledSubarray(s, { minLength: s.length })).map((s) => s.join(','));
const CT = ['INVALID', 'NEW', 'RELATED', 'ESTABLISHED', 'UNTRACKED', 'SNAT', 'DNAT'];
const TYPES = ['UNICAST', 'LOCAL', 'BROADCAST', 'MULTICAST', 'BLACKHOLE'];

function ruleArb(table: 'filter' | 'nat', laterChains: string[]): fc.Arbitrary<string> {
  const proto = fc.constantFrom<string | null>(null, 'tcp', 'udp', 'icmp', 'all', '6');
  return proto.chain((p) => {
    const l4 = p === 'tcp' || p === '6' ? 'tcp' : p === 'udp' ? 'udp' : null;
    const matches = fc.array(
      fc.oneof(
        comment.map((c) => `-m comment --comment ${q(c)}`),
        fc.tuple(neg, probability).map(([n, pr]) => `-m statistic --mode random ${n}--probability ${pr}`),
        fc.tuple(neg, hexOrDec, fc.option(hexOrDec)).map(([n, v, m]) => `-m mark ${n}--mark ${v}${m ? `/${m}` : ''}`),
        fc.tuple(neg, someOf(CT)).map(([n, s]) => `-m conntrack ${n}--ctstate ${s}`),
        fc.tuple(neg, someOf(TYPES), fc.boolean()).map(([n, t, src]) => `-m addrtype ${n}--${src ? 'src' : 'dst'}-type ${t}`),
        fc
          .tuple(fc.constantFrom('--set', '--rcheck', '--update', '--remove'), neg, fc.constantFrom('KUBE-SEP-X', 'DEFAULT', 'a.b'), fc.nat({ max: 100_000 }), fc.boolean(), ip, fc.boolean())
          .map(([mode, n, name, secs, reap, mask, dest]) => {
            const check = mode === '--rcheck' || mode === '--update';
            return `-m recent ${n}${mode} --name ${name} --mask ${mask}${check && secs ? ` --seconds ${secs}${reap ? ' --reap' : ''}` : ''}${dest ? ' --rdest' : ''}`;
          }),
        fc.constantFrom('a', 'pkts-1').map((n) => `-m nfacct --nfacct-name ${n}`),
        ...(l4 ? [fc.tuple(fc.option(fc.tuple(neg, portRange)), fc.option(fc.tuple(neg, portRange))).map(([s, d]) => `-m ${l4}${s ? ` ${s[0]}--sport ${s[1]}` : ''}${d ? ` ${d[0]}--dport ${d[1]}` : ''}`)] : []),
      ),
      { maxLength: 4 },
    );
    const rejectWith = fc.constantFrom('icmp-net-unreachable', 'host-unreach', 'icmp-port-unreachable', 'icmp-admin-prohibited', ...(l4 === 'tcp' ? ['tcp-reset'] : []));
    const targets: fc.Arbitrary<string>[] = [
      fc.constantFrom('', '-j ACCEPT', '-j DROP', '-j RETURN', '-j REJECT'),
      rejectWith.map((w) => `-j REJECT --reject-with ${w}`),
      fc.tuple(fc.constantFrom('--set-xmark', '--set-mark', '--and-mark', '--or-mark', '--xor-mark'), hexOrDec, hexOrDec).map(([o, v, m]) => `-j MARK ${o} ${v}${o.startsWith('--set') ? `/${m}` : ''}`),
      ...(laterChains.length ? [fc.constantFrom(...laterChains).map((c) => `-j ${c}`)] : []),
    ];
    if (table === 'nat') {
      const natPort = l4 ? fc.option(fc.integer({ min: 1, max: 65535 })) : fc.constant(null);
      targets.push(
        fc.tuple(ip, natPort, fc.boolean()).map(([a, pt, r]) => `-j DNAT --to-destination ${a}${pt ? `:${pt}` : ''}${r ? ' --random' : ''}`),
        fc.tuple(ip, fc.boolean()).map(([a, rf]) => `-j SNAT --to-source ${a}${rf ? ' --random-fully' : ''}`),
        fc.tuple(fc.boolean(), fc.boolean()).map(([r, rf]) => `-j MASQUERADE${r ? ' --random' : ''}${rf ? ' --random-fully' : ''}`),
      );
    }
    const base = fc.tuple(fc.option(fc.tuple(neg, addr)), fc.option(fc.tuple(neg, addr)), fc.option(fc.tuple(neg, fc.constantFrom('eth0', 'cni0', 'veth+'))));
    return fc.tuple(base, matches, fc.oneof(...targets), fc.boolean()).map(([[s, d, i], ms, t, baseLast]) => {
      const b = [s && `${s[0]}-s ${s[1]}`, d && `${d[0]}-d ${d[1]}`, i && `${i[0]}-i ${i[1]}`, p && `-p ${p}`].filter(Boolean).join(' ');
      // Base options may come after the matches; a port match only after -p.
      const parts = baseLast && !ms.some((m) => /^-m (tcp|udp)/.test(m)) ? [...ms, b] : [b, ...ms];
      return [...parts, t].filter(Boolean).join(' ');
    });
  });
}

/** Restore input: for each table, user chains declared (including awkward names), then rules that jump only to later chains (no loops). */
const inputArb = fc
  .tuple(...(['filter', 'nat'] as const).map((table) => fc.uniqueArray(fc.constantFrom('KUBE-SERVICES', 'KUBE-SVC-ABC', 'b', 'A', 'toString', '__proto__', 'x.y'), { maxLength: 4 }).map((chains) => ({ table, chains }))))
  .chain((tables) =>
    fc.tuple(
      ...tables.map(({ table, chains }) => {
        const all = [...(table === 'filter' ? ['INPUT', 'FORWARD', 'OUTPUT'] : ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING']), ...chains];
        const rules = all.map((c, i) =>
          fc.array(
            ruleArb(
              table,
              chains.filter((u) => all.indexOf(u) > i),
            ).map((r) => `-A ${c} ${r}`),
            { maxLength: 3 },
          ),
        );
        const policy = fc.constantFrom('ACCEPT', 'DROP', '-');
        return fc.tuple(fc.tuple(...rules), policy).map(([rs, pol]) => `*${table}\n:${all[0]} ${pol} [0:0]\n${chains.map((c) => `:${c} - [0:0]\n`).join('')}${rs.flat().join('\n')}${rs.flat().length ? '\n' : ''}COMMIT\n`);
      }),
    ),
  )
  .map((parts) => parts.join(''));

function fresh(text: string): Netfilter {
  const nf = newNetfilter();
  const r = restore(nf, text);
  if (!r.ok) throw new Error(`${r.message}\n${text}`);
  return nf;
}

describe('netfilter properties', () => {
  it('restore(save(x)) gives the same rules, and saves to the same text', () => {
    fc.assert(
      fc.property(inputArb, (text) => {
        const first = fresh(text);
        const saved = save(first);
        const second = fresh(saved);
        expect(save(second)).toBe(saved);
        expect(second.tables.filter.chains).toEqual(first.tables.filter.chains);
        expect(second.tables.nat.chains).toEqual(first.tables.nat.chains);
        // With counters, too (iptables-save -c output restores, its counters ignored without --counters).
        expect(save(fresh(save(first, { counters: true })))).toBe(saved);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws: arbitrary text, or mangled restore input, applies whole or leaves the state as it was', () => {
    const words = ['*filter', '*nat', 'COMMIT', ':KUBE-X', '-', 'ACCEPT', '[0:0]', '-A', '-I', '-D', '-X', '-F', '-N', '-P', 'INPUT', 'KUBE-X', 'KUBE-SERVICES', '-j', '-m', '!', '-s', '-p', 'tcp', '--dport', '80', 'comment', '--comment', '"', '\\', 'recent', '--set', 'statistic', '--probability', '0.5', 'DNAT', '--to-destination', '10.0.0.1:80', 'MARK', '--or-mark', '0x4000', '__proto__', 'constructor', '1'];
    const line = fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((w) => w.join(' ')));
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.array(line, { maxLength: 12 }).map((ls) => ls.join('\n')));
    fc.assert(
      fc.property(text, (t) => {
        const nf = fresh(KUBE_PROXY_INPUT);
        const before = JSON.stringify(nf);
        const r = restore(nf, t);
        if (!r.ok) {
          expect(r.message).toMatch(/^iptables-restore: line (\d+) failed\niptables-restore: line \1 failed: ./);
          expect(JSON.stringify(nf)).toBe(before);
        }
        // Whatever it did, what it saves restores.
        expect(restore(newNetfilter(), save(nf)).ok).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
