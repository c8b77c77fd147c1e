// YAML exactly as `kubectl -o yaml` writes it. kubectl marshals through
// sigs.k8s.io/yaml: JSON → go-yaml v2 values → go-yaml v2's emitter, a port of
// libyaml. So we follow that emitter: keys in go-yaml's natural order
// (sorter.go keyList.Less), scalar styles chosen by resolve.go + emitterc.go
// (yaml_emitter_analyze_scalar / select_scalar_style), block sequences not
// indented under their key, plain and quoted scalars folded past column 80,
// `|`/`|-`/`|+` literal blocks for multi-line strings.
import { utf8Length } from '../../sim/utf8';

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

type Style = 'plain' | 'single' | 'double' | 'literal';

// ---------- go-yaml v2 resolve(): would this plain text read back as a non-string?

const RESOLVE_MAP = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO',
  'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  'on', 'On', 'ON', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** strconv.ParseInt(s, 0, 64) / ParseUint acceptance (sign, 0x/0o/0b prefixes, leading-0 octal). */
function goParsesAsInt(s: string): boolean {
  let t = s;
  let signed = false;
  if (t.startsWith('+') || t.startsWith('-')) {
    t = t.slice(1);
    signed = true;
  }
  if (t === '') return false;
  let digits: RegExp;
  let body = t;
  if (/^0[xX]/.test(t)) {
    digits = /^[0-9a-fA-F]+$/;
    body = t.slice(2);
  } else if (/^0[oO]/.test(t)) {
    digits = /^[0-7]+$/;
    body = t.slice(2);
  } else if (/^0[bB]/.test(t)) {
    digits = /^[01]+$/;
    body = t.slice(2);
  } else if (t.length > 1 && t.startsWith('0')) {
    digits = /^[0-7]+$/;
    body = t.slice(1);
  } else digits = /^[0-9]+$/;
  if (body === '' || !digits.test(body)) return false;
  // Overflowing int64 and uint64 both fail; the float regex then decides.
  let big: bigint;
  try {
    big = BigInt(t.startsWith('0') && t.length > 1 && !/^0[xXoObB]/.test(t) ? `0o${t.slice(1)}` : t);
  } catch {
    return false;
  }
  if (signed && s.startsWith('-')) big = -big;
  return big >= -(2n ** 63n) && big < 2n ** 64n;
}

function daysIn(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** go-yaml v2 parseTimestamp: the layouts it tries, with time.Parse's range checks. */
function isTimestamp(s: string): boolean {
  const m =
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt]|[ \t]+)(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (!m) return false;
  // layouts: 2006-1-2T15:4:5.999999999Z07:00, 2006-1-2t..., "2006-1-2 15:4:5.999999999", 2006-1-2
  if (m[4] !== undefined) {
    const sep = s.charAt(m[1]!.length + 1 + m[2]!.length + 1 + m[3]!.length);
    if ((sep === 'T' || sep === 't') && m[7] === undefined) return false;
    if (sep !== 'T' && sep !== 't' && (m[7] !== undefined || !/^\d{4}-\d{1,2}-\d{1,2} \d/.test(s))) return false;
  }
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) return false;
  if (m[7] && m[7] !== 'Z' && (Number(m[7].slice(1, 3)) > 23 || Number(m[7].slice(4, 6)) > 59)) return false;
  return true;
}

/** True when go-yaml v2 would read `s`, written plain, as something other than a string. */
export function resolvesAsNonString(s: string): boolean {
  if (RESOLVE_MAP.has(s)) return true;
  const c = s.charAt(0);
  if (c === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s);
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    if (isTimestamp(s)) return true;
    const plain = s.replace(/_/g, '');
    if (goParsesAsInt(plain)) return true;
    if (YAML_STYLE_FLOAT.test(plain)) return true;
    if (/^-?0b[01]+$/.test(plain)) return true;
  }
  return false;
}

// ---------- character classes (emitterc.go / yamlprivateh.go)

const isBreak = (c: string) => c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isSpace = (c: string) => c === ' ';
const isBlankz = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || isBreak(c) || c === '\0';

/** go-yaml's is_printable: note it rejects tab and everything outside the BMP. */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  if (cp === 0x0a) return true;
  if (cp >= 0x20 && cp <= 0x7e) return true;
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  if (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) return true;
  return false;
}

