// Regenerates engine/apiserver/protobuf/schema.generated.json from a real
// kubectl binary (v1.32.4 here): gunzips the FileDescriptorProtos gogo's
// generated code registered in it, reads Go's type metadata for the struct
// tags, and hands both to the pure builder in engine/apiserver/protobuf/tools/.
// See engine/apiserver/protobuf/README.md.
//
// Run: npx tsx scripts/protobuf/extract.ts [/usr/bin/kubectl] [--all]
// (--all keeps every package in the binary, not just the served groups.)
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { SERVED_PACKAGES, buildSchema, formatSchema } from '../../engine/apiserver/protobuf/tools/buildSchema';
import { parseFileDescriptor, type ProtoFile } from '../../engine/apiserver/protobuf/tools/descriptor';
import { readGoTypes } from '../../engine/apiserver/protobuf/tools/goTypes';

export const SCHEMA_PATH = join(resolve(fileURLToPath(import.meta.url), '../../..'), 'engine/apiserver/protobuf/schema.generated.json');

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]);

/** Every gzip member in the binary that decodes as a Kubernetes .proto descriptor. */
export function readDescriptors(bin: Uint8Array): ProtoFile[] {
  const files = new Map<string, ProtoFile>();
  const buf = Buffer.from(bin.buffer, bin.byteOffset, bin.byteLength);
  for (let i = buf.indexOf(GZIP_MAGIC); i >= 0; i = buf.indexOf(GZIP_MAGIC, i + 1)) {
    let raw: Buffer;
    try {
      // a descriptor is far below 1 MB; data after the member's trailer is ignored
      raw = gunzipSync(buf.subarray(i, i + 1_000_000), { finishFlush: 2 /* Z_SYNC_FLUSH */ });
    } catch {
      continue;
    }
    let file: ProtoFile;
    try {
      file = parseFileDescriptor(raw);
    } catch {
      continue;
    }
    if (!file.name.endsWith('.proto') || file.package === '') continue;
    files.set(file.name, file);
  }
  return [...files.values()];
}

/** The table text a binary yields. */
export function extractSchemaText(binaryPath: string, all = false): { text: string; warnings: string[]; descriptors: number; goTypes: number; messages: number } {
  const bin = new Uint8Array(readFileSync(realpathSync(binaryPath)));
  const files = readDescriptors(bin);
  const goTypes = readGoTypes(bin);
  const { schema, warnings } = buildSchema(files, goTypes, all ? 'all' : SERVED_PACKAGES);
  return { text: formatSchema(schema), warnings, descriptors: files.length, goTypes: goTypes.length, messages: Object.keys(schema.messages).length };
}

function main(): void {
  const args = process.argv.slice(2);
  const r = extractSchemaText(args.find((a) => !a.startsWith('--')) ?? '/usr/bin/kubectl', args.includes('--all'));
  writeFileSync(SCHEMA_PATH, r.text);
  for (const w of r.warnings) console.warn(`warning: ${w}`);
  console.log(`${r.descriptors} descriptors, ${r.goTypes} Go named types; wrote ${r.messages} messages to ${SCHEMA_PATH}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) main();
