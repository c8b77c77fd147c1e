// The pod-template-hash, after upstream's controller.ComputeHash
// (pkg/controller/controller_utils.go): FNV-32a of the template, then the
// collisionCount as 8 little-endian bytes (the upper 4 zero), rendered with
// rand.SafeEncodeString over the decimal string of the sum.
//
// Upstream feeds the hasher spew's `%#v` dump of the Go struct; we feed the
// template's canonical JSON (keys sorted), so our hashes are stable and
// template-sensitive but not byte-identical to a real cluster's.

/** k8s.io/apimachinery/pkg/util/rand alphanums: no vowels, no confusable 0/1/3. */
export const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += ALPHANUMS[s.charCodeAt(i) % ALPHANUMS.length];
  return out;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function fnv32a(bytes: Iterable<number>, h = FNV_OFFSET): number {
  for (const b of bytes) h = Math.imul(h ^ (b & 0xff), FNV_PRIME) >>> 0;
  return h >>> 0;
}

/** JSON with object keys sorted at every level (spew's SortKeys, for our stand-in dump). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function utf8(s: string): number[] {
  return [...new TextEncoder().encode(s)];
}

/** ComputeHash(template, collisionCount). */
export function computeHash(template: unknown, collisionCount?: number | null): string {
  let h = fnv32a(utf8(canonicalJson(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const c = collisionCount >>> 0;
    h = fnv32a([c & 0xff, (c >>> 8) & 0xff, (c >>> 16) & 0xff, (c >>> 24) & 0xff, 0, 0, 0, 0], h);
  }
  return safeEncodeString(String(h));
}
