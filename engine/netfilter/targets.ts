// The target extensions (-j NAME other than a chain): how their options are
// read, checked and printed, after iptables' extensions/lib{ipt,xt}_*.c. Which
// hooks a NAT target may run from (DNAT in PREROUTING/OUTPUT, MASQUERADE in
// POSTROUTING) is the kernel's check at load time and is not modelled; the
// table is.
import { ipv4ToInt } from '../sim/ipv4';
import { type Extension, type OptionEntry, optionTable, protoIs } from './extension';
import type { Target } from './types';
import { formatPorts, hex, parseMarkMask, parsePortRange, parseUint } from './values';

type T<K extends Target['kind']> = Extract<Target, { kind: K }>;
const ext = <S extends Target>(e: Extension<S>): Extension<Target> => e as unknown as Extension<Target>;

const verdict = (kind: 'ACCEPT' | 'DROP' | 'RETURN'): Extension<Target> => ({ name: kind, create: () => ({ kind }), options: {}, check: () => null, save: () => '' });

/** libipt_REJECT's types for IPv4: the name it prints and the alias it also reads. */
const REJECT_TYPES: [string, string][] = [
  ['icmp-net-unreachable', 'net-unreach'],
  ['icmp-host-unreachable', 'host-unreach'],
  ['icmp-proto-unreachable', 'proto-unreach'],
  ['icmp-port-unreachable', 'port-unreach'],
  ['icmp-net-prohibited', 'net-prohib'],
  ['icmp-host-prohibited', 'host-prohib'],
  ['tcp-reset', 'tcp-rst'],
  ['icmp-admin-prohibited', 'admin-prohib'],
];

const reject = ext<T<'REJECT'>>({
  name: 'REJECT',
  create: () => ({ kind: 'REJECT', with: 'icmp-port-unreachable' }),
  options: optionTable([
    [
      ['--reject-with'],
      {
        arg: true,
        apply: (t, v) => {
          const found = REJECT_TYPES.find((names) => names.includes(v.toLowerCase()));
          if (!found) return `REJECT: unknown reject type "${v}"`;
          t.with = found[0];
          return null;
        },
      },
    ],
  ]),
  // ipt_REJECT's checkentry: a TCP reset needs a TCP packet to answer.
  check: (t, rule) => (t.with === 'tcp-reset' && !protoIs(rule, 'tcp') ? 'REJECT: TCP_RESET invalid for non-tcp' : null),
  save: (t) => ` --reject-with ${t.with}`,
});

/** `ip[:port]`; ranges of either are not modelled. */
function parseNatAddress(v: string): { ip: string; port: number | null } | null {
  const [ip, port, extra] = v.split(':');
  if (extra !== undefined || Number.isNaN(ipv4ToInt(ip ?? ''))) return null;
  if (port === undefined) return { ip: ip!, port: null };
  const p = parseUint(port, 65535);
  return p === null || p === 0 ? null : { ip: ip!, port: p };
}

function natAddress(name: string) {
  return (t: { ip: string; port: number | null }, v: string): string | null => {
    const a = parseNatAddress(v);
    if (!a) return `${name}: Bad IP address "${v}"`;
    t.ip = a.ip;
    t.port = a.port;
    return null;
  };
}

const natOnly = (name: string, table: string): string | null => (table === 'nat' ? null : `${name} target: only valid in nat table, not ${table}`);
const portsNeedProto = (name: string) => `${name}: Need TCP, UDP, SCTP or DCCP with port specification`;
const flag = <S>(set: (s: S) => void): OptionEntry<S>[1] => ({ arg: false, apply: (s) => (set(s), null) });

const dnat = ext<T<'DNAT'>>({
  name: 'DNAT',
  create: () => ({ kind: 'DNAT', ip: '', port: null, random: false, persistent: false }),
  options: optionTable([
    [['--to-destination'], { arg: true, apply: natAddress('DNAT') }],
    [['--random'], flag((t) => (t.random = true))],
    [['--persistent'], flag((t) => (t.persistent = true))],
  ]),
  check: (t, rule, seen, table) =>
    natOnly('DNAT', table) ?? (seen.has('--to-destination') ? null : 'DNAT: option "--to-destination" must be specified') ?? (t.port !== null && !protoIs(rule, 'tcp', 'udp') ? portsNeedProto('DNAT') : null),
  save: (t) => ` --to-destination ${t.ip}${t.port === null ? '' : `:${t.port}`}${t.random ? ' --random' : ''}${t.persistent ? ' --persistent' : ''}`,
});

