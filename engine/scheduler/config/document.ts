// The text of a config file as a JSON tree, the way apimachinery's serializer
// sees it: a body starting with '{' is JSON (encoding/json's syntax errors);
// anything else is YAML read as go-yaml v2 reads it (YAML 1.1: yes/no are
// booleans; the first document only; a repeated key: last one wins, and the
// strict pass reports it as go-yaml's UnmarshalStrict does).
import { goYamlMessage } from '../../apimachinery/yaml/goYamlErrors';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node, type YAMLError } from 'yaml';
import { goQuote } from './goText';

/** A JSON value; objects keep their keys in order, JSON duplicates included. */
export type JNode =
  | { t: 'object'; pairs: [string, JNode][] }
  | { t: 'array'; items: JNode[] }
  | { t: 'string'; v: string }
  | { t: 'number'; v: number; raw: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' };

export interface Position {
  line: number;
  column: number;
}

export type ParsedText =
  | { ok: true; root: JNode; json: boolean; yamlDuplicates: string[] }
  | { ok: false; error: string; position?: Position };

export const NULL: JNode = { t: 'null' };

/** utilyaml.IsJSONBuffer: JSON when the first non-space byte is '{'. */
export function parseText(text: string): ParsedText {
  if (/^\s*\{/.test(text)) return parseJson(text);
  return parseYaml(text);
}

/** The plain JS value (a repeated key: the last value). */
export function plain(n: JNode): unknown {
  switch (n.t) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of n.pairs) o[k] = plain(v);
      return o;
    }
    case 'array':
      return n.items.map(plain);
    case 'null':
      return null;
    default:
      return n.v;
  }
}

/** What Go's json.Marshal of the YAMLToJSON'd value gives: compact, keys sorted. */
export function compactJson(n: JNode): string {
  switch (n.t) {
    case 'object': {
      const m = new Map<string, JNode>();
      for (const [k, v] of n.pairs) m.set(k, v);
      return `{${[...m.keys()].sort().map((k) => `${JSON.stringify(k)}:${compactJson(m.get(k)!)}`).join(',')}}`;
    }
    case 'array':
      return `[${n.items.map(compactJson).join(',')}]`;
    case 'string':
      return JSON.stringify(n.v);
    case 'number':
      return n.raw;
    case 'bool':
      return String(n.v);
    case 'null':
      return 'null';
  }
}

// ---- JSON, with encoding/json's scanner messages -------------------------------------------

/** Go's quoteChar for scanner errors. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = goQuote(c);
  return `'${q.slice(1, -1)}'`;
}

class JsonSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

function positionOf(text: string, offset: number): Position {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return { line, column: col };
}

function parseJson(text: string): ParsedText {
  let i = 0;
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  const skip = () => {
    while (isSpace(text[i])) i++;
  };
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(msg, i);
  };
  const eof = (): never => fail('unexpected end of JSON input');
  const peek = (): string => (i < text.length ? text[i]! : eof());

  const literal = (word: string, v: JNode): JNode => {
    for (let k = 0; k < word.length; k++) {
      const c = peek();
      if (c !== word[k]) fail(`invalid character ${quoteChar(c)} in literal ${word} (expecting ${quoteChar(word[k]!)})`);
      i++;
    }
    return v;
  };

  const number = (): JNode => {
    const start = i;
    const digit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
    if (text[i] === '-') {
      i++;
      const c = peek();
      if (!digit(c)) fail(`invalid character ${quoteChar(c)} in numeric literal`);
    }
    if (text[i] === '0') i++;
    else while (digit(text[i])) i++;
    if (text[i] === '.') {
      i++;
      const c = peek();
      if (!digit(c)) fail(`invalid character ${quoteChar(c)} after decimal point in numeric literal`);
      while (digit(text[i])) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      const c = peek();
      if (!digit(c)) fail(`invalid character ${quoteChar(c)} in exponent of numeric literal`);
      while (digit(text[i])) i++;
    }
    const raw = text.slice(start, i);
    return { t: 'number', v: Number(raw), raw };
  };

  const string = (): string => {
    i++; // opening quote
    let out = '';
    for (;;) {
      const c = peek();
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        i++;
        const e = peek();
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (simple[e] !== undefined) {
          out += simple[e];
          i++;
        } else if (e === 'u') {
          i++;
          let hex = '';
          for (let k = 0; k < 4; k++) {
            const h = peek();
            if (!/[0-9a-fA-F]/.test(h)) fail(`invalid character ${quoteChar(h)} in \\u hexadecimal character escape`);
            hex += h;
            i++;
          }
          out += String.fromCharCode(parseInt(hex, 16));
        } else fail(`invalid character ${quoteChar(e)} in string escape code`);
        continue;
      }
      if (c < ' ') fail(`invalid character ${quoteChar(c)} in string literal`);
      out += c;
      i++;
    }
  };

  const value = (): JNode => {
    skip();
    const c = peek();
    if (c === '{') {
      i++;
      const pairs: [string, JNode][] = [];
      skip();
      if (peek() === '}') {
        i++;
        return { t: 'object', pairs };
      }
      for (;;) {
        skip();
        const k = peek();
        if (k !== '"') fail(`invalid character ${quoteChar(k)} looking for beginning of object key string`);
        const key = string();
        skip();
        const colon = peek();
        if (colon !== ':') fail(`invalid character ${quoteChar(colon)} after object key`);
        i++;
        pairs.push([key, value()]);
        skip();
        const sep = peek();
        if (sep === ',') {
          i++;
          continue;
        }
        if (sep === '}') {
          i++;
          return { t: 'object', pairs };
        }
        fail(`invalid character ${quoteChar(sep)} after object key:value pair`);
      }
    }
    if (c === '[') {
      i++;
      const items: JNode[] = [];
      skip();
      if (peek() === ']') {
        i++;
        return { t: 'array', items };
      }
      for (;;) {
        items.push(value());
        skip();
        const sep = peek();
        if (sep === ',') {
          i++;
          continue;
        }
        if (sep === ']') {
          i++;
          return { t: 'array', items };
        }
        fail(`invalid character ${quoteChar(sep)} after array element`);
      }
    }
    if (c === '"') return { t: 'string', v: string() };
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    if (c === 't') return literal('true', { t: 'bool', v: true });
    if (c === 'f') return literal('false', { t: 'bool', v: false });
    if (c === 'n') return literal('null', NULL);
    return fail(`invalid character ${quoteChar(c)} looking for beginning of value`);
  };

  try {
    const root = value();
    skip();
    if (i < text.length) fail(`invalid character ${quoteChar(text[i]!)} after top-level value`);
    return { ok: true, root, json: true, yamlDuplicates: [] };
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    // The serializer's first step (meta.Interpret) is a json.Unmarshal, so a syntax error surfaces there.
    return { ok: false, error: `couldn't get version/kind; json parse error: ${e.message}`, position: positionOf(text, e.offset) };
  }
}

// ---- YAML, as go-yaml v2 ------------------------------------------------------------------

type Tag = { tag?: string; format?: string };

const YAML_OPTIONS = {
  version: '1.1' as const,
  uniqueKeys: false,
  merge: false,
  // go-yaml v2 leaves timestamps as strings when the target is interface{}.
  customTags: (tags: unknown[]) => (tags as Tag[]).filter((t) => t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME') as never,
};


/** sigs.k8s.io/yaml turns non-string map keys into strings. */
function keyString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return 'null';
  return String(v);
}

