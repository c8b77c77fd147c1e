// JSON as the Go decoder sees it: objects keep every key in document order,
// duplicates included, and numbers keep their literal text ("1.0" is not an
// integer to Go's strconv.ParseInt, though JSON.parse makes it 1).
import type { JsonValue } from '../../apimachinery/types';

export type JsonNode =
  | { type: 'object'; entries: [string, JsonNode][] }
  | { type: 'array'; items: JsonNode[] }
  | { type: 'string'; value: string }
  | { type: 'number'; raw: string; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'null' };

/** Parses JSON text; undefined when it is not valid JSON (callers report syntax errors themselves). */
export function parseJsonTree(text: string): JsonNode | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const fail = (): never => {
    throw new SyntaxError(`json: at ${i}`);
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    let simple = true;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        simple = false;
        i += 2;
      } else if (c < 0x20) fail();
      else i++;
    }
    if (i >= text.length) fail();
    i++;
    const lit = text.slice(start, i);
    return simple ? lit.slice(1, -1) : (JSON.parse(lit) as string);
  };
  const value = (): JsonNode => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: [string, JsonNode][] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { type: 'object', entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const key = str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        entries.push([key, value()]);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return { type: 'object', entries };
        } else fail();
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { type: 'array', items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return { type: 'array', items };
        } else fail();
      }
    }
    if (c === '"') return { type: 'string', value: str() };
    if (text.startsWith('true', i)) {
      i += 4;
      return { type: 'bool', value: true };
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return { type: 'bool', value: false };
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return { type: 'null' };
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail();
    i += m[0].length;
    return { type: 'number', raw: m[0], value: Number(m[0]) };
  };
  try {
    const v = value();
    ws();
    return i === text.length ? v : undefined;
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
}

/** A plain value as a tree (no duplicates; numbers print as JavaScript prints them). */
export function treeOf(v: unknown): JsonNode {
  if (v === null || v === undefined) return { type: 'null' };
  // Array.from, not map: a hole is an item (null, as JSON.stringify writes it), not a gap.
  if (Array.isArray(v)) return { type: 'array', items: Array.from(v, treeOf) };
  switch (typeof v) {
    case 'string':
      return { type: 'string', value: v };
    case 'number':
      return { type: 'number', raw: String(v), value: v };
    case 'boolean':
      return { type: 'bool', value: v };
    case 'object': {
      const entries: [string, JsonNode][] = [];
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const x = o[k];
        if (x !== undefined) entries.push([k, treeOf(x)]);
      }
      return { type: 'object', entries };
    }
    default:
      return { type: 'null' };
  }
}

/** Back to a plain value: for duplicate keys the last one wins, as in Go. */
export function valueOf(n: JsonNode): JsonValue {
  switch (n.type) {
    case 'object': {
      const o: { [k: string]: JsonValue } = {};
      for (const [k, v] of n.entries) {
        if (k === '__proto__') Object.defineProperty(o, k, { value: valueOf(v), enumerable: true, writable: true, configurable: true });
        else o[k] = valueOf(v);
      }
      return o;
    }
    case 'array':
      return n.items.map(valueOf);
    case 'string':
    case 'bool':
      return n.value;
    case 'number':
      return n.value;
    case 'null':
      return null;
  }
}
