// Reads the Go type metadata of a stripped linux/amd64 Go binary (built with
// Go 1.20–1.23: abi.Type of 48 bytes, varint-prefixed names) to recover the
// struct tags of the Kubernetes API types: their `json:"…"` tags say which
// fields are omitempty and which are inlined, which the .proto descriptors
// cannot. Build-time only; see README.md.
//
// Layouts (internal/abi/type.go, runtime/symtab.go moduledata):
//   abi.Type  { Size_, PtrBytes uintptr; Hash uint32; TFlag, Align_, FieldAlign_, Kind_ uint8;
//               Equal func; GCData *byte; Str NameOff; PtrToThis TypeOff }         (48 bytes)
//   StructType{ Type; PkgPath Name; Fields []StructField }                          (80 bytes)
//   StructField{ Name Name; Typ *Type; Offset uintptr }                             (24 bytes)
//   UncommonType follows the kind-specific part: { PkgPath NameOff; Mcount, Xcount uint16; Moff uint32; _ uint32 }
//   Name bytes: flags (1 exported, 2 tag, 4 pkgPath, 8 embedded), varint len, bytes, [varint len, tag]
//   moduledata: pcHeader at 0, …, types at 296, etypes at 304, …, typelinks []int32 at 352.

export interface GoField {
  name: string;
  tag: string;
  embedded: boolean;
}

export interface GoNamedType {
  pkgPath: string;
  /** Unqualified type name, e.g. `Container`. */
  name: string;
  /** reflect.Kind: 23 slice, 25 struct, … */
  kind: number;
  fields: GoField[];
}

interface Section {
  name: string;
  addr: number;
  offset: number;
  size: number;
}

const KIND_ARRAY = 17;
const KIND_CHAN = 18;
const KIND_MAP = 21;
const KIND_PTR = 22;
const KIND_SLICE = 23;
const KIND_STRUCT = 25;
const TFLAG_UNCOMMON = 1;
const TFLAG_EXTRA_STAR = 2;
const TFLAG_NAMED = 4;

