// Compact JWS (RFC 7515) with HS256. Upstream signs service-account tokens with
// RS256/ES256 (pkg/serviceaccount/jwt.go); a simulation needs no asymmetric
// crypto, so the header says HS256 honestly and the rest of the shape is the same.
import { base64UrlDecode, base64UrlEncode } from '../../sim/base64';
import { bytesEqual, fromUtf8, hmacSha256, sha256, utf8 } from './sha256';

export interface JwtHeader {
  alg: string;
  kid?: string;
  typ?: string;
}

export type JwtParse =
  | { type: 'notJwt' }
  | { type: 'malformed'; reason: string }
  | { type: 'parsed'; header: JwtHeader; claims: Record<string, unknown>; signingInput: string; signature: Uint8Array };

/** Key id derived from the key, as upstream derives it from the public key's DER. */
export function keyId(key: Uint8Array): string {
  return base64UrlEncode(sha256(key));
}

export function signJwt(claims: Record<string, unknown>, key: Uint8Array): string {
  const header: JwtHeader = { alg: 'HS256', kid: keyId(key) };
  const signingInput = `${base64UrlEncode(utf8(JSON.stringify(header)))}.${base64UrlEncode(utf8(JSON.stringify(claims)))}`;
  return `${signingInput}.${base64UrlEncode(hmacSha256(key, utf8(signingInput)))}`;
}

function parseJson(part: string): Record<string, unknown> | undefined {
  const bytes = base64UrlDecode(part);
  if (!bytes) return undefined;
  const text = fromUtf8(bytes);
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits and decodes a token without checking the signature. Tokens that do not
 * have three dot-separated parts are `notJwt` (other token authenticators may own them),
 * as upstream's jwtTokenAuthenticator first checks the shape.
 */
export function parseJwt(token: string): JwtParse {
  const parts = token.split('.');
  if (parts.length !== 3) return { type: 'notJwt' };
  const [h, c, s] = parts as [string, string, string];
  const header = parseJson(h);
  const claims = parseJson(c);
  const signature = base64UrlDecode(s);
  if (!header || typeof header.alg !== 'string') return { type: 'malformed', reason: 'malformed header' };
  if (!claims) return { type: 'malformed', reason: 'malformed claims' };
  if (!signature) return { type: 'malformed', reason: 'malformed signature' };
  return { type: 'parsed', header: header as unknown as JwtHeader, claims, signingInput: `${h}.${c}`, signature };
}

export function verifyJwtSignature(parsed: Extract<JwtParse, { type: 'parsed' }>, key: Uint8Array): boolean {
  if (parsed.header.alg !== 'HS256') return false;
  return bytesEqual(hmacSha256(key, utf8(parsed.signingInput)), parsed.signature);
}
