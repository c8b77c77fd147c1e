// A mutating admission plugin's JSON patch (RFC 6902) as lines a person reads:
// one per operation, a sign for what it does, the path, and the value.
import type { StageRecord } from '../../engine/apiserver/records/types';

type PatchOp = NonNullable<StageRecord['patch']>[number];

export interface PatchLine {
  op: string;
  /** + add, − remove, ~ replace, → move/copy, = test, ? anything malformed. */
  sign: '+' | '−' | '~' | '→' | '=' | '?';
  path: string;
  /** `from` of move/copy. */
  from?: string;
  /** The value as JSON: one line when short, indented when not. */
  value?: string;
  /** Whether `value` spans several lines. */
  multiline?: boolean;
}

const SIGN: Record<string, PatchLine['sign']> = { add: '+', remove: '−', replace: '~', move: '→', copy: '→', test: '=' };

/** Values up to this many characters print on the operation's line. */
export const INLINE_VALUE_MAX = 60;

export function formatValue(v: unknown): { text: string; multiline: boolean } {
  const one = JSON.stringify(v) ?? 'undefined';
  if (one.length <= INLINE_VALUE_MAX) return { text: one, multiline: false };
  return { text: JSON.stringify(v, null, 2), multiline: true };
}

export function describePatch(patch: readonly PatchOp[]): PatchLine[] {
  return patch.map((p) => {
    if (p === null || typeof p !== 'object' || Array.isArray(p)) {
      const v = formatValue(p);
      return { op: '?', sign: '?', path: '', value: v.text, multiline: v.multiline };
    }
    const o = p as Record<string, unknown>;
    const op = typeof o.op === 'string' ? o.op : '?';
    const line: PatchLine = { op, sign: SIGN[op] ?? '?', path: typeof o.path === 'string' ? o.path : '' };
    if (typeof o.from === 'string') line.from = o.from;
    if ('value' in o && op !== 'remove') {
      const v = formatValue(o.value);
      line.value = v.text;
      line.multiline = v.multiline;
    }
    return line;
  });
}
