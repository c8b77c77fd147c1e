// Server-side printing: meta.k8s.io/v1 Tables for `kubectl get`.
export { toTable, type IncludeObject, type TableOptions } from './table';
export { printerFor } from './registry';
export { humanDuration, shortHumanDuration, parseTime, translateTimestampSince } from './age';
export type { Cell, Printer, PrintedRow, TableColumnDefinition, TableRowCondition } from './types';
