// The match extensions kube-proxy uses: how `-m NAME` options are read, checked
// and printed. Print forms and checks follow iptables' extensions/libxt_*.c
// save and final_check functions and the kernel's xt_*.c checkentry.
import { type Extension, type OptionEntry, optionTable, protoIs } from './extension';
import type { CtState, Match } from './types';
import { utf8Length } from '../sim/utf8';
import { ipv4ToInt } from '../sim/ipv4';
import { formatPorts, formatProbability, hex, intToIpv4, parseMarkMask, parsePortRange, parseProbability, parseUint } from './values';
import { quoteWord } from './words';

type M<K extends Match['kind']> = Extract<Match, { kind: K }>;
const ext = <S extends Match>(e: Extension<S>): Extension<Match> => e as unknown as Extension<Match>;
const need = (seen: ReadonlySet<string>, name: string, opt: string): string | null => (seen.has(opt) ? null : `${name}: option "${opt}" must be specified`);

const comment = ext<M<'comment'>>({
  name: 'comment',
  create: () => ({ kind: 'comment', comment: '' }),
  options: optionTable([
    [
      ['--comment'],
      {
        arg: true,
        // XT_MAX_COMMENT_LEN is 256 bytes with the NUL.
        apply: (m, v) => (utf8Length(v) > 255 ? 'comment: "--comment" value is too long (255 bytes max)' : ((m.comment = v), null)),
      },
    ],
  ]),
  check: (_m, _r, seen) => need(seen, 'comment', '--comment'),
  save: (m) => ` --comment ${quoteWord(m.comment)}`,
});

function ports(name: 'tcp' | 'udp'): Extension<Match> {
  const set = (key: 'sport' | 'dport') => (m: M<'tcp' | 'udp'>, v: string, neg: boolean) => {
    const r = parsePortRange(v);
    if (!r) return `invalid port/service \`${v}' specified`;
    m[key] = { ...r, neg };
    return null;
  };
  const show = (flag: string, p: M<'tcp' | 'udp'>['sport']): string =>
    // The full range is no test at all: libxt_tcp does not print it (inverted or not).
    !p || (p.lo === 0 && p.hi === 65535) ? '' : `${p.neg ? ' !' : ''} ${flag} ${formatPorts(p.lo, p.hi)}`;
  return ext<M<'tcp' | 'udp'>>({
    name,
    create: () => ({ kind: name, sport: null, dport: null }),
    options: optionTable([
      [['--sport', '--source-port'], { arg: true, invert: true, apply: set('sport') }],
      [['--dport', '--destination-port'], { arg: true, invert: true, apply: set('dport') }],
    ]),
    // The kernel's xt_tcpudp is registered for one protocol each.
    check: (_m, rule) => (protoIs(rule, name) ? null : `${name} match: only valid for protocol ${name === 'tcp' ? 6 : 17}`),
    save: (m) => show('--sport', m.sport) + show('--dport', m.dport),
  });
}

const statistic = ext<M<'statistic'>>({
  name: 'statistic',
  create: () => ({ kind: 'statistic', probability: -1, neg: false }),
  options: optionTable([
    [['--mode'], { arg: true, apply: (_m, v) => (v === 'random' ? null : v === 'nth' ? 'statistic: nth mode is not modelled' : `statistic: Bad mode "${v}"`) }],
    [
      ['--probability'],
      {
        arg: true,
        invert: true,
        apply: (m, v, neg) => {
          const p = parseProbability(v);
          if (p === null) return 'statistic: --probability must be between 0 and 1';
          m.probability = p;
          m.neg = neg;
          return null;
        },
      },
    ],
  ]),
  check: (_m, _r, seen) => need(seen, 'statistic', '--mode') ?? need(seen, 'statistic', '--probability'),
  save: (m) => ` --mode random${m.neg ? ' !' : ''} --probability ${formatProbability(m.probability)}`,
});

const mark = ext<M<'mark'>>({
  name: 'mark',
  create: () => ({ kind: 'mark', mark: 0, mask: 0xffffffff, neg: false }),
  options: optionTable([
    [
      ['--mark'],
      {
        arg: true,
        invert: true,
        apply: (m, v, neg) => {
          const mm = parseMarkMask(v);
          if (!mm) return `mark: bad value for option "--mark", or out of range`;
          Object.assign(m, { mark: mm.value, mask: mm.mask, neg });
          return null;
        },
      },
    ],
  ]),
  check: (_m, _r, seen) => need(seen, 'mark', '--mark'),
  save: (m) => `${m.neg ? ' !' : ''} --mark ${hex(m.mark)}${m.mask === 0xffffffff ? '' : `/${hex(m.mask)}`}`,
});

/** libxt_conntrack's print order. */
export const CT_STATES: readonly CtState[] = ['INVALID', 'NEW', 'RELATED', 'ESTABLISHED', 'UNTRACKED', 'SNAT', 'DNAT'];

/** Names in `order` from a comma list read case-insensitively; null on an unknown one. */
function nameList<T extends string>(v: string, order: readonly T[]): T[] | null {
  const want = v.split(',').map((s) => s.toUpperCase());
  if (want.some((w) => !order.includes(w as T))) return null;
  return order.filter((o) => want.includes(o));
}

