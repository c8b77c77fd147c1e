import { describe, expect, it } from 'vitest';
import { DESCRIBE_TABWRITER, KUBECTL_TABWRITER, TabWriter } from './tabWriter';

function run(opts = KUBECTL_TABWRITER, ...chunks: string[]): string {
  const w = new TabWriter(opts);
  for (const c of chunks) w.write(c);
  w.flush();
  return w.take();
}

describe('TabWriter (text/tabwriter + liggitt RememberWidths)', () => {
  it('pads columns to the widest cell plus 3, at least 6; the last cell is never padded', () => {
    expect(run(KUBECTL_TABWRITER, 'NAME\tREADY\tAGE\n', 'web-1\t1/1\t5m\n')).toBe('NAME    READY   AGE\nweb-1   1/1     5m\n');
    expect(run(KUBECTL_TABWRITER, 'A\tB\n', 'x\ty\n')).toBe('A     B\nx     y\n');
  });

  it('ends a column block at a line without that column; a one-cell line flushes', () => {
    const text = run(DESCRIBE_TABWRITER, 'Name:\tweb\n', 'IPs:\n', '  IP:\t10.0.0.1\n', 'Controlled By:\tRS/x\n');
    expect(text).toBe('Name:  web\nIPs:\n  IP:           10.0.0.1\nControlled By:  RS/x\n');
  });

  it('remembers widths across flushes so watch rows stay aligned', () => {
    const w = new TabWriter(KUBECTL_TABWRITER);
    w.write('NAME\tSTATUS\n');
    w.write('a\tRunning\n');
    w.flush();
    w.write('a-much-longer-name\tPending\n');
    w.flush();
    w.write('b\tRunning\n');
    w.flush();
    expect(w.take()).toBe('NAME   STATUS\na      Running\na-much-longer-name   Pending\nb                    Running\n');
    w.setRememberedWidths(null);
    w.write('x\ty\n');
    w.flush();
    expect(w.take()).toBe('x     y\n');
  });

  it('counts runes, not bytes, and pads empty cells', () => {
    expect(run(KUBECTL_TABWRITER, 'é\t\tz\n', 'ab\tc\td\n')).toBe('é           z\nab    c     d\n');
  });
});
