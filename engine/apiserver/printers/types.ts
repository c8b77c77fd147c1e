// The shapes of a meta.k8s.io/v1 Table and of one resource's printer
// (k8s.io/apimachinery/pkg/apis/meta/v1/types.go Table*, pkg/printers TableHandler).
import type { KObject } from '../../apimachinery/types';
import { DOC, type DocKey } from './descriptions';

/** metav1.TableColumnDefinition; every field is always serialized. */
export interface TableColumnDefinition {
  name: string;
  /** OpenAPI type: string, integer, number, boolean, date. */
  type: string;
  /** OpenAPI format; "name" marks the column holding the object's name. */
  format: string;
  description: string;
  /** 0 for the default view, 1 and up for `-o wide`. */
  priority: number;
}

export type Cell = string | number | boolean;

/** metav1.TableRowCondition: only "Completed" is defined. */
export interface TableRowCondition {
  type: 'Completed';
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

/** What a printer makes of one object; the table adds `object`. */
export interface PrintedRow {
  cells: Cell[];
  conditions?: TableRowCondition[];
}

/** A TableHandler: its columns and its row function. `now` is ms since the Unix epoch. */
export interface Printer {
  columns: readonly TableColumnDefinition[];
  print(o: KObject, now: number): PrintedRow;
}

/** A column whose description is an API field's doc, or a literal text. */
export function col(
  name: string,
  type: string,
  description: DocKey | { text: string },
  opts: { priority?: number; format?: string } = {},
): TableColumnDefinition {
  return {
    name,
    type,
    format: opts.format ?? '',
    description: typeof description === 'string' ? DOC[description] : description.text,
    priority: opts.priority ?? 0,
  };
}

export const NAME_COLUMN = col('Name', 'string', 'meta.name', { format: 'name' });
export const AGE_COLUMN = col('Age', 'string', 'meta.creationTimestamp');
export const CONTAINERS_COLUMN = col('Containers', 'string', { text: 'Names of each container in the template.' }, { priority: 1 });
export const IMAGES_COLUMN = col('Images', 'string', { text: 'Images referenced by each container in the template.' }, { priority: 1 });
