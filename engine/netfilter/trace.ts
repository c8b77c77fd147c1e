// A packet's walk as the TRACE target logs it (iptables -t raw -j TRACE;
// ip_tables.c's trace_packet through nf_log): one line per rule the packet
// matched, "TRACE: table:chain:type:rulenum" then the packet as that rule saw
// it. Types are the kernel's: "rule" for a rule, "return" for a user chain's
// end, "policy" for a builtin chain's; rule numbers are 1-based as
// `iptables -L --line-numbers` counts them, a chain's end being its rules + 1.
// The walk is traverse's own, on a copy: a trace never changes the kernel's
// counters or recent lists.
import type { Flow } from './evalMatch';
import { formatRule } from './rule';
import { chainOf } from './state';
import { traverse, type Packet, type Verdict } from './traverse';
import type { Netfilter, Rule, TableName } from './types';
import { hex } from './values';

export type TraceType = 'rule' | 'return' | 'policy';

export interface TraceStep {
  table: TableName;
  chain: string;
  type: TraceType;
  /** 1-based: the rule's number in its chain, or the chain's rules + 1 for its end. */
  rulenum: number;
  /** The rule as iptables-save prints it; `-P CHAIN POLICY` for a policy; '' for a user chain's end. */
  rule: string;
  /** The packet after this step, where the step changed it: DNAT's new destination, MARK's new mark, SNAT (masquerade). */
  dnat?: { dst: string; dport: number };
  mark?: number;
  masquerade?: true;
  /** The line the kernel logs for it (interfaces, not modelled, left out). */
  log: string;
}

export interface PacketTrace extends Verdict {
  steps: TraceStep[];
}

/**
 * The kernel's test for a chain's tail entry (get_chainname_rulenum): no
 * address, interface or protocol test, no match, and a standard target (a
 * verdict, or none). Such a rule logs as "return" or "policy" like the tail,
 * wherever it sits.
 */
function unconditional(r: Rule): boolean {
  const t = r.target;
  return !r.src && !r.dst && !r.in && !r.out && !r.proto && r.matches.length === 0 && (!t || t.kind === 'ACCEPT' || t.kind === 'DROP' || t.kind === 'RETURN');
}

/** nf_log_ip's fields we model: addresses, length, protocol and ports, and the mark when set. */
function packetText(f: Readonly<Flow>, bytes: number): string {
  const l4 = f.proto === 'icmp' ? 'PROTO=ICMP TYPE=8 CODE=0' : `PROTO=${f.proto.toUpperCase()} SPT=${f.sport} DPT=${f.dport}`;
  return `SRC=${f.src} DST=${f.dst} LEN=${bytes} ${l4}${f.mark ? ` MARK=${hex(f.mark)}` : ''}`;
}

/**
 * `traverse` with TRACE on: the verdict, and every step as xt_TRACE logs it.
 * Runs on a copy of `nf`, which it leaves as it was; `randU31` is the
 * caller's (a stream of the trace's own, never the kernel's).
 */
export function traceTraverse(nf: Netfilter, path: 'forward' | 'output', pkt: Packet, isLocal: (ip: string) => boolean, randU31: () => number): PacketTrace {
  const copy = structuredClone(nf);
  const steps: TraceStep[] = [];
  // The packet as the last step saw it: what its target changed shows at the next step (or the end).
  let before: { dst: string; dport: number; mark: number; snat: boolean } | null = null;
  const settle = (f: Readonly<Flow>): void => {
    const last = steps[steps.length - 1];
    if (!last || !before) return;
    if (f.dst !== before.dst || f.dport !== before.dport) last.dnat = { dst: f.dst, dport: f.dport };
    if (f.mark !== before.mark) last.mark = f.mark;
    if (f.snat && !before.snat) last.masquerade = true;
  };
  const seen: { flow?: Readonly<Flow> } = {};
  const v = traverse(
    copy,
    path,
    pkt,
    isLocal,
    randU31,
    (table, chain, index, builtin, f) => {
      settle(f);
      seen.flow = f;
      const c = chainOf(copy.tables[table], chain);
      const r = c?.rules[index];
      const tail = !r || unconditional(r);
      const type: TraceType = !tail ? 'rule' : builtin ? 'policy' : 'return';
      const rule = r ? formatRule(chain, r) : builtin ? `-P ${chain} ${c?.policy ?? 'ACCEPT'}` : '';
      const rulenum = index + 1;
      steps.push({ table, chain, type, rulenum, rule, log: `TRACE: ${table}:${chain}:${type}:${rulenum} ${packetText(f, pkt.bytes)}` });
      before = { dst: f.dst, dport: f.dport, mark: f.mark, snat: f.snat };
    },
  );
  if (seen.flow) settle(seen.flow);
  return { ...v, steps };
}
