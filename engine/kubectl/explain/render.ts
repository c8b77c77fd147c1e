// kubectl explain's plaintext output from an OpenAPI v3 document
// (staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl and
// funcs.go), written as code: the same traversal of $ref/allOf/items/
// additionalProperties, the same type guesses, enum lines, word wrapping
// (github.com/mitchellh/go-wordwrap) and indentation.

type Schema = Record<string, any>;

export class ExplainError extends Error {
  /** What the template had written before it failed (kubectl prints it). */
  partial = '';
}

/** go-wordwrap WrapString: break at white space past `lim` runes; long words stay whole. */
export function wrapString(s: string, lim: number): string {
  let buf = '';
  let current = 0;
  let word = '';
  let space = '';
  let wordLen = 0;
  let spaceLen = 0;
  const flushSpaceWord = () => {
    buf += space + word;
    space = '';
    word = '';
    spaceLen = 0;
    wordLen = 0;
  };
  for (const ch of s) {
    if (ch === '\n') {
      if (word.length === 0) {
        if (current + spaceLen > lim) current = 0;
        else {
          current += spaceLen;
          buf += space;
        }
        space = '';
        spaceLen = 0;
      } else {
        current += spaceLen + wordLen;
        flushSpaceWord();
      }
      buf += ch;
      current = 0;
    } else if (/\s/u.test(ch) && ch !== '\u00a0') {
      if (space.length === 0 || word.length > 0) {
        current += spaceLen + wordLen;
        flushSpaceWord();
      }
      space += ch;
      spaceLen++;
    } else {
      word += ch;
      wordLen++;
      if (current + spaceLen + wordLen > lim && wordLen < lim) {
        buf += '\n';
        current = 0;
        space = '';
        spaceLen = 0;
      }
    }
  }
  if (word.length === 0) {
    if (current + spaceLen <= lim) buf += space;
  } else buf += space + word;
  return buf;
}

function indent(amount: number, s: string): string {
  const pad = ' '.repeat(amount);
  return pad + s.replace(/\n/g, `\n${pad}`);
}

function resolveRef(ref: unknown, doc: Schema): Schema | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  let cur: any = doc;
  for (const k of ref.slice(1).split('/')) {
    if (k === '') continue;
    const next = cur?.[k];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return undefined;
    cur = next;
  }
  return cur as Schema;
}

const isMapSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeGuess(schema: Schema, doc: Schema): string {
  if (schema.items) return `[]${typeGuess(schema.items, doc)}`;
  if (isMapSchema(schema.additionalProperties)) return `map[string]${typeGuess(schema.additionalProperties, doc)}`;
  if (Array.isArray(schema.allOf) && !schema.properties && schema.allOf.length === 1) return typeGuess(schema.allOf[0], doc);
  if (schema.$ref) {
    const ref = String(schema.$ref);
    const refSchema = resolveRef(ref, doc);
    if (!refSchema || !refSchema.type || refSchema.type === 'object') {
      const name = ref.split('/').pop() ?? '';
      return name.split('.').pop() || 'Object';
    }
    return refSchema.type || 'Object';
  }
  if (schema.type === 'object') return 'Object';
  return schema.type || 'Object';
}

function enumText(schema: Schema, longView: boolean, limit: number, indentAmount: number): string {
  if (!Array.isArray(schema.enum) || schema.enum.length === 0) return '';
  let s = longView ? 'ENUM:' : `\n${' '.repeat(indentAmount)}enum: `;
  for (let i = 0; i < schema.enum.length; i++) {
    if (limit > -1 && i >= limit) {
      s += ', ....';
      break;
    }
    if (i > 0 && !longView) s += ', ';
    else if (longView) s += '\n    ';
    const e = schema.enum[i];
    s += e === '' ? '""' : String(e);
  }
  return s;
}

function description(schema: Schema, doc: Schema): string {
  const s = resolveRef(schema.$ref, doc) ?? schema;
  let out = '';
  if (s.description) out += `${s.description}\n`;
  for (const sub of (s.allOf as Schema[]) ?? []) out += description(sub, doc);
  if (s.items) out += description(s.items, doc);
  if (isMapSchema(s.additionalProperties)) out += description(s.additionalProperties, doc);
  return out;
}

function externalDocs(schema: Schema): string {
  const ed = schema.externalDocs;
  if (!ed) return '';
  let s = 'EXTERNAL DOCS:\n';
  if (ed.description) s += `${indent(4, wrapString(ed.description, 76))}\n`;
  if (ed.url) s += `${indent(4, `URL: ${ed.url}`)}\n`;
  return s;
}

function fieldDetail(name: string, schema: Schema, short: boolean, level: number, doc: Schema): string {
  const indentAmount = level * 2;
  const field = schema.properties[name] as Schema;
  let s = `${indent(indentAmount, name)}\t<${typeGuess(field, doc)}>`;
  if (Array.isArray(schema.required) && schema.required.includes(name)) s += ' -required-';
  s += enumText(field, false, 4, indentAmount);
  s += '\n';
  if (!short) {
    s += `${indent(indentAmount + 2, wrapString(field.description || '<no description>', 78 - indentAmount))}\n`;
    const ed = field.externalDocs as Schema | undefined;
    if (ed) {
      s += `\n${indent(indentAmount + 2, 'EXTERNAL DOCS:')}\n`;
      if (ed.description) s += `${indent(indentAmount + 4, wrapString(ed.description, 76 - indentAmount))}\n`;
      if (ed.url) s += `${indent(indentAmount + 4, `URL: ${ed.url}`)}\n`;
    }
    s += '\n';
  }
  return s;
}

