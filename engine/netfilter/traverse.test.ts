// The first packet of a connection through kube-proxy's rules: DNAT to an
// endpoint, masquerade only for traffic from outside the pod network, REJECT
// for a Service without endpoints, the statistic match's split, counters,
// addrtype LOCAL, session affinity (xt_recent), and loops that cannot hang.
import { describe, expect, it } from 'vitest';
import { newNetfilter, restore, save, traverse, type Netfilter, type Packet } from './index';

const RULES = `*filter
:KUBE-SERVICES - [0:0]
:KUBE-FORWARD - [0:0]
-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD
-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A KUBE-SERVICES -m comment --comment "default/foo:http has no endpoints" -m tcp -p tcp -d 10.96.5.5 --dport 80 -j REJECT
-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP
-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT
-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
COMMIT
*nat
:KUBE-SERVICES - [0:0]
:KUBE-NODEPORTS - [0:0]
:KUBE-MARK-MASQ - [0:0]
:KUBE-POSTROUTING - [0:0]
:KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]
:KUBE-SEP-AAAAAAAAAAAAAAAA - [0:0]
:KUBE-SVC-WEB - [0:0]
:KUBE-EXT-WEB - [0:0]
:KUBE-SEP-WEB1 - [0:0]
:KUBE-SEP-WEB2 - [0:0]
:KUBE-SEP-WEB3 - [0:0]
-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING
-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
-A KUBE-POSTROUTING -j MARK --xor-mark 0x4000
-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully
-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000
-A KUBE-SERVICES -m comment --comment "default/kubernetes:https cluster IP" -m tcp -p tcp -d 10.96.0.1 --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y
-A KUBE-SERVICES -m comment --comment "default/web cluster IP" -m tcp -p tcp -d 10.96.7.7 --dport 80 -j KUBE-SVC-WEB
-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default/kubernetes:https cluster IP" -m tcp -p tcp -d 10.96.0.1 --dport 443 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ
-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default/kubernetes:https -> 10.0.0.10:6443" -j KUBE-SEP-AAAAAAAAAAAAAAAA
-A KUBE-SEP-AAAAAAAAAAAAAAAA -m comment --comment default/kubernetes:https -s 10.0.0.10 -j KUBE-MARK-MASQ
-A KUBE-SEP-AAAAAAAAAAAAAAAA -m comment --comment default/kubernetes:https -m tcp -p tcp -j DNAT --to-destination 10.0.0.10:6443
-A KUBE-SVC-WEB -m comment --comment "default/web -> 10.244.1.5:8080" -m statistic --mode random --probability 0.3333333333 -j KUBE-SEP-WEB1
-A KUBE-SVC-WEB -m comment --comment "default/web -> 10.244.2.5:8080" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-WEB2
-A KUBE-SVC-WEB -m comment --comment "default/web -> 10.244.3.5:8080" -j KUBE-SEP-WEB3
-A KUBE-SEP-WEB1 -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.1.5:8080
-A KUBE-SEP-WEB2 -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.2.5:8080
-A KUBE-SEP-WEB3 -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.3.5:8080
-A KUBE-NODEPORTS -m comment --comment default/web -m tcp -p tcp --dport 30080 -j KUBE-EXT-WEB
-A KUBE-EXT-WEB -m comment --comment "masquerade traffic for default/web external destinations" -j KUBE-MARK-MASQ
-A KUBE-EXT-WEB -j KUBE-SVC-WEB
-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS
COMMIT
`;

const NODE_IP = '10.0.0.5';
const isLocal = (ip: string) => ip === NODE_IP || ip === '10.244.1.1';
const noDraw = (): number => {
  throw new Error('randU31 called without a statistic rule to evaluate');
};
/** randU31 giving these values in turn (and failing past them). */
const draws = (...vs: number[]) => {
  const queue = [...vs];
  const f = () => {
    if (!queue.length) throw new Error('more draws than expected');
    return queue.shift()!;
  };
  return Object.assign(f, { left: () => queue.length });
};

function kernel(text = RULES): Netfilter {
  const nf = newNetfilter();
  const r = restore(nf, text);
  if (!r.ok) throw new Error(r.message);
  return nf;
}

const conn = (src: string, dst: string, dport: number, now = 0): Packet => ({ src, dst, proto: 'tcp', sport: 40000, dport, bytes: 60, now });

/** The kernel keeps round(p * 2^31) for --probability p. */
const THIRD = Math.round(0.3333333333 * 0x80000000);
const HALF = 0x40000000;

