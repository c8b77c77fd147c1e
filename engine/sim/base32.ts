// Base32 (RFC 4648 §6) as Go's encoding/base32 StdEncoding writes it, upper
// case and padded; the engine's names hashed into base32 (kube-proxy's iptables
// chains, the API server's identity Lease) encode through it.

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32(bytes: Uint8Array, pad = true): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += STD[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += STD[(acc << (5 - bits)) & 31];
  if (pad) while (out.length % 8) out += '=';
  return out;
}
