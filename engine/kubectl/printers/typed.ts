// An object as a typed Go client holds it: what `-o json` prints for the
// objects kubectl builds or decodes into Go structs (the create generators,
// their server answers). encoding/json writes a struct's fields in declaration
// order, drops omitempty zero values and writes the rest even when zero, so
// the object goes through the protobuf table (the same Go types, in struct
// order: apiserver/protobuf/schema.ts) and back. TypeMeta comes first, kind
// before apiVersion. Kinds the table lacks are left as they are.
import { decodeK8sProtobuf, encodeK8sProtobuf, protobufMessageFor } from '../../apiserver/protobuf/codec';

type Obj = Record<string, any>;

export function asTypedStruct(obj: Obj): Obj {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (!protobufMessageFor(apiVersion, kind)) return obj;
  let d: ReturnType<typeof decodeK8sProtobuf>;
  try {
    d = decodeK8sProtobuf(encodeK8sProtobuf(obj));
  } catch {
    return obj; // a value the Go type would not hold: print what there is
  }
  if (!d.ok) return obj;
  const { kind: k, apiVersion: v, ...rest } = d.object as Obj;
  return { kind: k, apiVersion: v, ...rest } as Obj;
}