function fieldList(schema: Schema, level: number, doc: Schema, recursive: boolean, history: Set<string>): string {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : '';
  if (ref && history.has(ref)) return '';
  const next = new Set(history);
  next.add(ref);
  const resolved = resolveRef(ref, doc) ?? schema;
  let s = '';
  for (const k of Object.keys((resolved.properties as Schema) ?? {}).sort()) {
    s += fieldDetail(k, resolved, recursive, level, doc);
    if (recursive) s += fieldList(resolved.properties[k], level + 1, doc, recursive, next);
  }
  for (const sub of (resolved.allOf as Schema[]) ?? []) s += fieldList(sub, level, doc, recursive, next);
  if (resolved.items) s += fieldList(resolved.items, level, doc, recursive, next);
  if (isMapSchema(resolved.additionalProperties)) s += fieldList(resolved.additionalProperties, level, doc, recursive, next);
  return s;
}

function output(schema: Schema, fieldPath: string[], doc: Schema, recursive: boolean, history: Set<string>): string {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : '';
  const nextHistory = new Set(history);
  nextHistory.add(ref);
  const resolved = resolveRef(ref, doc) ?? schema;
  if (fieldPath.length === 0) {
    let s = 'DESCRIPTION:\n';
    s += `${indent(4, wrapString(description(resolved, doc) || '<empty>', 76))}\n`;
    const ed = externalDocs(resolved);
    if (ed) s += `\n${ed}`;
    const fl = fieldList(resolved, 1, doc, recursive, new Set());
    if (fl) s += `FIELDS:\n${fl}`;
    return s;
  }
  if (ref && history.has(ref)) return '';
  const props = resolved.properties as Schema | undefined;
  if (props && props[fieldPath[0]!]) {
    const sub = props[fieldPath[0]!] as Schema;
    let s = '';
    if (fieldPath.length === 1) s += `FIELD: ${fieldPath[0]} <${typeGuess(sub, doc)}>\n${enumText(sub, true, -1, 0)}\n\n`;
    return s + output(sub, fieldPath.slice(1), doc, recursive, new Set());
  }
  if (resolved.items) return output(resolved.items, fieldPath, doc, recursive, nextHistory);
  if (isMapSchema(resolved.additionalProperties)) return output(resolved.additionalProperties, fieldPath, doc, recursive, nextHistory);
  for (const sub of (resolved.allOf as Schema[]) ?? []) {
    const o = output(sub, fieldPath, doc, recursive, nextHistory);
    if (o) return o;
  }
  return '';
}

export interface Gvr {
  group: string;
  version: string;
  resource: string;
}

/** The whole explain text for a resource (and optional field path) from its group-version's OpenAPI v3 document. */
export function renderExplain(doc: Schema, gvr: Gvr, fieldPath: string[], recursive: boolean): string {
  const prefix = gvr.group ? `/apis/${gvr.group}` : '/api';
  const searches = [
    [prefix, gvr.version, gvr.resource],
    [prefix, gvr.version, gvr.resource, '{name}'],
    [prefix, gvr.version, 'namespaces', '{namespace}', gvr.resource],
    [prefix, gvr.version, 'namespaces', '{namespace}', gvr.resource, '{name}'],
  ].map((p) => p.join('/'));
  let gvk: Schema | undefined;
  outer: for (const sp of searches) {
    const el = doc.paths?.[sp];
    if (!el) continue;
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
      const g = el[m]?.['x-kubernetes-group-version-kind'];
      if (g) {
        gvk = g as Schema;
        break outer;
      }
    }
  }
  if (!gvk) {
    const gv = gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
    throw new ExplainError(`error: GVR (${gv}, Resource=${gvr.resource}) not found in OpenAPI schema`);
  }
  let s = '';
  if (gvk.group) s += `GROUP:      ${gvk.group}\n`;
  s += `KIND:       ${gvk.kind}\nVERSION:    ${gvk.version}\n\n`;
  const schemas = (doc.components?.schemas as Record<string, Schema>) ?? {};
  let body: string | undefined;
  for (const name of Object.keys(schemas).sort()) {
    const sch = schemas[name]!;
    const gvks = sch['x-kubernetes-group-version-kind'] as Schema[] | undefined;
    if (!Array.isArray(gvks) || !gvks.some((g) => g.group === gvk!.group && g.kind === gvk!.kind && g.version === gvk!.version && Object.keys(g).length === Object.keys(gvk!).length)) continue;
    body = output(sch, fieldPath, doc, recursive, new Set());
    if (!body) {
      const e = new ExplainError(`error: field "${fieldPath[fieldPath.length - 1]}" does not exist`);
      e.partial = s;
      throw e;
    }
    break;
  }
  if (!body) throw new ExplainError(`error: GVK map[group:${gvk.group} kind:${gvk.kind} version:${gvk.version}] not found in OpenAPI schema`);
  return `${s}${body}\n`;
}
