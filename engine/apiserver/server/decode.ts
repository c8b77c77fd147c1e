// Request bodies: JSON (or YAML with Content-Type application/yaml) into a
// plain value, with the errors the real decoder gives for malformed input,
// too-deep nesting and YAML alias bombs, and a list of duplicate fields for
// strict field validation.
import { parseDocument } from 'yaml';
import type { Status } from '../../apimachinery/types';
import { status } from '../../apimachinery/status';
import type { ApiRequest } from '../types';
import { decodeK8sProtobuf, PROTOBUF_CONTENT_TYPE } from '../protobuf/codec';

function base64ToBytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Nesting limit. Upstream's JSON decoder stops at 10,000 levels with
 * "exceeded max depth"; this simulation gives the same answer from 1,000 levels
 * on, so its own (recursive) checks never run out of stack. No real object
 * comes near either limit.
 */
export const MAX_DEPTH = 1_000;
/** The apiserver refuses request bodies over 3 MiB (MaxRequestBodyBytes). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** `unshared`: the value is a JSON.parse result, no member of it referenced twice (YAML aliases can be), so it may be edited in place. */
export type Parsed = { ok: true; value: unknown; text: string; duplicates: string[]; unshared?: true } | { ok: false; status: Status };

export function parseBody(req: ApiRequest): Parsed {
  const text = req.body ?? '';
  if (text.length > MAX_BODY_BYTES) return { ok: false, status: status.requestEntityTooLarge(`limit is ${MAX_BODY_BYTES}`) };
  const ct = (req.headers['content-type'] ?? 'application/json').split(';')[0]!.trim();
  if (ct === 'application/yaml') return parseYaml(text);
  if (ct === PROTOBUF_CONTENT_TYPE) {
    // Typed clients (kubectl create, auth can-i) send Kubernetes protobuf.
    const bytes = req.binaryBody ? base64ToBytes(text) : new TextEncoder().encode(text);
    const d = decodeK8sProtobuf(bytes);
    if (!d.ok) return { ok: false, status: status.badRequest(d.error) };
    return { ok: true, value: d.object, text: JSON.stringify(d.object), duplicates: [] };
  }
  if (ct !== 'application/json' && ct !== '' && !ct.endsWith('+json')) {
    return { ok: false, status: status.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor`) };
  }
  return parseJson(text);
}

function versionKindError(detail: string): Status {
  return status.badRequest(`couldn't get version/kind; json parse error: ${detail}`);
}

export function parseJson(text: string): Parsed {
  const p = parseWithinDepth(text);
  if (!p.ok) return p;
  // A repeated key leaves its key (and maybe a string value) out of the parsed value: fewer strings
  // than the text holds. Only then is the text scanned for where.
  const duplicates = p.strings === countTextStrings(text) ? [] : scanJson(text).duplicates;
  return { ok: true, value: p.value, text, duplicates, unshared: true };
}

/** JSON.parse with the decoder's errors and nesting limit (read off the parsed value; the text is scanned only when parsing fails). */
function parseWithinDepth(text: string): { ok: true; value: unknown; strings: number } | { ok: false; status: Status } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, status: versionKindError(tooDeep(text) ? 'exceeded max depth' : goJsonError(text, e as Error)) };
  }
  const strings = countValueStrings(value, 0);
  if (strings < 0) return { ok: false, status: versionKindError('exceeded max depth') };
  return { ok: true, value, strings };
}

/**
 * The strings of valid JSON text: its unescaped quotes, halved. A quote is
 * escaped when an odd run of backslashes precedes it (outside strings valid
 * JSON has no backslashes). indexOf hops between quotes faster than a scan.
 */
function countTextStrings(text: string): number {
  let quotes = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) quotes++;
  for (let i = text.indexOf('\\'); i >= 0; ) {
    let j = i;
    while (text.charCodeAt(j) === 0x5c) j++;
    if ((j - i) % 2 === 1 && text.charCodeAt(j) === 0x22) quotes--;
    i = text.indexOf('\\', j);
  }
  return quotes / 2;
}

/** Keys and string values of a parsed JSON value, or -1 past the nesting limit. */
function countValueStrings(v: unknown, depth: number): number {
  if (typeof v === 'string') return 1;
  if (typeof v !== 'object' || v === null) return 0;
  if (++depth > MAX_DEPTH) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const m = countValueStrings(v[i], depth);
      if (m < 0) return -1;
      n += m;
    }
    return n;
  }
  for (const k in v) {
    const m = countValueStrings((v as Record<string, unknown>)[k], depth);
    if (m < 0) return -1;
    n += 1 + m;
  }
  return n;
}

