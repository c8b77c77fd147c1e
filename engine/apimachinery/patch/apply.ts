// The PATCH verb's patching step as k8s.io/apiserver/pkg/endpoints/handlers/patch.go
// runs it for the three patch types, with its mapping of patch errors onto
// Status codes (applyJSPatch, strategicPatchObject, interpretStrategicMergePatchError).
import { status } from '../status';
import type { JsonObject, JsonValue, Status } from '../types';
import type { MergePatchErrorKind } from './errors';
import { isObject } from './goValues';
import { applyJsonPatch, unprocessable } from './jsonPatch';
import { applyMergePatchV4 } from './jsonMergePatch';
import type { StructPatchMeta } from './patchMeta';
import { applyStrategicMergePatch } from './strategicMerge';
import { assertNever } from '../../sim/assert';

/** types.PatchType values accepted by this step (server-side apply is a separate path). */
export type PatchType = 'application/json-patch+json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json';

export type PatchOutcome = { ok: true; value: JsonValue } | { ok: false; status: Status };

/**
 * Patches `current` (the versioned object as JSON) with a decoded patch body.
 * `meta` is the kind's patch metadata (patchMetaFor); without it, strategic
 * merge patch is refused as for custom resources.
 */
export function applyPatch(patchType: PatchType, current: JsonObject, patch: JsonValue, meta: StructPatchMeta | undefined): PatchOutcome {
  switch (patchType) {
    case 'application/json-patch+json': {
      const r = applyJsonPatch(current, patch);
      return r.ok ? r : { ok: false, status: r.status };
    }
    case 'application/merge-patch+json': {
      const r = applyMergePatchV4(current, patch);
      if (r.ok) return r;
      // ErrBadJSONPatch is a bad request; any other error is returned bare and becomes a 500.
      return { ok: false, status: r.error === 'Invalid JSON Patch' ? status.badRequest(r.error) : unknownError(r.error) };
    }
    case 'application/strategic-merge-patch+json': {
      if (meta === undefined) {
        return {
          ok: false,
          status: status.unsupportedMediaType(
            'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
          ),
        };
      }
      const r = applyStrategicMergePatch(current, patch, meta);
      if (r.ok) return { ok: true, value: pruneDirectiveKeys(r.value) };
      return { ok: false, status: interpretStrategicMergePatchError(r.kind, r.error) };
    }
    default:
      return assertNever(patchType, 'patch type');
  }
}

/** interpretStrategicMergePatchError: 400 for malformed patches, 422 for a few, and the bare error (500) otherwise. */
export function interpretStrategicMergePatchError(kind: MergePatchErrorKind, message: string): Status {
  switch (kind) {
    case 'DecodeError':
    case 'ErrBadJSONDoc':
    case 'ErrBadPatchFormatForPrimitiveList':
    case 'ErrBadPatchFormatForRetainKeys':
    case 'ErrBadPatchFormatForSetElementOrderList':
    case 'ErrUnsupportedStrategicMergePatchFormat':
      return status.badRequest(message);
    case 'ErrNoListOfLists':
    case 'ErrPatchContentNotMatchRetainKeys':
      return unprocessable(message);
    case 'ErrConflict':
    case 'ErrPreconditionFailed':
    case 'Other':
      return unknownError(message);
    default:
      return assertNever(kind, 'merge patch error');
  }
}

/** ErrorToAPIStatus for an error that is not a Status: code 500, no reason, the error's text. */
function unknownError(message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
}

const isDirectiveKey = (k: string): boolean =>
  k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/') || k.startsWith('$deleteFromPrimitiveList/');

/**
 * Decoding the patched map into the typed object drops fields the type does
 * not have; directive keys left behind by a patch ($retainKeys in an added
 * list item, say) are such fields, so they are dropped here.
 */
export function pruneDirectiveKeys(v: JsonObject): JsonObject {
  const prune = (x: JsonValue): JsonValue => {
    if (Array.isArray(x)) return x.map(prune);
    if (!isObject(x)) return x;
    const out: JsonObject = {};
    for (const k of Object.keys(x)) if (!isDirectiveKey(k)) out[k] = prune(x[k] as JsonValue);
    return out;
  };
  return prune(v) as JsonObject;
}
