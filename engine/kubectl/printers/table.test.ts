import { describe, expect, it } from 'vitest';
import { TablePrinter, type PrintOptions, type Table } from './table';
import { KUBECTL_TABWRITER, TabWriter } from './tabWriter';

const podTable: Table = {
  kind: 'Table',
  apiVersion: 'meta.k8s.io/v1',
  metadata: { resourceVersion: '10' },
  columnDefinitions: [
    { name: 'Name', type: 'string', format: 'name', priority: 0 },
    { name: 'Ready', type: 'string', priority: 0 },
    { name: 'Restarts', type: 'integer', priority: 0 },
    { name: 'Node', type: 'string', priority: 1 },
  ],
  rows: [
    { cells: ['web-1', '1/1', 0, 'node-1'], object: { metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web', tier: 'fe' } } } },
    { cells: ['db-0', '0/1', 12, null], object: { metadata: { name: 'db-0', namespace: 'prod' } } },
  ],
};

const base: PrintOptions = { noHeaders: false, wide: false, withNamespace: false, withKind: false, kind: 'pod', showLabels: false, columnLabels: [] };

function print(t: Table, o: Partial<PrintOptions> = {}, times = 1): string {
  const w = new TabWriter(KUBECTL_TABWRITER);
  const p = new TablePrinter({ ...base, ...o });
  for (let i = 0; i < times; i++) p.print(JSON.parse(JSON.stringify(t)) as Table, w);
  w.flush();
  return w.take();
}

describe('TablePrinter (HumanReadablePrinter over server-side Tables)', () => {
  it('upper-cases headers, hides priority columns, prints numbers and nulls', () => {
    expect(print(podTable)).toBe('NAME    READY   RESTARTS\nweb-1   1/1     0\ndb-0    0/1     12\n');
  });

  it('shows priority columns with -o wide and leaves null cells empty', () => {
    expect(print(podTable, { wide: true })).toBe('NAME    READY   RESTARTS   NODE\nweb-1   1/1     0          node-1\ndb-0    0/1     12         \n');
  });

  it('adds NAMESPACE, kind prefixes, label columns and LABELS', () => {
    expect(print(podTable, { withNamespace: true, withKind: true, columnLabels: ['app'], showLabels: true })).toBe(
      'NAMESPACE   NAME        READY   RESTARTS   APP   LABELS\ndefault     pod/web-1   1/1     0          web   app=web,tier=fe\nprod        pod/db-0    0/1     12               <none>\n',
    );
  });

  it('prints the header once for repeated tables with the same columns, never for empty ones', () => {
    expect(print(podTable, {}, 2)).toBe('NAME    READY   RESTARTS\nweb-1   1/1     0\ndb-0    0/1     12\nweb-1   1/1     0\ndb-0    0/1     12\n');
    expect(print({ ...podTable, rows: [] })).toBe('');
    expect(print(podTable, { noHeaders: true })).toBe('web-1   1/1   0\ndb-0    0/1   12\n');
  });

  it('cuts cells at a line break and escapes ESC', () => {
    const t: Table = { ...podTable, columnDefinitions: [{ name: 'Message', type: 'string' }], rows: [{ cells: ['line1\nline2'] }, { cells: ['\x1b[31mred'] }] };
    expect(print(t)).toBe('MESSAGE\nline1...\n^[[31mred\n');
  });
});
