// Builds the API schemas from @kubernetes/client-node (Kubernetes v1.32.0):
//   generated/openapi/definitions.json  OpenAPI v3 component schemas, upstream names
//   generated/openapi/operations.json   every group-version endpoint's operations
//   generated/schemas/*.json            JSON Schemas per served kind for the YAML editor,
//                                       index.json, and all.json (dispatch on apiVersion+kind)
// Run: npx tsx scripts/openapi/generate.ts   (idempotent; rewrites only what changed)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { patchMetaFor } from '../../engine/apimachinery/patch/patchMeta';
import { RESOURCES } from '../../engine/apiserver/registry/resources';
import { readApis, readModels } from './clientNode';
import { buildDefinitions, overlayPatchMeta, type Schema } from './definitions';
import { combinedFile, kindFile, schemaFileName, apiVersionOf, type ServedKind } from './jsonSchema';
import { assignPackages, groupVersionOfPath, type GroupVersion } from './naming';
import { buildOperations } from './operations';

export interface GenerateResult {
  definitions: Record<string, Schema>;
  written: string[];
  warnings: string[];
}

function writeIfChanged(file: string, text: string, written: string[]): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  written.push(file);
}

/** Finds the definition a GVK is served as (its x-kubernetes-group-version-kind). */
export function definitionForKind(defs: Record<string, Schema>, group: string, version: string, kind: string): string | undefined {
  for (const [name, d] of Object.entries(defs)) {
    const gvks = d['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined;
    if (gvks?.some((g) => g.group === group && g.version === version && g.kind === kind)) return name;
  }
  return undefined;
}

export function generate(root: string): GenerateResult {
  const pkg = join(root, 'node_modules/@kubernetes/client-node');
  const models = readModels(pkg);
  const ops = readApis(pkg);
  const warnings: string[] = [];

  // Kinds served only as another group's subresource (autoscaling/v1 Scale...), from our registry.
  const subresourceKinds = new Map<string, GroupVersion>();
  for (const r of RESOURCES) for (const s of r.subresources) if (s.group !== undefined) subresourceKinds.set(s.kind, { group: s.group, version: s.version ?? 'v1' });

  const assignment = assignPackages(models, ops, subresourceKinds);
  for (const c of assignment.conflicts) warnings.push(`two groups serve ${c}`);
  const allGvs = ops.map((o) => groupVersionOfPath(o.path)).filter((gv): gv is GroupVersion => gv !== undefined);
  const definitions = buildDefinitions(models, assignment, allGvs);
  // The full strategic-merge table (engine/apimachinery/patch/patchMeta.ts) over our subset (tables.ts).
  for (const r of RESOURCES) {
    const meta = patchMetaFor(r.group, r.version, r.kind);
    const def = definitionForKind(definitions, r.group, r.version, r.kind);
    if (meta && def) for (const m of overlayPatchMeta(definitions, def, meta)) warnings.push(`patchMeta: no property ${m}`);
  }
  const operations = buildOperations(ops, assignment.names);

  const written: string[] = [];
  const out = join(root, 'generated');
  const definitionsText = `${JSON.stringify(definitions)}\n`;
  const operationsText = JSON.stringify(operations);
  // Changes whenever the generated data does; the served /openapi/v3 hashes include it.
  const fingerprint = createHash('sha256').update(definitionsText).update(operationsText).digest('hex').slice(0, 16).toUpperCase();
  writeIfChanged(join(out, 'openapi/definitions.json'), definitionsText, written);
  writeIfChanged(join(out, 'openapi/operations.json'), `${JSON.stringify({ fingerprint, ...operations })}\n`, written);

  const served: ServedKind[] = [];
  const seen = new Set<string>();
  for (const r of RESOURCES) {
    const key = `${r.group}/${r.version}/${r.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const definition = definitionForKind(definitions, r.group, r.version, r.kind);
    if (!definition) {
      warnings.push(`no definition for served kind ${apiVersionOf(r.group, r.version)} ${r.kind}`);
      continue;
    }
    served.push({ group: r.group, version: r.version, kind: r.kind, definition });
  }
  const schemaDir = join(out, 'schemas');
  const keep = new Set<string>(['index.json', 'all.json']);
  for (const k of served) {
    const file = schemaFileName(k);
    keep.add(file);
    writeIfChanged(join(schemaDir, file), `${JSON.stringify(kindFile(k, definitions))}\n`, written);
  }
  const index = served.map((k) => ({ apiVersion: apiVersionOf(k.group, k.version), kind: k.kind, file: schemaFileName(k) }));
  writeIfChanged(join(schemaDir, 'index.json'), `${JSON.stringify(index, null, 2)}\n`, written);
  writeIfChanged(join(schemaDir, 'all.json'), `${JSON.stringify(combinedFile(served, definitions))}\n`, written);
  // Drop schemas of kinds no longer served.
  for (const f of readdirSync(schemaDir)) if (!keep.has(f)) rmSync(join(schemaDir, f));

  return { definitions, written, warnings };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const started = process.hrtime.bigint();
  const { definitions, written, warnings } = generate(root);
  for (const w of warnings) console.warn(`warning: ${w}`);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`openapi: ${Object.keys(definitions).length} definitions, ${written.length} files written in ${ms.toFixed(0)} ms`);
}