const conntrack = ext<M<'conntrack'>>({
  name: 'conntrack',
  create: () => ({ kind: 'conntrack', states: [], neg: false }),
  options: optionTable([
    [
      ['--ctstate'],
      {
        arg: true,
        invert: true,
        apply: (m, v, neg) => {
          const states = nameList(v, CT_STATES);
          if (!states) return `conntrack: Bad ctstate "${v}"`;
          Object.assign(m, { states, neg });
          return null;
        },
      },
    ],
  ]),
  check: (_m, _r, seen) => (seen.size ? null : 'conntrack: You must specify one or more options'),
  save: (m) => `${m.neg ? ' !' : ''} --ctstate ${m.states.join(',')}`,
});

/** RTN_* route types in libxt_addrtype's print order. */
export const ADDR_TYPES = ['UNSPEC', 'UNICAST', 'LOCAL', 'BROADCAST', 'ANYCAST', 'MULTICAST', 'BLACKHOLE', 'UNREACHABLE', 'PROHIBIT', 'THROW', 'NAT', 'XRESOLVE'] as const;

const addrtype = ext<M<'addrtype'>>({
  name: 'addrtype',
  create: () => ({ kind: 'addrtype', src: null, dst: null }),
  options: optionTable(
    (['src', 'dst'] as const).map((side): OptionEntry<M<'addrtype'>> => [
      [`--${side}-type`],
      {
        arg: true,
        invert: true,
        apply: (m, v, neg) => {
          const types = nameList<string>(v, ADDR_TYPES);
          if (!types) return `addrtype: Bad address type "${v}"`;
          m[side] = { value: types, neg };
          return null;
        },
      },
    ]),
  ),
  check: (_m, _r, seen) => (seen.size ? null : 'addrtype: You must specify --src-type or --dst-type'),
  save: (m) => (['src', 'dst'] as const).map((side) => (m[side] ? `${m[side].neg ? ' !' : ''} --${side}-type ${m[side].value.join(',')}` : '')).join(''),
});

const RECENT_MODES = ['--set', '--rcheck', '--update', '--remove'] as const;

const recent = ext<M<'recent'>>({
  name: 'recent',
  create: () => ({ kind: 'recent', mode: 'set', neg: false, seconds: 0, reap: false, name: 'DEFAULT', mask: '255.255.255.255', side: 'source' }),
  options: optionTable([
    ...RECENT_MODES.map((flag): OptionEntry<M<'recent'>> => [
      [flag],
      {
        arg: false,
        invert: true,
        apply: (m, _v, neg, seen) => {
          if (RECENT_MODES.some((f) => seen.has(f))) return "recent: only one of `--set', `--rcheck' `--update' or `--remove' may be set";
          m.mode = flag.slice(2) as M<'recent'>['mode'];
          m.neg = neg;
          return null;
        },
      },
    ]),
    [['--seconds'], { arg: true, apply: (m, v) => ((m.seconds = parseUint(v) ?? -1) < 0 ? `recent: bad value for option "--seconds"` : null) }],
    [['--reap'], { arg: false, apply: (m) => ((m.reap = true), null) }],
    [
      ['--name'],
      {
        arg: true,
        // xt_check_proc_name: the list is a file under /proc/net/xt_recent.
        apply: (m, v) => (v === '' || v === '.' || v === '..' || v.includes('/') || v.length >= 200 ? `recent: invalid name "${v}"` : ((m.name = v), null)),
      },
    ],
    [['--mask'], { arg: true, apply: (m, v) => (Number.isNaN(ipv4ToInt(v)) ? `recent: bad mask "${v}"` : ((m.mask = intToIpv4(ipv4ToInt(v))), null)) }],
    [['--rsource'], { arg: false, apply: (m) => ((m.side = 'source'), null) }],
    [['--rdest'], { arg: false, apply: (m) => ((m.side = 'dest'), null) }],
  ]),
  // The kernel's recent_mt_check: --seconds and --reap go with a check; --reap needs --seconds.
  check: (m, _r, seen) => {
    if (!RECENT_MODES.some((f) => seen.has(f))) return "recent: you must specify one of `--set', `--rcheck' `--update' or `--remove'";
    if ((m.mode === 'set' || m.mode === 'remove') && (m.seconds || m.reap)) return 'recent: --seconds and --reap only go with --rcheck or --update';
    if (m.reap && !m.seconds) return 'recent: --reap is only valid with --seconds';
    return null;
  },
  save: (m) => `${m.neg ? ' !' : ''} --${m.mode}${m.seconds ? ` --seconds ${m.seconds}` : ''}${m.reap ? ' --reap' : ''} --name ${m.name} --mask ${m.mask} --r${m.side}`,
});

const nfacct = ext<M<'nfacct'>>({
  name: 'nfacct',
  create: () => ({ kind: 'nfacct', name: '' }),
  // NFACCT_NAME_MAX is 32 bytes with the NUL.
  options: optionTable([[['--nfacct-name'], { arg: true, apply: (m, v) => (v === '' || utf8Length(v) > 31 ? `nfacct: invalid name "${v}"` : ((m.name = v), null)) }]]),
  check: (_m, _r, seen) => need(seen, 'nfacct', '--nfacct-name'),
  save: (m) => ` --nfacct-name ${m.name}`,
});

export const MATCHES: Record<string, Extension<Match>> = { comment, tcp: ports('tcp'), udp: ports('udp'), statistic, mark, conntrack, addrtype, recent, nfacct };
