// Protocol-buffer wire format: a reader and a writer over bytes, nothing
// schema-aware. Errors carry the texts of gogo/protobuf's generated
// Unmarshal code (io.ErrUnexpectedEOF, ErrIntOverflowGenerated,
// ErrInvalidLengthGenerated), which the apiserver passes to the client.
//
// 64-bit integers are JS numbers: exact within ±2^53 (Number.MAX_SAFE_INTEGER),
// which covers every count, size and Unix second Kubernetes objects carry.
// Beyond that the reader returns the nearest double (documented loss).

export const WireType = {
  varint: 0,
  fixed64: 1,
  bytes: 2,
  startGroup: 3,
  endGroup: 4,
  fixed32: 5,
} as const;
export type WireType = (typeof WireType)[keyof typeof WireType];

/** A decode failure: the message an apiserver built from Go would report. */
export class WireError {
  constructor(readonly message: string) {}
}

export const errUnexpectedEOF = 'unexpected EOF';
export const errIntOverflow = 'proto: integer overflow';
export const errInvalidLength = 'proto: negative length found during unmarshaling';
export const errUnexpectedEndOfGroup = 'proto: unexpected end of group';

const TWO_32 = 4294967296;

/**
 * Reads one message's bytes. Methods return values and throw WireError on
 * malformed input; codec.ts turns that into a `{ ok: false }` result at its
 * boundary (one try/catch there, so the hot paths stay plain).
 */
export class Reader {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    readonly end = buf.length,
    start = 0,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** A varint as two unsigned 32-bit halves. */
  private varint64(): [lo: number, hi: number] {
    let lo = 0;
    let hi = 0;
    for (let shift = 0; ; shift += 7) {
      // gogo: `if shift >= 64 { return ErrIntOverflowGenerated }`
      if (shift >= 64) throw new WireError(errIntOverflow);
      if (this.pos >= this.end) throw new WireError(errUnexpectedEOF);
      const b = this.buf[this.pos++]!;
      const bits = b & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (shift - 32);
      if (b < 0x80) break;
    }
    return [lo >>> 0, hi >>> 0];
  }

  /** uint64 as a number (exact below 2^53). */
  uint64(): number {
    const [lo, hi] = this.varint64();
    return hi * TWO_32 + lo;
  }

  /** int64 (two's complement in ten bytes when negative). */
  int64(): number {
    const [lo, hi] = this.varint64();
    if (hi & 0x80000000) return -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1);
    return hi * TWO_32 + lo;
  }

  /** int32: Go truncates the varint to its low 32 bits. */
  int32(): number {
    return this.varint64()[0] | 0;
  }

  uint32(): number {
    return this.varint64()[0];
  }

  bool(): boolean {
    const [lo, hi] = this.varint64();
    return lo !== 0 || hi !== 0;
  }

  /** A length prefix as generated code checks it. */
  length(): number {
    const [lo, hi] = this.varint64();
    // Go reads it into an int: anything with the top bit set is negative.
    if (hi & 0x80000000) throw new WireError(errInvalidLength);
    const n = hi * TWO_32 + lo;
    if (this.pos + n > this.end) throw new WireError(errUnexpectedEOF);
    return n;
  }

  /** The bytes of a length-delimited field (a view, not a copy). */
  bytes(): Uint8Array {
    const n = this.length();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    return utf8Decode(this.bytes());
  }

  fixed32(): Uint8Array {
    if (this.pos + 4 > this.end) throw new WireError(errUnexpectedEOF);
    const out = this.buf.subarray(this.pos, this.pos + 4);
    this.pos += 4;
    return out;
  }

  fixed64(): Uint8Array {
    if (this.pos + 8 > this.end) throw new WireError(errUnexpectedEOF);
    const out = this.buf.subarray(this.pos, this.pos + 8);
    this.pos += 8;
    return out;
  }

  double(): number {
    const b = this.fixed64();
    return new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true);
  }

  float(): number {
    const b = this.fixed32();
    return new DataView(b.buffer, b.byteOffset, 4).getFloat32(0, true);
  }

  /**
   * A field key: [fieldNumber, wireType, key]. The number is Go's int32 cast
   * of key>>3, so it may be 0 or negative; callers check (and quote `key`,
   * as the generated code does).
   */
  tag(): [number, number, number] {
    const [lo, hi] = this.varint64();
    const num = ((lo >>> 3) | (hi << 29)) | 0;
    return [num, lo & 7, hi * TWO_32 + lo];
  }

  /** Skips one field from its key on, like gogo's skipGenerated (groups nest). */
  skip(wire: number): void {
    let depth = 0;
    for (;;) {
      switch (wire) {
        case WireType.varint:
          // skipGenerated scans to the last byte without an overflow check
          for (;;) {
            if (this.pos >= this.end) throw new WireError(errUnexpectedEOF);
            if (this.buf[this.pos++]! < 0x80) break;
          }
          break;
        case WireType.fixed64:
          this.fixed64();
          break;
        case WireType.bytes:
          this.bytes();
          break;
        case WireType.startGroup:
          depth++;
          break;
        case WireType.endGroup:
          if (depth === 0) throw new WireError(errUnexpectedEndOfGroup);
          depth--;
          break;
        case WireType.fixed32:
          this.fixed32();
          break;
        default:
          throw new WireError(`proto: illegal wireType ${wire}`);
      }
      if (depth === 0) return;
      if (this.pos >= this.end) throw new WireError(errUnexpectedEOF);
      wire = this.tag()[1];
    }
  }
}

