// /openapi/v2: the swagger 2.0 document, built from the same group-version
// documents as /openapi/v3 (kube-openapi writes both from one spec).
// kubectl asks for it only as protobuf (Accept:
// application/com.github.proto-openapi.spec.v2@v1.0+protobuf, the gnostic
// openapi_v2.Document message) and only in a few places: client-side
// validation of `kind: List` files, `explain --output=plaintext-openapiv2`,
// and apply when the v3 patch lookup fails. Without it `kubectl apply -f` of a
// List fails with "error validating data: the server could not find the
// requested resource". encodeOpenApiV2 writes that message. documents.ts
// exposes both forms (openApiV2, openApiV2Protobuf).
import type { OpenApiV3Document, Operation, Parameter, PathItem } from './documents';
import { definitions, REF_PREFIX, type OpenApiSchema } from './spec';
import { WireType, Writer as WireWriter } from '../protobuf/wire';

const V2_REF = '#/definitions/';
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObj = { [k: string]: Json };

/** A v3 schema in v2 form: `#/definitions/` refs, `$ref` beside its description, no oneOf. */
export function toV2Schema(s: OpenApiSchema, name?: string): JsonObj {
  if (name === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return withDescription({ format: 'int-or-string', type: 'string' }, s.description);
  if (name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return withDescription({ type: 'string' }, s.description);
  const out: JsonObj = {};
  const src = s as unknown as Record<string, unknown>;
  const single = s.allOf?.length === 1 && !s.properties ? s.allOf[0] : undefined;
  for (const [k, v] of Object.entries(src)) {
    if (k === 'oneOf') continue;
    if (k === 'allOf') {
      if (single?.$ref) out.$ref = single.$ref.replace(REF_PREFIX, V2_REF);
      else out.allOf = (v as OpenApiSchema[]).map((x) => toV2Schema(x));
    } else if (k === '$ref') out.$ref = (v as string).replace(REF_PREFIX, V2_REF);
    else if (k === 'properties') {
      const props: JsonObj = {};
      for (const [p, ps] of Object.entries(v as Record<string, OpenApiSchema>)) props[p] = toV2Schema(ps);
      out.properties = props;
    } else if (k === 'items') out.items = toV2Schema(v as OpenApiSchema);
    else if (k === 'additionalProperties') out.additionalProperties = typeof v === 'object' ? toV2Schema(v as OpenApiSchema) : (v as boolean);
    else out[k] = v as Json;
  }
  return sortKeys(out);
}

function withDescription(o: JsonObj, d: string | undefined): JsonObj {
  return d ? sortKeys({ ...o, description: d }) : o;
}

function sortKeys(o: JsonObj): JsonObj {
  const out: JsonObj = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k] as Json;
  return out;
}

function v2Parameter(p: Parameter): JsonObj {
  return sortKeys({ ...(p.description !== undefined ? { description: p.description } : {}), in: p.in, name: p.name, ...(p.required ? { required: true } : {}), type: p.schema.type, uniqueItems: true });
}

function v2Operation(op: Operation): JsonObj {
  const params: JsonObj[] = (op.parameters ?? []).map(v2Parameter);
  const body = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
  if (body && '$ref' in body && typeof body.$ref === 'string') {
    params.push({ in: 'body', name: 'body', ...(op.requestBody?.required ? { required: true } : {}), schema: { $ref: body.$ref.replace(REF_PREFIX, V2_REF) } });
  }
  params.sort((a, b) => String(a.name).localeCompare(String(b.name)));
  const produces = new Set<string>();
  const responses: JsonObj = {};
  for (const [code, r] of Object.entries(op.responses)) {
    const first = r.content ? Object.values(r.content)[0]?.schema : undefined;
    for (const t of Object.keys(r.content ?? {})) produces.add(t);
    const schema: Json | undefined = first ? ('$ref' in first && typeof first.$ref === 'string' ? { $ref: first.$ref.replace(REF_PREFIX, V2_REF) } : { type: 'string' }) : undefined;
    responses[code] = schema ? { description: r.description, schema } : { description: r.description };
  }
  const out: JsonObj = {
    consumes: op.requestBody ? Object.keys(op.requestBody.content) : ['*/*'],
    description: op.description,
    operationId: op.operationId,
    ...(params.length > 0 ? { parameters: params } : {}),
    produces: [...produces].sort(),
    responses,
    schemes: ['https'],
    tags: op.tags,
  };
  if (op['x-kubernetes-action']) out['x-kubernetes-action'] = op['x-kubernetes-action'];
  if (op['x-kubernetes-group-version-kind']) out['x-kubernetes-group-version-kind'] = op['x-kubernetes-group-version-kind'];
  return out;
}

function v2PathItem(item: PathItem): JsonObj {
  const out: JsonObj = {};
  for (const key of ['delete', 'get', 'head', 'options', 'parameters', 'patch', 'post', 'put'] as const) {
    if (key === 'parameters') {
      if (item.parameters) out.parameters = item.parameters.map(v2Parameter);
    } else {
      const op = item[key];
      if (op) out[key] = v2Operation(op);
    }
  }
  return out;
}

/** The swagger 2.0 document joining the group-version documents. */
export function swaggerFromDocuments(docs: readonly OpenApiV3Document[]): JsonObj {
  const paths: JsonObj = {};
  const used = new Set<string>();
  for (const doc of docs) {
    for (const [p, item] of Object.entries(doc.paths)) paths[p] = v2PathItem(item);
    for (const name of Object.keys(doc.components.schemas)) used.add(name);
  }
  const sortedPaths: JsonObj = {};
  for (const p of Object.keys(paths).sort()) sortedPaths[p] = paths[p] as Json;
  const defs: JsonObj = {};
  for (const name of [...used].sort()) defs[name] = toV2Schema(definitions[name] as OpenApiSchema, name);
  return {
    definitions: defs,
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths: sortedPaths,
    security: [{ BearerToken: [] }],
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
    swagger: '2.0',
  };
}

// ---- protobuf (gnostic openapiv2/OpenAPIv2.proto) ---------------------------

/** The media type kubectl asks /openapi/v2 for. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/**
 * The gnostic message's fields over the protobuf Writer: empty strings and
 * false bools are left out, as proto3 does; nested messages get their length
 * once their fields are written (Writer.reserveLength).
 */
class Writer {
  private readonly w = new WireWriter();

  string(field: number, s: string | undefined): this {
    if (s === undefined || s === '') return this;
    this.w.tag(field, WireType.bytes);
    this.w.string(s);
    return this;
  }
  strings(field: number, list: readonly string[] | undefined): this {
    for (const s of list ?? []) this.string(field, s === '' ? undefined : s);
    return this;
  }
  bool(field: number, b: boolean | undefined): this {
    if (!b) return this;
    this.w.tag(field, WireType.varint);
    this.w.uvarint(1);
    return this;
  }
  /** Starts a nested message; returns the position `end` needs. */
  begin(field: number): number {
    this.w.tag(field, WireType.bytes);
    return this.w.reserveLength();
  }
  end(at: number): void {
    this.w.fillLength(at);
  }
  /** Writes a nested message whose fields `body` writes. */
  nested(field: number, body: () => void): this {
    const at = this.begin(field);
    body();
    this.end(at);
    return this;
  }
  finish(): Uint8Array {
    return this.w.finish();
  }
}

/** NamedAny{name, Any{yaml}}: vendor extensions travel as YAML text (JSON is YAML). */
function vendorExtensions(out: Writer, field: number, o: JsonObj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k.startsWith('x-')) out.nested(field, () => out.string(1, k).nested(2, () => out.string(2, JSON.stringify(v))));
  }
}

