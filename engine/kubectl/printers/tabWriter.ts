// Elastic tabstops as Go's text/tabwriter lays them out, with liggitt/tabwriter's
// RememberWidths extension that kubectl uses so watch rows stay aligned
// (github.com/liggitt/tabwriter tabwriter.go; cli-runtime printers/tabwriter.go).
//
// Text is cut into cells at '\t' (tab-terminated) and '\v'; lines end at '\n'.
// The last cell of a line never belongs to a column. A column block is a run
// of consecutive lines that have a cell in that column; its width is the widest
// cell plus padding (at least minwidth). A line made of one cell flushes.

interface Cell {
  text: string;
  width: number;
  htab: boolean;
}

export interface TabWriterOptions {
  minwidth: number;
  tabwidth: number;
  padding: number;
  padchar: string;
  rememberWidths: boolean;
}

/** printers.GetNewTabWriter: minwidth 6, tabwidth 4, padding 3, RememberWidths. */
export const KUBECTL_TABWRITER: TabWriterOptions = { minwidth: 6, tabwidth: 4, padding: 3, padchar: ' ', rememberWidths: true };
/** describe's tabwriter.NewWriter(out, 0, 8, 2, ' ', 0). */
export const DESCRIBE_TABWRITER: TabWriterOptions = { minwidth: 0, tabwidth: 8, padding: 2, padchar: ' ', rememberWidths: false };

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export class TabWriter {
  private lines: Cell[][] = [[]];
  private cell = '';
  private widths: number[] = [];
  private maxwidths: number[] = [];
  private out = '';
  private pending = '';

  constructor(
    private readonly opts: TabWriterOptions,
    private readonly sink?: (text: string) => void,
  ) {}

  write(text: string): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\t' || ch === '\v' || ch === '\n' || ch === '\f') {
        this.cell += text.slice(start, i);
        start = i + 1;
        const ncells = this.terminateCell(ch === '\t');
        if (ch === '\n' || ch === '\f') {
          this.lines.push([]);
          if (ch === '\f' || ncells === 1) this.flush();
        }
      }
    }
    this.cell += text.slice(start);
  }

  /** Formats and emits everything buffered; remembered widths survive. */
  flush(): void {
    if (this.cell.length > 0) this.terminateCell(false);
    this.format(0, this.lines.length);
    this.lines = [[]];
    this.cell = '';
    this.widths = [];
    const out = this.out;
    this.out = '';
    if (out && this.sink) this.sink(out);
    else this.pending += out;
  }

  /** Text emitted so far (when no sink was given); clears it. */
  take(): string {
    const s = this.pending;
    this.pending = '';
    return s;
  }

  setRememberedWidths(widths: number[] | null): void {
    this.maxwidths = widths ? [...widths] : [];
  }

  private terminateCell(htab: boolean): number {
    const line = this.lines[this.lines.length - 1]!;
    line.push({ text: this.cell, width: runeCount(this.cell), htab });
    this.cell = '';
    return line.length;
  }

  private format(line0: number, line1: number): void {
    const column = this.widths.length;
    for (let cur = line0; cur < line1; cur++) {
      const line = this.lines[cur]!;
      if (column >= line.length - 1) continue;
      this.writeLines(line0, cur);
      line0 = cur;
      let width = this.opts.minwidth;
      for (; cur < line1; cur++) {
        const l = this.lines[cur]!;
        if (column >= l.length - 1) break;
        const w = l[column]!.width + this.opts.padding;
        if (w > width) width = w;
      }
      if (this.opts.rememberWidths) {
        if (this.maxwidths.length < this.widths.length) this.maxwidths.push(...this.widths.slice(this.maxwidths.length));
        const remembered = this.maxwidths[this.widths.length];
        if (remembered === undefined) this.maxwidths.push(width);
        else if (remembered > width) width = remembered;
        else if (remembered < width) this.maxwidths[this.widths.length] = width;
      }
      this.widths.push(width);
      this.format(line0, cur);
      this.widths.pop();
      line0 = cur;
    }
    this.writeLines(line0, line1);
  }

  private writeLines(line0: number, line1: number): void {
    for (let i = line0; i < line1; i++) {
      const line = this.lines[i]!;
      line.forEach((c, j) => {
        this.out += c.text;
        if (j < this.widths.length) this.out += this.opts.padchar.repeat(Math.max(0, this.widths[j]! - c.width));
      });
      if (i + 1 < this.lines.length) this.out += '\n';
    }
  }
}
