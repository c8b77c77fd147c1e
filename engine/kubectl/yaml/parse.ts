// Reading manifests as kubectl does: a stream of YAML (or JSON) documents
// converted to JSON with go-yaml v2's YAML 1.1 typing (yes/no/on/off are
// booleans, 0777 is octal, timestamps stay strings), empty documents skipped.
// Parse errors are reworded to go-yaml's messages with its line numbers
// (scanner errors: the problem's line; parser errors: the line before it).
import { parseAllDocuments, type YAMLError } from 'yaml';

export type ParseResult = { ok: true; docs: unknown[] } | { ok: false; message: string };

type Tag = { tag?: string; format?: string };

const OPTIONS = {
  version: '1.1' as const,
  uniqueKeys: false,
  merge: true,
  customTags: (tags: unknown[]) => (tags as Tag[]).filter((t) => t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME') as never,
};

function goYamlMessage(errors: readonly YAMLError[], text: string): string {
  const lastLine = text.replace(/\n+$/, '').split('\n').length;
  const multiline = errors.find((e) => e.code === 'MULTILINE_IMPLICIT_KEY');
  const e = errors[0]!;
  const line = e.linePos?.[0]?.line ?? 1;
  const first = e.message.split('\n')[0] ?? '';
  switch (e.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
      return `yaml: line ${multiline?.linePos?.[1]?.line ?? line}: mapping values are not allowed in this context`;
    case 'MULTILINE_IMPLICIT_KEY':
      return `yaml: line ${e.linePos?.[1]?.line ?? line}: mapping values are not allowed in this context`;
    case 'TAB_AS_INDENT':
      return `yaml: line ${line}: found character that cannot start any token`;
    case 'MISSING_CHAR':
      if (/quote/i.test(first)) return `yaml: line ${line}: found unexpected end of stream`;
      return `yaml: line ${Math.max(1, line - 1)}: did not find expected ${/\}/.test(first) ? "',' or '}'" : "',' or ']'"}`;
    case 'BAD_INDENT':
      // go-yaml names the line after the token that broke the flow collection (0-based): at EOF that is the previous line
      if (/Flow sequence/.test(first)) return `yaml: line ${line > lastLine ? line - 1 : line}: did not find expected ',' or ']'`;
      if (/Flow mapping/.test(first)) return `yaml: line ${line > lastLine ? line - 1 : line}: did not find expected ',' or '}'`;
      return `yaml: line ${Math.max(1, line - 1)}: did not find expected key`;
    case 'UNEXPECTED_TOKEN':
      return `yaml: line ${line}: did not find expected <document start>`;
    default:
      return `yaml: line ${line}: ${first.replace(/ at line \d+, column \d+:?$/, '')}`;
  }
}

/** Splits and converts a manifest stream. Lists (`kind: List`) are kept as one document. */
export function parseManifests(text: string): ParseResult {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    // kubectl's YAMLOrJSONDecoder reads JSON documents with encoding/json.
    try {
      return { ok: true, docs: [JSON.parse(text) as unknown] };
    } catch {
      // fall through: YAML accepts more, and reports a position
    }
  }
  const docs = parseAllDocuments(text, OPTIONS);
  const list = Array.isArray(docs) ? docs : [docs];
  const out: unknown[] = [];
  for (const d of list) {
    if (d.errors.length > 0) return { ok: false, message: `error converting YAML to JSON: ${goYamlMessage(d.errors, text)}` };
    const v = d.toJS({ maxAliasCount: 1000 }) as unknown;
    if (v === null || v === undefined) continue;
    out.push(normalize(v));
  }
  return { ok: true, docs: out };
}

/** YAML values to JSON values: Maps and odd keys become strings, Uint8Array (!!binary) base64. */
function normalize(v: unknown): unknown {
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(k)] = normalize(x);
    return o;
  }
  if (v instanceof Set) return [...v].map(normalize);
  if (Array.isArray(v)) return v.map(normalize);
  if (v instanceof Uint8Array) {
    let s = '';
    for (const b of v) s += String.fromCharCode(b);
    return btoa(s);
  }
  if (typeof v === 'object' && v !== null) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = normalize(x);
    return o;
  }
  if (typeof v === 'bigint') return Number(v);
  return v;
}
