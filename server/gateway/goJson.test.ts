import { describe, expect, it } from 'vitest';
import { JsonNumber, JsonStreamSplitter, readJsonValue } from './goJson';

describe('readJsonValue', () => {
  it('reads values and keeps number literals as written', () => {
    const r = readJsonValue('{"a":[1,-2.5e3,true,null,"x\\n\\u00e9"],"b":{}}');
    expect(r.ok).toBe(true);
    if (r.ok !== true) return;
    const v = r.value as Record<string, unknown>;
    const arr = v.a as unknown[];
    expect((arr[0] as JsonNumber).raw).toBe('1');
    expect((arr[1] as JsonNumber).raw).toBe('-2.5e3');
    expect(arr.slice(2)).toEqual([true, null, 'x\né']);
    expect(Object.keys(v.b as object)).toEqual([]);
  });

  it('keeps 64-bit integers exact', () => {
    const r = readJsonValue('{"id":18446744073709551615}');
    expect(r.ok === true && ((r.value as Record<string, JsonNumber>).id as JsonNumber).raw).toBe('18446744073709551615');
  });

  it('reads only the first value, as Go’s streaming decoder', () => {
    const r = readJsonValue('{"a":1} trailing garbage');
    expect(r.ok).toBe(true);
    expect(r.ok === true && r.end).toBe(7);
  });

  it('treats whitespace-only input as empty', () => {
    expect(readJsonValue('  \n')).toEqual({ ok: 'empty' });
  });

  it('words syntax errors like encoding/json', () => {
    expect(readJsonValue('{"key":"Zm9v",')).toEqual({ ok: false, error: 'unexpected EOF' });
    expect(readJsonValue('{"lease":abc}')).toEqual({ ok: false, error: "invalid character 'a' looking for beginning of value" });
    expect(readJsonValue('{"a" 1}')).toEqual({ ok: false, error: "invalid character '1' after object key" });
    expect(readJsonValue('{"a":1 "b":2}')).toEqual({ ok: false, error: 'invalid character \'"\' after object key:value pair' });
    expect(readJsonValue('{a:1}')).toEqual({ ok: false, error: "invalid character 'a' looking for beginning of object key string" });
    expect(readJsonValue('[1 2]')).toEqual({ ok: false, error: "invalid character '2' after array element" });
    expect(readJsonValue('tru')).toEqual({ ok: false, error: 'unexpected EOF' });
    expect(readJsonValue('trux')).toEqual({ ok: false, error: "invalid character 'x' in literal true (expecting 'e')" });
    expect(readJsonValue('01')).toEqual({ ok: true, value: new JsonNumber('0'), end: 1 });
    expect(readJsonValue('-')).toEqual({ ok: false, error: 'unexpected EOF' });
  });

  it('lets a repeated key win last, as Go does', () => {
    const r = readJsonValue('{"a":1,"a":2}');
    expect(r.ok === true && ((r.value as Record<string, JsonNumber>).a as JsonNumber).raw).toBe('2');
  });
});

describe('JsonStreamSplitter', () => {
  it('splits concatenated objects arriving in arbitrary chunks', () => {
    const s = new JsonStreamSplitter();
    const text = '{"create_request":{"key":"YQ=="}}\n{"cancel_request":{"watch_id":0}} {"x":"}{"}';
    const seen: unknown[] = [];
    for (let i = 0; i < text.length; i += 5) seen.push(...s.push(text.slice(i, i + 5)).values);
    expect(seen).toHaveLength(3);
    expect(s.end()).toBeNull();
  });

  it('reports a syntax error and a truncated tail', () => {
    const s = new JsonStreamSplitter();
    expect(s.push('{"a":1}{b').error).toBe("invalid character 'b' looking for beginning of object key string");
    const t = new JsonStreamSplitter();
    expect(t.push('{"a":').values).toEqual([]);
    expect(t.end()).toBe('unexpected EOF');
  });
});
