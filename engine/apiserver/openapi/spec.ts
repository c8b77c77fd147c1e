// The generated OpenAPI data (scripts/openapi/generate.ts writes it from
// @kubernetes/client-node, Kubernetes v1.32.0), typed, with the lookups the
// rest of this folder needs. Read-only: the maps below are built once at load
// and never written.
import definitionsJson from '../../../generated/openapi/definitions.json';
import operationsJson from '../../../generated/openapi/operations.json';

/** An OpenAPI v3 schema object as the definitions hold it. */
export interface OpenApiSchema {
  $ref?: string;
  allOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  required?: string[];
  'x-kubernetes-group-version-kind'?: { group: string; kind: string; version: string }[];
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
}

export type ParamType = 'string' | 'integer' | 'boolean';
/** [name, in, type, required, index of the description in `texts` or -1]; scripts/openapi/operations.ts writes them. */
export type GenParam = [name: string, where: 'path' | 'query', type: ParamType, required: boolean, text: number];

export interface GenOp {
  operationId: string;
  description?: string;
  parameters: GenParam[];
  /** Request content types (patch types for PATCH). */
  consumes?: string[];
  /** Definition name of the request body. */
  body?: string;
  /** Definition name of the result, or `string` for logs and proxies. */
  returns?: string;
}

export const REF_PREFIX = '#/components/schemas/';

export const definitions: Readonly<Record<string, OpenApiSchema>> = definitionsJson as unknown as Record<string, OpenApiSchema>;

const operations = operationsJson as unknown as { fingerprint: string; texts: string[]; paths: Record<string, Record<string, GenOp>> };

/** Digest of the generated data (definitions and operations), set by the generator. */
export const GENERATED_FINGERPRINT: string = operations.fingerprint;

/** The client-node operation for a path and lower-case method, if the package has it. */
export function generatedOperation(path: string, method: string): GenOp | undefined {
  return operations.paths[path]?.[method];
}

/** A parameter description by its index in the shared text table. */
export function parameterText(i: number): string | undefined {
  return i >= 0 ? operations.texts[i] : undefined;
}

export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
export const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
export const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
export const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
export const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
export const WATCH_EVENT = 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent';
export const API_RESOURCE_LIST = 'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList';

/** Definition name a `$ref` points at. */
export function refName(ref: string): string {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
}

/**
 * Group → version → kind → definition name, for every definition that declares
 * its GVKs (nested: a lookup per request builds no key string).
 */
const byGvk: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, string>>> = (() => {
  const m = new Map<string, Map<string, Map<string, string>>>();
  for (const [name, d] of Object.entries(definitions)) {
    for (const g of d['x-kubernetes-group-version-kind'] ?? []) {
      let versions = m.get(g.group);
      if (!versions) m.set(g.group, (versions = new Map()));
      let kinds = versions.get(g.version);
      if (!kinds) versions.set(g.version, (kinds = new Map()));
      // DeleteOptions and WatchEvent list every group; a kind's own definition wins.
      if (!kinds.has(g.kind)) kinds.set(g.kind, name);
    }
  }
  return m;
})();

export function definitionForKind(group: string, version: string, kind: string): string | undefined {
  return byGvk.get(group)?.get(version)?.get(kind);
}
