// resource.Quantity (k8s.io/apimachinery/pkg/api/resource/quantity.go): parsing,
// the nano-precision rounding, and the canonical text the API server stores
// (`0.5` → `500m`, `1000m` → `1`, `1024Mi` → `1Gi`, `1e3` stays `1e3`).
//
// A quantity is held exactly as a count of nano-units (bigint): upstream rounds
// every parsed value up to nano precision, so nothing finer ever survives.
// The one implementation: validation, admission (quota, LimitRanger) and the
// protobuf codec all use it.
import type { KObject } from '../../apimachinery/types';
import { groupKindKey } from '../registry/resources';

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9, exact. */
  readonly nanos: bigint;
  /** How String() prints it; kept from the parsed text, like upstream. */
  readonly format: QuantityFormat;
}

/** resource.ErrFormatWrong */
export const ERR_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** resource.ErrSuffix */
export const ERR_SUFFIX = "unable to parse quantity's suffix";
/** resource.ErrNumeric */
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';

export type QuantityParse =
  | { ok: true; quantity: Quantity; /** value in milli-units, rounded up as MilliValue() does */ value: bigint; canonical: string }
  | { ok: false; error: string };

const NANO = 1_000_000_000n;
const MAX_INT64 = (1n << 63n) - 1n;

const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXP = new Map<number, string>(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const BINARY_BY_EXP = new Map<number, string>(Object.entries(BINARY_SUFFIX).map(([s, e]) => [e, s]));
const SUFFIX_CHARS = 'eEinumkKMGTP';

interface Pieces {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString: split sign, integer digits, fraction digits and suffix. */
function splitQuantity(str: string): Pieces | null {
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (end > 0 && (str[0] === '-' || str[0] === '+')) {
    positive = str[0] !== '-';
    pos++;
  }
  let i = pos;
  while (i < end && str[i]! >= '0' && str[i]! <= '9') i++;
  const num = str.slice(pos, i);
  pos = i;
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && str[i]! >= '0' && str[i]! <= '9') i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos]!)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && str[pos]! >= '0' && str[pos]! <= '9') pos++;
  if (pos < end) return null;
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

type Suffix = { base: 10 | 2; exponent: number; format: QuantityFormat };

/** suffixer.interpret */
function interpretSuffix(s: string): Suffix | null {
  if (Object.hasOwn(DECIMAL_SUFFIX, s)) return { base: 10, exponent: DECIMAL_SUFFIX[s]!, format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SUFFIX, s)) return { base: 2, exponent: BINARY_SUFFIX[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E')) {
    const rest = s.slice(1);
    if (!/^[-+]?[0-9]+$/.test(rest)) return null;
    const e = Number(rest);
    if (!Number.isSafeInteger(e) || Math.abs(e) > 2_147_483_647) return null;
    return { base: 10, exponent: e, format: 'DecimalExponent' };
  }
  return null;
}

function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/** What resource.ParseQuantity gives: the quantity, or its error. */
export type QuantityValue = Readonly<{ ok: true; quantity: Readonly<Quantity> } | { ok: false; error: string }>;

// Parsed quantities by their text: a Node's capacity and allocatable hold the
// same few texts on every node and are validated on every status write, and
// the exact rational arithmetic is BigInt. Results are frozen and shared.
const PARSED_MEMO_MAX = 4096;
const parsed = new Map<string, QuantityValue>();

/** resource.ParseQuantity. */
export function parseQuantityValue(input: string): QuantityValue {
  let r = parsed.get(input);
  if (r === undefined) {
    const fresh = parseQuantityText(input);
    if (fresh.ok) Object.freeze(fresh.quantity);
    r = Object.freeze(fresh);
    if (parsed.size >= PARSED_MEMO_MAX) parsed.clear();
    parsed.set(input, r);
  }
  return r;
}

