import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64Decode, base64DecodeLenient, base64Encode, base64UrlDecode, base64UrlEncode } from './base64';

const bytesOf = (s: string) => new Uint8Array([...s].map((c) => c.charCodeAt(0)));

describe('base64', () => {
  it('matches the standard padded and the raw URL encodings', () => {
    for (const s of ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar', '\u00ff\u0000\u00fe', '\u00fb\u00ff']) {
      const bytes = bytesOf(s);
      expect(base64Encode(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64UrlEncode(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });

  it('round-trips every decoder (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const std = base64Encode(b);
        return (
          Buffer.from(base64Decode(std)!).equals(Buffer.from(b)) &&
          Buffer.from(base64DecodeLenient(std)!).equals(Buffer.from(b)) &&
          Buffer.from(base64UrlDecode(base64UrlEncode(b))!).equals(Buffer.from(b))
        );
      }),
      { numRuns: 300 },
    );
  });

  it('refuses text that is not base64', () => {
    for (const decode of [base64Decode, base64DecodeLenient, base64UrlDecode]) {
      expect(decode('a$bc')).toBeUndefined();
      expect(decode('abcde')).toBeUndefined();
    }
    expect(base64UrlDecode('a+bc')).toBeUndefined();
    expect(base64Decode('a-bc')).toBeUndefined();
  });

  it('strict decoders refuse stray low bits and short padding; the lenient one takes them and line breaks', () => {
    expect(base64Decode('Zh==')).toBeUndefined();
    expect(base64UrlDecode('Zh')).toBeUndefined();
    expect([...base64DecodeLenient('Zh==')!]).toEqual([0x66]);
    expect(base64Decode('Zg=')).toBeUndefined();
    expect([...base64DecodeLenient('Zg=')!]).toEqual([0x66]);
    expect([...base64Decode('Zg')!]).toEqual([0x66]);
    expect([...base64DecodeLenient('Zm9v\r\nYmFy')!]).toEqual([...bytesOf('foobar')]);
    expect(base64Decode('Zm9v\nYmFy')).toBeUndefined();
  });
});
