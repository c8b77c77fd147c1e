// A minimal reader of google.protobuf.FileDescriptorProto (descriptor.proto),
// enough for the message/field shapes Kubernetes' generated.proto files use,
// plus the gogoproto field options go-to-protobuf sets. Build-time only.
import { Reader } from '../wire';

export interface ProtoField {
  name: string;
  number: number;
  /** 1 optional, 2 required, 3 repeated (descriptor.proto Label). */
  label: number;
  /** descriptor.proto Type: 1 double … 18 sint64. */
  type: number;
  /** `.pkg.Message` for message fields. */
  typeName: string;
  /** gogoproto.nullable; undefined when not set (gogo's default: nullable). */
  nullable: boolean | undefined;
  /** gogoproto.customname: the Go field name when it differs from CamelCase(name). */
  customName: string | undefined;
}

export interface ProtoMessage {
  name: string;
  fields: ProtoField[];
  nested: ProtoMessage[];
  mapEntry: boolean;
}

export interface ProtoFile {
  name: string;
  package: string;
  dependencies: string[];
  messages: ProtoMessage[];
  goPackage: string;
}

/** Decodes a FileDescriptorProto; throws on malformed input (build-time tool). */
export function parseFileDescriptor(bytes: Uint8Array): ProtoFile {
  const r = new Reader(bytes);
  const file: ProtoFile = { name: '', package: '', dependencies: [], messages: [], goPackage: '' };
  while (!r.done()) {
    const [num, wire] = r.tag();
    if (num === 1 && wire === 2) file.name = r.string();
    else if (num === 2 && wire === 2) file.package = r.string();
    else if (num === 3 && wire === 2) file.dependencies.push(r.string());
    else if (num === 4 && wire === 2) file.messages.push(parseMessage(r.bytes()));
    else if (num === 8 && wire === 2) file.goPackage = parseFileOptions(r.bytes());
    else r.skip(wire);
  }
  return file;
}

function parseFileOptions(bytes: Uint8Array): string {
  const r = new Reader(bytes);
  let goPackage = '';
  while (!r.done()) {
    const [num, wire] = r.tag();
    if (num === 11 && wire === 2) goPackage = r.string();
    else r.skip(wire);
  }
  return goPackage;
}

function parseMessage(bytes: Uint8Array): ProtoMessage {
  const r = new Reader(bytes);
  const m: ProtoMessage = { name: '', fields: [], nested: [], mapEntry: false };
  while (!r.done()) {
    const [num, wire] = r.tag();
    if (num === 1 && wire === 2) m.name = r.string();
    else if (num === 2 && wire === 2) m.fields.push(parseField(r.bytes()));
    else if (num === 3 && wire === 2) m.nested.push(parseMessage(r.bytes()));
    else if (num === 7 && wire === 2) m.mapEntry = parseMessageOptions(r.bytes());
    else r.skip(wire);
  }
  return m;
}

function parseMessageOptions(bytes: Uint8Array): boolean {
  const r = new Reader(bytes);
  let mapEntry = false;
  while (!r.done()) {
    const [num, wire] = r.tag();
    if (num === 7 && wire === 0) mapEntry = r.bool();
    else r.skip(wire);
  }
  return mapEntry;
}

function parseField(bytes: Uint8Array): ProtoField {
  const r = new Reader(bytes);
  const f: ProtoField = { name: '', number: 0, label: 1, type: 0, typeName: '', nullable: undefined, customName: undefined };
  while (!r.done()) {
    const [num, wire] = r.tag();
    if (num === 1 && wire === 2) f.name = r.string();
    else if (num === 3 && wire === 0) f.number = r.int32();
    else if (num === 4 && wire === 0) f.label = r.int32();
    else if (num === 5 && wire === 0) f.type = r.int32();
    else if (num === 6 && wire === 2) f.typeName = r.string();
    else if (num === 8 && wire === 2) parseFieldOptions(r.bytes(), f);
    else r.skip(wire);
  }
  return f;
}

/** gogoproto extensions of FieldOptions (github.com/gogo/protobuf/gogoproto/gogo.proto). */
const GOGO_NULLABLE = 65001;
const GOGO_CUSTOMNAME = 65004;

function parseFieldOptions(bytes: Uint8Array, f: ProtoField): void {
  const r = new Reader(bytes);
  while (!r.done()) {
    const [num, wire] = r.tag();
    if (num === GOGO_NULLABLE && wire === 0) f.nullable = r.bool();
    else if (num === GOGO_CUSTOMNAME && wire === 2) f.customName = r.string();
    else r.skip(wire);
  }
}
