// JSON Schemas (draft-07) for the YAML editor (monaco-yaml): one
// self-contained file per served kind and one combined file that dispatches
// each YAML document on apiVersion+kind. Built from the OpenAPI definitions:
// refs become `#/definitions/...`, descriptions are doubled into
// markdownDescription for hovers, and objects reject unknown fields the way
// fieldValidation=Strict does.
import type { Schema } from './definitions';

const V3_REF = '#/components/schemas/';
const LOCAL_REF = '#/definitions/';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

export interface ServedKind {
  group: string;
  version: string;
  kind: string;
  definition: string;
}

export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

export function schemaFileName(k: ServedKind): string {
  return `${k.group === '' ? 'core' : k.group}_${k.version}_${k.kind}.json`;
}

/** One definition converted to draft-07 for the editor. */
export function toEditorSchema(s: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(s)) {
    if (key.startsWith('x-kubernetes-')) continue;
    if (key === 'format' && value === 'int-or-string') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace(V3_REF, LOCAL_REF);
    else if (key === 'properties' || key === 'definitions') {
      const props: Schema = {};
      for (const [name, sub] of Object.entries(value as Schema)) props[name] = toEditorSchema(sub as Schema);
      out[key] = props;
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = typeof value === 'object' && value !== null ? toEditorSchema(value as Schema) : value;
    } else if (key === 'allOf' || key === 'oneOf' || key === 'anyOf') {
      out[key] = (value as Schema[]).map(toEditorSchema);
    } else out[key] = value;
  }
  if (typeof out.description === 'string') out.markdownDescription = out.description;
  // An object with known fields rejects others, as a Strict decode would.
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** Names of the definitions a schema refers to, transitively. */
export function closure(roots: string[], defs: Readonly<Record<string, Schema>>): string[] {
  const seen = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, sub] of Object.entries(v)) {
        if (k === '$ref' && typeof sub === 'string' && sub.startsWith(V3_REF)) add(sub.slice(V3_REF.length));
        else visit(sub);
      }
    }
  };
  const add = (name: string) => {
    if (seen.has(name)) return;
    const d = defs[name];
    if (!d) throw new Error(`jsonSchema: missing definition ${name}`);
    seen.add(name);
    visit(d);
  };
  roots.forEach(add);
  return [...seen].sort();
}

/** The top-level schema of a kind: its definition, with apiVersion and kind pinned and required. */
function kindSchema(k: ServedKind, defs: Readonly<Record<string, Schema>>): Schema {
  const def = defs[k.definition];
  const apiVersion = apiVersionOf(k.group, k.version);
  const description = typeof def?.description === 'string' ? def.description : undefined;
  return {
    ...(description ? { description, markdownDescription: description } : {}),
    allOf: [{ $ref: `${LOCAL_REF}${k.definition}` }],
    properties: {
      apiVersion: { type: 'string', enum: [apiVersion] },
      kind: { type: 'string', enum: [k.kind] },
    },
    required: ['apiVersion', 'kind'],
  };
}

function definitionsFor(names: string[], defs: Readonly<Record<string, Schema>>): Schema {
  const out: Schema = {};
  for (const n of names) out[n] = toEditorSchema(defs[n] as Schema);
  return out;
}

export function kindFile(k: ServedKind, defs: Readonly<Record<string, Schema>>): Schema {
  return {
    $schema: DRAFT_07,
    $id: `kubeglass://schemas/${schemaFileName(k)}`,
    title: `${k.kind} (${apiVersionOf(k.group, k.version)})`,
    type: 'object',
    ...kindSchema(k, defs),
    definitions: definitionsFor(closure([k.definition], defs), defs),
  };
}

/** All kinds in one schema: each YAML document is checked against the kind its apiVersion+kind name. */
export function combinedFile(kinds: ServedKind[], defs: Readonly<Record<string, Schema>>): Schema {
  const apiVersions = [...new Set(kinds.map((k) => apiVersionOf(k.group, k.version)))].sort();
  const kindNames = [...new Set(kinds.map((k) => k.kind))].sort();
  const definitions = definitionsFor(closure(kinds.map((k) => k.definition), defs), defs);
  const dispatch = kinds.map((k) => {
    const wrapper = `kubeglass.kind.${k.group === '' ? 'core' : k.group}.${k.version}.${k.kind}`; // no '/': it would need ~1 in a JSON pointer
    definitions[wrapper] = kindSchema(k, defs);
    return {
      if: {
        properties: { apiVersion: { const: apiVersionOf(k.group, k.version) }, kind: { const: k.kind } },
        required: ['apiVersion', 'kind'],
      },
      then: { $ref: `${LOCAL_REF}${wrapper}` },
    };
  });
  return {
    $schema: DRAFT_07,
    $id: 'kubeglass://schemas/all.json',
    title: 'Kubernetes v1.32 object',
    type: 'object',
    properties: {
      apiVersion: { type: 'string', enum: apiVersions, description: 'APIVersion of the object: `v1`, `apps/v1`, ...' },
      kind: { type: 'string', enum: kindNames, description: 'Kind of the object: Pod, Deployment, ...' },
    },
    required: ['apiVersion', 'kind'],
    // apiVersion and kind must name a served pair (Deployment is apps/v1, not v1).
    anyOf: kinds.map((k) => ({ properties: { apiVersion: { const: apiVersionOf(k.group, k.version) }, kind: { const: k.kind } } })),
    allOf: dispatch,
    definitions,
  };
}
