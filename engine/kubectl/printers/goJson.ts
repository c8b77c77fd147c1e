// JSON and value text as Go writes them, for byte-identical kubectl output:
// encoding/json (map keys sorted, HTML-safe escapes, MarshalIndent layout) and
// fmt's %v (`map[a:1 b:2]`, `[x y]`, `<nil>`).
import { goFormatFloatG } from '../yaml/emit';

function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '<':
      case '>':
      case '&':
        out += `\\u00${cp.toString(16)}`;
        continue;
    }
    if (cp < 0x20) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else if (cp === 0x2028 || cp === 0x2029) out += `\\u${cp.toString(16)}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd'; // lone surrogate: invalid UTF-8 in Go
    else out += ch;
  }
  return out + '"';
}

function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  return String(n);
}

function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** json.Marshal. */
export function goJsonCompact(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJsonCompact).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${sortedKeys(o)
    .map((k) => `${goQuote(k)}:${goJsonCompact(o[k])}`)
    .join(',')}}`;
}

/** json.MarshalIndent(v, prefix="", indent). */
export function goJsonIndent(v: unknown, indent = '    ', cur = ''): string {
  if (v === null || v === undefined || typeof v !== 'object') return goJsonCompact(v);
  const inner = cur + indent;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => inner + goJsonIndent(x, indent, inner)).join(',\n')}\n${cur}]`;
  }
  const o = v as Record<string, unknown>;
  const keys = sortedKeys(o);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${goQuote(k)}: ${goJsonIndent(o[k], indent, inner)}`).join(',\n')}\n${cur}}`;
}

/** fmt.Sprint / %v of a JSON value as Go holds it after unstructured decoding. */
export function goFmtV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v).toString() : goFormatFloatG(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goFmtV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${sortedKeys(o)
    .map((k) => `${k}:${goFmtV(o[k])}`)
    .join(' ')}]`;
}

/** strconv.Quote (what %#v and %q print for strings). */
export function goQuoteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** fmt's %#v of a value held as interface{} after unstructured decoding. */
export function goSharpV(v: unknown, inInterface = false): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuoteString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v).toString() : goFormatFloatG(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, true)).join(', ')}}`;
  const o = v as Record<string, unknown>;
  void inInterface;
  return `map[string]interface {}{${sortedKeys(o)
    .map((k) => `${goQuoteString(k)}:${goSharpV(o[k], true)}`)
    .join(', ')}}`;
}

/** json.MarshalIndent of a Go struct: fields in declaration (insertion) order, not sorted. */
export function goJsonIndentOrdered(v: unknown, indent = '  ', cur = ''): string {
  if (v === null || v === undefined || typeof v !== 'object') return goJsonCompact(v);
  const inner = cur + indent;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => inner + goJsonIndentOrdered(x, indent, inner)).join(',\n')}\n${cur}]`;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${goQuote(k)}: ${goJsonIndentOrdered(o[k], indent, inner)}`).join(',\n')}\n${cur}}`;
}