function goKeyLiteral(v: unknown): string {
  return typeof v === 'string' ? goQuote(v) : keyString(v);
}

function parseYaml(text: string): ParsedText {
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { ...YAML_OPTIONS, lineCounter: lc });
  const list = Array.isArray(docs) ? docs : [];
  const doc = list[0];
  if (doc === undefined) return { ok: true, root: NULL, json: false, yamlDuplicates: [] };
  // go-yaml stops at the first document, but a later one must still scan.
  for (const d of list) {
    const e = d.errors[0];
    if (e !== undefined) {
      const pos = e.linePos?.[0];
      return { ok: false, error: goYamlMessage(e, d.errors, text), position: pos ? { line: pos.line, column: pos.col } : undefined };
    }
  }
  const dups: string[] = [];
  const root = convert(doc, doc.contents as Node | null, lc, dups, 0);
  return { ok: true, root, json: false, yamlDuplicates: dups };
}

function convert(doc: Document, node: Node | null | undefined, lc: LineCounter, dups: string[], depth: number): JNode {
  if (depth > 200) return NULL; // alias cycles cannot happen in YAML, but stay safe
  if (node === null || node === undefined) return NULL;
  if (isAlias(node)) return convert(doc, node.resolve(doc) as Node | undefined, lc, dups, depth + 1);
  if (isMap(node)) {
    const pairs: [string, JNode][] = [];
    const index = new Map<string, number>();
    const put = (k: string, v: JNode, keyNode: unknown, rawKey: unknown, report: boolean) => {
      const at = index.get(k);
      if (at !== undefined) {
        if (report) {
          const off = (keyNode as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
          dups.push(`line ${lc.linePos(off).line}: key ${goKeyLiteral(rawKey)} already set in map`);
        }
        pairs[at] = [k, v];
      } else {
        index.set(k, pairs.length);
        pairs.push([k, v]);
      }
    };
    const merges: JNode[] = [];
    for (const item of node.items) {
      const keyNode = item.key as Node | null;
      const rawKey = isScalar(keyNode) ? keyNode.value : keyNode === null ? null : plain(convert(doc, keyNode, lc, dups, depth + 1));
      // YAML 1.1's merge key (the library reads a plain << as a symbol)
      if (typeof rawKey === 'symbol' || (rawKey === '<<' && isScalar(keyNode) && keyNode.type === 'PLAIN')) {
        merges.push(convert(doc, item.value as Node | null, lc, dups, depth + 1));
        continue;
      }
      put(keyString(rawKey), convert(doc, item.value as Node | null, lc, dups, depth + 1), keyNode, rawKey, true);
    }
    // go-yaml v2 merge keys: earlier explicit keys win, merged ones never count as repeats.
    for (const m of merges) {
      const sources = m.t === 'array' ? m.items : [m];
      for (const s of sources) {
        if (s.t !== 'object') continue;
        for (const [k, v] of s.pairs) if (!index.has(k)) put(k, v, null, k, false);
      }
    }
    return { t: 'object', pairs };
  }
  if (isSeq(node)) return { t: 'array', items: node.items.map((x) => convert(doc, x as Node | null, lc, dups, depth + 1)) };
  if (isScalar(node)) return scalar(node.value);
  return NULL;
}

function scalar(v: unknown): JNode {
  if (v === null || v === undefined) return NULL;
  if (typeof v === 'string') return { t: 'string', v };
  if (typeof v === 'boolean') return { t: 'bool', v };
  if (typeof v === 'number') {
    // .inf/.nan have no JSON form (Go's conversion fails on them); keeping them as text makes any numeric field reject them.
    if (!Number.isFinite(v)) return { t: 'string', v: String(v) };
    return { t: 'number', v, raw: String(v) };
  }
  if (typeof v === 'bigint') return { t: 'number', v: Number(v), raw: String(v) };
  if (v instanceof Uint8Array) {
    let s = '';
    for (const b of v) s += String.fromCharCode(b);
    return { t: 'string', v: btoa(s) };
  }
  return { t: 'string', v: String(v) };
}
