// Go's len() of a string: its UTF-8 bytes, not UTF-16 units (a lone surrogate
// counts as the three bytes of U+FFFD, as TextEncoder writes it).
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}
