// resource.Quantity (k8s.io/apimachinery/pkg/api/resource/quantity.go), kept
// exact as an integer count of nano-units. Enough for admission: parse,
// canonical String(), add/subtract, compare, and the rounded-up MilliValue
// LimitRanger compares with. Precision below 1n is rounded up, as upstream does.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value times 10^9. */
  readonly nano: bigint;
  /** How String() prints it; kept from the parsed text, like upstream. */
  readonly format: QuantityFormat;
}

export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };

const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_FOR_EXP = new Map<number, string>(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const BINARY_FOR_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const NUMBER = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(.*)$/;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Ceil of |a/b| with a's sign (upstream rounds away from zero). */
function divUp(a: bigint, b: bigint): bigint {
  const neg = a < 0n;
  const m = neg ? -a : a;
  const q = (m + b - 1n) / b;
  return neg ? -q : q;
}

/** ParseQuantity; null when the text is not a quantity. Numbers are taken as their decimal text. */
export function parseQuantity(input: unknown): Quantity | null {
  const text = typeof input === 'number' && Number.isFinite(input) ? String(input) : input;
  if (typeof text !== 'string') return null;
  const m = NUMBER.exec(text.trim());
  if (!m) return null;
  const sign = m[1] === '-' ? -1n : 1n;
  const numText = m[2]!;
  const suffix = m[3]!;
  const dot = numText.indexOf('.');
  const intPart = dot < 0 ? numText : numText.slice(0, dot);
  const fracPart = dot < 0 ? '' : numText.slice(dot + 1);
  const digits = BigInt((intPart + fracPart) || '0');
  // value = digits * 10^(exp10 - fracLen) * 2^exp2
  let exp10: number;
  let exp2 = 0;
  let format: QuantityFormat;
  if (suffix in DECIMAL_SUFFIX) {
    exp10 = DECIMAL_SUFFIX[suffix]!;
    format = 'DecimalSI';
  } else if (suffix in BINARY_SUFFIX) {
    exp10 = 0;
    exp2 = BINARY_SUFFIX[suffix]!;
    format = 'BinarySI';
  } else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    exp10 = Number(suffix.slice(1));
    format = 'DecimalExponent';
  } else {
    return null;
  }
  // nano = digits * 2^exp2 * 10^(exp10 - fracLen + 9), rounded up when fractional.
  const numer = digits * (1n << BigInt(exp2));
  const shift = exp10 - fracPart.length + 9;
  const nano = shift >= 0 ? numer * pow10(shift) : divUp(numer, pow10(-shift));
  return { nano: sign * nano, format };
}

/** Quantity.String(): the canonical form (`1500m`, `1Gi`, `100k`, `0`). */
export function quantityString(q: Quantity): string {
  if (q.nano === 0n) return '0';
  const neg = q.nano < 0n;
  const mag = neg ? -q.nano : q.nano;
  const sign = neg ? '-' : '';
  let format = q.format;
  const NANO = 1_000_000_000n;
  if (format === 'BinarySI' && (mag < 1024n * NANO || mag % NANO !== 0n)) format = 'DecimalSI';
  if (format === 'BinarySI') {
    let v = mag / NANO;
    let p = 0;
    while (p < 6 && v % 1024n === 0n) {
      v /= 1024n;
      p++;
    }
    return `${sign}${v}${BINARY_FOR_POWER[p]}`;
  }
  let v = mag;
  let e = -9;
  while (e < 18 && v % 1000n === 0n) {
    v /= 1000n;
    e += 3;
  }
  if (format === 'DecimalExponent') return `${sign}${v}${e === 0 ? '' : `e${e}`}`;
  return `${sign}${v}${SUFFIX_FOR_EXP.get(e) ?? ''}`;
}

/** Canonical text of a raw quantity value, or the value itself when it does not parse. */
export function canonical(raw: unknown): string {
  const q = parseQuantity(raw);
  return q ? quantityString(q) : String(raw);
}

export function addQuantity(a: Quantity, b: Quantity): Quantity {
  // Upstream's Add keeps the receiver's format; a fresh zero takes the addend's.
  return { nano: a.nano + b.nano, format: a === ZERO ? b.format : a.format };
}

export function subQuantity(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano - b.nano, format: a.format };
}

export function cmpQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

/** MilliValue(): the value in thousandths, rounded up. */
export function milliValue(q: Quantity): bigint {
  return divUp(q.nano, 1_000_000n);
}

/** Value(): the value rounded up to an integer. */
export function intValue(q: Quantity): bigint {
  return divUp(q.nano, 1_000_000_000n);
}

export function quantityOf(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nano: BigInt(n) * 1_000_000_000n, format };
}

/** A ResourceList (`{cpu: "100m", memory: "64Mi"}`) parsed; unparsable entries are left out. */
export type ResourceList = Map<string, Quantity>;

export function parseResourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, raw] of Object.entries(v as Record<string, unknown>)) {
    const q = parseQuantity(raw);
    if (q) out.set(k, q);
  }
  return out;
}

/** Adds b into a (a is changed); a key absent from a takes b's quantity and format. */
export function addInto(a: ResourceList, b: ResourceList): void {
  for (const [k, q] of b) {
    const cur = a.get(k);
    a.set(k, cur ? addQuantity(cur, q) : q);
  }
}

/** Per key, keeps the larger of a and b in a. */
export function maxInto(a: ResourceList, b: ResourceList): void {
  for (const [k, q] of b) {
    const cur = a.get(k);
    if (!cur || cmpQuantity(q, cur) > 0) a.set(k, q);
  }
}
