// The body scanner's duplicate fields against a plain reference scanner, on
// random JSON texts with repeated and escaped keys.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_DEPTH, parseJson, parseJsonValue } from './decode';

function reference(text: string): string[] {
  const stack: { keys: Set<string> | null; path: string; key: string }[] = [];
  const duplicates: string[] = [];
  let i = 0;
  let expectKey = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') j++;
        j++;
      }
      const s = text.slice(i + 1, j);
      const top = stack[stack.length - 1];
      if (top && top.keys && expectKey) {
        let k: string;
        try {
          k = JSON.parse(`"${s}"`) as string;
        } catch {
          k = s;
        }
        if (top.keys.has(k)) duplicates.push(top.path ? `${top.path}.${k}` : k);
        top.keys.add(k);
        top.key = k;
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      const parent = stack[stack.length - 1];
      const path = parent ? (parent.keys ? (parent.path ? `${parent.path}.${parent.key}` : parent.key) : parent.path) : '';
      stack.push({ keys: c === '{' ? new Set() : null, path, key: '' });
      expectKey = c === '{';
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') expectKey = !!stack[stack.length - 1]?.keys;
    i++;
  }
  return duplicates;
}

const key = fc.constantFrom('a', 'b', 'c', 'a\\u0062', 'q\\"', 'x.y', 'k:v', '\\\\');
const space = fc.constantFrom('', '', ' ', '\n\t ');
const json: fc.Arbitrary<string> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    // Strings ending in an escaped backslash, or holding an escaped quote after one: a quote's escape is the parity of its backslash run.
    fc.constantFrom('1', 'true', 'null', '"s"', '"a\\"b"', '"e\\\\"', '"\\\\\\""', '"k:{\\"uid\\":1}"'),
    fc.array(tie('v'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
    // Whitespace around the colon too: the fast path finds keys by the colon after a string.
    fc.array(fc.tuple(key, tie('v'), space, space), { maxLength: 4 }).map((es) => `{${es.map(([k, v, s1, s2]) => `"${k}"${s1}:${s2}${v}`).join(',')}}`),
  ),
})).v;

describe('parseJson duplicates', () => {
  it('finds the duplicate fields a reference scanner finds, with their paths', () => {
    fc.assert(
      fc.property(json, (text) => {
        const p = parseJson(text);
        if (!p.ok) return;
        expect(p.duplicates).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('parseJsonValue', () => {
  it('gives parseJson\'s verdict and value, without the duplicates', () => {
    const texts = fc.oneof(
      json,
      json.map((t) => t.slice(0, Math.max(0, t.length - 1))),
      fc.integer({ min: MAX_DEPTH - 2, max: MAX_DEPTH + 2 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
      fc.integer({ min: MAX_DEPTH - 2, max: MAX_DEPTH + 2 }).map((d) => `]]"[[["${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const a = parseJson(text);
        const b = parseJsonValue(text);
        expect(b.ok).toBe(a.ok);
        if (a.ok && b.ok) expect(b.value).toEqual(a.value);
        if (!a.ok && !b.ok) expect(b.status).toEqual(a.status);
      }),
      { numRuns: 600 },
    );
  });
});
