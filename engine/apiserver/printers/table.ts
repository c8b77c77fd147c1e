// The meta.k8s.io/v1 Table the API server answers to
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`: the resource's
// printer run with Wide (pkg/printers/storage TableConvertor always asks for
// every column), or rest.defaultTableConvertor (NAME, CREATED AT) for
// resources without one; then each row's object as the request's
// includeObject says (handlers/response.go asTable).
import { storedShape } from '../registry/conversion';
import type { JsonObject, KObject } from '../../apimachinery/types';
import type { ResourceInfo } from '../registry/resources';
import { epochMs } from '../http/time';
import { DOC } from './descriptions';
import { printerFor } from './registry';
import type { Cell, PrintedRow, TableColumnDefinition } from './types';
import { parseTime } from './age';

export type IncludeObject = 'None' | 'Object' | 'Metadata';

export interface TableOptions {
  /** Virtual time now, in ms (the clock whose 0 is epochMs(), as object timestamps are written). */
  now: number;
  /** metav1.TableOptions.IncludeObject; the server's default is Metadata, kubectl asks for Object. */
  includeObject: IncludeObject;
  /** The list's metadata; absent for a single object, whose resourceVersion the Table then carries. */
  listMeta?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  /** metav1.TableOptions.NoHeaders: columnDefinitions come back null (watch events after the first). */
  noHeaders?: boolean;
}

const DEFAULT_COLUMNS: readonly TableColumnDefinition[] = [
  { name: 'Name', type: 'string', format: 'name', description: DOC['meta.name'], priority: 0 },
  { name: 'Created At', type: 'date', format: '', description: DOC['meta.creationTimestamp'], priority: 0 },
];

/** Time.UTC().Format(time.RFC3339) of the creation timestamp; the zero time prints as year 1. */
function createdAt(o: KObject): string {
  const t = parseTime(o.metadata.creationTimestamp);
  if (t === undefined) return '0001-01-01T00:00:00Z';
  return `${new Date(Math.floor(t / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** The row's object: the full object, its PartialObjectMetadata, or null. */
function rowObject(o: KObject, include: IncludeObject): JsonObject | null {
  switch (include) {
    case 'Object':
      return o as unknown as JsonObject;
    case 'Metadata':
      // meta.AsPartialObjectMetadata copies the whole ObjectMeta.
      return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata as unknown as JsonObject };
    case 'None':
      return null;
  }
}

function listMetaJson(meta: TableOptions['listMeta'], objects: readonly KObject[]): JsonObject {
  const out: JsonObject = {};
  // A single object's Table carries its resourceVersion (meta.CommonAccessor).
  const rv = meta ? meta.resourceVersion : objects[0]?.metadata.resourceVersion;
  if (rv) out['resourceVersion'] = rv;
  if (meta?.continue) out['continue'] = meta.continue;
  if (meta?.remainingItemCount !== undefined) out['remainingItemCount'] = meta.remainingItemCount;
  return out;
}

/**
 * The whole Table object for `objects` of one resource. Pass `listMeta` for a
 * list (even an empty one), omit it for a single object.
 */
export function toTable(resource: ResourceInfo, objects: readonly KObject[], opts: TableOptions): JsonObject {
  const wallNow = epochMs() + opts.now;
  const printer = printerFor(resource.group, resource.resource);
  const printed: PrintedRow[] = printer
    ? objects.map((o) => printer.print(storedShape(resource, o), wallNow))
    : objects.map((o) => ({ cells: [o.metadata.name ?? '', createdAt(o)] as Cell[] }));
  const columns = printer ? printer.columns : DEFAULT_COLUMNS;
  const rows = printed.map((r, i) => {
    const row: JsonObject = { cells: r.cells };
    if (r.conditions) row['conditions'] = r.conditions.map((c) => ({ ...c }));
    row['object'] = rowObject(objects[i]!, opts.includeObject);
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMetaJson(opts.listMeta, objects),
    columnDefinitions: opts.noHeaders ? null : columns.map((c) => ({ ...c })),
    // The default convertor appends to a nil slice: an empty list of a printer-less resource has rows null.
    rows: !printer && rows.length === 0 ? null : rows,
  };
}
