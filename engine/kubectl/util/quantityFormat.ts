// resource.Quantity's canonical text (Quantity.String / CanonicalizeBytes) and
// sums that keep the first operand's format, as describe prints them.

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const DEC: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const NANO = 10n ** 9n;

/** Value in nano-units and the format its suffix implies; undefined if not a quantity. */
export function parseQuantityExact(s: string): { nano: bigint; format: Format } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$/.exec(String(s));
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const sign = m[1] === '-' ? -1n : 1n;
  const frac = m[3] ?? '';
  const digits = BigInt((m[2] || '0') + frac);
  let nano: bigint;
  let format: Format = 'DecimalSI';
  const scale = (e: number) => (e >= 0 ? digits * 10n ** BigInt(e) : digits / 10n ** BigInt(-e));
  if (m[4]) {
    format = 'DecimalExponent';
    nano = scale(9 + Number(m[4].slice(1)) - frac.length);
  } else if (m[5] && BIN[m[5]] !== undefined) {
    format = 'BinarySI';
    nano = (digits * 1024n ** BigInt(BIN[m[5]]!) * NANO) / 10n ** BigInt(frac.length);
  } else nano = scale(9 + DEC[m[5] ?? '']! - frac.length);
  return { nano: sign * nano, format };
}

function decimalString(nano: bigint): string {
  if (nano === 0n) return '0';
  const neg = nano < 0n;
  const v = neg ? -nano : nano;
  const suffixes: [number, string][] = [
    [18, 'E'], [15, 'P'], [12, 'T'], [9, 'G'], [6, 'M'], [3, 'k'], [0, ''], [-3, 'm'], [-6, 'u'], [-9, 'n'],
  ];
  for (const [e, suf] of suffixes) {
    const div = 10n ** BigInt(9 + e);
    if (v % div === 0n) return `${neg ? '-' : ''}${v / div}${suf}`;
  }
  return `${neg ? '-' : ''}${v}n`;
}

export function canonicalQuantity(nano: bigint, format: Format): string {
  if (format === 'BinarySI') {
    if (nano % NANO !== 0n) return decimalString(nano);
    const n = nano / NANO;
    if (n > -1024n && n < 1024n) return decimalString(nano);
    const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
    for (let k = 6; k >= 0; k--) {
      const div = 1024n ** BigInt(k);
      if (n % div === 0n) return `${n / div}${suffixes[k]}`;
    }
  }
  return decimalString(nano);
}

/** The canonical text of a quantity string (unparseable text is returned as is). */
export function formatQuantity(s: unknown): string {
  const q = parseQuantityExact(String(s));
  return q ? canonicalQuantity(q.nano, q.format) : String(s);
}

/** Sum of quantities in the first one's format ("0" for none). */
export function addQuantities(qs: string[], fallback: Format): string {
  if (qs.length === 0) return '0';
  let total = 0n;
  let format: Format | undefined;
  for (const s of qs) {
    const q = parseQuantityExact(s);
    if (!q) continue;
    format ??= q.format;
    total += q.nano;
  }
  return canonicalQuantity(total, format ?? fallback);
}
