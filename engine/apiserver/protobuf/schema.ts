// The message table the codec walks: every message of the API groups the
// server serves, extracted from kubectl v1.32.4 (see README.md and
// scripts/protobuf/extract.ts). Read-only data; nothing here holds state.
import data from './schema.generated.json';

export type ScalarType = 'string' | 'bool' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'double' | 'float' | 'bytes';

/**
 * One field: [protobuf number, JSON name, type, flags, Go field name].
 * `type` is a ScalarType or a full message name (`k8s.io.api.core.v1.Container`);
 * for maps it is the value type (keys are always strings in Kubernetes).
 * Flags, one letter each:
 *   r repeated (Go slice)    m map (map[string]T)
 *   n nullable (Go pointer: on the wire only when set; in JSON even when zero)
 *   o omitempty in the Go json tag
 *   i inlined (embedded struct with json:",inline": its fields join the parent's)
 *   - json:"-" (never in JSON)
 *   ? no Go struct found in the binary (omitempty assumed)
 */
export type FieldTuple = [number: number, json: string, type: string, flags: string, goName: string];

export interface MessageEntry {
  /** Fields in Go struct order (the order Go's encoding/json writes them). */
  f: FieldTuple[];
  /** 1 when the Go type embeds TypeMeta: a kind that travels in runtime.Unknown. */
  k?: 1;
  /** 1 when the Go type is a named slice of its `items` field (authentication/v1 ExtraValue, meta/v1 Verbs). */
  s?: 1;
}

export interface SchemaFile {
  $comment: string;
  source: { binary: string; kubernetes: string; go: string; note: string };
  /** protobuf package → Go import path. */
  packages: Record<string, string>;
  messages: Record<string, MessageEntry>;
}

export const schema = data as unknown as SchemaFile;

/** A field, decoded once from its tuple. */
export interface FieldInfo {
  number: number;
  json: string;
  type: string;
  goName: string;
  repeated: boolean;
  map: boolean;
  nullable: boolean;
  omitempty: boolean;
  inline: boolean;
  skipJson: boolean;
  /** a message type (not a scalar) */
  message: boolean;
}

export interface MessageInfo {
  name: string;
  /** The unqualified name, as gogo's error texts give it. */
  short: string;
  fields: FieldInfo[];
  /** Fields by number. */
  byNumber: Map<number, FieldInfo>;
  /** Fields by number, ascending: gogo's marshal order. */
  wireOrder: FieldInfo[];
  kind: boolean;
  slice: boolean;
}

const SCALARS = new Set<string>(['string', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'double', 'float', 'bytes']);

export function isScalar(type: string): type is ScalarType {
  return SCALARS.has(type);
}

/** Builds the field views of a schema file (pure; callers cache the result). */
export function indexSchema(file: SchemaFile): Map<string, MessageInfo> {
  const out = new Map<string, MessageInfo>();
  for (const [name, entry] of Object.entries(file.messages)) {
    const fields = entry.f.map(([number, json, type, flags, goName]): FieldInfo => {
      const omitempty = flags.includes('o') || flags.includes('?');
      return {
        number,
        json,
        type,
        goName,
        repeated: flags.includes('r'),
        map: flags.includes('m'),
        nullable: flags.includes('n'),
        omitempty,
        inline: flags.includes('i'),
        skipJson: flags.includes('-'),
        message: !isScalar(type),
      };
    });
    out.set(name, {
      name,
      short: name.slice(name.lastIndexOf('.') + 1),
      fields,
      byNumber: new Map(fields.map((f) => [f.number, f])),
      wireOrder: [...fields].sort((a, b) => a.number - b.number),
      kind: entry.k === 1,
      slice: entry.s === 1,
    });
  }
  return out;
}

/** Proto package of an API group version: `apps/v1` → `k8s.io.api.apps.v1`. */
export function packageForApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (group === '') return `k8s.io.api.core.${version}`;
  if (group === 'meta.k8s.io') return `k8s.io.apimachinery.pkg.apis.meta.${version}`;
  if (group === 'internal.apiserver.k8s.io') return `k8s.io.api.apiserverinternal.${version}`;
  return `k8s.io.api.${group.split('.')[0]}.${version}`;
}

/** Packages whose types the table holds (protobuf package → Go import path). */
export const META_V1 = 'k8s.io.apimachinery.pkg.apis.meta.v1';
