// How Go sees decoded JSON: the patch code upstream works on
// map[string]interface{} / []interface{} and leans on reflect types, `==` on
// interfaces, fmt's %v and sort.Stable. These helpers give the same answers
// for our plain JSON values, so error texts and list orders match upstream.
import type { JsonObject, JsonValue } from '../types';

/** The Go dynamic type a decoded JSON value has in the API server (numbers decode as int64 when integral). */
export type GoType = 'map' | 'slice' | 'string' | 'bool' | 'int64' | 'float64' | 'nil';

export function goType(v: JsonValue | undefined): GoType {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    default:
      return 'map';
  }
}

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** reflect.TypeOf(v).String(), as mergepatch.ErrBadArgType prints it; a nil interface prints %!s(<nil>). */
export function goTypeName(t: GoType): string {
  switch (t) {
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    case 'nil':
      return '%!s(<nil>)';
    default:
      return t;
  }
}

/** Go's `==` on two interface values holding decoded JSON scalars (maps and slices never compare equal here). */
export function goEq(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const ta = goType(a);
  if (ta !== goType(b)) return false;
  if (ta === 'map' || ta === 'slice') return false;
  if (ta === 'nil') return true;
  return a === b;
}

/** reflect.DeepEqual on decoded JSON. */
export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  const ta = goType(a);
  if (ta !== goType(b)) return false;
  if (ta === 'slice') {
    const x = a as JsonValue[];
    const y = b as JsonValue[];
    return x.length === y.length && x.every((v, i) => deepEqual(v, y[i]));
  }
  if (ta === 'map') {
    const x = a as JsonObject;
    const y = b as JsonObject;
    const kx = Object.keys(x);
    if (kx.length !== Object.keys(y).length) return false;
    return kx.every((k) => Object.hasOwn(y, k) && deepEqual(x[k], y[k]));
  }
  return false;
}

/** strconv's shortest 'g' formatting of a float64 as fmt's %v prints it (e-notation from exponent 6 up or below -4). */
function goFloat(v: number): string {
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
  const [mant = '0', expStr = '0'] = v.toExponential().split('e');
  const exp = Number(expStr);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}

/** fmt.Sprintf("%v", v) for decoded JSON: maps print with sorted keys as map[k:v ...]. */
export function goFmtV(v: JsonValue | undefined): string {
  switch (goType(v)) {
    case 'nil':
      return '<nil>';
    case 'string':
      return v as string;
    case 'bool':
      return v ? 'true' : 'false';
    case 'int64':
      return String((v as number) + 0);
    case 'float64':
      return goFloat(v as number);
    case 'slice':
      return `[${(v as JsonValue[]).map(goFmtV).join(' ')}]`;
    case 'map': {
      const o = v as JsonObject;
      return `map[${sortedKeys(o)
        .map((k) => `${k}:${goFmtV(o[k])}`)
        .join(' ')}]`;
    }
  }
}

/** fmt.Sprintf("%s", v): strings as they are, other scalars as %!s(type=value). */
export function goFmtS(v: JsonValue | undefined): string {
  const t = goType(v);
  switch (t) {
    case 'string':
      return v as string;
    case 'nil':
      return '%!s(<nil>)';
    case 'slice':
      return `[${(v as JsonValue[]).map(goFmtS).join(' ')}]`;
    case 'map': {
      const o = v as JsonObject;
      return `map[${sortedKeys(o)
        .map((k) => `${k}:${goFmtS(o[k])}`)
        .join(' ')}]`;
    }
    default:
      return `%!s(${t}=${goFmtV(v)})`;
  }
}

/** Go compares strings byte-wise in UTF-8, which is code point order (JS `<` compares UTF-16 units). */
export function goStrCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    const surrogateA = ca >= 0xd800 && ca <= 0xdfff;
    const surrogateB = cb >= 0xd800 && cb <= 0xdfff;
    if (surrogateA !== surrogateB) return surrogateA ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
}

export function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(goStrCompare);
}

/** encoding/json writes map keys sorted; patches we produce are canonicalised the same way. */
export function sortKeysDeep(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of sortedKeys(v)) out[k] = sortKeysDeep(v[k] as JsonValue);
  return out;
}

/**
 * sort.SliceStable, step for step (insertion sort on blocks of 20, then
 * SymMerge), so that even the not-quite-consistent comparators of
 * strategicpatch order elements exactly as upstream does.
 */
export function goStableSort<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const n = data.length;
  const lessAt = (i: number, j: number): boolean => less(data[i] as T, data[j] as T);
  const swap = (i: number, j: number): void => {
    const t = data[i] as T;
    data[i] = data[j] as T;
    data[j] = t;
  };
  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (a: number, b: number, k: number): void => {
    for (let i = 0; i < k; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const nn = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = nn - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = nn - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = nn - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}

/** Deep copy of plain JSON (the patch code mutates its inputs the way upstream's maps are mutated). */
export function cloneJson<T extends JsonValue>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneJson(x)) as T;
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) out[k] = cloneJson(v[k] as JsonValue);
    return out as T;
  }
  return v;
}