/** Appends protobuf wire data; `finish()` returns the bytes. */
export class Writer {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  private byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  /** Unsigned varint of a non-negative number (exact below 2^53). */
  uvarint(n: number): void {
    let lo = n >>> 0;
    let hi = Math.floor(n / TWO_32) >>> 0;
    this.varint64(lo, hi);
  }

  /** Signed varint as Go writes int32/int64: negatives take ten bytes. */
  varint(n: number): void {
    if (n >= 0) return this.uvarint(n);
    const abs = -n;
    // two's complement of a 64-bit value from its magnitude
    let lo = ~(abs >>> 0) >>> 0;
    let hi = ~Math.floor(abs / TWO_32) >>> 0;
    lo = (lo + 1) >>> 0;
    if (lo === 0) hi = (hi + 1) >>> 0;
    this.varint64(lo, hi);
  }

  private varint64(lo: number, hi: number): void {
    while (hi !== 0 || lo > 0x7f) {
      this.byte((lo & 0x7f) | 0x80);
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    this.byte(lo);
  }

  tag(field: number, wire: WireType): void {
    this.uvarint(field * 8 + wire);
  }

  bytes(b: Uint8Array): void {
    this.uvarint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  string(s: string): void {
    this.bytes(utf8Encode(s));
  }

  double(n: number): void {
    this.ensure(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 8).setFloat64(0, n, true);
    this.len += 8;
  }

  float(n: number): void {
    this.ensure(4);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 4).setFloat32(0, n, true);
    this.len += 4;
  }

  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /**
   * Reserves five bytes for a length not known yet (a nested message being
   * written); `fillLength` writes it there as a padded varint (continuation
   * bits on the leading groups), which every protobuf decoder accepts.
   */
  reserveLength(): number {
    this.ensure(5);
    const at = this.len;
    this.len += 5;
    return at;
  }

  fillLength(at: number): void {
    let n = this.len - at - 5;
    for (let i = 0; i < 5; i++) {
      this.buf[at + i] = (n & 0x7f) | (i < 4 ? 0x80 : 0);
      n = Math.floor(n / 128);
    }
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

// Go strings are bytes; the JSON encoder replaces invalid UTF-8 with U+FFFD,
// which is what a non-fatal TextDecoder does.
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

export function utf8Decode(b: Uint8Array): string {
  return decoder.decode(b);
}

export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s);
}