function writeSchema(out: Writer, s: JsonObj): void {
  out
    .string(1, s.$ref as string | undefined)
    .string(2, s.format as string | undefined)
    .string(4, s.description as string | undefined)
    .strings(19, s.required as string[] | undefined);
  const ap = s.additionalProperties;
  if (typeof ap === 'boolean') out.nested(21, () => out.bool(2, ap));
  else if (ap && typeof ap === 'object' && !Array.isArray(ap)) out.nested(21, () => out.nested(1, () => writeSchema(out, ap)));
  if (typeof s.type === 'string') out.nested(22, () => out.string(1, s.type as string));
  const items = s.items;
  if (items && typeof items === 'object' && !Array.isArray(items)) out.nested(23, () => out.nested(1, () => writeSchema(out, items)));
  for (const a of (s.allOf as JsonObj[] | undefined) ?? []) out.nested(24, () => writeSchema(out, a));
  const props = s.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    out.nested(25, () => {
      for (const [name, p] of Object.entries(props)) out.nested(1, () => out.string(1, name).nested(2, () => writeSchema(out, p as JsonObj)));
    });
  }
  vendorExtensions(out, 31, s);
}

/** ParametersItem{Parameter{BodyParameter | NonBodyParameter{Query|Path sub-schema}}}. */
function writeParameter(out: Writer, p: JsonObj): void {
  out.nested(1, () => {
    if (p.in === 'body') {
      out.nested(1, () =>
        out
          .string(1, p.description as string | undefined)
          .string(2, p.name as string)
          .string(3, 'body')
          .bool(4, p.required as boolean | undefined)
          .nested(5, () => writeSchema(out, p.schema as JsonObj)),
      );
      return;
    }
    // Query and path sub-schemas number their fields differently.
    const isPath = p.in === 'path';
    out.nested(2, () =>
      out.nested(isPath ? 4 : 3, () =>
        out
          .bool(1, p.required as boolean | undefined)
          .string(2, p.in as string)
          .string(3, p.description as string | undefined)
          .string(4, p.name as string)
          .string(isPath ? 5 : 6, p.type as string)
          .bool(isPath ? 19 : 20, p.uniqueItems as boolean | undefined),
      ),
    );
  });
}

