// The first packet of a connection (conntrack NEW) through the hooks, as the
// kernel runs them: nat rules for the hook, then filter, with routing decided
// after DNAT. A forwarded packet for this host goes to INPUT (filter, then nat
// INPUT, the SNAT hook of local delivery); a host's packet for itself also
// loops back through filter INPUT, nat INPUT being done already by POSTROUTING.
import { ipv4ToInt } from '../sim/ipv4';
import { addrType, type Flow, ruleMatches } from './evalMatch';
import { chainOf } from './state';
import type { Netfilter, TableName } from './types';

export interface Packet {
  src: string;
  dst: string;
  proto: 'tcp' | 'udp' | 'icmp';
  sport: number;
  dport: number;
  bytes: number;
  now: number;
}

export interface Verdict {
  verdict: 'ACCEPT' | 'DROP' | 'REJECT';
  rejectWith?: string;
  /** After DNAT. */
  dst: string;
  dport: number;
  dnat: boolean;
  /** SNAT by MASQUERADE (or SNAT) in POSTROUTING. */
  masquerade: boolean;
  /** "table/chain#ruleIndex" (0-based index into chain.rules) of every rule that matched, in order. */
  trace: string[];
}

/** Deeper nesting than this is taken for a loop (a hand-made state; restore refuses loops) and drops. */
export const MAX_JUMP_DEPTH = 64;

type Outcome = { kind: 'return' } | { kind: 'ACCEPT' | 'DROP' } | { kind: 'REJECT'; with: string };

/**
 * What xt_TRACE would see, called before a met rule's target runs: a rule
 * (0-based index) or a chain's tail (index rules.length), in a builtin chain
 * (the hook's own) or a user chain. The flow is the packet as that rule sees it.
 */
export type StepHook = (table: TableName, chain: string, index: number, builtin: boolean, flow: Readonly<Flow>) => void;

interface Walk extends Flow {
  bytes: number;
  masquerade: boolean;
  trace: string[];
  onStep: StepHook | undefined;
}

function runChain(w: Walk, table: TableName, name: string, depth: number): Outcome {
  // A missing chain (only in a hand-made state) returns like an empty one.
  const rules = chainOf(w.nf.tables[table], name)?.rules ?? [];
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    if (!ruleMatches(r, w)) continue;
    r.packets++;
    r.bytes += w.bytes;
    w.trace.push(`${table}/${name}#${i}`);
    w.onStep?.(table, name, i, depth === 0, w);
    const t = r.target;
    if (!t) continue;
    switch (t.kind) {
      case 'MARK':
        w.mark = ((w.mark & ~t.mask) ^ t.value) >>> 0;
        break;
      case 'jump': {
        if (depth >= MAX_JUMP_DEPTH) return { kind: 'DROP' };
        const o = runChain(w, table, t.chain, depth + 1);
        if (o.kind !== 'return') return o;
        break;
      }
      case 'RETURN':
        return { kind: 'return' };
      case 'ACCEPT':
      case 'DROP':
        return { kind: t.kind };
      case 'REJECT':
        return { kind: 'REJECT', with: t.with };
      case 'DNAT':
        // NAT targets decide the hook: NF_ACCEPT, with the connection's mapping set.
        w.dst = t.ip;
        w.dstN = ipv4ToInt(t.ip);
        if (t.port !== null) w.dport = t.port;
        w.dnat = true;
        return { kind: 'ACCEPT' };
      case 'SNAT':
      case 'MASQUERADE':
        w.snat = w.masquerade = true;
        return { kind: 'ACCEPT' };
    }
  }
  // The chain's tail: a user chain's implicit RETURN (its caller's policy tail is runHook's).
  if (depth > 0) w.onStep?.(table, name, rules.length, false, w);
  return { kind: 'return' };
}

type Decision = Exclude<Outcome, { kind: 'return' }>;
type Hook = readonly [TableName, string];

/** A builtin chain: its rules, then its policy (counted) when they do not decide. */
function runHook(w: Walk, [table, name]: Hook): Decision {
  const o = runChain(w, table, name, 0);
  if (o.kind !== 'return') return o;
  const chain = chainOf(w.nf.tables[table], name)!;
  w.onStep?.(table, name, chain.rules.length, true, w);
  chain.packets++;
  chain.bytes += w.bytes;
  return { kind: chain.policy === 'DROP' ? 'DROP' : 'ACCEPT' };
}

/** Hooks in turn until one does not accept. */
function runHooks(w: Walk, hooks: readonly Hook[]): Decision {
  for (const h of hooks) {
    const d = runHook(w, h);
    if (d.kind !== 'ACCEPT') return d;
  }
  return { kind: 'ACCEPT' };
}

/**
 * The packet's walk; `onStep` (a trace) sees each rule it meets and each
 * chain's end. It changes `nf` as the kernel would: counters, recent lists.
 */
export function traverse(nf: Netfilter, path: 'forward' | 'output', pkt: Packet, isLocal: (ip: string) => boolean, randU31: () => number, onStep?: StepHook): Verdict {
  const w: Walk = { ...pkt, srcN: ipv4ToInt(pkt.src), dstN: ipv4ToInt(pkt.dst), mark: 0, dnat: false, snat: false, masquerade: false, trace: [], nf, isLocal, randU31, onStep };
  let d = runHooks(w, path === 'forward' ? [['nat', 'PREROUTING']] : [['nat', 'OUTPUT'], ['filter', 'OUTPUT']]);
  if (d.kind === 'ACCEPT') {
    // Routing, on the destination after DNAT.
    const local = addrType(w.dst, isLocal) === 'LOCAL';
    const rest: Hook[] =
      path === 'forward'
        ? local
          ? [['filter', 'INPUT'], ['nat', 'INPUT']]
          : [['filter', 'FORWARD'], ['nat', 'POSTROUTING']]
        : [['nat', 'POSTROUTING'], ...(local ? [['filter', 'INPUT'] as const] : [])];
    d = runHooks(w, rest);
  }
  return {
    verdict: d.kind,
    ...(d.kind === 'REJECT' ? { rejectWith: d.with } : {}),
    dst: w.dst,
    dport: w.dport,
    dnat: w.dnat,
    masquerade: w.masquerade,
    trace: w.trace,
  };
}
