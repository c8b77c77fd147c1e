// Builds ../schema.generated.json from a real kubectl binary, which carries
// (1) the gzipped FileDescriptorProto of every generated.proto of k8s.io/api
//     and k8s.io/apimachinery it was built with (registered by gogo's
//     generated code), giving field numbers, wire types, message references
//     and the gogoproto options (nullable, customname), and
// (2) Go's reflect metadata of the same types, whose struct tags give the
//     JSON names, omitempty and inlining that encoding/json applies.
//
// Run:  npx tsx engine/apiserver/protobuf/tools/extract.ts [/usr/bin/kubectl] [--all]
// (--all keeps every package in the binary, not just the served groups.)
// Build-time only (Node APIs); the engine never imports this file.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseFileDescriptor, type ProtoField, type ProtoFile, type ProtoMessage } from './descriptor';
import { readGoTypes, type GoNamedType } from './goTypes';
import type { FieldTuple, MessageEntry, SchemaFile } from '../schema';

/** The served API groups (engine/apiserver/registry/resources.ts) and apimachinery. */
export const SERVED_PACKAGES = [
  'k8s.io.apimachinery.pkg.apis.meta.v1',
  'k8s.io.apimachinery.pkg.api.resource',
  'k8s.io.apimachinery.pkg.util.intstr',
  'k8s.io.apimachinery.pkg.runtime',
  'k8s.io.api.core.v1',
  'k8s.io.api.apps.v1',
  'k8s.io.api.batch.v1',
  'k8s.io.api.autoscaling.v1',
  'k8s.io.api.autoscaling.v2',
  'k8s.io.api.policy.v1',
  'k8s.io.api.discovery.v1',
  'k8s.io.api.coordination.v1',
  'k8s.io.api.rbac.v1',
  'k8s.io.api.scheduling.v1',
  'k8s.io.api.storage.v1',
  'k8s.io.api.networking.v1',
  'k8s.io.api.admissionregistration.v1',
  'k8s.io.api.authorization.v1',
  'k8s.io.api.authentication.v1',
  'k8s.io.api.events.v1',
];

const SCALAR_BY_TYPE: Record<number, string> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
};
const TYPE_MESSAGE = 11;
const LABEL_REPEATED = 3;

/** Every gzip member in the binary that decodes as a Kubernetes descriptor. */
export function readDescriptors(bin: Uint8Array): ProtoFile[] {
  const files = new Map<string, ProtoFile>();
  const buf = Buffer.from(bin.buffer, bin.byteOffset, bin.byteLength);
  for (let i = buf.indexOf(GZIP_MAGIC); i >= 0; i = buf.indexOf(GZIP_MAGIC, i + 1)) {
    let raw: Buffer;
    try {
      // A member ends where its trailer says; trailing bytes are the next data.
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
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]);

interface Tags {
  json: string | undefined;
  omitempty: boolean;
  protoNumber: number | undefined;
}

function parseTags(tag: string): Tags {
  const get = (key: string): string | undefined => {
    const m = new RegExp(`(?:^|\\s)${key}:"([^"]*)"`).exec(tag);
    return m ? m[1] : undefined;
  };
  const json = get('json');
  const proto = get('protobuf');
  const parts = json?.split(',') ?? [];
  const num = proto?.split(',')[1];
  return { json: json === undefined ? undefined : parts[0], omitempty: parts.slice(1).includes('omitempty'), protoNumber: num === undefined ? undefined : Number(num) };
}

export interface ExtractResult {
  schema: SchemaFile;
  warnings: string[];
}

export function buildSchema(files: ProtoFile[], goTypes: GoNamedType[], wanted: string[] | 'all'): ExtractResult {
  const warnings: string[] = [];
  const byPackage = new Map<string, ProtoFile>();
  for (const f of files) byPackage.set(f.package, f);
  const goByName = new Map<string, GoNamedType>();
  for (const t of goTypes) goByName.set(`${t.pkgPath}.${t.name}`, t);

  // Messages of the wanted packages, then everything they reference.
  const allMessages = new Map<string, { file: ProtoFile; msg: ProtoMessage }>();
  for (const f of files) for (const m of f.messages) allMessages.set(`${f.package}.${m.name}`, { file: f, msg: m });
  const queue: string[] = [];
  const roots = wanted === 'all' ? [...byPackage.keys()] : wanted;
  for (const p of roots) {
    const f = byPackage.get(p);
    if (!f) {
      warnings.push(`package ${p} is not in the binary`);
      continue;
    }
    for (const m of f.messages) queue.push(`${p}.${m.name}`);
  }
  const messages: Record<string, MessageEntry> = {};
  const packages: Record<string, string> = {};
  const done = new Set<string>();
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (done.has(name)) continue;
    done.add(name);
    const found = allMessages.get(name);
    if (!found) {
      warnings.push(`message ${name} is referenced but not found`);
      continue;
    }
    const { file, msg } = found;
    packages[file.package] = file.goPackage;
    const go = goByName.get(`${file.goPackage}.${msg.name}`);
    const entry = convertMessage(file, msg, go, warnings);
    messages[name] = entry;
    for (const f of entry.f) if (f[2].includes('.')) queue.push(f[2]);
  }
  const sorted: Record<string, MessageEntry> = {};
  for (const k of Object.keys(messages).sort()) sorted[k] = messages[k]!;
  const sortedPackages: Record<string, string> = {};
  for (const k of Object.keys(packages).sort()) sortedPackages[k] = packages[k]!;
  return {
    schema: {
      $comment: 'GENERATED by engine/apiserver/protobuf/tools/extract.ts from the kubectl v1.32.4 binary; do not edit. See README.md.',
      source: {
        binary: 'kubectl v1.32.4 (linux/amd64, go1.23.8)',
        kubernetes: 'k8s.io/api and k8s.io/apimachinery at kubernetes v1.32.4: staging/src/k8s.io/api/<group>/<version>/generated.proto, apimachinery pkg/apis/meta/v1, pkg/api/resource, pkg/util/intstr, pkg/runtime generated.proto',
        go: 'struct tags of the same Go types (json names, omitempty, inline)',
        note: 'field: [number, json, type, flags, goName]; flags r repeated, m map, n nullable, o omitempty, i inline, - json:"-", ? Go type not found',
      },
      packages: sortedPackages,
      messages: sorted,
    },
    warnings,
  };
}

