import { describe, expect, it } from 'vitest';
import { Reader, WireError, Writer } from './wire';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const fromHex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

function varintBytes(n: number, signed = true): string {
  const w = new Writer();
  if (signed) w.varint(n);
  else w.uvarint(n);
  return hex(w.finish());
}

function readError(bytes: Uint8Array, f: (r: Reader) => unknown): string {
  try {
    f(new Reader(bytes));
  } catch (e) {
    if (e instanceof WireError) return e.message;
    throw e;
  }
  return 'no error';
}

describe('varints', () => {
  it('writes the protobuf encoding', () => {
    expect(varintBytes(0)).toBe('00');
    expect(varintBytes(1)).toBe('01');
    expect(varintBytes(127)).toBe('7f');
    expect(varintBytes(128)).toBe('8001');
    expect(varintBytes(300)).toBe('ac02');
    expect(varintBytes(2 ** 32)).toBe('8080808010');
    expect(varintBytes(Number.MAX_SAFE_INTEGER)).toBe('ffffffffffffff0f');
  });

  it('writes negatives as ten-byte two’s complement, as Go does for int32 and int64', () => {
    expect(varintBytes(-1)).toBe('ffffffffffffffffff01');
    expect(varintBytes(-2)).toBe('feffffffffffffffff01');
    expect(varintBytes(-(2 ** 32))).toBe('80808080f0ffffffff01');
  });

  it('reads back what it writes', () => {
    for (const n of [0, 1, 127, 128, 300, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER, -1, -300, -(2 ** 31), -(2 ** 40) - 7, Number.MIN_SAFE_INTEGER]) {
      const w = new Writer();
      w.varint(n);
      expect(new Reader(w.finish()).int64()).toBe(n);
    }
  });

  it('truncates int32 to the low 32 bits like Go', () => {
    expect(new Reader(fromHex('ffffffffffffffffff01')).int32()).toBe(-1);
    expect(new Reader(fromHex('8080808010')).int32()).toBe(0);
    expect(new Reader(fromHex('ffffffff07')).int32()).toBe(2 ** 31 - 1);
  });

  it('reports gogo’s errors for truncated and overlong varints', () => {
    expect(readError(fromHex('80'), (r) => r.int64())).toBe('unexpected EOF');
    expect(readError(fromHex('ffffffffffffffffffff01'), (r) => r.int64())).toBe('proto: integer overflow');
  });
});

describe('length-delimited values', () => {
  it('reads strings and reports a length past the end', () => {
    expect(new Reader(fromHex('0378797a')).string()).toBe('xyz');
    expect(readError(fromHex('0578797a'), (r) => r.string())).toBe('unexpected EOF');
  });

  it('rejects a length whose int is negative', () => {
    expect(readError(fromHex('ffffffffffffffffff01'), (r) => r.bytes())).toBe('proto: negative length found during unmarshaling');
  });

  it('gives keys as Go does: int32(key>>3), the wire type, and the key', () => {
    expect(new Reader(fromHex('0a')).tag()).toEqual([1, 2, 10]);
    expect(new Reader(fromHex('8801')).tag()).toEqual([17, 0, 136]);
    expect(new Reader(fromHex('00')).tag()).toEqual([0, 0, 0]);
  });

  it('skips every wire type and nested groups, and names an illegal one', () => {
    const r = new Reader(fromHex('96011122334455667788' + '0378797a' + '0801' + '0c' + '01020304' + 'ff'));
    r.skip(0);
    r.skip(1);
    r.skip(2);
    r.skip(3); // a group whose start key was read: 0801 0c
    r.skip(5);
    expect(r.pos).toBe(21);
    expect(readError(fromHex('00'), (x) => x.skip(7))).toBe('proto: illegal wireType 7');
    expect(readError(fromHex(''), (x) => x.skip(4))).toBe('proto: unexpected end of group');
  });
});
