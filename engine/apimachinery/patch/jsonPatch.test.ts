import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../types';
import { applyJsonPatch, createJsonPatch, escapePointerToken, unescapePointerToken } from './jsonPatch';

const ok = (doc: JsonValue, patch: JsonValue) => {
  const r = applyJsonPatch(doc, patch);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const errorOf = (doc: JsonValue, patch: JsonValue) => {
  const r = applyJsonPatch(doc, patch);
  return r.ok ? undefined : r.error;
};

describe('RFC 6902 appendix A', () => {
  it('A.1 adding an object member', () => {
    expect(ok({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }])).toEqual({ baz: 'qux', foo: 'bar' });
  });
  it('A.2 adding an array element', () => {
    expect(ok({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }])).toEqual({ foo: ['bar', 'qux', 'baz'] });
  });
  it('A.3 removing an object member', () => {
    expect(ok({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }])).toEqual({ foo: 'bar' });
  });
  it('A.4 removing an array element', () => {
    expect(ok({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }])).toEqual({ foo: ['bar', 'baz'] });
  });
  it('A.5 replacing a value', () => {
    expect(ok({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }])).toEqual({ baz: 'boo', foo: 'bar' });
  });
  it('A.6 moving a value', () => {
    expect(ok({ foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }])).toEqual({
      foo: { bar: 'baz' },
      qux: { corge: 'grault', thud: 'fred' },
    });
  });
  it('A.7 moving an array element', () => {
    expect(ok({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }])).toEqual({ foo: ['all', 'cows', 'eat', 'grass'] });
  });
  it('A.8 testing a value: success', () => {
    const doc = { baz: 'qux', foo: ['a', 2, 'c'] };
    expect(ok(doc, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }])).toEqual(doc);
  });
  it('A.9 testing a value: error', () => {
    expect(errorOf({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }])).toBe('testing value /baz failed: test failed');
  });
  it('A.10 adding a nested member object', () => {
    expect(ok({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }])).toEqual({ foo: 'bar', child: { grandchild: {} } });
  });
  it('A.11 ignoring unrecognized elements', () => {
    expect(ok({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }])).toEqual({ foo: 'bar', baz: 'qux' });
  });
  it('A.12 adding to a nonexistent target', () => {
    expect(errorOf({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }])).toBe('add operation does not apply: doc is missing path: "/baz/bat": missing value');
  });
  it('A.14 ~ escape ordering', () => {
    const doc = { '/': 9, '~1': 10 };
    expect(ok(doc, [{ op: 'test', path: '/~01', value: 10 }])).toEqual(doc);
  });
  it('A.15 comparing strings and numbers', () => {
    expect(errorOf({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }])).toBe('testing value /~01 failed: test failed');
  });
  it('A.16 adding an array value', () => {
    expect(ok({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }])).toEqual({ foo: ['bar', ['abc', 'def']] });
  });
});

