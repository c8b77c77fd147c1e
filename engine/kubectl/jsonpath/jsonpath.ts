// Kubernetes JSONPath templates (k8s.io/client-go/util/jsonpath parser.go and
// jsonpath.go): `{.items[*].metadata.name}`, `{range .items[*]}...{end}`,
// filters `[?(@.type=="Ready")]`, recursive `..`, unions, slices, quoted text.
import { goFmtV, goJsonCompact, goJsonIndent } from '../printers/goJson';

interface Param {
  value: number;
  known: boolean;
  derived: boolean;
}

export type JpNode =
  | { type: 'NodeList'; nodes: JpNode[] }
  | { type: 'NodeText'; text: string }
  | { type: 'NodeField'; value: string }
  | { type: 'NodeArray'; params: [Param, Param, Param] }
  | { type: 'NodeFilter'; left: JpList; right: JpList; operator: string }
  | { type: 'NodeInt'; value: number }
  | { type: 'NodeFloat'; value: number }
  | { type: 'NodeBool'; value: boolean }
  | { type: 'NodeWildcard' }
  | { type: 'NodeRecursive' }
  | { type: 'NodeUnion'; nodes: JpList[] }
  | { type: 'NodeIdentifier'; name: string };
type JpList = { type: 'NodeList'; nodes: JpNode[] };

const newList = (): JpList => ({ type: 'NodeList', nodes: [] });

export class JsonPathError extends Error {}

const isSpaceR = (r: string) => r === ' ' || r === '\t';
const isEndOfLine = (r: string) => r === '\r' || r === '\n';
const isAlphaNumeric = (r: string) => r === '_' || /[\p{L}\p{Nd}]/u.test(r);
function isTerminator(r: string | undefined): boolean {
  if (r === undefined) return true;
  if (isSpaceR(r) || isEndOfLine(r)) return true;
  return '.,[]$@{}'.includes(r);
}

/** strconv.Unquote extended to single quotes (parser.go UnquoteExtend). */
function unquoteExtend(s: string): string {
  if (s.length < 2) throw new JsonPathError('invalid syntax');
  const q = s[0]!;
  if (q !== s[s.length - 1] || (q !== '"' && q !== "'")) throw new JsonPathError('invalid syntax');
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      if (c === q) throw new JsonPathError('invalid syntax');
      out += c;
      continue;
    }
    const n = body[++i];
    const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };
    if (n !== undefined && simple[n] !== undefined) {
      if ((n === "'" || n === '"') && n !== q) throw new JsonPathError('invalid syntax');
      out += simple[n];
    } else if (n === 'x' || n === 'u' || n === 'U') {
      const len = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new JsonPathError('invalid syntax');
      out += String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (n !== undefined && /[0-7]/.test(n)) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw new JsonPathError('invalid syntax');
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else throw new JsonPathError('invalid syntax');
  }
  return out;
}

class Parser {
  root: JpList = newList();
  private input = '';
  private pos = 0;
  private start = 0;
  private width = 0;

