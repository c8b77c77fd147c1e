// CRC-32C (Castagnoli), the checksum etcd's HashKV uses (server/mvcc/hash.go).
// The table is computed once and never written afterwards.

const Table: readonly number[] = (() => {
  const t: number[] = [];
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t.push(c >>> 0);
  }
  return t;
})();

/** Continues a CRC-32C over a binary string (pass the previous result, 0 to start). */
export function crc32cUpdate(crc: number, bin: string): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bin.length; i++) c = Table[(c ^ bin.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