export function readGoTypes(bin: Uint8Array): GoNamedType[] {
  const view = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const sections = elfSections(bin, view);
  const sec = (n: string): Section => {
    const s = sections.find((x) => x.name === n);
    if (!s) throw new Error(`no ${n} section`);
    return s;
  };
  const off = (addr: number): number => {
    for (const s of sections) if (s.addr !== 0 && addr >= s.addr && addr < s.addr + s.size) return s.offset + (addr - s.addr);
    throw new Error(`address 0x${addr.toString(16)} outside the file`);
  };
  const u64 = (addr: number): number => Number(view.getBigUint64(off(addr), true));
  const i32 = (addr: number): number => view.getInt32(off(addr), true);
  const u8 = (addr: number): number => bin[off(addr)]!;

  // moduledata starts with a pointer to the pclntab header.
  const pcln = sec('.gopclntab').addr;
  const noptr = sec('.noptrdata');
  let md = -1;
  for (let o = noptr.offset; o + 8 <= noptr.offset + noptr.size; o += 8) {
    if (Number(view.getBigUint64(o, true)) !== pcln) continue;
    const cand = noptr.addr + (o - noptr.offset);
    if (u64(cand + 352) === sec('.typelink').addr) {
      md = cand;
      break;
    }
  }
  if (md < 0) throw new Error('moduledata not found (not a Go 1.20–1.23 amd64 binary?)');
  const types = u64(md + 296);
  const typelinks = u64(md + 352);
  const ntypelinks = u64(md + 360);

  const readName = (addr: number): { flags: number; name: string; tag: string } => {
    let o = off(addr);
    const flags = bin[o++]!;
    const varint = (): number => {
      let v = 0;
      for (let s = 0; ; s += 7) {
        const b = bin[o++]!;
        v |= (b & 0x7f) << s;
        if (b < 0x80) return v;
      }
    };
    const n = varint();
    const name = new TextDecoder().decode(bin.subarray(o, o + n));
    o += n;
    let tag = '';
    if (flags & 2) {
      const t = varint();
      tag = new TextDecoder().decode(bin.subarray(o, o + t));
    }
    return { flags, name, tag };
  };

  const roots: number[] = [];
  for (let i = 0; i < ntypelinks; i++) roots.push(types + i32(typelinks + 4 * i));
  // itabs name the concrete types behind interfaces (every runtime.Object).
  const itab = sec('.itablink');
  for (let o = 0; o + 8 <= itab.size; o += 8) {
    const p = u64(itab.addr + o);
    if (p !== 0) roots.push(u64(p + 8));
  }

  const seen = new Set<number>();
  const out: GoNamedType[] = [];
  while (roots.length > 0) {
    const t = roots.pop()!;
    if (t === 0 || seen.has(t)) continue;
    seen.add(t);
    const tflag = u8(t + 20);
    const kind = u8(t + 23) & 0x1f;
    const ptrToThis = i32(t + 44);
    if (ptrToThis !== 0) roots.push(types + ptrToThis);
    let str = readName(types + i32(t + 40)).name;
    if (tflag & TFLAG_EXTRA_STAR) str = str.slice(1);
    let uncommonAt = 0;
    const fields: GoField[] = [];
    switch (kind) {
      case KIND_PTR:
      case KIND_SLICE:
      case KIND_CHAN:
        roots.push(u64(t + 48));
        uncommonAt = kind === KIND_CHAN ? 64 : 56;
        break;
      case KIND_ARRAY:
        roots.push(u64(t + 48));
        uncommonAt = 72;
        break;
      case KIND_MAP:
        roots.push(u64(t + 48), u64(t + 56));
        uncommonAt = 88;
        break;
      case KIND_STRUCT: {
        const fp = u64(t + 56);
        const fn = u64(t + 64);
        for (let i = 0; i < fn; i++) {
          const f = fp + 24 * i;
          const n = readName(u64(f));
          fields.push({ name: n.name, tag: n.tag, embedded: (n.flags & 8) !== 0 });
          roots.push(u64(f + 8));
        }
        uncommonAt = 80;
        break;
      }
      default:
        continue; // funcs, interfaces, scalars: nothing we need
    }
    // Pointer types carry an uncommon part too (their methods), but no name.
    if (!(tflag & TFLAG_NAMED) || !(tflag & TFLAG_UNCOMMON) || uncommonAt === 0) continue;
    const pkgPath = readName(types + i32(t + uncommonAt)).name;
    const dot = str.lastIndexOf('.');
    out.push({ pkgPath, name: dot >= 0 ? str.slice(dot + 1) : str, kind, fields });
  }
  return out;
}

function elfSections(bin: Uint8Array, view: DataView): Section[] {
  if (bin[0] !== 0x7f || bin[1] !== 0x45 || bin[2] !== 0x4c || bin[3] !== 0x46 || bin[4] !== 2 || bin[5] !== 1) {
    throw new Error('not a little-endian 64-bit ELF file');
  }
  const shoff = Number(view.getBigUint64(0x28, true));
  const shentsize = view.getUint16(0x3a, true);
  const shnum = view.getUint16(0x3c, true);
  const shstrndx = view.getUint16(0x3e, true);
  const raw: { nameOff: number; addr: number; offset: number; size: number }[] = [];
  for (let i = 0; i < shnum; i++) {
    const b = shoff + i * shentsize;
    raw.push({
      nameOff: view.getUint32(b, true),
      addr: Number(view.getBigUint64(b + 16, true)),
      offset: Number(view.getBigUint64(b + 24, true)),
      size: Number(view.getBigUint64(b + 32, true)),
    });
  }
  const strtab = raw[shstrndx]!;
  return raw.map((s) => {
    let e = strtab.offset + s.nameOff;
    while (bin[e] !== 0) e++;
    return { name: new TextDecoder().decode(bin.subarray(strtab.offset + s.nameOff, e)), addr: s.addr, offset: s.offset, size: s.size };
  });
}
