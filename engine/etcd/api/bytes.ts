// Keys and values are "binary strings": one char per byte (char codes 0..255),
// so JS string comparison is etcd's byte order (bytes.Compare). These helpers
// convert to and from text and base64 (the grpc-gateway encodes bytes as base64).
import { base64Encode } from '../../sim/base64';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** True if every char code is a byte (0..255). */
export function isBinaryString(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 255) return false;
  return true;
}

/** UTF-8 encodes text into a binary string. */
export function utf8ToBinary(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out += String.fromCharCode(c);
    else if (c < 0x800) out += String.fromCharCode(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out += String.fromCharCode(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else
      out += String.fromCharCode(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

/** Decodes a binary string as UTF-8; invalid sequences become U+FFFD. */
/** Any char outside 7-bit ASCII (where binary and UTF-8 text differ). */
const NON_ASCII = /[^\x00-\x7f]/;

export function binaryToUtf8(bin: string): string {
  // ASCII reads the same as bytes and as UTF-8 text: most keys and JSON values are.
  if (!NON_ASCII.test(bin)) return bin;
  let out = '';
  let i = 0;
  while (i < bin.length) {
    const b0 = bin.charCodeAt(i);
    let need = 0;
    let cp = 0;
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      i++;
      continue;
    } else if (b0 >= 0xc2 && b0 < 0xe0) {
      need = 1;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 < 0xf0) {
      need = 2;
      cp = b0 & 0x0f;
    } else if (b0 >= 0xf0 && b0 < 0xf5) {
      need = 3;
      cp = b0 & 0x07;
    } else {
      out += '\ufffd';
      i++;
      continue;
    }
    let ok = true;
    for (let k = 1; ok && k <= need; k++) {
      const b = i + k < bin.length ? bin.charCodeAt(i + k) : -1;
      if (b < 0x80 || b > 0xbf) ok = false;
      else cp = (cp << 6) | (b & 63);
    }
    const min = need === 1 ? 0x80 : need === 2 ? 0x800 : 0x10000;
    if (!ok || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      out += '\ufffd';
      i++;
      continue;
    }
    out += String.fromCodePoint(cp);
    i += need + 1;
  }
  return out;
}

/** Standard base64 (with padding) of a binary string, as protobuf JSON writes bytes. */
export function binaryToBase64(bin: string): string {
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i) & 255;
  return base64Encode(b);
}

/**
 * Decodes base64 (standard or URL-safe alphabet, padding optional) into a
 * binary string; null if the text is not base64.
 */
export function base64ToBinary(text: string): string | null {
  const clean = text.replace(/[\s=]+$/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (/[^A-Za-z0-9+/]/.test(clean) || clean.length % 4 === 1) return null;
  let out = '';
  for (let i = 0; i < clean.length; i += 4) {
    const c0 = B64.indexOf(clean[i]!);
    const c1 = B64.indexOf(clean[i + 1] ?? 'A');
    const c2 = i + 2 < clean.length ? B64.indexOf(clean[i + 2]!) : 0;
    const c3 = i + 3 < clean.length ? B64.indexOf(clean[i + 3]!) : 0;
    const n = (c0 << 18) | (c1 << 12) | (c2 << 6) | c3;
    out += String.fromCharCode((n >> 16) & 255);
    if (i + 2 < clean.length) out += String.fromCharCode((n >> 8) & 255);
    if (i + 3 < clean.length) out += String.fromCharCode(n & 255);
  }
  return out;
}