function writeOperation(out: Writer, op: JsonObj): void {
  out
    .strings(1, op.tags as string[])
    .string(3, op.description as string)
    .string(5, op.operationId as string)
    .strings(6, op.produces as string[])
    .strings(7, op.consumes as string[]);
  for (const p of (op.parameters as JsonObj[] | undefined) ?? []) out.nested(8, () => writeParameter(out, p));
  out.nested(9, () => {
    for (const [code, r] of Object.entries(op.responses as JsonObj)) {
      const ro = r as JsonObj;
      out.nested(1, () =>
        out.string(1, code).nested(2, () =>
          out.nested(1, () => {
            out.string(1, ro.description as string);
            if (ro.schema) out.nested(2, () => out.nested(1, () => writeSchema(out, ro.schema as JsonObj)));
          }),
        ),
      );
    }
  });
  out.strings(10, op.schemes as string[]);
  vendorExtensions(out, 13, op);
}

const PATH_ITEM_FIELDS = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 } as const;

/** Encodes a swagger 2.0 JSON document as gnostic's openapi_v2.Document. */
export function encodeOpenApiV2(doc: JsonObj): Uint8Array {
  const out = new Writer();
  const info = doc.info as JsonObj;
  out.string(1, doc.swagger as string).nested(2, () => out.string(1, info.title as string).string(2, info.version as string));
  out.nested(8, () => {
    for (const [p, item] of Object.entries(doc.paths as JsonObj)) {
      const it = item as JsonObj;
      out.nested(2, () =>
        out.string(1, p).nested(2, () => {
          for (const [method, field] of Object.entries(PATH_ITEM_FIELDS)) if (it[method]) out.nested(field, () => writeOperation(out, it[method] as JsonObj));
          for (const param of (it.parameters as JsonObj[] | undefined) ?? []) out.nested(9, () => writeParameter(out, param));
        }),
      );
    }
  });
  out.nested(9, () => {
    for (const [name, s] of Object.entries(doc.definitions as JsonObj)) out.nested(1, () => out.string(1, name).nested(2, () => writeSchema(out, s as JsonObj)));
  });
  for (const req of (doc.security as JsonObj[] | undefined) ?? []) {
    out.nested(12, () => {
      for (const [name, scopes] of Object.entries(req)) out.nested(1, () => out.string(1, name).nested(2, () => out.strings(1, scopes as string[])));
    });
  }
  out.nested(13, () => {
    for (const [name, def] of Object.entries((doc.securityDefinitions as JsonObj | undefined) ?? {})) {
      const sd = def as JsonObj;
      out.nested(1, () =>
        out.string(1, name).nested(2, () =>
          out.nested(2, () =>
            out
              .string(1, sd.type as string)
              .string(2, sd.name as string)
              .string(3, sd.in as string)
              .string(4, sd.description as string),
          ),
        ),
      );
    }
  });
  return out.finish();
}