const snat = ext<T<'SNAT'>>({
  name: 'SNAT',
  create: () => ({ kind: 'SNAT', ip: '', port: null, random: false, randomFully: false, persistent: false }),
  options: optionTable([
    [['--to-source'], { arg: true, apply: natAddress('SNAT') }],
    [['--random'], flag((t) => (t.random = true))],
    [['--random-fully'], flag((t) => (t.randomFully = true))],
    [['--persistent'], flag((t) => (t.persistent = true))],
  ]),
  check: (t, rule, seen, table) =>
    natOnly('SNAT', table) ?? (seen.has('--to-source') ? null : 'SNAT: option "--to-source" must be specified') ?? (t.port !== null && !protoIs(rule, 'tcp', 'udp') ? portsNeedProto('SNAT') : null),
  save: (t) => ` --to-source ${t.ip}${t.port === null ? '' : `:${t.port}`}${t.random ? ' --random' : ''}${t.randomFully ? ' --random-fully' : ''}${t.persistent ? ' --persistent' : ''}`,
});

const masquerade = ext<T<'MASQUERADE'>>({
  name: 'MASQUERADE',
  create: () => ({ kind: 'MASQUERADE', ports: null, random: false, randomFully: false }),
  options: optionTable([
    [['--to-ports'], { arg: true, apply: (t, v) => ((t.ports = parsePortRange(v, '-')) ? null : `MASQUERADE: Port "${v}" not valid`) }],
    [['--random'], flag((t) => (t.random = true))],
    [['--random-fully'], flag((t) => (t.randomFully = true))],
  ]),
  check: (t, rule, _seen, table) => natOnly('MASQUERADE', table) ?? (t.ports && !protoIs(rule, 'tcp', 'udp') ? portsNeedProto('MASQUERADE') : null),
  save: (t) => `${t.ports ? ` --to-ports ${formatPorts(t.ports.lo, t.ports.hi, '-')}` : ''}${t.random ? ' --random' : ''}${t.randomFully ? ' --random-fully' : ''}`,
});

/** libxt_MARK revision 2: every option becomes (value, mask) with mark' = (mark & ~mask) ^ value. */
const MARK_OPTIONS: [string, (v: number, m: number) => [number, number], boolean][] = [
  ['--set-xmark', (v, m) => [v, m], true],
  ['--set-mark', (v, m) => [v, (v | m) >>> 0], true],
  ['--and-mark', (v) => [0, ~v >>> 0], false],
  ['--or-mark', (v) => [v, v], false],
  ['--xor-mark', (v) => [v, 0], false],
];

const markTarget = ext<T<'MARK'>>({
  name: 'MARK',
  create: () => ({ kind: 'MARK', value: 0, mask: 0 }),
  options: optionTable(
    MARK_OPTIONS.map(([name, toXset, masked]): OptionEntry<T<'MARK'>> => [
      [name],
      {
        arg: true,
        apply: (t, v, _neg, seen) => {
          if (MARK_OPTIONS.some(([o]) => seen.has(o))) return 'MARK: --set-xmark, --set-mark, --and-mark, --or-mark and --xor-mark exclude each other';
          const mm = parseMarkMask(v);
          if (!mm || (!masked && v.includes('/'))) return `MARK: bad value for option "${name}", or out of range`;
          [t.value, t.mask] = toXset(mm.value, mm.mask);
          return null;
        },
      },
    ]),
  ),
  check: (_t, _r, seen) => (MARK_OPTIONS.some(([o]) => seen.has(o)) ? null : 'MARK: One of the --set-xmark, --{and,or,xor,set}-mark options is required'),
  // libxt_MARK prints every form as --set-xmark.
  save: (t) => ` --set-xmark ${hex(t.value)}/${hex(t.mask)}`,
});

export const TARGETS: Record<string, Extension<Target>> = {
  ACCEPT: verdict('ACCEPT'),
  DROP: verdict('DROP'),
  RETURN: verdict('RETURN'),
  REJECT: reject,
  DNAT: dnat,
  SNAT: snat,
  MASQUERADE: masquerade,
  MARK: markTarget,
};
