// IPv4 addresses as numbers, for the simulated network's pod routes and the
// runtime's choice of path (loopback, the node's bridge, or out).

/** A dotted IPv4 address as an unsigned 32-bit number; NaN when it is not one. */
export function ipv4ToInt(ip: string): number {
  const parts = ip.split('.');
  if (parts.length !== 4) return NaN;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return NaN;
    n = n * 256 + Number(p);
  }
  return n;
}

/** A CIDR as its first address and prefix length; null when malformed. */
export function parseCidr(cidr: string): { base: number; bits: number } | null {
  const [ip, b] = cidr.split('/');
  const base = ipv4ToInt(ip ?? '');
  const bits = Number(b);
  if (Number.isNaN(base) || !Number.isInteger(bits) || bits < 0 || bits > 32) return null;
  return { base: base - (base % 2 ** (32 - bits)), bits };
}

/** Whether address `n` lies in the prefix `base`/`bits`. */
export function inPrefix(n: number, base: number, bits: number): boolean {
  return Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));
}

/** Whether `ip` lies in `cidr`. */
export function inCidr(ip: string, cidr: string): boolean {
  const c = parseCidr(cidr);
  const n = ipv4ToInt(ip);
  return !!c && !Number.isNaN(n) && inPrefix(n, c.base, c.bits);
}
