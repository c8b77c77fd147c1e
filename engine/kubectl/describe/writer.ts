// describe's output plumbing (staging/src/k8s.io/kubectl/pkg/describe/describe.go:
// tabbedString, PrefixWriter, printLabelsMultiline, printAnnotationsMultiline,
// tolerations/taints, DescribeEvents) over Go's text/tabwriter(0, 8, 2, ' ', 0).
import { DESCRIBE_TABWRITER, TabWriter } from '../printers/tabWriter';
import { parseTime, rfc1123z, timestampSince } from '../util/duration';
import { goSortArray } from '../util/goSort';

type Obj = Record<string, any>;

export class PrefixWriter {
  readonly tw = new TabWriter(DESCRIBE_TABWRITER);
  private raw = '';

  /** `direct`: no tab alignment (describers writing into a plain buffer, as rollout history does). */
  constructor(private readonly direct = false) {}

  /** w.Write(level, text): two spaces per level, ESC/CR made visible. */
  write(level: number, text: string): void {
    const s = ('  '.repeat(level) + text).replace(/\x1b/g, '^[').replace(/\r/g, '\\r');
    if (this.direct) this.raw += s;
    else this.tw.write(s);
  }
  /** w.WriteLine(a): the value and a newline. */
  writeLine(text: string): void {
    this.write(0, `${text}\n`);
  }
  flush(): void {
    if (!this.direct) this.tw.flush();
  }
  /** tabbedString's result. */
  done(): string {
    if (this.direct) return this.raw;
    this.tw.flush();
    return this.tw.take();
  }
}

export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | undefined, initialIndent = '', innerIndent = '\t', skip: Set<string> = new Set()): void {
  w.write(0, `${initialIndent}${title}:${innerIndent}`);
  const keys = Object.keys(labels ?? {})
    .filter((k) => !skip.has(k))
    .sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) {
      w.write(0, initialIndent);
      w.write(0, innerIndent);
    }
    w.write(0, `${k}=${labels![k]}\n`);
  });
}

const MAX_ANNOTATION_LEN = 140;
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

export function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Record<string, string> | undefined): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {})
    .filter((k) => !SKIP_ANNOTATIONS.has(k))
    .sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const indent = '\t';
  keys.forEach((k, i) => {
    if (i !== 0) w.write(0, indent);
    const value = annotations![k]!.replace(/\n$/, '');
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(0, `${k}:\n`);
      for (const s of value.split('\n')) w.write(0, `${indent}  ${shorten(s, MAX_ANNOTATION_LEN - 2)}\n`);
    } else w.write(0, `${k}: ${value}\n`);
  });
}

export function printTolerationsMultiline(w: PrefixWriter, title: string, tolerations: Obj[] | undefined, initialIndent = '', innerIndent = '\t'): void {
  w.write(0, `${initialIndent}${title}:${innerIndent}`);
  const ts = [...(tolerations ?? [])];
  if (ts.length === 0) {
    w.writeLine('<none>');
    return;
  }
  ts.sort((a, b) => (String(a.key ?? '') < String(b.key ?? '') ? -1 : String(a.key ?? '') > String(b.key ?? '') ? 1 : 0));
  ts.forEach((t, i) => {
    if (i !== 0) {
      w.write(0, initialIndent);
      w.write(0, innerIndent);
    }
    let s = String(t.key ?? '');
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${s}\n`);
  });
}

export function printTaintsMultiline(w: PrefixWriter, title: string, taints: Obj[] | undefined): void {
  w.write(0, `${title}:\t`);
  const ts = taints ?? [];
  if (ts.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const k = (t: Obj) => `${t.effect ?? ''},${t.key ?? ''}`;
  const sorted = [...ts].sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    w.write(0, `${taintString(t)}\n`);
  });
}

export function taintString(t: Obj): string {
  if (t.value) return `${t.key}=${t.value}:${t.effect}`;
  return `${t.key}:${t.effect}`;
}

/** metav1.Time.Format(time.RFC1123Z); Go's zero time for a missing value. */
export function timeRfc1123z(ts: unknown): string {
  const t = parseTime(ts);
  return t === undefined ? 'Mon, 01 Jan 0001 00:00:00 +0000' : rfc1123z(t);
}

/**
 * kubectl/pkg/util/event SortableEvents: by lastTimestamp alone, Go's zero time
 * when unset; so an events.k8s.io event (the scheduler's Scheduled, with only
 * eventTime) sorts before the kubelet's of the same second. (`kubectl events`
 * has its own sorter, which falls back to eventTime.)
 */
export function eventSortTime(e: Obj): number {
  return parseTime(e.lastTimestamp) ?? -62135596800000;
}

/** One row of describe's Events table (a core/v1 Event): its Type, Reason, Age ("2m (x4 over 5m)"), From and Message. */
export function eventRow(e: Obj, now: number): { type: string; reason: string; age: string; from: string; message: string } {
  let first = timestampSince(e.eventTime, now);
  if (!parseTime(e.eventTime)) first = timestampSince(e.firstTimestamp, now);
  let age: string;
  if (e.series) age = `${timestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
  else if ((e.count ?? 0) > 1) age = `${timestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  else age = first;
  return { type: e.type ?? '', reason: e.reason ?? '', age, from: e.source?.component || e.reportingComponent || '', message: String(e.message ?? '').trim() };
}

export function describeEvents(events: Obj[] | null | undefined, w: PrefixWriter, now: number): void {
  if (!events) return;
  if (events.length === 0) {
    w.write(0, 'Events:\t<none>\n');
    return;
  }
  w.flush();
  const sorted = goSortArray([...events], (a, b) => eventSortTime(a) < eventSortTime(b));
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const r = eventRow(e, now);
    w.write(1, `${r.type}\t${r.reason}\t${r.age}\t${r.from}\t${r.message}\n`);
  }
}
