import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64Decode, base64Encode, base64UrlDecode, base64UrlEncode } from '../../sim/base64';
import { fromHex, hmacSha256, sha256, toHex, utf8 } from './sha256';

describe('sha256 (FIPS 180-4 / NIST vectors)', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
    ['The quick brown fox jumps over the lazy dog', 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592'],
  ])('sha256(%j)', (input, hex) => {
    expect(toHex(sha256(utf8(input)))).toBe(hex);
  });

  it('one million "a"', () => {
    expect(toHex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('padding boundaries (55, 56, 63, 64 bytes) give distinct 32-byte digests', () => {
    const digests = [55, 56, 63, 64, 119, 120].map((n) => toHex(sha256(new Uint8Array(n).fill(0x61))));
    expect(new Set(digests).size).toBe(digests.length);
    // 56 bytes of "a" is a known boundary case.
    expect(digests[1]).toBe('b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a');
  });
});

describe('HMAC-SHA256 (RFC 4231)', () => {
  const hex = (s: string) => fromHex(s)!;
  it.each([
    ['case 1', hex('0b'.repeat(20)), utf8('Hi There'), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    ['case 2', utf8('Jefe'), utf8('what do ya want for nothing?'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
    ['case 3', hex('aa'.repeat(20)), hex('dd'.repeat(50)), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
    ['case 4', hex('0102030405060708090a0b0c0d0e0f10111213141516171819'), hex('cd'.repeat(50)), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
    [
      'case 6 (key longer than a block)',
      hex('aa'.repeat(131)),
      utf8('Test Using Larger Than Block-Size Key - Hash Key First'),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      'case 7',
      hex('aa'.repeat(131)),
      utf8('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.'),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ])('%s', (_name, key, data, expected) => {
    expect(toHex(hmacSha256(key, data))).toBe(expected);
  });

  it('a key longer than a block acts as its digest', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 65, maxLength: 200 }), fc.uint8Array({ maxLength: 100 }), (key, msg) => {
        expect(toHex(hmacSha256(key, msg))).toBe(toHex(hmacSha256(sha256(key), msg)));
      }),
      { numRuns: 50 },
    );
  });
});

describe('base64', () => {
  it('RFC 4648 vectors', () => {
    const cases: [string, string][] = [['', ''], ['f', 'Zg=='], ['fo', 'Zm8='], ['foo', 'Zm9v'], ['foob', 'Zm9vYg=='], ['fooba', 'Zm9vYmE='], ['foobar', 'Zm9vYmFy']];
    for (const [plain, enc] of cases) {
      expect(base64Encode(utf8(plain))).toBe(enc);
      expect(toHex(base64Decode(enc)!)).toBe(toHex(utf8(plain)));
      expect(base64UrlEncode(utf8(plain))).toBe(enc.replace(/=+$/, ''));
    }
    expect(base64UrlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
  });

  it('round-trips any bytes; rejects junk', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        expect(toHex(base64UrlDecode(base64UrlEncode(b))!)).toBe(toHex(b));
        expect(toHex(base64Decode(base64Encode(b))!)).toBe(toHex(b));
      }),
    );
    expect(base64UrlDecode('a')).toBeUndefined();
    expect(base64UrlDecode('ab$d')).toBeUndefined();
    expect(base64UrlDecode('Zh')).toBeUndefined(); // stray low bits: not canonical
  });
});
