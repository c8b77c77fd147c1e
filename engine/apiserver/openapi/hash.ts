// A deterministic content hash for /openapi/v3's serverRelativeURL
// (`?hash=...`). Upstream uses the SHA-512 of the document
// (kube-openapi/pkg/handler3: computeETag); clients only compare it, so any
// stable digest of the text serves. Two independent 32-bit FNV-1a-style lanes
// give 64 bits, printed as 16 upper-case hex digits like upstream's %X.

export function documentHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  const hex = (n: number) => (n >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return hex(a) + hex(b);
}
