// The checks Go's decoders make on values of special types, with their error
// texts: resource.Quantity (k8s.io/apimachinery/pkg/api/resource/quantity.go
// ParseQuantity), []byte as base64 (encoding/base64 StdEncoding.Decode),
// metav1.Time / MicroTime (time.Parse with RFC3339 / RFC3339Micro).
// Each returns undefined when Go would accept the value.

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const DEC_SUFFIXES = new Set(['n', 'u', 'm', '', 'k', 'M', 'G', 'T', 'P', 'E']);
const BIN_SUFFIXES = new Set(['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** parseQuantityString + suffixer.interpret: undefined, or the error ParseQuantity returns. */
export function quantityError(input: string): string | undefined {
  const str = input.trim();
  if (str.length === 0) return QUANTITY_FORMAT_ERROR;
  if (str === '0') return undefined;
  const end = str.length;
  let pos = 0;
  if (str[0] === '-' || str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return undefined; // all zeros
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos >= end) return undefined;
  if (str[pos] === '.') {
    pos++;
    while (pos < end && isDigit(str[pos])) pos++;
    if (pos >= end) return undefined;
  }
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos] as string)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return QUANTITY_FORMAT_ERROR;
  const suffix = str.slice(suffixStart);
  if (DEC_SUFFIXES.has(suffix) || BIN_SUFFIXES.has(suffix)) return undefined;
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    const n = Number(suffix.slice(1));
    if (Number.isSafeInteger(n)) return undefined;
  }
  return QUANTITY_SUFFIX_ERROR;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** UTF-8 byte length of a UTF-16 code unit sequence up to index i (offsets in Go's errors count bytes). */
function utf8Bytes(s: string): number[] {
  const bytes: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (let k = 0; k < n; k++) bytes.push(k === 0 ? cp : -1); // only the first byte can ever be valid base64
  }
  return bytes;
}

/** base64.StdEncoding.Decode: `illegal base64 data at input byte N`, or undefined. */
export function base64Error(s: string): string | undefined {
  const src = utf8Bytes(s);
  const corrupt = (at: number) => `illegal base64 data at input byte ${at}`;
  const isNl = (b: number | undefined) => b === 0x0a || b === 0x0d;
  let si = 0;
  // decodeQuantum, one 4-character quantum at a time.
  while (si < src.length) {
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return corrupt(si - j); // padding is required: an incomplete quantum is corrupt
      }
      const b = src[si] as number;
      si++;
      if (b >= 0 && b < 0x80 && B64.includes(String.fromCharCode(b))) continue;
      if (isNl(b)) {
        j--;
        continue;
      }
      if (b !== 0x3d) return corrupt(si - 1);
      // Padding: only at positions 2 or 3 of a quantum.
      if (j === 0 || j === 1) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNl(src[si])) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== 0x3d) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNl(src[si])) si++;
      if (si < src.length) return corrupt(si);
      return undefined;
    }
  }
  return undefined;
}

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

const quote = (s: string) => JSON.stringify(s);

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The number of `len` ASCII digits at `at`, or -1 (char codes: this runs for every time field of every request). */
function digitsAt(value: string, at: number, len: number): number {
  let n = 0;
  for (let i = at; i < at + len; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** A UTC `YYYY-MM-DDThh:mm:ssZ` (or with six fraction digits for MicroTime) whose fields time.Parse accepts. */
function canonicalTimeOk(value: string, micro: boolean): boolean {
  if (value.length !== (micro ? 27 : 20)) return false;
  if (value[4] !== '-' || value[7] !== '-' || value[10] !== 'T' || value[13] !== ':' || value[16] !== ':' || value[value.length - 1] !== 'Z') return false;
  if (micro && (value[19] !== '.' || digitsAt(value, 20, 6) < 0)) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  if (year < 0 || hour < 0 || minute < 0 || second < 0) return false;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  return day <= daysIn(month, year);
}

/**
 * time.Parse(layout, value) for the two layouts metav1 uses; undefined when it
 * parses, else Go's ParseError text (`parsing time "x" as "...": cannot parse "x" as "2006"`).
 */
export function timeError(value: string, layout: typeof RFC3339 | typeof RFC3339_MICRO): string | undefined {
  // The form the API itself writes (UTC, seconds or microseconds) parses whenever its fields are in range.
  if (canonicalTimeOk(value, layout === RFC3339_MICRO)) return undefined;
  const micro = layout === RFC3339_MICRO;
  const cannot = (valueElem: string, layoutElem: string) => `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`;
  const outOfRange = (what: string) => `parsing time ${quote(value)}: ${what} out of range`;
  let v = value;
  // getnum: one or two digits (exactly two when fixed).
  const getnum = (fixed: boolean): number | undefined => {
    if (!isDigit(v[0])) return undefined;
    if (!isDigit(v[1])) {
      if (fixed) return undefined;
      const n = Number(v[0]);
      v = v.slice(1);
      return n;
    }
    const n = Number(v.slice(0, 2));
    v = v.slice(2);
    return n;
  };
  const skip = (prefix: string): boolean => {
    for (const c of prefix) {
      if (v[0] !== c) return false;
      v = v.slice(1);
    }
    return true;
  };
  // 2006
  let hold = v;
  if (v.length < 4 || !isDigit(v[0]) || !/^\d{4}/.test(v)) return cannot(hold, '2006');
  const year = Number(v.slice(0, 4));
  v = v.slice(4);
  if (!skip('-')) return cannot(v, '-');
  hold = v;
  const month = getnum(true);
  if (month === undefined) return cannot(hold, '01');
  if (month < 1 || month > 12) return outOfRange('month');
  if (!skip('-')) return cannot(v, '-');
  hold = v;
  const day = getnum(true);
  if (day === undefined) return cannot(hold, '02');
  if (!skip('T')) return cannot(v, 'T');
  hold = v;
  const hour = getnum(false);
  if (hour === undefined) return cannot(hold, '15');
  if (hour >= 24) return outOfRange('hour');
  if (!skip(':')) return cannot(v, ':');
  hold = v;
  const min = getnum(true);
  if (min === undefined) return cannot(hold, '04');
  if (min >= 60) return outOfRange('minute');
  if (!skip(':')) return cannot(v, ':');
  hold = v;
  const sec = getnum(true);
  if (sec === undefined) return cannot(hold, '05');
  if (sec >= 60) return outOfRange('second');
  if (micro) {
    hold = v;
    if (v.length < 7 || (v[0] !== '.' && v[0] !== ',') || !/^.\d{6}/.test(v)) return cannot(hold, '.000000');
    v = v.slice(7);
  } else if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v[1])) {
    let n = 2;
    while (n < v.length && isDigit(v[n])) n++;
    v = v.slice(n);
  }
  // Z07:00
  hold = v;
  if (v[0] === 'Z') v = v.slice(1);
  else {
    if (v.length < 6 || v[3] !== ':') return cannot(hold, 'Z07:00');
    const sign = v[0];
    const hh = v.slice(1, 3);
    const mm = v.slice(4, 6);
    if (!/^\d\d$/.test(hh) || !/^\d\d$/.test(mm) || (sign !== '+' && sign !== '-')) return cannot(hold, 'Z07:00');
    if (Number(hh) > 24) return outOfRange('time zone offset hour');
    if (Number(mm) > 60) return outOfRange('time zone offset minute');
    v = v.slice(6);
  }
  if (v.length > 0) return `parsing time ${quote(value)}: extra text: ${quote(v)}`;
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  return undefined;
}
