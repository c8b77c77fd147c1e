// A JSON reader that behaves like the Go decoder behind etcd's grpc-gateway
// (encoding/json's Decoder, as jsonpb uses it): it reads ONE value from the
// front of the text and ignores whatever follows, keeps number literals as
// written (int64 fields need the exact digits, and "1.5" must be refused for
// them), and words its syntax errors like Go does ("unexpected EOF",
// "invalid character 'a' looking for beginning of value").

/** A JSON number kept as its literal text. */
export class JsonNumber {
  constructor(readonly raw: string) {}
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export type ReadResult = { ok: true; value: JsonValue; end: number } | { ok: false; error: string } | { ok: 'empty' };

const WS = new Set([' ', '\t', '\n', '\r']);

/** Go's quoteChar: how encoding/json names an offending character. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const code = c.charCodeAt(0);
  if (code < 0x20) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

class SyntaxErr {
  constructor(readonly message: string) {}
}

class Reader {
  i: number;
  constructor(
    readonly s: string,
    start: number,
  ) {
    this.i = start;
  }

  ws(): void {
    while (this.i < this.s.length && WS.has(this.s[this.i]!)) this.i++;
  }

  peek(): string | undefined {
    return this.s[this.i];
  }

  fail(context: string): never {
    const c = this.s[this.i];
    if (c === undefined) throw new SyntaxErr('unexpected EOF');
    throw new SyntaxErr(`invalid character ${quoteChar(c)} ${context}`);
  }

  value(): JsonValue {
    this.ws();
    const c = this.peek();
    switch (c) {
      case '{':
        return this.object();
      case '[':
        return this.array();
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        return this.fail('looking for beginning of value');
    }
  }

  literal<T extends JsonValue>(word: string, v: T): T {
    for (let k = 0; k < word.length; k++) {
      if (this.s[this.i] !== word[k]) {
        if (k === 0) this.fail('looking for beginning of value');
        this.fail(`in literal ${word} (expecting ${quoteChar(word[k]!)})`);
      }
      this.i++;
    }
    return v;
  }

  number(): JsonNumber {
    const start = this.i;
    const s = this.s;
    if (s[this.i] === '-') this.i++;
    if (s[this.i] === '0') this.i++;
    else if (s[this.i] !== undefined && s[this.i]! >= '1' && s[this.i]! <= '9') while (/[0-9]/.test(s[this.i] ?? '')) this.i++;
    else this.fail('in numeric literal');
    if (s[this.i] === '.') {
      this.i++;
      if (!/[0-9]/.test(s[this.i] ?? '')) this.fail('after decimal point in numeric literal');
      while (/[0-9]/.test(s[this.i] ?? '')) this.i++;
    }
    if (s[this.i] === 'e' || s[this.i] === 'E') {
      this.i++;
      if (s[this.i] === '+' || s[this.i] === '-') this.i++;
      if (!/[0-9]/.test(s[this.i] ?? '')) this.fail('in exponent of numeric literal');
      while (/[0-9]/.test(s[this.i] ?? '')) this.i++;
    }
    return new JsonNumber(s.slice(start, this.i));
  }

  string(): string {
    this.i++; // opening quote
    let out = '';
    const s = this.s;
    for (;;) {
      const c = s[this.i];
      if (c === undefined) throw new SyntaxErr('unexpected EOF');
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c.charCodeAt(0) < 0x20) this.fail('in string literal');
      if (c === '\\') {
        this.i++;
        const e = s[this.i];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          this.i++;
        } else if (e === 'u') {
          const hex = s.slice(this.i + 1, this.i + 5);
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(hex[k] ?? '')) {
              this.i += 1 + k;
              this.fail('in \\u hexadecimal character escape');
            }
          }
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 5;
        } else {
          this.fail('in string escape code');
        }
        continue;
      }
      out += c;
      this.i++;
    }
  }

  array(): JsonValue[] {
    this.i++;
    const out: JsonValue[] = [];
    this.ws();
    if (this.peek() === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.ws();
      const c = this.peek();
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ']') {
        this.i++;
        return out;
      }
      this.fail('after array element');
    }
  }

  object(): JsonObject {
    this.i++;
    const out: JsonObject = Object.create(null) as JsonObject;
    this.ws();
    if (this.peek() === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.peek() !== '"') this.fail('looking for beginning of object key string');
      const key = this.string();
      this.ws();
      if (this.peek() !== ':') this.fail('after object key');
      this.i++;
      out[key] = this.value(); // a repeated key: the last one wins, as in Go
      this.ws();
      const c = this.peek();
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === '}') {
        this.i++;
        return out;
      }
      this.fail('after object key:value pair');
    }
  }
}

/**
 * Reads the first JSON value of `text` from `start`. `empty` when only
 * whitespace is left (the gateway then decodes an empty request).
 */
export function readJsonValue(text: string, start = 0): ReadResult {
  const r = new Reader(text, start);
  r.ws();
  if (r.i >= text.length) return { ok: 'empty' };
  try {
    const value = r.value();
    return { ok: true, value, end: r.i };
  } catch (e) {
    if (e instanceof SyntaxErr) return { ok: false, error: e.message };
    throw e;
  }
}

/**
 * Splits a stream of concatenated JSON values (a bidi-streaming request body)
 * as bytes arrive: complete values come out, a trailing partial one waits.
 */
export class JsonStreamSplitter {
  private buf = '';

  /** `maxPending`: the largest incomplete value kept waiting (characters). */
  constructor(private readonly maxPending = 4 * 1024 * 1024) {}

  /** Feeds text; returns the complete values so far, or a syntax error. */
  push(chunk: string): { values: JsonValue[]; error?: string } {
    this.buf += chunk;
    if (this.buf.length > this.maxPending) return { values: [], error: `request message larger than ${this.maxPending} bytes` };
    const values: JsonValue[] = [];
    for (;;) {
      const r = readJsonValue(this.buf);
      if (r.ok === 'empty') {
        this.buf = '';
        return { values };
      }
      if (r.ok === false) {
        if (r.error === 'unexpected EOF') return { values }; // wait for more
        return { values, error: r.error };
      }
      values.push(r.value);
      this.buf = this.buf.slice(r.end);
    }
  }

  /** At end of body: a leftover partial value is an error. */
  end(): string | null {
    return readJsonValue(this.buf).ok === false ? 'unexpected EOF' : null;
  }
}

/** Go's name for the JSON kind of a value, as in "cannot unmarshal string into ...". */
export function goJsonKind(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof JsonNumber) return 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

export function isJsonObject(v: JsonValue): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);
}