  parse(text: string): JpList {
    this.input = text;
    this.root = newList();
    this.pos = 0;
    this.start = 0;
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }
  private next(): string | undefined {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return undefined;
    }
    const cp = this.input.codePointAt(this.pos)!;
    const r = String.fromCodePoint(cp);
    this.width = r.length;
    this.pos += this.width;
    return r;
  }
  private peek(): string | undefined {
    const r = this.next();
    this.backup();
    return r;
  }
  private backup(): void {
    this.pos -= this.width;
  }

  private parseText(cur: JpList): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ type: 'NodeText', text: this.consumeText() });
        return this.parseLeftDelim(cur);
      }
      if (this.next() === undefined) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'NodeText', text: this.consumeText() });
  }

  private parseLeftDelim(cur: JpList): void {
    this.pos += 1;
    this.consumeText();
    const node = newList();
    cur.nodes.push(node);
    this.parseInsideAction(node);
  }

  private parseInsideAction(cur: JpList): void {
    // Iterative where upstream recurses, so long templates cannot overflow the stack.
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        return this.parseText(this.root);
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === undefined || isEndOfLine(r)) throw new JsonPathError('unclosed action');
      if (r === ' ') this.consumeText();
      else if (r === '@' || r === '$') this.consumeText();
      else if (r === '[') this.parseArray(cur);
      else if (r === '"' || r === "'") this.parseQuote(cur, r);
      else if (r === '.') this.parseField(cur);
      else if (r === '+' || r === '-' || /\p{Nd}/u.test(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else {
        const cp = r.codePointAt(0)!;
        throw new JsonPathError(`unrecognized character in action: U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`);
      }
    }
  }

  private parseIdentifier(cur: JpList): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        if (r !== undefined) this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'NodeBool', value: value === 'true' });
    else cur.nodes.push({ type: 'NodeIdentifier', name: value });
  }

  private parseRecursive(cur: JpList): void {
    const last = cur.nodes[cur.nodes.length - 1];
    if (last && last.type === 'NodeRecursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'NodeRecursive' });
    const r = this.peek();
    if (r !== undefined && isAlphaNumeric(r)) this.parseField(cur);
  }

  private parseNumber(cur: JpList): void {
    const r = this.peek();
    if (r === '+' || r === '-') this.next();
    for (;;) {
      const c = this.next();
      if (c === undefined) break;
      if (c !== '.' && !/\p{Nd}/u.test(c)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?\d+$/.test(value)) cur.nodes.push({ type: 'NodeInt', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ type: 'NodeFloat', value: Number(value) });
    else throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: JpList): void {
    for (;;) {
      const r = this.next();
      if (r === undefined || r === '\n') throw new JsonPathError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';
    const strs = text.split(',');
    if (strs.length > 1) {
      const union: JpList[] = [];
      for (const s of strs) union.push(parseAction(`[${s.trim()}]`));
      cur.nodes.push({ type: 'NodeUnion', nodes: union });
      return;
    }
    const dict = /^'([^']*)'$/.exec(text);
    if (dict) {
      for (const n of parseAction(`.${dict[1]}`).nodes) cur.nodes.push(n);
      return;
    }
    const m = /^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$/.exec(text);
    if (!m) throw new JsonPathError(`invalid array index ${text}`);
    const parts = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: Param[] = [];
    for (let i = 0; i < 3; i++) {
      let v = parts[i]!;
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params.push({ value: 0, known: false, derived: false });
        else {
          if (!/^-?\d+$/.test(v)) throw new JsonPathError(`array index ${v} is not a number`);
          params.push({ value: Number(v), known: true, derived: false });
        }
      } else if (i === 1) params.push({ value: params[0]!.value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false, derived: false });
    }
    cur.nodes.push({ type: 'NodeArray', params: params as [Param, Param, Param] });
  }

  private parseFilter(cur: JpList): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === undefined || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')') {
        if (begin === end) break;
      }
    }
    if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]');
    let text = this.consumeText();
    text = text.slice(0, -2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(text);
    if (!m) cur.nodes.push({ type: 'NodeFilter', left: parseAction(text), right: newList(), operator: 'exists' });
    else cur.nodes.push({ type: 'NodeFilter', left: parseAction(m[1]!), right: parseAction(m[3]!), operator: m[2]! });
  }

  private parseQuote(cur: JpList, endQ: string): void {
    for (;;) {
      const r = this.next();
      if (r === undefined || r === '\n') throw new JsonPathError('unterminated quoted string');
      if (r === endQ && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    let s: string;
    try {
      s = unquoteExtend(value);
    } catch (e) {
      throw new JsonPathError(`unquote string ${value} error ${(e as Error).message}`);
    }
    cur.nodes.push({ type: 'NodeText', text: s });
  }

  private parseField(cur: JpList): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') {
        this.next();
        continue;
      }
      if (isTerminator(r)) {
        if (r !== undefined) this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'NodeWildcard' });
    else cur.nodes.push({ type: 'NodeField', value: value.replace(/\\/g, '') });
  }
}

function parseAction(text: string): JpList {
  const root = new Parser().parse(`{${text}}`);
  return root.nodes[0] as JpList;
}

