// List continuation tokens as k8s.io/apiserver/pkg/storage/continue.go makes
// them: base64 of {"v":"meta.k8s.io/v1","rv":REV,"start":"KEY-SUFFIX"}, where
// start is the key (below the resource prefix) to continue from.
import { base64Encode } from '../../sim/base64';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function b64decode(s: string): string | null {
  const clean = s.replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(clean)) return null;
  const bytes: number[] = [];
  let buf = 0;
  let bits = 0;
  for (const ch of clean) {
    buf = (buf << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buf >> bits) & 0xff);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

export function encodeContinue(startKeySuffix: string, rv: number): string {
  return base64Encode(new TextEncoder().encode(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: startKeySuffix })));
}

export type DecodedContinue = { ok: true; rv: number; start: string } | { ok: false; message: string };

/** Decodes a token; messages as storage.DecodeContinue / the list handler report them. */
export function decodeContinue(token: string): DecodedContinue {
  const text = b64decode(token);
  if (text === null) return { ok: false, message: `continue key is not valid: illegal base64 data at input byte 0` };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, message: 'continue key is not valid: invalid character' };
  }
  const o = v as { v?: unknown; rv?: unknown; start?: unknown };
  if (o.v !== 'meta.k8s.io/v1') return { ok: false, message: 'continue key is not valid: server does not recognize this encoded key' };
  if (typeof o.rv !== 'number' || typeof o.start !== 'string' || o.start === '') return { ok: false, message: 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)' };
  if (o.start.includes('..') || o.start.startsWith('/')) return { ok: false, message: 'continue key is not valid: path traversal attempt' };
  return { ok: true, rv: o.rv, start: o.start };
}
