// Printing server-side Tables as kubectl's HumanReadablePrinter does
// (cli-runtime printers/tableprinter.go v1.32: decorateTable, printTable):
// upper-cased headers, priority>0 columns only with -o wide, NAMESPACE first
// with -A, label columns, `kind/name` when several kinds are printed, no
// header for a table whose columns were already printed, cells cut at the
// first line break with `...`.
import { goFmtV } from './goJson';
import type { TabWriter } from './tabWriter';

export interface TableColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
}
export interface TableRow {
  cells: unknown[];
  object?: { metadata?: { name?: string; namespace?: string; labels?: Record<string, string> } } & Record<string, unknown>;
}
export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata?: { resourceVersion?: string; continue?: string };
  columnDefinitions: TableColumn[] | null;
  rows: TableRow[] | null;
}

export interface PrintOptions {
  noHeaders: boolean;
  wide: boolean;
  withNamespace: boolean;
  withKind: boolean;
  /** GroupKind.String() lower-cased, e.g. `deployment.apps`, `pod`. */
  kind: string;
  showLabels: boolean;
  columnLabels: string[];
}

export function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'Table' && /^meta\.k8s\.io\//.test(String((v as { apiVersion?: unknown }).apiVersion));
}

/** labels.FormatLabels: sorted `k=v` joined by commas, `<none>` when empty. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

function formatLabelHeaders(labels: string[]): string[] {
  return labels.map((l) => {
    const p = l.split('/');
    return p[p.length - 1]!.toUpperCase();
  });
}

/** WriteEscaped: ESC and CR made visible (printers/terminal.go terminalEscaper). */
function escapeTerminal(s: string): string {
  return s.replace(/\x1b/g, '^[').replace(/\r/g, '\\r');
}

function decorate(table: Table, o: PrintOptions): { columns: TableColumn[]; rows: unknown[][] } {
  const defs = table.columnDefinitions ?? [];
  let nameColumn = -1;
  if (o.withKind && o.kind) nameColumn = defs.findIndex((c) => c.format === 'name' && c.type === 'string');
  const columns: TableColumn[] = [];
  if (o.withNamespace) columns.push({ name: 'Namespace', type: 'string' });
  columns.push(...defs);
  for (const l of formatLabelHeaders(o.columnLabels)) columns.push({ name: l, type: 'string' });
  if (o.showLabels) columns.push({ name: 'Labels', type: 'string' });
  const includeLabels = o.columnLabels.length > 0 || o.showLabels;
  const rows = (table.rows ?? []).map((row) => {
    let cells = [...row.cells];
    if (nameColumn !== -1) cells[nameColumn] = `${o.kind}/${goFmtV(cells[nameColumn])}`;
    const meta = row.object?.metadata;
    if (!meta) {
      if (o.withNamespace) cells = [null, ...cells];
      while (cells.length < columns.length) cells.push(null);
      return cells;
    }
    if (o.withNamespace) cells = [meta.namespace ?? '', ...cells];
    if (includeLabels) {
      for (const k of o.columnLabels) cells.push(meta.labels?.[k] ?? '');
      if (o.showLabels) cells.push(formatLabels(meta.labels));
    }
    return cells;
  });
  return { columns, rows };
}

/** HumanReadablePrinter: remembers the last columns so repeated tables share one header. */
export class TablePrinter {
  private lastColumns: TableColumn[] | null = null;
  private printedHeaders = false;

  constructor(private readonly opts: PrintOptions) {}

  print(table: Table, w: TabWriter, eventType?: string): void {
    const local = { ...this.opts };
    const defs = table.columnDefinitions ?? [];
    const same = this.lastColumns !== null && JSON.stringify(defs) === JSON.stringify(this.lastColumns);
    if (this.printedHeaders && (defs.length === 0 || same)) local.noHeaders = true;
    let t = table;
    if (defs.length === 0) t = { ...table, columnDefinitions: this.lastColumns ?? [] };
    else if (!same) {
      this.lastColumns = defs;
      this.printedHeaders = false;
    }
    if ((table.rows ?? []).length > 0) this.printedHeaders = true;
    let { columns, rows } = decorate(t, local);
    if (eventType !== undefined) {
      columns = [{ name: 'Event', type: 'string' }, ...columns];
      rows = rows.map((r) => [formatEventType(eventType), ...r]);
    }
    printTable(columns, rows, w, local);
  }
}

/** Event types padded to one width so watch rows line up (tableprinter.go formattedEventType). */
function formatEventType(t: string): string {
  const padded: Record<string, string> = { ADDED: 'ADDED   ', MODIFIED: 'MODIFIED', DELETED: 'DELETED ', ERROR: 'ERROR   ' };
  return padded[t] ?? t;
}

function printTable(columns: TableColumn[], rows: unknown[][], w: TabWriter, o: PrintOptions): void {
  const visible = (c: TableColumn) => o.wide || (c.priority ?? 0) === 0;
  if (!o.noHeaders) {
    if (rows.length === 0) return;
    w.write(
      columns
        .filter(visible)
        .map((c) => c.name.toUpperCase())
        .join('\t') + '\n',
    );
  }
  for (const row of rows) {
    const parts: string[] = [];
    row.forEach((cell, i) => {
      const c = columns[i];
      if (!c || !visible(c)) return;
      if (cell === null || cell === undefined) {
        parts.push('');
        return;
      }
      if (typeof cell === 'string') {
        const brk = cell.search(/[\f\n\r]/);
        parts.push(brk >= 0 ? `${escapeTerminal(cell.slice(0, brk))}...` : escapeTerminal(cell));
      } else parts.push(escapeTerminal(goFmtV(cell)));
    });
    w.write(parts.join('\t') + '\n');
  }
}