/** Parses a template; throws JsonPathError with upstream's message. */
export function parseJsonPath(template: string): JpList {
  return new Parser().parse(template);
}

// ---------- evaluation

type V = unknown;
const isMap = (v: V): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const sortedKeys = (o: Record<string, unknown>) => Object.keys(o).sort();

function kindOf(v: V): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v;
}

function compare(op: string, left: V, right: V): boolean {
  const lk = kindOf(left);
  const rk = kindOf(right);
  const numeric = (k: string) => k === 'int' || k === 'float';
  if (op === '==' || op === '!=') {
    let eq: boolean;
    if (numeric(lk) && numeric(rk)) eq = left === right;
    else if (lk !== rk) throw new JsonPathError('incompatible types for comparison');
    else if (lk === 'string' || lk === 'boolean') eq = left === right;
    else throw new JsonPathError('invalid type for comparison');
    return op === '==' ? eq : !eq;
  }
  if (!((numeric(lk) && numeric(rk)) || (lk === 'string' && rk === 'string'))) {
    if (lk !== rk && !(numeric(lk) && numeric(rk))) throw new JsonPathError('incompatible types for comparison');
    throw new JsonPathError('invalid type for comparison');
  }
  const l = left as number | string;
  const r = right as number | string;
  switch (op) {
    case '<':
      return l < r;
    case '>':
      return l > r;
    case '<=':
      return l <= r;
    case '>=':
      return l >= r;
  }
  throw new JsonPathError(`unrecognized filter operator ${op}`);
}

export class JsonPath {
  private root: JpList | null = null;
  private stack: V[][] = [];
  private cur: V[] = [];
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  allowMissingKeys = false;
  outputJson = false;

  parse(template: string): void {
    this.root = parseJsonPath(template);
  }

  /** FindResults + PrintResults for each group. */
  execute(data: V): string {
    const groups = this.findResults(data);
    return groups.map((g) => this.printResults(g)).join('');
  }

