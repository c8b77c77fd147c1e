// Turns client-node models back into OpenAPI v3 component schemas named as
// upstream names them, in the shape kube-openapi's v3 builder emits
// (properties, required, type, format, $ref, additionalProperties, items,
// x-kubernetes-* extensions; IntOrString and Quantity as oneOf).
import type { Model, ModelProp } from './clientNode';
import type { Assignment, GroupVersion } from './naming';
import { ANY_FIELDS, PATCH_META, QUANTITY_FIELDS } from './tables';

export type Schema = { [key: string]: unknown };

const REF = '#/components/schemas/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const TIME = `${META}.Time`;
export const MICRO_TIME = `${META}.MicroTime`;
export const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
export const PATCH = `${META}.Patch`;
const APIEXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/**
 * Types client-node never modelled as classes (they marshal themselves in Go),
 * in the shape upstream's v3 spec gives them. Their doc comments survive only
 * where the generator pasted them into a field (see inlinedTypeDoc).
 */
const PRIMITIVES: Record<string, Schema> = {
  [QUANTITY]: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  [INT_OR_STRING]: { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
  [TIME]: { format: 'date-time', type: 'string' },
  [MICRO_TIME]: { format: 'date-time', type: 'string' },
  [RAW_EXTENSION]: { type: 'object' },
  [`${META}.FieldsV1`]: { type: 'object' },
  [PATCH]: { type: 'object' },
  [`${APIEXT}.JSON`]: {},
  [`${APIEXT}.JSONSchemaPropsOrArray`]: {},
  [`${APIEXT}.JSONSchemaPropsOrBool`]: {},
  [`${APIEXT}.JSONSchemaPropsOrStringArray`]: {},
  [`${APIEXT}.CustomResourceSubresourceStatus`]: { type: 'object' },
};

/** Object with keys in sorted order (kube-openapi writes them sorted). */
function sorted(o: Schema): Schema {
  const out: Schema = {};
  for (const k of Object.keys(o).sort()) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function ref(name: string): Schema {
  return { $ref: `${REF}${name}` };
}

interface FieldContext {
  cls: string;
  field: string;
  quantity: boolean;
  names: ReadonlyMap<string, string>;
}

/** Schema for a client-node TS type (recursing into Array<...> and maps). */
function typeSchema(type: string, format: string, ctx: FieldContext): Schema {
  const arr = /^Array<(.*)>$/.exec(type);
  if (arr?.[1]) return { items: typeSchema(arr[1], format, ctx), type: 'array' };
  const map = /^\{ \[key: string\]: (.*); \}$/.exec(type);
  if (map?.[1]) return { additionalProperties: typeSchema(map[1], format, ctx), type: 'object' };
  switch (type) {
    case 'string':
      if (ctx.quantity) return ref(QUANTITY);
      return sorted({ format: format === '' ? undefined : format, type: 'string' });
    case 'number':
      if (format === 'double' || format === 'float') return { format, type: 'number' };
      return sorted({ format: format === '' ? undefined : format, type: 'integer' });
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
      return ref(format === 'date-time-micro' ? MICRO_TIME : TIME);
    case 'IntOrString':
      return ref(INT_OR_STRING);
    case 'V1MicroTime': // the one Go-marshalled type the generator names but never defines
      return ref(MICRO_TIME);
    case 'any':
      return ref(ANY_FIELDS[ctx.cls]?.[ctx.field] ?? RAW_EXTENSION);
    default: {
      const name = ctx.names.get(type);
      if (!name) throw new Error(`definitions: ${ctx.cls}.${ctx.field} refers to ${type}, which has no upstream name`);
      return ref(name);
    }
  }
}

/**
 * Where openapi-generator inlined a Go-marshalled type (IntOrString, MicroTime,
 * JSON...), the field got the type's doc comment instead of its own: text that
 * opens with the type's name. That text belongs to the definition.
 */
const INLINED = new Set([INT_OR_STRING, MICRO_TIME, `${APIEXT}.JSON`, `${APIEXT}.JSONSchemaPropsOrArray`, `${APIEXT}.JSONSchemaPropsOrBool`]);

function inlinedTypeDoc(s: Schema, description: string | undefined): string | undefined {
  const target = typeof s.$ref === 'string' ? s.$ref.slice(REF.length) : undefined;
  if (!target || !description || !INLINED.has(target)) return undefined;
  const short = target.slice(target.lastIndexOf('.') + 1);
  return description.startsWith(`${short} `) ? target : undefined;
}

function propertySchema(cls: string, defName: string, p: ModelProp, names: ReadonlyMap<string, string>, typeDocs: Map<string, string>): Schema {
  const quantity = QUANTITY_FIELDS[cls]?.includes(p.name) ?? false;
  let s = typeSchema(p.type, p.format, { cls, field: p.name, quantity, names });
  const typeDoc = inlinedTypeDoc(s, p.description);
  if (typeDoc && p.description) {
    if (!typeDocs.has(typeDoc)) typeDocs.set(typeDoc, p.description);
    const { description: _typeDoc, ...rest } = p;
    p = rest;
  }
  const pm = PATCH_META[defName]?.[p.name];
  // kube-openapi wraps a $ref in allOf when the property has siblings (a description).
  if (typeof s.$ref === 'string' && p.description) s = { allOf: [s], description: p.description };
  else if (p.description) s = { ...s, description: p.description };
  if (pm) {
    s = {
      ...s,
      'x-kubernetes-list-map-keys': pm.listMapKeys,
      'x-kubernetes-list-type': pm.listType,
      'x-kubernetes-patch-merge-key': pm.patchMergeKey,
      'x-kubernetes-patch-strategy': pm.patchStrategy,
    };
  }
  return sorted(s);
}

export interface GvkEntry {
  group: string;
  kind: string;
  version: string;
}

/** Group-versions in upstream's order for multi-GVK lists: core first, then by group, then version. */
export function sortGroupVersions(gvs: GroupVersion[]): GroupVersion[] {
  const seen = new Map<string, GroupVersion>();
  for (const gv of gvs) seen.set(`${gv.group}/${gv.version}`, gv);
  return [...seen.values()].sort((a, b) => (a.group === b.group ? a.version.localeCompare(b.version) : a.group.localeCompare(b.group)));
}

/**
 * All definitions: every model an endpoint reaches, plus the Go-marshalled
 * primitives. `allGroupVersions` feeds the GVK lists of the kinds every group
 * serves (DeleteOptions, WatchEvent).
 */
export function buildDefinitions(models: ReadonlyMap<string, Model>, assignment: Assignment, allGroupVersions: GroupVersion[]): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const typeDocs = new Map<string, string>();
  for (const [cls, defName] of assignment.names) {
    const model = models.get(cls);
    if (!model) continue;
    for (const field of QUANTITY_FIELDS[cls] ?? []) {
      const p = model.props.find((x) => x.name === field);
      if (!p || !/string/.test(p.type)) throw new Error(`tables: QUANTITY_FIELDS ${cls}.${field} no longer matches client-node`);
    }
    for (const field of Object.keys(ANY_FIELDS[cls] ?? {})) {
      if (!model.props.some((x) => x.name === field && /any/.test(x.type))) throw new Error(`tables: ANY_FIELDS ${cls}.${field} no longer matches client-node`);
    }
    const properties: Schema = {};
    for (const p of model.props) properties[p.name] = propertySchema(cls, defName, p, assignment.names, typeDocs);
    const required = model.props.filter((p) => p.required).map((p) => p.name);
    const kind = assignment.kinds.get(cls);
    let gvks: GvkEntry[] | undefined = kind ? [{ group: kind.group, kind: kind.kind, version: kind.version }] : undefined;
    const short = defName.slice(defName.lastIndexOf('.') + 1);
    if (defName === `${META}.Status`) gvks = [{ group: '', kind: 'Status', version: 'v1' }];
    if (defName === `${META}.DeleteOptions` || defName === `${META}.WatchEvent`) {
      gvks = sortGroupVersions(allGroupVersions).map((gv) => ({ group: gv.group, kind: short, version: gv.version }));
    }
    out[defName] = sorted({
      description: model.description,
      properties: model.props.length > 0 ? properties : undefined,
      required: required.length > 0 ? required : undefined,
      type: 'object',
      'x-kubernetes-group-version-kind': gvks,
    });
  }
  for (const [name, schema] of Object.entries(PRIMITIVES)) out[name] = sorted({ ...schema, description: typeDocs.get(name) });
  for (const [defName, fields] of Object.entries(PATCH_META)) {
    const props = out[defName]?.properties as Schema | undefined;
    for (const f of Object.keys(fields)) if (!props?.[f]) throw new Error(`tables: PATCH_META ${defName}.${f} matches no property`);
  }
  const ordered: Record<string, Schema> = {};
  for (const k of Object.keys(out).sort()) ordered[k] = out[k] as Schema;
  return ordered;
}

/** The patch metadata of one struct, in engine/apimachinery/patch/patchMeta.ts's shape. */
export interface StructMeta {
  readonly name: string;
  readonly fields: Readonly<
    Record<string, { strategy?: string; mergeKey?: string; elem?: StructMeta; listType?: 'atomic' | 'set' | 'map'; listMapKeys?: readonly string[] }>
  >;
}

function refOf(s: Schema | undefined): string | undefined {
  if (!s) return undefined;
  if (typeof s.$ref === 'string') return s.$ref.slice(REF.length);
  const allOf = s.allOf as Schema[] | undefined;
  if (allOf?.[0]) return refOf(allOf[0]);
  if (s.items) return refOf(s.items as Schema);
  return undefined;
}

/**
 * Lays a kind's strategic-merge metadata (struct tags and list markers) onto
 * the definitions it reaches: x-kubernetes-patch-strategy/-merge-key and
 * x-kubernetes-list-type/-map-keys, where the table says. Returns the fields it
 * could not place.
 */
export function overlayPatchMeta(defs: Record<string, Schema>, defName: string, meta: StructMeta, seen = new Set<string>()): string[] {
  if (seen.has(defName)) return [];
  seen.add(defName);
  const props = defs[defName]?.properties as Record<string, Schema> | undefined;
  const missing: string[] = [];
  for (const [field, f] of Object.entries(meta.fields)) {
    const prop = props?.[field];
    if (!prop) {
      missing.push(`${defName}.${field}`);
      continue;
    }
    const ext: Schema = {};
    if (f.listType) ext['x-kubernetes-list-type'] = f.listType;
    if (f.listMapKeys && f.listType === 'map') ext['x-kubernetes-list-map-keys'] = [...f.listMapKeys];
    if (f.strategy) ext['x-kubernetes-patch-strategy'] = f.strategy;
    if (f.mergeKey) ext['x-kubernetes-patch-merge-key'] = f.mergeKey;
    if (Object.keys(ext).length > 0 && props) props[field] = sorted({ ...prop, ...ext });
    const target = refOf(prop);
    if (f.elem && target) missing.push(...overlayPatchMeta(defs, target, f.elem, seen));
  }
  return missing;
}
