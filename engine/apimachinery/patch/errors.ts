// The errors strategic merge patch can answer with, with upstream's texts
// (k8s.io/apimachinery/pkg/util/mergepatch/errors.go and the fmt.Errorf calls
// of strategicpatch/patch.go). The sentinel kinds matter: the API server maps
// some of them to 400 or 422 and everything else to 500.
import type { JsonObject, JsonValue } from '../types';
import { goFmtS, goFmtV, goType, goTypeName, type GoType } from './goValues';

export type MergePatchErrorKind =
  | 'ErrBadJSONDoc'
  | 'ErrNoListOfLists'
  | 'ErrBadPatchFormatForPrimitiveList'
  | 'ErrBadPatchFormatForRetainKeys'
  | 'ErrBadPatchFormatForSetElementOrderList'
  | 'ErrPatchContentNotMatchRetainKeys'
  | 'ErrUnsupportedStrategicMergePatchFormat'
  | 'ErrConflict'
  | 'ErrPreconditionFailed'
  /** The patch body is not a JSON object (the API server fails to decode it before patching: 400). */
  | 'DecodeError'
  /** Any other error (fmt.Errorf, ErrNoMergeKey, ErrBadArgType...): a plain Go error. */
  | 'Other';

export interface MergePatchError {
  kind: MergePatchErrorKind;
  message: string;
}

/** A patch outcome; `error` is the text upstream's error prints, `kind` which error it is. */
export type PatchResult<T> = { ok: true; value: T } | { ok: false; error: string; kind: MergePatchErrorKind };

const SENTINEL: Partial<Record<MergePatchErrorKind, string>> = {
  ErrBadJSONDoc: 'invalid JSON document',
  ErrNoListOfLists: 'lists of lists are not supported',
  ErrBadPatchFormatForPrimitiveList: 'invalid patch format of primitive list',
  ErrBadPatchFormatForRetainKeys: 'invalid patch format of retainKeys',
  ErrBadPatchFormatForSetElementOrderList: 'invalid patch format of setElementOrder list',
  ErrPatchContentNotMatchRetainKeys: "patch content doesn't match retainKeys list",
  ErrUnsupportedStrategicMergePatchFormat: 'strategic merge patch format is not supported',
};

/** A sentinel error value (errors.New in mergepatch). */
export function sentinel(kind: keyof typeof SENTINEL & MergePatchErrorKind): MergePatchError {
  return { kind, message: SENTINEL[kind] ?? kind };
}

export function other(message: string): MergePatchError {
  return { kind: 'Other', message };
}

export const mergepatchErr = {
  noMergeKey(m: JsonObject | null, k: string): MergePatchError {
    return other(`map: ${m === null ? 'map[]' : goFmtV(m)} does not contain declared merge key: ${k}`);
  },
  /** ErrBadArgType(expected, actual): the Go types of what was wanted and what came. */
  badArgType(expected: GoType, actual: JsonValue | undefined): MergePatchError {
    return other(`expected a ${goTypeName(expected)}, but received a ${goTypeName(goType(actual))}`);
  },
  badPatchType(t: JsonValue | undefined, m: JsonObject): MergePatchError {
    return other(`unknown patch type: ${goFmtS(t)} in map: ${goFmtV(m)}`);
  },
  preconditionFailed(target: JsonObject): MergePatchError {
    return { kind: 'ErrPreconditionFailed', message: `precondition failed for: ${goFmtV(target)}` };
  },
  conflict(patchYaml: string, currentYaml: string): MergePatchError {
    return { kind: 'ErrConflict', message: `patch:\n${patchYaml}\nconflicts with changes made from original to current:\n${currentYaml}\n` };
  },
};

/**
 * Go unwinds errors by returning them through deep recursion; we throw this
 * private carrier instead and turn it back into a value at every exported
 * function, so callers only ever see PatchResult values.
 */
const ABORT = Symbol('patch abort');
export interface PatchAbort {
  readonly [ABORT]: true;
  readonly error: MergePatchError;
}

export function isPatchAbort(e: unknown): e is PatchAbort {
  return typeof e === 'object' && e !== null && ABORT in e;
}

export function fail(error: MergePatchError): never {
  const abort: PatchAbort = { [ABORT]: true, error };
  throw abort;
}

export function catchAbort<T>(fn: () => T): PatchResult<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (isPatchAbort(e)) return { ok: false, error: e.error.message, kind: e.error.kind };
    throw e;
  }
}
