import { describe, expect, it } from 'vitest';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, regexError } from './names';

describe('util/validation name formats', () => {
  it('builds RegexError as upstream does (two spaces before each "or")', () => {
    expect(regexError('bad', 'x+')).toBe("bad (regex used for validation is 'x+')");
    expect(regexError('bad', 'x+', 'a', 'b')).toBe("bad (e.g. 'a',  or 'b', regex used for validation is 'x+')");
  });

  it('qualified names: prefix, name part and the shape errors', () => {
    expect(isQualifiedName('example.com/MyName')).toEqual([]);
    expect(isQualifiedName('/x')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/'/);
    expect(isQualifiedName('Foo.com/x')[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain/);
    expect(isQualifiedName('x'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
  });

  it('labels and DNS names', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('-a')).toHaveLength(1);
    expect(isDNS1123Label('my-name')).toEqual([]);
    expect(isDNS1123Label('My')).toHaveLength(1);
    expect(isDNS1123Subdomain('a.b')).toEqual([]);
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });

  it('counts lengths in UTF-8 bytes, as Go len() does', () => {
    // 32 two-byte characters: 32 UTF-16 units but 64 bytes, over the 63 limit.
    expect(isValidLabelValue('é'.repeat(32))[0]).toBe('must be no more than 63 characters');
  });
});
