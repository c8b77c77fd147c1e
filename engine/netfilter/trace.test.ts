// TRACE's view of kube-proxy's rules (syncProxyRules' output, applied the way
// a node's kernel takes it: the jump chains ensured, then iptables-restore):
// a Service's DNAT, a REJECT for one without endpoints, a NodePort from
// outside, a packet no rule touches; and the kernel's state left as it was.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../apimachinery/types';
import { endpointsByServicePort, servicePorts } from '../kubeproxy/serviceMap';
import { jumpTargets, syncProxyRules } from '../kubeproxy/syncRules';
import { ensureChain, ensureRule, newNetfilter, restore, save, traceTraverse, traverse, type Netfilter, type Packet } from './index';

const NODE_IP = '10.0.1.2';
const CFG = { nodeIP: NODE_IP, clusterCIDR: '10.244.0.0/16', masqueradeBit: 14 };
const isLocal = (ip: string) => ip.startsWith('127.') || ip === NODE_IP || ip === '10.244.1.1';

const service = (name: string, clusterIP: string, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { type: 'ClusterIP', clusterIP, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], ...extra } }) as unknown as KObject;
const slice = (svc: string, ips: string[]) =>
  ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    addressType: 'IPv4',
    metadata: { name: `${svc}-x`, namespace: 'default', labels: { 'kubernetes.io/service-name': svc } },
    ports: [{ name: '', port: 8080, protocol: 'TCP' }],
    endpoints: ips.map((ip, i) => ({ addresses: [ip], conditions: { ready: true }, nodeName: `node-${i + 1}` })),
  }) as unknown as KObject;

/** A node's kernel after kube-proxy's sync: web (NodePort 30080, two endpoints) and empty (none). */
function kernel(): Netfilter {
  const svcs = [service('web', '10.96.7.7', { type: 'NodePort', ports: [{ port: 80, targetPort: 8080, nodePort: 30080, protocol: 'TCP' }] }), service('empty', '10.96.5.5')];
  const out = syncProxyRules(svcs.flatMap(servicePorts), endpointsByServicePort([slice('web', ['10.244.1.5', '10.244.2.9']), slice('empty', [])], 'node-1'), CFG, []);
  const nf = newNetfilter();
  for (const c of jumpTargets(out.ensure)) expect(ensureChain(nf, c.table, c.chain)).toEqual({ ok: true });
  for (const e of out.ensure) expect(ensureRule(nf, e.position, e.table, e.chain, e.args)).toEqual({ ok: true });
  expect(restore(nf, out.restore)).toEqual({ ok: true });
  return nf;
}

const conn = (src: string, dst: string, dport: number): Packet => ({ src, dst, proto: 'tcp', sport: 40000, dport, bytes: 60, now: 0 });
const noDraw = (): number => {
  throw new Error('randU31 called without a statistic rule to evaluate');
};
/** Steps as "table:chain:type:rulenum". */
const names = (t: ReturnType<typeof traceTraverse>) => t.steps.map((s) => `${s.table}:${s.chain}:${s.type}:${s.rulenum}`);

const SVC = 'KUBE-SVC-LOLE4ISW44XBNF3G';
const EXT = 'KUBE-EXT-LOLE4ISW44XBNF3G';
const SEP1 = 'KUBE-SEP-XQWD6PXGZUTOOIVQ';
const SEP2 = 'KUBE-SEP-Z4ZH5U6FGNIZRSBY';
/** filter FORWARD's rules that do not decide a new connection to a pod: kube-proxy's jumps, each chain returning. */
const FORWARD_PASSES = [
  'filter:FORWARD:rule:1',
  'filter:KUBE-PROXY-FIREWALL:return:1',
  'filter:FORWARD:rule:2',
  'filter:KUBE-FORWARD:return:4',
  'filter:FORWARD:rule:3',
  'filter:KUBE-SERVICES:return:2',
  'filter:FORWARD:rule:4',
  'filter:KUBE-EXTERNAL-SERVICES:return:1',
];

