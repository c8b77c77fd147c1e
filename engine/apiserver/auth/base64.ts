// Base64 (RFC 4648 §4) and base64url without padding (§5, as JWS uses it),
// written out because the engine must not depend on Buffer.

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

function decode(s: string, alphabet: string): Uint8Array | undefined {
  if (s.length % 4 === 1) return undefined;
  const vals: number[] = [];
  for (const ch of s) {
    const v = alphabet.indexOf(ch);
    if (v < 0) return undefined;
    vals.push(v);
  }
  const out = new Uint8Array(Math.floor((vals.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (const v of vals) {
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // Non-canonical encodings (stray low bits) are rejected, as Go's RawURLEncoding does in strict mode.
  if ((acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

export function base64UrlEncode(b: Uint8Array): string {
  return encode(b, URL, false);
}

/** Decodes unpadded base64url; undefined when malformed. */
export function base64UrlDecode(s: string): Uint8Array | undefined {
  return decode(s, URL);
}

export function base64Encode(b: Uint8Array): string {
  return encode(b, STD, true);
}

/** Decodes padded standard base64 (how Secret.data travels in JSON); undefined when malformed. */
export function base64Decode(s: string): Uint8Array | undefined {
  const trimmed = s.replace(/=+$/, '');
  if (s.length % 4 !== 0 && s.includes('=')) return undefined;
  return decode(trimmed, STD);
}