function parseQuantityText(input: string): { ok: true; quantity: Quantity } | { ok: false; error: string } {
  const str = input;
  if (str.length === 0) return { ok: false, error: ERR_FORMAT_WRONG };
  const p = splitQuantity(str);
  if (!p) return { ok: false, error: ERR_FORMAT_WRONG };
  const sfx = interpretSuffix(p.suffix);
  if (!sfx) return { ok: false, error: ERR_SUFFIX };
  if (p.num === '' && p.denom === '') return { ok: false, error: ERR_NUMERIC };
  // The exact rational |value| = numer / denom, then rounded up to nano precision.
  let numer = BigInt((p.num || '0') + p.denom);
  let denom = 10n ** BigInt(p.denom.length);
  if (sfx.base === 10) {
    if (sfx.exponent >= 0) numer *= 10n ** BigInt(sfx.exponent);
    else denom *= 10n ** BigInt(-sfx.exponent);
  } else {
    numer *= 1n << BigInt(sfx.exponent);
  }
  let nanos = ceilDiv(numer * NANO, denom);
  let format = sfx.format;
  // "The max is just a simple cap" (binary quantities only).
  if (format === 'BinarySI' && nanos > MAX_INT64 * NANO) nanos = MAX_INT64 * NANO;
  if (format === 'BinarySI' && nanos < NANO && nanos > 0n) format = 'DecimalSI';
  if (!p.positive) nanos = -nanos;
  return { ok: true, quantity: { nanos, format } };
}

function removeFactors(v: bigint, f: bigint): [bigint, number] {
  let times = 0;
  if (v === 0n) return [v, 0];
  while (v % f === 0n) {
    v /= f;
    times++;
  }
  return [v, times];
}

/** Quantity.String(): CanonicalizeBytes. */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    if (q.nanos > -1024n * NANO && q.nanos < 1024n * NANO) format = 'DecimalSI';
    else if (q.nanos % NANO !== 0n) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    const neg = q.nanos < 0n;
    const [m, times] = removeFactors((neg ? -q.nanos : q.nanos) / NANO, 1024n);
    const suffix = times === 0 ? '' : BINARY_BY_EXP.get(times * 10);
    if (suffix !== undefined) return `${neg ? '-' : ''}${m}${suffix}`;
    // Beyond Ei: keep the largest suffix and fold the rest into the number.
    return `${neg ? '-' : ''}${m * 1024n ** BigInt(times - 6)}Ei`;
  }
  // AsCanonicalBytes: all factors of ten into the exponent, then down to a multiple of three.
  let [m, times] = removeFactors(q.nanos, 10n);
  let exp = times - 9;
  while (exp % 3 !== 0) {
    m *= 10n;
    exp--;
  }
  if (format === 'DecimalExponent') return exp === 0 ? `${m}` : `${m}e${exp}`;
  const s = DECIMAL_BY_EXP.get(exp);
  if (s !== undefined) return `${m}${s}`;
  // Above exa there is no SI suffix: fold into E.
  return `${m * 10n ** BigInt(exp - 18)}E`;
}

/** Parses a quantity as sent in JSON (string, or a bare number) and gives its canonical text. */
export function parseQuantity(s: string | number): QuantityParse {
  const text = typeof s === 'number' ? goNumberText(s) : s.trim();
  let r = withCanonical.get(text);
  if (r === undefined) {
    const v = parseQuantityValue(text);
    r = Object.freeze(v.ok ? { ok: true, quantity: v.quantity, value: milliValue(v.quantity), canonical: formatQuantity(v.quantity) } : v);
    if (withCanonical.size >= PARSED_MEMO_MAX) withCanonical.clear();
    withCanonical.set(text, r);
  }
  return r;
}
const withCanonical = new Map<string, QuantityParse>();

/** A JSON number as Go's decoder hands its raw text to Quantity.UnmarshalJSON. */
function goNumberText(n: number): string {
  if (!Number.isFinite(n)) return 'NaN';
  return String(n).replace('e+', 'e');
}