  findResults(data: V): V[][] {
    if (!this.root) throw new JsonPathError('incomplete jsonpath template');
    this.cur = [data];
    const nodes = this.root.nodes;
    const full: V[][] = [];
    for (let i = 0; i < nodes.length; i++) {
      const results = this.walk(this.cur, nodes[i]!);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange -= 1;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange -= 1;
        this.inRange += 1;
        for (let k = 0; k < results.length; k++) {
          this.root.nodes = nodes.slice(i + 1);
          if (k === results.length - 1) this.inRange -= 1;
          full.push(...this.findResults(results[k]));
        }
        this.root.nodes = nodes;
        break;
      }
      full.push(results);
    }
    return full;
  }

  printResults(results: V[]): string {
    let rs = results;
    if (this.outputJson) rs = [results];
    let out = '';
    rs.forEach((r, i) => {
      let text: string;
      if (this.outputJson) text = goJsonIndent(r) + '\n';
      else if (Array.isArray(r) || isMap(r)) text = goJsonCompact(r);
      else text = goFmtV(r);
      if (i !== rs.length - 1) text += ' ';
      out += text;
    });
    return out;
  }

  private walk(value: V[], node: JpNode): V[] {
    switch (node.type) {
      case 'NodeList':
        return this.evalList(value, node);
      case 'NodeText':
        return [node.text];
      case 'NodeField':
        return this.evalField(value, node.value);
      case 'NodeArray':
        return this.evalArray(value, node.params);
      case 'NodeFilter':
        return this.evalFilter(value, node);
      case 'NodeInt':
      case 'NodeFloat':
      case 'NodeBool':
        return value.map(() => node.value);
      case 'NodeWildcard':
        return this.evalWildcard(value);
      case 'NodeRecursive':
        return this.evalRecursive(value);
      case 'NodeUnion':
        return node.nodes.flatMap((l) => this.evalList(value, l));
      case 'NodeIdentifier':
        return this.evalIdentifier(value, node.name);
    }
  }

  private evalList(value: V[], node: JpList): V[] {
    let cur = value;
    for (const n of node.nodes) cur = this.walk(cur, n);
    return cur;
  }

  private evalIdentifier(input: V[], name: string): V[] {
    if (name === 'range') {
      this.stack.push(this.cur);
      this.beginRange += 1;
      return input;
    }
    if (name === 'end') {
      if (this.endRange < this.inRange) {
        this.endRange += 1;
        return [];
      }
      const top = this.stack.pop();
      if (top === undefined) throw new JsonPathError('not in range, nothing to end');
      this.cur = top;
      return [];
    }
    throw new JsonPathError(`unrecognized identifier ${name}`);
  }

  private evalArray(input: V[], p: [Param, Param, Param]): V[] {
    const result: V[] = [];
    for (const value of input) {
      if (value === null || value === undefined) continue;
      if (!Array.isArray(value)) throw new JsonPathError(`${goType(value)} is not array or slice`);
      const len = value.length;
      let start = p[0].known ? p[0].value : 0;
      if (start < 0) start += len;
      let end = p[1].known ? p[1].value : len;
      if (end < 0 || (end === 0 && p[1].derived)) end += len;
      if (end !== start) {
        if (start >= len || start < 0) throw new JsonPathError(`array index out of bounds: index ${start}, length ${len}`);
        if (end > len || end < 0) throw new JsonPathError(`array index out of bounds: index ${end - 1}, length ${len}`);
        if (start > end) throw new JsonPathError(`starting index ${start} is greater than ending index ${end}`);
      } else return result;
      let step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) throw new JsonPathError('step must be > 0');
        step = p[2].value;
      }
      for (let i = start; i < end; i += step) result.push(value[i]);
    }
    return result;
  }

  private evalField(input: V[], name: string): V[] {
    const results: V[] = [];
    if (input.length === 0) return results;
    for (const value of input) {
      if (isMap(value) && Object.prototype.hasOwnProperty.call(value, name)) results.push(value[name]);
    }
    if (results.length === 0 && !this.allowMissingKeys) throw new JsonPathError(`${name} is not found`);
    return results;
  }

  private evalWildcard(input: V[]): V[] {
    const results: V[] = [];
    for (const value of input) {
      if (Array.isArray(value)) results.push(...value);
      else if (isMap(value)) for (const k of sortedKeys(value)) results.push(value[k]);
    }
    return results;
  }

  private evalRecursive(input: V[]): V[] {
    const result: V[] = [];
    for (const value of input) {
      let children: V[] = [];
      if (Array.isArray(value)) children = value;
      else if (isMap(value)) children = sortedKeys(value).map((k) => value[k]);
      if (children.length !== 0) {
        result.push(value);
        result.push(...this.evalRecursive(children));
      }
    }
    return result;
  }

  private evalFilter(input: V[], node: { left: JpList; right: JpList; operator: string }): V[] {
    const results: V[] = [];
    for (const value of input) {
      if (!Array.isArray(value)) throw new JsonPathError(`${goFmtV(value)} is not array or slice and cannot be filtered`);
      for (const item of value) {
        let lefts: V[];
        let leftErr: unknown = null;
        try {
          lefts = this.evalList([item], node.left);
        } catch (e) {
          lefts = [];
          leftErr = e;
        }
        if (node.operator === 'exists') {
          if (lefts.length > 0) results.push(item);
          continue;
        }
        if (leftErr) throw leftErr;
        if (lefts.length !== 1) throw new JsonPathError('can only compare one element at a time');
        const rights = this.evalList([item], node.right);
        if (rights.length !== 1) throw new JsonPathError('can only compare one element at a time');
        if (compare(node.operator, lefts[0], rights[0])) results.push(item);
      }
    }
    return results;
  }
}

function goType(v: V): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (isMap(v)) return 'map[string]interface {}';
  return 'interface {}';
}

/** RelaxedJSONPathExpression (kubectl get/customcolumn.go): `.a.b`, `a.b`, `{.a.b}` → `{.a.b}`. */
export function relaxedJsonPathExpression(expr: string): string {
  if (expr.length === 0) return expr;
  const m = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/.exec(expr);
  if (!m) throw new JsonPathError("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'");
  return `{.${m[1] ? m[1] : m[2]}}`;
}