describe('traverse: a new connection through the hooks', () => {
  it('DNATs a pod connection to the kubernetes cluster IP to its endpoint, without masquerade', () => {
    const v = traverse(kernel(), 'forward', conn('10.244.1.7', '10.96.0.1', 443), isLocal, noDraw);
    expect(v).toEqual({
      verdict: 'ACCEPT',
      dst: '10.0.0.10',
      dport: 6443,
      dnat: true,
      masquerade: false,
      trace: [
        'nat/PREROUTING#0',
        'nat/KUBE-SERVICES#0',
        'nat/KUBE-SVC-NPX46M4PTMTKRN6Y#1',
        'nat/KUBE-SEP-AAAAAAAAAAAAAAAA#1',
        'filter/FORWARD#0',
        'filter/FORWARD#1',
        'nat/POSTROUTING#0',
        'nat/KUBE-POSTROUTING#0',
      ],
    });
  });

  it('masquerades the same connection from outside the pod network, or from a host process', () => {
    const v = traverse(kernel(), 'forward', conn('192.168.5.5', '10.96.0.1', 443), isLocal, noDraw);
    expect(v).toMatchObject({ verdict: 'ACCEPT', dst: '10.0.0.10', dport: 6443, dnat: true, masquerade: true });
    expect(v.trace).toEqual([
      'nat/PREROUTING#0',
      'nat/KUBE-SERVICES#0',
      'nat/KUBE-SVC-NPX46M4PTMTKRN6Y#0',
      'nat/KUBE-MARK-MASQ#0',
      'nat/KUBE-SVC-NPX46M4PTMTKRN6Y#1',
      'nat/KUBE-SEP-AAAAAAAAAAAAAAAA#1',
      'filter/FORWARD#0',
      // The mark lets KUBE-FORWARD accept it.
      'filter/KUBE-FORWARD#1',
      'nat/POSTROUTING#0',
      'nat/KUBE-POSTROUTING#1',
      'nat/KUBE-POSTROUTING#2',
    ]);
    const host = traverse(kernel(), 'output', conn(NODE_IP, '10.96.0.1', 443), isLocal, noDraw);
    expect(host).toMatchObject({ verdict: 'ACCEPT', dst: '10.0.0.10', dnat: true, masquerade: true });
  });

  it('REJECTs a connection to a Service without endpoints, from a pod or from the host', () => {
    for (const [path, src] of [
      ['forward', '10.244.1.7'],
      ['output', NODE_IP],
    ] as const) {
      const v = traverse(kernel(), path, conn(src, '10.96.5.5', 80), isLocal, noDraw);
      expect(v).toMatchObject({ verdict: 'REJECT', rejectWith: 'icmp-port-unreachable', dst: '10.96.5.5', dport: 80, dnat: false, masquerade: false });
      expect(v.trace.at(-1)).toBe('filter/KUBE-SERVICES#0');
    }
    // Another port of it matches nothing and passes.
    expect(traverse(kernel(), 'forward', conn('10.244.1.7', '10.96.5.5', 81), isLocal, noDraw)).not.toHaveProperty('rejectWith');
  });

  it('picks among three endpoints by the statistic thresholds, drawing only for the rules it evaluates', () => {
    const pick = (...vs: number[]) => {
      const r = draws(...vs);
      const v = traverse(kernel(), 'forward', conn('10.244.1.7', '10.96.7.7', 80), isLocal, r);
      expect(r.left()).toBe(0);
      return `${v.dst}:${v.dport}`;
    };
    expect(THIRD).toBe(715827883);
    expect(pick(THIRD - 1)).toBe('10.244.1.5:8080');
    expect(pick(THIRD, HALF - 1)).toBe('10.244.2.5:8080');
    expect(pick(THIRD, HALF)).toBe('10.244.3.5:8080');
    expect(pick(0x7fffffff, 0x7fffffff)).toBe('10.244.3.5:8080');
  });

  it('splits uniform draws about a third each', () => {
    // A 32-bit LCG (Numerical Recipes), its top 31 bits as the draw.
    let s = 12345;
    const lcg = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s >>> 1);
    const nf = kernel();
    const n = 30_000;
    const counts: Record<string, number> = {};
    for (let i = 0; i < n; i++) {
      const v = traverse(nf, 'forward', conn('10.244.1.7', '10.96.7.7', 80), isLocal, lcg);
      counts[v.dst] = (counts[v.dst] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['10.244.1.5', '10.244.2.5', '10.244.3.5']);
    for (const c of Object.values(counts)) expect(Math.abs(c / n - 1 / 3)).toBeLessThan(0.015);
  });

  it('counts packets and bytes on every matching rule and on a policy reached, as iptables-save -c prints them', () => {
    const nf = kernel();
    for (const vs of [[0], [THIRD, 0], [THIRD, HALF]]) traverse(nf, 'forward', conn('10.244.1.7', '10.96.7.7', 80), isLocal, draws(...vs));
    const svc = nf.tables.nat.chains['KUBE-SVC-WEB']!.rules.map((r) => [r.packets, r.bytes]);
    expect(svc).toEqual([
      [1, 60],
      [1, 60],
      [1, 60],
    ]);
    const saved = save(nf, { counters: true });
    expect(saved).toContain('\n[3:180] -A KUBE-SERVICES -d 10.96.7.7/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-WEB\n');
    expect(saved).toContain('\n[1:60] -A KUBE-SEP-WEB2 -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.2.5:8080\n');
    // FORWARD's policy took all three; PREROUTING's none (DNAT decided the hook).
    expect(saved).toContain('\n:FORWARD ACCEPT [3:180]\n');
    expect(saved).toContain('\n:PREROUTING ACCEPT [0:0]\n');
    expect(saved).toContain('\n:POSTROUTING ACCEPT [3:180]\n');
    expect(save(nf)).not.toMatch(/\[[1-9]/);
  });

  it('DNATs a NodePort connection only when its destination is LOCAL (isLocal, or 127.0.0.0/8)', () => {
    const fromOutside = traverse(kernel(), 'forward', conn('192.168.5.5', NODE_IP, 30080), isLocal, draws(0));
    expect(fromOutside).toMatchObject({ verdict: 'ACCEPT', dst: '10.244.1.5', dport: 8080, dnat: true, masquerade: true });
    expect(traverse(kernel(), 'forward', conn('192.168.5.5', '10.0.0.6', 30080), isLocal, noDraw)).toMatchObject({ dst: '10.0.0.6', dnat: false });
    expect(traverse(kernel(), 'output', conn('127.0.0.1', '127.0.0.1', 30080), isLocal, draws(0))).toMatchObject({ dst: '10.244.1.5', dnat: true });
    // Without the node's address among the local ones, nothing matches.
    expect(traverse(kernel(), 'forward', conn('192.168.5.5', NODE_IP, 30080), () => false, noDraw).dnat).toBe(false);
  });

  it('keeps a client on its endpoint while the recent list remembers it (session affinity), then draws again', () => {
    const nf = kernel(`*nat
:KUBE-SVC-AFF - [0:0]
:KUBE-SEP-A1 - [0:0]
:KUBE-SEP-A2 - [0:0]
-A PREROUTING -d 10.96.9.9/32 -p tcp -m tcp --dport 80 -j KUBE-SVC-AFF
-A KUBE-SVC-AFF -m comment --comment "default/aff -> 10.244.1.5:80" -m recent --name KUBE-SEP-A1 --rcheck --seconds 10800 --reap -j KUBE-SEP-A1
-A KUBE-SVC-AFF -m comment --comment "default/aff -> 10.244.2.5:80" -m recent --name KUBE-SEP-A2 --rcheck --seconds 10800 --reap -j KUBE-SEP-A2
-A KUBE-SVC-AFF -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-A1
-A KUBE-SVC-AFF -j KUBE-SEP-A2
-A KUBE-SEP-A1 -m recent --set --name KUBE-SEP-A1 --mask 255.255.255.255 --rsource -m tcp -p tcp -j DNAT --to-destination 10.244.1.5:80
-A KUBE-SEP-A2 -m recent --set --name KUBE-SEP-A2 --mask 255.255.255.255 --rsource -m tcp -p tcp -j DNAT --to-destination 10.244.2.5:80
COMMIT
`);
    const at = (now: number, src: string, rand: () => number) => traverse(nf, 'forward', conn(src, '10.96.9.9', 80, now), isLocal, rand).dst;
    expect(at(0, '10.244.3.3', draws(0x7fffffff))).toBe('10.244.2.5');
    expect(nf.recent).toEqual({ 'KUBE-SEP-A2': { '10.244.3.3': 0 } });
    // Exactly --seconds later it is still remembered (and seen again now); no draw.
    expect(at(10_800_000, '10.244.3.3', noDraw)).toBe('10.244.2.5');
    expect(nf.recent['KUBE-SEP-A2']).toEqual({ '10.244.3.3': 10_800_000 });
    // Another client is not.
    expect(at(10_800_000, '10.244.3.4', draws(0))).toBe('10.244.1.5');
    // Past --seconds the check fails, --reap drops the stale entry, and the draw decides.
    expect(at(21_600_001, '10.244.3.3', draws(0))).toBe('10.244.1.5');
    expect(nf.recent).toEqual({ 'KUBE-SEP-A1': { '10.244.3.4': 10_800_000, '10.244.3.3': 21_600_001 }, 'KUBE-SEP-A2': {} });
  });

  it('sees NAT done so far as conntrack state DNAT', () => {
    const nf = kernel(`*filter
:FORWARD DROP [0:0]
-A FORWARD -m conntrack --ctstate DNAT -j ACCEPT
COMMIT
*nat
-A PREROUTING -d 10.96.0.1/32 -p tcp -j DNAT --to-destination 10.244.2.9
COMMIT
`);
    expect(traverse(nf, 'forward', conn('10.244.1.7', '10.96.0.1', 80), isLocal, noDraw)).toMatchObject({ verdict: 'ACCEPT', dst: '10.244.2.9', dport: 80 });
    expect(traverse(nf, 'forward', conn('10.244.1.7', '10.244.2.9', 80), isLocal, noDraw).verdict).toBe('DROP');
  });

  it('runs the hooks routing picks: local delivery through filter then nat INPUT, and a host packet for itself back through filter INPUT', () => {
    // Rules without -j only count, so the trace shows every hook passed.
    const hooks = ['filter INPUT', 'filter FORWARD', 'filter OUTPUT', 'nat PREROUTING', 'nat INPUT', 'nat OUTPUT', 'nat POSTROUTING'];
    const text = ['filter', 'nat'].map((t) => `*${t}\n${hooks.filter((h) => h.startsWith(t)).map((h) => `-A ${h.split(' ')[1]} -m comment --comment x\n`).join('')}COMMIT\n`).join('');
    const seen = (path: 'forward' | 'output', dst: string) => traverse(kernel(text), path, conn('10.244.1.7', dst, 80), isLocal, noDraw).trace;
    expect(seen('forward', '10.244.2.9')).toEqual(['nat/PREROUTING#0', 'filter/FORWARD#0', 'nat/POSTROUTING#0']);
    expect(seen('forward', NODE_IP)).toEqual(['nat/PREROUTING#0', 'filter/INPUT#0', 'nat/INPUT#0']);
    expect(seen('output', '10.244.2.9')).toEqual(['nat/OUTPUT#0', 'filter/OUTPUT#0', 'nat/POSTROUTING#0']);
    expect(seen('output', '127.0.0.1')).toEqual(['nat/OUTPUT#0', 'filter/OUTPUT#0', 'nat/POSTROUTING#0', 'filter/INPUT#0']);
  });

  it('never matches a rule naming an interface (interfaces are not modelled), inverted or not', () => {
    const nf = kernel('*filter\n-A FORWARD -i eth0 -j DROP\n-A FORWARD ! -o eth0 -j DROP\nCOMMIT\n');
    expect(traverse(nf, 'forward', conn('10.244.1.7', '10.244.2.9', 80), isLocal, noDraw)).toMatchObject({ verdict: 'ACCEPT', trace: [] });
  });

  it('drops a packet caught in a jump loop (a state restore would refuse) instead of hanging', () => {
    const nf = kernel('*nat\n:LOOP-A - [0:0]\n:LOOP-B - [0:0]\n-A PREROUTING -j LOOP-A\n-A LOOP-A -j LOOP-B\nCOMMIT\n');
    expect(restore(nf, '*nat\n-A LOOP-B -j LOOP-A\nCOMMIT\n').ok).toBe(false);
    // Closed by hand: state is plain data.
    nf.tables.nat.chains['LOOP-B']!.rules.push({ ...nf.tables.nat.chains['LOOP-A']!.rules[0]!, target: { kind: 'jump', chain: 'LOOP-A' } });
    const v = traverse(nf, 'forward', conn('10.244.1.7', '10.96.0.1', 443), isLocal, noDraw);
    expect(v.verdict).toBe('DROP');
    expect(v.trace.length).toBe(65);
  });

  it('applies MARK as xt_MARK does: (mark & ~mask) ^ value', () => {
    const nf = kernel(`*filter
-A FORWARD -j MARK --set-mark 0xf0
-A FORWARD -j MARK --and-mark 0x30
-A FORWARD -j MARK --or-mark 0x1
-A FORWARD -m mark --mark 0x31 -j DROP
COMMIT
`);
    expect(traverse(nf, 'forward', conn('10.244.1.7', '10.244.2.9', 80), isLocal, noDraw).verdict).toBe('DROP');
  });
});
