// Base64 (RFC 4648 §4, padded) and base64url (§5, unpadded, as JWS uses it),
// written out because the engine must not depend on Buffer or atob. The one
// implementation for the engine: snapshots, etcd bytes, tokens, protobuf and
// Secret data all encode through it.

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function encode(b: Uint8Array, alphabet: string, pad: boolean): string {
  let out = '';
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = b.length - i;
  if (rest === 1) {
    const n = b[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? '=' : '');
  }
  return out;
}

/** Decodes unpadded text; `strictBits` rejects stray low bits in the last character. */
function decode(s: string, alphabet: string, strictBits: boolean): Uint8Array | undefined {
  if (s.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((s.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (const ch of s) {
    const v = alphabet.indexOf(ch);
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if (strictBits && (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

export function base64Encode(b: Uint8Array): string {
  return encode(b, STD, true);
}

export function base64UrlEncode(b: Uint8Array): string {
  return encode(b, URL, false);
}

/**
 * Decodes standard base64 (how Secret.data travels in JSON); padding may be left
 * out but, when present, must complete the last group. Non-canonical encodings
 * (stray low bits) are rejected. Undefined when malformed.
 */
export function base64Decode(s: string): Uint8Array | undefined {
  if (s.length % 4 !== 0 && s.includes('=')) return undefined;
  return decode(s.replace(/=+$/, ''), STD, true);
}

/** Decodes unpadded base64url strictly (Go's RawURLEncoding.Strict); undefined when malformed. */
export function base64UrlDecode(s: string): Uint8Array | undefined {
  return decode(s, URL, true);
}

/** Lenient standard base64: line breaks skipped, padding optional, stray low bits ignored. */
export function base64DecodeLenient(s: string): Uint8Array | undefined {
  return decode(s.replace(/[\r\n]/g, '').replace(/=+$/, ''), STD, false);
}
