// Stores that write the same history share record objects (kvstore.ts), and a
// store whose history differs never picks up another store's record.
import { describe, expect, it } from 'vitest';
import { TestMember } from './testkit';

describe('shared MVCC records', () => {
  it('two members applying the same writes hold the same record objects', () => {
    const a = new TestMember();
    const b = new TestMember();
    for (const m of [a, b]) {
      m.put('x', '1');
      m.put('y', '2');
      m.apply({ deleteRange: { key: 'x' } });
      m.put('x', '3');
    }
    const ra = a.sm.kv.records();
    const rb = b.sm.kv.records();
    expect(rb).toEqual(ra);
    // The second store reused the first one's objects (memo hits)...
    expect(rb.filter((r, i) => r === ra[i]).length).toBe(ra.length);
    // ...which are immutable: reads hand out copies.
    const got = b.sm.read({ key: 'x' });
    expect('kvs' in got && got.kvs[0]).toEqual({ key: 'x', createRevision: 5, modRevision: 5, version: 1, value: '3', lease: 0 });
    expect('kvs' in got && got.kvs[0]).not.toBe(rb[rb.length - 1]!.kv);
  });

  it('a member with a different history gets its own, correct records', () => {
    const a = new TestMember();
    const b = new TestMember();
    a.put('k', 'a-value');
    b.put('k', 'b-value'); // same revision, same key, other value
    a.put('k', 'again');
    b.put('other', 'x'); // same revision, other key
    const kb = b.sm.kv.records();
    expect(kb.map((r) => [r.kv.key, r.kv.value, r.kv.version])).toEqual([
      ['k', 'b-value', 1],
      ['other', 'x', 1],
    ]);
    const ka = a.sm.kv.records();
    expect(ka.map((r) => [r.kv.key, r.kv.value, r.kv.version])).toEqual([
      ['k', 'a-value', 1],
      ['k', 'again', 2],
    ]);
    expect(kb[0]).not.toBe(ka[0]);
  });
});