/** Scales nanos down to units of `d`, rounding away from zero (int64Amount.AsScaledInt64 via negativeScaleInt64). */
function scaledAwayFromZero(nanos: bigint, d: bigint): bigint {
  return nanos >= 0n ? ceilDiv(nanos, d) : -ceilDiv(-nanos, d);
}

/** MilliValue(): thousandths, rounded away from zero. */
export function milliValue(q: Quantity): bigint {
  return scaledAwayFromZero(q.nanos, 1_000_000n);
}

/** Value(): whole units, rounded away from zero. */
export function intValue(q: Quantity): bigint {
  return scaledAwayFromZero(q.nanos, NANO);
}

export function cmpQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** A fresh zero: the identity addQuantity gives the addend's format to. */
export const ZERO: Quantity = { nanos: 0n, format: 'DecimalSI' };

/** Quantity.Add: keeps the receiver's format; ZERO takes the addend's. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a === ZERO ? b.format : a.format };
}

/** Quantity.Sub: keeps the receiver's format. */
export function subQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.format };
}

/** resource.NewQuantity(n, format): a whole number of units. */
export function quantityOf(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nanos: BigInt(n) * NANO, format };
}

/** Quantity.RoundUp(scale): round up (away from zero) to 10^scale precision. */
export function roundUp(q: Quantity, scale: number): Quantity {
  const unit = 10n ** BigInt(scale + 9);
  if (unit <= 1n) return q;
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  const r = ceilDiv(abs, unit) * unit;
  return { nanos: q.nanos < 0n ? -r : r, format: q.format };
}

/** The quantity of a JSON value (string or number), or null when it is not one. */
export function quantityOrNull(v: unknown): Quantity | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const r = parseQuantity(v);
  return r.ok ? r.quantity : null;
}

/** Canonical text of a quantity value, or null when it does not parse. */
export function canonicalQuantity(v: unknown): string | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const r = parseQuantity(v);
  return r.ok ? r.canonical : null;
}

// ---------------------------------------------------------------- canonicalisation of objects


type Gvk = { group: string; version: string; kind: string };
type Json = Record<string, unknown>;

const isRec = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Rewrites every quantity of a decoded object in canonical form, as the API server
 * stores it. Core ResourceLists are also rounded up to milli precision
 * (SetDefaults_ResourceList). Returns the first parse error (upstream's decode
 * error text) or null; a value that does not parse is left as it was.
 */
export function canonicaliseQuantities(gvk: Gvk, obj: KObject): string | null {
  const c = new Canon();
  const o = obj as Json;
  const spec = o.spec;
  const status = o.status;
  switch (groupKindKey(gvk.group, gvk.kind)) {
    case '/Pod':
      c.podSpec(spec);
      if (isRec(status)) for (const k of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) for (const cs of arr(status[k])) if (isRec(cs)) {
        c.list(cs.allocatedResources, true);
        if (isRec(cs.resources)) c.requirements(cs.resources, true);
      }
      break;
    case '/PodTemplate':
      c.template(o.template);
      break;
    case '/ReplicationController':
    case 'apps/Deployment':
    case 'apps/ReplicaSet':
    case 'apps/DaemonSet':
    case 'batch/Job':
      if (isRec(spec)) c.template(spec.template);
      break;
    case 'apps/StatefulSet':
      if (isRec(spec)) {
        c.template(spec.template);
        for (const t of arr(spec.volumeClaimTemplates)) if (isRec(t)) c.pvcSpec(t.spec, t.status);
      }
      break;
    case 'batch/CronJob':
      if (isRec(spec) && isRec(spec.jobTemplate) && isRec(spec.jobTemplate.spec)) c.template(spec.jobTemplate.spec.template);
      break;
    case '/Node':
      if (isRec(status)) {
        c.list(status.capacity, true);
        c.list(status.allocatable, true);
      }
      break;
    case '/PersistentVolume':
      if (isRec(spec)) c.list(spec.capacity, true);
      break;
    case '/PersistentVolumeClaim':
      c.pvcSpec(spec, status);
      break;
    case '/LimitRange':
      if (isRec(spec)) for (const l of arr(spec.limits)) if (isRec(l)) for (const k of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) c.list(l[k], true);
      break;
    case '/ResourceQuota':
      if (isRec(spec)) c.list(spec.hard, true);
      if (isRec(status)) {
        c.list(status.hard, true);
        c.list(status.used, true);
      }
      break;
    case 'autoscaling/HorizontalPodAutoscaler':
      if (isRec(spec)) for (const m of arr(spec.metrics)) c.metric(m, 'target');
      if (isRec(status)) for (const m of arr(status.currentMetrics)) c.metric(m, 'current');
      break;
    default:
      break;
  }
  return c.error;
}

