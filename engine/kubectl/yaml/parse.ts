// Reading manifests as kubectl does: a stream of YAML (or JSON) documents
// converted to JSON with go-yaml v2's YAML 1.1 typing (yes/no/on/off are
// booleans, 0777 is octal, timestamps stay strings), empty documents skipped.
// Parse errors are reworded to go-yaml's messages with its line numbers
// (scanner errors: the problem's line; parser errors: the line before it).
import { goYamlMessage } from '../../apimachinery/yaml/goYamlErrors';
import { parseAllDocuments, type YAMLError } from 'yaml';

export type ParseResult = { ok: true; docs: unknown[] } | { ok: false; message: string };

type Tag = { tag?: string; format?: string };

const OPTIONS = {
  version: '1.1' as const,
  uniqueKeys: false,
  merge: true,
  customTags: (tags: unknown[]) => (tags as Tag[]).filter((t) => t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME') as never,
};


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
    if (d.errors.length > 0) return { ok: false, message: `error converting YAML to JSON: ${goYamlMessage(d.errors[0]!, d.errors, text)}` };
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