describe('evanphx/json-patch v4 behaviour and error texts', () => {
  it('replace of a missing object member adds it', () => {
    expect(ok({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }])).toEqual({ a: 1, b: 2 });
  });
  it('negative indices count from the end', () => {
    expect(ok({ a: [1, 2, 3] }, [{ op: 'add', path: '/a/-1', value: 9 }])).toEqual({ a: [1, 2, 3, 9] });
    expect(ok({ a: [1, 2, 3] }, [{ op: 'remove', path: '/a/-1' }])).toEqual({ a: [1, 2] });
  });
  it('copy from a missing member adds null; move from one fails on the removal', () => {
    expect(ok({ a: 1 }, [{ op: 'copy', from: '/x', path: '/b' }])).toEqual({ a: 1, b: null });
    expect(errorOf({ a: 1 }, [{ op: 'move', from: '/x', path: '/b' }])).toBe("error in move for path: 'x': Unable to remove nonexistent key: x: missing value");
  });
  it('test against a missing member passes only for a null value', () => {
    expect(ok({ a: 1 }, [{ op: 'test', path: '/x', value: null }])).toEqual({ a: 1 });
    expect(errorOf({ a: null }, [{ op: 'test', path: '/a', value: 0 }])).toBe('testing value /a failed: test failed');
  });
  it('replace of the whole document', () => {
    expect(ok({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }])).toEqual({ b: 2 });
    expect(ok({ a: 1 }, [{ op: 'replace', path: '', value: 5 }])).toEqual({ a: 1 });
  });
  it('error texts', () => {
    expect(errorOf({ a: 1 }, [{ op: 'remove', path: '/b' }])).toBe("error in remove for path: '/b': Unable to remove nonexistent key: b: missing value");
    expect(errorOf({ a: 1 }, [{ op: 'remove', path: '/b/c' }])).toBe('remove operation does not apply: doc is missing path: "/b/c": missing value');
    expect(errorOf({ a: [1] }, [{ op: 'replace', path: '/a/5', value: 1 }])).toBe('replace operation does not apply: doc is missing key: /a/5: missing value');
    expect(errorOf({ a: [1] }, [{ op: 'add', path: '/a/5', value: 1 }])).toBe("error in add for path: '/a/5': Unable to access invalid index: 5: invalid index referenced");
    expect(errorOf({ a: [1] }, [{ op: 'add', path: '/a/x', value: 1 }])).toBe(
      `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    );
    expect(errorOf({ a: 1 }, [{ op: 'frobnicate', path: '/a' }])).toBe('Unexpected kind: frobnicate');
    expect(errorOf({ a: 1 }, [{ op: 'add', value: 1 }])).toBe('add operation failed to decode path: missing value');
    expect(errorOf({ a: 1 }, [{ op: 'replace', value: 1 }])).toBe('replace operation failed to decode path: operation missing path field: missing value');
    expect(errorOf({ a: 1 }, [{ op: 'move', path: '/b' }])).toBe('move operation failed to decode from: operation, missing from field: missing value');
    expect(errorOf({ a: 1 }, [{ op: 'test', path: '/b/c', value: 1 }])).toBe('test operation does not apply: is missing path: /b/c: missing value');
  });
});

describe('how the API server answers', () => {
  it('apply failures are 422 with the json-patch text as a cause', () => {
    const r = applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.status).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'testing value /a failed: test failed' }] },
        code: 422,
      });
    }
  });
  it('a body that is not a list of operations is a 400', () => {
    const r = applyJsonPatch({ a: 1 }, { op: 'add' });
    expect(r.ok ? undefined : [r.status.code, r.status.reason, r.status.message]).toEqual([
      400,
      'BadRequest',
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ]);
  });
  it('more than 10000 operations is a 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a', value: 1 }));
    const r = applyJsonPatch({ a: 1 }, ops);
    expect(r.ok ? undefined : [r.status.code, r.status.message]).toEqual([413, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001']);
  });
  it('does not modify the document it is given', () => {
    const doc = { a: [1, 2] };
    ok(doc, [{ op: 'remove', path: '/a/0' }]);
    expect(doc).toEqual({ a: [1, 2] });
  });
});

describe('pointers', () => {
  it('escape and unescape tokens', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(unescapePointerToken('a~1b~0c')).toBe('a/b~c');
    expect(unescapePointerToken('~01')).toBe('~1');
  });
});

describe('createJsonPatch', () => {
  it('orders object members by key and escapes them', () => {
    expect(createJsonPatch({ b: 1, a: 1, 'x/y': 1 }, { c: 2, a: 2, 'x/y': 1, 'm~': 0 })).toEqual([
      { op: 'replace', path: '/a', value: 2 },
      { op: 'remove', path: '/b' },
      { op: 'add', path: '/c', value: 2 },
      { op: 'add', path: '/m~0', value: 0 },
    ]);
  });
  it('records an admission plugin adding a label and a toleration', () => {
    const before = { metadata: { name: 'p' }, spec: { tolerations: [{ key: 'a' }] } };
    const after = { metadata: { name: 'p', labels: { x: 'y' } }, spec: { tolerations: [{ key: 'a' }, { key: 'b' }] } };
    expect(createJsonPatch(before, after)).toEqual([
      { op: 'add', path: '/metadata/labels', value: { x: 'y' } },
      { op: 'add', path: '/spec/tolerations/1', value: { key: 'b' } },
    ]);
  });
  it('trims common prefixes and suffixes of arrays', () => {
    expect(createJsonPatch({ l: [1, 2, 3, 4, 5] }, { l: [1, 9, 5] })).toEqual([
      { op: 'replace', path: '/l/1', value: 9 },
      { op: 'remove', path: '/l/3' },
      { op: 'remove', path: '/l/2' },
    ]);
    expect(createJsonPatch({ l: [1, 5] }, { l: [1, 2, 3, 5] })).toEqual([
      { op: 'add', path: '/l/1', value: 2 },
      { op: 'add', path: '/l/2', value: 3 },
    ]);
  });
  it('is empty for equal documents', () => {
    expect(createJsonPatch({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
  });
});
