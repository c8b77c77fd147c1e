// The Prometheus text exposition format (version 0.0.4) as client_golang's
// expfmt writes it: families sorted by name, each with its HELP and TYPE
// lines, samples sorted by their label values, labels sorted by name, values
// as strconv.FormatFloat(v, 'g', -1, 64), optional timestamps in ms. A family
// without samples is left out, as the registry's Gather does.
import { goFormatFloatG } from '../../kubectl/yaml/emit';

export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export interface PromSample {
  labels?: Record<string, string>;
  value: number;
  /** Milliseconds since the Unix epoch. */
  timestampMs?: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: PromSample[];
}

const escapeHelp = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

function labelPairs(labels: Record<string, string> | undefined): [string, string][] {
  return Object.entries(labels ?? {}).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** internal.MetricSorter: label values in label-name order, then the timestamp. */
function compareSamples(a: PromSample, b: PromSample): number {
  const la = labelPairs(a.labels);
  const lb = labelPairs(b.labels);
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const x = la[i]![1];
    const y = lb[i]![1];
    if (x !== y) return x < y ? -1 : 1;
  }
  return (a.timestampMs ?? 0) - (b.timestampMs ?? 0);
}

export function renderPrometheusText(families: readonly MetricFamily[]): string {
  let out = '';
  for (const f of [...families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (f.samples.length === 0) continue;
    out += `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
    for (const s of [...f.samples].sort(compareSamples)) {
      const pairs = labelPairs(s.labels);
      const labels = pairs.length ? `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
      out += `${f.name}${labels} ${goFormatFloatG(s.value)}${s.timestampMs === undefined ? '' : ` ${Math.floor(s.timestampMs)}`}\n`;
    }
  }
  return out;
}
