// Go's own text forms that kube-scheduler's messages and output are made of:
// time.ParseDuration / Duration.String (metav1.Duration is a Go duration),
// strconv.Quote (%q), fmt's %#v of the few values validation prints, and
// go-yaml v2's map key order (sigs.k8s.io/yaml sorts every map's keys with it).

const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5
  'μs': 1_000n, // U+03BC
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_INT64 = (1n << 63n) - 1n;

/** strconv.Quote for the strings we meet (control bytes as \x.., like Go). */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-7][0-9a-fA-F])/g, (_, h: string) => `\\x${h.toLowerCase()}`).replace(/\u007f/g, '\\x7f');
}

export type DurationResult = { ok: true; ns: bigint } | { ok: false; error: string };

/** time.ParseDuration, with its error texts. */
export function parseGoDuration(text: string): DurationResult {
  const orig = text;
  const invalid = (): DurationResult => ({ ok: false, error: `time: invalid duration ${goQuote(orig)}` });
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, ns: 0n };
  if (s === '') return invalid();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const intPart = m[1] ?? '';
    const fracPart = m[2];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) return invalid();
    s = s.slice(m[0].length);
    const u = /^[^0-9.]*/.exec(s)![0];
    if (u === '') return { ok: false, error: `time: missing unit in duration ${goQuote(orig)}` };
    const unit = UNIT_NS[u];
    if (unit === undefined) return { ok: false, error: `time: unknown unit ${goQuote(u)} in duration ${goQuote(orig)}` };
    s = s.slice(u.length);
    let v = BigInt(intPart === '' ? '0' : intPart) * unit;
    if (fracPart) {
      // Go scales the fraction in float64 and truncates; BigInt keeps it exact for the digits people write.
      v += (BigInt(fracPart) * unit) / 10n ** BigInt(fracPart.length);
    }
    total += v;
    if (total > MAX_INT64) return invalid();
  }
  return { ok: true, ns: neg ? -total : total };
}

function trimFrac(intPart: bigint, frac: bigint, digits: number): string {
  if (frac === 0n) return String(intPart);
  const f = String(frac).padStart(digits, '0').replace(/0+$/, '');
  return `${intPart}.${f}`;
}

/** time.Duration.String(): "15s", "1m30s", "1h0m0s", "500ms", "0s". */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    if (u < 1_000n) out = `${u}ns`;
    else if (u < 1_000_000n) out = `${trimFrac(u / 1_000n, u % 1_000n, 3)}µs`;
    else out = `${trimFrac(u / 1_000_000n, u % 1_000_000n, 6)}ms`;
  } else {
    const secs = u / 1_000_000_000n;
    const frac = u % 1_000_000_000n;
    const h = secs / 3600n;
    const m = (secs % 3600n) / 60n;
    const sec = trimFrac(secs % 60n, frac, 9);
    out = h > 0n ? `${h}h${m}m${sec}s` : m > 0n ? `${m}m${sec}s` : `${sec}s`;
  }
  return neg ? `-${out}` : out;
}

/** A duration string's value in milliseconds (0 for an unparsable one: the decoder has rejected those). */
export function durationMs(s: string | undefined): number {
  if (s === undefined) return 0;
  const r = parseGoDuration(s);
  return r.ok ? Number(r.ns) / 1e6 : 0;
}

/** A value whose Go %#v text is already known; field errors print it verbatim. */
export class GoLiteral {
  constructor(readonly text: string) {}
}

/** %#v of an internal config.PluginSet (weights are int32 there: nil prints 0). */
export function goPluginSet(ps: { enabled?: { name: string; weight?: number }[]; disabled?: { name: string; weight?: number }[] } | undefined): GoLiteral {
  // mergePluginSet leaves a list it appended nothing to nil, so an empty list prints as nil.
  const list = (l: { name: string; weight?: number }[] | undefined) =>
    l === undefined || l.length === 0
      ? '[]config.Plugin(nil)'
      : `[]config.Plugin{${l.map((p) => `config.Plugin{Name:${goQuote(p.name)}, Weight:${p.weight ?? 0}}`).join(', ')}}`;
  return new GoLiteral(`config.PluginSet{Enabled:${list(ps?.enabled)}, Disabled:${list(ps?.disabled)}}`);
}

/**
 * %#v of the *field.Path that field.Duplicate gets for a repeated schedulerName:
 * ErrorBody dereferences the pointer and prints the struct, parent pointer and
 * all. The address is a heap pointer in a real run; we print a fixed one.
 */
export function goFieldPath(name: string): GoLiteral {
  return new GoLiteral(`field.Path{name:${goQuote(name)}, index:"", parent:(*field.Path)(0xc000a1c0f0)}`);
}

/** %#v of a runtime.Unknown holding raw JSON (an out-of-tree plugin's args). */
export function goUnknown(raw: string | undefined): GoLiteral {
  const bytes = raw === undefined ? '[]uint8(nil)' : `[]uint8{${[...new TextEncoder().encode(raw)].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
  return new GoLiteral(`runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:${bytes}, ContentEncoding:"", ContentType:""}`);
}

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

/** go-yaml v2 keyList.Less for string keys: letters by code point, digit runs numerically, others before letters. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i]!;
    const bc = br[i]!;
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ac === '0' || bc === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + (ar[ai]!.charCodeAt(0) - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + (br[bi]!.charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac < bc;
  }
  return ar.length < br.length;
}

export function goYamlKeyCompare(a: string, b: string): number {
  return goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0;
}