interface Analysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

function analyzeScalar(value: string): Analysis {
  if (value.length === 0) return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const chars = Array.from(value);
  let blockIndicators = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let lineBreaks = false;
  let specialCharacters = false;
  if (value.startsWith('---') || value.startsWith('...')) blockIndicators = true;
  let precededByWhitespace = true;
  let followedByWhitespace = isBlankz(chars[1]);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const first = i === 0;
    const last = i === chars.length - 1;
    if (first) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      if ((ch === '?' || ch === ':') && followedByWhitespace) blockIndicators = true;
      if (ch === '-' && followedByWhitespace) blockIndicators = true;
    } else {
      if (ch === ':' && followedByWhitespace) blockIndicators = true;
      if (ch === '#' && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(ch)) specialCharacters = true;
    if (isSpace(ch)) {
      if (first) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(ch)) {
      lineBreaks = true;
      if (first) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousBreak = true;
      previousSpace = false;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankz(ch);
    followedByWhitespace = isBlankz(chars[i + 2]);
  }
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) blockPlainAllowed = singleQuotedAllowed = false;
  if (spaceBreak || specialCharacters) blockPlainAllowed = singleQuotedAllowed = blockAllowed = false;
  if (lineBreaks) blockPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

// ---------- natural key order (yaml.v2 sorter.go)

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string) => /\p{Nd}/u.test(c);

export function yamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i]!;
    const bc = br[i]!;
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac.codePointAt(0)! < bc.codePointAt(0)!;
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
    return ac.codePointAt(0)! < bc.codePointAt(0)!;
  }
  return ar.length < br.length;
}

export function sortedYamlKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).sort((a, b) => (yamlKeyLess(a, b) ? -1 : yamlKeyLess(b, a) ? 1 : 0));
}

// ---------- numbers as go-yaml prints them

/** strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form when exp < -4 || exp >= 6. */
export function goFormatFloatG(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, e] = f.toExponential().split('e') as [string, string];
  const x = Number(e);
  if (x < -4 || x >= 6) return `${mant}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
  return String(f);
}

function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  const s = goFormatFloatG(n);
  if (s === '+Inf') return '.inf';
  if (s === '-Inf') return '-.inf';
  if (s === 'NaN') return '.nan';
  return s;
}

// ---------- the emitter

class Emitter {
  out = '';
  column = 0;
  indent = -1;
  indents: number[] = [];
  whitespace = true;
  indention = true;
  openEnded = false;

  private put(s: string): void {
    this.out += s;
    this.column++;
  }
  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }
  increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }
  popIndent(): void {
    this.indent = this.indents.pop() ?? -1;
  }
  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }
  writeIndicator(ind: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const c of ind) this.put(c);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
    this.openEnded = false;
  }

  emitNode(v: unknown, ctx: { mappingContext: boolean; simpleKey: boolean }): void {
    if (v === null || v === undefined) return this.emitScalar('null', 'plain', ctx.simpleKey);
    if (typeof v === 'boolean') return this.emitScalar(v ? 'true' : 'false', 'plain', ctx.simpleKey);
    if (typeof v === 'number') return this.emitScalar(formatNumber(v), 'plain', ctx.simpleKey);
    if (typeof v === 'string') return this.emitString(v, ctx.simpleKey);
    if (Array.isArray(v)) return this.emitSequence(v, ctx.mappingContext);
    if (typeof v === 'object') return this.emitMapping(v as Record<string, unknown>);
    return this.emitString(String(v), ctx.simpleKey);
  }

  emitString(s: string, simpleKey: boolean): void {
    let style: Style;
    if (s.includes('\n')) style = 'literal';
    else if (!resolvesAsNonString(s) && !BASE60_FLOAT.test(s)) style = 'plain';
    else style = 'double';
    this.emitScalar(s, style, simpleKey);
  }

  emitScalar(value: string, requested: Style, simpleKey: boolean): void {
    const a = analyzeScalar(value);
    let style = requested;
    if (style === 'plain') {
      if (!a.blockPlainAllowed) style = 'single';
      if (value.length === 0 && simpleKey) style = 'single';
    }
    if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
    if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
    this.increaseIndent(true, false);
    const allowBreaks = !simpleKey;
    switch (style) {
      case 'plain':
        this.writePlain(value, allowBreaks);
        break;
      case 'single':
        this.writeSingle(value, allowBreaks);
        break;
      case 'double':
        this.writeDouble(value, allowBreaks);
        break;
      case 'literal':
        this.writeLiteral(value);
        break;
    }
    this.popIndent();
  }

  writePlain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    const chars = Array.from(value);
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      if (isSpace(ch)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && !isSpace(chars[i + 1] ?? '')) this.writeIndent();
        else this.put(ch);
        spaces = true;
      } else {
        this.put(ch);
        this.indention = false;
        spaces = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  writeSingle(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const chars = Array.from(value);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      if (isSpace(ch)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < chars.length - 1 && !isSpace(chars[i + 1] ?? '')) this.writeIndent();
        else this.put(ch);
        spaces = true;
      } else if (isBreak(ch)) {
        if (!breaks && ch === '\n') this.putBreak();
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (ch === "'") this.put("'");
        this.put(ch);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  writeDouble(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    const chars = Array.from(value);
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const cp = ch.codePointAt(0)!;
      if (!isPrintable(ch) || cp === 0xfeff || isBreak(ch) || ch === '"' || ch === '\\') {
        this.put('\\');
        const short: Record<number, string> = { 0: '0', 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 0x1b: 'e', 0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P' };
        const s = short[cp];
        if (s !== undefined) this.put(s);
        else {
          const [p, w] = cp <= 0xff ? ['x', 2] : cp <= 0xffff ? ['u', 4] : ['U', 8];
          this.put(p as string);
          for (const d of cp.toString(16).toUpperCase().padStart(w as number, '0')) this.put(d);
        }
        spaces = false;
      } else if (isSpace(ch)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < chars.length - 1) {
          this.writeIndent();
          if (isSpace(chars[i + 1] ?? '')) this.put('\\');
        } else this.put(ch);
        spaces = true;
      } else {
        this.put(ch);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  writeLiteral(value: string): void {
    this.writeIndicator('|', true, false, false);
    // block scalar hints
    const chars = Array.from(value);
    if (chars.length > 0 && (isSpace(chars[0]!) || isBreak(chars[0]!))) this.writeIndicator(String(BEST_INDENT), false, false, false);
    this.openEnded = false;
    let chomp = '';
    if (chars.length === 0) chomp = '-';
    else if (!isBreak(chars[chars.length - 1]!)) chomp = '-';
    else if (chars.length === 1) {
      chomp = '+';
      this.openEnded = true;
    } else if (isBreak(chars[chars.length - 2]!)) {
      chomp = '+';
      this.openEnded = true;
    }
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const ch of chars) {
      if (isBreak(ch)) {
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(ch);
        this.indention = false;
        breaks = false;
      }
    }
  }

  emitSequence(items: unknown[], mappingContext: boolean): void {
    if (items.length === 0) {
      this.writeIndicator('[', true, true, false);
      this.writeIndicator(']', false, false, false);
      return;
    }
    this.increaseIndent(false, mappingContext && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.emitNode(item, { mappingContext: false, simpleKey: false });
    }
    this.popIndent();
  }

  emitMapping(o: Record<string, unknown>): void {
    const keys = sortedYamlKeys(o).filter((k) => o[k] !== undefined);
    if (keys.length === 0) {
      this.writeIndicator('{', true, true, false);
      this.writeIndicator('}', false, false, false);
      return;
    }
    this.increaseIndent(false, false);
    for (const k of keys) {
      this.writeIndent();
      const simple = !k.includes('\n') && utf8Length(k) <= 128;
      if (simple) {
        this.emitString(k, true);
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.emitString(k, false);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.emitNode(o[k], { mappingContext: true, simpleKey: false });
    }
    this.popIndent();
  }

  document(v: unknown): string {
    this.emitNode(v, { mappingContext: false, simpleKey: false });
    // document end: implicit; then stream end
    this.indent = -1;
    this.writeIndent();
    if (this.openEnded) {
      this.writeIndicator('...', true, false, false);
      this.writeIndent();
    }
    return this.out;
  }
}

/** sigs.k8s.io/yaml.Marshal of a JSON value, as kubectl's YAML printer writes it. */
export function toYaml(value: unknown): string {
  return new Emitter().document(value);
}