describe('traceTraverse: a connection through kube-proxy’s rules as TRACE logs it', () => {
  it('follows a pod’s connection to a cluster IP through KUBE-SERVICES, KUBE-SVC and KUBE-SEP to its DNAT, then FORWARD and POSTROUTING', () => {
    const t = traceTraverse(kernel(), 'forward', conn('10.244.1.7', '10.96.7.7', 80), isLocal, () => 0);
    expect(names(t)).toEqual([
      'nat:PREROUTING:rule:1',
      'nat:KUBE-SERVICES:rule:1',
      `nat:${SVC}:rule:2`,
      `nat:${SEP1}:rule:2`,
      ...FORWARD_PASSES,
      'filter:FORWARD:policy:5',
      'nat:POSTROUTING:rule:1',
      'nat:KUBE-POSTROUTING:rule:1',
      'nat:POSTROUTING:policy:2',
    ]);
    expect(t).toMatchObject({ verdict: 'ACCEPT', dst: '10.244.1.5', dport: 8080, dnat: true, masquerade: false });
    const [pre, services, svc, sep] = t.steps;
    expect(pre).toEqual({
      table: 'nat',
      chain: 'PREROUTING',
      type: 'rule',
      rulenum: 1,
      rule: '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      log: 'TRACE: nat:PREROUTING:rule:1 SRC=10.244.1.7 DST=10.96.7.7 LEN=60 PROTO=TCP SPT=40000 DPT=80',
    });
    expect(services!.rule).toBe(`-A KUBE-SERVICES -d 10.96.7.7/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j ${SVC}`);
    // From a pod: the masquerade rule (! -s 10.244.0.0/16) is passed over, the 1/2 draw taken.
    expect(svc!.rule).toBe(`-A ${SVC} -m comment --comment "default/web -> 10.244.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j ${SEP1}`);
    expect(sep).toMatchObject({ rule: `-A ${SEP1} -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.1.5:8080`, dnat: { dst: '10.244.1.5', dport: 8080 } });
    expect(t.steps.filter((s) => s.dnat || s.mark !== undefined || s.masquerade)).toEqual([sep]);
    // The lines after the DNAT see the new destination.
    expect(t.steps[4]!.log).toBe('TRACE: filter:FORWARD:rule:1 SRC=10.244.1.7 DST=10.244.1.5 LEN=60 PROTO=TCP SPT=40000 DPT=8080');
    expect(t.steps.find((s) => s.type === 'policy')!.rule).toBe('-P FORWARD ACCEPT');
    expect(t.steps.find((s) => s.type === 'return')!.rule).toBe('');
    // The other draw: the last endpoint, reached without a statistic test.
    expect(traceTraverse(kernel(), 'forward', conn('10.244.1.7', '10.96.7.7', 80), isLocal, () => 0x7fffffff).steps.slice(2, 4).map((s) => `${s.chain}:${s.rulenum}`)).toEqual([`${SVC}:3`, `${SEP2}:2`]);
  });

  it('ends at filter KUBE-SERVICES’ REJECT for a Service without endpoints, nat having passed it by', () => {
    const t = traceTraverse(kernel(), 'forward', conn('10.244.1.7', '10.96.5.5', 80), isLocal, noDraw);
    expect(names(t)).toEqual(['nat:PREROUTING:rule:1', 'nat:KUBE-SERVICES:return:3', 'nat:PREROUTING:policy:2', ...FORWARD_PASSES.slice(0, 5), 'filter:KUBE-SERVICES:rule:1']);
    expect(t).toMatchObject({ verdict: 'REJECT', rejectWith: 'icmp-port-unreachable', dst: '10.96.5.5', dport: 80, dnat: false, masquerade: false });
    expect(t.steps.at(-1)!.rule).toBe('-A KUBE-SERVICES -d 10.96.5.5/32 -p tcp -m comment --comment "default/empty has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable');
  });

  it('marks a NodePort connection from outside for masquerade, DNATs it to an endpoint on another node, clears the mark and masquerades it', () => {
    const t = traceTraverse(kernel(), 'forward', conn('192.168.5.5', NODE_IP, 30080), isLocal, () => 0x7fffffff);
    expect(names(t)).toEqual([
      'nat:PREROUTING:rule:1',
      'nat:KUBE-SERVICES:rule:2',
      'nat:KUBE-NODEPORTS:rule:1',
      `nat:${EXT}:rule:1`,
      'nat:KUBE-MARK-MASQ:rule:1',
      'nat:KUBE-MARK-MASQ:return:2',
      `nat:${EXT}:rule:2`,
      `nat:${SVC}:rule:3`,
      `nat:${SEP2}:rule:2`,
      'filter:FORWARD:rule:1',
      'filter:KUBE-PROXY-FIREWALL:return:1',
      'filter:FORWARD:rule:2',
      // The mark lets KUBE-FORWARD accept it.
      'filter:KUBE-FORWARD:rule:2',
      'nat:POSTROUTING:rule:1',
      'nat:KUBE-POSTROUTING:rule:2',
      'nat:KUBE-POSTROUTING:rule:3',
    ]);
    expect(t).toMatchObject({ verdict: 'ACCEPT', dst: '10.244.2.9', dport: 8080, dnat: true, masquerade: true });
    const changed = t.steps.filter((s) => s.dnat || s.mark !== undefined || s.masquerade).map(({ chain, dnat, mark, masquerade }) => ({ chain, dnat, mark, masquerade }));
    expect(changed).toEqual([
      { chain: 'KUBE-MARK-MASQ', mark: 0x4000, dnat: undefined, masquerade: undefined },
      { chain: SEP2, dnat: { dst: '10.244.2.9', dport: 8080 }, mark: undefined, masquerade: undefined },
      { chain: 'KUBE-POSTROUTING', mark: 0, dnat: undefined, masquerade: undefined },
      { chain: 'KUBE-POSTROUTING', masquerade: true, dnat: undefined, mark: undefined },
    ]);
    // nf_log prints the mark while it is set.
    expect(t.steps[5]!.log).toBe('TRACE: nat:KUBE-MARK-MASQ:return:2 SRC=192.168.5.5 DST=10.0.1.2 LEN=60 PROTO=TCP SPT=40000 DPT=30080 MARK=0x4000');
    expect(t.steps.at(-1)!.log).toBe('TRACE: nat:KUBE-POSTROUTING:rule:3 SRC=192.168.5.5 DST=10.244.2.9 LEN=60 PROTO=TCP SPT=40000 DPT=8080');
  });

  it('meets only the policies when no rule is there to touch the packet', () => {
    expect(names(traceTraverse(newNetfilter(), 'forward', conn('10.244.1.7', '10.244.2.9', 8080), isLocal, noDraw))).toEqual(['nat:PREROUTING:policy:1', 'filter:FORWARD:policy:1', 'nat:POSTROUTING:policy:1']);
    expect(names(traceTraverse(newNetfilter(), 'forward', conn('10.244.1.7', NODE_IP, 22), isLocal, noDraw))).toEqual(['nat:PREROUTING:policy:1', 'filter:INPUT:policy:1', 'nat:INPUT:policy:1']);
    expect(names(traceTraverse(newNetfilter(), 'output', conn(NODE_IP, '10.244.2.9', 8080), isLocal, noDraw))).toEqual(['nat:OUTPUT:policy:1', 'filter:OUTPUT:policy:1', 'nat:POSTROUTING:policy:1']);
    const icmp = traceTraverse(newNetfilter(), 'forward', { ...conn('10.244.1.7', '10.244.2.9', 0), proto: 'icmp', bytes: 84 }, isLocal, noDraw);
    expect(icmp.steps[0]!.log).toBe('TRACE: nat:PREROUTING:policy:1 SRC=10.244.1.7 DST=10.244.2.9 LEN=84 PROTO=ICMP TYPE=8 CODE=0');
    // A DROP policy decides; nothing runs after it.
    const nf = newNetfilter();
    expect(restore(nf, '*filter\n:FORWARD DROP [0:0]\nCOMMIT\n')).toEqual({ ok: true });
    const dropped = traceTraverse(nf, 'forward', conn('10.244.1.7', '10.244.2.9', 8080), isLocal, noDraw);
    expect(names(dropped)).toEqual(['nat:PREROUTING:policy:1', 'filter:FORWARD:policy:1']);
    expect(dropped.steps[1]!.rule).toBe('-P FORWARD DROP');
    expect(dropped.verdict).toBe('DROP');
  });

  it('logs a rule with no test and a plain verdict as the kernel takes a chain’s tail: policy in a builtin chain, return in a user one', () => {
    const nf = newNetfilter();
    expect(restore(nf, '*filter\n:MINE - [0:0]\n-A FORWARD -j MINE\n-A FORWARD -j ACCEPT\n-A MINE -j RETURN\n-A MINE -p tcp -j RETURN\nCOMMIT\n')).toEqual({ ok: true });
    expect(names(traceTraverse(nf, 'forward', conn('10.244.1.7', '10.244.2.9', 8080), isLocal, noDraw))).toEqual(['nat:PREROUTING:policy:1', 'filter:FORWARD:rule:1', 'filter:MINE:return:1', 'filter:FORWARD:policy:2', 'nat:POSTROUTING:policy:1']);
  });

  it('changes nothing in the kernel it traces (counters, recent lists), and agrees with traverse', () => {
    const nf = kernel();
    const before = save(nf, { counters: true });
    const cases: [Packet, number][] = [
      [conn('10.244.1.7', '10.96.7.7', 80), 0],
      [conn('10.244.1.7', '10.96.5.5', 80), 0],
      [conn('192.168.5.5', NODE_IP, 30080), 0x7fffffff],
      [conn('10.244.1.7', '10.244.2.9', 8080), 0],
    ];
    for (const [pkt, draw] of cases) {
      const { steps, ...v } = traceTraverse(nf, 'forward', pkt, isLocal, () => draw);
      expect(steps.filter((s) => s.type === 'rule').length).toBe(v.trace.length);
      expect(v).toEqual(traverse(kernel(), 'forward', pkt, isLocal, () => draw));
    }
    expect(save(nf, { counters: true })).toBe(before);
    // Session affinity's list is the kernel's too: a trace's --set lands on its copy only.
    const aff = newNetfilter();
    expect(restore(aff, '*nat\n-A PREROUTING -p tcp -m recent --set --name KUBE-SEP-A1 --mask 255.255.255.255 --rsource -m tcp -j DNAT --to-destination 10.244.1.5:80\nCOMMIT\n')).toEqual({ ok: true });
    expect(traceTraverse(aff, 'forward', conn('10.244.3.3', '10.96.9.9', 80), isLocal, noDraw)).toMatchObject({ dst: '10.244.1.5', dnat: true });
    expect(aff.recent).toEqual({});
  });
});