/**
 * Canonical texts already worked out, by milli rounding and text: the same few
 * values ('32', '256Gi', '100m') come in every Node and Pod, and the bigint
 * arithmetic is a pure function of the text. Bounded: cleared when full.
 */
const canonical = [new Map<string, string>(), new Map<string, string>()] as const;
const CANONICAL_MEMO_MAX = 4096;

class Canon {
  error: string | null = null;

  one(holder: Json, key: string, milli: boolean): void {
    const v = holder[key];
    if (typeof v !== 'string' && typeof v !== 'number') return;
    const memo = typeof v === 'string' ? canonical[milli ? 1 : 0] : undefined;
    const known = memo?.get(v as string);
    if (known !== undefined) {
      holder[key] = known;
      return;
    }
    const r = parseQuantity(v);
    if (!r.ok) {
      this.error ??= r.error;
      return;
    }
    const text = formatQuantity(milli ? roundUp(r.quantity, -3) : r.quantity);
    if (memo) {
      if (memo.size >= CANONICAL_MEMO_MAX) memo.clear();
      memo.set(v as string, text);
    }
    holder[key] = text;
  }
  list(v: unknown, milli: boolean): void {
    if (isRec(v)) for (const k of Object.keys(v)) this.one(v, k, milli);
  }
  requirements(v: unknown, milli: boolean): void {
    if (!isRec(v)) return;
    this.list(v.limits, milli);
    this.list(v.requests, milli);
  }
  pvcSpec(spec: unknown, status: unknown): void {
    if (isRec(spec)) this.requirements(spec.resources, true);
    if (isRec(status)) {
      this.list(status.capacity, true);
      this.list(status.allocatedResources, true);
    }
  }
  template(t: unknown): void {
    if (isRec(t)) this.podSpec(t.spec);
  }
  podSpec(spec: unknown): void {
    if (!isRec(spec)) return;
    for (const k of ['containers', 'initContainers', 'ephemeralContainers']) for (const ctr of arr(spec[k])) if (isRec(ctr)) this.requirements(ctr.resources, true);
    this.list(spec.overhead, true);
    this.requirements(spec.resources, false);
    for (const vol of arr(spec.volumes)) {
      if (!isRec(vol)) continue;
      if (isRec(vol.emptyDir)) this.one(vol.emptyDir, 'sizeLimit', false);
      if (isRec(vol.ephemeral) && isRec(vol.ephemeral.volumeClaimTemplate)) this.pvcSpec(vol.ephemeral.volumeClaimTemplate.spec, undefined);
    }
  }
  metric(m: unknown, which: 'target' | 'current'): void {
    if (!isRec(m)) return;
    for (const k of ['resource', 'containerResource', 'pods', 'object', 'external']) {
      const src = m[k];
      if (!isRec(src) || !isRec(src[which])) continue;
      this.one(src[which], 'value', false);
      this.one(src[which], 'averageValue', false);
    }
  }
}
