// Whether a rule matches the first packet of a connection: the base test (the
// kernel's ip_packet_match) then each match in order, stopping at the first
// that fails, so a later match's side effects (a statistic draw, a recent
// list update) happen only when every earlier test passed.
import { inPrefix, ipv4ToInt, parseCidr } from '../sim/ipv4';
import { ownGet, ownSet } from './state';
import type { CtState, Match, Neg, Netfilter, PortRange, Rule } from './types';
import { intToIpv4 } from './values';

/** The connection as the hooks see and change it. */
export interface Flow {
  src: string;
  dst: string;
  /** src and dst as numbers (dstN follows DNAT). */
  srcN: number;
  dstN: number;
  proto: 'tcp' | 'udp' | 'icmp';
  sport: number;
  dport: number;
  now: number;
  mark: number;
  /** conntrack status bits set by NAT so far (IPS_DST_NAT, IPS_SRC_NAT). */
  dnat: boolean;
  snat: boolean;
  nf: Netfilter;
  isLocal(ip: string): boolean;
  randU31(): number;
}

/** An optional port test: absent passes, `!` inverts. */
const inPorts = (p: PortRange | null, port: number): boolean => !p || (p.lo <= port && port <= p.hi) !== p.neg;
const ofType = (want: Neg<string[]> | null, ip: string, isLocal: (ip: string) => boolean): boolean => !want || want.value.includes(addrType(ip, isLocal)) !== want.neg;

/** The address's route type as inet_addr_type gives it (what -m addrtype compares). */
export function addrType(ip: string, isLocal: (ip: string) => boolean): string {
  const n = ipv4ToInt(ip);
  if (n === 0xffffffff || n >>> 24 === 0) return 'BROADCAST';
  if (n >>> 28 === 14) return 'MULTICAST';
  return isLocal(ip) || n >>> 24 === 127 ? 'LOCAL' : 'UNICAST';
}

// Rules hold their prefixes as text (plain data); parsed once each here.
const prefixes = new Map<string, { base: number; bits: number }>();
function inRulePrefix(n: number, cidr: string): boolean {
  let p = prefixes.get(cidr);
  if (!p) {
    if (prefixes.size > 50_000) prefixes.clear();
    p = parseCidr(cidr)!;
    prefixes.set(cidr, p);
  }
  return inPrefix(n, p.base, p.bits);
}

/** Interfaces are not modelled: a rule that names one (inverted or not) matches nothing. */
export function ruleMatches(r: Rule, f: Flow): boolean {
  if (r.in || r.out) return false;
  if (r.src && inRulePrefix(f.srcN, r.src.value) === r.src.neg) return false;
  if (r.dst && inRulePrefix(f.dstN, r.dst.value) === r.dst.neg) return false;
  if (r.proto && (r.proto.value === f.proto) === r.proto.neg) return false;
  for (const m of r.matches) if (!matchOne(m, f)) return false;
  return true;
}

/** Our packet opens its connection; NAT done so far shows as SNAT/DNAT (xt_conntrack). */
const ctHas = (s: CtState, f: Flow): boolean => s === 'NEW' || (s === 'DNAT' && f.dnat) || (s === 'SNAT' && f.snat);

function matchOne(m: Match, f: Flow): boolean {
  switch (m.kind) {
    case 'comment':
    case 'nfacct':
      return true;
    case 'tcp':
    case 'udp':
      return m.kind === f.proto && inPorts(m.sport, f.sport) && inPorts(m.dport, f.dport);
    case 'statistic':
      return (f.randU31() < m.probability) !== m.neg;
    case 'mark':
      return ((f.mark & m.mask) >>> 0 === m.mark) !== m.neg;
    case 'conntrack':
      return m.states.some((s) => ctHas(s, f)) !== m.neg;
    case 'addrtype':
      return ofType(m.src, f.src, f.isLocal) && ofType(m.dst, f.dst, f.isLocal);
    case 'recent':
      return recent(m, f);
  }
}

/**
 * xt_recent's recent_mt with one timestamp per address (no --hitcount): the
 * list's key order is its LRU order, so an update moves the key to the end
 * and --reap drops the oldest entry when it is stale.
 */
function recent(m: Extract<Match, { kind: 'recent' }>, f: Flow): boolean {
  const key = intToIpv4((ipv4ToInt(m.side === 'source' ? f.src : f.dst) & ipv4ToInt(m.mask)) >>> 0);
  let list = ownGet(f.nf.recent, m.name);
  const seen = list ? ownGet(list, key) : undefined;
  const touch = (l: Record<string, number>) => {
    delete l[key];
    ownSet(l, key, f.now);
  };
  if (seen === undefined) {
    if (m.mode !== 'set') return m.neg;
    if (!list) ownSet(f.nf.recent, m.name, (list = {}));
    touch(list);
    return !m.neg;
  }
  let hit = m.neg;
  if (m.mode === 'set' || m.mode === 'remove') hit = !hit;
  else {
    const since = f.now - m.seconds * 1000;
    if (!m.seconds || seen >= since) hit = !hit;
    if (m.reap) {
      const oldest = Object.keys(list!)[0]!;
      if (!(oldest === key && m.mode === 'update' && hit) && list![oldest]! < since) delete list![oldest];
    }
  }
  if (m.mode === 'remove') delete list![key];
  else if (m.mode === 'set' || (m.mode === 'update' && hit)) touch(list!);
  return hit;
}