/** The nesting limit of JSON text (a string's brackets are skipped): whether { and [ open past MAX_DEPTH. */
function tooDeep(text: string): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22) break;
        if (d === 0x5c /* \ */) i++;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > MAX_DEPTH) return true;
    } else if ((c === 0x7d /* } */ || c === 0x5d /* ] */) && depth > 0) depth--;
  }
  return false;
}

/**
 * A JSON body whose duplicate keys nobody reads (a patch: the patched object is
 * what gets field-checked): only the nesting limit is checked.
 */
export function parseJsonValue(text: string): Parsed {
  const p = parseWithinDepth(text);
  return p.ok ? { ok: true, value: p.value, text, duplicates: [] } : p;
}

/** Go's encoding/json wording for the first syntax error. */
function goJsonError(text: string, e: Error): string {
  if (text.trim() === '' || /end of (JSON )?input/i.test(e.message)) return 'unexpected end of JSON input';
  const m = /position (\d+)/.exec(e.message);
  const pos = m ? Number(m[1]) : 0;
  const ch = text[pos] ?? '';
  return `invalid character '${ch === "'" ? "\\'" : ch}' looking for beginning of value`;
}

/** One pass over JSON text: nesting depth and duplicate keys (by field path). */
/** A container open in the scan; its path is only spelled out when a duplicate needs it. */
interface ScanFrame {
  keys: Set<string> | null;
  key: string;
  parent: ScanFrame | null;
  /** The parent's current key when this container opened. */
  parentKey: string;
  path?: string;
}

function framePath(f: ScanFrame): string {
  if (f.path !== undefined) return f.path;
  const p = f.parent;
  f.path = !p ? '' : p.keys ? (framePath(p) ? `${framePath(p)}.${f.parentKey}` : f.parentKey) : framePath(p);
  return f.path;
}

function scanJson(text: string): { tooDeep: boolean; duplicates: string[] } {
  const stack: ScanFrame[] = [];
  const duplicates: string[] = [];
  let i = 0;
  let expectKey = false;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x22) break;
        if (d === 0x5c /* \ */) {
          escaped = true;
          j++;
        }
        j++;
      }
      const top = stack[stack.length - 1];
      if (top && top.keys && expectKey) {
        const s = text.slice(i + 1, j);
        let k = s;
        if (escaped) {
          try {
            k = JSON.parse(`"${s}"`) as string;
          } catch {
            k = s;
          }
        }
        if (top.keys.has(k)) {
          const path = framePath(top);
          duplicates.push(path ? `${path}.${k}` : k);
        }
        top.keys.add(k);
        top.key = k;
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = stack[stack.length - 1] ?? null;
      stack.push({ keys: c === 0x7b ? new Set() : null, key: '', parent, parentKey: parent ? parent.key : '' });
      if (stack.length > MAX_DEPTH) return { tooDeep: true, duplicates };
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      expectKey = !!stack[stack.length - 1]?.keys;
    }
    i++;
  }
  return { tooDeep: false, duplicates };
}

export function parseYaml(text: string): Parsed {
  // Alias expansion is capped (yaml bombs); go-yaml refuses documents whose aliases expand too far.
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false, strict: false });
  } catch (e) {
    return { ok: false, status: status.badRequest(`error converting YAML to JSON: yaml: ${(e as Error).message}`) };
  }
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    const line = err.linePos?.[0]?.line;
    return { ok: false, status: status.badRequest(`error converting YAML to JSON: yaml: ${line ? `line ${line}: ` : ''}${firstLine(err.message)}`) };
  }
  try {
    const value = doc.toJS({ maxAliasCount: 100 });
    if (depthOf(value) > MAX_DEPTH) return { ok: false, status: versionKindError('exceeded max depth') };
    return { ok: true, value, text: JSON.stringify(value) ?? '', duplicates: [] };
  } catch (e) {
    const msg = (e as Error).message;
    if (/alias/i.test(msg)) return { ok: false, status: status.badRequest('error converting YAML to JSON: yaml: document contains excessive aliasing') };
    return { ok: false, status: status.badRequest(`error converting YAML to JSON: yaml: ${firstLine(msg)}`) };
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

function depthOf(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x && typeof x === 'object') {
      if (d > max) max = d;
      if (max > MAX_DEPTH) return max;
      for (const y of Object.values(x)) stack.push([y, d + 1]);
    }
  }
  return max;
}