function convertMessage(file: ProtoFile, msg: ProtoMessage, go: GoNamedType | undefined, warnings: string[]): MessageEntry {
  const full = `${file.package}.${msg.name}`;
  const entries = new Map<ProtoMessage['name'], ProtoMessage>();
  for (const n of msg.nested) entries.set(n.name, n);
  const goFields = new Map<number, { name: string; tags: Tags; embedded: boolean; index: number }>();
  let hasTypeMeta = false;
  if (go) {
    go.fields.forEach((gf, index) => {
      if (gf.embedded && gf.name === 'TypeMeta') hasTypeMeta = true;
      const tags = parseTags(gf.tag);
      if (tags.protoNumber !== undefined) goFields.set(tags.protoNumber, { name: gf.name, tags, embedded: gf.embedded, index });
    });
  } else {
    warnings.push(`no Go type for ${full}: omitempty assumed`);
  }
  const rows: { tuple: FieldTuple; order: number }[] = [];
  for (const pf of msg.fields) {
    const { type, map } = fieldType(file, pf, entries, full);
    const repeated = pf.label === LABEL_REPEATED && !map;
    let flags = '';
    if (repeated) flags += 'r';
    if (map) flags += 'm';
    // gogo's default is nullable; slices, maps and []byte are never pointers.
    if (!repeated && !map && type !== 'bytes' && pf.nullable !== false) flags += 'n';
    let json = pf.name;
    let goName = pf.customName ?? pf.name.charAt(0).toUpperCase() + pf.name.slice(1);
    let order = 10_000 + pf.number;
    const gf = goFields.get(pf.number);
    if (go && gf) {
      goName = gf.name;
      order = gf.index;
      if (gf.tags.json === '-') flags += '-';
      else if (gf.embedded && (gf.tags.json === '' || gf.tags.json === undefined)) flags += 'i';
      else json = gf.tags.json || gf.name;
      if (gf.tags.omitempty) flags += 'o';
      if (!flags.includes('i') && !flags.includes('-') && json !== pf.name) warnings.push(`${full}.${pf.name}: JSON name ${json}`);
    } else if (go) {
      warnings.push(`${full}.${pf.name}: no Go field with protobuf number ${pf.number}`);
      flags += '?';
    } else {
      flags += '?';
    }
    rows.push({ tuple: [pf.number, json, type, flags, goName], order });
  }
  rows.sort((a, b) => a.order - b.order);
  const entry: MessageEntry = { f: rows.map((r) => r.tuple) };
  if (hasTypeMeta) entry.k = 1;
  if (go && go.kind === 23) entry.s = 1;
  return entry;
}

function fieldType(file: ProtoFile, pf: ProtoField, nested: Map<string, ProtoMessage>, owner: string): { type: string; map: boolean } {
  if (pf.type !== TYPE_MESSAGE) {
    const s = SCALAR_BY_TYPE[pf.type];
    if (!s) throw new Error(`${owner}.${pf.name}: unsupported field type ${pf.type}`);
    return { type: s, map: false };
  }
  const ref = pf.typeName.replace(/^\./, '');
  const local = ref.startsWith(`${owner}.`) ? nested.get(ref.slice(owner.length + 1)) : undefined;
  if (local?.mapEntry) {
    const key = local.fields.find((f) => f.number === 1);
    const value = local.fields.find((f) => f.number === 2);
    if (!key || !value || key.type !== 9) throw new Error(`${owner}.${pf.name}: map key is not a string`);
    return { type: fieldType(file, value, new Map(), owner).type, map: true };
  }
  return { type: ref, map: false };
}

/** The JSON text: one message a line, so diffs stay readable. */
export function formatSchema(s: SchemaFile): string {
  const lines: string[] = ['{'];
  lines.push(`  "$comment": ${JSON.stringify(s.$comment)},`);
  lines.push(`  "source": ${JSON.stringify(s.source)},`);
  lines.push(`  "packages": ${JSON.stringify(s.packages)},`);
  lines.push('  "messages": {');
  const names = Object.keys(s.messages);
  names.forEach((n, i) => lines.push(`    ${JSON.stringify(n)}: ${JSON.stringify(s.messages[n])}${i < names.length - 1 ? ',' : ''}`));
  lines.push('  }');
  lines.push('}');
  return lines.join('\n') + '\n';
}

function main(): void {
  const args = process.argv.slice(2);
  const all = args.includes('--all');
  const path = realpathSync(args.find((a) => !a.startsWith('--')) ?? '/usr/bin/kubectl');
  const bin = new Uint8Array(readFileSync(path));
  const files = readDescriptors(bin);
  const goTypes = readGoTypes(bin);
  const { schema, warnings } = buildSchema(files, goTypes, all ? 'all' : SERVED_PACKAGES);
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema.generated.json');
  writeFileSync(out, formatSchema(schema));
  for (const w of warnings) console.warn(`warning: ${w}`);
  console.log(`${files.length} descriptors, ${goTypes.length} Go named types; wrote ${Object.keys(schema.messages).length} messages of ${Object.keys(schema.packages).length} packages to ${out}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) main();
