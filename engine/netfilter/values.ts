// Option values as iptables reads and prints them: addresses with prefix
// lengths, unsigned numbers in C's base-0 syntax (0x.., 0.., decimal), port
// ranges, and the statistic match's probability.
import { ipv4ToInt, parseCidr } from '../sim/ipv4';

export function intToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Prefix length of a contiguous dotted netmask; null when it is not one. */
function maskBits(mask: number): number | null {
  for (let bits = 0; bits <= 32; bits++) if ((bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0) === mask) return bits;
  return null;
}

/** `a.b.c.d[/len|/netmask]` as "base/len", the address masked as iptables stores it. Non-contiguous netmasks are not modelled. */
export function parseAddress(s: string): string | null {
  const slash = s.indexOf('/');
  const ip = slash < 0 ? s : s.slice(0, slash);
  const m = slash < 0 ? '32' : s.slice(slash + 1);
  let bits: number | null;
  if (m.includes('.')) {
    const n = ipv4ToInt(m);
    bits = Number.isNaN(n) ? null : maskBits(n);
  } else bits = /^\d{1,2}$/.test(m) ? Number(m) : null;
  if (bits === null || Number.isNaN(ipv4ToInt(ip))) return null;
  const c = parseCidr(`${ip}/${bits}`);
  return c ? `${intToIpv4(c.base)}/${c.bits}` : null;
}

/** An unsigned number as strtoul(s, 0) reads it (hex 0x.., octal 0.., decimal); null when malformed or above max. */
export function parseUint(s: string, max = 0xffffffff): number | null {
  let n: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(s)) n = parseInt(s.slice(2), 16);
  else if (/^0[0-7]*$/.test(s)) n = parseInt(s, 8);
  else if (/^[1-9][0-9]*$/.test(s)) n = Number(s);
  else return null;
  return n <= max ? n : null;
}

export const hex = (n: number): string => `0x${n.toString(16)}`;

/** `value[/mask]` (the mask defaulting to all ones). */
export function parseMarkMask(s: string): { value: number; mask: number } | null {
  const [v, m, extra] = s.split('/');
  const value = parseUint(v ?? '');
  const mask = m === undefined ? 0xffffffff : parseUint(m);
  return value === null || mask === null || extra !== undefined ? null : { value, mask };
}

/** A port range `N`, `N:M`, `:M` or `N:` (libxt_tcp parse_tcp_ports); null when malformed or min > max. */
export function parsePortRange(s: string, sep = ':'): { lo: number; hi: number } | null {
  const i = s.indexOf(sep);
  const lo = i < 0 ? parseUint(s, 65535) : i === 0 ? 0 : parseUint(s.slice(0, i), 65535);
  const hi = i < 0 ? lo : i === s.length - 1 ? 65535 : parseUint(s.slice(i + 1), 65535);
  return lo === null || hi === null || lo > hi ? null : { lo, hi };
}

export const formatPorts = (lo: number, hi: number, sep = ':'): string => (lo === hi ? `${lo}` : `${lo}${sep}${hi}`);

/** The u31 threshold xt_statistic keeps for a probability (libxt_statistic: lround(0x80000000 * p)); null unless 0 <= p <= 1. */
export function parseProbability(s: string): number | null {
  if (!/^\+?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return null;
  const p = Number(s);
  return p >= 0 && p <= 1 ? Math.round(p * 0x80000000) : null;
}

/** threshold / 2^31 as printf("%.11f") prints it: exact, ties to even (glibc). */
export function formatProbability(threshold: number): string {
  const scaled = BigInt(threshold) * 10n ** 11n;
  let q = scaled >> 31n;
  const twiceRem = (scaled & 0x7fffffffn) * 2n;
  if (twiceRem > 0x80000000n || (twiceRem === 0x80000000n && (q & 1n) === 1n)) q += 1n;
  const digits = q.toString().padStart(12, '0');
  return `${digits.slice(0, -11)}.${digits.slice(-11)}`;
}
