// sigs.k8s.io/yaml's Marshal for decoded JSON, as mergepatch.ToYAMLOrError
// prints patches in conflict errors: keys sorted, block style, sequences at
// the indentation of their key, strings quoted only when YAML would misread them.
import type { JsonObject, JsonValue } from '../types';
import { goFmtV, goType, isObject, sortedKeys } from './goValues';

const PLAIN_UNSAFE = /^(?:[-?:,[\]{}#&*!|>'"%@`~]|$)|^\s|\s$|: |\s#|[\n\t\r]/;
const LOOKS_TYPED = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|[-+]?(?:\.\d+|\d[\d_]*(?:\.\d*)?)(?:[eE][-+]?\d+)?|0x[0-9a-fA-F_]+|0o?[0-7_]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|\d{4}-\d\d?-\d\d?.*)$/;

function scalar(v: JsonValue): string {
  if (typeof v === 'string') return PLAIN_UNSAFE.test(v) || LOOKS_TYPED.test(v) ? JSON.stringify(v) : v;
  if (v === null) return 'null';
  return goFmtV(v);
}

function emit(v: JsonValue, indent: string, out: string[]): void {
  if (isObject(v)) {
    for (const k of sortedKeys(v)) {
      const child = (v as JsonObject)[k] as JsonValue;
      const key = scalar(k);
      if (isEmptyOrScalar(child)) out.push(`${indent}${key}: ${inline(child)}`);
      else {
        out.push(`${indent}${key}:`);
        emit(child, Array.isArray(child) ? indent : `${indent}  `, out);
      }
    }
    return;
  }
  if (Array.isArray(v)) {
    for (const item of v) {
      if (isEmptyOrScalar(item)) {
        out.push(`${indent}- ${inline(item)}`);
        continue;
      }
      // The first line of a nested block shares the dash.
      const sub: string[] = [];
      emit(item, `${indent}  `, sub);
      const first = sub[0] ?? '';
      out.push(`${indent}- ${first.slice(indent.length + 2)}`, ...sub.slice(1));
    }
    return;
  }
  out.push(`${indent}${scalar(v)}`);
}

function isEmptyOrScalar(v: JsonValue): boolean {
  const t = goType(v);
  if (t === 'map') return Object.keys(v as JsonObject).length === 0;
  if (t === 'slice') return (v as JsonValue[]).length === 0;
  return true;
}

function inline(v: JsonValue): string {
  if (Array.isArray(v)) return '[]';
  if (isObject(v)) return '{}';
  return scalar(v);
}

export function toYAML(v: JsonValue): string {
  if (isEmptyOrScalar(v)) return `${inline(v)}\n`;
  const out: string[] = [];
  emit(v, '', out);
  return `${out.join('\n')}\n`;
}
